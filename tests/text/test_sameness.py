"""compare(): the delta between a cached request and a new one."""

from __future__ import annotations

from stepcache_integrations.core.text import Edit, RequestDelta, compare, mentions


def texts(edit: Edit) -> tuple[list[str], list[str]]:
    return [t.text for t in edit.removed], [t.text for t in edit.added]


# -- what today's prompt diff does right, kept ---------------------------------------------------


def test_renamed_variable_is_a_substitution() -> None:
    delta = compare("Solve 3x + 5 = 20 for x", "Solve 3y + 5 = 20 for y")
    assert delta.substitutions == {"x": "y"}
    assert delta.removed == {"x"}
    assert delta.added == {"y"}
    assert not delta.numbers_changed
    assert not delta.same and not delta.identical_content


def test_changed_constant_is_a_substitution_and_a_number_change() -> None:
    delta = compare("Solve for x: 3x + 5 = 20", "Solve for x: 3x + 7 = 20")
    assert delta.substitutions == {"5": "7"}
    assert delta.numbers_changed
    assert [texts(edit) for edit in delta.edits] == [(["5"], ["7"])]


def test_conflicting_substitutions_are_dropped() -> None:
    delta = compare("a 1 b 1", "a 2 b 3")
    assert "1" not in delta.substitutions
    assert delta.removed == {"1"}


def test_substitutions_are_one_to_one() -> None:
    delta = compare("Compare x with y", "Compare z with z")
    assert delta.substitutions == {}


def test_a_swap_is_no_substitution_but_an_edit() -> None:
    delta = compare("Say hi from English to French", "Say hi from French to English")
    assert not delta.same
    assert delta.substitutions == {}
    assert delta.removed == frozenset() and delta.added == frozenset()
    assert delta.edits


# -- every word is meaning now ---------------------------------------------------------------


def test_ordinary_words_are_in_removed_and_added() -> None:
    delta = compare("Sort the list in ascending order", "Sort the list in descending order")
    assert delta.removed == {"ascending"} and delta.added == {"descending"}
    assert delta.substitutions == {"ascending": "descending"}


def test_removed_and_added_compare_without_case() -> None:
    delta = compare("Is it far to Boston on Tuesday", "is it far to boston on thursday")
    assert delta.removed == {"Tuesday"} and delta.added == {"thursday"}


def test_quoted_strings_are_given_without_quotes() -> None:
    delta = compare('Set "city" to "Lisbon"', 'Set "city" to "Porto"')
    assert delta.removed == {"Lisbon"} and delta.added == {"Porto"}
    assert delta.substitutions == {'"Lisbon"': '"Porto"'}


def test_marks_are_edits_but_not_in_removed_or_added() -> None:
    delta = compare("Solve 3x + 5 = 20", "Solve 3x - 5 = 20")
    assert not delta.same
    assert delta.removed == frozenset() and delta.added == frozenset()
    assert delta.numbers_changed  # the sign of 5 changed
    assert delta.substitutions == {}


def test_an_insertion_and_a_deletion() -> None:
    delta = compare("Should I eat raw eggs?", "Should I not eat raw eggs?")
    assert [texts(edit) for edit in delta.edits] == [([], ["not"])]
    assert delta.polarity_changed
    back = compare("Should I not eat raw eggs?", "Should I eat raw eggs?")
    assert [texts(edit) for edit in back.edits] == [(["not"], [])]
    assert back.removed == {"not"}


def test_negated_forms_change_polarity() -> None:
    assert compare("Is it safe?", "Is it unsafe?").polarity_changed
    assert compare("I don't like it", "I like it").polarity_changed
    assert not compare("Is it safe?", "Is it cheap?").polarity_changed


def test_contraction_edits_are_reported_as_words() -> None:
    delta = compare("Why do cats purr?", "Why don't cats purr?")
    assert [texts(edit) for edit in delta.edits] == [([], ["not"])]


def test_numbers_changed_by_value_order_and_count() -> None:
    assert compare("Divide 12 by 4", "Divide 4 by 12").numbers_changed
    assert compare("Add 2 and 3", "Add 2 and 3 and 4").numbers_changed
    assert compare("Pay 1,000 euros", "Pay 1,500 euros").numbers_changed
    assert not compare("Add 2 and 3", "Please add 2 and 3").numbers_changed
    assert not compare("Add 2 and 3 apples", "Add 2 and 3 pears").numbers_changed
    assert compare('Set "year" to "1999"', 'Set "year" to "2005"').numbers_changed
    assert compare("Run:\n```\nrange(3)\n```", "Run:\n```\nrange(5)\n```").numbers_changed


def test_a_delta_built_by_hand_is_not_the_same_request() -> None:
    delta = RequestDelta(substitutions={"x": "y"})
    assert not delta.same and not delta.identical_content


def test_delta_of_the_same_request() -> None:
    delta = compare("Could you list the planets?", "list the planets")
    assert delta == RequestDelta(same=True)
    assert delta.identical_content


def test_edits_never_hold_neutral_tokens() -> None:
    delta = compare("Please list the planets, thanks!", "Can you list the moons?")
    assert [texts(edit) for edit in delta.edits] == [(["planets"], ["moons"])]


def test_issue_examples() -> None:
    assert not compare("Is 17 a prime number?", "Is 17 an even number?").same
    assert not compare("Convert 100 USD to EUR", "Convert 100 USD to JPY").same
    assert not compare("Spain: what is the capital city?", "France: what is the capital city?").same
    delta = compare("Solve 3x + 5 = 20 for x.", "Solve 3x + 5 = 20, then give x squared.")
    assert not delta.same and "squared" in delta.added


# -- mentions: which removed words a cached step still mentions ------------------------------


def test_mentions_any_case_and_inside_coefficients() -> None:
    assert mentions("Step 1: 3x = 15", {"x", "y"}) == {"x"}
    assert mentions("The flight to BOSTON leaves at 9", {"Boston"}) == {"Boston"}
    assert mentions("It is not safe.", {"not", "unsafe"}) == {"not"}
    assert mentions("You don't need one.", {"not"}) == {"not"}
    assert mentions('{"city": "Lisbon"}', {"Lisbon"}) == {"Lisbon"}
    assert mentions("Welcome to New York!", {"New York"}) == {"New York"}
    assert mentions("nothing here", set()) == frozenset()
    assert mentions("Lisbonne", {"Lisbon"}) == frozenset()
