"""Polarity words: negators and negated forms."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.text import NEUTRAL_WORDS, is_polarity, negates


@pytest.mark.parametrize(
    "word",
    ["not", "No", "never", "without", "none", "nobody", "nothing", "neither", "nor", "cannot",
     "don't", "doesn\u2019t", "isn't", "dont", "non-empty", "except", "unless"],
)  # fmt: skip
def test_negators(word: str) -> None:
    assert is_polarity(word)
    assert word.lower() not in NEUTRAL_WORDS


@pytest.mark.parametrize("word", ["safe", "know", "note", "non", "nonce", "input", "north", ""])
def test_ordinary_words_are_not_negators(word: str) -> None:
    assert is_polarity(word) is (word == "non")


@pytest.mark.parametrize(
    ("a", "b"),
    [("safe", "unsafe"), ("legal", "illegal"), ("possible", "impossible"), ("like", "dislike"),
     ("regular", "irregular"), ("linear", "nonlinear"), ("empty", "non-empty"),
     ("typical", "atypical"), ("careful", "careless"), ("Compatible", "INCOMPATIBLE")],
)  # fmt: skip
def test_negated_forms(a: str, b: str) -> None:
    assert negates(a, b)
    assert negates(b, a)


@pytest.mark.parametrize(
    ("a", "b"), [("tall", "small"), ("safe", "safe"), ("do", "undo"), ("form", "farm")]
)
def test_unrelated_words_are_not_negations(a: str, b: str) -> None:
    # Stems shorter than three letters are not read as negations ("do" / "undo").
    assert not negates(a, b)


def test_a_prefix_reading_may_over_report_which_only_blocks_reuse() -> None:
    # "input" reads as "in" + "put": a false alarm costs a model call, never a wrong answer.
    assert negates("put", "input")
