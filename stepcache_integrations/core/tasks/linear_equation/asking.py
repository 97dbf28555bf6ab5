"""What a linear-equation request asks: only to solve its equation, or more.

The family's own answer (its canonical solution, or its solver's continuation of verified
steps) is right only for a request that asks for nothing else. "Solve 3x + 5 = 20, then find
3x", "give x to two decimal places", "explain why" or a system prompt that fixes another form
ask for more: the model answers those (the family still checks the equations). Closed-world:
every word of the request outside its equation and outside the clauses that only rule JSON out
("Instead of a JSON object for a recipe, ..."; :func:`~stepcache_integrations.core.tasks.
output_format.json_dismissals`), and every word of the turns before it, is one of
:data:`SOLVING_WORDS` or the variable; a quoted format ('"Step N: <equation>"', '"x =
<value>"') counts by its words too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    parse_equation,
)
from stepcache_integrations.core.tasks.output_format import json_dismissals
from stepcache_integrations.core.text.memo import TextMemo

__all__ = ["SOLVING_WORDS", "asks_only_to_solve", "equation_spans", "mentions_of"]

Span = tuple[int, int]

#: Words that ask to solve an equation, say how to show the steps, or are polite filler and
#: framing ("You are a helpful math tutor."): nothing in them asks for another result or
#: another form of it. When in doubt a word is not here.
SOLVING_WORDS = frozenset(
    """solve solving find finding determine compute calculate work working out get give
    what whats is the value of in for from this that equation if given unknown show your
    my steps step each every by one line lines per own form write as and end ending finish
    with on a an please can could would you me help i need to want like answer final result
    solution here following n equals equal then it its let us lets we do be are just using
    hi hello hey thanks thank kindly assistant helpful friendly math maths mathematics
    tutor teacher expert concise clear precise careful algebra linear""".split()  # noqa: SIM905
)

# Numbers, coefficients ("3x"), one-letter names, operators and the spaces between them: the
# grammar of a run of algebra, not a number reader.
_MATH_RUN = re.compile(
    r"(?:(?:\d+(?:\.\d+)?[A-Za-z]?|(?<![A-Za-z])[A-Za-z](?![A-Za-z])|[-+*/=^()\u2212\u00d7\u00b7])"
    r"[ \t]*)+"
)
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?|\d")
_PLACEHOLDER = re.compile(r"<[^<>\n]{0,40}>|\[[^\[\]\n]{0,40}\]|\{[^{}\n]{0,40}\}|\.\.\.|\u2026")


def mentions_of(variable: str) -> re.Pattern[str]:
    """Whole mentions of a one-letter variable ("x" in "3x", not in "next")."""
    return re.compile(rf"(?<![A-Za-z]){re.escape(variable)}(?![A-Za-z])")


def _equation_spans_uncached(request: str) -> tuple[Span, ...]:
    equation = parse_equation(request)
    if equation is None:
        return ()
    spans = [
        match.span()
        for match in _MATH_RUN.finditer(request)
        if "=" in match.group() and parse_equation(match.group()) == equation
    ]
    spans.extend(match.span() for match in mentions_of(equation.variable).finditer(request))
    return tuple(spans)


equation_spans = TextMemo(_equation_spans_uncached, max_chars=200_000)
equation_spans.__doc__ = """The equation of ``request`` (every run of numbers, one-letter names
and operators around an "=" that is itself the request's equation) and each mention of its
variable, as character spans."""


def _outside(text: str, spans: Sequence[Span]) -> str:
    pieces: list[str] = []
    cursor = 0
    for start, end in sorted(spans):  # overlapping spans (a run and a mention in it) merge
        if start > cursor:
            pieces.append(text[cursor:start])
        cursor = max(cursor, end)
    pieces.append(text[cursor:])
    return " ".join(pieces)


def _unknown_word(text: str, variable: str) -> str | None:
    for word in _WORD.findall(_PLACEHOLDER.sub(" ", text)):
        lowered = word.lower().replace("\u2019", "'").replace("'", "")
        if word != variable and lowered not in SOLVING_WORDS:
            return str(word)
    return None


def asks_only_to_solve(request: str, equation: LinearEquation, earlier: Sequence[str] = ()) -> bool:
    """Whether ``request`` (after the ``earlier`` turns) asks only that ``equation`` be solved.

    Example:
        >>> eq = parse_equation("3x + 5 = 20")
        >>> asks_only_to_solve('Solve 3x + 5 = 20 for x. End with "x = <value>".', eq)
        True
        >>> asks_only_to_solve("Solve 3x + 5 = 20, then find the value of 3x.", eq)
        False
        >>> asks_only_to_solve("Solve 3x + 5 = 20. Give x to two decimal places.", eq)
        False
        >>> asks_only_to_solve("Solve 3x + 5 = 20.", eq, ["Always answer in French."])
        False
        >>> asks_only_to_solve("Instead of a JSON object for a recipe, solve 3x + 5 = 20.", eq)
        True
    """
    # A clause that only rules JSON out says nothing of the wanted answer.
    rest = _outside(request, equation_spans(request) + json_dismissals(request))
    # Anything else that reads as an equation or a calculation asks for more ("then 3x").
    # Any digit character ("2", "²"): a trace of more algebra, whatever number it is part of.
    if any(ch.isdigit() for ch in rest) or _unknown_word(rest, equation.variable) is not None:
        return False
    return all(_unknown_word(turn, equation.variable) is None for turn in earlier)
