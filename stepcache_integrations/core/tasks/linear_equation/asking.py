"""What a linear-equation request asks: only to solve its equation, or more.

The family's own answer (its canonical solution, or its solver's continuation of verified
steps) is right only for a request that asks for nothing else. "Solve 3x + 5 = 20, then find
3x", "give x to two decimal places", "explain why", "is 3x + 5 = 20 linear?" or a system
prompt that fixes another form ask for more: the model answers those (the family still checks
the equations).

A grammar of request shapes, not a list of words: words that each could belong to a request
to solve ("what", "is", "one", "step") also make "is the equation linear?" or "in one step".
With the request's equation, the mentions of its variable and the clauses that only rule JSON
out (:func:`~stepcache_integrations.core.tasks.output_format.json_dismissals`) set aside, the
request must consist of pieces (split at sentence and clause ends, commas and "and") each of
which is one of the shapes below: a request to solve ("Solve for x", "What is x if ...",
"Find the value of x in ..."), a step layout ("show your work step by step", "one line per
step in the form "Step N: <equation>"", "end with the line "x = <value>""), framing ("You are
a helpful math tutor.") or politeness. Any other piece, any digit, any quoted text other than
those two formats and any character other than letters and plain punctuation ("-x", "x!",
"$", "\u221ax") leave the request to the model. The turns before the request may hold only
framing, layout and politeness. A dismissal that describes the JSON it rules out (a topic,
keys) is read past only when a request to solve follows it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    parse_equation,
    scan_equations,
)
from stepcache_integrations.core.tasks.output_format import json_dismissals
from stepcache_integrations.core.text.memo import TextMemo

__all__ = ["asks_only_to_solve", "equation_spans", "mentions_of"]

Span = tuple[int, int]

# Numbers, coefficients ("3x"), one-letter names, operators and the spaces between them: the
# grammar of a run of algebra, not a number reader.
_MATH_RUN = re.compile(
    r"(?:(?:\d+(?:\.\d+)?[A-Za-z]?|(?<![A-Za-z])[A-Za-z](?![A-Za-z])|[-+*/=^()\u2212\u00d7\u00b7])"
    r"[ \t]*)+"
)

# What the equation, the variable, the final-line format and the step format become in the
# marked request (words no request writes).
_EQ, _VAR, _FINAL, _STEP_FORM = "eqtoken", "vartoken", "finaltoken", "stepformtoken"
_TOKENS = (_EQ, _VAR, _FINAL, _STEP_FORM)

_PLACEHOLDER_WORD = r"(?:the\s+)?(?:value|answer|number|solution|result|vartoken)"
_PLACEHOLDER = (
    rf"(?:<\s*{_PLACEHOLDER_WORD}\s*>|\[\s*{_PLACEHOLDER_WORD}\s*\]|\{{\s*{_PLACEHOLDER_WORD}\s*\}}"
    r"|\?|\.\.\.|\u2026|_{2,})"
)
# The final line's form: 'x = <value>' (quoted or not).
_FINAL_FORM = re.compile(rf"vartoken\s*=\s*{_PLACEHOLDER}")
# The steps' form: 'Step N: <equation>', 'Step N:'.
_STEP_FORM_TEXT = re.compile(
    r"step\s+(?:n|k|#|<\s*n\s*>|\{\s*n\s*\})(?:\s*:\s*(?:<\s*(?:the\s+)?(?:equation|step|work)\s*>"
    r"|\.\.\.|\u2026)?)?"
)
# Quoted text: double quotes, curly quotes, backticks, and single quotes that are not
# apostrophes (not inside a word: "what's").
_QUOTED = re.compile(
    r"\"([^\"\n]{0,120})\"|\u201c([^\u201d\n]{0,120})\u201d|`([^`\n]{0,120})`"
    r"|(?<![a-z])'([^'\n]{1,120})'(?![a-z])"
)
# Letters, spaces and plain punctuation: all a request to solve needs besides its equation.
_PLAIN = re.compile(r"[a-z\s.,;:!?'()]*")
_PIECE_END = re.compile(r"[.!?;:()\n]+|,|\band\b")

# Atomic, and each polite prefix read one way only: a piece that does not match must fail at
# once, not try every way of reading "can you please can you please ..." (exponential).
_POLITE = (
    r"(?>(?:(?:please|kindly|ok|okay|now|so|hi|hello|hey)\s+|(?:can|could|would|will)\s+you\s+"
    r"|i\s+(?:need|want|would\s+like|'d\s+like)\s+(?:you\s+)?to\s+|help\s+me\s+(?:to\s+)?"
    r"|let\s+us\s+|let's\s+|we\s+need\s+to\s+)*)"
)
_VERB = r"(?:solve|find|determine|compute|calculate|work\s+out|get)"
_EQUATION = r"(?:(?:the|this|the\s+following)\s+(?:linear\s+)?equation\s+)?eqtoken"
_TARGET = r"(?:for\s+)?(?:the\s+value\s+of\s+)?(?:vartoken|the\s+unknown)"
_LINK = r"(?:in|from|if|given(?:\s+that)?|where|when|with|such\s+that|for|of)"
_STEPWISE = (
    r"(?:\s+(?:with\s+)?(?:step\s+by\s+step|one\s+step\s+per\s+line|one\s+line\s+per\s+step))?"
)
_AS_STEP_FORM = r"(?:\s+(?:as|in\s+the\s+form)\s+stepformtoken)?"

# The shapes of a piece of a request to solve.
_SOLVING_PIECES = (
    # "Solve 3x + 5 = 20 for x", "Find the value of x in ...", "Determine x given that ..."
    rf"{_POLITE}{_VERB}(?:\s+{_TARGET})?(?:\s+{_LINK})?\s+{_EQUATION}"
    rf"(?:\s+for\s+(?:vartoken|the\s+unknown))?{_STEPWISE}(?:\s+please)?",
    # "Solve for x" (before ": 3x + 5 = 20"), "Please solve this equation for x"
    rf"{_POLITE}{_VERB}(?:\s+(?:the|this)\s+(?:linear\s+)?equation)?(?:\s+{_TARGET})?"
    rf"{_STEPWISE}(?:\s+please)?",
    # "What is x if 3x + 5 = 20", "What's the value of x in ..."
    rf"{_POLITE}what(?:\s+is|'s)\s+(?:the\s+value\s+of\s+)?vartoken"
    rf"(?:\s+(?:if|in|when|given(?:\s+that)?|where|for|from)\s+{_EQUATION})?",
    # The equation alone (after "Solve for x:")
    rf"{_EQUATION}(?:\s+for\s+vartoken)?",
)
# How the steps are laid out and how the answer ends.
_LAYOUT_PIECES = (
    rf"{_POLITE}show\s+(?:me\s+)?(?:your|the|all(?:\s+the|\s+your)?|each|every)\s+"
    rf"(?:work|working|steps?|solution)(?:\s+step\s+by\s+step)?{_AS_STEP_FORM}",
    r"step\s+by\s+step",
    rf"(?:{_POLITE}(?:write|put|show|give)\s+)?(?:each|every)\s+step\s+on\s+(?:its\s+own|a\s+"
    rf"(?:separate|new))\s+line{_AS_STEP_FORM}",
    rf"(?:with\s+)?one\s+(?:line\s+per\s+step|step\s+per\s+line){_AS_STEP_FORM}",
    rf"{_POLITE}(?:end|finish)(?:ing)?\s+with\s+(?:the\s+(?:final\s+|last\s+)?line\s+)?finaltoken",
    rf"{_POLITE}(?:give|write)\s+(?:your|the)\s+final\s+answer\s+as\s+finaltoken",
)
# Who answers, and politeness.
_FRAMING_PIECES = (
    r"you\s+are\s+an?\s+(?:(?:helpful|friendly|expert|careful|patient|kind)\s+)*"
    r"(?:(?:math|maths|mathematics|algebra)\s+)?(?:tutor|teacher|assistant|expert|solver)",
    r"(?:please\s+)?be\s+(?:careful|precise|clear)",
    r"(?:hi|hello|hey)(?:\s+there)?|thanks(?:\s+in\s+advance)?|thank\s+you(?:\s+in\s+advance)?"
    r"|please",
)
_REQUEST_PIECE = re.compile("|".join(_SOLVING_PIECES + _LAYOUT_PIECES + _FRAMING_PIECES))
_EARLIER_PIECE = re.compile("|".join(_LAYOUT_PIECES + _FRAMING_PIECES))
_SOLVING_NEXT = re.compile(
    rf"\s*{_POLITE}(?:{_VERB}|what(?:\s+is|'s)\s+(?:the\s+value\s+of\s+)?vartoken)\b"
)


def mentions_of(variable: str) -> re.Pattern[str]:
    """Whole mentions of a one-letter variable ("x" in "3x", not in "next")."""
    return re.compile(rf"(?<![A-Za-z]){re.escape(variable)}(?![A-Za-z])")


def _equation_spans_uncached(request: str) -> tuple[Span, ...]:
    equation = parse_equation(request)
    if equation is None:
        return ()
    spans = _equation_runs(request, equation)
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
        >>> asks_only_to_solve("Is the equation 3x + 5 = 20 linear?", eq)
        False
    """
    if equation == parse_equation(request):
        if not _request_only_solves(request):  # the usual call: memoised, on the hit path
            return False
    elif not _only_solves(request, equation):
        return False
    for turn in earlier:
        marked_turn = _marked(turn, equation, dismiss=False)
        if marked_turn is None or not _made_of(marked_turn, _EARLIER_PIECE):
            return False
    return True


