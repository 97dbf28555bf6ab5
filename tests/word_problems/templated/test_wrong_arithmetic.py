"""A model that slips in its arithmetic, on the templated corpus: no wrong answer is served
as passed, and none is stored.

The model is the corpus's oracle (simulated: scripted correct answers) except that, in a share
of its calls (decided by a hash of the whole conversation, so a repair may slip again or not),
one equation's result is off by one to three and the wrong value is carried into the rest of
the answer, as a model that miscounts would. Every family goes through a fresh cache of each
wrapper: its base request, then its variants. The cache may serve a slipped answer (it
answers every request), but flagged (``passed=False``) and never stored; every entry it keeps
is right for its own request.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook, ScriptedChatLLM
from tests.word_problems.templated.build import load
from tests.word_problems.templated.harness import (
    by_family,
    final_answer,
    normalise,
    same_but_number_format,
)

# The result of an equation as the oracle writes it: "= 36", "= $6.25", "= 1,200".
_RESULT = re.compile(r"(?<==) ?\$?(\d[\d,]*(?:\.\d+)?)")


def _draw(text: str, purpose: str) -> float:
    digest = hashlib.sha256(f"{purpose}\0{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _slipped(text: str, conversation: str) -> str:
    """``text`` with one equation's result off by one to three, carried forward."""
    results = list(_RESULT.finditer(text))
    if not results:
        return text
    chosen = results[int(_draw(conversation, "which") * len(results))]
    old = chosen.group(1)
    whole, dot, cents = old.replace(",", "").partition(".")
    new = f"{int(whole) + 1 + int(_draw(conversation, 'delta') * 3)}{dot}{cents}"
    start = chosen.start(1)
    later = re.sub(rf"(?<![\d.,]){re.escape(old)}(?![\d,]|\.\d)", new, text[start:])
    return text[:start] + later


class SloppyBook(AnswerBook):
    """The oracle, but wrong in a share ``rate`` of its replies; counts its slips."""

    def __init__(self, answers: dict[str, str], rate: float) -> None:
        super().__init__(answers)
        self.rate = rate
        self.slips = 0

    def reply(self, turns: Sequence[tuple[str, str]]) -> str:
        correct = super().reply(turns)
        conversation = "\n".join(text for _, text in turns)
        if _draw(conversation, "slip") >= self.rate:
            return correct
        slipped = _slipped(correct, conversation)
        self.slips += slipped != correct
        return slipped

    def llama_llm(self) -> ScriptedChatLLM:
        """As the oracle's, with completions answered by :meth:`reply` too (they may slip)."""
        chats = super().llama_llm()
        return ScriptedChatLLM(
            responder=lambda prompt: self.reply([("user", prompt)]),
            chat_responder=chats.chat_responder,
            model_name=chats.model_name,
        )


Ask = Callable[[str], tuple[str, dict[str, Any]]]


def _wrapper(name: str, book: AnswerBook, cache: StepCache) -> Ask:
    if name == "langchain":
        chat = StepCacheLLM(llm=book.chat_model(), step_cache=cache)

        def ask_langchain(prompt: str) -> tuple[str, dict[str, Any]]:
            message = chat.invoke(prompt)
            return str(message.content), dict(message.response_metadata["stepcache"])

        return ask_langchain
    llama = LlamaStepCacheLLM(llm=book.llama_llm(), step_cache=cache)

    def ask_llama_index(prompt: str) -> tuple[str, dict[str, Any]]:
        response = llama.complete(prompt)
        return response.text, dict(response.additional_kwargs["stepcache"])

    return ask_llama_index


def test_a_slipped_result_is_carried_forward() -> None:
    answer = (
        "Ana buys 3 pens at $2 each, so 3 * $2 = $6.\nShe pays $6 + $1 = $7.\nSo the answer is $7."
    )
    seen = set()
    for seed in "abcdefgh":
        first, second, last = _slipped(answer, seed).splitlines()
        assert first.startswith("Ana buys 3 pens at $2 each, so 3 * $2 = $")
        one = first.removesuffix(".").rsplit("$", 1)[1]
        if one == "6":  # the second result slipped: the final line says the wrong value too
            two = second.removesuffix(".").rsplit("$", 1)[1]
            assert second.startswith("She pays $6 + $1 = $") and two != "7"
        else:  # the first slipped: the next step adds to the wrong value
            assert int(one) in (7, 8, 9) and second.startswith(f"She pays ${one} + $1 = $7.")
            two = "7"
        assert last == f"So the answer is ${two}."
        seen.add(one == "6")
    assert seen == {True, False}  # both equations get slips across seeds


@pytest.mark.parametrize("wrapper", ["langchain", "llama_index"])
@pytest.mark.parametrize("rate", [0.3, 0.7])
def test_wrong_arithmetic_is_never_served_as_passed_or_stored(wrapper: str, rate: float) -> None:
    variants = load()
    truth = {v.prompt: v.truth for v in variants}
    oracle = {v.prompt: v.oracle for v in variants}
    outcomes: Counter[str] = Counter()
    slips = 0
    for members in by_family(variants).values():
        book = SloppyBook(oracle, rate)
        cache = StepCache()
        ask = _wrapper(wrapper, book, cache)
        checked: set[str] = set()
        for variant in members:
            served, record = ask(variant.prompt)
            if "word_problem" not in (record["task"] or ()):
                # No family recognised the request, so none checks its arithmetic: the cache
                # passes it on like any cache (and keeps it for the very same request only).
                outcomes["unrecognised"] += 1
                continue
            checked.add(variant.prompt)
            if final_answer(served) == variant.truth:
                outcomes["right"] += 1
            else:
                assert record["passed"] is False and not record["stored"], (
                    variant.id,
                    served,
                    record,
                )
                outcomes["flagged"] += 1
        slips += book.slips
        for entry in cache.store:
            if entry.prompt not in checked:
                continue
            kept = normalise(entry.answer)
            assert final_answer(entry.answer) == truth[entry.prompt], (entry.prompt, entry.answer)
            expected = normalise(oracle[entry.prompt])
            assert kept == expected or same_but_number_format(kept, expected), (
                entry.prompt,
                entry.answer,
            )
    assert slips > 0 and outcomes["flagged"] > 0  # the model did slip, and the slips were caught
    assert outcomes["right"] > 0
    print(wrapper, rate, dict(outcomes), "slips", slips)
