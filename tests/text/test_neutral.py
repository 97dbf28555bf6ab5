"""Each neutral-edit rule: where it makes a word neutral, and where the same word is meaning."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.text import NEUTRAL_WORDS, compare, meaningful_tokens
from stepcache_integrations.core.text.lexicon import GREETINGS, OPENERS, THANKS


def kept(text: str) -> list[str]:
    return [token.norm for token in meaningful_tokens(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hi! Explain DNS.", ["explain", "DNS"]),
        ("Hello,\nexplain DNS", ["explain", "DNS"]),
        ("Hi, what is DNS?", ["what", "is", "DNS"]),
        ("Greetings! Explain DNS", ["explain", "DNS"]),
        ("Hey there, can you explain DNS?", ["explain", "DNS"]),
    ],
)
def test_greetings_standing_alone_are_neutral(text: str, expected: list[str]) -> None:
    assert kept(text) == expected


@pytest.mark.parametrize(
    "text",
    ["Hello, world program in C", "Hey Jude: who wrote it?", "Write a hello world program"],
)
def test_greetings_inside_a_request_are_meaning(text: str) -> None:
    assert any(norm in ("hello", "hey") for norm in kept(text))


@pytest.mark.parametrize("greeting", ["Good morning!", "Good afternoon,", "Good evening."])
def test_a_greeting_that_tells_the_time_of_day_is_meaning(greeting: str) -> None:
    # "Good evening! Is it too late for coffee?" answers itself in part: the greeting is a fact.
    assert kept(f"{greeting} Is it too late for coffee?")[:2] == ["Good", greeting.split()[1][:-1]]
    assert not compare(f"{greeting} Is it too late for coffee?", "Is it too late for coffee?").same


@pytest.mark.parametrize(
    "text",
    [
        "Explain DNS. Thanks!",
        "Explain DNS, thanks",
        "Explain DNS, thank you.",
        "Thanks! Explain DNS",
        "Thanks, explain DNS",
        "Explain DNS. Thank you so much!",
        "Explain DNS. Many thanks.",
        "Explain DNS, please and thanks.",
    ],
)
def test_thanks_forming_their_own_clause_are_neutral(text: str) -> None:
    assert kept(text) == ["explain", "DNS"]


@pytest.mark.parametrize(
    "text",
    [
        "Write a thank you note.",
        "Thanks to the rain the match moved. Why?",
        "Reply to Sam with thanks.",
        "Translate into French: thank you",
        "How do you say thanks in Japanese?",
    ],
)
def test_thanks_that_carry_content_are_meaning(text: str) -> None:
    assert any(norm.lower().strip("'\"") in ("thank", "thanks") for norm in kept(text))


@pytest.mark.parametrize(
    "text",
    [
        "Please explain DNS",
        "Please, explain DNS",
        "Explain DNS, please.",
        "Explain, please, DNS",
        "Kindly explain DNS",
        "PLEASE explain DNS",
    ],
)
def test_please_and_kindly_in_their_places_are_neutral(text: str) -> None:
    assert kept(text) == ["explain", "DNS"] or kept(text) == ["explain", ",", "DNS"]


def test_please_before_a_request_verb_after_and_is_neutral() -> None:
    assert compare("Solve 2x = 4 and please show each step", "Solve 2x = 4 and show each step").same


@pytest.mark.parametrize(
    ("text", "without"),
    [
        ("Write a poem to please my wife.", "Write a poem to my wife."),
        ("How do you say please in Japanese?", "How do you say in Japanese?"),
        ("Describe a man who speaks kindly.", "Describe a man who speaks."),
        ("Define please.", "Define."),
        ("Translate: yes, please", "Translate: yes"),
        ("Explain DNS please", "Explain DNS"),
    ],
)
def test_please_and_kindly_elsewhere_are_meaning(text: str, without: str) -> None:
    assert not compare(text, without).same


OPENER_PHRASES = [
    "Can you",
    "Could you",
    "Would you",
    "Will you",
    "Help me",
    "Can you help me",
    "I'd like you to",
    "I want you to",
    "I need you to",
    "Could you please",
    "Would you kindly",
]


@pytest.mark.parametrize("opener", OPENER_PHRASES)
def test_polite_openers_before_a_request_verb_are_neutral(opener: str) -> None:
    assert compare(f"{opener} list the noble gases?", "List the noble gases.").same


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        ("Can you see the moon in daytime?", "See the moon in daytime?"),
        ("Could you survive a fall from 10 metres?", "Survive a fall from 10 metres?"),
        ("Would you rather swim or run?", "Rather swim or run?"),
        ("Can you legally drive at 16?", "Legally drive at 16?"),
    ],
)
def test_openers_before_other_words_are_meaning(text: str, bare: str) -> None:
    assert not compare(text, bare).same


def test_i_would_like_before_an_article_is_neutral() -> None:
    assert compare("I'd like a list of healthy snacks.", "A list of healthy snacks.").same
    assert not compare("I'd like healthy snacks.", "Healthy snacks.").same


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Is 91 prime?", "Is 91 prime"),
        ("Is 91 prime?", "Is 91 prime."),
        ("Explain gravity!", "Explain gravity"),
        ("Why is the sea salty?!", "Why is the sea salty"),
        ("Where do penguins live?\nAnswer briefly.", "Where do penguins live\nAnswer briefly"),
    ],
)
def test_final_punctuation_is_neutral(a: str, b: str) -> None:
    assert compare(a, b).same


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Complete: The cat sat on the...", "Complete: The cat sat on the."),
        ("Explain gravity...", "Explain gravity"),
        ("Is this a question: how are you", "Is this a question: how are you?"),
        ("Let's eat, grandma.", "Let's eat grandma."),
        ("The price is 5.99", "The price is 599"),
        ("Solve x. Show steps", "Solve x, show steps"),
    ],
)
def test_other_punctuation_is_meaning(a: str, b: str) -> None:
    assert not compare(a, b).same


@pytest.mark.parametrize("text", ["Thanks!", "Hi!", "Please.", "Hello there"])
def test_a_request_made_of_filler_keeps_its_words(text: str) -> None:
    assert [t for t in kept(text) if t.isalpha()]
    assert not compare("Thanks!", "Hi!").same
    assert not compare("Hello", "Goodbye").same


def test_filler_inside_literal_text_is_meaning() -> None:
    assert not compare("Rewrite politely: give me the report.",
                       "Rewrite politely: please give me the report.").same  # fmt: skip
    assert not compare('Count the words in "please sit down"', 'Count the words in "sit down"').same
    assert not compare("Fix this:\n    please()\n    run()", "Fix this:\n    run()").same


def test_the_neutral_list_is_small_and_holds_every_filler_word() -> None:
    phrase_words = {w for group in (GREETINGS, THANKS, OPENERS) for p in group for w in p}
    assert phrase_words <= NEUTRAL_WORDS
    assert {"please", "kindly"} <= NEUTRAL_WORDS
    assert len(NEUTRAL_WORDS) < 40
    for negator in ("not", "no", "never", "without"):
        assert negator not in NEUTRAL_WORDS


def test_a_filler_phrase_does_not_run_across_a_line_break() -> None:
    assert not compare("Hi\nthere is a bug. Fix it.", "Is a bug. Fix it.").same
    assert not compare("Thank\nyou for nothing, says Bob. Why?", "For nothing, says Bob. Why?").same
