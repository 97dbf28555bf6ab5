"""Equations with the unknown on both sides ("7x = 3x + 10", "4(p - 1) = 2p + 6") answered by a
slipping model, whose check line works each side out on its own.

A slip of such an answer ("4p - 1 = 2p + 6" for 4(p - 1)) keeps one side of the request: it is
a slip to correct, not another equation the model read (that rule is for a variable side set
equal to another constant: "3x + 5 = 40" for 3x + 5 = 20). A check line that works out each
side ("7(2.25) = 15.75, 3(2.25) + 10 = 16.75") shows the value was asked, as one that works out
the normal form does; a line that works out a number the request writes outside its equation
still does not ("4 · 5 = 20" for "what is 4x?").
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.core.tasks.linear_equation.evidence import (
    final_statement,
    restates_another,
)
from tests.blind.harness import equation_value
from tests.equations.devset import WRAPPERS

SLIPS = [
    # (request, the slipping model's answer, the solution)
    (
        "Solve 7x = 3x + 10 and check it.",
        "Subtract 3x from both sides:\n4x = 9\n\nDivide by 4:\nx = 2.25\n\n"
        "Check: left side 7(2.25) = 15.75, right side 3(2.25) + 10 = 6.75 + 10 = 16.75 ✓",
        Fraction(5, 2),
    ),
    (
        "Löse 4(p \u2212 1) = 2p + 6 und mach die Probe.",
        "4(p \u2212 1) = 2p + 6\n4p \u2212 1 = 2p + 6\n2p \u2212 1 = 6\n2p = 7\np = 3,5\n\n"
        "Probe: 4 · 3,5 \u2212 1 = 13 und 2 · 3,5 + 6 = 13 ✓",
        Fraction(5),
    ),
]


@pytest.mark.parametrize(("request_text", "answer", "solution"), SLIPS)
def test_a_slip_of_a_two_sided_equation_is_not_another_equation(
    request_text: str, answer: str, solution: Fraction
) -> None:
    equation = parse_equation(request_text)
    assert equation is not None
    assert not restates_another(answer, equation)


def test_a_variable_side_set_equal_to_another_constant_is_another_equation() -> None:
    equation = parse_equation("Solve 3x + 5 = 20 times 2")
    if equation is not None:  # the scanner may already leave it to the model
        assert restates_another("3x + 5 = 40\n3x = 35\nx = 35/3", equation)
    equation = parse_equation("Solve 3x + 5 = 20")
    assert equation is not None
    assert restates_another("3x + 5 = 40\n3x = 35\nx = 35/3", equation)


@pytest.mark.parametrize(("request_text", "answer", "solution"), SLIPS)
@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
def test_a_slip_with_a_check_of_each_side_is_corrected(
    wrapper: str, request_text: str, answer: str, solution: Fraction
) -> None:
    ask = WRAPPERS[wrapper](lambda request, follow_ups: answer)
    served, record = ask(request_text)
    assert record["passed"] is True, record
    equation = parse_equation(request_text)
    assert equation is not None
    assert equation_value(served, equation.variable) == solution, served


def test_a_line_that_works_out_a_number_asked_outside_the_equation_is_no_check() -> None:
    equation = parse_equation("If 3x + 5 = 20, what is 4x?")
    assert equation is not None
    assert final_statement("3x = 15\nx = 5\n4 · 5 = 20", "x", equation) is None
    assert final_statement("3x = 15\nx = 5\nCheck: 3(5) + 5 = 20", "x", equation) is not None


@pytest.mark.parametrize(
    ("request_text", "answer"),
    [
        ("Solve for a: a + (0) = 0", "a = 1"),  # found by the fallback's property test
        ("Solve for x: x = 3", "x = 4"),
    ],
)
def test_a_statement_of_the_value_is_never_another_equation(request_text: str, answer: str) -> None:
    equation = parse_equation(request_text)
    assert equation is not None
    assert not restates_another(answer, equation)
