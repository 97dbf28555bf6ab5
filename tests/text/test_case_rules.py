"""Letter case is meaning-neutral only where the reading is certain.

Case folds in two places: the capital of a structure word or request verb opening a sentence
("What", "Explain"), and a word that names one thing whatever its case (``PROPER_ONLY``),
unless the request's words may be data. Everywhere else a change of case is a change of
meaning: the capitalised word may be a brand, a title, a product, a file or folder name.
"""

from __future__ import annotations

import pytest

from stepcache_integrations.core.text import compare, same_request
from stepcache_integrations.core.text.lexicon import CAPITONYMS, PROPER_ONLY, REQUEST_VERBS

# -- a capitalised word inside a sentence keeps its case ---------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("What is a Jaguar?", "What is a jaguar?"),
        ("Is Apple a good investment?", "Is apple a good investment?"),
        ("How big is the Amazon?", "How big is the amazon?"),
        ("How do I learn Python?", "How do I learn python?"),
        ("Who owns Shell?", "Who owns shell?"),
        ("How hot is Mercury?", "How hot is mercury?"),
        ("Is Turkey cheap in winter?", "Is turkey cheap in winter?"),
        # Words in no lexicon: the rule, not a list, keeps them apart.
        ("Is the Matrix worth watching?", "Is the matrix worth watching?"),
        ("How fast is a Mustang?", "How fast is a mustang?"),
        ("Where is the Pentagon?", "Where is the pentagon?"),
        ("How do I install Requests?", "How do I install requests?"),
        ("What does a Corvette cost?", "What does a corvette cost?"),
        ("Create a folder named Reports.", "Create a folder named reports."),
        ("Set the username to Admin.", "Set the username to admin."),
        ("What Is The Matrix?", "What is the matrix?"),
    ],
)
def test_a_case_change_inside_a_sentence_is_a_meaning_change(a: str, b: str) -> None:
    assert not compare(a, b).same
    assert not compare(b, a).same
    assert compare(a, b).edits


def test_the_pronoun_i_and_a_lower_case_i_differ_but_its_contractions_fold() -> None:
    assert not same_request("What is i squared?", "What is I squared?")
    assert same_request("Yes, I'm ready. What next?", "Yes, i'm ready. What next?")
    assert same_request("I'm tired. Suggest a nap.", "I am tired. Suggest a nap.")
    assert same_request("Hi, I need a recipe for pancakes.", "I need a recipe for pancakes.")


# -- a capital the sentence's start forces is the sentence's --------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Explain how tides work", "explain how tides work"),
        ("What is the speed of sound?", "what is the speed of sound?"),
        ("It rains. Why is the sky grey?", "It rains. why is the sky grey?"),
        ("Is it late? Should I sleep?", "Is it late? should I sleep?"),
        ("Stop! How do I undo a commit?", "Stop! how do I undo a commit?"),
        ("I passed level 3. What comes next?", "I passed level 3. what comes next?"),
        ("Why do tides happen?\nWhat causes them?", "Why do tides happen?\nwhat causes them?"),
        ("Don't panic. How do I restore a backup?", "don't panic. How do I restore a backup?"),
        ("Sketch a cat", "sketch a cat"),  # a capitonym that is a request verb
    ],
)
def test_a_sentence_initial_capital_folds(a: str, b: str) -> None:
    assert same_request(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ask Mr. Stone about it.", "Ask Mr. stone about it."),  # an abbreviation
        ("Compare it with e.g. Kestrel.", "Compare it with e.g. kestrel."),  # a dot inside
        ("Meet J. Carter at noon.", "Meet J. carter at noon."),  # an initial
        ("Wait... Kestrel?", "Wait... kestrel?"),  # an ellipsis
        ("Polish is hard to learn.", "polish is hard to learn."),  # a capitonym
        ("Turkey is cheap.", "turkey is cheap."),
        # A content word opening a sentence may be data whose case the answer reflects.
        ("Kestrel is my username. What is its MD5?", "kestrel is my username. What is its MD5?"),
        ("Apples have how many calories?", "apples have how many calories?"),
    ],
)
def test_a_capital_that_may_not_be_the_sentences_keeps_its_case(a: str, b: str) -> None:
    assert not same_request(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("What is Kestrel in reverse? Spell it.", "what is Kestrel in reverse? Spell it."),
        ("Is it Boston? Count its capital letters.", "Is it boston? Count its capital letters."),
        ("I can't go. Count the characters.", "I cannot go. Count the characters."),
    ],
)
def test_a_request_about_its_own_text_keeps_every_spelling(a: str, b: str) -> None:
    assert not same_request(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Is Boston a strong password?", "Is boston a strong password?"),
        ("What is the MD5 of Oslo?", "What is the MD5 of oslo?"),
        ("Create a folder for Lisbon.", "Create a folder for lisbon."),
        ('Return JSON where "city" is Boston.', 'Return JSON where "city" is boston.'),
    ],
)
def test_a_name_that_may_be_data_keeps_its_case(a: str, b: str) -> None:
    assert not same_request(a, b)


# -- a word that names one thing folds anywhere -------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Recommend a hotel in boston", "Recommend a hotel in Boston"),
        ("Is monday a holiday in peru?", "Is Monday a holiday in Peru?"),
        ("How many moons does jupiter have?", "How many moons does Jupiter have?"),
        ("Plan a week in lisbon in april.", "Plan a week in Lisbon in April."),
    ],
)
def test_a_name_with_no_lower_case_meaning_folds_anywhere(a: str, b: str) -> None:
    assert same_request(a, b)


def test_the_name_lists_never_overlap() -> None:
    assert not PROPER_ONLY & CAPITONYMS
    # Words with a lower-case meaning are left out on purpose.
    for word in ("china", "turkey", "japan", "lima", "wales", "french", "march", "may", "paris"):
        assert word not in PROPER_ONLY
    assert not PROPER_ONLY & REQUEST_VERBS
