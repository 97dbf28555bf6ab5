"""A contraction is meaning-neutral only where its reading is certain.

"n't", "'re", "'m", "'ve", "'ll" and "let's" have one reading. "'d" is "would", "had" or
"did"; "'s" is "is", "has", "does" or a possessive: they are expanded only where the words
after them leave one reading.
"""

from __future__ import annotations

import pytest

from stepcache_integrations.core.text import same_request, tokenise
from stepcache_integrations.core.text.lexicon import expand_contraction, may_be_participle


def norms(text: str) -> list[str]:
    return [token.norm for token in tokenise(text)]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("I don't eat meat. Suggest a dish.", "I do not eat meat. Suggest a dish."),
        ("You can't park here?", "You cannot park here?"),
        ("We won't fly. Plan a train trip.", "We will not fly. Plan a train trip."),
        ("They're late. What should I do?", "They are late. What should I do?"),
        ("I'm cold. What should I wear?", "I am cold. What should I wear?"),
        ("We've got an hour. Suggest a walk.", "We have got an hour. Suggest a walk."),
        ("You'll need flour. Write the recipe.", "You will need flour. Write the recipe."),
        ("Let's plan a picnic.", "Let us plan a picnic."),
        ("I'd like a list of snacks.", "I would like a list of snacks."),
        ("He'd rather walk. How far is it?", "He would rather walk. How far is it?"),
        ("You'd better hurry. What is the fastest route?",
         "You had better hurry. What is the fastest route?"),
        ("I'd been there before. Suggest somewhere new.",
         "I had been there before. Suggest somewhere new."),
        ("It's been raining. Can I mow the lawn?", "It has been raining. Can I mow the lawn?"),
        ("It's cold outside; what should I wear?", "It is cold outside; what should I wear?"),
        ("There's a leak under my sink. What do I do?",
         "There is a leak under my sink. What do I do?"),
        ("That's a big number. Is 1001 prime?", "That is a big number. Is 1001 prime?"),
    ],
)  # fmt: skip
def test_a_contraction_with_one_reading_is_its_words(a: str, b: str) -> None:
    assert same_request(a, b)


@pytest.mark.parametrize(
    ("contracted", "expanded"),
    [
        ("Where'd you park?", "Where would you park?"),
        ("Where'd you park?", "Where did you park?"),
        ("How'd you fix the leak?", "How would you fix the leak?"),
        ("I'd read the manual. What next?", "I would read the manual. What next?"),
        ("I'd read the manual. What next?", "I had read the manual. What next?"),
        ("They'd put the money in bonds. Was that wise?",
         "They would put the money in bonds. Was that wise?"),
        ("What's he like?", "What is he like?"),
        ("What's he like?", "What does he like?"),
        ("What's the capital of France?", "What is the capital of France?"),
        ("How's a rainbow formed?", "How is a rainbow formed?"),
        ("He's gone to Paris. When is he back?", "He is gone to Paris. When is he back?"),
        ("It's stopped. Can we go out?", "It is stopped. Can we go out?"),
        ("Someone's car is blocking the drive.", "Someone is car is blocking the drive."),
        ("Bob's late.", "Bob is late."),
    ],
)  # fmt: skip
def test_a_contraction_with_more_than_one_reading_is_kept_as_written(
    contracted: str, expanded: str
) -> None:
    assert not same_request(contracted, expanded)
    assert not same_request(expanded, contracted)


def test_the_reading_is_decided_by_the_words_that_follow() -> None:
    assert expand_contraction("i'd", ["like", "tea"]) == ("i", "would")
    assert expand_contraction("i'd", ["better", "go"]) == ("i", "had")
    assert expand_contraction("i'd", ["go"]) is None
    assert expand_contraction("i'd") is None
    assert expand_contraction("it's", ["been", "cold"]) == ("it", "has")
    assert expand_contraction("what's", ["been", "said"]) == ("what", "has")
    assert expand_contraction("it's", ["cold", "today"]) == ("it", "is")
    assert expand_contraction("it's", ["cold", "since", "it", "snowed"]) is None
    assert expand_contraction("what's", ["the", "time"]) is None
    assert expand_contraction("let's", ["go"]) == ("let", "us")
    assert expand_contraction("don't") == ("do", "not")
    assert expand_contraction("you'm") is None


def test_a_past_participle_is_recognised_generously() -> None:
    for word in ("gone", "put", "eaten", "finished", "bought", "been", "sung"):
        assert may_be_participle(word)
    for word in ("cold", "big", "a", "number"):
        assert not may_be_participle(word)


def test_the_sentence_bounds_the_words_that_decide() -> None:
    # "gone" in the next sentence does not make the first "'s" a "has".
    assert norms("It's cold. Where has everyone gone?")[:3] == ["it", "is", "cold"]
    assert norms("It's cold, everyone has gone")[0] == "it's"


def test_a_greeting_before_a_question_word_contraction_is_still_neutral() -> None:
    assert same_request("Hi, what's the time in Tokyo?", "What's the time in Tokyo?")
