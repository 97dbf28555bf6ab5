"""What a model's wrong answer shows was asked: its statement of the variable's value, read
where it ends a sentence, said again after ("So x = 6 is correct."), followed by the model's
own check of its slip ("2(6 + 3) = 2(9) = 20 ✓", false). A wrong model's answer is then
corrected, never served wrong as passed; a form that may be a rounding ("m = 280" for 35/8),
another task, or a negation still leaves the answer flagged. SIMULATED models (one slip
carried through)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.core.tasks.linear_equation.evidence import (
    final_statement,
    shows_solution,
    solution_as_answered,
)
from tests.conftest import ScriptedChatModel


def _served(request: str, wrong: str) -> tuple[str, dict[str, object]]:
    model = ScriptedChatModel(responder=lambda messages: wrong, model_name="weak-1")
    message = StepCacheLLM(llm=model, step_cache=StepCache()).invoke(request)
    assert isinstance(message.content, str)
    return message.content, dict(message.response_metadata["stepcache"])


_CHECKED = "Solve 2(x + 3) = 20 and check your answer."


@pytest.mark.parametrize(
    ("request_text", "answer", "value"),
    [
        (
            "Can you help me with 5 - 3x = 17? I need x.",
            "Then divide by -3 to get x = 4. You can check it: 5 - 3(4) = 5 + 12 = 17.",
            4,
        ),
        (_CHECKED, "2x = 12\nx = 6\n\nSo x = 6 is correct.", 6),
        (_CHECKED, "x = 6\n\n**Check:** 2(6 + 3) = 2(9) = 20 ✓", 6),  # false: the model's slip
        (_CHECKED, "x = 7\n\nCheck: 2(7 + 3) = 2(10) = 20 ✓", 7),  # true, worked in a bracket
    ],
)
def test_the_closing_statement_is_read(request_text: str, answer: str, value: int) -> None:
    equation = parse_equation(request_text)
    assert equation is not None
    final = final_statement(answer, equation.variable, equation)
    assert final is not None and final.value == Fraction(value)


@pytest.mark.parametrize(
    "answer",
    [
        "x = 6\nSo x = 6 is not the solution.",  # a negation after it
        "x = 6\nSo x = 7 is correct.",  # another value said after it
        "x = 6. Then 2x = 12.",  # another equation in the variable after it
        "x = 6\nCheck: 4 · 6 = 24",  # works out something else, not a side at 6
        "x = 6\nCheck: 2(6 + 3) = 18 and 18 + 9 = 27",  # a number no side accounts for
    ],
)
def test_what_follows_the_statement_still_counts(answer: str) -> None:
    equation = parse_equation(_CHECKED)
    assert equation is not None
    assert final_statement(answer, "x", equation) is None


def test_a_check_with_a_number_the_request_states_is_not_a_check() -> None:
    # "what is 4 times x?": "4 · 5 = 20" works out the question, though 20 is a side at 5.
    equation = parse_equation("If 3x + 5 = 20, what is 4 times x?")
    assert equation is not None
    assert final_statement("3x = 15\nx = 5\n4 · 5 = 20", "x", equation) is None


@pytest.mark.parametrize(
    "answer",
    [
        "8m - 32 = 3\n8m = 35\nm = 280",  # a slip of the last move, or 35/8 to tens?
        "8m = 35\nm = 4",  # 35/8 rounded
        "m = 280",
    ],
)
def test_an_integer_for_a_fraction_shows_no_exact_value(answer: str) -> None:
    # Whether a rounding was asked only the request could tell ("auf eine Nachkommastelle",
    # "to the nearest whole number"), with words no number reader reads: the model answers.
    equation = parse_equation("Find the value of m: 8(m - 4) = 3")
    assert equation is not None
    assert not shows_solution(answer, equation)
    assert solution_as_answered(answer, equation, equation.solution) is None


@pytest.mark.parametrize(
    ("request_text", "wrong", "right"),
    [
        (
            "Solve 2(x + 3) = 20 and check your answer.",
            "2(x + 3) = 20\nx + 3 = 10\nx = 6\n\n**Check:** 2(6 + 3) = 2(9) = 20 ✓\n\n"
            "So x = 6 is correct.",
            "x = 7",
        ),
        ("Löse 6a - 5 = 40.", "6a = 45\na = 8,5\n\nProbe: 6 · 8,5 - 5 = 46 ✓", "a = 7,5"),
    ],
)
def test_a_wrong_model_is_corrected(request_text: str, wrong: str, right: str) -> None:
    text, record = _served(request_text, wrong)
    assert record["passed"] is True
    assert right in text


def test_a_wrong_model_whose_check_sentence_nobody_rewrites_stays_flagged() -> None:
    """The sentence after the value ("You can check it: ..., which matches.") is not one the
    family writes anew, and the solver's steps end at the value: a correction would drop it
    (issue 33, round 8), so the answer is served flagged, as the model wrote it."""
    request_text = "Can you help me with 5 - 3x = 17? I need x."
    wrong = (
        "Start by subtracting 5 from both sides, which leaves -3x = 12. Then divide both "
        "sides by -3 to get x = 4. You can check it: 5 - 3(4) = 5 + 12 = 17, which matches."
    )
    text, record = _served(request_text, wrong)
    assert record["passed"] is False
    assert text == wrong


@pytest.mark.parametrize(
    ("request_text", "wrong"),
    [
        # The value may be a rounding of the solution (17/3 to units).
        ("Solve 3x + 5 = 22.", "3x = 17\nx = 6"),
        # After the value, the answer works out something else.
        ("If 3x + 5 = 20, what is 4 times x?", "3x = 15\nx = 6\n4 · 6 = 24"),
    ],
)
def test_a_wrong_model_is_not_corrected_into_another_task(request_text: str, wrong: str) -> None:
    text, record = _served(request_text, wrong)
    # Never the exact solution served as passed in place of what the request may ask.
    assert record["passed"] is False
    assert text == wrong
