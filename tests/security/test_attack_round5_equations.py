"""Round 5 of the outside attack on the linear-equation family (issue 33's redesign).

Each case caches one request with the answer of an ORACLE model (SIMULATED: it answers every
request correctly, by the values written here), then asks a second request that differs only
in the equation's constants. Anything wrong in what the cache serves was made by the cache.

The classes, each a test of its own below:

- **a number the request states outside its equation** ("what is x - 20?", "what is 4x?"):
  the answer's "x - 20 = -15" was re-instantiated as "x - 26 = -19" once the equation's 20
  became 26 (the rewriter traced the request's own 20 to the equation's constant), and
  "4x = 12" as "6x = 12" once the constant 4 became 6. Every claim held for the new x, and
  none answered what was asked. The rewriter now reads such a number as itself.
- **arithmetic after the solution that is no check of it** ("what is 4 times x?" answered
  "x = 5" then "4 · 5 = 20"): the evidence of what was asked read the last line as a check,
  so the solver's continuation served the steps up to "x = 7" and dropped what was asked. A
  line after the value is a check only when its numbers are the equation's and the value's,
  and none of them is a number the request writes outside its equation ("what is x plus
  15?" answered "5 + 15 = 20" reads like a check of 3x + 5 = 20).
- **the correction makes a right answer wrong** where the family reads the request's equation
  in part ("= 20 times 2", "= 20 ± 1", "= 20 thousand", "= 20‰", "= 20 — 4", "3 x + 5 = 20",
  "= 20 (mod 7)", "= 20 or 21"): the oracle's right answer was "corrected" to the equation
  the family read ("3x + 5 = 40" rewritten to "3x + 5 = 20", or the canonical steps of 3x + 5
  = 20) and served as passed. A model that writes the request's variable side equal to
  another constant side solved another equation, which the family does not correct; and
  a symbol against or before a number after the equation, a number right before it, or a
  word the number reader takes into its last number, is an equation read in part.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook


@dataclass(frozen=True)
class Case:
    """A cached request and its oracle answer; a new request and its oracle answer."""

    cached: str
    cached_answer: str
    new: str
    new_answer: str


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _served(case: Case, side: str) -> tuple[str, int]:
    """The answer served for ``case.new`` after ``case.cached`` (one fresh cache), and the
    oracle's calls for it."""
    book = AnswerBook({case.cached: case.cached_answer, case.new: case.new_answer})
    cache = StepCache()
    if side == "langchain":
        model = book.chat_model()
        llm = StepCacheLLM(llm=model, step_cache=cache)
        llm.invoke(case.cached)
        before = len(model.calls)
        return str(llm.invoke(case.new).content), len(model.calls) - before
    if side == "langchain-stream":
        model = book.chat_model()
        llm = StepCacheLLM(llm=model, step_cache=cache)
        llm.invoke(case.cached)
        before = len(model.calls)
        text = "".join(str(chunk.content) for chunk in llm.stream(case.new))
        return text, len(model.calls) - before
    index_model = book.llama_llm()
    index_llm = LlamaStepCacheLLM(llm=index_model, step_cache=cache)
    index_llm.complete(case.cached)
    before = len(index_model.calls)
    return index_llm.complete(case.new).text, len(index_model.calls) - before


SIDES = ("langchain", "langchain-stream", "llama_index")


def _assert_answers(case: Case, served: str) -> None:
    """The served answer closes with the oracle's final claim (what was asked)."""
    assert _lines(served), f"nothing served for {case.new!r}"
    assert _lines(served)[-1] == _lines(case.new_answer)[-1], (
        f"{case.new!r} was served {served!r}; the oracle answers {case.new_answer!r}"
    )


# -- a number the request states outside its equation ----------------------------------------

OUTSIDE = [
    Case(
        "If 3x + 5 = 20, what is x - 20?",
        "3x + 5 = 20\n3x = 15\nx = 5\nx - 20 = -15",
        "If 3x + 5 = 26, what is x - 20?",
        "3x + 5 = 26\n3x = 21\nx = 7\nx - 20 = -13",
    ),
    Case(
        "If 2x + 4 = 10, what is 4x?",
        "2x + 4 = 10\n2x = 6\nx = 3\n4x = 12",
        "If 2x + 6 = 10, what is 4x?",
        "2x + 6 = 10\n2x = 4\nx = 2\n4x = 8",
    ),
    Case(
        "Solve 3x + 5 = 20, then give x + 20.",
        "Subtract 5 from both sides: 3x = 15.\n\nDivide both sides by 3: x = 5.\n\n"
        "Add 20 to both sides: x + 20 = 25.",
        "Solve 3x + 5 = 26, then give x + 20.",
        "Subtract 5 from both sides: 3x = 21.\n\nDivide both sides by 3: x = 7.\n\n"
        "Add 20 to both sides: x + 20 = 27.",
    ),
    Case(
        "Wenn 2x + 4 = 10 ist, was ist 4x?",
        "2x + 4 = 10\n2x = 6\nx = 3\n4x = 12",
        "Wenn 2x + 6 = 10 ist, was ist 4x?",
        "2x + 6 = 10\n2x = 4\nx = 2\n4x = 8",
    ),
]


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("case", OUTSIDE, ids=lambda c: c.new)
def test_a_number_stated_outside_the_equation_is_never_the_changed_constant(
    case: Case, side: str
) -> None:
    served, _ = _served(case, side)
    _assert_answers(case, served)


# -- arithmetic after the solution that is no check of it ------------------------------------

