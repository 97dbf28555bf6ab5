"""Requests about their own text: where no edit is meaning-neutral.

Greetings, "please", thanks, a final "?", letter case, contractions and spacing are
meaning-neutral only while the request is about something else. "Hello! How many words are
in this message?" has 8 words and "How many words are in this message?" has 7; "Hey! Is my
tone formal?" has a tone to judge and "Is my tone formal?" has none; "Does my message end
with a full stop." ends with one and "... a full stop?" does not. A request that *may* be
about its own text, tone, wording, form or punctuation is therefore compared as written:
only a byte-identical text is the same request.

Whether a request may be about itself is decided from its words, generously (a wrong yes
costs a model call, a wrong no a wrong answer): :func:`about_own_text`. The cached answer is
consulted too: an answer that speaks of the request's own text ("your message", "you said")
shows that the request was about it (:func:`answer_about_request`).

Example:
    >>> about_own_text("Hello! How many words are in this message?")
    True
    >>> about_own_text("Hey! Is my tone formal?"), about_own_text("Hi! What causes tides?")
    (True, False)
    >>> answer_about_request("Your message has 8 words.")
    True
"""

from __future__ import annotations

import itertools
import re

from stepcache_integrations.core.text.lexicon import (
    ANSWER_SELF_REFERENCE,
    NO_OBJECT,
    OTHER_WRITERS,
    PROPER_ONLY,
    SEEMING_VERBS,
    SELF_REFERENCE_DEIXIS,
    SELF_REFERENCE_NOUNS,
    SELF_REFERENCE_PHRASES,
    SELF_REFERENCE_UNITS,
    SELF_REFERENCE_UNITS_WITHOUT_NUMBERS,
    SELF_REFERENCE_WORDS,
    TEXT_POSITIONS,
    TEXT_VERBS,
    WRITER_PAST,
    WRITER_VERBS,
    WRITER_VERBS_ING,
)
from stepcache_integrations.core.text.memo import TextMemo
from stepcache_integrations.core.text.quantities import read_quantities

__all__ = ["about_own_text", "answer_about_request", "words_of"]

_WORD = re.compile(r"[^\W_]+")
# A word or a colon: a noun before a colon points at the text after it ("this question: ...").
_WORD_OR_COLON = re.compile(r"[^\W_]+|:")
# Where a sentence ends for the rules that look at one sentence ("this ... message").
_SENTENCE_END = re.compile(r"[.!?\u2026]+|\n")


def words_of(text: str) -> list[str]:
    """The lower-case words of ``text``, split at every mark ("Don't!" -> ["don", "t"]).

    Example:
        >>> words_of("Count the letters, please!")
        ['count', 'the', 'letters', 'please']
    """
    return _WORD.findall(text.lower())


def _phrase_pattern(phrases: frozenset[str]) -> re.Pattern[str]:
    alternatives = "|".join(sorted((re.escape(p) for p in phrases), key=len, reverse=True))
    return re.compile(rf"(?<!\S)(?:{alternatives})(?!\S)")


_PHRASES = _phrase_pattern(SELF_REFERENCE_PHRASES)
_ANSWER = _phrase_pattern(ANSWER_SELF_REFERENCE)
_DEMONSTRATIVES = frozenset({"this", "that", "these", "those"})
# Where a text points at itself without a pointing word: "the words here", "in here", "the
# text above", "the above".
_HERE = frozenset({"here", "above"})
_COPULAS = frozenset({"is", "was", "are", "were"})
_COUNTING = frozenset({"count", "counting", "counts", "number", "many", "tally", "total"})
# How far (in words) a noun may follow its pointing word ("my very last question").
_DEIXIS_REACH = 3
# Between "I" and its verb: "I just said", "I have written", "I'm being", "did I ever use".
_WRITER_CHAIN = frozenset({"just", "have", "had", "ve", "am", "m", "was", "ever", "already"})
_ALWAYS_SEEMING = frozenset({"sound", "sounded", "seem", "seemed"})


def _writer_refers_to_own_words(words: list[str]) -> bool:
    """The writer's own words: "I wrote", "what did I say", "how do I sound", "am I being
    rude", "I'm writing", "how I write". Not "how do I start a business": a present verb of
    writing counts only after "did" or "how"."""
    for index, word in enumerate(words):
        if word != "i":
            continue
        before = words[index - 1] if index else ""
        at = index + 1
        while at < len(words) and words[at] in _WRITER_CHAIN:
            at += 1
        if at == len(words):
            continue
        verb, chain = words[at], words[index + 1 : at]
        if verb in WRITER_PAST or verb in _ALWAYS_SEEMING:
            return True
        if verb in SEEMING_VERBS and before in ("do", "does", "did"):
            return True
        if before in ("did", "how", "way") and verb in WRITER_VERBS:
            return True
        progressive = before in ("am", "was") or not {"am", "m", "was"}.isdisjoint(chain)
        if progressive and verb in WRITER_VERBS_ING:
            return True
    return False


# Heads a noun of text may modify, naming another thing than the message ("this word
# problem", "this letter grade", "the text file"): the pointing word points at the head.
_COMPOUND_HEADS = frozenset(
    """problem problems puzzle puzzles game games file files box boxes field fields grade
    grades count limit""".split()  # noqa: SIM905
)


