"""Numbers a request writes in words ("eight", "zweihundert", "doze", "thirty-five").

A JSON answer writes ``"seats": 8`` for a request that says "eight seats": the value is the
request's, in another spelling. Which words are a number is read by ``text2num`` (a
well-kept reader of number words in English, German, Portuguese, Spanish, French, Italian
and Dutch), in the one language the request is written in (its words weighed by their
frequency there, through ``wordfreq``): "once" is eleven only in a Spanish text, "elf" only
in a German one. A request whose language is not clear reads no number words.

Only counts of two and more are read: "one", "ein", "um", "un" are as often an article or a
pronoun ("ein JSON", "the red one") as a number, and "null" is a German zero and JSON's
nothing. A number word inside a name ("Ocean's Eleven", "Four Seasons") is not read either:
a capitalised run counts only where a sentence starts. Nor does a scale in the plural alone
("population in millions").

Example:
    >>> [(text[s:e], v) for text in ["Mesa para oito pessoas, mais doze cadeiras."]
    ...  for (s, e), v in word_numbers(text)]
    [('oito', 8), ('doze', 12)]
    >>> read_word_number("thirty-five", "forty is the age; twelve seats; eight rooms")
    35
"""

from __future__ import annotations

import re

from text_to_num import text2num

from stepcache_integrations.core.text.language import LANGUAGES
from stepcache_integrations.core.text.memo import text_memo
from stepcache_integrations.core.text.stated import Span, beside_alternatives

__all__ = ["read_word_number", "request_language", "word_numbers"]

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
# The longest run of words read as one number ("one hundred and twenty-five thousand").
_MAX_RUN = 7
# How much more (Zipf units summed over the words) the request's language must weigh than any
# other: about one word that only it has.
_MARGIN = 3.0
_MAX_WORDS = 80
# Where a capitalised number word starts a sentence rather than a name.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n(\[{\"'\u201e\u201c-])\s*$")


@text_memo(max_chars=50_000)
def _language_of(words: tuple[str, ...]) -> str | None:
    if not words:
        return None
    from wordfreq import zipf_frequency  # loaded on first use: word lists cost memory

    weights = sorted(
        (
            (sum(zipf_frequency(word, language, wordlist="small") for word in words), language)
            for language in LANGUAGES
        ),
        reverse=True,
    )
    (top, language), (second, _) = weights[0], weights[1]
    return language if top - second >= _MARGIN else None


def request_language(text: str) -> str | None:
    """The language ``text`` is clearly written in (one of ``core.text.language.LANGUAGES``),
    else ``None``.

    Example:
        >>> request_language("Mach mir ein JSON für den Tisch mit acht Plätzen.")
        'de'
    """
    words = tuple(word.lower() for word in _LETTERS.findall(text[:4000])[:_MAX_WORDS])
    return _language_of(words)


@text_memo(max_chars=50_000)
def _number(words: str, language: str) -> int | None:
    try:
        value = text2num(words.lower(), language)
    except ValueError:
        return None
    return value if isinstance(value, int) else None


def _starts_a_sentence(text: str, start: int) -> bool:
    return _SENTENCE_START.search(text[max(0, start - 40) : start]) is not None


def _plural_scale(word: str, value: int) -> bool:
    """Whether a lone ``word`` is a scale in the plural ("millions", "hundreds", "Millionen",
    "milhões"): "population in millions" counts nothing."""
    power = value >= 100 and str(value).strip("0") == "1"
    return power and word.lower().endswith(("s", "en"))


def _runs(text: str, language: str) -> list[tuple[Span, int]]:
    words = list(_WORD.finditer(text))
    found: list[tuple[Span, int]] = []
    index = 0
    while index < len(words):
        first = words[index]
        if _number(first.group(), language) is None:
            index += 1
            continue
        best = (index, _number(first.group(), language))
        for last in range(index + 1, min(len(words), index + _MAX_RUN)):
            if text[words[last - 1].end() : words[last].start()].strip():
                break  # a mark between two words ends the run ("eight, twelve")
            value = _number(text[first.start() : words[last].end()], language)
            if value is not None:
                best = (last, value)
        last, value = best
        span = (first.start(), words[last].end())
        written = text[span[0] : span[1]]
        capitalised = any(ch.isupper() for ch in written)
        if (
            value is not None
            and value >= 2
            and not (last == index and _plural_scale(written, value))
            and not (capitalised and not _starts_a_sentence(text, span[0]))
            and not beside_alternatives(text, span)
        ):
            found.append((span, value))
        index = last + 1
    return found


@text_memo(max_chars=400_000)
def word_numbers(text: str) -> tuple[tuple[Span, int], ...]:
    """Every number of two or more that ``text`` writes in words of its language, with where
    it is written; nothing when the language is not clear."""
    language = request_language(text)
    return () if language is None else tuple(_runs(text, language))


def read_word_number(new: str, request: str) -> int | None:
    """``new`` (the text that replaced a number word of ``request``) read as one number of
    two or more in words of ``request``'s language; ``None`` otherwise (digits included:
    the model may write those differently)."""
    language = request_language(request)
    if language is None or not new.strip():
        return None
    runs = _runs(new.strip(), language)
    if len(runs) != 1 or runs[0][0] != (0, len(new.strip())):
        return None
    return runs[0][1]
