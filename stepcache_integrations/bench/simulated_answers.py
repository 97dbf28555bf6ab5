"""What the SIMULATED model writes: plausible answers, right or wrong, read off the prompt.

The simulated backend has to behave like a small instruct model on the workload's prompts and
on the prompts a step cache sends on its own (continue after verified steps; repair a failed
answer). It reads the task from the prompt text alone, the way a model would, and decides
right or wrong with a deterministic draw (``Draw``) so the same prompt always gets the same
answer, like a real model at temperature 0.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stepcache_integrations.bench.equations import (
    LinearEquation,
    find_equations,
    format_number,
    solve_text_equation,
)
from stepcache_integrations.bench.word_problems import WordTemplate, read_prompt, solution_lines

__all__ = ["Draw", "Rates", "respond"]

# ``Draw(purpose)`` returns a number in [0, 1) that depends only on the prompt, the model's
# seed and ``purpose``.
Draw = Callable[[str], float]


@dataclass(frozen=True)
class Rates:
    """How often the simulated model gets each kind of request right."""

    equation: float = 0.3
    json: float = 0.8
    continuation: float = 0.7
    repair: float = 0.6
    word: float = 0.4


_CONTINUE = re.compile(r"\bcontinu(?:e|ing|ation)\b", re.IGNORECASE)
_REPAIR = re.compile(
    r"\b(?:repair|fix|correct(?:ed|ion)?|failed|invalid|wrong|mistake|error)\b", re.IGNORECASE
)
_JSON_TASK = re.compile(r"only a JSON object", re.IGNORECASE)
_EQ_TASK = re.compile(r"\bStep N\b|\bsolve\b", re.IGNORECASE)


def respond(conversation: str, draw: Draw, rates: Rates) -> str:
    """The simulated model's answer to the whole conversation text."""
    # A step cache asks to continue after verified steps, to repair a failed answer, or both
    # (a patched answer that failed its check is repaired after the same verified prefix).
    continuing = _CONTINUE.search(conversation) is not None
    repairing = _REPAIR.search(conversation) is not None
    if _JSON_TASK.search(conversation):
        spec = _json_spec(conversation)
        if spec is not None:
            rate = rates.repair if repairing else rates.json
            return _json_answer(spec, draw, correct=draw("json") < rate)
    if "####" in conversation:
        found = read_prompt(conversation)
        if found is not None:
            rate = rates.repair if repairing else rates.word
            done = 0
            if continuing:
                rate = rates.repair if repairing else rates.continuation
                done = _steps_done(conversation)
            return _word_answer(found, draw, draw("word") < rate, done)
    if _EQ_TASK.search(conversation):
        eq = _task_equation(conversation)
        if eq is not None:
            rate = rates.repair if repairing else rates.equation
            if continuing:
                rate = rates.repair if repairing else rates.continuation
                done = _steps_done(conversation)
                return _equation_answer(eq, draw, draw("cont") < rate, done)
            return _equation_answer(eq, draw, correct=draw("eq") < rate)
    return "I am not sure what is being asked. Could you rephrase the question?"


# --- equations -----------------------------------------------------------------------------


def _task_equation(text: str) -> LinearEquation | None:
    """The equation the (first) request asks to solve, in its canonical ``a*v + b = c`` form."""
    declared = re.search(r'"([A-Za-z]) = <value>"', text)
    candidates = [declared.group(1)] if declared else []
    for sides in find_equations(text):
        names = re.findall(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])", " ".join(sides))
        for var in [*candidates, *names]:
            solved = solve_text_equation(sides[0], sides[-1], var)
            if solved is not None:
                return LinearEquation(*solved, var)
    return None


def _steps_done(text: str) -> int:
    """How many "Step k:" lines the conversation already holds (the verified prefix)."""
    numbers = [int(n) for n in re.findall(r"(?im)^\s*Step\s+(\d+)\s*:", text)]
    return max(numbers, default=0)


def _over(value: Fraction | int, divisor: int) -> str:
    shown = format_number(divisor)
    return f"{format_number(value)} / {shown if divisor > 0 else f'({shown})'}"


def _solution_lines(eq: LinearEquation, rhs: Fraction, final: Fraction) -> list[str]:
    """Canonical steps; ``rhs`` is what the model believes ``c - b`` is, ``final`` its answer."""
    v, a, b, c = eq.var, eq.a, eq.b, eq.c
    lhs = LinearEquation(a, 0, 0, v).render().split(" =")[0]
    lines: list[str] = []
    if b > 0:
        lines.append(f"Subtract {b} from both sides: {lhs} = {c} - {b}")
    elif b < 0:
        lines.append(f"Add {-b} to both sides: {lhs} = {c} + {-b}")
    if b != 0:
        lines.append(f"Simplify: {lhs} = {format_number(rhs)}")
    if a != 1:
        lines.append(f"Divide both sides by {a}: {v} = {_over(rhs, a)}")
    lines.append(f"{v} = {format_number(final)}")
    return lines


