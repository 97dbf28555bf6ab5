"""The cached answer is consulted: a spelling it copies is meaning.

Two requests of the same comparison form may still spell a word differently (the capital of
a structure word opening a sentence, a name of ``PROPER_ONLY``, a contraction). Where the
cached answer copies the cached spelling, the new request's answer would copy the new one:
not the same request.
"""

from __future__ import annotations

import pytest

from stepcache_integrations.core.text import compare, request_form, same_request


@pytest.mark.parametrize(
    ("cached", "new", "answer"),
    [
        (
            "Write a slogan for a cafe in Boston.",
            "Write a slogan for a cafe in boston.",
            "Boston's best brew, since 1990.",
        ),
        (
            "Make a hashtag for our trip to Lisbon in April.",
            "Make a hashtag for our trip to lisbon in april.",
            "#Lisbon #April #travel",
        ),
        (
            "What is a kestrel?",
            "what is a kestrel?",
            "What is a kestrel? A small falcon that hovers.",
        ),
        (
            "I can't log in. What do I tell support?",
            "I cannot log in. What do I tell support?",
            "Tell them: I can't log in since Monday.",
        ),
        (
            "They're late. What do I tell the host?",
            "They are late. What do I tell the host?",
            "Say: They're late, sorry!",
        ),
    ],
)
def test_a_spelling_the_answer_copies_is_a_meaning_change(
    cached: str, new: str, answer: str
) -> None:
    assert request_form(cached) == request_form(new)  # the same key
    assert same_request(cached, new)  # by their texts alone
    assert not same_request(cached, new, answer=answer)
    delta = compare(cached, new, answer=answer)
    assert not delta.same and delta.edits
    assert delta.removed and delta.added
    assert not delta.removed & delta.added


def test_the_edit_names_both_spellings() -> None:
    delta = compare("Plan a day in Oslo.", "Plan a day in oslo.", answer="Day 1 in Oslo")
    assert [([t.text for t in e.removed], [t.text for t in e.added]) for e in delta.edits] == [
        (["Oslo"], ["oslo"])
    ]
    assert delta.substitutions == {"Oslo": "oslo"}
    # A contraction is one edit, not one per expanded word.
    delta = compare("I can't go.", "I cannot go.", answer="You said: I can't")
    assert len(delta.edits) == 1
    assert delta.removed == {"can't"} and delta.added == {"cannot"}


@pytest.mark.parametrize(
    ("cached", "new", "answer"),
    [
        ("Plan a day in Oslo.", "Plan a day in oslo.", "Start at the harbour."),
        # Copied in another case, or inside a longer word: not a copy of the spelling.
        ("Plan a day in Oslo.", "Plan a day in oslo.", "OSLO: start at the harbour."),
        ("Plan a day in Oslo.", "Plan a day in oslo.", "Osloans start at the harbour."),
        ("What is 7 times 8?", "what is 7 times 8", "56"),
        ("I can't sleep. Give me tips.", "I cannot sleep. Give me tips.", "Keep a routine."),
    ],
)
def test_a_spelling_the_answer_does_not_copy_stays_neutral(
    cached: str, new: str, answer: str
) -> None:
    assert same_request(cached, new, answer=answer)
    assert compare(cached, new, answer=answer).same


def test_identical_text_and_other_forms_are_not_changed_by_the_answer() -> None:
    assert same_request("Plan a day in Oslo.", "Plan a day in Oslo.", answer="Oslo")
    assert compare("Plan a day in Oslo.", "Plan a day in Oslo.", answer="Oslo").same
    assert not same_request("Is it far to Boston?", "Is it far to Denver?", answer="No")
    assert compare("Is it far to Boston?", "Is it far to Denver?", answer="No").removed == {
        "Boston"
    }
