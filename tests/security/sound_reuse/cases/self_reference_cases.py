"""Requests about their own wording, where a greeting, a "please", a "thanks" or the final
mark is what the answer is about.

"Hello! How many words are in this message?" has 8 words; "How many words are in this
message?" has 7. "Good evening. What time of day do you think it is for me?" can be
answered from the greeting; without it, it cannot. "Hey! Is my tone formal?" is casual;
"Is my tone formal?" has no tone to judge. "Does my message end with a full stop." ends with
one; "... a full stop?" does not. Politeness, greetings, thanks and a final "?" / "." / "!"
are meaning-neutral in most requests, but not in a request whose subject is its own text or
tone. Word and sentence counts are worked out here from the texts themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.security.sound_reuse.cases.common import STREAMED, case


def words(text: str) -> int:
    return len(text.split())


def word_count(text: str) -> str:
    return f"Your message has {words(text)} words."


PAIRS: list[tuple[str, str, str, str]] = []


def _counted(a: str, b: str) -> None:
    PAIRS.append((a, word_count(a), b, word_count(b)))


_counted("Hello! How many words are in this message?", "How many words are in this message?")
_counted("Please count the words in this message.", "Count the words in this message.")
_counted("Thanks! How long is my message in words?", "How long is my message in words?")
_counted(
    "Hi there! How many words does this message have?", "How many words does this message have?"
)
PAIRS += [
    (
        "How many sentences are in this message? Thanks.",
        "There are 2 sentences in your message.",
        "How many sentences are in this message?",
        "There is 1 sentence in your message.",
    ),
    (
        "Hi there. Reply with the number of sentences in this message.",
        "2",
        "Reply with the number of sentences in this message.",
        "1",
    ),
    (
        "Good morning! What is the first word of this message?",
        'The first word of your message is "Good".',
        "What is the first word of this message?",
        'The first word of your message is "What".',
    ),
    (
        "Please tell me whether this message starts with please.",
        'Yes, your message starts with "Please".',
        "Tell me whether this message starts with please.",
        'No, your message starts with "Tell".',
    ),
    (
        "Please tell me how many times the word please appears in this message.",
        'The word "please" appears twice in your message.',
        "Tell me how many times the word please appears in this message.",
        'The word "please" appears once in your message.',
    ),
    (
        "Hello! Did I greet you?",
        'Yes, you greeted me with "Hello!".',
        "Did I greet you?",
        "No, your message doesn't include a greeting.",
    ),
    (
        "Is there a greeting in this message? Hello!",
        'Yes: "Hello!" at the end of your message is a greeting.',
        "Is there a greeting in this message?",
        "No, there is no greeting in your message.",
    ),
    (
        "Thank you! Translate this whole message into French.",
        "Merci ! Traduis tout ce message en français.",
        "Translate this whole message into French.",
        "Traduis tout ce message en français.",
    ),
    (
        "Hello! Repeat my message back to me word for word.",
        "Hello! Repeat my message back to me word for word.",
        "Repeat my message back to me word for word.",
        "Repeat my message back to me word for word.",
    ),
    (
        "Hi! What did I just say?",
        'You said: "Hi! What did I just say?"',
        "What did I just say?",
        'You said: "What did I just say?"',
    ),
    (
        "Count the exclamation marks in this message!",
        "There is 1 exclamation mark in your message.",
        "Count the exclamation marks in this message.",
        "There are no exclamation marks in your message.",
    ),
    (
        "How many question marks are in this message?",
        "There is 1 question mark in your message.",
        "How many question marks are in this message",
        "There are no question marks in your message.",
    ),
    (
        "Does my message end with a full stop.",
        "Yes, your message ends with a full stop.",
        "Does my message end with a full stop?",
        "No, your message ends with a question mark.",
    ),
    (
        "Good evening. What time of day do you think it is for me?",
        "Going by your greeting, it's evening where you are.",
        "What time of day do you think it is for me?",
        "I can't tell what time it is where you are; I don't know your location or clock.",
    ),
    (
        "Good morning! Guess what time of day it is where I am.",
        "Morning, judging by your greeting!",
        "Guess what time of day it is where I am.",
        "I can't know your local time, so it's a pure guess: afternoon?",
    ),
    (
        "Hey! Is my tone formal?",
        'No, it is casual: "Hey!" is an informal greeting.',
        "Is my tone formal?",
        "Your message is too short to show a tone; it reads as neutral.",
    ),
    (
        "Greetings! Is my tone formal?",
        'Fairly formal: "Greetings!" is a formal, slightly old-fashioned opener.',
        "Is my tone formal?",
        "Your message is too short to show a tone; it reads as neutral.",
    ),
    (
        "Thanks a lot! Was that sarcastic?",
        '"Thanks a lot!" can be sincere or sarcastic; written on its own, without context, '
        "it is often read as sarcastic.",
        "Was that sarcastic?",
        "I can't tell: your message doesn't include anything before the question for me to judge.",
    ),
    (
        "Hi! Was that a formal or an informal greeting?",
        'Informal: "Hi!" is a casual greeting.',
        "Was that a formal or an informal greeting?",
        "Your message doesn't contain a greeting, so there is nothing to classify.",
    ),
    (
        "Please rate the politeness of this request from 1 to 10.",
        '8 out of 10: the "please" makes it polite.',
        "Rate the politeness of this request from 1 to 10.",
        "5 out of 10: it is a plain, neutral instruction.",
    ),
    (
        "Is this request polite, please?",
        'Yes, it is polite: you said "please".',
        "Is this request polite?",
        "It is neutral: a plain question with no greeting or please.",
    ),
]


def self_reference_cases() -> Iterator[dict[str, Any]]:
    for n, (a, answer_a, b, answer_b) in enumerate(PAIRS, start=1):
        yield case(
            f"self-reference-{n:03d}",
            "filler_is_what_is_asked",
            a,
            answer_a,
            b,
            answer_b,
            paths=STREAMED,
            note="the request asks about its own wording, tone or marks",
        )


def all_cases() -> Iterator[dict[str, Any]]:
    yield from self_reference_cases()
