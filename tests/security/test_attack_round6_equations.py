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

from tests.security.test_attack_round5_equations import Case, _assert_answers, _served

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
