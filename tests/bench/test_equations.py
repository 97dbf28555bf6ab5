"""The benchmark's own equation parser and renderer (independent of the engine's verifier)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from stepcache_integrations.bench.equations import (
    EquationParseError,
    LinearEquation,
    evaluate,
    find_equations,
    format_number,
    parse_linear,
    solve_text_equation,
)


@pytest.mark.parametrize(
    ("eq", "text", "solution"),
    [
        (LinearEquation(3, 5, 20, "x"), "3x + 5 = 20", 5),
        (LinearEquation(7, -4, 24, "y"), "7y - 4 = 24", 4),
        (LinearEquation(5, 10, 45, "t", "swapped"), "45 = 5t + 10", 7),
        (LinearEquation(-2, 9, 1, "p", "const_first"), "9 - 2p = 1", 4),
        (LinearEquation(-1, 14, 5, "r", "const_first"), "14 - r = 5", 9),
        (LinearEquation(1, 12, 19, "m"), "m + 12 = 19", 7),
        (LinearEquation(6, 0, 18, "k"), "6k = 18", 3),
    ],
)
def test_render_and_solution(eq: LinearEquation, text: str, solution: int) -> None:
    assert eq.render() == text
    assert eq.solution == solution
    # The rendered text parses back to the same equation.
    sides = find_equations(text)[0]
    assert solve_text_equation(sides[0], sides[1], eq.var) is not None
    assert evaluate(sides[0], eq.var, eq.solution) == evaluate(sides[1], eq.var, eq.solution)


def test_zero_coefficient_is_rejected() -> None:
    with pytest.raises(ValueError, match="non-zero"):
        LinearEquation(0, 1, 2, "x")


@pytest.mark.parametrize(
    ("expr", "coef", "const"),
    [
        ("3x + 5 - 5", 3, 0),
        ("2(x + 1)", 2, 2),
        ("-(x - 4) * 3", -3, 12),
        ("15 / 3", 0, 5),
        ("x/2 + 1", Fraction(1, 2), 1),
        ("4 \u2212 2\u00d7x", -2, 4),
    ],
)
def test_parse_linear(expr: str, coef: Fraction, const: Fraction) -> None:
    value = parse_linear(expr, "x")
    assert (value.coef, value.const) == (coef, const)


@pytest.mark.parametrize("expr", ["x * x", "3 / x", "3y + 1", "2 +", "(x + 1", "5 / 0", ""])
def test_parse_linear_rejects(expr: str) -> None:
    with pytest.raises(EquationParseError):
        parse_linear(expr, "x")


def test_find_equations_skips_prose_and_instructions() -> None:
    text = (
        'Solve 3x + 5 = 20 for x. End with the line "x = <value>".\n'
        "Step 1: Subtract 5 from both sides: 3x = 20 - 5\n"
        "Step 3: Divide: x = 15 / 3 = 5.\n"
        "(so x = 5)"
    )
    assert find_equations(text) == [
        ["3x + 5", "20"],
        ["3x", "20 - 5"],
        ["x", "15 / 3", "5"],
        ["x", "5"],
    ]


def test_solve_text_equation_handles_variable_on_both_sides() -> None:
    assert solve_text_equation("5x + 2", "3x + 10", "x") == (2, -8, 0)
    assert solve_text_equation("x * x", "4", "x") is None


def test_format_number() -> None:
    assert [format_number(Fraction(n, d)) for n, d in [(10, 2), (5, 2), (7, 3), (-8, 2)]] == [
        "5",
        "2.5",
        "7/3",
        "-4",
    ]
