"""Linear equations whose answers carry prose that depends on the constants or on the
variable's name.

``eq_prose_depends_on_constant``: the sign of the constant flips ("Subtract 5" becomes "Add 5"),
or the answer remarks on the solution ("which is positive", "a whole number", "even").
``eq_variable_in_prose``: the variable is renamed, and its old name is also a word or part of
a word of the prose ("a", "I", "A", "s" in "Let's", "t" in "don't", "m" in "I'm").
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from tests.security.sound_reuse.cases.common import case


def value(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def equation(a: int, b: int, c: int, var: str = "x") -> str:
    coefficient = "" if a == 1 else ("-" if a == -1 else str(a))
    sign = "+" if b >= 0 else "-"
    return f"{coefficient}{var} {sign} {abs(b)} = {c}"


def steps(a: int, b: int, c: int, var: str = "x") -> list[str]:
    """The two steps a model writes for ``a var + b = c``."""
    move = (
        f"Subtract {b} from both sides: {a}{var} = {c - b}."
        if b >= 0
        else f"Add {-b} to both sides: {a}{var} = {c - b}."
    )
    solution = Fraction(c - b, a)
    return [f"Step 1: {move}", f"Step 2: Divide both sides by {a}: {var} = {value(solution)}."]


def remark(kind: str, solution: Fraction, var: str = "x") -> str:
    s = value(solution)
    if kind == "sign":
        word = "positive" if solution > 0 else ("zero" if solution == 0 else "negative")
        return f"So {var} = {s}, which is {word}."
    if kind == "whole":
        if solution.denominator == 1:
            return f"So {var} = {s}, a whole number."
        return f"So {var} = {s}, which is not a whole number."
    if kind == "parity":
        if solution.denominator != 1:
            return f"So {var} = {s}, which is not an integer, so it is neither even nor odd."
        return f"So {var} = {s}, which is {'even' if solution.numerator % 2 == 0 else 'odd'}."
    if kind == "range":
        inside = 0 <= solution <= 10
        return f"So {var} = {s}, which is {'within' if inside else 'outside'} the range 0 to 10."
    raise ValueError(kind)


PROMPTS = [
    "Solve for {v}: {eq}. Show each step.",
    "Solve {eq} for {v}, step by step.",
    "Find {v} if {eq}. Explain each step briefly.",
    "Solve the equation {eq} for {v}. Show your working.",
]

SIGN_FLIPS = [
    (3, 5, 20, 3, -5, 20),
    (2, 7, 19, 2, -7, 19),
    (4, -6, 10, 4, 6, 10),
    (5, 3, 28, 5, -3, 28),
    (6, -4, 20, 6, 4, 20),
    (7, 2, 30, 7, -2, 30),
]

REMARKS = [
    ("sign", (2, 9, 15), (2, 9, 5)),
    ("sign", (3, 4, 1), (3, 4, 19)),
    ("sign", (5, 10, 35), (5, 10, 0)),
    ("whole", (3, 5, 20), (3, 5, 21)),
    ("whole", (4, 1, 13), (4, 1, 15)),
    ("whole", (6, 2, 17), (6, 2, 20)),
    ("parity", (2, 3, 11), (2, 3, 13)),
    ("parity", (3, 6, 27), (3, 6, 24)),
    ("parity", (5, 5, 30), (5, 5, 45)),
    ("range", (2, 4, 14), (2, 4, 30)),
    ("range", (3, 3, 45), (3, 3, 18)),
    ("sign", (4, 8, 20), (4, 8, 4)),
]


def sign_cases() -> Iterator[dict[str, Any]]:
    n = 0
    for a1, b1, c1, a2, b2, c2 in SIGN_FLIPS:
        n += 1
        template = PROMPTS[n % len(PROMPTS)]
        yield case(
            f"eq-sign-{n:03d}",
            "eq_prose_depends_on_constant",
            template.format(v="x", eq=equation(a1, b1, c1)),
            "\n".join(steps(a1, b1, c1)),
            template.format(v="x", eq=equation(a2, b2, c2)),
            "\n".join(steps(a2, b2, c2)),
            judge="equation",
        )
    for kind, (a1, b1, c1), (a2, b2, c2) in REMARKS:
        n += 1
        template = PROMPTS[n % len(PROMPTS)]
        s1, s2 = Fraction(c1 - b1, a1), Fraction(c2 - b2, a2)
        yield case(
            f"eq-sign-{n:03d}",
            "eq_prose_depends_on_constant",
            template.format(v="x", eq=equation(a1, b1, c1)),
            "\n".join([*steps(a1, b1, c1), remark(kind, s1)]),
            template.format(v="x", eq=equation(a2, b2, c2)),
            "\n".join([*steps(a2, b2, c2), remark(kind, s2)]),
            judge="equation",
        )


def intro(a: int, b: int, c: int) -> str:
    """A first paragraph without numbers that a model writes about the equation's shape."""
    term = (
        "The constant term is positive, so we subtract it from both sides first."
        if b >= 0
        else "The constant term is negative, so we add its opposite to both sides first."
    )
    sign = (
        "The coefficient of x is positive, so dividing by it keeps the sign of the result."
        if a > 0
        else "The coefficient of x is negative, so dividing by it flips the sign of the result."
    )
    return f"{term} {sign}"


INTROS = [
    (3, 5, 20, 3, -5, 20),
    (2, -7, 9, 2, 7, 9),
    (4, 6, 30, -4, 6, 30),
    (-3, 2, 14, 3, 2, 14),
    (5, 8, 33, 5, -8, 33),
    (6, -1, 23, -6, -1, 23),
]