def _points_at_itself(words: list[str]) -> bool:
    """Whether a pointing word comes shortly before a noun of the message ("this message",
    "my last question", "these words"), or an ordinal before a unit of text ("the first
    word", "the last letter")."""
    for index, word in enumerate(words):
        if word in SELF_REFERENCE_DEIXIS:
            reach = words[index + 1 : index + 1 + _DEIXIS_REACH]
            for offset, follower in enumerate(reach):
                if follower == ":":
                    break
                after = index + 2 + offset
                next_word = words[after : after + 1]
                if (
                    follower in SELF_REFERENCE_NOUNS
                    and next_word != [":"]
                    # "this word problem": the noun modifies a head that names another thing
                    and not (next_word and next_word[0] in _COMPOUND_HEADS)
                ):
                    return True
        if (
            word in _HERE
            and index
            and (words[index - 1] in SELF_REFERENCE_NOUNS or words[index - 1] in ("in", "the"))
        ):
            return True
        if word in TEXT_POSITIONS and index + 1 < len(words):
            following = words[index + 1]
            if (
                following in SELF_REFERENCE_UNITS
                or following in SELF_REFERENCE_UNITS_WITHOUT_NUMBERS
            ):
                return True
    return False


def _counts_its_units(part: str, words: list[str]) -> bool:
    """Whether the sentence ``part`` counts units of text ("How many words?", "count the
    sentences", "the number of commas"), not another writer's ("How many words does she
    type?") nor, for units that name other things too, those things ("How many letters are
    left if she mails 5?")."""
    if _COUNTING.isdisjoint(words) or not OTHER_WRITERS.isdisjoint(words):
        return False
    if not SELF_REFERENCE_UNITS.isdisjoint(words):
        return True
    if SELF_REFERENCE_UNITS_WITHOUT_NUMBERS.isdisjoint(words):
        return False
    return not any(found.kind == "number" for found in read_quantities(part))


def _works_on_itself(words: list[str]) -> bool:
    """A verb that works on a text with no object of its own: "Translate into French.",
    "Repeat it back.", "Spell everything." (the text it works on is the message)."""
    for index, word in enumerate(words):
        if word in TEXT_VERBS and all(
            rest in NO_OBJECT or rest in PROPER_ONLY for rest in words[index + 1 :]
        ):
            return True
    return False


_BARE_ENDING = re.compile(r"(?<![^\W_])(?:this|that|these|those)\W*$", re.IGNORECASE)


def _bare_demonstrative(part: str, sentence: list[str]) -> bool:
    """A "this" or "that" that can only point at the message: ending a sentence ("Explain
    this.", "What is that?"; not "Run this:", which points at what follows the colon), the
    subject of a question that opens the sentence ("Was that rude?", "Is this clear?"; not
    with a colon: "Is this true: ...") or before a verb of seeming ("Does this sound
    rude?")."""
    ending = _BARE_ENDING.search(part)
    if ending is not None and ":" not in ending.group():
        return True
    if (
        len(sentence) > 1
        and sentence[0] in _COPULAS
        and sentence[1] in _DEMONSTRATIVES
        and ":" not in part
    ):
        return True
    return any(
        word in _DEMONSTRATIVES and following in SEEMING_VERBS
        for word, following in itertools.pairwise(sentence)
    )


def _about_own_text_uncached(text: str) -> bool:
    lowered = text.lower()
    words = _WORD.findall(lowered)
    if not SELF_REFERENCE_WORDS.isdisjoint(words):
        return True
    if _PHRASES.search(" ".join(words)):
        return True
    for part in _SENTENCE_END.split(lowered):
        sentence = _WORD_OR_COLON.findall(part)
        plain = [word for word in sentence if word != ":"]
        if (
            _points_at_itself(sentence)
            or _counts_its_units(part, plain)
            or _writer_refers_to_own_words(plain)
            or _works_on_itself(plain)
            or _bare_demonstrative(part, plain)
        ):
            return True
    return False


_ABOUT = TextMemo(_about_own_text_uncached, max_chars=300_000)


def about_own_text(text: str) -> bool:
    """Whether ``text`` may be about its own text, tone, wording, form or punctuation.

    Yes for a word about spelling, letters, marks, tone, politeness or greetings anywhere
    ("spell", "vowels", "punctuation", "tone", "polite", "greeting":
    :data:`~.lexicon.SELF_REFERENCE_WORDS`), a phrase such as "full stop" or "in kind", a
    noun of the message after a pointing word ("this message", "my last question", "these
    words"), a unit of text after an ordinal ("the first word"), a count of units of text
    ("how many words", "count the sentences"), the writer's own words ("what I wrote", "did
    I say", "how do I sound"), a verb that works on a text with no object of its own
    ("Translate into French.") and a sentence ending on a bare "this" or "that" ("Explain
    this."). Cached per text.

    Example:
        >>> about_own_text("Please count the words in this message.")
        True
        >>> about_own_text("Thanks! What did I just say?")
        True
        >>> about_own_text("Please explain how tides work. Keep it under 100 words.")
        False
    """
    return _ABOUT(text)


def answer_about_request(answer: str) -> bool:
    """Whether a cached ``answer`` speaks of its request's own text ("your message", "your
    greeting", "you said", "question mark"): then only the identical request may be served
    it, whatever the request's words.

    Example:
        >>> answer_about_request('The first word of your message is "Good".')
        True
        >>> answer_about_request("Tides are caused by the Moon's gravity.")
        False
    """
    return _ANSWER.search(" ".join(words_of(answer))) is not None