AFTER = [
    Case(
        "If 3x + 5 = 20, what is 4 times x?",
        "3x + 5 = 20\n3x = 15\nx = 5\n4 · 5 = 20",
        "If 3x + 5 = 26, what is 4 times x?",
        "3x + 5 = 26\n3x = 21\nx = 7\n4 · 7 = 28",
    ),
    Case(
        "Solve 3x + 5 = 20 and multiply the result by 4.",
        "3x = 15\n\nx = 5\n\n4 \u00d7 5 = 20",
        "Solve 3x + 5 = 26 and multiply the result by 4.",
        "3x = 21\n\nx = 7\n\n4 \u00d7 7 = 28",
    ),
    # Lines that read like a check of the equation, with the request's own numbers in them.
    Case(
        "If 3x + 5 = 20, what is x plus 15?",
        "3x + 5 = 20\n3x = 15\nx = 5\n5 + 15 = 20",
        "If 3x + 5 = 26, what is x plus 15?",
        "3x + 5 = 26\n3x = 21\nx = 7\n7 + 15 = 22",
    ),
    Case(
        "If 3x + 5 = 20, what is 20 minus x?",
        "3x + 5 = 20\n3x = 15\nx = 5\n20 - 5 = 15",
        "If 3x + 5 = 26, what is 20 minus x?",
        "3x + 5 = 26\n3x = 21\nx = 7\n20 - 7 = 13",
    ),
    Case(
        "If 3x + 5 = 20, how much is 3 times x?",
        "3x + 5 = 20\n3x = 15\nx = 5\n3 * 5 = 15",
        "If 3x + 5 = 26, how much is 3 times x?",
        "3x + 5 = 26\n3x = 21\nx = 7\n3 * 7 = 21",
    ),
    Case(
        "Solve 2x + 3 = 11, then add 6 to the result.",
        "2x = 8\nx = 4\n4 + 6 = 10",
        "Solve 2x + 3 = 13, then add 6 to the result.",
        "2x = 10\nx = 5\n5 + 6 = 11",
    ),
]


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("case", AFTER, ids=lambda c: c.new)
def test_arithmetic_after_the_solution_is_never_dropped_as_a_check(case: Case, side: str) -> None:
    served, _ = _served(case, side)
    _assert_answers(case, served)


def test_a_check_line_after_the_solution_is_still_a_check() -> None:
    """The control: "3(5) + 5 = 20" after "x = 5" checks the value; a changed constant is
    still served without a full answer (its numbers are the equation's and the value's)."""
    case = Case(
        "Solve for x: 3x + 5 = 20",
        "3x + 5 = 20\n3x = 15\nx = 5\nCheck: 3(5) + 5 = 20",
        "Solve for x: 3x + 5 = 26",
        "3x + 5 = 26\n3x = 21\nx = 7\nCheck: 3(7) + 5 = 26",
    )
    served, calls = _served(case, "langchain")
    assert "x = 7" in served and "x = 5" not in served, served
    assert calls == 0, f"a changed constant with a check line called the model: {served!r}"


# -- the correction never makes a right answer wrong -----------------------------------------

READ_IN_PART = [
    ("3x + 5 = 20 times 2", "3x + 5 = 40\n3x = 35\nx = 35/3"),
    ("3x + 5 = 20 \u00b1 1", "3x + 5 = 21 or 3x + 5 = 19\nx = 16/3 or x = 14/3"),
    ("3x + 5 = 20 plus 1", "3x + 5 = 21\n3x = 16\nx = 16/3"),
    ("3x + 5 = 20 mal 2", "3x + 5 = 40\n3x = 35\nx = 35/3"),
    ("3x + 5 = 20 squared", "3x + 5 = 400\n3x = 395\nx = 395/3"),
    ("3 x + 5 = 20", "3x = 15\nx = 5"),
    ("3x + 5 = 20 or 21", "If 3x + 5 = 20: x = 5\nIf 3x + 5 = 21: x = 16/3"),
    ("3x + 5 = 20 thousand", "3x + 5 = 20000\n3x = 19995\nx = 6665"),
    ("3x + 5 = 20 dozen", "3x + 5 = 240\n3x = 235\nx = 235/3"),
    ("3x + 5 = 20 percent", "3x + 5 = 0.2\n3x = -4.8\nx = -1.6"),
    ("3x + 5 = 20 (mod 7)", "3x \u2261 15 \u2261 1 (mod 7)\nx \u2261 5 (mod 7)"),
    ("3x + 5 = 20\u2030", "3x + 5 = 0.02\n3x = -4.98\nx = -1.66"),
    ("3x + 5 = 20 e-1", "3x + 5 = 2\n3x = -3\nx = -1"),
    ("3x + 5 = 20 \u2014 4", "3x + 5 = 16\n3x = 11\nx = 11/3"),
]


@pytest.mark.parametrize("side", ("langchain", "llama_index"))
@pytest.mark.parametrize(("equation", "right"), READ_IN_PART, ids=[e for e, _ in READ_IN_PART])
def test_a_right_answer_is_never_corrected_to_an_equation_read_in_part(
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
        llm = LlamaStepCacheLLM(llm=book.llama_llm(), step_cache=StepCache())
        served = llm.complete(request).text
    assert _lines(served) == _lines(right), f"{request!r}: served {served!r}, the oracle {right!r}"


def test_a_slip_after_restating_the_request_is_still_corrected() -> None:
    """The control: a model that restates the request's equation and slips after it is
    corrected in its own layout (no model answer of another equation is in sight)."""
    request = "Solve for x: 3x + 5 = 20"
    book = AnswerBook({request: "3x + 5 = 20\n3x = 16\nx = 16/3"})
    message = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache()).invoke(request)
    assert _lines(str(message.content)) == ["3x + 5 = 20", "3x = 15", "x = 15/3"]
