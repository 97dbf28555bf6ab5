"""Tool calling goes through the wrapper and its cache: agents keep working, repeated tool
calls are served from the cache with fresh ids."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, ChatResponse
from llama_index.core.llms import MockFunctionCallingLLM
from llama_index.core.llms.function_calling import FunctionCallingLLM
from llama_index.core.tools import FunctionTool
from pydantic import Field

from stepcache_integrations import StepCache, StepCacheRecord
from stepcache_integrations.llama_index import StepCacheFunctionCallingLLM, StepCacheLLM
from tests.conftest import ScriptedLLM


class Pings:
    """A tool that remembers its calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def ping(self, message: str = "pong") -> str:
        """Answer a ping."""
        self.calls.append(message)
        return f"ping says {message}"


class CountingFunctionCallingLLM(MockFunctionCallingLLM):
    """LlamaIndex's scripted function-calling model, counting the messages it gets."""

    seen: list[list[ChatMessage]] = Field(default_factory=list, exclude=True)

    def _prepare_chat_with_tools(
        self, tools: Sequence[Any], *args: Any, **kwargs: Any
    ) -> dict[str, Any]:
        prepared = super()._prepare_chat_with_tools(tools, *args, **kwargs)
        prepared["tool_choice"] = "auto"  # as real integrations add their own arguments
        return prepared

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        self.seen.append(list(messages))
        response: ChatResponse = super().chat(messages, **kwargs)
        return response


@pytest.fixture
def records() -> list[StepCacheRecord]:
    return []


@pytest.fixture
def cache(records: list[StepCacheRecord]) -> StepCache:
    step_cache = StepCache()
    step_cache.add_listener(records.append)
    return step_cache


@pytest.fixture
def pings() -> Pings:
    return Pings()


@pytest.fixture
def tool(pings: Pings) -> FunctionTool:
    return FunctionTool.from_defaults(fn=pings.ping)


def test_wrapper_is_a_function_calling_llm_only_when_the_inner_is() -> None:
    wrapped = StepCacheLLM(llm=MockFunctionCallingLLM())
    assert isinstance(wrapped, StepCacheFunctionCallingLLM)
    assert isinstance(wrapped, FunctionCallingLLM)
    assert wrapped.metadata.is_function_calling_model is True
    plain = StepCacheLLM(llm=ScriptedLLM())
    assert type(plain) is StepCacheLLM
    assert not isinstance(plain, FunctionCallingLLM)
    with pytest.raises(ValueError, match="needs a FunctionCallingLLM"):
        StepCacheFunctionCallingLLM(llm=ScriptedLLM())


def test_chat_with_tools_is_cached_and_tool_calls_are_read_back(
    cache: StepCache, records: list[StepCacheRecord], tool: FunctionTool
) -> None:
    inner = CountingFunctionCallingLLM()
    llm = StepCacheFunctionCallingLLM(llm=inner, step_cache=cache)  # the same, typed
    response = llm.chat_with_tools([tool], user_msg="Please ping.")
    assert response.additional_kwargs["stepcache"]["decision"] == "miss"
    selections = llm.get_tool_calls_from_response(response)
    assert [s.tool_name for s in selections] == ["ping"]
    assert inner.seen[-1][-1].content == "Please ping."
    assert len(cache) == 1
    again = llm.chat_with_tools([tool], user_msg="Please ping.")
    assert again.additional_kwargs["stepcache"]["decision"] == "exact"
    assert len(inner.seen) == 1  # served from the cache
    repeated = llm.get_tool_calls_from_response(again)
    assert [(s.tool_name, s.tool_kwargs) for s in repeated] == [
        (s.tool_name, s.tool_kwargs) for s in selections
    ]
    assert repeated[0].tool_id != selections[0].tool_id  # a fresh call id
    with pytest.raises(ValueError, match="at least one tool call"):
        llm.get_tool_calls_from_response(llm.chat([ChatMessage(role="user", content="Hi")]))


def test_predict_and_call_runs_the_tool(
    cache: StepCache, records: list[StepCacheRecord], tool: FunctionTool, pings: Pings
) -> None:
    llm = StepCacheLLM(llm=MockFunctionCallingLLM(), step_cache=cache)
    output = llm.predict_and_call([tool], user_msg="Please ping.")
    assert pings.calls == ["pong"]
    assert "ping says pong" in str(output)
    assert [r.decision for r in records] == ["miss"]
    llm.predict_and_call([tool], user_msg="Please ping.")
    assert pings.calls == ["pong", "pong"]  # the tool runs again; its call came from the cache
    assert [r.decision for r in records] == ["miss", "exact"]


async def test_async_chat_with_tools(
    cache: StepCache, records: list[StepCacheRecord], tool: FunctionTool
) -> None:
    llm = StepCacheLLM(llm=MockFunctionCallingLLM(), step_cache=cache)
    assert isinstance(llm, StepCacheFunctionCallingLLM)
    response = await llm.achat_with_tools([tool], user_msg="Please ping.")
    assert [s.tool_name for s in llm.get_tool_calls_from_response(response)] == ["ping"]
    stream = await llm.astream_chat_with_tools([tool], user_msg="Please ping.")
    chunks = [chunk async for chunk in stream]
    # The closing chunk is the inner model's last one, enriched: it still holds the calls.
    assert [s.tool_name for s in llm.get_tool_calls_from_response(chunks[-1])] == ["ping"]
    assert chunks[-1].additional_kwargs["stepcache"]["decision"] == "exact"
    assert [r.decision for r in records] == ["miss", "exact"]


@pytest.mark.parametrize("streaming", [True, False])
async def test_function_agent_keeps_working(
    cache: StepCache,
    records: list[StepCacheRecord],
    tool: FunctionTool,
    pings: Pings,
    streaming: bool,
) -> None:
    llm = StepCacheLLM(llm=MockFunctionCallingLLM(), step_cache=cache)
    agent = FunctionAgent(tools=[tool], llm=llm, streaming=streaming)
    result = await agent.run("Please ping.")
    assert pings.calls == ["pong"]
    assert "Tool calls complete." in str(result)
    assert [r.decision for r in records] == ["miss", "miss"]
    again = await agent.run("Please ping.")
    assert str(again) == str(result) and pings.calls == ["pong", "pong"]
    assert [r.decision for r in records] == ["miss", "miss", "exact", "exact"]


def test_plain_chat_through_a_function_calling_wrapper_is_cached(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    llm = StepCacheLLM(llm=MockFunctionCallingLLM(), step_cache=cache)
    first = llm.chat([ChatMessage(role="user", content="Describe Lisbon.")])
    second = llm.chat([ChatMessage(role="user", content="Describe Lisbon.")])
    assert [r.decision for r in records] == ["miss", "exact"]
    assert second.message.content == first.message.content == "Describe Lisbon."


def test_tool_results_in_the_conversation_are_part_of_the_request(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    llm = StepCacheLLM(llm=MockFunctionCallingLLM(), step_cache=cache)

    def ask(result: str) -> ChatResponse:
        return llm.chat(
            [
                ChatMessage(role="user", content="Please ping."),
                ChatMessage(role="tool", content=result, additional_kwargs={"tool_call_id": "1"}),
                ChatMessage(role="user", content="And now?"),
            ]
        )

    ask("ping says pong")
    ask("ping says pong")
    ask("ping says nothing")
    assert [r.decision for r in records] == ["miss", "exact", "miss"]
