"""Another equation than the request's is never corrected or answered for it.

A model's answer to another equation is not a slip of its arithmetic: it is never corrected
in place, which would state equations nobody meant ("Start with 3x + 8 = 23" for a request
to solve 3x + 5 = 20; found when a chat engine's model answered an earlier turn's equation).
Slips keep being corrected: the variable's side of each equation follows from the one before
as a solver's move makes it (the same, the constant gone, or scaled). An equation the scanner
reads only in part ("2k + 1 = 9 x 3") is not the request's; an answer that ends with its value
in words is not replaced by the solver's steps."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.core.tasks.linear_equation.evidence import solution_as_answered
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


@pytest.mark.parametrize(
    "request_text",
    [
        "Solve 2k + 1 = 9 x 3 for k.",  # "x" as times: 2k + 1 = 27
        "Solve 3 x 2k + 1 = 9 for k.",  # 6k + 1 = 9
        "Solve 2k + 1 = 9 (3) for k.",  # 9(3) = 27
        "Solve 2k + 1 = 10 001 for k.",  # a space between groups: 10001
    ],
)
def test_an_equation_read_in_part_is_not_the_requests(request_text: str) -> None:
    # The scanner reads "2k + 1 = 9" out of each; the request's equation is another one, so
    # the family does not take the request (the model's answer is not checked against k = 4).
    assert parse_equation(request_text) is None


@pytest.mark.parametrize(
    ("request_text", "equation"),
    [
        ("**Solve:** 7 = 2x + 1", "7 = 2x + 1"),  # markdown, not an operator
        ("Resolva 2x + 3 = 7 e diga x.", "2x + 3 = 7"),  # a one-letter word after it
        ("Solve 3x + 5 = 20 (show your steps).", "3x + 5 = 20"),  # a bracket of words
        ("(a) 3x + 5 = 20", "3x + 5 = 20"),
        ("Solve 4 * 2k + 1 = 9 for k.", "4 * 2k + 1 = 9"),  # read whole: 8k + 1 = 9
    ],
)
def test_an_equation_read_whole_is_the_requests(request_text: str, equation: str) -> None:
    found = parse_equation(request_text)
    assert found is not None and found.text == equation


def test_a_value_restated_in_words_is_a_form_the_solver_does_not_write() -> None:
    # "m = 4." then "m = four": the answer ends with the value in words; the solver's steps
    # would end "m = 4", so it does not replace the answer (it once did, dropping the line).
    target = parse_equation("Solve 3m - 2 = 10.")
    assert target is not None
    answer = "3m = 12\nm = 4.\nm = four"
    assert solution_as_answered(answer, target, target.solution) is None
    assert solution_as_answered("3m = 12\nm = 4.", target, target.solution) == "4"
