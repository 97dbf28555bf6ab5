"""Numbers as an answer writes them: where they stand, their sign, their form, and how a new
value is written in the same form.

An answer is rewritten in place (its layout kept), so its text is read through an *aligned*
normalisation: LaTeX delimiters, ``\\frac``, ``\\cdot`` and markdown emphasis become
operators and spaces of the same length, so every offset the equation scanner reports is an
offset of the answer as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from stepcache_integrations.core.tasks.linear_equation.equation import format_number

__all__ = ["Written", "aligned", "numbers_in", "write_like", "write_value", "write_widened"]

Form = Literal["integer", "decimal"]


def _frac(match: re.Match[str]) -> str:
    head = len(match.group(0)) - len(match.group(1)) - len(match.group(2)) - 5
    return " " * head + f"({match.group(1)})/({match.group(2)})"


def _keep_inner(match: re.Match[str]) -> str:
    inner = match.group(1)
    return " " * (len(match.group(0)) - len(inner) - 1) + inner + " "


_Replacement = str | Callable[[re.Match[str]], str]
_ALIGN_RULES: tuple[tuple[re.Pattern[str], _Replacement], ...] = (
    (re.compile(r"\\[dt]?frac\{([^{}\n]{1,60})\}\{([^{}\n]{1,60})\}"), _frac),
    (re.compile(r"\\(?:boxed|mathbf|textbf|mathrm|text)\{([^{}\n]{0,200})\}"), _keep_inner),
    (re.compile(r"\\(?:cdot|times)(?![A-Za-z])"), "*"),
    (re.compile(r"\\div(?![A-Za-z])"), "/"),
    (re.compile(r"\\approx(?![A-Za-z])"), "\u2248"),
    (
        re.compile(
            r"\\(?:left|right|quad|qquad|Rightarrow|implies|to|therefore)(?![A-Za-z])"
            r"|\\[()\[\],;:! ]|\$+"
        ),
        "",
    ),
)


def _padded(replacement: _Replacement) -> Callable[[re.Match[str]], str]:
    if callable(replacement):
        return replacement

    def pad(match: re.Match[str]) -> str:
        text = str(replacement)
        return " " * (len(match.group(0)) - len(text)) + text

    return pad


def aligned(text: str) -> str | None:
    """``text`` with LaTeX made plain at the same offsets, or ``None`` when some of it cannot
    be (the equation scanner would then read other offsets than the text's).

    Example:
        >>> aligned(r"\\( x = \\frac{15}{3} \\)")
        '   x =     (15)/(3)   '
    """
    if "\\" in text or "$" in text:
        for pattern, replacement in _ALIGN_RULES:
            text = pattern.sub(_padded(replacement), text)
        if "\\" in text:
            return None
    return text


@dataclass(frozen=True)
class Written:
    """A number written in digits: its span, its value with the sign its context gives it (a
    minus before it), and its form."""

    start: int
    end: int
    text: str
    signed: Fraction
    negated: bool

    @property
    def form(self) -> Form:
        return "decimal" if "." in self.text else "integer"

    @property
    def places(self) -> int:
        return len(self.text) - self.text.index(".") - 1 if "." in self.text else 0


_NUMBER = re.compile(r"(?<![\w.])[0-9]+(?:\.[0-9]+)?(?![0-9]|\.[0-9])")
_MINUS = frozenset("-\u2212\u2013")


def numbers_in(text: str, start: int = 0, end: int | None = None) -> list[Written]:
    """The numbers written in digits in ``text[start:end]``, each with the sign a minus right
    before it gives (``"20 - 5"``: 20 and -5)."""
    stop = len(text) if end is None else end
    found: list[Written] = []
    for match in _NUMBER.finditer(text, start, stop):
        before = text[: match.start()].rstrip(" \t")
        negated = bool(before) and before[-1] in _MINUS
        value = Fraction(match.group())
        found.append(
            Written(
                match.start(), match.end(), match.group(), -value if negated else value, negated
            )
        )
    return found


def write_like(value: Fraction, like: Written) -> str | None:
    """``value`` (the signed value ``like`` stands for) written as ``like`` is: the same sign
    in its context and the same form (an integer stays an integer, a decimal keeps its places);
    ``None`` when it cannot be (a new value of another kind is not put where the old one
    stood).

    Example:
        >>> old = numbers_in("x = 2.50")[0]
        >>> write_like(Fraction(13, 4), old), write_like(Fraction(10, 3), old)
        ('3.25', None)
    """
    magnitude = -value if like.negated else value
    if magnitude < 0 or (magnitude == 0) != (like.signed == 0):
        return None
    if like.form == "integer":
        return str(magnitude.numerator) if magnitude.denominator == 1 else None
    scaled = magnitude * 10**like.places
    if scaled.denominator != 1:
        return None
    digits = str(scaled.numerator).rjust(like.places + 1, "0")
    return f"{digits[: -like.places]}.{digits[-like.places :]}"


#: The most decimal places a widened number is written with (a terminating decimal needs few;
#: more is a value no model writes out, and the model answers instead).
_MAX_WIDENED_PLACES = 4


def write_widened(value: Fraction, like: Written) -> str | None:
    """``value`` written as ``like`` is (:func:`write_like`), or, where it needs more places
    than ``like`` shows (an integer that became 1.5), as the exact decimal with the fewest
    places not fewer than ``like``'s; ``None`` for a value no decimal writes exactly (10/3)
    or a sign that changed. For a number of an answer's working, never its final value: a
    value that keeps its digits exact is still the same quantity, written as a person would.

    Example:
        >>> old = numbers_in("0.5x = 5")[1]
        >>> write_widened(Fraction(3, 2), old), write_widened(Fraction(10, 3), old)
        ('1.5', None)
    """
    same = write_like(value, like)
    if same is not None:
        return same
    magnitude = -value if like.negated else value
    if magnitude <= 0 or like.signed == 0:
        return None
    for places in range(max(1, like.places), _MAX_WIDENED_PLACES + 1):
        scaled = magnitude * 10**places
        if scaled.denominator == 1:
            digits = str(scaled.numerator).rjust(places + 1, "0")
            return f"{digits[:-places]}.{digits[-places:]}"
    return None


def write_value(value: Fraction) -> str:
    """A corrected value written plainly (``5``, ``2.5``, ``17/3``)."""
    return format_number(value)
