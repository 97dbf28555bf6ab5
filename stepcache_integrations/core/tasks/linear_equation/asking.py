"""What a linear-equation request asks: only to solve its equation, or more.

The family's own answer (its canonical solution, or its solver's continuation of verified
steps) is right only for a request that asks for nothing else. "Solve 3x + 5 = 20, then find
3x", "give x to two decimal places", "explain why" or a system prompt that fixes another form
ask for more: the model answers those (the family still checks the equations). Closed-world:
every word of the request outside its equation and outside the clauses that only rule JSON out
("Instead of a JSON object for a recipe, ..."; :func:`~stepcache_integrations.core.tasks.
output_format.json_dismissals`), and every word of the turns before it, is one of
:data:`SOLVING_WORDS` or the variable; a quoted format ('"Step N: <equation>"', '"x =
<value>"') counts by its words too, a placeholder's included ('"x = <value in words>"' asks
for a form). No digit, operator or symbol may be left over ("and give -x", "then x·x").
A dismissal that describes the JSON it rules out is read past only when a request to solve
follows it and nothing left points back ("Instead of a JSON object for the reciprocal, give me
that").
"""

from __future__ import annotations

import re
import unicodedata
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
    my steps step each every by one per own form write as and end ending finish
    with on a an please can could would you me help i need to want answer final result
    solution here following n equals equal then it its let us lets we do be are using
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
_PLACEHOLDER = re.compile(r"<[^<>\n]{0,40}>|\[[^\[\]\n]{0,40}\]|\{[^{}\n]{0,40}\}")
_ELLIPSIS = re.compile(r"\.\.\.|\u2026")
# The "=" of a quoted final line ('"x = <value>"'), whose variable is already set aside.
_FORMAT_EQUALS = re.compile(r"=(?=[ \t]*(?:<|\[|\{|\.\.\.|\u2026|\?|_{2,}))")
# How the steps are laid out, the only sense in which "line" asks nothing of the answer ("on
# one line" does: the answer without its steps).
_LAYOUT = re.compile(
    r"(?i)\b(?:one\s+line\s+per\s+step|(?:each|every|one)\s+step\s+(?:on\s+(?:its\s+own|a\s+"
    r"(?:separate|new))\s+line|per\s+line)|(?:end|ending|finish|finishing)\s+with\s+the\s+line)\b"
)
# Words that may point back to what a dismissed JSON described ("Instead of a JSON object for
# the reciprocal, give me that"); "this equation", "each step" and "given that" do not.
_POINTER = re.compile(
    r"(?i)\b(?:it|that|these|those|them|they|both|each|all|one|ones|same|such|former|latter"
    r"|this(?!\s+equation)|its|their)\b"
)
_NOT_POINTERS = re.compile(r"(?i)\b(?:given\s+that|(?:each|every)\s+step|on\s+its\s+own\s+line)\b")
# An operator or a mathematical or other symbol outside the equation: more algebra ("give -k",
# "then m\u00b7m", "\u221ak") or a mark the answer must carry ("\u2713").
_OPERATOR = re.compile(r"[-+*/^=<>%|~\u2212\u00d7\u00f7\u00b7\u221a]")


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
    # A placeholder's words are read: '"x = <value as a percentage>"' asks for a form.
    opened = _PLACEHOLDER.sub(lambda match: f" {match.group()[1:-1]} ", text)
    for word in _WORD.findall(_ELLIPSIS.sub(" ", _LAYOUT.sub(" ", opened))):
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
        >>> asks_only_to_solve("Solve 3x + 5 = 20 and give -x.", eq)
        False
        >>> asks_only_to_solve('Solve 3x + 5 = 20. End with "x = <value in words>".', eq)
        False
    """
    variable = equation.variable
    # A clause that only rules JSON out says nothing of the wanted answer; one that describes
    # the JSON (a topic, keys) only when a request to solve follows it and nothing points back
    # to what it described.
    dismissals = [
        dismissal
        for dismissal in json_dismissals(request)
        if not dismissal.described or _solving_follows(request[dismissal.end :], variable)
    ]
    rest = _outside(request, [*equation_spans(request), *((d.start, d.end) for d in dismissals)])
    if any(dismissal.described for dismissal in dismissals) and _points_back(rest):
        return False
    # Anything else that reads as an equation or a calculation asks for more ("then 3x").
    # Any digit character ("2", "²"): a trace of more algebra, whatever number it is part of.
    if any(ch.isdigit() for ch in rest) or _has_operator(rest):
        return False
    if _unknown_word(rest, variable) is not None:
        return False
    return all(_unknown_word(turn, variable) is None for turn in earlier)


def _solving_follows(text: str, variable: str) -> bool:
    """Whether ``text`` starts by asking to solve (not "give me that", "find it")."""
    pattern = (
        r"(?i)\s*(?:please\s+)?(?:(?:solve|work\s+out|find|determine|compute|calculate)\b"
        r"(?!\s+(?:it|that|these|those|them|each|both|all|one|just)\b|\s+this\b(?!\s+equation))"
        rf"|what(?:\s+is|['\u2019]s)\s+{re.escape(variable)}(?![A-Za-z]))"
    )
    return re.match(pattern, text) is not None


def _points_back(rest: str) -> bool:
    return _POINTER.search(_NOT_POINTERS.sub(" ", _LAYOUT.sub(" ", rest))) is not None


def _has_operator(rest: str) -> bool:
    """An operator or symbol outside the equation; a hyphen inside a word ("step-by-step"),
    the "=" of a quoted final line and a placeholder's brackets are not (its words are read
    as words)."""
    text = _FORMAT_EQUALS.sub(" ", re.sub(r"(?<=[^\W\d_])-(?=[^\W\d_])", "", rest))
    text = _PLACEHOLDER.sub(lambda match: f" {match.group()[1:-1]} ", text)
    if _OPERATOR.search(text):
        return True
    return any(unicodedata.category(ch) in ("Sm", "So") for ch in text)
