"""The equation family's segmenter: an answer written line by line is a step a line; a line
that does not end with an equation stays with the next; a display or a fence is one step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stepcache_integrations.core.steps import LineSegmenter, join_steps
from stepcache_integrations.core.tasks.linear_equation import LinearEquationFamily
from stepcache_integrations.core.tasks.linear_equation.lines import (
    EQUATION_SEGMENTER,
    ends_with_equation,
)


def texts(answer: str) -> list[str]:
    return [step.text for step in EQUATION_SEGMENTER.split(answer)]


def test_the_family_splits_its_answers_by_lines() -> None:
    assert LinearEquationFamily().segmenter is EQUATION_SEGMENTER


def test_bare_equation_lines_are_a_step_each() -> None:
    answer = "2n + 9 = 25\n2n = 25 - 9\n2n = 16\nn = 8"
    assert texts(answer) == ["2n + 9 = 25", "2n = 25 - 9", "2n = 16", "n = 8"]


def test_a_move_written_before_its_equation_stays_with_it() -> None:
    answer = "Step 1: Subtract 9 from both sides:\n2n = 16\nStep 2: Divide by 2:\nn = 8"
    assert texts(answer) == [
        "Step 1: Subtract 9 from both sides:\n2n = 16",
        "Step 2: Divide by 2:\nn = 8",
    ]


def test_labelled_lines_and_a_closing_answer_line() -> None:
    answer = "Schritt 1: 2n = 16.\nSchritt 2: n = 8.\nAntwort: n = 8"
    assert texts(answer) == ["Schritt 1: 2n = 16.", "Schritt 2: n = 8.", "Antwort: n = 8"]


def test_prose_running_on_stays_one_step() -> None:
    answer = "We subtract 9 from both sides, so 2n = 16, and\nthen divide by 2.\nSo n = 8."
    assert texts(answer) == [answer]


@pytest.mark.parametrize(
    "block",
    [
        "\\[\n2n + 9 = 25 \\\\\n2n = 16\n\\]",
        "$$\n2n = 16\nn = 8\n$$",
        "\\begin{aligned}\n2n &= 16 \\\\\nn &= 8\n\\end{aligned}",
        "```\n2n = 16\nn = 8\n```",
    ],
)
def test_a_display_or_a_fence_is_never_cut(block: str) -> None:
    answer = f"Solve:\n{block}\nSo n = 8.\nn = 8"
    assert any(block in text for text in texts(answer)), texts(answer)
    assert texts(answer)[-1] == "n = 8"


def test_a_display_that_ends_with_an_equation_closes_a_step() -> None:
    answer = "Solve:\n\\[\n2n = 16\n\\]\nSo n = 8."
    assert texts(answer) == ["Solve:\n\\[\n2n = 16\n\\]", "So n = 8."]


def test_an_open_block_runs_to_the_end() -> None:
    answer = "2n = 16\n$$\nn = 8\nn = 8"
    assert texts(answer) == ["2n = 16", "$$\nn = 8\nn = 8"]


@pytest.mark.parametrize(
    ("unit", "closes"),
    [
        ("n = 8", True),
        ("**n = 8**", True),
        ("\\( n = 8 \\)", True),
        ("Check: 2(8) + 9 = 25 ✓", True),
        ("Adicione 1,5 a ambos os lados → -4m = 22,5", True),
        ("n = 8, which", False),
        ("2n = 16 so", False),
        ("Divide by 2:", False),
        ("The answer is eight.", False),
    ],
)
def test_what_ends_with_an_equation(unit: str, closes: bool) -> None:
    assert ends_with_equation(unit) is closes


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="n2=+- .:,\n\\[]$`~x{}abegin", max_size=80))
def test_the_split_is_lossless(text: str) -> None:
    assert join_steps(EQUATION_SEGMENTER.split(text)) == text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab;\n\\[]$` ", max_size=60))
def test_no_step_is_empty_but_a_whitespace_answer(text: str) -> None:
    steps = LineSegmenter(lambda unit: unit.rstrip().endswith(";")).split(text)
    assert join_steps(steps) == text
    assert all(step.text.strip() for step in steps[1:])


def test_a_paragraph_is_cut_after_each_sentence_that_ends_with_an_equation() -> None:
    answer = (
        "Subtracting 3 from both sides gives 0.5x = 5. Dividing both sides by 0.5 "
        "gives x = 10. So the answer is x = 10."
    )
    assert texts(answer) == [
        "Subtracting 3 from both sides gives 0.5x = 5.",
        "Dividing both sides by 0.5 gives x = 10.",
        "So the answer is x = 10.",
    ]
    assert join_steps(EQUATION_SEGMENTER.split(answer)) == answer


@pytest.mark.parametrize(
    "answer",
    [
        "We get x = 2.5 as the value. Done.",  # a point inside a number is no sentence end
        "Subtract 3, e.g. From both sides we get 2x = 4 then x = 2.",  # no equation before
        "So 2x = 4, and. Then x = 2.",  # the sentence does not end with its equation
        "\\[ 2x = 4. \\] Then x = 2.",  # a display is never cut
    ],
)
def test_a_sentence_is_cut_only_after_its_equation(answer: str) -> None:
    assert texts(answer) == [answer]
