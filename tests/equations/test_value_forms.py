"""Other forms of a value: mixed numbers ("1 5/6", "1⅚", "1\\frac{5}{6}"), vulgar fractions,
approximations ("x ≈ 1.83"). A value is read exactly or not at all: a mixed number read as 1
or as 5/6 would be a wrong check. Readers (unit) and both wrappers with SIMULATED models."""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

import pytest

from stepcache_integrations.core.tasks.linear_equation.equation import (
    parse_equation,
    scan_equations,
)
from stepcache_integrations.core.tasks.linear_equation.rewrite import (
    correct_answer,
    reinstantiate_steps,
)
from stepcache_integrations.core.tasks.linear_equation.verifier import LinearEquationVerifier
from stepcache_integrations.core.verifiers.base import VerifyContext
from tests.equations.devset import WRAPPERS, Responder

REQUEST = "Solve 6x + 5 = 16."  # x = 11/6 = 1 5/6


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("x = 1 5/6", Fraction(11, 6)),
        ("x = 1⅚", Fraction(11, 6)),
        ("x = 1 ⅚", Fraction(11, 6)),
        ("x = ½", Fraction(1, 2)),
        ("x = 2¾", Fraction(11, 4)),
        ("x = 1\\frac{5}{6}", Fraction(11, 6)),
        ("\\( x = 2\\tfrac{1}{3} \\)", Fraction(7, 3)),
        ("x = -1 5/6", Fraction(-11, 6)),
        ("x = 5\u20446", Fraction(5, 6)),  # fraction slash
    ],
)
def test_a_mixed_number_or_a_vulgar_fraction_is_read_exactly(text: str, value: Fraction) -> None:
    found = scan_equations(text)[1]
    assert len(found) == 1
    assert found[0].right.const == value and found[0].left_var == "x"


@pytest.mark.parametrize(
    "text", ["x = 1 7/6", "x = 1 5/0", "x = 1 5/6x", "x = 1⅟", "2 1/2x + 3 = 8"]
)
def test_a_value_read_no_way_is_not_read_as_part_of_it(text: str) -> None:
    assert scan_equations(text)[1] == ()


@pytest.mark.parametrize(
    "answer", ["x = 1 5/6", "x = 1⅚", "So x = 1 ⅚.", "x = 1\\frac{5}{6}", "6x = 11\nx = 1 5/6"]
)
def test_a_right_mixed_number_passes(answer: str) -> None:
    assert LinearEquationVerifier().check_answer(VerifyContext(REQUEST), answer).passed


@pytest.mark.parametrize(
    "answer", ["x = 1", "x = 5/6", "x = 2 5/6", "x = 1 4/6", "x = ⅚", "x = 1 1/6", "x = 1.9"]
)
def test_a_wrong_mixed_number_or_its_parts_never_pass(answer: str) -> None:
    assert LinearEquationVerifier().check_answer(VerifyContext(REQUEST), answer).failed


def test_a_request_with_a_mixed_number_or_a_vulgar_fraction_is_read_exactly() -> None:
    for text in ("Solve x + 1 1/2 = 4.", "Solve x + 1½ = 4.", "Löse x + 1 ½ = 4 nach x auf."):
        eq = parse_equation(text)
        assert eq is not None and eq.solution == Fraction(5, 2), text


@pytest.mark.parametrize("approximate", ["x ≈ 1.83", "x = 1.83", "x ≈ 1.8333"])
def test_an_approximate_value_is_no_exact_claim(approximate: str) -> None:
    """A rounding passes as the rounding it is, and shows no exact value was asked: the
    fallback does not replace it (a rounding to a place, a fraction: the model's to say)."""
    verifier = LinearEquationVerifier()
    ctx = VerifyContext(REQUEST)
    assert verifier.check_answer(ctx, approximate).passed
    assert verifier.check_answer(ctx, approximate.replace("1.83", "1.84")).failed
    assert verifier.fallback(ctx) is None


@pytest.mark.parametrize(
    "steps",
    [
        ["6x = 12\n", "x = 2 1/6"],
        ["6x = 12\n", "x = 2⅙"],
        ["6x = 12\n", "\\( x = 2\\frac{1}{6} \\)"],
    ],
)
def test_an_answer_with_a_mixed_number_is_not_rewritten_digit_by_digit(steps: list[str]) -> None:
    target = parse_equation(REQUEST)
    assert target is not None
    assert correct_answer(steps, target) is None
    old, new = parse_equation("Solve 6x + 5 = 18."), parse_equation("Solve 6x + 5 = 20.")
    assert old is not None and new is not None
    assert reinstantiate_steps(steps, old, new)[1] == 0


# --- through both wrappers (SIMULATED models) --------------------------------------------------

_CASES = (
    # (request, the SIMULATED model's answer, its value, the solution)
    ("Solve 6x + 5 = 16.", "6x = 11\nx = 1 5/6", Fraction(11, 6)),
    ("Löse 6x + 5 = 16 nach x auf.", "6x = 11\nx = 1⅚", Fraction(11, 6)),
    ("Resolva 4x - 1 = 10.", "4x = 11\nx = 2\\frac{3}{4}", Fraction(11, 4)),
)


def _model(answers: dict[str, str]) -> Responder:
    def respond(request: str, follow_ups: Sequence[str]) -> str:
        return answers[request]

    return respond


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_mixed_numbers_through_the_wrappers(wrapper: str) -> None:
    """A right mixed number is served as passed; a wrong one (the whole part or the fraction
    alone, a slip of the fraction) is never served as passed."""
    for request, right_answer, value in _CASES:
        wrongs = [
            right_answer.replace("1 5/6", "1").replace("1⅚", "1").replace("2\\frac{3}{4}", "2"),
            right_answer.replace("1 5/6", "5/6").replace("1⅚", "⅚").replace("\\frac{3}{4}", ""),
            right_answer.replace("5/6", "4/6").replace("⅚", "⅘").replace("{3}{4}", "{1}{4}"),
        ]
        ask = WRAPPERS[wrapper](_model({request: right_answer}))
        text, record = ask(request)
        assert record.get("passed") and text == right_answer, (text, record)
        for wrong in wrongs:
            assert wrong != right_answer
            ask = WRAPPERS[wrapper](_model({request: wrong}))
            text, record = ask(request)
            if record.get("passed"):
                # Served as passed only when corrected: the final value is the solution.
                plain = re.sub(r"(\d),(\d)", r"\1.\2", text)  # "x = 2,75" in Portuguese
                final = [eq for eq in scan_equations(plain)[1] if eq.left_var == "x"][-1]
                assert final.right.const == value, (wrong, text)
