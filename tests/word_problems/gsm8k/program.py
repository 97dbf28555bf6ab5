"""A GSM8K solution read as a small program, and run again on other quantities.

A GSM8K answer is a chain of sentences with calculator annotations (``48/2 = <<48/2=24>>24``)
and a final line ``#### 72``. Each annotation is one calculation; each number in it comes from
the question (a quantity written in digits), from an earlier calculation's result, or is a
constant the solver knew (60 minutes, 2 for "half"). :func:`read_problem` finds those sources
by value and refuses a problem where one number could come from two of them (it could not be
re-run with certainty). :meth:`Problem.run` gives every calculation's result for new values of
the question's quantities, and :meth:`Problem.rewrite` the question and the answer with every
number of a changed source rewritten.

Written for this harness, independently of the package's readers: the harness judges them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

__all__ = ["Calc", "Number", "Problem", "fmt", "read_problem"]

# A number of the question in digits: "$1,200.50", "48", "25%", "120-page"; not a time
# ("3:15"), an ordinal ("3rd"), or a number glued to letters ("2x").
_NUMBER = re.compile(
    r"(?<![\w.,:/])(\$?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(%?)(?![\w:/]|\.\d|,\d{3})"
)
_ANNOTATION = re.compile(r"<<([^<>=]*)=([^<>]*)>>")
_FINAL = re.compile(r"\n?####\s*(.*)\s*$")


def _value(whole: str, decimals: str | None) -> Fraction:
    return Fraction((whole.replace(",", "") or "0") + (decimals or ""))


@dataclass(frozen=True)
class Number:
    """A number written in a text: where, its value, and how it is written."""

    start: int
    end: int
    value: Fraction
    money: bool
    percent: bool
    decimals: int
    grouped: bool

    @property
    def source_values(self) -> tuple[Fraction, ...]:
        """The values an answer may write for it (a percentage: its number, or the ratio)."""
        if self.percent:
            return (self.value, self.value / 100)
        return (self.value,)


def numbers_in(text: str) -> list[Number]:
    """Every number written in digits in ``text``."""
    found = []
    for match in _NUMBER.finditer(text):
        sign, whole, decimals, percent = match.groups()
        found.append(
            Number(
                match.start(2),
                match.end(3) if decimals else match.end(2),
                _value(whole, decimals),
                bool(sign),
                bool(percent),
                len(decimals) - 1 if decimals else 0,
                "," in whole,
            )
        )
    return found


def _evaluate(node: ast.AST, leaf: list[Fraction]) -> Fraction:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, leaf)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return leaf.pop(0)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand, leaf)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        left = _evaluate(node.left, leaf)
        right = _evaluate(node.right, leaf)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Div):
            return left / right
    raise ValueError(f"not plain arithmetic: {ast.dump(node)[:60]}")


_LITERAL = re.compile(r"\d+(?:\.\d+)?|\.\d+")


@dataclass(frozen=True)
class Calc:
    """One annotation: its expression, its literals (as written) and its stated result."""

    expression: str
    literals: tuple[Fraction, ...]
    result: Fraction
    tree: ast.Expression

    def run(self, leaves: list[Fraction]) -> Fraction:
        return _evaluate(self.tree, list(leaves))


Source = tuple[str, int]  # ("q", question number index) | ("r", calc index) | ("c", 0)


@dataclass
class Problem:
    """A GSM8K problem whose solution can be re-run (see the module docstring)."""

    question: str
    answer: str
    numbers: list[Number]  # of the question
    calcs: list[Calc]
    sources: list[list[Source]]  # per calc, per literal
    final: Fraction
    # Quantities of the question no calculation uses (a distractor, or read in words).
    unused: frozenset[int] = field(default_factory=frozenset)

    @property
    def used(self) -> list[int]:
        return sorted({i for row in self.sources for kind, i in row if kind == "q"})

    def run(self, values: Mapping[int, Fraction]) -> list[Fraction]:
        """Every calculation's result with the question's quantity ``i`` at ``values[i]``."""
        results: list[Fraction] = []
        for calc, row in zip(self.calcs[: len(self.sources)], self.sources, strict=True):
            leaves = []
            for literal, (kind, i) in zip(calc.literals, row, strict=True):
                if kind == "q":
                    number = self.numbers[i]
                    new = values.get(i, number.value)
                    leaves.append(new / 100 if number.percent and literal != number.value else new)
                elif kind == "r":
                    leaves.append(results[i])
                else:
                    leaves.append(literal)
            results.append(calc.run(leaves))
        return results

    def rewrite(
        self, values: Mapping[int, Fraction], results: list[Fraction], written: Mapping[int, str]
    ) -> tuple[str, str] | None:
        """The question and the answer with the new values (``written`` overrides how a
        question quantity is written: "twelve"); ``None`` when a number of the answer's prose
        could stand for two sources that now differ."""
        question = self.question
        for i in sorted(values, key=lambda k: -self.numbers[k].start):
            number = self.numbers[i]
            text = written.get(i) or fmt(values[i], number.decimals, number.grouped)
            question = question[: number.start] + text + question[number.end :]
        olds = [calc.result for calc in self.calcs]
        answer = _rewrite_answer(self, values, olds, results)
        return None if answer is None else (question, answer)


def fmt(value: Fraction, decimals: int = 0, grouped: bool = False) -> str:
    """``value`` in digits with at least ``decimals`` decimals (as needed to be exact)."""
    negative = value < 0
    value = abs(value)
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
        if places > 8:
            raise ValueError(f"{value} has no short decimal")
    places = max(places, decimals)
    scaled = value * 10**places
    whole, rest = divmod(int(scaled), 10**places)
    head = f"{whole:,}" if grouped else str(whole)
    text = f"{head}.{str(rest).rjust(places, '0')}" if places else head
    return ("-" if negative else "") + text


def _candidates(problem: Problem, value: Fraction, before: int | None) -> set[Source]:
    found: set[Source] = set()
    for i, number in enumerate(problem.numbers):
        if value in number.source_values:
            found.add(("q", i))
    for j, calc in enumerate(problem.calcs[: before if before is not None else None]):
        if calc.result == value:
            found.add(("r", j))
    return found


def _rewrite_answer(
    problem: Problem,
    values: Mapping[int, Fraction],
    olds: list[Fraction],
    news: list[Fraction],
) -> str | None:
    """Every number of the answer (prose, annotations, final line) rewritten by its source."""
    out: list[str] = []
    cursor = 0
    text = problem.answer
    for match in numbers_in_answer(text):
        start, end, value, decimals, grouped = match
        found = _candidates(problem, value, None)
        new_values = set()
        for kind, i in found:
            if kind == "q":
                number = problem.numbers[i]
                new = values.get(i, number.value)
                new_values.add(new / 100 if number.percent and value != number.value else new)
            else:
                new_values.add(news[i])
        if len(new_values) > 1:
            return None
        out.append(text[cursor:start])
        out.append(fmt(new_values.pop(), decimals, grouped) if new_values else text[start:end])
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


_ANSWER_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+|(?=\.\d))(\.\d+)?(?![\w]|\.\d)")


def numbers_in_answer(text: str) -> list[tuple[int, int, Fraction, int, bool]]:
    """Every number of an answer: (start, end, value, decimals, grouped)."""
    return [
        (
            m.start(),
            m.end(),
            _value(m.group(1), m.group(2)),
            len(m.group(2)) - 1 if m.group(2) else 0,
            "," in m.group(1),
        )
        for m in _ANSWER_NUMBER.finditer(text)
    ]


def read_problem(question: str, answer: str) -> Problem | str:
    """The problem as a program, or why it cannot be re-run with certainty."""
    numbers = numbers_in(question)
    calcs: list[Calc] = []
    for expression, result in _ANNOTATION.findall(answer):
        try:
            tree = ast.parse(expression.replace("x", "*").replace("%", "/100"), mode="eval")
            literals = tuple(Fraction(lit) for lit in _LITERAL.findall(expression))
            stated = Fraction(result.strip().replace(",", ""))
        except (SyntaxError, ValueError, ZeroDivisionError):
            return f"annotation {expression!r} is not plain arithmetic"
        calcs.append(Calc(expression, literals, stated, tree))
    if not calcs:
        return "no annotation"
    final_match = _FINAL.search(answer)
    if final_match is None:
        return "no final line"
    try:
        final = Fraction(final_match.group(1).strip().replace(",", "").rstrip("."))
    except (ValueError, ZeroDivisionError):
        return "the final line is not a number"
    problem = Problem(question, answer, numbers, calcs, [], final)
    for j, calc in enumerate(calcs):
        row: list[Source] = []
        for literal in calc.literals:
            found = _candidates(problem, literal, j)
            if len(found) > 1:
                return f"{literal} of {calc.expression!r} has {len(found)} sources"
            row.append(found.pop() if found else ("c", 0))
        problem.sources.append(row)
        try:
            again = problem.run({})[-1]
        except (ValueError, ZeroDivisionError) as error:
            return f"{calc.expression!r}: {error}"
        if again != calc.result:
            return f"{calc.expression!r} gives {again}, not {calc.result}"
    if problem.calcs[-1].result != final and all(c.result != final for c in problem.calcs):
        return "the final answer is no calculation's result"
    plain = _ANNOTATION.sub("", answer)
    for calc, row in zip(calcs, problem.sources, strict=True):
        for literal, (kind, _) in zip(calc.literals, row, strict=True):
            written = fmt(literal) if (literal * 10**8).denominator == 1 else None
            if kind == "c" and written and re.search(rf"=\s*\$?{re.escape(written)}\b", plain):
                # A result of a calculation the solution wrote without an annotation.
                return f"{written} is computed without an annotation"
    problem.unused = frozenset(set(range(len(numbers))) - set(problem.used))
    return problem