def _only_solves(request: str, equation: LinearEquation) -> bool:
    """The request's own part of :func:`asks_only_to_solve`."""
    marked = _marked(request, equation, dismiss=True)
    return marked is not None and _EQ in marked and _made_of(marked, _REQUEST_PIECE)


def _request_only_solves_uncached(request: str) -> bool:
    equation = parse_equation(request)
    return equation is not None and _only_solves(request, equation)


_request_only_solves = TextMemo(_request_only_solves_uncached, max_chars=200_000)


def _marked(text: str, equation: LinearEquation, dismiss: bool) -> str | None:
    """``text`` lower-cased, its equation, variable and formats replaced by their tokens, the
    clauses that only rule JSON out (``dismiss``) by a clause end; ``None`` when something
    no request to solve holds is left (a digit, other quoted text, a symbol)."""
    if any(token in text.lower() for token in _TOKENS):
        return None
    spans = [(start, end, f" {_EQ} ") for start, end in _equation_runs(text, equation)]
    spans += [
        (m.start(), m.end(), f" {_VAR} ") for m in mentions_of(equation.variable).finditer(text)
    ]
    if dismiss:
        for dismissal in json_dismissals(text):
            # A dismissal that describes its JSON may be what the rest points back to
            # ("Instead of a JSON object for the reciprocal, give me that"): read past it only
            # when a request to solve follows.
            if not dismissal.described or _SOLVING_NEXT.match(
                _marked_tail(text[dismissal.end :], equation)
            ):
                spans.append((dismissal.start, dismissal.end, " . "))
    marked = _replace(text, spans)
    # Format characters (zero-width spaces, direction marks) are no part of what is asked.
    marked = "".join(" " if unicodedata.category(ch) == "Cf" else ch for ch in marked).lower()
    marked = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", marked.replace("\u2019", "'"))
    formatted = _quoted_formats(marked)
    if formatted is None:
        return None
    formatted = _FINAL_FORM.sub(f" {_FINAL} ", formatted)
    if not _PLAIN.fullmatch(formatted):
        return None
    return " ".join(formatted.split())


