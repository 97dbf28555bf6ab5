"""The code-judged checks: known-good answers pass, known-bad answers fail."""

from __future__ import annotations

import pytest

from stepcache_integrations.bench.checks import EquationCheck, JsonCheck, final_value
from stepcache_integrations.bench.equations import LinearEquation

EQ = EquationCheck(LinearEquation(3, 5, 20, "x"))  # 3x + 5 = 20, x = 5
GOOD = "Step 1: Subtract 5 from both sides: 3x = 20 - 5\nStep 2: 3x = 15\nStep 3: x = 15 / 3\nx = 5"


def test_equation_good_answer_passes_both() -> None:
    assert EQ.task_correct(GOOD)
    assert EQ.integrity_ok(GOOD)
    assert EQ.integrity_ok(GOOD + ".\n\n")  # trailing punctuation and blank lines are fine


@pytest.mark.parametrize(
    ("answer", "task", "integrity"),
    [
        # wrong final value
        ("Step 1: 3x = 15\nx = 6", False, False),
        # right final value, a wrong intermediate step
        ("Step 1: 3x = 25\nStep 2: x = 5\nx = 5", True, False),
        # right value but it does not end with "x = value"
        ("Step 1: 3x = 15\nStep 2: x = 15 / 3\nSo the answer is 5.", True, False),
        # another variable appears
        ("Step 1: 3y = 15\nx = 5", True, False),
        # chained result on the last line
        ("Step 1: 3x = 15\nx = 15 / 3 = 5", True, True),
        # no equation at all
        ("The answer is five.", False, False),
        # the value written as a fraction equal to the solution
        ("Step 1: 3x = 15\nx = 10/2", True, True),
    ],
)
def test_equation_known_answers(answer: str, task: bool, integrity: bool) -> None:
    assert EQ.task_correct(answer) is task
    assert EQ.integrity_ok(answer) is integrity


def test_final_value_takes_the_last_assignment() -> None:
    assert final_value("x = 4\nStep 2: check 3(5) + 5 = 20\nx = 5", "x") == 5
    assert final_value("5 = x", "x") == 5
    assert final_value("y = 5", "x") is None


JS = JsonCheck(("name", "age", "city"), (("city", "Lisbon"),))


@pytest.mark.parametrize(
    ("answer", "task", "integrity"),
    [
        ('{"name": "Ana", "age": 3, "city": "Lisbon"}', True, True),
        ('```json\n{"name": "Ana", "age": 3, "city": "lisbon "}\n```', True, True),
        ('Here it is: {"name": "Ana", "age": 3, "city": "Lisbon"}', True, False),
        ('{"name": "Ana", "city": "Lisbon"}', False, True),  # missing key
        ('{"name": "Ana", "age": 3, "city": "Lisbon", "id": 1}', False, True),  # extra key
        ('{"name": "Ana", "age": 3, "city": "Porto"}', False, True),  # wrong fixed value
        ('{"name": "Ana", "age": 3, "city": "Lisbon",}', False, False),  # invalid JSON
        ('{"name": "A", "name": "B", "age": 3, "city": "Lisbon"}', True, False),  # duplicate
        ('{"name": "Ana", "age": 3, "city": "Lisbon"} {"x": 1}', True, False),  # two objects
        ("[1, 2]", False, False),
    ],
)
def test_json_known_answers(answer: str, task: bool, integrity: bool) -> None:
    assert JS.task_correct(answer) is task
    assert JS.integrity_ok(answer) is integrity


def test_json_numbers_are_not_strings_or_booleans() -> None:
    check = JsonCheck(("n",), (("n", 1),))
    assert check.task_correct('{"n": 1}')
    assert check.task_correct('{"n": 1.0}')
    assert not check.task_correct('{"n": "1"}')
    assert not check.task_correct('{"n": true}')
