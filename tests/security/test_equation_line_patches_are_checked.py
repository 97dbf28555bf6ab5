"""A patch of an answer written line by line: the reused lines are the rewriter's and checked,
the model's continuation is checked with them, and a claim about the old value never comes
along with a line that is reused. SIMULATED models through both wrappers."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from fractions import Fraction

import pytest

from stepcache_integrations.core.tasks.linear_equation.equation import (
    parse_equation,
    scan_equations,
)
from stepcache_integrations.core.tasks.linear_equation.rewrite import reinstantiate_steps
from tests.equations.devset import WRAPPERS, Responder

FIRST = "Show your steps, one per line: 2n + 9 = 25"
SECOND = "Show your steps, one per line: 2n + 11 = 40"  # n = 29/2


def _model(first_answer: str, continuation: str, full: str) -> Responder:
    def respond(request: str, follow_ups: Sequence[str]) -> str:
        if request == FIRST:
            return first_answer
        return continuation if follow_ups else full

    return respond


def _final(text: str) -> Fraction | None:
    plain = re.sub(r"(\d),(\d)", r"\1.\2", text)
    found = [eq for eq in scan_equations(plain)[1] if eq.left_var == "n" and eq.right_literal]
    return found[-1].right.const if found else None


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("continuation", ["n = 8", "n = 14", "n = 15", "n = 29"])
def test_a_wrong_continuation_is_never_served_as_passed(wrapper: str, continuation: str) -> None:
    """The stale value, a rounding nobody asked for, a slip: the stitched answer is checked."""
    ask = WRAPPERS[wrapper](
        _model("2n + 9 = 25\n2n = 25 - 9\n2n = 16\nn = 8", continuation, f"2n = 29\n{continuation}")
    )
    ask(FIRST)
    text, record = ask(SECOND)
    if record.get("passed"):
        assert _final(text) == Fraction(29, 2), (text, record)
    else:
        assert record.get("failure"), record  # served flagged: the model's, said to be wrong
    assert record.get("decision") in ("patch", "skip", "miss"), record


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_words_about_the_old_value_are_never_reused(wrapper: str) -> None:
    """'2n = 16, an even number' runs on (a word after the equation): it stays with the next
    line, and its claim is not true of 2n = 29, so it is not carried over."""
    first_answer = "2n + 9 = 25\n2n = 16, an even number\nn = 8"
    full = "2n + 11 = 40\n2n = 29\nn = 14.5"
    ask = WRAPPERS[wrapper](_model(first_answer, "2n = 29, an even number\nn = 14.5", full))
    ask(FIRST)
    text, record = ask(SECOND)
    if record.get("decision") in ("reuse", "patch"):
        # Only the model may have written the claim; the cache never carried it over.
        assert record.get("steps_reused", 0) <= 1, record
    if record.get("passed"):
        assert _final(text) == Fraction(29, 2), (text, record)


@pytest.mark.parametrize(
    ("first", "second", "cached"),
    [
        ("Solve for x: 6x + 2 = 17.", "Solve for x: 6x + 2 = 20.", "x = 5/2"),  # 3 = "6/2"
        ("Solve 4x - 1 = 5.", "Solve 4x - 1 = 13.", "x = 3/2"),  # 7/2 = "14/4"?
        ("Solve 2x = 7.", "Solve 2x = 8.", "x = \\frac{7}{2}"),  # 4 = "8/2"
    ],
)
def test_a_fraction_in_lowest_terms_is_never_rewritten_out_of_them(
    first: str, second: str, cached: str
) -> None:
    """Each number of "5/2" traced alone can make "6/2", which holds for x = 3 but is no form
    a model writes its value in (found when a line became a step: eq-sign-012 of the
    sound-reuse corpus served "x = 6/2"): the value's form is then the model's to write."""
    old, new = parse_equation(first), parse_equation(second)
    assert old is not None and new is not None
    texts, valid = reinstantiate_steps(["Divide both sides: " + cached + "."], old, new)
    if valid:
        numbers = [int(n) for n in re.findall(r"\d+", texts[0])]
        top, bottom = numbers[-2], numbers[-1]
        assert bottom > 1 and math.gcd(top, bottom) == 1, texts
        assert Fraction(top, bottom) == new.solution, texts
