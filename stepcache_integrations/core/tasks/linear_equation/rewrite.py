"""Rewriting a model's answer for an equation, in its own layout: re-instantiated for new
constants, or corrected where its arithmetic slipped.

**Re-instantiation** (a cached answer, a new equation that differs only in its slots): every
number the answer writes is traced to what it counts, a quantity of the old equation (a
constant, ``c - b``, ``(c - b)/a``, the solution, a product or sum of two of them), and
written again with that quantity's new value, in the form the answer wrote it (an integer
stays an integer, a decimal keeps its places, a number keeps its sign). A number in an
equation may count several quantities; the rewrite keeps the one reading under which the
equation holds for the new equation, and gives up when none or several do. A number in the
prose is rewritten only where its role is checked: the operand of a move (the step goes from
one equation to the next by adding, subtracting, multiplying or dividing by it, and does so
by the same operation for the new equation) or the statement of the solution. Any other
number, and any word not known to be true of every linear equation, stops the rewrite: that
step is regenerated.

**Correction** (a fresh answer that failed its check): each equation is made to hold for the
request's equation (a constant side recomputed; a wrong value replaced wherever the answer
carried it on), and the prose is held to the same rules, the moves' operations compared with
those of the model's own steps.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    ScannedEquation,
    chains_of,
    scan_equations,
)
from stepcache_integrations.core.tasks.linear_equation.numerals import (
    Inherited,
    PointForm,
    point_form,
    reading_language,
    written_back,
)
from stepcache_integrations.core.tasks.linear_equation.prose import LABEL, words_vouched
from stepcache_integrations.core.tasks.linear_equation.written import (
    Written,
    aligned,
    numbers_in,
    write_like,
    write_value,
    write_widened,
)

__all__ = ["Trace", "correct_answer", "reinstantiate_steps"]

NormalForm = tuple[Fraction, Fraction, Fraction]
#: The variable's side of an equation in normal form: its coefficient and constant.
VarSide = tuple[Fraction, Fraction]
#: A quantity of the trace: an int while it is whole (several times cheaper to compute).
Exact = int | Fraction
_MAX_READINGS = 256
_OPS = ("subtract", "add", "divide", "multiply")


class Trace:
    """What each value of an old equation counts, and that quantity's value for a new one.

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
        >>> trace = Trace(parse_equation("3x + 5 = 20"), parse_equation("3x + 7 = 20"))
        >>> sorted(trace.readings(Fraction(15)))  # c - b, but also a * b
        [Fraction(13, 1), Fraction(47, 3), Fraction(21, 1)]
    """

    def __init__(
        self, old: LinearEquation, new: LinearEquation, kept: frozenset[Fraction] = frozenset()
    ) -> None:
        # Numbers the request writes outside its equation ("what is x - 20?") are the same in
        # both requests: an answer's number equal to one of them may count it, so it is read
        # as itself only (never as the constant that changed, which it may equal).
        self._kept = kept
        # Each pair once: the literals as written mostly repeat the normal form's constants.
        # Integers are computed as ints (the same values, keys and sets as Fractions: equal
        # numbers hash alike), a Fraction only where a value is one.
        base = list(
            dict.fromkeys(
                (_exact(p_old), _exact(p_new))
                for p_old, p_new in [*_constants(old, new), (old.solution, new.solution)]
            )
        )
        pairs = list(base)
        for first, (p_old, p_new) in enumerate(base):
            # Sums, differences and products once per unordered pair: q + p and q * p are the
            # same quantities, and q - p is p - q negated (every pair is indexed with both
            # signs). This runs on every re-instantiation: it is most of a hit's arithmetic.
            for q_old, q_new in base[first:]:
                pairs += [(p_old + q_old, p_new + q_new), (p_old - q_old, p_new - q_new)]
                pairs.append((p_old * q_old, p_new * q_new))
            pairs += [
                (_quotient(p_old, q_old), _quotient(p_new, q_new))
                for q_old, q_new in base
                if q_old != 0 and q_new != 0
            ]
        self._index: dict[Exact, set[Exact]] = {}
        self._add(pairs)

    def _add(self, pairs: Iterable[tuple[Exact, Exact]]) -> None:
        index = self._index
        for old_value, new_value in pairs:
            for old_signed, new_signed in ((old_value, new_value), (-old_value, -new_value)):
                found = index.get(old_signed)
                if found is None:
                    index[old_signed] = {new_signed}
                else:
                    found.add(new_signed)

    @classmethod
    def of_check(cls, old: LinearEquation, new: LinearEquation) -> Trace:
        """The quantities of a line that checks a value (the equation with the value put in
        for the variable, worked out): the constants as written, the value, the coefficient
        times the value, and the value or that product plus or minus a constant. Fewer than
        for a working line: "3(6) + 5 = 23" must not also read as "a(a + a) + b = c + a"."""
        trace = cls.__new__(cls)
        trace._index = {}
        trace._kept = frozenset()
        constants = _constants(old, new)
        value = (old.solution, new.solution)
        products = [value, (old.a * value[0], new.a * value[1])]
        pairs = list(constants) + products
        for (p_old, p_new), (q_old, q_new) in itertools.product(products, constants):
            pairs += [(p_old + q_old, p_new + q_new), (p_old - q_old, p_new - q_new)]
        trace._add(pairs)
        return trace

    def readings(self, value: Fraction) -> set[Fraction]:
        """The new values of every quantity whose old value is ``value``; a number the
        request writes outside its equation reads as itself."""
        if abs(value) in self._kept:
            return {value}
        return {Fraction(found) for found in self._index.get(value, ())}

    @property
    def kept(self) -> frozenset[Fraction]:
        """The magnitudes the request writes outside its equation (read as themselves)."""
        return self._kept


def _exact(value: Fraction) -> Exact:
    return value.numerator if value.denominator == 1 else value


def _quotient(dividend: Exact, divisor: Exact) -> Exact:
    if isinstance(dividend, int):  # int / int would be a float
        return Fraction(dividend, divisor) if isinstance(divisor, int) else dividend / divisor
    return dividend / divisor


def _constants(old: LinearEquation, new: LinearEquation) -> list[tuple[Fraction, Fraction]]:
    """The constants of the two equations, paired: normal form and the numbers as written."""
    pairs = [(old.a, new.a), (old.b, new.b), (old.c, new.c)]
    old_literals = [w.signed for w in numbers_in(old.text)]
    new_literals = [w.signed for w in numbers_in(new.text)]
    if len(old_literals) == len(new_literals):
        pairs += list(zip(old_literals, new_literals, strict=True))
    return pairs


# ---------------------------------------------------------------------------------------------
# Equations
# ---------------------------------------------------------------------------------------------


def _holding(text: str, target: LinearEquation, links: int = 1) -> Sequence[ScannedEquation] | None:
    """The links of ``text`` when it is one equation (a chain of ``links`` equations: "x =
    15/3 = 5") and each of them holds for ``target``; ``None`` otherwise."""
    found = scan_equations(text)[1]
    if len(found) != links or not all(_holds_eq(eq, target) for eq in found):
        return None
    return found


def _holds_eq(eq: ScannedEquation, target: LinearEquation) -> bool:
    if not eq.names:
        return eq.left.const == eq.right.const
    if eq.names != {target.variable}:
        return False
    a, b, c = eq.normal_form(target.variable)
    return a != 0 and (c - b) / a == target.solution


def _replaced(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    out, cursor = [], 0
    for start, end, new in sorted(edits):
        out.append(text[cursor:start])
        out.append(new)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


def _reinstantiated_equation(
    text: str,
    chain: Sequence[ScannedEquation],
    trace: Trace,
    target: LinearEquation,
    writer: Callable[[Fraction, Written], str | None] = write_like,
    path: _Path | None = None,
    lowest_terms: bool = False,
) -> list[tuple[int, int, str]] | None:
    """The edits that rewrite the numbers of ``chain`` (one equation, or the links of
    "a = b = c", in ``text``) for ``target``: the one reading of its numbers under which every
    link holds (and, given the ``path`` of the answer, follows from the one before it as the
    cached link did); ``None`` when there is no such reading or more than one. With
    ``lowest_terms`` (a re-instantiation: the form is the cached answer's), a fraction the
    text writes in lowest terms stays in them (a correction keeps the model's denominator)."""
    start, end = chain[0].start, chain[-1].end
    wanted = None if path is None else path.relations(chain, new=False)[0]
    numbers = numbers_in(text, start, end)
    options: list[list[str]] = []
    for number in numbers:
        written = {writer(value, number) for value in trace.readings(number.signed)}
        written.discard(None)
        if not written:
            return None
        options.append(sorted(w for w in written if w is not None))
    count = 1
    for option in options:
        count *= len(option)
    if count > _MAX_READINGS:
        return None
    found: set[tuple[str, ...]] = set()
    fractions = _fractions_in(text, numbers) if lowest_terms else []
    for choice in itertools.product(*options):
        if not _fractions_keep_form(numbers, choice, fractions):
            continue
        edits = [(n.start, n.end, w) for n, w in zip(numbers, choice, strict=True)]
        links = _holding(_replaced(text, edits)[start : _end(end, edits)], target, len(chain))
        if links is not None and (path is None or path.relations(links, new=True)[0] == wanted):
            found.add(choice)
    if len(found) != 1:
        return None
    (choice,) = found
    return [(n.start, n.end, w) for n, w in zip(numbers, choice, strict=True)]


# "5/2", "5 / 2", "\\frac{5}{2}": the numerator's end to the denominator's start.
_OVER = re.compile(r"\s*/\s*|\}\s*\{")


def _fractions_in(text: str, numbers: Sequence[Written]) -> list[int]:
    """The indexes ``i`` of ``numbers`` where ``numbers[i]`` over ``numbers[i + 1]`` is one
    fraction written in lowest terms (a value's form, as "5/2" writes 2.5)."""
    found = []
    for i, (top, bottom) in enumerate(itertools.pairwise(numbers)):
        over = _OVER.fullmatch(text[top.end : bottom.start]) is not None
        whole = top.signed.denominator == 1 and bottom.signed > 1
        if over and whole and math.gcd(top.signed.numerator, bottom.signed.numerator) == 1:
            found.append(i)
    return found


def _fractions_keep_form(
    numbers: Sequence[Written], choice: Sequence[str], fractions: Sequence[int]
) -> bool:
    """Whether every fraction the cached answer wrote in lowest terms is still one: "5/2"
    rewritten "6/2" holds for x = 3 (each number traced alone) but is no form the model
    writes its value in; the value's form is then the model's to choose."""
    for i in fractions:
        top, bottom = Fraction(choice[i]), Fraction(choice[i + 1])
        if top.denominator != 1 or bottom.denominator != 1 or bottom <= 1:
            return False
        if math.gcd(top.numerator, bottom.numerator) != 1:
            return False
    return True


def _end(end: int, edits: Sequence[tuple[int, int, str]]) -> int:
    return end + sum(len(new) - (stop - start) for start, stop, new in edits)


# ---------------------------------------------------------------------------------------------
# Prose
# ---------------------------------------------------------------------------------------------


def _applied(op: str, operand: Fraction, state: NormalForm) -> NormalForm | None:
    a, b, c = state
    if op == "subtract":
        return a, b - operand, c - operand
    if op == "add":
        return a, b + operand, c + operand
    if operand == 0:
        return None
    if op == "divide":
        return a / operand, b / operand, c / operand
    return a * operand, b * operand, c * operand


def _operand(op: str, state: NormalForm, result: NormalForm) -> Fraction | None:
    """The operand that turns ``state`` into ``result`` by ``op``, if one does."""
    (a, b, _), (a2, b2, _) = state, result
    if op in ("subtract", "add"):
        operand = (b - b2) if op == "subtract" else (b2 - b)
    elif a2 == 0 or a == 0:
        return None
    else:
        operand = a / a2 if op == "divide" else a2 / a
    return operand if _applied(op, operand, state) == result else None


def _ops_of(
    value: Fraction, state: NormalForm, forms: Sequence[NormalForm], slipped: bool = False
) -> set[str]:
    """The moves by ``value`` that turn ``state`` into one of ``forms``; with ``slipped``
    (a model's step whose arithmetic may have slipped) judged on the variable's side alone:
    "Subtract 1.5: 3r = 10.8" from "3r + 1.5 = 12" subtracts 1.5, and got the right side wrong.
    """
    found = set()
    for op in _OPS:
        moved = _applied(op, value, state)
        if moved is None:
            continue
        for form in forms:
            if moved == form or (slipped and moved[:2] == form[:2]):
                found.add(op)
    return found


@dataclass(frozen=True)
class _Side:
    """One instance of a step: its text, the equation it starts from, its equations' forms."""

    text: str
    state: NormalForm
    forms: tuple[NormalForm, ...]
    solution: Fraction


def _side(text: str, state: NormalForm, var: str, solution: Fraction) -> _Side:
    eqs = scan_equations(text)[1]
    forms = tuple(eq.normal_form(var) for eq in eqs if var in eq.names)
    return _Side(text, state, tuple(f for f in forms if f[0] != 0), solution)


def _prose_numbers(text: str) -> list[Written]:
    """The numbers of ``text`` outside its equations and its step label."""
    eqs = scan_equations(text)[1]
    label = LABEL.match(text)
    skip = label.end() if label else 0
    return [
        n for n in numbers_in(text, skip) if not any(eq.start <= n.start < eq.end for eq in eqs)
    ]


def _prose_number(
    old: Written, before: _Side, after: _Side, slipped: bool = False
) -> Fraction | None:
    """The new value of the prose number ``old``: the operand of the same move in the new
    step (a move from the equation the step starts at, or from one of its equations to the
    next: "subtract 2: 5x = 28, and then divide by 5: x = 28/5"), or the new solution where it
    states the old one; ``None`` when its role is not checked. ``slipped``: ``before`` is a
    model's step whose arithmetic may have slipped."""
    old_moves = _moves(before)
    new_moves = _moves(after)
    roles = {
        (index, op)
        for index, (start, end) in enumerate(old_moves)
        for op in _ops_of(old.signed, start, [end], slipped)
    }
    if roles:
        if len(old_moves) != len(new_moves):
            return None
        values = {_operand(op, *new_moves[index]) for index, op in roles}
        values.discard(None)
        return values.pop() if len(values) == 1 else None
    if old.signed == before.solution:
        return after.solution
    return None


def _moves(side: _Side) -> list[tuple[NormalForm, NormalForm]]:
    """The moves of a step: from the equation it starts at to its first equation, and from
    each of its equations to the next."""
    states = [side.state, *side.forms]
    return list(itertools.pairwise(states))


# What makes a number of the prose more than a constant: a letter or a percent sign after it.
_TERM_AFTER = re.compile(r"[^\W\d_]|%|\u2030")


def _rewrite_prose(
    old_text: str,
    new_text: str,
    before: _Side,
    after: _Side,
    slipped: bool = False,
    kept: frozenset[Fraction] = frozenset(),
    writer: Callable[[Fraction, Written], str | None] = write_like,
) -> str | None:
    """``new_text`` (whose equations are rewritten already) with its prose numbers rewritten
    by their roles in ``old_text`` (each written by ``writer``); ``None`` when a number's role
    is not checked, or when a number the request writes outside its equation (``kept``) would
    be written anew."""
    old_numbers, new_numbers = _prose_numbers(old_text), _prose_numbers(new_text)
    if len(old_numbers) != len(new_numbers):
        return None
    edits = []
    for old, new in zip(old_numbers, new_numbers, strict=True):
        if _TERM_AFTER.match(old_text, old.end):
            return None  # "subtract 1200y", "a 5% share": not a constant the moves trace
        value = _prose_number(old, before, after, slipped)
        if value is not None and abs(old.signed) in kept and value != old.signed:
            return None  # "subtract 20" may be the request's own 20, not the changed constant
        written = None if value is None else writer(value, old)
        if written is None:
            return None
        edits.append((new.start, new.end, written))
    return _replaced(new_text, edits)


def _last_state(text: str, var: str, state: NormalForm) -> NormalForm:
    for eq in reversed(scan_equations(text)[1]):
        if var in eq.names and eq.names == {var}:
            form = eq.normal_form(var)
            if form[0] != 0:
                return form
    return state


# ---------------------------------------------------------------------------------------------
# Re-instantiation
# ---------------------------------------------------------------------------------------------


def _relation(state: NormalForm, form: NormalForm, request: NormalForm) -> frozenset[str]:
    """How the equation ``form`` follows from ``state``: the same equation, or the moves
    that turn one into the other (none: a jump of several moves, or another equation); and
    whether it is the ``request``'s equation, restated."""
    if form == state:
        tags = {"same"}
    else:
        tags = {op for op in _OPS if _operand(op, state, form) is not None}
    if form == request:
        tags.add("request")
    return frozenset(tags)


@dataclass
class _Path:
    """Where the cached answer and its rewrite stand (the equation each has reached), so that
    each rewritten equation follows from the one before it as the cached one did: "We start
    from 1x + 1 = 3" restates the request's equation, and its rewrite must restate the new one
    (not "1x + 1 = 2", an equation that merely holds); a move stays a move of the same kind."""

    var: str
    requests: tuple[NormalForm, NormalForm]
    states: list[NormalForm]

    def relations(
        self, links: Sequence[ScannedEquation], *, new: bool
    ) -> tuple[list[frozenset[str]], NormalForm]:
        """How each of ``links`` in the variable follows from the one before it (the first
        from the state reached), on the cached side or the ``new`` one, and the state they
        reach."""
        side = 1 if new else 0
        state, request = self.states[side], self.requests[side]
        found: list[frozenset[str]] = []
        for eq in links:
            if eq.names != {self.var}:
                continue
            form = eq.normal_form(self.var)
            if form[0] == 0:
                continue
            found.append(_relation(state, form, request))
            state = form
        return found, state

    def advance(
        self, old_links: Sequence[ScannedEquation], new_links: Sequence[ScannedEquation]
    ) -> None:
        """Move both sides past a chain and its rewrite."""
        self.states = [
            self.relations(old_links, new=False)[1],
            self.relations(new_links, new=True)[1],
        ]


def _renamed(text: str, old: str, new: str) -> str | None:
    if old == new:
        return text
    if old in "aAiI":  # a one-letter word of prose as well
        return None
    pattern = (
        rf"(?<![^\W\d])(?<!['\u2019])(?<![A-Za-z]\.){re.escape(old)}(?![\w'\u2019])(?!\.[A-Za-z])"
    )
    return re.sub(pattern, new, text)


def _working_writer(
    old: LinearEquation, new: LinearEquation
) -> Callable[[Fraction, Written], str | None]:
    """How a re-instantiated number is written: a number of the working may take the places
    its new value needs ("0.5x = 5" becomes "0.5x = 1.5": the same quantity, exact); a number
    that may state the solution (its old or its new value) keeps its form, so the form of the
    final value never changes silently: where it would, that step goes to the model, which
    chooses how to write 5/2."""
    old_value, new_value = abs(old.solution), abs(new.solution)

    def write(value: Fraction, like: Written) -> str | None:
        if abs(like.signed) == old_value or abs(value) == new_value:
            return write_like(value, like)
        return write_widened(value, like)

    return write


def _reinstantiated_step(
    text: str, trace: Trace, old: LinearEquation, new: LinearEquation, states: list[NormalForm]
) -> str | None:
    """One step rewritten for ``new``; ``states`` are the equations the old and new answers
    had reached before it (updated)."""
    plain = aligned(text)
    renamed = None if plain is None else _renamed(plain, old.variable, new.variable)
    if plain is None or renamed is None:
        return None
    edits: list[tuple[int, int, str]] = []
    requests = ((old.a, old.b, old.c), (new.a, new.b, new.c))
    path = _Path(new.variable, requests, list(states))
    writer = _working_writer(old, new)
    for chain in chains_of(scan_equations(renamed)[1]):
        # Each number in its own form first: the places a value needs are a reading of last
        # resort (more ways to write each number, more readings that may hold).
        found = _reinstantiated_equation(
            renamed, chain, trace, new, path=path, lowest_terms=True
        ) or _reinstantiated_equation(
            renamed, chain, trace, new, writer, path=path, lowest_terms=True
        )
        if found is None:
            return None
        segment = _replaced(renamed, found)[chain[0].start : _end(chain[-1].end, found)]
        path.advance(chain, scan_equations(segment)[1])
        edits += found
    rewritten = _replaced(renamed, edits)
    var = new.variable
    before = _side(plain, states[0], old.variable, old.solution)
    after = _side(rewritten, states[1], var, new.solution)
    result = _rewrite_prose(renamed, rewritten, before, after, kept=trace.kept, writer=writer)
    if result is None or not words_vouched(result, var, states[1], new.solution):
        return None
    states[0] = _last_state(plain, old.variable, states[0])
    states[1] = _last_state(result, var, states[1])
    return _merged(text, plain, result)


def reinstantiate_steps(
    texts: Sequence[str],
    old: LinearEquation,
    new: LinearEquation,
    kept: frozenset[Fraction] = frozenset(),
) -> tuple[list[str], int]:
    """The steps of an answer to ``old`` rewritten for ``new``, and how many of them could
    be (the first that could not, and every one after it, are returned unchanged). ``kept``:
    the magnitudes of the numbers the requests write outside their equations (the same in
    both): an answer's number equal to one of them is never written anew ("x - 20 = -15"
    for "what is x - 20?" is not "x - 26 = -19" once 20 became 26 in the equation).

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
        >>> steps = ["Step 1: Subtract 5 from both sides: 3x = 15.",
        ...          "Step 2: Divide both sides by 3: x = 5."]
        >>> old, new = parse_equation("3x + 5 = 20"), parse_equation("3x + 8 = 20")
        >>> texts, valid = reinstantiate_steps(steps, old, new)
        >>> print("\\n".join(texts), valid)
        Step 1: Subtract 8 from both sides: 3x = 12.
        Step 2: Divide both sides by 3: x = 4. 2
    """
    forms = _point_forms(texts, old.answer_language)
    if forms is None:
        return list(texts), 0
    whole, points = forms
    trace = Trace(old, new, kept)
    states: list[NormalForm] = [(old.a, old.b, old.c), (new.a, new.b, new.c)]
    out: list[str] = []
    for index, text in enumerate(points):
        rewritten = _reinstantiated_step(text, trace, old, new, states)
        if rewritten is None:
            return [*out, *texts[index:]], index
        out.append(written_back(rewritten, whole))
    return out, len(out)


def _point_forms(texts: Sequence[str], inherited: Inherited) -> tuple[PointForm, list[str]] | None:
    """The point form of the whole answer (its decimal marks) and of each step, read with
    the answer's language (else the request's); ``None`` when a number of the answer reads
    no way or two ways, or the answer writes decimals with two marks (a rewrite could not be
    written back in its own form)."""
    # Written back, a new decimal takes the request's mark even where the answer wrote none.
    told = inherited() if callable(inherited) else inherited
    language = reading_language("".join(texts), told)
    whole = point_form("".join(texts), language)
    if not whole.rewritable:
        return None
    return whole, [point_form(text, language).text for text in texts]


# ---------------------------------------------------------------------------------------------
# Correction
# ---------------------------------------------------------------------------------------------


def _sides(text: str, eq: ScannedEquation) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The spans of the two sides of ``eq`` in ``text``."""
    inner = text[eq.start : eq.end]
    at = next((i for i, ch in enumerate(inner) if ch in "=\u2248"), -1)
    if at < 0:
        return None
    left = (eq.start, eq.start + len(inner[:at].rstrip()))
    rest = inner[at + 1 :]
    right = (eq.start + at + 1 + len(rest) - len(rest.lstrip()), eq.end)
    return left, right


def _fixed_side(
    text: str, eq: ScannedEquation, target: LinearEquation
) -> tuple[tuple[int, int], Fraction, Fraction] | None:
    """The side of ``eq`` to recompute, its old value and the value it must have."""
    sides = _sides(text, eq)
    if sides is None:
        return None
    left, right = sides
    var, s = target.variable, target.solution
    if not eq.names:
        return right, eq.right.const, eq.left.const
    if eq.right.names and not eq.left.names:
        return left, eq.left.const, eq.right.coef(var) * s + eq.right.const
    if eq.left.names and not eq.right.names:
        return right, eq.right.const, eq.left.coef(var) * s + eq.left.const
    return None


def _corrected_like(value: Fraction, like: Written) -> str | None:
    """A corrected value as ``like`` is written, else plainly (a correction writes the
    solution even where the model's slip had another form: "4.5" becomes "4.25")."""
    return write_like(value, like) or (None if like.negated else write_value(value))


def _mapped(
    text: str, eq: ScannedEquation, values: dict[Fraction, Fraction]
) -> list[tuple[int, int, str]]:
    edits = []
    for number in numbers_in(text, eq.start, eq.end):
        if number.signed in values:
            new = values[number.signed]
            written = _corrected_like(new, number)
            if written is not None:
                edits.append((number.start, number.end, written))
    return edits


def _correct_equation(
    text: str, index: int, target: LinearEquation, values: dict[Fraction, Fraction]
) -> str | None:
    """``text`` with its ``index``-th equation made to hold for ``target``."""
    eq = scan_equations(text)[1][index]
    if _holds_eq(eq, target) and not _mapped(text, eq, values):
        return text
    mapped = _replaced(text, _mapped(text, eq, values))
    eq = scan_equations(mapped)[1][index]
    if _holds_eq(eq, target):
        return mapped
    fixed = _fixed_side(mapped, eq, target)
    if fixed is None:
        return None
    (start, end), was, value = fixed
    written = _written_as_side(mapped[start:end], numbers_in(mapped, start, end), value)
    values.setdefault(was, value)
    corrected = _replaced(mapped, [(start, end, written)])
    again = scan_equations(corrected)[1]
    if len(again) <= index or not _holds_eq(again[index], target):
        return None
    return corrected


_FRACTION_SIDE = re.compile(
    r"[ \t]*\(?[ \t]*([0-9]+)[ \t]*\)?[ \t]*/[ \t]*\(?[ \t]*([0-9]+)[ \t]*\)?[ \t]*"
)


def _written_as_side(side: str, numbers: Sequence[Written], value: Fraction) -> str:
    """``value`` written in the form of the side it replaces: a number as that number is
    written; a fraction ("33/5") as a fraction, over the same denominator where it divides
    ("28/5"); else plainly."""
    if len(numbers) == 1 and numbers[0].text == side.strip():
        return write_like(value, numbers[0]) or write_value(value)
    fraction = _FRACTION_SIDE.fullmatch(side)
    if fraction is not None and value > 0 and value.denominator != 1:
        denominator = int(fraction.group(2))
        if denominator and (value * denominator).denominator == 1:
            return f"{value * denominator}/{denominator}"
        return f"{value.numerator}/{value.denominator}"
    return write_value(value)


def _corrected_equations(
    text: str, target: LinearEquation, values: dict[Fraction, Fraction]
) -> str | None:
    """``text`` with every equation (every link of a chain) made to hold for ``target``;
    ``values`` maps each wrong value to its correction, carried on from step to step."""
    count = len(scan_equations(text)[1])
    if count > 60:
        return None
    for index in range(count):
        corrected = _correct_equation(text, index, target, values)
        if corrected is None or len(scan_equations(corrected)[1]) != count:
            return None
        text = corrected
    return text


def correct_answer(steps: Sequence[str], target: LinearEquation) -> str | None:
    """The model's answer (its ``steps``) with every equation made to hold for ``target`` and
    the prose numbers that follow from them rewritten, in its own layout; ``None`` when a part
    cannot be corrected or vouched for.

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
        >>> print(correct_answer(["Subtract 5 from both sides: 3x = 16.\\n",
        ...                       "Divide both sides by 3: x = 16/3."],
        ...                      parse_equation("3x + 5 = 20")))
        Subtract 5 from both sides: 3x = 15.
        Divide both sides by 3: x = 15/3.
    """
    forms = _point_forms(steps, target.answer_language)
    if forms is None:
        return None
    whole, points = forms
    corrected = _corrected_points(points, target)
    return None if corrected is None else written_back(corrected, whole)


def _corrected_points(steps: Sequence[str], target: LinearEquation) -> str | None:
    var = target.variable
    start: NormalForm = (target.a, target.b, target.c)
    old_state, new_state = start, start
    out: list[str] = []
    values: dict[Fraction, Fraction] = {}
    checks = _CheckLines.of(steps, target)
    sides: VarSide = start[:2]
    for raw in steps:
        plain = aligned(raw)
        if plain is None or len(plain) != len(raw):
            return None
        moved = _slipped_sides(plain, var, sides)
        if moved is None:
            return None  # another equation than the request's, not a slip
        sides = moved
        fixed = _corrected_equations(plain, target, values)
        if fixed is not None and checks is not None:
            fixed = checks.recomputed(plain, fixed)
        if fixed is None or not all(_holds_eq(eq, target) for eq in scan_equations(fixed)[1]):
            return None
        own = _last_value(plain, var)
        before = _side(plain, old_state, var, own if own is not None else target.solution)
        after = _side(fixed, new_state, var, target.solution)
        result = _rewrite_prose(plain, fixed, before, after, slipped=True)
        if result is None or not words_vouched(result, var, after.state, target.solution):
            return None
        old_state = _last_state(plain, var, old_state)
        new_state = _last_state(result, var, new_state)
        merged = _merged(raw, plain, result)
        if merged is None:
            return None
        out.append(merged)
    return "".join(out)


def _slipped_sides(text: str, var: str, sides: tuple[Fraction, Fraction]) -> VarSide | None:
    """The variable's side (coefficient, constant) of the last equation in ``var`` of the
    model's ``text``, when each of them follows from the one before (from ``sides``) as a
    solver's move does: the same side, the constant gone, or the side scaled. Arithmetic
    slips on the other side; a side no move makes ("3x + 8 = 20" in an answer to 3x + 5 = 20)
    is another equation, not a slip: correcting it would state an equation the model never
    meant ("Start with 3x + 8 = 23"). ``None`` then."""
    a, b = sides
    for eq in scan_equations(text)[1]:
        if eq.names != {var}:
            continue
        a2, b2, _ = eq.normal_form(var)
        if a2 == 0:
            continue
        if (a2, b2) != (a, b) and b2 != 0 and a2 * b != a * b2:
            return None
        a, b = a2, b2
    return a, b


@dataclass(frozen=True)
class _CheckLines:
    """How the lines that check the model's own (wrong) value are recomputed for the
    solution: "Check: 3(16/3) + 5 = 21", "Probe: 0,5 · 3,2 + 3 = 4,6", "5 - 3(-4) = 17". Their
    numbers are the model's value, the equation's constants and results of the two: each is
    traced (:class:`Trace`) from the equation the model's value solves to the request's."""

    trace: Trace
    target: LinearEquation
    dependent: frozenset[Fraction]

    @classmethod
    def of(cls, steps: Sequence[str], target: LinearEquation) -> _CheckLines | None:
        """``None`` when the model's final value is the solution (or it states none)."""
        plain = aligned("".join(steps))
        own = None if plain is None else _last_value(plain, target.variable)
        if own is None or own == target.solution:
            return None
        a, b = target.a, target.b
        solved = LinearEquation(target.variable, a, b, a * own + b, target.text)
        dependent = {own, a * own, a * own + b}
        if own.denominator != 1:
            dependent.add(Fraction(own.numerator))
        trace = Trace.of_check(solved, target)
        return cls(trace, target, frozenset(abs(v) for v in dependent))

    def _is_check(self, text: str, chain: Sequence[ScannedEquation]) -> bool:
        if all(eq.names for eq in chain):
            return False
        numbers = numbers_in(text, chain[0].start, chain[-1].end)
        return any(abs(number.signed) in self.dependent for number in numbers)

    def recomputed(self, plain: str, fixed: str) -> str | None:
        """``fixed`` (``plain`` corrected) with each line that checks the model's value
        recomputed from ``plain`` for the solution; ``None`` when one cannot be (one reading
        of its numbers under which it holds)."""
        old_chains = chains_of(scan_equations(plain)[1])
        new_chains = chains_of(scan_equations(fixed)[1])
        if len(old_chains) != len(new_chains):
            return None
        edits = []
        for old, new in zip(old_chains, new_chains, strict=True):
            if not self._is_check(plain, old):
                continue
            found = _reinstantiated_equation(plain, old, self.trace, self.target, _corrected_like)
            if found is None:
                return None
            line = _replaced(plain, found)[old[0].start : _end(old[-1].end, found)]
            edits.append((new[0].start, new[-1].end, line))
        return _replaced(fixed, edits)


def _last_value(text: str, var: str) -> Fraction | None:
    for eq in reversed(scan_equations(text)[1]):
        if eq.left_var == var and not eq.right.names:
            return eq.right.const
        if eq.right_var == var and not eq.left.names:
            return eq.left.const
    return None


def _merged(raw: str, plain: str, result: str) -> str | None:
    """``result`` (an edit of the aligned ``plain``) with ``raw``'s LaTeX and markup kept
    where nothing was rewritten; ``None`` when an edited part is not written the same in both
    (the alignment moved it: "\\frac{7}{2}" aligns its 7 one place off, and putting the edit
    at the plain offset wrote "\\frac87}{2}")."""
    if raw == plain:
        return result
    matcher = difflib.SequenceMatcher(None, plain, result, autojunk=False)
    edits = [
        (i1, i2, result[j1:j2]) for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"
    ]
    if any(raw[i1:i2] != plain[i1:i2] for i1, i2, _ in edits):
        return None
    return _replaced(raw, edits)
