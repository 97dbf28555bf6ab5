"""Round 6 of the outside attack on the linear-equation family (the check-line, restatement
and equation-end rules).

Each case caches one request with the answer of an ORACLE model (SIMULATED: it answers every
request correctly, by the values written here), then asks a second request that differs only
in the equation's constants. Anything wrong in what the cache serves was made by the cache.

- **arithmetic after the solution read as a check** when what was asked is written in words
  ("what is x squared?", "three times x", "double x", "x plus five"): "5 * 5 = 25" after
  "x = 5" has only numbers of the check-line rule (the value, and 25 = value + 20), so the
  line was read as a check and the cache served the bare solution "x = 7" for the new
  constant, dropping what was asked.
"""

from __future__ import annotations

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook
from tests.security.test_attack_round5_equations import Case, _assert_answers, _lines, _served

SIDES = ("langchain", "langchain-stream", "llama_index")


def _asked(question: str, old_line: str, new_line: str) -> Case:
    return Case(
        f"If 3x + 5 = 20, {question}",
        f"3x + 5 = 20\n3x = 15\nx = 5\n{old_line}",
        f"If 3x + 5 = 26, {question}",
        f"3x + 5 = 26\n3x = 21\nx = 7\n{new_line}",
    )


ASKED_IN_WORDS = [
    _asked("what is x squared?", "5 * 5 = 25", "7 * 7 = 49"),
    _asked("what is x times x?", "5 * 5 = 25", "7 * 7 = 49"),
    _asked("what is three times x?", "3 * 5 = 15", "3 * 7 = 21"),
    _asked("what is double x?", "5 + 5 = 10", "7 + 7 = 14"),
    _asked("what is x plus five?", "5 + 5 = 10", "7 + 5 = 12"),
    _asked("what is x plus twenty?", "5 + 20 = 25", "7 + 20 = 27"),
]


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("case", ASKED_IN_WORDS, ids=lambda c: c.new)
def test_what_is_asked_in_words_after_solving_is_never_dropped_as_a_check(
    case: Case, side: str
) -> None:
    served, _ = _served(case, side)
    _assert_answers(case, served)


# -- algebra in words after a dash, read as the equation's end -------------------------------
#
# "= 20 - half of x" (a spaced dash and two words) was read as "= 20", and "= 20 - x over
# two" / "x divided by two" / "x times two" as "= 20 - x": the oracle's right answer
# (x = 30/7) was "corrected" to the canonical steps of the equation read in part (x = 5 or
# x = 3.75) and served as passed, fresh or after a cached neighbour.

WORDS_AFTER_DASH = [
    ("3x + 5 = 20 - x over two", "3x + 5 = 20 - x/2\n3.5x = 15\nx = 30/7"),
    ("3x + 5 = 20 - x over 2", "3x + 5 = 20 - x/2\n3.5x = 15\nx = 30/7"),
    ("3x + 5 = 20 - x divided by two", "3x + 5 = 20 - x/2\n3.5x = 15\nx = 30/7"),
    ("3x + 5 = 20 - half of x", "3x + 5 = 20 - x/2\n3.5x = 15\nx = 30/7"),
    ("3x + 5 = 20 - half the x", "3x + 5 = 20 - x/2\n3.5x = 15\nx = 30/7"),
]


@pytest.mark.parametrize("side", ("langchain", "llama_index"))
@pytest.mark.parametrize(
    ("equation", "right"), WORDS_AFTER_DASH, ids=[e for e, _ in WORDS_AFTER_DASH]
)
def test_algebra_in_words_after_a_dash_is_never_cut_off_fresh(
    equation: str, right: str, side: str
) -> None:
    """Asked fresh (a miss): the oracle's right answer is served as it wrote it."""
    request = f"Solve for x: {equation}"
    book = AnswerBook({request: right})
    if side == "langchain":
        served = str(
            StepCacheLLM(llm=book.chat_model(), step_cache=StepCache()).invoke(request).content
        )
    else:
        served = (
            LlamaStepCacheLLM(llm=book.llama_llm(), step_cache=StepCache()).complete(request).text
        )
    assert _lines(served) == _lines(right), f"{request!r}: served {served!r}, the oracle {right!r}"


CACHED_WORDS_AFTER_DASH = [
    Case(
        "Solve for x: 3x + 5 = 20 - x times two",
        "3x + 5 = 20 - 2x\n5x = 15\nx = 3",
        "Solve for x: 3x + 5 = 25 - x times two",
        "3x + 5 = 25 - 2x\n5x = 20\nx = 4",
    ),
    Case(
        "Solve for x: 3x + 5 = 20",
        "3x + 5 = 20\n3x = 15\nx = 5",
        "Solve for x: 3x + 5 = 20 - x over two",
        "3x + 5 = 20 - x/2\n3.5x = 15\nx = 30/7",
    ),
]


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("case", CACHED_WORDS_AFTER_DASH, ids=lambda c: c.new)
def test_algebra_in_words_after_a_dash_is_never_cut_off_after_a_cached_neighbour(
    case: Case, side: str
) -> None:
    served, _ = _served(case, side)
    _assert_answers(case, served)
