"""Linear equations: what the re-instantiation now keeps (plain words of an answer, the
places a number of the working needs) never carries a stale claim.

A SIMULATED oracle (tests.conftest.AnswerBook) answers each equation in prose whose words
depend on the values: a number written as a word ("by two"), a claim about the solution's
kind ("a whole number"), the final value's form
("x = 5/2", never a decimal the cache would have chosen). Whatever is served for the changed
equation must be the new equation's, in every word."""

from __future__ import annotations

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from tests.blind.harness import equation_value
from tests.conftest import AnswerBook

CASES = [
    # (first request, its answer, second request, its answer, words the second must not have)
    (
        "Solve 2x + 4 = 10.",
        "Sure!\nSubtract 4 from both sides: 2x = 6\nDivide both sides by two: x = 3",
        "Solve 3x + 4 = 19.",
        "Sure!\nSubtract 4 from both sides: 3x = 15\nDivide both sides by three: x = 5",
        ["two"],
    ),
    (
        "Solve 2x + 4 = 10.",
        "Sure!\nTake four from both sides: 2x = 6\nDivide both sides by 2: x = 3",
        "Solve 2x + 7 = 19.",
        "Sure!\nTake seven from both sides: 2x = 12\nDivide both sides by 2: x = 6",
        ["four"],
    ),
    (
        "Resolva 2x + 4 = 10.",
        "Claro!\nSubtraia 4 dos dois lados: 2x = 6\nDivida por dois: x = 3",
        "Resolva 3x + 4 = 19.",
        "Claro!\nSubtraia 4 dos dois lados: 3x = 15\nDivida por três: x = 5",
        ["por dois"],
    ),
    (
        "Solve 4x - 6 = 10.",
        "This one has a whole number answer.\nAdd 6 to both sides: 4x = 16\nDivide by 4: x = 4",
        "Solve 4x - 6 = 4.",
        "This one has a fractional answer.\nAdd 6 to both sides: 4x = 10\nDivide by 4: x = 5/2",
        ["whole"],
    ),
    (
        "Löse 2x = 8.",
        "Klar!\nTeile beide Seiten durch 2: x = 4",
        "Löse 2x = 5.",
        "Klar!\nTeile beide Seiten durch 2: x = 5/2",
        ["x = 2,5", "x = 2.5"],
    ),
]


@pytest.mark.parametrize(("first", "answer", "second", "correct", "stale"), CASES)
def test_kept_words_and_widened_numbers_are_never_stale(
    first: str, answer: str, second: str, correct: str, stale: list[str]
) -> None:
    book = AnswerBook({first: answer, second: correct})
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())
    llm.invoke(first)
    message = llm.invoke(second)
    text = str(message.content)
    for words in stale:
        assert words not in text, (text, message.response_metadata["stepcache"])
    # Whatever was reused, the served answer states the new equation's solution, passed.
    expected = equation_value(correct, "x", decimal_comma=True)
    assert expected is not None
    assert equation_value(text, "x", decimal_comma=True) == expected, text
    assert message.response_metadata["stepcache"]["passed"] is True
