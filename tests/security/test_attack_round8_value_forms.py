"""Round 8 of the oracle attack (issue 33): the form an equation answer writes its value in.

**An exact form written as a decimal.** The deterministic solver (the rest of a line-by-line
patch, and the fallback that corrects a slipping model) wrote the value of an answer whose
value was a fraction, a LaTeX ``\\frac`` or a mixed number as a decimal when it terminates:
"Give x as a mixed number." cached with "x = 7/2 / x = 3 1/2" was served "x = 4.5" for the
next constant, and a slipping model's "x = 5 1/2" was "corrected" to "x = 4.5" and served as
passed -- another form than the one asked. A value keeps the form the answer wrote it in: a
fraction stays a fraction ("9/2"); a mixed number or an expression, a form the solver does not
write, is the model's to write (a patch's rest) or stays flagged (a slip). SIMULATED models:
the oracle (every answer right) and a slipping model (every call the same wrong answer).
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from tests.security.slipping import served_by_slipping_model
from tests.security.word_paths import PATHS, Case, served_after

MIXED: list[Case] = [
    (
        "Solve 2x + 1 = 8. Give x as a mixed number.",
        "2x + 1 = 8\n2x = 7\nx = 7/2\nx = 3 1/2",
        "Solve 2x + 1 = 10. Give x as a mixed number.",
        "2x + 1 = 10\n2x = 9\nx = 9/2\nx = 4 1/2",
    ),
    (
        "Löse 2x + 1 = 8 und gib x als gemischte Zahl an.",
        "2x + 1 = 8\n2x = 7\nx = 7/2\nx = 3 1/2",
        "Löse 2x + 1 = 10 und gib x als gemischte Zahl an.",
        "2x + 1 = 10\n2x = 9\nx = 9/2\nx = 4 1/2",
    ),
    (
        "Resolva 2x + 1 = 8 e escreva x como número misto.",
        "2x + 1 = 8\n2x = 7\nx = 7/2\nx = 3 1/2",
        "Resolva 2x + 1 = 10 e escreva x como número misto.",
        "2x + 1 = 10\n2x = 9\nx = 9/2\nx = 4 1/2",
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", MIXED, ids=lambda case: case[2])
def test_a_mixed_number_is_never_rewritten_as_a_decimal(case: Case, path: str) -> None:
    served, decision = served_after(case, path)
    assert served.split() == case[3].split(), (decision, served)


_LATEX_FRACTION: Case = (
    "Solve 2x + 1 = 8 and give x as a fraction.",
    "2x + 1 = 8\n2x = 7\n$x = \\frac{7}{2}$",
    "Solve 2x + 1 = 10 and give x as a fraction.",
    "2x + 1 = 10\n2x = 9\n$x = \\frac{9}{2}$",
)


def _last_value(text: str) -> Fraction | None:
    """The value the last line of ``text`` gives x, as a fraction ("9/2", "\\frac{9}{2}");
    ``None`` when it is written otherwise (a decimal, a mixed number)."""
    last = text.strip().splitlines()[-1]
    found = re.search(r"x\s*=\s*(?:\\frac\{(\d+)\}\{(\d+)\}|(\d+)/(\d+))\s*\$?\.?\s*$", last)
    if found is None:
        return None
    top, bottom = found.group(1) or found.group(3), found.group(2) or found.group(4)
    return Fraction(int(top), int(bottom))


@pytest.mark.parametrize("path", PATHS)
def test_a_fraction_stays_a_fraction(path: str) -> None:
    """The oracle writes 9/2 as a fraction, as asked; whoever writes the last line (the model
    or the solver) keeps that form, never "4.5"."""
    served, decision = served_after(_LATEX_FRACTION, path)
    assert _last_value(served) == Fraction(9, 2), (decision, served)


@pytest.mark.parametrize("path", [path for path in PATHS if path != "global_cache"])
def test_a_fraction_is_still_written_by_the_solver(path: str) -> None:
    """Control: the lines before the fraction are reused and the rest is the solver's, with
    no model call (the global cache cannot call the model: it skips or patches alike)."""
    served, decision = served_after(_LATEX_FRACTION, path)
    assert decision == "patch", (decision, served)
    assert served.splitlines()[:2] == ["2x + 1 = 10", "2x = 9"], served


@pytest.mark.parametrize(
    ("request_text", "wrong"),
    [
        ("Solve 2x + 1 = 10. Give x as a mixed number.", "2x + 1 = 10\n2x = 11\nx = 5 1/2"),
        ("Solve 2x + 1 = 10. Give x as a mixed number.", "2x = 11\nx = 11/2 = 5 1/2"),
        ("Löse 2x + 1 = 10 und gib x als gemischte Zahl an.", "2x = 11\nx = 5 1/2"),
        ("Resolva 2x + 1 = 10 e escreva x como número misto.", "2x = 11\nx = 5 1/2"),
    ],
)
def test_a_slipped_mixed_number_is_never_corrected_into_a_decimal(
    request_text: str, wrong: str
) -> None:
    text, record = served_by_slipping_model(request_text, wrong)
    assert record["passed"] is False, (text, record)
    assert text == wrong


@pytest.mark.parametrize("wrong", ["2x = 11\n$x = \\frac{11}{2}$", "2x = 11\nx = 11/2"])
def test_a_slipped_fraction_is_still_corrected_as_a_fraction(wrong: str) -> None:
    """Control: a slip written as a fraction is corrected, its value a fraction."""
    text, record = served_by_slipping_model("Solve 2x + 1 = 10.", wrong)
    assert record["passed"] is True, (text, record)
    assert _last_value(text) == Fraction(9, 2), text
