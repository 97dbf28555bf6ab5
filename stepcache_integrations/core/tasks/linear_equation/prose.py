"""What a reused step of a linear-equation answer says besides its equations, and whether it
stays true for the new equation.

The verifier checks every equation of a step against the request's equation. The words around
them can depend on the constants too: "Subtract 5 from both sides" is wrong once ``+ 5``
became ``- 5``; "x is a positive whole number" once the solution is ``-7/3``. After a change of
the equation's values, a step is vouched for only when every word of its prose is one that is
true of every linear equation (:data:`INDEPENDENT_WORDS`: "start", "both sides",
"simplify"...) or the variable, and each stated operation ("subtract N from both sides",
"divide both sides by N") turns the previous equation into the one the step writes: every
equation in the variable is the previous one, the result of a stated move, or the solution. A
number
in the prose that is not such an operand, or any other word, is not vouched for: the step is
written again (the family's solver continues from the last step that holds, at no cost).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    ScannedEquation,
    scan_equations,
)
from stepcache_integrations.core.text.quantities import quantity_at, read_figures

__all__ = ["INDEPENDENT_WORDS", "unchecked_prose"]

#: Words that are true of every linear equation and every solution: they name the task, the
#: parts of an equation, the moves and the order of the steps, never a value, a sign or a
#: property of the solution ("positive", "integer", "larger" are not here).
INDEPENDENT_WORDS = frozenset(
    """a an the to for we i us let let's lets our this that it its is are be been so thus
    therefore hence then now next first second third finally last step steps solve solving
    solved solution answer final result value of in on and with equation original given
    start starting begin beginning have has get gets gives give giving obtain obtains we'll
    both sides side each from by left right hand isolate isolating isolated variable term
    terms constant constants coefficient simplify simplifying simplified simplifies collect
    collecting like combine combining rewrite rewriting write check checking verify verifying
    which means yields yield find finding need needs must can will as follows here what
    remains leaves becomes keep holds correct true way do doing done up our out alone
    expression sign equals equal""".split()  # noqa: SIM905
)

# A stated move: the verb, then its operand (read by the number reader), then the sides.
_MOVE = re.compile(
    r"(?i)\b(?P<verb>subtract(?:ing)?|add(?:ing)?|divid(?:e|ing)|multiply(?:ing)?)"
    r"(?:[ \t]+(?:both|each)[ \t]+sides?)?"
    r"(?:[ \t]+by)?[ \t]+"
)
_SIDES = re.compile(r"[ \t]+(?:from|to)[ \t]+(?:both|each)[ \t]+sides?")
# The number a label such as "Step 2:" or "2." carries is numbering, not a constant.
_LABEL = re.compile(
    r"^[ \t]*(?:[*_#]{1,3}[ \t]*)?(?:step[ \t]+[0-9]{1,6}[ \t]*[:.)-]|[0-9]{1,6}[.)][ \t])", re.I
)
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")

NormalForm = tuple[Fraction, Fraction, Fraction]


def _applied(verb: str, operand: Fraction, state: NormalForm) -> NormalForm | None:
    a, b, c = state
    verb = verb.lower()
    if verb.startswith("subtract"):
        return a, b - operand, c - operand
    if verb.startswith("add"):
        return a, b + operand, c + operand
    if operand == 0:
        return None
    if verb.startswith("divid"):
        return a / operand, b / operand, c / operand
    return a * operand, b * operand, c * operand


@dataclass(frozen=True)
class _Move:
    verb: str
    operand: Fraction
    start: int
    end: int


def _moves(prose: str) -> list[_Move]:
    """The moves the prose states ("subtract 5 from both sides", "divide by 3/4", "add
    twelve"), with the operand as the number reader reads it (a number or a fraction)."""
    moves: list[_Move] = []
    for match in _MOVE.finditer(prose):
        if moves and match.start() < moves[-1].end:
            continue
        operand = quantity_at(prose, match.end())
        if operand is None or operand.kind not in ("number", "fraction"):
            continue
        sides = _SIDES.match(prose, operand.end)
        end = sides.end() if sides is not None else operand.end
        moves.append(_Move(match.group("verb"), operand.value, match.start(), end))
    return moves


def _outside(prose: str, moves: Sequence[_Move]) -> str:
    """The prose without the moves it states (each replaced by a space)."""
    pieces, cursor = [], 0
    for move in moves:
        pieces.append(prose[cursor : move.start])
        cursor = move.end
    pieces.append(prose[cursor:])
    return " ".join(pieces)


def _state(texts: Sequence[str], target: LinearEquation) -> NormalForm:
    """The equation the earlier steps left off at: the last one in the variable they state,
    else the request's."""
    var = target.variable
    for text in reversed(texts):
        for eq in reversed(scan_equations(text)[1]):
            form = eq.normal_form(var)
            if var in eq.names and form[0] != 0:
                return form
    return target.a, target.b, target.c


def _with_variable(equations: Sequence[ScannedEquation], var: str) -> list[ScannedEquation]:
    return [eq for eq in equations if var in eq.names]


def _in_variable(equations: Sequence[ScannedEquation], var: str) -> list[NormalForm]:
    return [eq.normal_form(var) for eq in _with_variable(equations, var)]


def unchecked_prose(text: str, earlier: Sequence[str], target: LinearEquation) -> str | None:
    """The first part of step ``text`` (after the ``earlier`` steps) that is not vouched for
    as true of ``target``, described; ``None`` when all of it is.

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
        >>> target = parse_equation("3x - 5 = 20")
        >>> unchecked_prose("Add 5 to both sides: 3x = 25.", [], target) is None
        True
        >>> unchecked_prose("Subtract 5 from both sides: 3x = 25.", [], target)
        "'Subtract 5 from both sides' does not turn 3x - 5 = 20 into what the step writes"
        >>> unchecked_prose("So x = 25/3, a positive number.", [], target)
        "the words 'positive', 'number' may depend on the equation's values"
        >>> unchecked_prose("We start from 3x + 5 = 30.", [], target)  # the same solution
        "'3x + 5 = 30' does not follow from 3x - 5 = 20 by the moves the step states"
    """
    norm, equations = scan_equations(text)
    var = target.variable
    pieces: list[str] = []
    cursor = 0
    for eq in equations:
        pieces.append(norm[cursor : eq.start])
        cursor = max(cursor, eq.end)
    pieces.append(norm[cursor:])
    prose = " ".join(pieces)
    label = _LABEL.match(prose)
    if label is not None:
        prose = prose[label.end() :]
    forms = _in_variable(equations, var)
    state = _state(earlier, target)
    # Every equation in the variable must be justified: the one the answer left off at (a
    # restatement), the result of a move the step states, or the solution itself. One that
    # merely has the same solution ("start from x - 1 = -1" for x + 1 = 1) is not the
    # request's equation.
    justified = {state, (Fraction(1), Fraction(0), target.solution)}
    moves = _moves(prose)
    for move in moves:
        expected = _applied(move.verb, move.operand, state)
        if expected is None or expected not in forms:
            shown = " ".join(prose[move.start : move.end].split())
            return f"{shown!r} does not turn {target.text} into what the step writes"
        justified.add(expected)
        state = expected
    for eq, form in zip(_with_variable(equations, var), forms, strict=True):
        if form not in justified:
            return f"'{eq.text}' does not follow from {target.text} by the moves the step states"
    rest = _outside(prose, moves)
    if read_figures(rest):
        return "a number in the step's words may depend on the equation's values"
    unknown = [
        word
        for word in _WORD.findall(rest)
        if word.lower() not in INDEPENDENT_WORDS and word != var
    ]
    if unknown:
        shown = ", ".join(repr(word) for word in dict.fromkeys(unknown[:3]))
        return f"the words {shown} may depend on the equation's values"
    return None
