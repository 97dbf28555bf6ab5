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

__all__ = ["is_polarity", "negates"]

# Prefixes that negate the word they are put in front of ("unsafe", "illegal", "atypical").
_NEGATING_PREFIXES = ("non-", "non", "un", "in", "im", "il", "ir", "dis", "mis", "a", "an")
# Suffix pairs that turn a quality around ("careful" / "careless").
_SUFFIX_PAIRS = (("ful", "less"),)
_MIN_STEM = 3


def _plain(word: str) -> str:
    return word.lower().replace("\u2019", "'")


def is_polarity(word: str) -> bool:
    """Whether ``word`` is a negator or a negated form: not, no, never, without, any "n't"
    form, "non-..." words. Relative forms ("unsafe" against "safe") need :func:`negates`."""
    plain = _plain(word)
    return (
        plain in NEGATORS
        or plain.endswith("n't")
        or (plain.startswith("non-") and len(plain) > len("non-"))
    )


def negates(first: str, second: str) -> bool:
    """Whether one word is a negated form of the other ("safe"/"unsafe", "like"/"dislike",
    "careful"/"careless"), in either order."""
    a, b = _plain(first), _plain(second)
    if a == b:
        return False
    for shorter, longer in ((a, b), (b, a)):
        if len(shorter) < _MIN_STEM:
            continue
        if any(longer == prefix + shorter for prefix in _NEGATING_PREFIXES):
            return True
    for left, right in _SUFFIX_PAIRS:
        for x, y in ((a, b), (b, a)):
            if x.endswith(left) and y.endswith(right) and x[: -len(left)] == y[: -len(right)]:
                return len(x) - len(left) >= _MIN_STEM
    return False
