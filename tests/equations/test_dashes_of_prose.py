"""A dash after an equation: punctuation of the sentence, or algebra that goes on.

A spaced dash followed by words of prose ("24 = 4 + 5p - what should p be?") or an arrow
("z - 13 = -4 -> z?") closes the equation; the family reads it and can correct a wrong model.
A dash followed by a number is a minus; one followed by a number word or a letter is algebra
the scanner reads in part, and the family leaves the request to the model.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation


@pytest.mark.parametrize(
    ("request_text", "variable", "solution"),
    [
        ("24 = 4 + 5p - what should p be? Answer on a last line.", "p", Fraction(4)),
        ("z - 13 = -4 -> z? answer only", "z", Fraction(9)),
        ("3x + 1 = 10 - kannst du das lösen?", "x", Fraction(3)),
        ("2y - 3 = 7 -> y = ?", "y", Fraction(5)),
        # An arrow pointing back at the equation.
        ("-c + 7 = 5   <- solve this for c", "c", Fraction(2)),
        ("x + 1 = 5 <-- this one", "x", Fraction(4)),
        # A number after the dash: a minus, read with the side.
        ("24 = 4 + 5p - 2 now solve", "p", Fraction(22, 5)),
    ],
)
def test_a_dash_of_prose_or_an_arrow_closes_the_equation(
    request_text: str, variable: str, solution: Fraction
) -> None:
    equation = parse_equation(request_text)
    assert equation is not None
    assert (equation.variable, equation.solution) == (variable, solution)


@pytest.mark.parametrize(
    "request_text",
    [
        "24 = 4 + 5p - three times two",  # a number word: algebra in words
        "24 = 4 + 5p - drei mal zwei",
        "24 = 4 + 5p - um e dois",
        "24 = 4 + 5p - y then solve",  # a letter: another unknown
        "24 = 4 + 5p -what",  # not a spaced dash
        "x + 1 = 5 <-3",  # a comparison with a number
        "x + 1 = 5 <- 3",
    ],
)
def test_a_dash_before_algebra_leaves_the_equation_read_in_part(request_text: str) -> None:
    assert parse_equation(request_text) is None
