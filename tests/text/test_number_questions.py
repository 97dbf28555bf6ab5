"""The number reader's small questions: which figures a text holds, whether a token is one
number alone, which quantity starts at an offset, whether a text holds a number at all."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stepcache_integrations.core.text.quantities import (
    has_number,
    is_number_word,
    quantity_at,
    read_figures,
    read_number,
)

# --- read_figures -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("3x + 4 = 19", ["3", "4", "19"]),
        ("the x2 and the A4 sheet", ["2", "4"]),
        ("pay 1,200.50 now", ["1,200.50"]),
        ("version 1.2.3", ["1.2", "3"]),
        ("on 2031-11-09 at 14:05", ["2031", "11", "09", "14", "05"]),
        ("add .5 cups", [".5"]),
        ("no digits here, only seven words", []),
    ],
)
def test_figures_are_every_run_of_digits(text: str, figures: list[str]) -> None:
    assert [figure.text for figure in read_figures(text)] == figures


def test_a_figure_carries_its_value_and_span() -> None:
    text = "costs 1,250.75 or 3"
    first, second = read_figures(text)
    assert first.value == Fraction(125075, 100)
    assert text[first.start : first.end] == "1,250.75"
    assert (second.value, text[second.start : second.end]) == (Fraction(3), "3")


@given(st.text(alphabet="0123456789 .,-/:abxyz$%", max_size=40))
def test_every_digit_belongs_to_exactly_one_figure(text: str) -> None:
    covered = [False] * len(text)
    for figure in read_figures(text):
        assert text[figure.start : figure.end] == figure.text
        for at in range(figure.start, figure.end):
            assert not covered[at]
            covered[at] = True
    assert all(covered[at] for at, ch in enumerate(text) if ch.isdigit())


def test_read_figures_names_a_wrong_argument() -> None:
    with pytest.raises(TypeError, match="read_figures needs a str"):
        read_figures(42)  # type: ignore[arg-type]


# --- read_number ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "value"),
    [
        ("17", Fraction(17)),
        ("2,500", Fraction(2500)),
        ("-0.75", Fraction(-3, 4)),
        ("$8", Fraction(8)),
        ("nineteen", Fraction(19)),
        ("sixty-two", Fraction(62)),
        ("three and a half", Fraction(7, 2)),
    ],
)
def test_a_number_alone(token: str, value: Fraction) -> None:
    found = read_number(token)
    assert found is not None
    assert found.value == value


@pytest.mark.parametrize(
    "token",
    ["4y", "2/3", "40%", "twice", "third", "9 pears", " 9", "1.2.3", "1e5", "", "pears"],
)
def test_not_a_number_alone(token: str) -> None:
    assert read_number(token) is None


# --- quantity_at ------------------------------------------------------------------------------


def test_the_quantity_at_an_offset_is_read_in_context() -> None:
    text = "so the result is 4 3/8, not 4"
    found = quantity_at(text, text.index("4"))
    assert found is not None
    assert (found.value, found.text) == (Fraction(35, 8), "4 3/8")
    assert quantity_at(text, text.index("3/8")) is None  # inside the mixed number
    assert quantity_at(text, text.index("result")) is None


# --- has_number -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rename v7 to w", True),  # a digit anywhere, also inside an identifier
        ("then add fourteen", True),
        ("take two thirds of it", True),
        ("it grows twice as fast", True),
        ("Second, greet the guest", False),  # an ordinal word orders, it does not count
        ("finish on the 2nd floor", True),  # in digits it is a number
        ("which one is it", False),  # "one" as a pronoun
        ("nothing to count", False),
    ],
)
def test_has_number(text: str, expected: bool) -> None:
    assert has_number(text) is expected


def test_has_number_sees_every_text_with_a_digit() -> None:
    # Where digits were the test for "holds a number", nothing is lost.
    for text in ("x9", "9x", "a-1", "1.", ".1", "1/2", "٣ cups"):
        assert re.search(r"\d", text)
        assert has_number(text), text


# --- is_number_word ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Fourteen", True),
        ("sixteen", True),
        ("hundred", True),
        ("dozen", True),
        ("quarters", True),
        ("thrice", True),
        ("fifth", True),
        ("dozens", False),
        ("tenner", False),
    ],
)
def test_is_number_word(word: str, expected: bool) -> None:
    assert is_number_word(word) is expected
