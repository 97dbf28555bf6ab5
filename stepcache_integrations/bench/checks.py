"""Code-judged checks for the benchmark's answers: never a model's opinion.

Each request carries one check. Two questions are asked of every answer:

* ``task_correct``: is the answer right? Equation: the final ``v = value`` is the true
  solution. JSON: the first JSON object in the answer has exactly the requested keys and every
  value the prompt fixes. Word problem: the final number (after ``####``, else the last
  number) is the true answer, computed from the template's calculation.
* ``integrity_ok``: is the whole answer sound? Equation: every equation written in it holds at
  the true solution (intermediate steps included) and it ends with ``v = value``. JSON: the
  answer is exactly one valid JSON object (a single code fence around it is allowed), with no
  duplicate keys. Word problem: every ``calculation = result`` in it holds and it ends with
  the line ``#### <answer>``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stepcache_integrations.bench.equations import (
    EquationParseError,
    LinearEquation,
    evaluate,
    find_equations,
    parse_linear,
)
from stepcache_integrations.bench.word_problems import (
    ends_with_final_line,
    equations_hold,
    final_answer,
)

__all__ = [
    "Check",
    "EquationCheck",
    "JsonCheck",
    "WordCheck",
    "extract_json_object",
    "final_value",
]

JsonScalar = str | int | float | bool | None


@dataclass(frozen=True)
class EquationCheck:
    """Judge an answer to "solve this linear equation"."""

    equation: LinearEquation

    @property
    def family(self) -> str:
        return "equation"

    def task_correct(self, answer: str) -> bool:
        value = final_value(answer, self.equation.var)
        return value is not None and value == self.equation.solution

    def integrity_ok(self, answer: str) -> bool:
        var, truth = self.equation.var, self.equation.solution
        chains = find_equations(answer)
        if not chains or not _ends_with_assignment(answer, var):
            return False
        for sides in chains:
            try:
                values = [evaluate(side, var, truth) for side in sides]
            except EquationParseError:
                return False
            if any(v != values[0] for v in values[1:]):
                return False
        return True


def final_value(answer: str, var: str) -> Fraction | None:
    """The value of the last ``var = <constant>`` (or ``<constant> = var``) in the answer."""
    for sides in reversed(find_equations(answer)):
        for i, side in enumerate(sides):
            if side.replace(" ", "") != var:
                continue
            # The constant nearest to the right wins ("x = 15/3 = 5" gives 5), then the left.
            for other in [*sides[i + 1 :][::-1], *sides[:i]]:
                try:
                    value = parse_linear(other, var)
                except EquationParseError:
                    continue
                if value.coef == 0:
                    return value.const
    return None


_TRAILING = " \t.*`$_!"


def _ends_with_assignment(answer: str, var: str) -> bool:
    lines = [line.strip().rstrip(_TRAILING) for line in answer.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        return False
    pattern = (
        rf"(?<![A-Za-z0-9_]){re.escape(var)}\s*=\s*(?:[^=\n]*=\s*)*-?\d+(?:\.\d+)?(?:\s*/\s*\d+)?"
    )
    return re.search(pattern + r"$", lines[-1]) is not None


@dataclass(frozen=True)
class JsonCheck:
    """Judge an answer to "return only a JSON object with exactly the keys ...".

    ``fixed`` holds the values the prompt states (``"city" is "Lisbon"``). Strings match
    case-insensitively after stripping blanks; numbers by value (``3`` and ``3.0`` agree, the
    string ``"3"`` does not).
    """

    keys: tuple[str, ...]
    # Pairs rather than a dict so the check (and the request holding it) stays hashable.
    fixed: tuple[tuple[str, JsonScalar], ...] = ()

    @property
    def family(self) -> str:
        return "json"

    def task_correct(self, answer: str) -> bool:
        obj = extract_json_object(answer)
        if obj is None or set(obj) != set(self.keys):
            return False
        return all(_same_value(obj[key], want) for key, want in self.fixed)

    def integrity_ok(self, answer: str) -> bool:
        text = answer.strip()
        fence = re.fullmatch(r"```(?:json|JSON)?[ \t]*\n(.*?)\n?[ \t]*```", text, re.DOTALL)
        if fence is not None:
            text = fence.group(1).strip()
        try:
            value = json.loads(text, object_pairs_hook=_no_duplicates)
        except (json.JSONDecodeError, ValueError, RecursionError):
            return False
        return isinstance(value, dict)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key in JSON object")
    return dict(pairs)


def _same_value(got: Any, want: JsonScalar) -> bool:
    if isinstance(want, str):
        return isinstance(got, str) and got.strip().casefold() == want.strip().casefold()
    if isinstance(want, bool) or want is None:
        return got is want
    # A JSON boolean is not a number here even though Python's bool is an int.
    return isinstance(got, int | float) and not isinstance(got, bool) and got == want


def extract_json_object(answer: str) -> dict[str, Any] | None:
    """The first complete JSON object in ``answer`` (bare or inside a code fence)."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", answer):
        try:
            value, _ = decoder.raw_decode(answer, match.start())
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    return None


@dataclass(frozen=True)
class WordCheck:
    """Judge an answer to a word problem: ``truth`` is the true answer of ``template`` for the
    slot ``values`` (``twist``: the template's other question)."""

    truth: Fraction
    template: str
    values: tuple[tuple[str, Fraction], ...]
    twist: bool = False

    @property
    def family(self) -> str:
        return "word"

    def task_correct(self, answer: str) -> bool:
        return final_answer(answer) == self.truth

    def integrity_ok(self, answer: str) -> bool:
        return equations_hold(answer) and ends_with_final_line(answer)


Check = EquationCheck | JsonCheck | WordCheck
