"""Polarity: negators and negated forms, which are never neutral and never absorbed.

"should I eat" / "should I not eat", "safe" / "unsafe", "like" / "dislike": a change of
polarity turns the answer around. No task family may treat it as a detail it can adapt.

Example:
    >>> is_polarity("not"), is_polarity("doesn't"), is_polarity("safe")
    (True, True, False)
    >>> negates("safe", "unsafe"), negates("legal", "illegal"), negates("tall", "small")
    (True, True, False)
"""

from __future__ import annotations

from stepcache_integrations.core.text.lexicon import NEGATORS
from stepcache_integrations.core.text.memo import text_memo

__all__ = ["is_polarity", "negates", "negation_stems"]

# Prefixes that negate the word they are put in front of ("unsafe", "illegal", "atypical").
_NEGATING_PREFIXES = ("non-", "non", "un", "in", "im", "il", "ir", "dis", "mis", "a", "an")
# Suffix pairs that turn a quality around ("careful" / "careless").
_SUFFIX_PAIRS = (("ful", "less"), ("less", "ful"))
_PREFIX_INITIALS = frozenset(prefix[0] for prefix in _NEGATING_PREFIXES)
_MIN_STEM = 3


def _plain(word: str) -> str:
    return word.lower().replace("\u2019", "'")


@text_memo(max_chars=100_000)
def is_polarity(word: str) -> bool:
    """Whether ``word`` is a negator or a negated form: not, no, never, without, any "n't"
    form, "non-..." words. Relative forms ("unsafe" against "safe") need :func:`negates`."""
    plain = _plain(word)
    return (
        plain in NEGATORS
        or plain.endswith("n't")
        or (plain.startswith("non-") and len(plain) > len("non-"))
    )


@text_memo(max_chars=100_000)
def negation_stems(word: str) -> tuple[str, ...]:
    """The words that ``word`` negates by its form: "unsafe" -> safe, "careless" -> careful
    (empty for a word without a negating prefix or suffix)."""
    plain = _plain(word)
    stems: list[str] = []
    if plain[:1] in _PREFIX_INITIALS:
        for prefix in _NEGATING_PREFIXES:
            if plain.startswith(prefix) and len(plain) - len(prefix) >= _MIN_STEM:
                stems.append(plain[len(prefix) :])
    for left, right in _SUFFIX_PAIRS:
        if plain.endswith(right) and len(plain) - len(right) >= _MIN_STEM:
            stems.append(plain[: -len(right)] + left)
    return tuple(stems)


def negates(first: str, second: str) -> bool:
    """Whether one word is a negated form of the other ("safe"/"unsafe", "like"/"dislike",
    "careful"/"careless"), in either order."""
    a, b = _plain(first), _plain(second)
    return a != b and (a in negation_stems(b) or b in negation_stems(a))
