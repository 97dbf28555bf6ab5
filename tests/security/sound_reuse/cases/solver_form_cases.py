"""Linear equations whose request (or system prompt) asks for the answer in a form.

"Solve 3x + 5 = 22 for x. Round x to the nearest whole number." is answered `x = 6` by a
good model; "Give x as a decimal rounded to two places" is answered `x = 5.67`, "as a
percentage" `x = 12.5%`. The cached request of each case has a whole-number solution (any
form of it reads the same); the new one changes a constant so that the form matters. A
cache that writes the exact solution itself (`x = 17/3`) answers an equation, not the
request.

Two classes:

- ``eq_patch_ignores_requested_form``: forms whose correct answer passes the equation
  check when the model writes it (two decimal places, a percentage): only the cache's own
  patch for the new constants loses the form;
- ``eq_fallback_ignores_requested_form``: forms whose correct answer does not state the
  exact solution (one decimal place, the nearest whole number, a mixed number, a system
  prompt asking for rounding): the model's answer fails the check and the deterministic
  answer replaces it, also on a miss, so these are wrong without any reuse too.

Every answer below is worked out in this file with exact fractions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from tests.security.sound_reuse.cases.common import STREAMED, case


@dataclass(frozen=True)
class Equation:
    """``a·v + b = c`` in the cached request, ``a·v + b = c2`` (or ``a2``) in the new one."""

    var: str
    a: int
    b: int
    c: int
    c2: int
    a2: int | None = None

    def text(self, new: bool) -> str:
        a = self.a2 if new and self.a2 is not None else self.a
        c = self.c2 if new else self.c
        sign = "+" if self.b >= 0 else "-"
        return f"{a}{self.var} {sign} {abs(self.b)} = {c}"

    def steps(self, new: bool) -> tuple[str, Fraction]:
        """The working up to the division, and the exact solution."""
        a = self.a2 if new and self.a2 is not None else self.a
        c = self.c2 if new else self.c
        rest = c - self.b
        move = f"Subtract {self.b} from" if self.b >= 0 else f"Add {-self.b} to"
        step1 = f"Step 1: {move} both sides: {a}{self.var} = {rest}."
        return step1, Fraction(rest, a)


def places(value: Fraction, digits: int) -> str:
    quantum = Decimal(1).scaleb(-digits)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(quantum, rounding=ROUND_HALF_UP))


def mixed(value: Fraction) -> str:
    whole, part = divmod(value.numerator, value.denominator)
    if part == 0:
        return str(whole)
    return f"{whole} {Fraction(part, value.denominator)}" if whole else str(value)


def percent(value: Fraction) -> str:
    shown = value * 100
    return str(shown.numerator) if shown.denominator == 1 else places(shown, 1).rstrip("0")


@dataclass(frozen=True)
class Form:
    """How a request asks for the answer, and how a good model then writes its last step."""

    name: str
    ask: str  # appended to the request ("" when the system prompt asks)
    system: str | None
    last: Callable[[Equation, bool], str]


def _divide(eq: Equation, new: bool) -> str:
    a = eq.a2 if new and eq.a2 is not None else eq.a
    return f"Step 2: Divide both sides by {a}:"


def _two_places(eq: Equation, new: bool) -> str:
    _, x = eq.steps(new)
    return f"{_divide(eq, new)} {eq.var} = {places(x, 2)}."


def _one_place(eq: Equation, new: bool) -> str:
    _, x = eq.steps(new)
    return f"{_divide(eq, new)} {eq.var} = {places(x, 1)}."


def _nearest(eq: Equation, new: bool) -> str:
    _, x = eq.steps(new)
    if x.denominator == 1:
        return f"{_divide(eq, new)} {eq.var} = {x}."
    return (
        f"{_divide(eq, new)} {eq.var} = {places(x, 2)}.\n"
        f"Step 3: Rounded to the nearest whole number, {eq.var} = {places(x, 0)}."
    )


def _mixed(eq: Equation, new: bool) -> str:
    _, x = eq.steps(new)
    return f"{_divide(eq, new)} {eq.var} = {mixed(x)}."


def _percentage(eq: Equation, new: bool) -> str:
    _, x = eq.steps(new)
    decimal = places(x, 4).rstrip("0").rstrip(".")
    return (
        f"{_divide(eq, new)} {eq.var} = {decimal}, which is {percent(x)}%.\n"
        f"{eq.var} = {percent(x)}%"
    )


TWO_PLACES = Form("two places", " Give {v} as a decimal rounded to two places.", None, _two_places)
TWO_PLACES_SYSTEM = Form(
    "two places (system)",
    "",
    "You are a maths tutor. Give every answer as a decimal rounded to two decimal places.",
    _two_places,
)
PERCENTAGE = Form("percentage", " Give {v} as a percentage.", None, _percentage)
ONE_PLACE = Form("one place", " Give {v} to one decimal place.", None, _one_place)
NEAREST = Form("nearest", " Round {v} to the nearest whole number.", None, _nearest)
MIXED = Form("mixed number", " Write {v} as a mixed number.", None, _mixed)
NEAREST_SYSTEM = Form(
    "nearest (system)",
    "",
    "You help with homework. Round every final answer to the nearest whole number.",
    _nearest,
)
ONE_PLACE_SYSTEM = Form(
    "one place (system)",
    "",
    "Our worksheets use decimals, not fractions: give every answer to one decimal place.",
    _one_place,
)

EQUATIONS = [
    Equation("x", 3, 5, 20, 22),
    Equation("y", 6, 1, 13, 18),
    Equation("n", 7, -4, 10, 12),
    Equation("k", 9, 2, 20, 24),
    Equation("t", 3, -1, 11, 12),
    Equation("m", 6, 5, 29, 30),
    Equation("p", 11, -3, 19, 20),
    Equation("x", 12, 7, 31, 36),
]
PERCENT_EQUATIONS = [
    Equation("x", 4, 1, 2, 2, a2=8),
    Equation("x", 5, 3, 4, 5),
    Equation("r", 10, -1, 2, 3),
    Equation("x", 20, 2, 3, 5),
]

OPENERS = ["Solve {eq} for {v}.", "Solve the equation {eq} for {v}. Show your steps."]


def _side(eq: Equation, form: Form, new: bool, opener: str) -> tuple[str, str]:
    request = opener.format(eq=eq.text(new), v=eq.var) + form.ask.format(v=eq.var)
    step1, _ = eq.steps(new)
    return request, f"{step1}\n{form.last(eq, new)}"


def _cases(
    cls: str, prefix: str, pairs: list[tuple[Equation, Form]], note: str
) -> Iterator[dict[str, Any]]:
    for n, (eq, form) in enumerate(pairs, start=1):
        opener = OPENERS[n % len(OPENERS)]
        cached, cached_answer = _side(eq, form, False, opener)
        new, new_answer = _side(eq, form, True, opener)
        yield case(
            f"{prefix}-{n:03d}",
            cls,
            cached,
            cached_answer,
            new,
            new_answer,
            paths=STREAMED,
            judge="equation",
            system=form.system,
            note=f"{note} ({form.name})",
        )


def patch_cases() -> Iterator[dict[str, Any]]:
    pairs = [(eq, TWO_PLACES) for eq in EQUATIONS[:4]]
    pairs += [(eq, TWO_PLACES_SYSTEM) for eq in EQUATIONS[4:]]
    pairs += [(eq, PERCENTAGE) for eq in PERCENT_EQUATIONS]
    yield from _cases(
        "eq_patch_ignores_requested_form",
        "eq-form-patch",
        pairs,
        "the new constants give a solution whose requested form differs from the exact one",
    )


def fallback_cases() -> Iterator[dict[str, Any]]:
    pairs = [(eq, ONE_PLACE) for eq in EQUATIONS[:2]]
    pairs += [(eq, NEAREST) for eq in EQUATIONS[2:4]]
    pairs += [(eq, MIXED) for eq in EQUATIONS[4:6]]
    pairs += [(EQUATIONS[6], NEAREST_SYSTEM), (EQUATIONS[7], ONE_PLACE_SYSTEM)]
    yield from _cases(
        "eq_fallback_ignores_requested_form",
        "eq-form-fallback",
        pairs,
        "the correct answer does not state the exact solution, so the solver's replaces it",
    )


def all_cases() -> Iterator[dict[str, Any]]:
    yield from patch_cases()
    yield from fallback_cases()
