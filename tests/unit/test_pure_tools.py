"""Declaring tools pure: the public API of both frameworks, through the adapter layer's
neutral tool spec (a keyword on each wrapper and the middleware, or a LangChain tool's
metadata), checked arguments, and a declaration that never changes what is cached."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import StructuredTool
from llama_index.core.llms import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.adapter import (
    Conversation,
    Message,
    build_request,
    pure_tool_names,
)
from stepcache_integrations.core.tasks.tool_call import EARLIER_TURNS, PURE, TOOLS
from stepcache_integrations.langchain import PURE_TOOL_METADATA_KEY
from stepcache_integrations.langchain.middleware import StepCacheMiddleware
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import ScriptedToolModel

WEATHER = {"name": "get_weather", "description": "", "parameters": {"type": "object"}}
SEARCH = {"name": "search", "description": "", "parameters": {"type": "object"}}


def get_weather(city: str) -> str:
    """The current weather in a city."""
    return city


def search(query: str) -> str:
    """Search the web."""
    return query


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("get_weather", "pure_tools must be a list of tool names, got the string 'get_weather'"),
        (3, "pure_tools must be a list of tool names, got int"),
        ([""], "pure_tools must hold tool names (non-empty strings) or tools, got ''"),
        ([3], "pure_tools must hold tool names (non-empty strings) or tools, got 3"),
    ],
)
def test_bad_pure_tools_get_a_clear_error_in_every_wrapper(value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        pure_tool_names(value)
    with pytest.raises(ValueError, match="pure_tools must"):
        StepCacheLLM(llm=ScriptedToolModel(responder=lambda m, k: AIMessage("")), pure_tools=value)
    with pytest.raises(ValueError, match="pure_tools must"):
        StepCacheMiddleware(pure_tools=value)
    with pytest.raises(ValueError, match="pure_tools must"):
        LlamaStepCacheLLM(llm=MockFunctionCallingLLM(), pure_tools=value)


def test_tools_stand_for_their_names() -> None:
    langchain_tool = StructuredTool.from_function(get_weather)
    llama_tool = FunctionTool.from_defaults(fn=search)
    assert pure_tool_names([langchain_tool, llama_tool, "other"]) == (
        "get_weather",
        "search",
        "other",
    )
    model = ScriptedToolModel(responder=lambda m, k: AIMessage(""))
    assert StepCacheLLM(llm=model, pure_tools=[langchain_tool]).pure_tools == ["get_weather"]


def test_a_declaration_marks_the_spec_and_shares_the_namespace() -> None:
    conversation = Conversation(
        (Message("system", "Be brief."), Message("user", "Weather in Paris?")),
        tools=(WEATHER, SEARCH),
    )
    plain = build_request(conversation, model={"id": "m"}, tenant=None)
    declared = build_request(conversation, model={"id": "m"}, tenant=None, pure_tools={"search"})
    assert [spec.get(PURE) for spec in declared.options[TOOLS]] == [None, True]
    assert [spec.get(PURE) for spec in plain.options[TOOLS]] == [None, None]
    # What the model answers does not depend on a declaration: entries are shared.
    assert declared.namespace == plain.namespace
    assert declared.options[EARLIER_TURNS] == ["Be brief."]


def _recording_model() -> ScriptedToolModel:
    def respond(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        city = str(messages[-1].content).split()[-1]
        return AIMessage(
            "", tool_calls=[{"name": "get_weather", "args": {"city": city}, "id": "x"}]
        )

    return ScriptedToolModel(responder=respond)


def _bound(model: ScriptedToolModel, pure_tools: list[str]) -> tuple[Runnable[Any, Any], list[Any]]:
    """The wrapper with ``get_weather`` declared pure in its metadata and ``search`` bound."""
    records: list[Any] = []
    cache = StepCache()
    cache.add_listener(records.append)
    pure_tool = StructuredTool.from_function(get_weather, metadata={PURE_TOOL_METADATA_KEY: True})
    wrapper = StepCacheLLM(llm=model, step_cache=cache, pure_tools=pure_tools)
    return wrapper.bind_tools([pure_tool, StructuredTool.from_function(search)]), records


def test_langchain_tool_metadata_declares_it_and_never_reaches_the_inner_model() -> None:
    model = _recording_model()
    llm, records = _bound(model, [])
    llm.invoke("Weather in Paris")
    sent = model.calls[-1][1]
    assert "stepcache_pure_tools" not in sent and len(sent["tools"]) == 2
    llm.invoke("Weather in Berlin")
    # search is bound beside it and not pure: the declaration alone is not enough here.
    assert records[-1].decision == "skip"
    failed = " ".join(v["reason"] for v in records[-1].verdicts if v["outcome"] == "fail")
    assert "search is not pure and other tools are bound" in failed


def test_the_wrapper_keyword_and_the_metadata_add_up() -> None:
    llm, records = _bound(_recording_model(), ["search"])
    llm.invoke("Weather in Paris")
    answer = llm.invoke("Weather in Berlin")
    assert records[-1].decision == "reuse"
    assert isinstance(answer, AIMessage)
    assert answer.tool_calls[0]["args"] == {"city": "Berlin"}
