"""The cached answer is consulted: a spelling it copies is meaning.

Two requests of the same comparison form may still spell a word differently (a capital that
opens a sentence, a name of ``PROPER_ONLY``, a contraction). Where the cached answer copies
the cached spelling, the new request's answer would copy the new one: not the same request.
"""

from __future__ import annotations

import pytest

from stepcache_integrations.core.text import compare, request_form, same_request


@pytest.mark.parametrize(
    ("cached", "new", "answer"),
    [
        (
            "Kestrel is my folder name. Give the command that creates it.",
            "kestrel is my folder name. Give the command that creates it.",
            "mkdir Kestrel",
        ),
        (
            "Sunflower is the password. What should I type at the prompt?",
            "sunflower is the password. What should I type at the prompt?",
            "Type Sunflower and press Enter.",
        ),
        (
            "Xylo is the name of the field. Return a JSON object with it set to 1.",
            "xylo is the name of the field. Return a JSON object with it set to 1.",
            '{"Xylo": 1}',
        ),
        (
            "Create a folder for Boston trips and show the path.",
            "Create a folder for boston trips and show the path.",
            "~/trips/Boston",
        ),
        (
            "I can't log in. What is the exact error text for this?",
            "I cannot log in. What is the exact error text for this?",
            "The message reads: I can't log in.",
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
    delta = compare("Kestrel is the tag.", "kestrel is the tag.", answer="The tag: Kestrel")
    assert [([t.text for t in e.removed], [t.text for t in e.added]) for e in delta.edits] == [
        (["Kestrel"], ["kestrel"])
    ]
    assert delta.substitutions == {"Kestrel": "kestrel"}
    # A contraction is one edit, not one per expanded word.
    delta = compare("I can't go.", "I cannot go.", answer="You said: I can't")
    assert len(delta.edits) == 1
    assert delta.removed == {"can't"} and delta.added == {"cannot"}


@pytest.mark.parametrize(
    ("cached", "new", "answer"),
    [
        ("Kestrel is a bird. Describe it.", "kestrel is a bird. Describe it.", "A small falcon."),
        # Copied in another case, or inside a longer word: not a copy of the spelling.
        ("Kestrel is a bird. Describe it.", "kestrel is a bird. Describe it.", "KESTREL: a bird"),
        ("Kestrel is a bird. Describe it.", "kestrel is a bird. Describe it.", "Kestrels hover."),
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
    assert same_request("Kestrel is it.", "Kestrel is it.", answer="Kestrel")
    assert compare("Kestrel is it.", "Kestrel is it.", answer="Kestrel").same
    assert not same_request("Is it far to Boston?", "Is it far to Denver?", answer="No")
    assert compare("Is it far to Boston?", "Is it far to Denver?", answer="No").removed == {
        "Boston"
    }
