"""A model's answer to another equation is not a slip of its arithmetic: it is never corrected
in place, which would state equations nobody meant ("Start with 3x + 8 = 23" for a request
to solve 3x + 5 = 20; found when a chat engine's model answered an earlier turn's equation).
Slips keep being corrected: the variable's side of each equation follows from the one before
as a solver's move makes it (the same, the constant gone, or scaled)."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.core.tasks.linear_equation.rewrite import correct_answer


@pytest.mark.parametrize(
    "steps",
    [
        ["Step 1: Start with 3x + 8 = 20.\n", "Step 2: Subtract 8: 3x = 12.\n", "x = 4"],
        ["3x + 8 = 20\n", "3x = 12\n", "x = 4"],
        ["3x = 20\n", "x + 5 = 20/3\n", "x = 5/3"],  # the constant comes back: no move does that
    ],
)
def test_an_answer_to_another_equation_is_not_corrected(steps: list[str]) -> None:
    target = parse_equation("Solve 3x + 5 = 20.")
    assert target is not None
    assert correct_answer(steps, target) is None


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (["3x + 5 = 20\n", "3x = 16\n", "x = 16/3"], "3x + 5 = 20\n3x = 15\nx = 15/3"),
        (["3x + 5 = 21\n", "3x = 16\n", "x = 16/3"], "3x + 5 = 20\n3x = 15\nx = 15/3"),
        (["6x + 10 = 40\n", "6x = 30\n", "x = 6"], "6x + 10 = 40\n6x = 30\nx = 5"),  # scaled
        (["So x = 6."], "So x = 5."),  # two moves at once
    ],
)
def test_a_slip_is_corrected_in_its_own_layout(steps: list[str], expected: str) -> None:
    target = parse_equation("Solve 3x + 5 = 20.")
    assert target is not None
    assert correct_answer(steps, target) == expected