def _marked_tail(text: str, equation: LinearEquation) -> str:
    """The words right after a dismissal, the equation's variable as its token."""
    head = text[:200].lower()
    return mentions_of(equation.variable).sub(f" {_VAR} ", head)


def _equation_runs(text: str, equation: LinearEquation) -> list[Span]:
    """Every run of algebra around an "=" in ``text`` that is all of it ``equation``."""
    return [
        match.span()
        for match in _MATH_RUN.finditer(text)
        if "=" in match.group() and _is_whole_equation(match.group(), equation)
    ]


def _replace(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with each span replaced; a span inside an earlier one (a mention inside the
    equation) goes with it."""
    pieces: list[str] = []
    cursor = 0
    for start, end, token in sorted(spans, key=lambda span: (span[0], -span[1])):
        if start < cursor:
            continue
        pieces.append(text[cursor:start])
        pieces.append(token)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _quoted_formats(text: str) -> str | None:
    """Quoted text replaced by the format it names; ``None`` for any other quoted text."""
    out: list[str] = []
    cursor = 0
    for match in _QUOTED.finditer(text):
        inner = " ".join(next(group for group in match.groups() if group is not None).split())
        inner = inner.rstrip(".")
        if _FINAL_FORM.fullmatch(inner):
            token = _FINAL
        elif _STEP_FORM_TEXT.fullmatch(inner):
            token = _STEP_FORM
        else:
            return None
        out.append(text[cursor : match.start()])
        out.append(f" {token} ")
        cursor = match.end()
    out.append(text[cursor:])
    return "".join(out)


def _made_of(marked: str, piece: re.Pattern[str]) -> bool:
    """Whether every piece of ``marked`` (split at clause ends, commas and "and") is a
    ``piece``."""
    return all(piece.fullmatch(part.strip()) for part in _PIECE_END.split(marked) if part.strip())