def _equation_answer(eq: LinearEquation, draw: Draw, correct: bool, done: int = 0) -> str:
    truth = eq.solution
    rhs, final = Fraction(eq.c - eq.b), truth
    lines = _solution_lines(eq, rhs, final)
    error = "none" if correct else ("sign", "arith", "divide", "format")[int(draw("err") * 4)]
    if error == "sign" and eq.b != 0:
        rhs = Fraction(eq.c + eq.b)
        lines = _solution_lines(eq, rhs, rhs / eq.a)
        # The sign slip: "subtract b" but the model adds it.
        lines[0] = (
            lines[0]
            .replace(f"{eq.c} - {eq.b}", f"{eq.c} + {eq.b}")
            .replace(f"{eq.c} + {-eq.b}", f"{eq.c} - {-eq.b}")
        )
    elif error in {"sign", "arith"}:
        rhs = rhs + (1 + int(draw("delta") * 3)) * (1 if draw("dsign") < 0.5 else -1)
        # An arithmetic slip in "Simplify"; the step before it stays right.
        lines = _solution_lines(eq, rhs, rhs / eq.a)
    elif error == "divide":
        lines[-1] = f"{eq.var} = {format_number(truth + (1 if draw('dsign') < 0.5 else -1))}"
    elif error == "format":
        # Right value, but the answer trails off in prose instead of ending "v = value".
        lines[-1] = f"So the answer is {format_number(truth)}, which we can check by substitution."
    numbered = [f"Step {i}: {line}" for i, line in enumerate(lines[:-1], start=1)]
    numbered.append(lines[-1])
    return "\n".join(numbered[done:] if done < len(numbered) else numbered[-1:])


# --- JSON ----------------------------------------------------------------------------------

_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_VALUE = r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null'


def _json_spec(text: str) -> tuple[list[str], dict[str, Any]] | None:
    """Required keys and fixed values from "... exactly the keys "a", "b" and "c", where ..."."""
    found = re.search(r"keys\s+((?:\"[^\"]+\"(?:\s*,\s*|\s+and\s+)?)+)(.*)", text)
    if found is None:
        return None
    keys = _QUOTED.findall(found.group(1))
    fixed: dict[str, Any] = {}
    rest = found.group(2).split("\n")[0]
    for key, value in re.findall(rf'"([^"]+)" is ({_VALUE})', rest):
        fixed[key] = json.loads(value)
    return keys, fixed


# Plausible values a small model would invent for common keys.
_INVENTED: dict[str, Any] = {
    "name": "Ana Silva",
    "age": 34,
    "city": "Lisbon",
    "email": "ana@example.com",
    "product": "Wireless Mouse",
    "price": 24.99,
    "item": "Notebook",
    "unit_price": 2.5,
    "title": "The Silent Sea",
    "author": "J. Moreau",
    "event": "Tech Meetup",
    "date": "2025-05-14",
    "temperature": 18,
    "task": "Write the report",
    "done": False,
    "department": "sales",
    "salary": 52000,
    "flight": "TP1234",
    "origin": "Lisbon",
    "dish": "Mushroom risotto",
    "minutes": 35,
    "total": 7.5,
    "status": "pending",
}


def _invent(key: str) -> Any:
    return _INVENTED.get(key, f"example {key.replace('_', ' ')}")


def _json_answer(spec: tuple[list[str], dict[str, Any]], draw: Draw, correct: bool) -> str:
    keys, fixed = spec
    obj = {key: fixed.get(key, _invent(key)) for key in keys}
    error = (
        "none"
        if correct
        else ("missing", "value", "extra", "prose", "invalid")[int(draw("jerr") * 5)]
    )
    if error == "value" and fixed:
        key = next(iter(fixed))
        obj[key] = (obj[key] + 1) if isinstance(obj[key], int) else f"{obj[key]}ville"
    elif error in {"missing", "value"} and len(obj) > 1:
        obj.pop(keys[-1])
    elif error in {"extra", "missing", "value"}:
        obj["id"] = 1
    text = json.dumps(obj, indent=2)
    if error == "invalid":
        text = text[:-2] + ",\n}"
    if draw("fence") < 0.5:
        text = f"```json\n{text}\n```"
    if error == "prose":
        text = f"Here is the JSON object you asked for:\n{text}"
    return text


# --- word problems -------------------------------------------------------------------------


def _word_answer(
    found: tuple[WordTemplate, dict[str, Fraction], bool], draw: Draw, correct: bool, done: int
) -> str:
    """The template's calculation, one step a line, then ``#### answer``; a wrong answer has
    one of the slips a step cache can catch: an arithmetic slip carried into the later steps,
    a final line that contradicts the work, or no final line at all. (A model can also reason
    wrongly with correct arithmetic; no verifier sees that, and it is not simulated here.)"""
    template, values, twist = found
    lines = solution_lines(template, values, twist)
    if not correct:
        error = ("arith", "final", "format")[int(draw("werr") * 3)]
        known = template.values(values)
        truth = known[template.twist_answer if twist else template.answer]
        if error == "arith":
            at = int(draw("wstep") * len(template.steps))
            delta = (1 + int(draw("wdelta") * 3)) * (1 if draw("wsign") < 0.5 else -1)
            lines = solution_lines(
                template, values, twist, slip=lambda k, v: v + delta if k == at else v
            )
        elif error == "final":
            wrong = truth + 1
            while wrong in known.values():
                wrong += 1
            lines[-1] = f"#### {format_number(wrong)}"
        else:
            lines[-1] = f"So the answer is {format_number(truth)}."
    return "\n".join(lines[done:] if done < len(lines) else lines[-1:])
