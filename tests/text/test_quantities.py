"""The quantity reader: every written form of a quantity, its kind, value, span and unit."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from stepcache_integrations.core.tasks.word_problem.verifier import WordProblemVerifier
from stepcache_integrations.core.text.quantities import (
    QUANTITY_KINDS,
    Quantity,
    fraction_to_words,
    number_to_words,
    ordinal_to_words,
    read_quantities,
)
from stepcache_integrations.core.verifiers.base import Outcome, VerifyContext


def shown(text: str) -> list[tuple[str, str, str]]:
    return [(q.text, q.kind, str(q.value)) for q in read_quantities(text)]


def single(text: str) -> Quantity:
    found = read_quantities(text)
    assert len(found) == 1, found
    return found[0]


# --- digits -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("24", 24),
        ("1,200", 1200),
        ("12,345,678", 12345678),
        ("3.5", Fraction(7, 2)),
        ("0.25", Fraction(1, 4)),
        ("1,200.50", Fraction(2401, 2)),
        ("-7", -7),
        ("-3.5", Fraction(-7, 2)),
        ("\u22127", -7),
        ("2 1/2", Fraction(5, 2)),
    ],
)
def test_digits(text: str, value: Fraction) -> None:
    quantity = single(f"We have {text} left.")
    assert quantity.value == value
    assert quantity.kind == "number"
    assert quantity.text == text


def test_separators_that_are_not_thousands_split_the_numbers() -> None:
    assert shown("1,2 and 1,2345") == [
        ("1", "number", "1"),
        ("2", "number", "2"),
        ("1", "number", "1"),
        ("2345", "number", "2345"),
    ]


def test_a_minus_between_operands_is_not_a_sign() -> None:
    assert [q.value for q in read_quantities("24-18 and 24 - 18 and (-3)")] == [24, 18, 24, 18, -3]


def test_currency_is_part_of_the_text_and_the_unit() -> None:
    quantity = single("It costs $5 each.")
    assert (quantity.text, quantity.value, quantity.unit) == ("$5", 5, "$")
    euros = single("It costs €2.50.")
    assert (euros.text, euros.value, euros.unit) == ("€2.50", Fraction(5, 2), "€")


def test_spans_point_into_the_text() -> None:
    text = "Ana has twenty-four apples and gives away a third of them, 25% of 80."
    for quantity in read_quantities(text):
        assert text[quantity.start : quantity.end] == quantity.text
    assert [q.text for q in read_quantities(text)] == ["twenty-four", "a third", "25%", "80"]


def test_digits_glued_to_a_letter_are_not_a_quantity() -> None:
    # "3x" is a term of an equation, "x3" and "A4" identifiers.
    assert shown("3x + 5, x3, A4") == [("5", "number", "5")]


def test_dates_and_versions_are_not_fractions() -> None:
    assert all(q.kind != "fraction" for q in read_quantities("on 1/2/2024, version 1.2.3"))


def test_huge_digit_runs_are_not_quantities() -> None:
    assert read_quantities("id " + "9" * 40) == []


# --- number words -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("zero", 0),
        ("seven", 7),
        ("thirteen", 13),
        ("twenty", 20),
        ("twenty-four", 24),
        ("twenty four", 24),
        ("Ninety-nine", 99),
        ("a hundred", 100),
        ("a hundred and five", 105),
        ("one hundred five", 105),
        ("three hundred and twenty-one", 321),
        ("fifteen hundred", 1500),
        ("two thousand", 2000),
        ("two thousand and five", 2005),
        ("one hundred and one thousand", 101_000),
        ("a thousand and one", 1001),
        ("one million two hundred thousand", 1_200_000),
        ("three billion", 3_000_000_000),
        ("1.5 million", 1_500_000),
        ("3 thousand", 3000),
        ("a dozen", 12),
        ("two dozen", 24),
        ("2 dozen", 24),
        ("half a dozen", 6),
        ("two and a half", Fraction(5, 2)),
        ("one and a quarter", Fraction(5, 4)),
        ("three and three quarters", Fraction(15, 4)),
        ("negative five", -5),
    ],
)
def test_number_words(text: str, value: Fraction) -> None:
    quantity = single(f"They counted {text} yesterday.")
    assert quantity.value == value
    assert quantity.kind == "number"
    assert quantity.text == text


def test_adjacent_numbers_that_do_not_compose_stay_apart() -> None:
    assert [q.value for q in read_quantities("five six")] == [5, 6]
    assert [q.value for q in read_quantities("twenty twenty")] == [20, 20]
    assert [q.value for q in read_quantities("one hundred two hundred")] == [100, 200]


def test_and_between_two_whole_numbers_is_a_conjunction() -> None:
    assert [q.value for q in read_quantities("between one hundred and two hundred")] == [100, 200]
    assert [q.value for q in read_quantities("five hundred and sold two")] == [500, 2]
    assert [q.value for q in read_quantities("three and four")] == [3, 4]


def test_one_as_a_pronoun_is_not_a_count() -> None:
    assert read_quantities("Which one is the right one? No one knows.") == []
    assert [q.value for q in read_quantities("one of them")] == [1]


def test_words_inside_other_words_are_not_numbers() -> None:
    assert read_quantities("Someone often gives tone and weight.") == []


def test_a_alone_is_not_one() -> None:
    assert read_quantities("A cat and a dog.") == []


# --- ordinals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("first", 1),
        ("second", 2),
        ("third", 3),
        ("twelfth", 12),
        ("twentieth", 20),
        ("twenty-first", 21),
        ("thirty-second", 32),
        ("ninety ninth", 99),
        ("hundredth", 100),
        ("1st", 1),
        ("2nd", 2),
        ("3rd", 3),
        ("21st", 21),
        ("104th", 104),
    ],
)
def test_ordinals(text: str, value: int) -> None:
    quantity = single(f"She came {text} in the race.")
    assert (quantity.value, quantity.kind, quantity.text) == (value, "ordinal", text)


def test_second_as_a_unit_of_time_is_not_an_ordinal() -> None:
    assert shown("Wait one second, then 30 seconds, at 2 metres per second.") == [
        ("one", "number", "1"),
        ("30", "number", "30"),
        ("2", "number", "2"),
    ]
    assert single("one second").unit == "second"


def test_a_third_is_a_fraction_before_of_and_an_ordinal_otherwise() -> None:
    assert shown("a third of the cake") == [("a third", "fraction", "1/3")]
    assert shown("a third box") == [("third", "ordinal", "3")]


# --- fractions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("half", Fraction(1, 2)),
        ("a half", Fraction(1, 2)),
        ("one half", Fraction(1, 2)),
        ("one-half", Fraction(1, 2)),
        ("a quarter", Fraction(1, 4)),
        ("one quarter", Fraction(1, 4)),
        ("three quarters", Fraction(3, 4)),
        ("three-quarters", Fraction(3, 4)),
        ("three fourths", Fraction(3, 4)),
        ("one third", Fraction(1, 3)),
        ("two thirds", Fraction(2, 3)),
        ("two-thirds", Fraction(2, 3)),
        ("a fifth", Fraction(1, 5)),
        ("four fifths", Fraction(4, 5)),
        ("five eighths", Fraction(5, 8)),
        ("seven tenths", Fraction(7, 10)),
        ("3/4", Fraction(3, 4)),
        ("1/2", Fraction(1, 2)),
        ("2 thirds", Fraction(2, 3)),
    ],
)
def test_fractions(text: str, value: Fraction) -> None:
    quantity = single(f"He ate {text} of the pie.")
    assert (quantity.value, quantity.kind, quantity.text) == (value, "fraction", text)


# --- multipliers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "quantity_text"),
    [
        ("twice as many", 2, "twice"),
        ("thrice as many", 3, "thrice"),
        ("double the number", 2, "double"),
        ("triple the number", 3, "triple"),
        ("half as many", Fraction(1, 2), "half"),
        ("three times as many", 3, "three times"),
        ("3 times more", 3, "3 times"),
        ("one and a half times as many", Fraction(3, 2), "one and a half times"),
        ("two thirds as many", Fraction(2, 3), "two thirds"),
    ],
)
def test_multipliers(text: str, value: Fraction, quantity_text: str) -> None:
    quantity = single(f"Bo has {text} marbles as Al.")
    assert (quantity.value, quantity.kind, quantity.text) == (value, "multiplier", quantity_text)


def test_times_without_a_comparison_is_a_count() -> None:
    quantity = single("She ran three times.")
    assert (quantity.value, quantity.kind, quantity.unit) == (3, "number", "times")


# --- percentages ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("25%", Fraction(1, 4)),
        ("25 %", Fraction(1, 4)),
        ("12.5%", Fraction(1, 8)),
        ("40 percent", Fraction(2, 5)),
        ("40 per cent", Fraction(2, 5)),
        ("twenty five percent", Fraction(1, 4)),
        ("twenty-five percent", Fraction(1, 4)),
        ("a hundred percent", Fraction(1)),
    ],
)
def test_percentages(text: str, value: Fraction) -> None:
    quantity = single(f"Prices rose {text} this year.")
    assert (quantity.value, quantity.kind, quantity.text) == (value, "percent", text)


# --- units ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("It took 3 hours.", "hours"),
        ("We invited eight people.", "people"),
        ("A 4-hour trip.", "hour"),
        ("It weighs 5kg.", "kg"),
        ("She paid $5 per hour.", "$"),
        ("He bought 3 more apples.", None),
        ("3 of the apples", None),
        ("The 2nd floor", "floor"),
        ("twenty-four rolls", "rolls"),
        ("A 25% discount", "discount"),
        ("5 dollars", "$"),  # the currency word is part of the amount: "$5"
    ],
)
def test_units(text: str, unit: str | None) -> None:
    assert read_quantities(text)[0].unit == unit


def test_a_number_word_after_a_quantity_is_not_its_unit() -> None:
    assert [q.unit for q in read_quantities("5 twelve")] == [None, None]


# --- a whole word problem ---------------------------------------------------------------------


def test_a_word_problem_reads_in_order_without_overlaps() -> None:
    text = (
        "A baker makes 24 rolls in the morning and two dozen in the afternoon. She sells three "
        "quarters of them at $2 each, gives a third of the rest to her 3 neighbours and keeps "
        "twice as many for herself as she gave to the first neighbour. How many are left?"
    )
    assert shown(text) == [
        ("24", "number", "24"),
        ("two dozen", "number", "24"),
        ("three quarters", "fraction", "3/4"),
        ("$2", "number", "2"),
        ("a third", "fraction", "1/3"),
        ("3", "number", "3"),
        ("twice", "multiplier", "2"),
        ("first", "ordinal", "1"),
    ]
    quantities = read_quantities(text)
    assert all(a.end <= b.start for a, b in itertools.pairwise(quantities))
    assert {q.kind for q in quantities} <= set(QUANTITY_KINDS)


def test_every_result_is_a_fresh_list() -> None:
    first = read_quantities("3 cats")
    first.clear()
    assert len(read_quantities("3 cats")) == 1


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match="needs a str"):
        read_quantities(3)  # type: ignore[arg-type]


def test_text_without_quantities() -> None:
    assert read_quantities("") == []
    assert read_quantities("   \n\t ") == []
    assert read_quantities("Tell me a joke about cats.") == []


# --- writing values in words ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "words"),
    [
        (0, "zero"),
        (7, "seven"),
        (24, "twenty-four"),
        (100, "one hundred"),
        (105, "one hundred five"),
        (2024, "two thousand twenty-four"),
        (1_000_001, "one million one"),
        (-12, "negative twelve"),
    ],
)
def test_number_to_words(n: int, words: str) -> None:
    assert number_to_words(n) == words
    assert single(words).value == n


def test_number_to_words_with_and() -> None:
    assert number_to_words(105, use_and=True) == "one hundred and five"
    assert number_to_words(2005, use_and=True) == "two thousand and five"


def test_word_writers_refuse_what_they_cannot_write() -> None:
    with pytest.raises(ValueError):
        number_to_words(10**12)
    with pytest.raises(TypeError):
        number_to_words(2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ordinal_to_words(0)
    with pytest.raises(ValueError):
        fraction_to_words(Fraction(3, 2))
    with pytest.raises(ValueError):
        fraction_to_words(Fraction(1, 200))


def test_fraction_and_ordinal_words() -> None:
    assert fraction_to_words(Fraction(1, 2), article=True) == "a half"
    assert fraction_to_words(Fraction(3, 4)) == "three quarters"
    assert fraction_to_words(Fraction(2, 3)) == "two thirds"
    assert fraction_to_words(Fraction(1, 5)) == "one fifth"
    assert ordinal_to_words(2) == "second"
    assert ordinal_to_words(21) == "twenty-first"


# --- every notation of an amount, and how each number is written (issue 24) -------------------


@pytest.mark.parametrize(
    ("text", "value", "unit", "written"),
    [
        ("It costs $70 in all.", Fraction(70), "$", "$70"),
        ("It costs 70 dollars in all.", Fraction(70), "$", "70 dollars"),
        ("It costs seventy dollars in all.", Fraction(70), "$", "seventy dollars"),
        ("It costs 1.25 dollars each.", Fraction(5, 4), "$", "1.25 dollars"),
        ("one dollar and twenty-five cents each", Fraction(5, 4), "$", None),
        ("It costs seventy-five cents.", Fraction(75), "cents", "seventy-five cents"),
        ("It costs 20 euros.", Fraction(20), "\u20ac", "20 euros"),
        ("It weighs 5 pounds.", Fraction(5), "pounds", "5"),  # pounds weigh: no currency
    ],
)
def test_an_amount_of_money_in_every_notation(
    text: str, value: Fraction, unit: str, written: str | None
) -> None:
    quantity = single(text)
    assert (quantity.value, quantity.unit) == (value, unit)
    if written is not None:
        assert quantity.text == written


@pytest.mark.parametrize(
    ("text", "form", "decimals", "grouped", "figures", "scale"),
    [
        ("$7.50", "digits", 2, False, "7.50", 1),
        ("$1,624", "digits", 0, True, "1,624", 1),
        ("25%", "digits", 0, False, "25", 1),
        (".5", "digits", 1, False, ".5", 1),
        ("3/4", "fraction", 0, False, "3/4", 1),
        ("2 3/4", "mixed", 0, False, "2 3/4", 1),
        ("5 dozen", "digits", 0, False, "5", 12),
        ("1.5 million", "digits", 1, False, "1.5", 10**6),
        ("two dozen", "words", 0, False, None, 12),
        ("three quarters", "words", 0, False, None, 1),
    ],
)
def test_how_a_number_is_written(
    text: str, form: str, decimals: int, grouped: bool, figures: str | None, scale: int
) -> None:
    quantity = single(f"We have {text} now.")
    at = f"We have {text} now."
    assert (quantity.form, quantity.decimals, quantity.grouped, quantity.scale) == (
        form,
        decimals,
        grouped,
        scale,
    )
    shown = None if quantity.figures is None else at[quantity.figures[0] : quantity.figures[1]]
    assert shown == figures
    assert quantity.count * quantity.scale == quantity.value


def test_each_one_and_a_quarter_is_a_number_and_which_one_is_not() -> None:
    assert single("each one and a quarter meters long").value == Fraction(5, 4)
    assert read_quantities("Which one is it?") == []


def test_a_unit_has_one_name_however_it_is_written() -> None:
    from stepcache_integrations.core.text.quantities import known_unit, unit_name

    assert unit_name("km") == unit_name("Kilometres") == unit_name("kilometer") == "kilometer"
    assert unit_name("$") == unit_name("dollars") == "dollar"
    assert unit_name("hrs") == unit_name("hours") == "hour"
    assert unit_name("kiwis") == "kiwi" and unit_name("boxes") == "box"
    assert unit_name(None) is None
    assert known_unit("ml") and known_unit("Minutes") and not known_unit("kiwis")


def test_a_line_break_ends_a_whole_number_before_a_fraction() -> None:
    """ "= 300" at the end of a line and "2/5 of the emails" on the next are two quantities,
    not the mixed number "300 2/5" (GSM8K training problem 5290: the word-problem verifier
    crashed on int("300\\n2") reading it as one)."""
    found = [(q.text, q.value, q.form) for q in read_quantities("She has 300\n2/5 of them")]
    assert found == [("300", Fraction(300), "digits"), ("2/5", Fraction(2, 5), "fraction")]
    assert [q.form for q in read_quantities("2 1/2 cups")] == ["mixed"]


def test_the_word_problem_verifier_reads_a_fraction_after_a_line_break() -> None:
    verdict = WordProblemVerifier().check_answer(
        VerifyContext("Ana has 300 apples and sells 2/3 of them. How many are left?"),
        "She has 300\n2/3 * 300 = 200\n300 - 200 = 100\n#### 100",
    )
    assert verdict.outcome is Outcome.PASS, verdict
