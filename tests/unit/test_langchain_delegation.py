"""The inner model is called through its public API, nested under the wrapper's run:
callbacks, astream_events, rate limiters and usage callbacks all see the truth."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import get_usage_metadata_callback
from langchain_core.language_models import FakeListLLM
from langchain_core.messages import BaseMessage

from stepcache_integrations import StepCache, StepCacheLLM
from tests.conftest import (
    CountingRateLimiter,
    RunRecorder,
    ScriptedChatModel,
    StreamingHandler,
    eq,
    solve_steps,
)


def solver(messages: list[BaseMessage]) -> str:
    return solve_steps(str(messages[0].content) if len(messages) > 1 else str(messages[-1].content))


def decision(message: Any) -> str:
    return str(message.response_metadata["stepcache"]["decision"])


def wrapper_and_inner(recorder: RunRecorder) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    [wrapper] = [s for s in recorder.starts if s["parent_run_id"] is None]
    inner = [s for s in recorder.starts if s["parent_run_id"] == wrapper["run_id"]]
    return wrapper, inner


def test_inner_run_nests_under_the_wrapper_run_on_every_path() -> None:
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=solver))
    for call in (
        lambda r: llm.invoke("Tell me about Paris.", config={"callbacks": [r]}),
        lambda r: list(llm.stream("Tell me about Rome.", config={"callbacks": [r]})),
        lambda r: llm.invoke("Tell me about Oslo.", config={"callbacks": [r]}, stream=True),
    ):
        recorder = RunRecorder()
        call(recorder)
        wrapper, inner = wrapper_and_inner(recorder)
        assert wrapper["name"] == "StepCacheLLM"
        assert [s["name"] for s in inner] == ["ScriptedChatModel"]
        assert len(recorder.ends) == 2  # both runs end
        assert [name for name, _, run in recorder.custom] == ["stepcache"]
        assert recorder.custom[0][2] == wrapper["run_id"]


async def test_inner_run_nests_under_the_wrapper_run_async() -> None:
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=solver))
    recorder = RunRecorder()
    await llm.ainvoke("Tell me about Paris.", config={"callbacks": [recorder]})
    _, inner = wrapper_and_inner(recorder)
    assert len(inner) == 1
    recorder = RunRecorder()
    [c async for c in llm.astream("Tell me about Rome.", config={"callbacks": [recorder]})]
    _, inner = wrapper_and_inner(recorder)
    assert len(inner) == 1


async def test_astream_events_show_the_inner_model_inside_the_wrapper() -> None:
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=solver))
    events = [e async for e in llm.astream_events("Tell me about Lima.", version="v2")]
    starts = [e for e in events if e["event"] == "on_chat_model_start"]
    assert [e["name"] for e in starts] == ["StepCacheLLM", "ScriptedChatModel"]
    wrapper_id = starts[0]["run_id"]
    assert starts[1]["parent_ids"][-1] == wrapper_id
    assert [e["name"] for e in events if e["event"] == "on_custom_event"] == ["stepcache"]


def test_a_cache_hit_is_the_wrapper_run_and_its_record_only() -> None:
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=solver))
    llm.invoke(eq())
    recorder = RunRecorder()
    hit = llm.invoke(eq("y"), config={"callbacks": [recorder]})
    assert decision(hit) == "reuse"
    assert recorder.names() == ["StepCacheLLM"]
    assert len(recorder.ends) == 1
    assert [(name, data["decision"]) for name, data, _ in recorder.custom] == [
        ("stepcache", "reuse")
    ]


def test_rate_limiter_is_acquired_once_per_model_call_and_never_on_a_hit() -> None:
    limiter = CountingRateLimiter()
    model = ScriptedChatModel(responder=solver, rate_limiter=limiter)
    llm = StepCacheLLM(llm=model)
    llm.invoke(eq())  # miss: one call
    llm.invoke(eq())  # exact
    llm.invoke(eq("y"))  # reuse
    list(llm.stream(eq("z")))  # reuse, streamed
    list(llm.stream("Tell me about Quito."))  # miss, streamed: one call
    llm.invoke("Tell me about Bern.", stream=True)  # miss, implicit stream: one call
    assert len(model.calls) == 3
    assert limiter.acquired == 3


async def test_rate_limiter_async() -> None:
    limiter = CountingRateLimiter()
    model = ScriptedChatModel(responder=solver, rate_limiter=limiter)
    llm = StepCacheLLM(llm=model)
    await llm.ainvoke(eq())
    await llm.ainvoke(eq("q"))
    [c async for c in llm.astream("Tell me about Kyiv.")]
    assert limiter.acquired == len(model.calls) == 2


def test_usage_callback_counts_the_tokens_really_spent_once() -> None:
    model = ScriptedChatModel(responder=solver)
    llm = StepCacheLLM(llm=model)
    with get_usage_metadata_callback() as usage:
        first = llm.invoke(eq())
        hit = llm.invoke(eq("y"))
        streamed = list(llm.stream("Tell me about Accra."))
    streamed_total = streamed[0]
    for chunk in streamed[1:]:
        streamed_total = streamed_total + chunk
    spent = (first.usage_metadata or {})["total_tokens"]
    spent += (streamed_total.usage_metadata or {})["total_tokens"]
    assert (hit.usage_metadata or {})["total_tokens"] == 0
    assert spent > 0
    counted = sum(u["total_tokens"] for u in usage.usage_metadata.values())
    assert counted == spent
    assert list(usage.usage_metadata) == ["scripted-1"]  # the model that spent them


def test_a_streaming_handler_gets_the_wrapper_tokens_once() -> None:
    model = ScriptedChatModel(responder=lambda m: "one two three")
    llm = StepCacheLLM(llm=model)
    handler = StreamingHandler()
    message = llm.invoke("Tell me about Dakar.", config={"callbacks": [handler]})
    wrapper, [inner] = wrapper_and_inner(handler)
    wrapper_tokens = "".join(t for run, t in handler.tokens if run == wrapper["run_id"])
    assert wrapper_tokens == message.content == "one two three"
    assert decision(message) == "miss"
    # LangGraph's message streaming skips runs tagged "nostream": a graph streams the
    # wrapper's tokens, not the inner model's a second time.
    assert "nostream" in inner["tags"] and "nostream" not in wrapper["tags"]


def test_a_completion_model_is_called_through_its_public_api() -> None:
    completion = FakeListLLM(responses=["Paris is big."])
    llm = StepCacheLLM(llm=completion)
    recorder = RunRecorder()
    answer = llm.invoke("Tell me about Paris.", config={"callbacks": [recorder]})
    _, inner = wrapper_and_inner(recorder)
    assert [s["name"] for s in inner] == ["FakeListLLM"]
    assert answer.content == "Paris is big."
    chunks = list(llm.stream("Tell me about Paris, then."))
    assert "".join(str(c.content) for c in chunks) == "Paris is big."


def test_the_inner_model_tracing_metadata_reaches_its_run() -> None:
    cache = StepCache()
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=solver), step_cache=cache)
    recorder = RunRecorder()
    llm.invoke(eq(), config={"callbacks": [recorder], "metadata": {"user": "ana"}})
    _, [inner] = wrapper_and_inner(recorder)
    assert inner["metadata"]["user"] == "ana"
