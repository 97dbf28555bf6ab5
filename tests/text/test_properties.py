"""Property tests of "the same request" over generated requests."""

from __future__ import annotations

import string

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from stepcache_integrations.core.text import NEUTRAL_WORDS, about_own_text, compare, same_request
from stepcache_integrations.core.text.lexicon import LITERAL_TRIGGERS, REQUEST_VERBS

CONTENT = [
    word
    for word in str.split(
        "the capital of france boston denver cheap flights to from tuesday thursday hotel "
        "prime even odd number ascending descending safe unsafe not never three seven half "
        "quarter twice first second percent USD JPY EUR x y 5 7 20 recipe vegan eggs with "
        "without older younger rising falling celsius fahrenheit english spanish sort list "
        "in order by date is are should eat store passwords hashed bcrypt Lisbon Porto Rust "
        "Python go the best way for beginners weather"
    )
    if word.lower() not in NEUTRAL_WORDS
]
VERBS = sorted(REQUEST_VERBS - LITERAL_TRIGGERS - NEUTRAL_WORDS)
BODY_WORDS = [word for word in CONTENT if word.lower() not in LITERAL_TRIGGERS]

REPLACEMENT = st.one_of(
    st.sampled_from(CONTENT),
    st.text(alphabet=string.ascii_letters, min_size=1, max_size=9),
    st.integers(min_value=0, max_value=10_000).map(str),
)
CONTEXT = st.sampled_from(["", "Please ", "Hi! ", "Could you ", "Thanks! "])
ENDING = st.sampled_from(["", ".", "?", "!", ", please.", " Thanks!", ", thank you"])


@settings(max_examples=500, deadline=None)
@given(
    words=st.lists(st.sampled_from(CONTENT), min_size=1, max_size=14),
    data=st.data(),
    opening=CONTEXT,
    ending=ENDING,
)
def test_a_single_word_substitution_is_never_the_same_request(
    words: list[str], data: st.DataObject, opening: str, ending: str
) -> None:
    index = data.draw(st.integers(min_value=0, max_value=len(words) - 1))
    replacement = data.draw(REPLACEMENT)
    old = words[index]
    assume(replacement.lower() != old.lower())
    assume(replacement.lower() not in NEUTRAL_WORDS)
    changed = [*words[:index], replacement, *words[index + 1 :]]
    cached = opening + " ".join(words) + ending
    new = opening + " ".join(changed) + ending
    delta = compare(cached, new)
    assert delta.same is False
    assert delta.edits
    assert compare(new, cached).same is False


PREFIXES = [
    "Please ",
    "Please, ",
    "Kindly ",
    "Can you ",
    "Could you please ",
    "Would you kindly ",
    "Will you ",
    "Hi! ",
    "Hello, can you ",
    "Hey there! Please ",
    "I'd like you to ",
    "I want you to ",
    "Help me ",
    "Can you help me ",
    "Thanks! ",
    "Hello there! Could you ",
]
SUFFIXES = [
    "",
    ".",
    "?",
    "!",
    "!!",
    ", please",
    ", please.",
    ". Thanks!",
    ", thanks",
    ", thank you.",
    ". Thank you so much!",
    "? Thanks in advance.",
    ", please and thanks.",
]


@settings(max_examples=500, deadline=None)
@given(
    verb=st.sampled_from(VERBS),
    body=st.lists(st.sampled_from(BODY_WORDS), min_size=1, max_size=10),
    prefix=st.sampled_from(PREFIXES),
    suffix=st.sampled_from(SUFFIXES),
    capitalise=st.booleans(),
    bare_ending=st.sampled_from(["", ".", "?", "!"]),
)
def test_adding_or_removing_neutral_filler_keeps_the_same_request(
    verb: str,
    body: list[str],
    prefix: str,
    suffix: str,
    capitalise: bool,
    bare_ending: str,
) -> None:
    sentence = " ".join([verb, *body])
    bare = (sentence[0].upper() + sentence[1:] if capitalise else sentence) + bare_ending
    polite = prefix + sentence + suffix
    # "Count the capitals" may be about its own text: there no filler is neutral (see
    # test_self_reference.py).
    assume(not about_own_text(bare))
    bangs = (len(bare_ending) - len(bare_ending.lstrip("!")), len(suffix) - len(suffix.lstrip("!")))
    if body[-1][-1:].isdigit() and bangs[0] != bangs[1]:
        # "advise 5!" may ask for a factorial ("5!!" for a double one): a "!" against a
        # number is never neutral.
        assert not compare(bare, polite).same
        return
    assert compare(bare, polite).same
    assert compare(polite, bare).same


TEXT = st.text(max_size=120)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_a_request_is_the_same_as_itself(text: str) -> None:
    delta = compare(text, text)
    assert delta.same and not delta.edits and not delta.numbers_changed


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_compare_is_symmetric_in_sameness_and_swaps_removed_and_added(a: str, b: str) -> None:
    forward, backward = compare(a, b), compare(b, a)
    assert forward.same == backward.same == same_request(a, b)
    assert forward.removed == backward.added
    assert forward.added == backward.removed
    assert forward.numbers_changed == backward.numbers_changed
