"""A check line of a corrected answer is recomputed for the solution, or the answer is not
rewritten: never a check line that checks the model's wrong value. Unit tests of the
correction and both wrappers with SIMULATED slipping models (``checklines.py``)."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.core.tasks.linear_equation.rewrite import (
    correct_answer,
    reinstantiate_steps,
)
from tests.equations.checklines import cases, slipping_with_check_lines
from tests.equations.devset import WRAPPERS


@pytest.mark.parametrize(
    ("request_text", "steps", "expected"),
    [
        (  # the wrong value worked out honestly: true arithmetic, no check of the solution
            "Solve 3x + 5 = 20.",
            ["3x = 16\n", "x = 16/3\n", "Check: 3(16/3) + 5 = 21 ✓"],
            "3x = 15\nx = 15/3\nCheck: 3(15/3) + 5 = 20 ✓",
        ),
        (  # the check claims the request's right side: false
            "Solve 3x + 5 = 20.",
            ["3x = 18\n", "x = 6\n", "Check: 3(6) + 5 = 20 ✓"],
            "3x = 15\nx = 5\nCheck: 3(5) + 5 = 20 ✓",
        ),
        (  # the model's value is the constant term: only the value is traced to the solution
            "Solve 3x + 5 = 17.",
            ["x = 5\n", "Check: 3(5) + 5 = 20 ✓"],
            "x = 4\nCheck: 3(4) + 5 = 17 ✓",
        ),
        (  # a worked chain
            "Solve 4y - 7 = 10.",
            ["4y = 18\n", "y = 4.5\n", "Check: 4(4.5) - 7 = 18 - 7 = 11 ✓"],
            "4y = 17\ny = 4.25\nCheck: 4(4.25) - 7 = 17 - 7 = 10 ✓",
        ),
        (
            "Löse 6x - 5 = 40 nach x auf.",
            ["6x = 51\n", "x = 8,5\n", "Probe: 6 · 8,5 - 5 = 51 - 5 = 46"],
            "6x = 45\nx = 7,5\nProbe: 6 · 7,5 - 5 = 45 - 5 = 40",
        ),
        (
            "Resolva 2x + 7 = 16.",
            ["2x = 11\n", "x = 5,5\n", "Prova real: 2 · 5,5 + 7 = 18"],
            "2x = 9\nx = 4,5\nProva real: 2 · 4,5 + 7 = 16",
        ),
        (
            "Löse 0,5x + 3 = 4,5 nach x auf.",
            ["0,5x = 1,6\n", "x = 1,6 : 0,5 = 3,2\n", "Probe: 0,5 · 3,2 + 3 = 4,6"],
            "0,5x = 1,5\nx = 1,5 : 0,5 = 3,0\nProbe: 0,5 · 3,0 + 3 = 4,5",
        ),
    ],
)
def test_a_check_line_is_recomputed_for_the_solution(
    request_text: str, steps: list[str], expected: str
) -> None:
    target = parse_equation(request_text)
    assert target is not None
    assert correct_answer(steps, target) == expected


@pytest.mark.parametrize(
    ("request_text", "steps"),
    [
        # "5 - 3(-3)": the value -3 is also the coefficient -3: two readings, none chosen.
        ("Solve 5 - 3x = 17.", ["-3x = 9\n", "x = -3\n", "Plug it back in: 5 - 3(-3) = 14"]),
        # A rounded value cannot be checked exactly.
        (
            "Resolva 6x - 5 = 40.",
            ["6x = 46\n", "x = 46/6 = 7,67\n", "Prova real: 6 · 7,67 - 5 = 41"],
        ),
    ],
)
def test_a_check_line_read_two_ways_or_rounded_is_left_to_the_model(
    request_text: str, steps: list[str]
) -> None:
    target = parse_equation(request_text)
    assert target is not None
    assert correct_answer(steps, target) is None


def test_the_check_line_cases_span_three_languages_and_both_kinds() -> None:
    found = cases()
    assert {eq.lang for eq, *_ in found} == {"en", "de", "pt"}
    assert {honest for *_, honest, _ in found} == {True, False}


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_no_stale_check_line_is_served_as_passed(wrapper: str) -> None:
    figures = slipping_with_check_lines(wrapper)
    assert figures.wrong_passed == 0, figures.failures
    honest = [f for f in figures.failures or [] if "honest=True" in f]
    assert len(honest) <= 0.05 * figures.total / 2, honest


@pytest.mark.parametrize(
    ("old_request", "new_request", "steps", "expected"),
    [
        (
            "Solve 3x + 5 = 20.",
            "Solve 3x + 5 = 23.",
            ["3x = 15\n", "x = 15/3 = 5\n", "Check: 3(5) + 5 = 20 ✓"],
            ["3x = 18\n", "x = 18/3 = 6\n", "Check: 3(6) + 5 = 23 ✓"],
        ),
        (
            "Löse 6x - 5 = 40 nach x auf.",
            "Löse 6x - 5 = 43 nach x auf.",
            ["6x = 45\n", "x = 45 : 6 = 7,5\n", "Probe: 6 · 7,5 - 5 = 40"],
            ["6x = 48\n", "x = 48 : 6 = 8,0\n", "Probe: 6 · 8,0 - 5 = 43"],
        ),
    ],
)
def test_a_reused_check_line_is_reinstantiated_with_the_rest(
    old_request: str, new_request: str, steps: list[str], expected: list[str]
) -> None:
    old, new = parse_equation(old_request), parse_equation(new_request)
    assert old is not None and new is not None
    assert reinstantiate_steps(steps, old, new) == (expected, len(expected))
