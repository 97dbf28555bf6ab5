"""Audits through both wrappers, the LangChain global cache and streaming: the audit re-asks
the wrapped model through its public API (its rate limiter and callbacks apply), tagged as an
audit in traces, and its tokens are counted apart from the requests'."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.globals import set_llm_cache
from langchain_core.messages import BaseMessage
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.span_handlers import SimpleSpanHandler

from stepcache_integrations import StepCache, StepCacheLangChainCache, StepCacheLLM
from stepcache_integrations.core.audit import AuditConfig
from stepcache_integrations.langchain.runs import AUDIT_METADATA_KEY, AUDIT_RUN_NAME, AUDIT_TAG
from stepcache_integrations.llama_index import StepCacheLLM as LlamaIndexStepCacheLLM
from tests.conftest import (
    CountingRateLimiter,
    ScriptedChatModel,
    ScriptedLLM,
    eq,
    last_user_text,
    solve_steps,
)


class Runs(BaseCallbackHandler):
    """Every chat model run a handler sees, with its name, tags and metadata."""

    def __init__(self) -> None:
        self.starts: list[dict[str, Any]] = []

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.starts.append(
            {
                "run_id": run_id,
                "parent": parent_run_id,
                "name": kwargs.get("name"),
                "tags": tags or [],
                "metadata": metadata or {},
            }
        )

    def audits(self) -> list[dict[str, Any]]:
        return [run for run in self.starts if AUDIT_TAG in run["tags"]]


def audited_cache() -> StepCache:
    return StepCache(audit=AuditConfig(rate=1.0, seed=0))


def scripted() -> ScriptedChatModel:
    return ScriptedChatModel(
        responder=lambda messages: solve_steps(last_user_text(messages)),
        rate_limiter=CountingRateLimiter(),
    )


def test_langchain_wrapper_audits_through_the_inner_models_public_api() -> None:
    inner = scripted()
    cache = audited_cache()
    llm = StepCacheLLM(llm=inner, step_cache=cache)
    runs = Runs()
    first = llm.invoke(eq(), config={"callbacks": [runs]})
    hit = llm.invoke(eq(), config={"callbacks": [runs]})
    assert hit.response_metadata["stepcache"]["decision"] == "exact"
    assert hit.content == first.content  # served as ever
    assert cache.drain_audits(10)
    [audit] = runs.audits()
    assert audit["name"] == AUDIT_RUN_NAME and audit["metadata"][AUDIT_METADATA_KEY] is True
    wrapper_runs = [run["run_id"] for run in runs.starts if run["parent"] is None]
    assert audit["parent"] == wrapper_runs[-1]  # nested under the audited call's run
    assert len(inner.calls) == 2 and inner.rate_limiter.acquired == 2  # type: ignore[union-attr]
    stats = cache.stats()
    audit_stats = stats["audit"]
    assert audit_stats["outcomes"]["agree"] == 1 and audit_stats["tokens_used"] > 0
    # The requests' tokens are the miss's alone: the audit's are counted apart.
    assert stats["tokens_used"] == first.usage_metadata["total_tokens"]  # type: ignore[index]
    assert {row["kind"] for row in cache.audit_report()["kinds"]} == {"linear_equation/exact"}
    cache.close()


async def test_langchain_wrapper_async_and_streaming_calls_are_audited() -> None:
    inner = scripted()
    cache = audited_cache()
    llm = StepCacheLLM(llm=inner, step_cache=cache)
    await llm.ainvoke(eq())
    await llm.ainvoke(eq())  # exact
    streamed = "".join(str(chunk.content) for chunk in llm.stream(eq(v="y")))  # reuse, streamed
    async_streamed = [chunk async for chunk in llm.astream(eq(v="y"))]  # exact, streamed
    assert streamed and async_streamed
    assert cache.drain_audits(10)
    stats = cache.audit_stats()
    assert stats is not None and stats["queued"] == 3 and stats["outcomes"]["agree"] == 3
    kinds = {row["kind"] for row in cache.audit_report()["kinds"]}
    assert kinds == {"linear_equation/exact", "linear_equation/value"}
    cache.close()


@pytest.fixture
def spans() -> Iterator[SimpleSpanHandler]:
    root = get_dispatcher()
    handler = SimpleSpanHandler()
    root.add_span_handler(handler)
    yield handler
    root.span_handlers.remove(handler)


def test_llama_index_wrapper_audits_in_a_span_of_its_own(spans: SimpleSpanHandler) -> None:
    inner = ScriptedLLM()
    cache = audited_cache()
    llm = LlamaIndexStepCacheLLM(llm=inner, step_cache=cache)
    message = [ChatMessage(role=MessageRole.USER, content=eq())]
    first = llm.chat(message)
    hit = llm.chat(message)
    assert hit.additional_kwargs["stepcache"]["decision"] == "exact"
    assert hit.message.content == first.message.content
    streamed = list(llm.stream_chat(message))  # exact, streamed
    assert streamed[-1].message.content == first.message.content
    assert cache.drain_audits(10)
    audits = [s for s in spans.completed_spans if s.id_.startswith("StepCacheLLM.stepcache_audit-")]
    assert len(audits) == 2 and all(span.parent_id is None for span in audits)
    inner_spans = [s for s in spans.completed_spans if s.parent_id in {a.id_ for a in audits}]
    assert len(inner_spans) == 2  # the inner model's own call, inside each audit's span
    assert len(inner.calls) == 3
    stats = cache.audit_stats()
    assert stats is not None and stats["outcomes"]["agree"] == 2
    cache.close()


def test_the_langchain_global_cache_audits_with_the_models_it_is_given() -> None:
    runs = Runs()
    inner = scripted()
    inner.callbacks = [runs]  # a LangChain cache never sees a call's own callbacks
    cache = audited_cache()
    global_cache = StepCacheLangChainCache(cache, audit_models=[inner])
    set_llm_cache(global_cache)
    try:
        first = inner.invoke(eq())
        hit = inner.invoke(eq())
        assert hit.response_metadata["stepcache"]["decision"] == "exact"
        assert hit.content == first.content
        assert cache.drain_audits(10)
    finally:
        set_llm_cache(None)
    # The audit really asked the model (its own cache lookup stood aside), tagged.
    assert len(inner.calls) == 2
    [audit] = runs.audits()
    assert audit["name"] == AUDIT_RUN_NAME and audit["parent"] is None
    stats = cache.audit_stats()
    assert stats is not None and stats["outcomes"]["agree"] == 1
    assert inner.rate_limiter.acquired == 2  # type: ignore[union-attr]
    cache.close()


def test_the_global_cache_without_a_matching_model_counts_the_audit_unaskable() -> None:
    inner = scripted()
    other = ScriptedChatModel(responder=lambda messages: "unused", model_name="other")
    cache = audited_cache()
    set_llm_cache(StepCacheLangChainCache(cache, audit_models=[other]))
    try:
        inner.invoke(eq())
        inner.invoke(eq())
        assert cache.drain_audits(10)
    finally:
        set_llm_cache(None)
    stats = cache.audit_stats()
    assert stats is not None and stats["unaskable"] == 1 and len(other.calls) == 0
    assert sum(stats["outcomes"].values()) == 0
    assert len(inner.calls) == 1
    cache.close()
