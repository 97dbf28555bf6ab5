"""Which decimal mark the language of a text writes: the point (English) or the comma (German,
Portuguese, French, Spanish, Italian, Dutch).

A comma between digits is a decimal mark in "Löse 0,5x + 3 = 4,5" and separates items in
"the values 3,5 and 7"; "1,200" is 1.2 in German and 1200 in English. Which it is depends on
the language the text is written in, so the language is read from the text's words: each
word weighs, in every language read here, as much as it is frequent there (the word lists
and frequencies are ``wordfreq``'s); which decimal mark a language writes is the Unicode
CLDR's (through ``babel``). A convention is decided only when the words of one convention's
best language outweigh every language of the other convention by a clear margin; a text with
too few words, or words common to both ("Isolate x in 2,5x = 5"), decides nothing, and the
caller then does not read a comma as a decimal mark.

Example:
    >>> decimal_mark_language("Löse 0,5x + 3 = 4,5 nach x auf.")
    'de'
    >>> decimal_mark_language("The values 3,5 and 7 are given.")
    'en'
    >>> decimal_mark_language("0,5x + 3 = 4,5") is None
    True
"""

from __future__ import annotations

import functools
import re

from babel.numbers import get_decimal_symbol

from stepcache_integrations.core.text.memo import text_memo

__all__ = ["LANGUAGES", "decimal_mark_language", "decimal_symbol"]

#: The languages whose words are weighed (wordfreq's "small" lists: about 5 MB each in memory,
#: loaded on the first text that needs them). A text in another language decides nothing.
LANGUAGES: tuple[str, ...] = ("en", "de", "pt", "es", "fr", "it", "nl")

# How much more (in Zipf units, summed over the words) the best language of one convention
# must weigh than every language of the other: about one word that only one side knows
# ("Löse", "Resolva", "solve"), and more than the weight of the short words many languages
# share ("in", "a", "x").
_MARGIN = 3.0
_MAX_WORDS = 80
_WORD = re.compile(r"[^\W\d_]{2,}")


@functools.lru_cache(maxsize=32)
def decimal_symbol(language: str) -> str:
    """The decimal mark ``language`` writes (Unicode CLDR, through babel).

    Example:
        >>> decimal_symbol("de"), decimal_symbol("en")
        (',', '.')
    """
    return str(get_decimal_symbol(language))


def _weights(words: tuple[str, ...]) -> dict[str, float]:
    # Imported on first use: wordfreq's import and word lists cost time and memory that texts
    # without a decimal comma never need.
    from wordfreq import zipf_frequency

    return {
        language: sum(zipf_frequency(word, language, wordlist="small") for word in words)
        for language in LANGUAGES
    }


@text_memo(max_chars=100_000)
def _decided(words: tuple[str, ...]) -> str | None:
    if not words:
        return None
    weights = _weights(words)
    best: dict[str, tuple[float, str]] = {}
    for language, weight in weights.items():
        mark = decimal_symbol(language)
        if mark not in best or weight > best[mark][0]:
            best[mark] = (weight, language)
    ranked = sorted(best.values(), reverse=True)
    if len(ranked) < 2:
        return ranked[0][1] if ranked and ranked[0][0] >= _MARGIN else None
    (top, language), (second, _) = ranked[0], ranked[1]
    return language if top - second >= _MARGIN else None


def decimal_mark_language(text: str) -> str | None:
    """The language ``text`` is clearly written in, as far as decimal marks go: the best
    language of the convention (decimal point or comma) whose words clearly outweigh the
    other's; ``None`` when the words do not decide (too few, shared, or another language).

    Example:
        >>> decimal_mark_language("Resolva 1,5x - 2 = 1.")
        'pt'
        >>> decimal_mark_language("Isolate x in 2,5x = 5.") is None
        True
    """
    if not isinstance(text, str):
        return None
    words = tuple(word.lower() for word in _WORD.findall(text[:4000])[:_MAX_WORDS])
    return _decided(words)
