"""The paths a word-problem attack runs on: ``invoke``, ``stream`` and ``ainvoke`` of the
LangChain ``StepCacheLLM``, LangChain's global cache (``set_llm_cache``) and the LlamaIndex
``StepCacheLLM``, each over a fresh ``StepCache`` and the oracle (``AnswerBook``, SIMULATED:
every answer right)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from langchain_core.globals import set_llm_cache

from stepcache_integrations import StepCache, StepCacheLangChainCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook

__all__ = ["PATHS", "Case", "served_after"]

Case = tuple[str, str, str, str]  # cached request, its answer, new request, its answer

Ask = Callable[[str], tuple[str, str]]


def _invoke(book: AnswerBook) -> Ask:
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())

    def ask(prompt: str) -> tuple[str, str]:
        message = llm.invoke(prompt)
        return str(message.content), str(message.response_metadata["stepcache"]["decision"])

    return ask


def _stream(book: AnswerBook) -> Ask:
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())

    def ask(prompt: str) -> tuple[str, str]:
        chunks = list(llm.stream(prompt))
        text = "".join(str(chunk.content) for chunk in chunks)
        records = [c.response_metadata.get("stepcache") for c in chunks]
        record: dict[str, Any] = next(r for r in reversed(records) if r)
        return text, str(record["decision"])

    return ask


def _ainvoke(book: AnswerBook) -> Ask:
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())

    def ask(prompt: str) -> tuple[str, str]:
        message = asyncio.run(llm.ainvoke(prompt))
        return str(message.content), str(message.response_metadata["stepcache"]["decision"])

    return ask


def _global_cache(book: AnswerBook) -> Ask:
    cache = StepCacheLangChainCache(StepCache())
    model = book.chat_model()

    def ask(prompt: str) -> tuple[str, str]:
        set_llm_cache(cache)
        try:
            message = model.invoke(prompt)
        finally:
            set_llm_cache(None)
        record = message.response_metadata.get("stepcache") or {"decision": "miss"}
        return str(message.content), str(record["decision"])

    return ask


def _llama_index(book: AnswerBook) -> Ask:
    llm = LlamaStepCacheLLM(llm=book.llama_llm(), step_cache=StepCache())

    def ask(prompt: str) -> tuple[str, str]:
        response = llm.complete(prompt)
        return response.text, str(response.additional_kwargs["stepcache"]["decision"])

    return ask


PATHS: dict[str, Callable[[AnswerBook], Ask]] = {
    "invoke": _invoke,
    "stream": _stream,
    "ainvoke": _ainvoke,
    "global_cache": _global_cache,
    "llama_index": _llama_index,
}


def served_after(case: Case, path: str) -> tuple[str, str]:
    """What ``path`` serves for the new request of ``case`` (answer, decision), its cached
    request asked first through the same fresh cache, the oracle behind both."""
    cached, cached_answer, new, new_answer = case
    ask = PATHS[path](AnswerBook({cached: cached_answer, new: new_answer}))
    ask(cached)
    return ask(new)


def assert_never_served_stale(case: Case, path: str) -> None:
    """``path`` answers the new request of ``case`` as the oracle does, from the model (never
    from the cache: the cached computation no longer holds)."""
    served, decision = served_after(case, path)
    assert served.split() == case[3].split(), (decision, served)
    assert decision not in ("reuse", "patch", "exact"), decision


def assert_still_reused(case: Case, path: str) -> None:
    """``path`` serves the oracle's answer to the new request of ``case`` by reuse (a control:
    a fix that refuses everything fails it)."""
    served, decision = served_after(case, path)
    assert served.split() == case[3].split(), (decision, served)
    assert decision == "reuse", (decision, served)
