"""Requests about their own text: no edit is meaning-neutral for them.

"Count the commas." has none and "Count the commas, please." has one; "Which words in here
are nouns?" and "Thanks! Which words in here are nouns?" list different words. A request
that may be about its own wording, marks, tone or length is the same request only as its
identical text. The cases here are written for this file (not taken from any corpus): first
the judgement itself, then what it does to the comparison, then the control: a request about
something else keeps its neutral edits.
"""

from __future__ import annotations

import pytest

from stepcache_integrations.core.text import (
    about_own_text,
    compare,
    request_form,
    same_request,
)
from stepcache_integrations.core.text.self_reference import answer_about_request

ABOUT_ITSELF = [
    # a count of units of text
    "Count the commas.",
    "How many words did I use?",
    "Tell me the number of words in my request.",
    "How many times does the letter e occur here?",
    # a position in the text
    "What is the first word of my message?",
    "What's the last word here?",
    "Hello. What is the second word I wrote?",
    # the writer's own words
    "Repeat exactly what I wrote, including punctuation.",
    "Which letter appears most often in what I typed?",
    "Reverse the order of the words I used.",
    "Say back what I typed, word for word.",
    "What punctuation did I use?",
    "Rate how friendly I sound.",
    # a pointing word before a noun of the message, or "here" / "above"
    "Echo my input back unchanged.",
    "Is my question grammatical?",
    "List every word of this prompt in reverse order.",
    "Does this sentence contain the word please?",
    "Which words in here are nouns?",
    "Does the text above have a typo?",
    "Answer in as many words as this question has.",
    "Respond using the same number of words as my message.",
    # a property of text: marks, case, tone, politeness
    "Did my message end with a question mark?",
    "Return my text in all capitals.",
    "Was I being polite just now?",
    "Is this clear?",
    "Was that rude?",
    # a verb that works on a text, with no object of its own
    "Translate into German.",
    "Quote me exactly.",
]

ABOUT_SOMETHING_ELSE = [
    "Explain how DNS works.",
    "What is the capital of France?",
    "Write a haiku about autumn.",
    "Summarise the plot of Hamlet in 50 words.",
    "Count the primes below 100.",
    "How do I start a business?",
    "Describe how a rainbow forms.",
    "Give me three tips for writing clear emails.",
    "Plan a one-day trip to Sintra.",
    "What did the Romans eat?",
    "How long is the Nile?",
    "Name three rivers in Africa.",
    "Why is the sky blue?",
    "Is it safe to swim after eating?",
]

# Edits that are meaning-neutral in a request about something else.
FILLER = [
    lambda text: "Hi! " + text,
    lambda text: "Hello there, " + text[0].lower() + text[1:],
    lambda text: "Please " + text[0].lower() + text[1:],
    lambda text: text.rstrip(".?!") + ", please.",
    lambda text: text + " Thanks!",
    lambda text: text.rstrip(".?!"),
    lambda text: text.rstrip(".?!") + "!",
    lambda text: text[0].lower() + text[1:],
    lambda text: text.replace(" ", "  ", 1),
]


@pytest.mark.parametrize("text", ABOUT_ITSELF)
def test_a_request_about_its_own_text_is_recognised(text: str) -> None:
    assert about_own_text(text)


@pytest.mark.parametrize("text", ABOUT_SOMETHING_ELSE)
def test_a_request_about_something_else_is_not(text: str) -> None:
    assert not about_own_text(text)


@pytest.mark.parametrize("edit", range(len(FILLER)))
@pytest.mark.parametrize("text", ABOUT_ITSELF)
def test_no_edit_is_neutral_for_a_request_about_its_own_text(text: str, edit: int) -> None:
    edited = FILLER[edit](text)
    if edited == text:
        return  # no edit to judge
    for cached, new in ((text, edited), (edited, text)):
        delta = compare(cached, new)
        assert not delta.same
        assert delta.edits
        assert not same_request(cached, new)
        assert request_form(cached) != request_form(new)


@pytest.mark.parametrize("edit", range(len(FILLER)))
@pytest.mark.parametrize("text", ABOUT_SOMETHING_ELSE)
def test_the_same_edits_stay_neutral_elsewhere(text: str, edit: int) -> None:
    edited = FILLER[edit](text)
    if edited.endswith("!") and edited[-2:-1].isdigit():
        # "Count the primes below 100!" may ask below 100 factorial: a "!" against a number is
        # an operator, never neutral (request form version 4).
        assert not compare(text, edited).same
        assert request_form(text) != request_form(edited)
        return
    assert compare(text, edited).same
    assert request_form(text) == request_form(edited)


@pytest.mark.parametrize("text", ABOUT_ITSELF[:6])
def test_the_identical_text_is_still_the_same_request(text: str) -> None:
    assert compare(text, text).same
    assert same_request(text, text)
    assert request_form(text) == request_form(text)


def test_only_layout_differs_yet_the_request_counts_its_spaces() -> None:
    delta = compare("How many spaces are in here?", "How many  spaces are in here?")
    assert not delta.same
    assert delta.edits


def test_the_form_of_a_request_about_itself_never_equals_another_form() -> None:
    # "Count the words." compared as written must not collide with any folded form.
    assert request_form("Count the words.") != request_form("count the words")
    assert request_form("Count the words.") != request_form("Explain DNS.")


@pytest.mark.parametrize(
    ("answer", "speaks_of_request"),
    [
        ("You wrote 5 words.", True),
        ("Your question has one comma.", True),
        ("It ends with an exclamation mark.", True),
        ("DNS maps names to addresses.", False),
        ("Paris is the capital of France.", False),
    ],
)
def test_the_answer_side_recognises_an_answer_about_the_request(
    answer: str, speaks_of_request: bool
) -> None:
    assert answer_about_request(answer) is speaks_of_request


def test_an_answer_about_the_request_is_only_served_to_its_identical_text() -> None:
    # The request's words do not show that it is about itself; the cached answer does.
    cached, new = "Hi! Guess my mood from this.", "Guess my mood from this"
    assert not same_request(cached, new, answer="You said hi, so a cheerful one.")
    delta = compare(cached, new, answer="You said hi, so a cheerful one.")
    assert not delta.same
    assert delta.edits


def test_an_answer_that_echoes_dropped_filler_is_not_served_without_it() -> None:
    assert same_request("Hey! Explain DNS.", "Explain DNS.")
    assert not same_request("Hey! Explain DNS.", "Explain DNS.", answer="Hey! DNS maps names.")
    assert same_request("Hey! Explain DNS.", "Explain DNS.", answer="DNS maps names.")


@pytest.mark.parametrize(
    "text",
    [
        "Hi! Please solve this word problem. A train has 6 cars.",
        "Help me with this word puzzle about animals.",
        "Check this letter grade against the rubric.",
    ],
)
def test_a_noun_of_text_that_modifies_another_head_points_at_that_head(text: str) -> None:
    """ "this word problem" points at a problem, not at the message's words."""
    assert not about_own_text(text)
