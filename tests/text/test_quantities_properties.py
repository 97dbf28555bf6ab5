"""Round trips and invariants of the quantity reader, over generated values and texts."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from stepcache_integrations.core.text.quantities import (
    CURRENCY_WORDS,
    fraction_to_words,
    number_to_words,
    ordinal_to_words,
    read_quantities,
)

# Words that never start or continue a quantity.
FILLER = st.sampled_from(["apples", "she", "bought", "rolls", "then", "people", "red", "boxes"])
UNITS = st.sampled_from(["apples", "rolls", "people", "boxes", "hours", "kg", "dollars"])


@settings(max_examples=400, deadline=None)
@given(n=st.integers(min_value=-(10**12) + 1, max_value=10**12 - 1), use_and=st.booleans())
def test_number_words_round_trip(n: int, use_and: bool) -> None:
    words = number_to_words(n, use_and=use_and)
    found = read_quantities(words)
    assert [(q.value, q.kind, q.text) for q in found] == [(n, "number", words)]


@settings(max_examples=300, deadline=None)
@given(n=st.integers(min_value=0, max_value=10**9), unit=UNITS, lead=FILLER)
def test_number_words_in_a_sentence_keep_value_span_and_unit(n: int, unit: str, lead: str) -> None:
    words = number_to_words(n)
    text = f"{lead.capitalize()} {words} {unit}."
    (quantity,) = read_quantities(text)
    assert quantity.value == n
    if unit in CURRENCY_WORDS:  # a currency word is part of the amount: "70 dollars" is "$70"
        assert text[quantity.start : quantity.end] == f"{words} {unit}"
        assert quantity.unit == CURRENCY_WORDS[unit]
    else:
        assert text[quantity.start : quantity.end] == words
        assert quantity.unit == unit


@settings(max_examples=300, deadline=None)
@given(n=st.integers(min_value=0, max_value=10**15))
def test_digits_with_separators_round_trip(n: int) -> None:
    written = f"{n:,}"
    (quantity,) = read_quantities(f"There are {written} stars.")
    assert (quantity.value, quantity.text) == (n, written)


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(min_value=0, max_value=10**6),
    places=st.integers(min_value=1, max_value=4),
    negative=st.booleans(),
)
def test_decimals_round_trip(n: int, places: int, negative: bool) -> None:
    value = Fraction(n, 10**places) * (-1 if negative else 1)
    written = f"{'-' if negative else ''}{n // 10**places}.{n % 10**places:0{places}d}"
    (quantity,) = read_quantities(f"It measured {written} units.")
    assert quantity.value == value


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=1, max_value=99))
def test_ordinals_round_trip(n: int) -> None:
    words = ordinal_to_words(n)
    (quantity,) = read_quantities(f"She finished {words} in the race.")
    assert (quantity.value, quantity.kind, quantity.text) == (n, "ordinal", words)


WORD_DENOMINATORS = (*range(2, 21), *range(30, 101, 10))


@settings(max_examples=300, deadline=None)
@given(
    den=st.sampled_from(WORD_DENOMINATORS),
    num=st.integers(min_value=1, max_value=150),
    article=st.booleans(),
)
def test_fraction_words_round_trip(den: int, num: int, article: bool) -> None:
    value = Fraction(num, den)
    assume(value.denominator in WORD_DENOMINATORS)
    assume(value.denominator != 2 or value.numerator == 1)
    words = fraction_to_words(value, article=article)
    (quantity,) = read_quantities(f"He ate {words} of the pie.")
    assert (quantity.value, quantity.kind, quantity.text) == (value, "fraction", words)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=1, max_value=999))
def test_percent_words_round_trip(n: int) -> None:
    words = f"{number_to_words(n)} percent"
    (quantity,) = read_quantities(f"Prices rose {words} last year.")
    assert (quantity.value, quantity.kind, quantity.text) == (Fraction(n, 100), "percent", words)


@settings(max_examples=500, deadline=None)
@given(text=st.text(max_size=300))
def test_any_text_reads_without_error_in_order_and_without_overlaps(text: str) -> None:
    found = read_quantities(text)
    for quantity in found:
        assert 0 <= quantity.start < quantity.end <= len(text)
        assert text[quantity.start : quantity.end] == quantity.text
    assert all(a.end <= b.start for a, b in itertools.pairwise(found))


ALPHABET = st.sampled_from(
    [
        *"0123456789",
        " ",
        "-",
        ",",
        ".",
        "/",
        "%",
        "$",
        "and ",
        "a ",
        "half ",
        "one ",
        "twenty",
        "hundred ",
        "thousand ",
        "third",
        "s ",
        "dozen ",
        "times ",
        "as ",
        "of ",
        "st",
        "percent ",
    ]
)


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(ALPHABET, max_size=40))
def test_quantity_shaped_noise_reads_consistently(pieces: list[str]) -> None:
    text = "".join(pieces)
    found = read_quantities(text)
    for quantity in found:
        assert text[quantity.start : quantity.end] == quantity.text
    assert all(a.end <= b.start for a, b in itertools.pairwise(found))
