"""Where a linear-equation request states its equation: the spans a changed constant or a
renamed variable may touch.

What the request asks besides is not read here: the text around the equation is compared as
it is (the same text asks what it asked before), and the model's own answer shows the task
(:mod:`~stepcache_integrations.core.tasks.linear_equation.evidence`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    parse_equation,
    request_reading,
    scan_equations,
)
from stepcache_integrations.core.tasks.linear_equation.numerals import DIVIDING_COLON
from stepcache_integrations.core.tasks.linear_equation.written import numbers_in
from stepcache_integrations.core.text.memo import TextMemo
from stepcache_integrations.core.text.quantities import read_quantities

if TYPE_CHECKING:
    from stepcache_integrations.core.verifiers.base import VerifyContext

__all__ = ["CachedEquation", "equation_spans", "mentions_of", "stated_outside"]

Span = tuple[int, int]

# Numbers, coefficients ("3x"), one-letter names, operators and the spaces between them: the
# grammar of a run of algebra, not a number reader.
_MATH_RUN = re.compile(
    r"(?:(?:\d+(?:\.\d+)?[A-Za-z]?(?![^\W\d_])|(?<![^\W\d_])[A-Za-z](?![^\W\d_])"
    rf"|[-+*/=^()\u2212\u00d7\u00b7{DIVIDING_COLON}])"
    r"[ \t]*)+"
)


def mentions_of(variable: str) -> re.Pattern[str]:
    """Whole mentions of a one-letter variable ("x" in "3x", not in "next")."""
    return re.compile(rf"(?<![^\W\d_]){re.escape(variable)}(?![^\W\d_])")


def _equation_spans_uncached(request: str) -> tuple[Span, ...]:
    equation = parse_equation(request)
    if equation is None:
        return ()
    # The point form keeps every offset: "0,5x" is read "0.5x" where the request's language
    # writes a decimal comma, and its spans are the request's.
    point = request_reading(request)[0]
    spans = _equation_runs(point, equation)
    spans.extend(match.span() for match in mentions_of(equation.variable).finditer(request))
    return tuple(spans)


def _is_whole_equation(run: str, equation: LinearEquation) -> bool:
    """Whether all of ``run`` is ``equation``: "2k + 1 = 10 001" or "2k + 1 = 9 x 3" read as
    2k + 1 = 10 or = 9 are not (the parser reads less than the run)."""
    norm, found = scan_equations(run)
    if len(found) != 1 or parse_equation(run) != equation:
        return False
    return not norm[: found[0].start].strip() and not norm[found[0].end :].strip()


equation_spans = TextMemo(_equation_spans_uncached, max_chars=200_000)
equation_spans.__doc__ = """The equation of ``request`` (every run of numbers, one-letter names
and operators around an "=" that is all of it the request's equation) and each mention of its
variable, as character spans."""


def _equation_runs(text: str, equation: LinearEquation) -> list[Span]:
    """Every run of algebra around an "=" in ``text`` that is all of it ``equation``, once
    the one-letter words of prose at its ends are set aside ("Resolva 2(3x - 1) = 16 e
    verifique": the "e" is Portuguese "and", not a name of the equation)."""
    spans = []
    for match in _MATH_RUN.finditer(text):
        if "=" not in match.group():
            continue
        start, end = _without_words_at_ends(text, match.start(), match.end(), equation.variable)
        if _is_whole_equation(text[start:end], equation):
            spans.append((start, end))
    return spans


_LETTER_AT_END = re.compile(r"(?<![^\W\d_])[A-Za-z][ \t]*\Z")
_LETTER_AT_START = re.compile(r"[ \t]*[A-Za-z](?![^\W\d_])")


def _without_words_at_ends(text: str, start: int, end: int, variable: str) -> Span:
    """The run ``text[start:end]`` without one-letter words other than ``variable`` at its
    ends (the run's grammar takes any lone letter for a name)."""
    while (tail := _LETTER_AT_END.search(text, start, end)) and tail.group().strip() != variable:
        end = tail.start()
    while (head := _LETTER_AT_START.match(text, start, end)) and head.group().strip() != variable:
        start = head.end()
    return start, end


def stated_outside(request: str) -> frozenset[Fraction]:
    """The magnitudes of the numbers ``request`` writes outside its equation ("what is x -
    20?", "what is 4x?"): a changed constant leaves them as they are, so a number of the
    answer equal to one of them may count the request's own number, not a quantity of the
    equation.

    Example:
        >>> sorted(stated_outside("If 3x + 5 = 20, what is x - 20?"))
        [Fraction(20, 1)]
        >>> stated_outside("Solve 3x + 5 = 20 for x.")
        frozenset()
    """
    # Read for both requests of a re-instantiation, and again when the new one is stored.
    return _stated(request)


def _stated_outside_uncached(request: str) -> frozenset[Fraction]:
    point = request_reading(request)[0]
    spans = equation_spans(request)
    figures = {
        abs(number.signed)
        for number in numbers_in(point)
        if not any(start <= number.start < end for start, end in spans)
    }
    # Numbers in words too ("what is three times x?", "double x", "x plus twenty").
    words = {
        abs(quantity.value)
        for quantity in read_quantities(request)
        if quantity.form == "words" and not any(s <= quantity.start < e for s, e in spans)
    }
    return frozenset(figures | words)


_stated = TextMemo(_stated_outside_uncached, max_chars=200_000)


@dataclass(frozen=True)
class CachedEquation:
    """What the family reads of a cached request, once (``LinearEquationFamily.read_cached``):
    its equation (``None``: none), the spans of its equation and its variable's mentions, and
    the magnitudes of the numbers it writes outside the equation."""

    equation: LinearEquation | None
    spans: tuple[Span, ...]
    stated: frozenset[Fraction]

    @classmethod
    def of(cls, request: str) -> CachedEquation:
        return cls(parse_equation(request), tuple(equation_spans(request)), stated_outside(request))

    @classmethod
    def in_context(cls, ctx: VerifyContext, family: str) -> CachedEquation:
        """The reading of ``ctx.cached_request`` made when its entry was stored, else now."""
        found = ctx.cached_reading(family)
        return found if isinstance(found, CachedEquation) else cls.of(ctx.cached_request or "")
