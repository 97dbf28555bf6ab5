"""Decimal commas: read where the text's language writes one and the number has a decimal's
shape, never where a comma separates items or groups thousands; written numbers keep their
form. Readers (unit) and both wrappers with SIMULATED models (``commas.py``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.linear_equation.asking import equation_spans
from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.core.tasks.linear_equation.numerals import (
    point_form,
    reading,
    written_back,
)
from stepcache_integrations.core.tasks.linear_equation.rewrite import (
    correct_answer,
    reinstantiate_steps,
)
from stepcache_integrations.core.tasks.linear_equation.verifier import LinearEquationVerifier
from stepcache_integrations.core.text.language import decimal_mark_language
from stepcache_integrations.core.verifiers.base import VerifyContext
from tests.equations.commas import (
    changed_constant_with_oracle,
    fresh_with_slipping_model,
)
from tests.equations.devset import WRAPPERS

F = Fraction

# --- the language of a text ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Löse 0,5x + 3 = 4,5 nach x auf.", "de"),
        ("Kannst du 0,5x + 3 = 4,5 lösen?", "de"),
        ("Was ist x, wenn 3r + 1,5 = 12?", "de"),
        ("Resolva 1,5x - 2 = 1.", "pt"),
        ("Qual é o valor de x em 0,5x + 3 = 4,5?", "pt"),
        ("Pode resolver 2,5x = 5 para mim?", "pt"),
        ("The values 3,5 and 7 are given. Solve 2x = 6.", "en"),
        ("Prices went up by 1,200 dollars; solve 2x = 1,200", "en"),
        ("Hey, quick one: solve 0,5x + 3 = 4,5. Thanks!", "en"),
    ],
)
def test_the_words_of_a_text_say_which_decimal_mark_it_writes(text: str, language: str) -> None:
    assert decimal_mark_language(text) == language


@pytest.mark.parametrize("text", ["0,5x + 3 = 4,5", "x = 2,5", "Isolate x in 2,5x = 5."])
def test_too_few_or_shared_words_decide_nothing(text: str) -> None:
    assert decimal_mark_language(text) is None


# --- requests --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "abc", "variable"),
    [
        ("Löse 0,5x + 3 = 4,5 nach x auf.", (F(1, 2), F(3), F(9, 2)), "x"),
        ("Bestimme x: 1,5x - 2 = 1", (F(3, 2), F(-2), F(1)), "x"),
        ("Was ist r, wenn 3r + 1,5 = 12?", (F(3), F(3, 2), F(12)), "r"),
        ("Quanto vale n se n/5 + 2 = 3,5?", (F(1, 5), F(2), F(7, 2)), "n"),
        ("Resolva a equação 0,25y - 1,75 = 0,5, por favor.", (F(1, 4), F(-7, 4), F(1, 2)), "y"),
        ("Löse 2x = 4.5 nach x auf.", (F(2), F(0), F(9, 2)), "x"),  # a point in German: 4.5
    ],
)
def test_a_request_in_a_decimal_comma_language_is_read_exactly(
    request_text: str, abc: tuple[Fraction, Fraction, Fraction], variable: str
) -> None:
    equation = parse_equation(request_text)
    assert equation is not None
    assert (equation.a, equation.b, equation.c) == abc
    assert equation.variable == variable


@pytest.mark.parametrize(
    "request_text",
    [
        "Can you solve 0,5x + 3 = 4,5 for me?",  # English: a comma is no decimal mark
        "Solve 2x = 1,200",  # thousands in English
        "0,5x + 3 = 4,5",  # no words: the reading is not decided
        "Löse 2x = 4.500 nach x auf.",  # 4500 in German, 4.5 in English
        "Löse 2x = 1.000,5 nach x auf.",  # grouped: not the family's
        "Löse 2x = 1,2,3 nach x auf.",
        "Löse \\( 0{,}5x + 3 = 4{,}5 \\) nach x auf.",  # offsets of a request are kept
    ],
)
def test_a_request_read_no_way_or_two_ways_is_not_taken(request_text: str) -> None:
    assert parse_equation(request_text) is None


def test_a_comma_that_separates_items_is_never_a_decimal_mark() -> None:
    eq = parse_equation("The candidates are x = 2,3 and 4. Which one solves 2x + 1 = 9?")
    assert eq is not None and eq.solution == 4
    eq = parse_equation("Die Kandidaten sind x = 2, 3 und 4. Welcher löst 2x + 1 = 9?")
    assert eq is None  # "x = 2" and "2x + 1 = 9" disagree: two problems, not one
    assert reading("x = 2, 3 and 4", "de") == "x = 2, 3 and 4"


def test_a_changed_decimal_constant_is_within_the_equations_span() -> None:
    old, new = "Löse 0,5x + 3 = 4,5 nach x auf.", "Löse 0,5x + 1,5 = 4,5 nach x auf."
    for text in (old, new):
        spans = equation_spans(text)
        start = text.index("0,5x")
        assert any(s <= start and text.index("= 4,5") + 5 <= e for s, e in spans), spans


# --- the point form and back ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language", "scanned"),
    [
        ("0,5x + 3 = 4,5", "de", "0.5x + 3 = 4.5"),
        ("\\( 0{,}2p = 1{,}6 \\)", "de", "\\( 0.2p = 1.6 \\)"),
        ("x = 3 : 1,5 = 2", "de", "x = 3 / 1.5 = 2"),
        ("3x:3 = 15:3", "pt", "3x/3 = 15/3"),
        ("Schritt 1: 3x = 15", "de", "Schritt 1: 3x = 15"),
        ("Étape 1 : 3x = 15", "de", "Étape 1 : 3x = 15"),
        ("Probe: 6 · 7,5 - 5 = 40", "de", "Probe: 6 · 7.5 - 5 = 40"),
        ("0,5x + 3 = 4,5 | -3", "de", "0.5x + 3 = 4.5 | -3"),
        ("|x - 3| = 5", "de", "|x - 3| = 5"),
        ("x = 2,5", None, "x = 2,5"),
    ],
)
def test_the_point_form_reads_marks_and_operators(
    text: str, language: str | None, scanned: str
) -> None:
    form = point_form(text, language)
    shown = form.text.replace("\ue000", "|").replace("\ue001", "/")
    assert shown == scanned
    assert written_back(form.text, form) == text


def test_an_annotation_ends_its_equation_and_an_absolute_value_stays_unread() -> None:
    verifier = LinearEquationVerifier()
    ctx = VerifyContext("Löse 0,5x + 3 = 4,5 nach x auf.")
    assert verifier.check_step(ctx, Step("0,5x + 3 = 4,5 | -3"), 0, []).passed
    assert verifier.check_step(ctx, Step("0,5x = 1,6 | :0,5"), 1, []).failed
    assert not verifier.check_step(ctx, Step("|x - 3| = 5"), 0, []).failed


# --- answers checked, corrected and re-instantiated in their own form -------------------------


@pytest.mark.parametrize(
    "wrong",
    ["x = 2,6", "0,5x = 1,6\nx = 3,2", "\\[ x = 3{,}2 \\]", "x = 1,6 : 0,5 = 3,2"],
)
def test_a_wrong_answer_with_decimal_commas_is_never_passed(wrong: str) -> None:
    verifier = LinearEquationVerifier()
    ctx = VerifyContext("Löse 0,5x + 3 = 4,5 nach x auf.")
    assert verifier.check_answer(ctx, wrong).failed


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (
            ["1. Subtrahiere 3 auf beiden Seiten: 0,5x = 1,6\n", "2. Teile durch 0,5: x = 3,2"],
            "1. Subtrahiere 3 auf beiden Seiten: 0,5x = 1,5\n2. Teile durch 0,5: x = 3,0",
        ),
        (
            ["\\( 0{,}5x = 1{,}6 \\)\n", "\\[ x = 3{,}2 \\]"],
            "\\( 0{,}5x = 1{,}5 \\)\n\\[ x = 3{,}0 \\]",
        ),
        (
            ["0,5x = 1,6\n", "x = 1,6 : 0,5 = 3,2"],
            "0,5x = 1,5\nx = 1,5 : 0,5 = 3,0",
        ),
    ],
)
def test_a_correction_keeps_the_answers_own_marks(steps: list[str], expected: str) -> None:
    target = parse_equation("Löse 0,5x + 3 = 4,5 nach x auf.")
    assert target is not None
    assert correct_answer(steps, target) == expected


def test_a_reinstantiated_answer_keeps_decimal_commas() -> None:
    old = parse_equation("Resolva 0,5x + 3 = 4,5.")
    new = parse_equation("Resolva 0,5x + 3 = 5.")
    assert old is not None and new is not None
    steps = ["Subtraia 3 de ambos os lados: 0,5x = 1,5\n", "Divida ambos os lados por 0,5: x = 3"]
    assert reinstantiate_steps(steps, old, new) == (
        ["Subtraia 3 de ambos os lados: 0,5x = 2,0\n", "Divida ambos os lados por 0,5: x = 4"],
        2,
    )


def test_an_answer_with_two_decimal_marks_is_not_rewritten() -> None:
    target = parse_equation("Löse 0,5x + 3 = 4,5 nach x auf.")
    assert target is not None
    assert correct_answer(["0,5x = 1.6\n", "x = 3,2"], target) is None


# --- through both wrappers (SIMULATED models) -------------------------------------------------


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_a_slipping_model_writing_decimal_commas_is_corrected(wrapper: str) -> None:
    figures = fresh_with_slipping_model(wrapper)
    assert figures.wrong_passed == 0, figures.failures
    assert figures.share >= 0.95, figures.failures


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("change", ["c", "b"])
def test_a_changed_decimal_constant_is_served_right_without_a_full_answer(
    wrapper: str, change: str
) -> None:
    figures = changed_constant_with_oracle(wrapper, change)
    assert figures.wrong_passed == 0, figures.failures
    assert figures.share >= 0.90, figures.failures


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("change", ["c", "b"])
def test_a_value_the_cached_form_cannot_write_is_the_models(wrapper: str, change: str) -> None:
    # "x = 2" does not show that an exact 5/3 is asked, nor "n = 3,5" that 4,25 is (either may
    # be a rounding): the new value is the model's, right, never the family's solver's.
    figures = changed_constant_with_oracle(wrapper, change, form_kept=False)
    assert figures.total > 0
    assert figures.wrong_passed == 0, figures.failures
    assert figures.good == figures.total, figures.failures
