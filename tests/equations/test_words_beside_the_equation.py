"""One-letter words of prose beside an equation ("Resolva 2(3x - 1) = 16 e verifique", "Resuelve
y 3x + 5 = 20"): the Portuguese "e", the Spanish "y" are words, not names of the equation.

Read as names, the equation's run of algebra was not the request's equation, so every number
of the equation counted as one the request writes outside it, and the check line of a
slipping model ("6 · 17/6 - 1 = 17 - 1 = 16 ✓") could not show the value: the answer was served
flagged, uncorrected. A one-letter word that is the equation's variable stays part of it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from stepcache_integrations.core.tasks.linear_equation.asking import stated_outside
from tests.equations.devset import WRAPPERS


@pytest.mark.parametrize(
    ("request_text", "outside"),
    [
        ("Resolva 2(3x - 1) = 16 e verifique.", set()),
        ("Resuelve y 3x + 5 = 20 y comprueba.", set()),
        ("Resolva 4x + 2 = 10 e diga quanto vale x + 7.", {Fraction(7)}),
        ("If 3x + 5 = 20, what is x - 20?", {Fraction(20)}),
    ],
)
def test_a_one_letter_word_beside_the_equation_is_prose(
    request_text: str, outside: set[Fraction]
) -> None:
    assert stated_outside(request_text) == outside


SLIP = "2(3x - 1) = 16\n6x - 1 = 16\n6x = 17\nx = 17/6\n\nVerificação: 6 · 17/6 - 1 = 17 - 1 = 16 ✓"


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
def test_a_slip_beside_a_portuguese_e_is_corrected(wrapper: str) -> None:
    ask = WRAPPERS[wrapper](lambda request, follow_ups: SLIP)
    served, record = ask("Resolva 2(3x - 1) = 16 e verifique.")
    assert record["passed"] is True, record
    assert "x = 3" in served and "17/6" not in served, served