def intro_cases() -> Iterator[dict[str, Any]]:
    for n, (a1, b1, c1, a2, b2, c2) in enumerate(INTROS, start=len(SIGN_FLIPS) + len(REMARKS) + 1):
        template = PROMPTS[n % len(PROMPTS)]
        yield case(
            f"eq-sign-{n:03d}",
            "eq_prose_depends_on_constant",
            template.format(v="x", eq=equation(a1, b1, c1)),
            "\n\n".join([intro(a1, b1, c1), "\n".join(steps(a1, b1, c1))]),
            template.format(v="x", eq=equation(a2, b2, c2)),
            "\n\n".join([intro(a2, b2, c2), "\n".join(steps(a2, b2, c2))]),
            judge="equation",
        )


def _renamed(
    old: str, new: str, eq: tuple[int, int, int], template: str, prose: str
) -> tuple[str, str, str, str]:
    """A prompt pair and answers whose prose (``{v}`` marks the variable) keeps its words."""
    a, b, c = eq
    solution = value(Fraction(c - b, a))

    def answer(var: str) -> str:
        return prose.format(v=var, a=a, b=b, c=c, r=c - b, s=solution)

    return (
        template.format(v=old, eq=equation(a, b, c, old)),
        answer(old),
        template.format(v=new, eq=equation(a, b, c, new)),
        answer(new),
    )


VARIABLE_PROSE: list[tuple[str, str, tuple[int, int, int], str]] = [
    (
        "a",
        "b",
        (4, 2, 18),
        "Step 1: Subtract {b} from both sides to leave a single term with {v}: {a}{v} = {r}.\n"
        "Step 2: Divide both sides by {a}: {v} = {s}.",
    ),
    (
        "a",
        "y",
        (3, 6, 27),
        "Step 1: Subtract {b} from both sides. This gives a simpler equation: {a}{v} = {r}.\n"
        "Step 2: Divide both sides by {a}: {v} = {s}, a whole number.",
    ),
    (
        "I",
        "R",
        (5, 3, 23),
        "First I subtract {b} from both sides: {a}{v} = {r}.\n"
        "Then I divide both sides by {a}: {v} = {s}.",
    ),
    (
        "A",
        "B",
        (3, 6, 21),
        "A good first step is to subtract {b} from both sides: {a}{v} = {r}.\n"
        "Then divide both sides by {a}: {v} = {s}.",
    ),
    (
        "s",
        "t",
        (2, 4, 14),
        "Let's subtract {b} from both sides: {a}{v} = {r}.\n"
        "Now divide both sides by {a}: {v} = {s}.",
    ),
    (
        "t",
        "n",
        (5, 10, 35),
        "We don't need to expand anything. Subtract {b} from both sides: {a}{v} = {r}.\n\n"
        "Divide both sides by {a}: {v} = {s}.",
    ),
    (
        "m",
        "k",
        (2, 3, 11),
        "I'm going to subtract {b} from both sides first: {a}{v} = {r}.\n\n"
        "Then divide both sides by {a}: {v} = {s}.",
    ),
    (
        "d",
        "p",
        (6, 5, 41),
        "I'd start by subtracting {b} from both sides: {a}{v} = {r}.\n\n"
        "Then divide both sides by {a}: {v} = {s}.",
    ),
    (
        "e",
        "y",
        (3, 2, 14),
        "Isolate {v} (i.e. get the {v} term by itself): subtract {b} from both sides, "
        "so {a}{v} = {r}.\n\nDivide both sides by {a}: {v} = {s}.",
    ),
    (
        "x",
        "n",
        (2, 3, 11),
        "Step 1: Subtract {b} from both sides: {a}{v} = {r}.\n"
        "Step 2: Divide both sides by {a}: {v} = {s}.\n"
        "Check: 2 x 4 + 3 = 11, so the solution is right.",
    ),
    (
        "a",
        "z",
        (7, 1, 29),
        "Subtract {b} from both sides to get {a}{v} = {r}.\n\n"
        "Then divide both sides by {a} to get {v} = {s}, a whole number.",
    ),
    (
        "I",
        "V",
        (4, 8, 36),
        "I'll move the constant first: subtract {b} from both sides, so {a}{v} = {r}.\n\n"
        "I then divide by {a}: {v} = {s}.",
    ),
    (
        "y",
        "a",
        (4, 2, 18),
        "Step 1: Subtract {b} from both sides to leave a single term with {v}: {a}{v} = {r}.\n"
        "Step 2: Divide both sides by {a}: {v} = {s}.",
    ),
    (
        "s",
        "w",
        (3, 9, 30),
        "That's a one-step-at-a-time equation. Subtract {b} from both sides: {a}{v} = {r}.\n\n"
        "Divide both sides by {a}: {v} = {s}. That's the answer.",
    ),
]


def variable_cases() -> Iterator[dict[str, Any]]:
    for n, (old, new, eq, prose) in enumerate(VARIABLE_PROSE, start=1):
        template = PROMPTS[n % len(PROMPTS)]
        p1, a1, p2, a2 = _renamed(old, new, eq, template, prose)
        yield case(
            f"eq-variable-{n:03d}",
            "eq_variable_in_prose",
            p1,
            a1,
            p2,
            a2,
            judge="equation",
        )


def all_cases() -> Iterator[dict[str, Any]]:
    yield from sign_cases()
    yield from intro_cases()
    yield from variable_cases()
