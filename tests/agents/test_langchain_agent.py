"""LangChain 1.x agents (``create_agent``) with a scripted tool-calling model and real tools:
through ``StepCacheLLM``, through ``StepCacheMiddleware``, and through LangChain's global
cache (``set_llm_cache(StepCacheLangChainCache(...))``, the model unwrapped). The world's
tools are declared pure (its brain never chooses a tool by a value), in their metadata or by
``pure_tools=``; the last test shows what the declaration changes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.globals import set_llm_cache
from langchain_core.messages import AIMessage, ToolMessage

from stepcache_integrations import StepCache, StepCacheLangChainCache, StepCacheLLM, StepCacheRecord
from stepcache_integrations.langchain.middleware import StepCacheMiddleware
from tests.agents.support import PURE, Counter, World, langchain_brain, recording_cache
from tests.conftest import ScriptedToolModel

Agent = Any


def wrapped_agent(world: World, counter: Counter, cache: StepCache, pure: bool = True) -> Agent:
    model = ScriptedToolModel(responder=langchain_brain(counter))
    return create_agent(
        model=StepCacheLLM(llm=model, step_cache=cache), tools=world.langchain_tools(pure)
    )


def middleware_agent(world: World, counter: Counter, cache: StepCache, pure: bool = True) -> Agent:
    model = ScriptedToolModel(responder=langchain_brain(counter))
    return create_agent(
        model=model,
        tools=world.langchain_tools(),
        middleware=[StepCacheMiddleware(cache, pure_tools=PURE if pure else ())],
    )


def llm_cache_agent(world: World, counter: Counter, cache: StepCache, pure: bool = True) -> Agent:
    # Sets LangChain's global cache (the caller unsets it). The model string carries no tool
    # metadata: the pure tools are named to the cache.
    set_llm_cache(StepCacheLangChainCache(cache, pure_tools=PURE if pure else ()))
    model = ScriptedToolModel(responder=langchain_brain(counter))
    return create_agent(model=model, tools=world.langchain_tools())


BUILDERS: dict[str, Callable[..., Agent]] = {
    "wrapper": wrapped_agent,  # pure by the tools' metadata
    "middleware": middleware_agent,  # pure by the middleware's pure_tools=
    "llm_cache": llm_cache_agent,
}


class Run:
    """One agent run: its answer, its messages, the model calls it made, its decisions."""

    def __init__(self, agent: Agent, question: str, counter: Counter, records: list[Any]):
        before_calls, before_records = counter.calls, len(records)
        self.state = agent.invoke({"messages": [("user", question)]})
        self.messages = self.state["messages"]
        self.model_calls = counter.calls - before_calls
        self.decisions = [r.decision for r in records[before_records:]]
        self.answer = str(self.messages[-1].content)

    def tool_calls(self) -> list[dict[str, Any]]:
        return [
            {"name": c["name"], "args": c["args"], "id": c["id"]}
            for m in self.messages
            if isinstance(m, AIMessage)
            for c in m.tool_calls
        ]


@pytest.fixture(params=sorted(BUILDERS))
def setup(
    request: pytest.FixtureRequest,
) -> Iterator[tuple[Agent, World, Counter, list[StepCacheRecord]]]:
    world, counter = World(), Counter()
    cache, records = recording_cache()
    try:
        yield BUILDERS[request.param](world, counter, cache), world, counter, records
    finally:
        set_llm_cache(None)


def test_a_repeated_task_makes_no_model_call(setup: Any) -> None:
    agent, world, counter, records = setup
    first = Run(agent, "What's the weather in Paris?", counter, records)
    assert first.model_calls == 2 and first.decisions == ["miss", "miss"]
    second = Run(agent, "What's the weather in Paris?", counter, records)
    assert second.model_calls == 0
    assert second.decisions == ["exact", "exact"]
    assert second.answer == first.answer == "Here is what I found: Paris: 18 C and sunny."
    assert world.asked == ["Paris", "Paris"]  # the tool itself runs every time
    # The same calls, with fresh ids that the tool results answer.
    old, new = first.tool_calls(), second.tool_calls()
    assert [(c["name"], c["args"]) for c in new] == [(c["name"], c["args"]) for c in old]
    assert new[0]["id"] != old[0]["id"]
    results = [m for m in second.messages if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in results] == [new[0]["id"]]
    hits = [m for m in second.messages if isinstance(m, AIMessage)]
    assert all(m.usage_metadata and m.usage_metadata["total_tokens"] == 0 for m in hits)


def test_another_city_reinstantiates_the_tool_call(setup: Any) -> None:
    agent, world, counter, records = setup
    Run(agent, "What's the weather in Paris?", counter, records)
    berlin = Run(agent, "What's the weather in Berlin?", counter, records)
    assert berlin.decisions == ["reuse", "miss"]  # the call re-instantiated, then a new result
    assert berlin.model_calls == 1  # only after the new tool result
    assert [c["args"] for c in berlin.tool_calls()] == [{"city": "Berlin"}]
    assert world.asked == ["Paris", "Berlin"]
    assert berlin.answer == "Here is what I found: Berlin: 12 C and rain."


def test_a_changed_tool_result_is_never_answered_from_the_cache(setup: Any) -> None:
    agent, world, counter, records = setup
    before = Run(agent, "What's the weather in Paris?", counter, records)
    world.weather["Paris"] = "9 C and hail"
    after = Run(agent, "What's the weather in Paris?", counter, records)
    # The call after the new tool result is answered by the model: a miss, or a skip when the
    # embedder finds the cached call after the old result close enough to be checked.
    assert after.decisions[0] == "exact" and after.decisions[1] in ("miss", "skip")
    assert after.model_calls == 1
    assert after.answer == "Here is what I found: Paris: 9 C and hail."
    assert after.answer != before.answer


def test_tools_not_declared_pure_are_not_reinstantiated(builder: str) -> None:
    # Without the declaration, the cache cannot tell that the city never chooses between
    # get_weather and get_forecast (both take it): it asks the model.
    world, counter = World(), Counter()
    cache, records = recording_cache()
    try:
        agent = BUILDERS[builder](world, counter, cache, pure=False)
        Run(agent, "What's the weather in Paris?", counter, records)
        berlin = Run(agent, "What's the weather in Berlin?", counter, records)
    finally:
        set_llm_cache(None)
    assert berlin.decisions == ["skip", "miss"] and berlin.model_calls == 2
    failed = [v["reason"] for v in records[-2].verdicts if v["outcome"] == "fail"]
    assert any("get_forecast" in reason for reason in failed), failed
    assert berlin.answer == "Here is what I found: Berlin: 12 C and rain."


@pytest.fixture(params=sorted(BUILDERS))
def builder(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_a_changed_action_calls_the_model(setup: Any) -> None:
    agent, world, counter, records = setup
    Run(agent, "Book a flight to Rome on 2025-07-01", counter, records)
    moved = Run(agent, "Book a flight to Rome on 2025-07-08", counter, records)
    assert moved.decisions[0] == "reuse" and moved.model_calls == 1
    assert world.booked == [("Rome", "2025-07-01"), ("Rome", "2025-07-08")]
    cancel = Run(agent, "Cancel the flight to Rome on 2025-07-08", counter, records)
    assert cancel.decisions[0] == "skip" and cancel.model_calls == 2
    assert records[-2].reason == "the first cached step failed"  # the call was not carried
    assert world.cancelled == [("Rome", "2025-07-08")]


def test_a_derived_argument_calls_the_model(setup: Any) -> None:
    agent, world, counter, records = setup
    Run(agent, "What's the forecast for Paris tomorrow?", counter, records)
    berlin = Run(agent, "What's the forecast for Berlin tomorrow?", counter, records)
    # The date was derived from "tomorrow", not copied: the model is asked again.
    assert berlin.decisions[0] == "skip" and berlin.model_calls == 2
    assert "'2025-06-02'" in records[-2].verdicts[0]["reason"]  # not in the new request
    assert world.asked == ["Paris@2025-06-02", "Berlin@2025-06-02"]


async def test_async_agent_runs_hit_too(setup: Any) -> None:
    agent, world, counter, records = setup
    question = {"messages": [("user", "What's the weather in Rome?")]}
    first = await agent.ainvoke(question)
    calls = counter.calls
    second = await agent.ainvoke(question)
    assert counter.calls == calls
    assert second["messages"][-1].content == first["messages"][-1].content
    assert [r.decision for r in records[-2:]] == ["exact", "exact"]
    assert world.asked == ["Rome", "Rome"]


def test_streamed_agent_messages_carry_the_cached_tool_calls(setup: Any) -> None:
    agent, world, counter, records = setup
    question = {"messages": [("user", "What's the weather in Paris?")]}
    agent.invoke(question)
    calls = counter.calls
    streamed = list(agent.stream(question, stream_mode="messages"))
    assert counter.calls == calls
    chunks = [message for message, _ in streamed if isinstance(message, AIMessage)]
    assert any(getattr(m, "tool_call_chunks", None) or m.tool_calls for m in chunks), (
        "the cached tool call reached the message stream"
    )
    assert [r.decision for r in records[-2:]] == ["exact", "exact"]
    assert world.asked == ["Paris", "Paris"]
