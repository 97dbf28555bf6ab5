"""A wrong model's answer is corrected to the exact solution only where it shows that the exact
value is what was asked. Its value written as an integer or decimal that cannot write the
solution ("m = 280" for 35/8) counts only when no rounding explains it; a check line counts only
when it puts the value into the equation's own sides. Otherwise the answer stays flagged:
never the exact value served as passed for a request that asks a rounding or another quantity.
SIMULATED weak model (every call gets the same wrong answer)."""

from __future__ import annotations

import pytest

from tests.security.slipping import served_by_slipping_model


@pytest.mark.parametrize(
    ("request_text", "wrong"),
    [
        # A precision stated with a number, in figures or words, in three languages.
        ("Solve 8(m - 4) = 3 and round m to one decimal place.", "8m = 35\nm = 280"),
        ("Solve 8(m - 4) = 3, giving m to 2 decimal places.", "8m = 35\nm = 280"),
        ("Löse 8(m - 4) = 3 und runde auf eine Nachkommastelle.", "8m = 35\nm = 280"),
        ("Resolva 8(m - 4) = 3 e arredonde para uma casa decimal.", "8m = 35\nm = 280"),
        # The answer writes an approximate value: it may have been asked to round.
        ("Solve 8(m - 4) = 3.", "8m = 35\nm = 35/8 ≈ 28\nm = 28"),
        # The value is the solution or the model's own value rounded to its form.
        ("Solve 8(m - 4) = 3.", "8m = 35\nm = 4"),
        ("Solve 8(m - 4) = 3.", "8m = 37\nm = 5"),
        # Nothing shows where the value came from.
        ("Solve 8(m - 4) = 3.", "m = 280"),
    ],
)
def test_a_value_that_may_be_a_rounding_is_not_corrected(request_text: str, wrong: str) -> None:
    text, record = served_by_slipping_model(request_text, wrong)
    assert record["passed"] is False
    assert text == wrong


@pytest.mark.parametrize(
    ("request_text", "wrong"),
    [
        # A line after the value works out the question, not the equation's sides.
        ("If 3x + 5 = 20, what is 4 times x?", "3x = 16\nx = 16/3\n4 · 16/3 = 64/3"),
        ("If 2(x + 3) = 20, what is x + 9?", "x + 3 = 9\nx = 6\n6 + 9 = 15"),
        # The value, said again, is dismissed; or another value follows it.
        ("Solve 2(x + 3) = 20.", "x = 6\nSo x = 6 is not the answer; x = 8"),
    ],
)
def test_an_answer_to_another_question_is_not_corrected(request_text: str, wrong: str) -> None:
    text, record = served_by_slipping_model(request_text, wrong)
    assert record["passed"] is False
    assert text == wrong
