"""One tenant's tool calls are never served to another: through the wrapper, the middleware
and LlamaIndex, for identical requests and for re-instantiable ones (the tools are declared
pure, so that a call for another city is re-instantiable)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage

from stepcache_integrations import StepCache, StepCacheLLM, StepCacheRecord
from stepcache_integrations.langchain.middleware import StepCacheMiddleware
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.agents.support import PURE, Counter, World, langchain_brain, llama_model
from tests.conftest import ScriptedToolModel


def config(tenant: str) -> dict[str, Any]:
    return {"metadata": {"stepcache_tenant": tenant}}


@pytest.mark.parametrize("second", ["What's the weather in Paris?", "What's the weather in Rome?"])
def test_wrapper_tool_calls_stay_with_their_tenant(second: str) -> None:
    counter, records = Counter(), []
    cache = StepCache()
    cache.add_listener(records.append)
    model = ScriptedToolModel(responder=langchain_brain(counter))
    llm = StepCacheLLM(llm=model, step_cache=cache).bind_tools(World().langchain_tools(pure=True))
    llm.invoke("What's the weather in Paris?", config=config("acme"))
    other = llm.invoke(second, config=config("globex"))
    assert isinstance(other, AIMessage) and records[-1].decision == "miss"
    assert records[-1].tenant == "globex" and counter.calls == 2
    same = llm.invoke(second, config=config("acme"))
    assert records[-1].tenant == "acme" and records[-1].decision in ("exact", "reuse")
    assert same.tool_calls[0]["args"] == other.tool_calls[0]["args"]


def test_middleware_tool_calls_stay_with_their_tenant() -> None:
    world, counter = World(), Counter()
    records: list[StepCacheRecord] = []
    cache = StepCache()
    cache.add_listener(records.append)
    agent = create_agent(
        model=ScriptedToolModel(responder=langchain_brain(counter)),
        tools=world.langchain_tools(),
        middleware=[StepCacheMiddleware(cache, tenant="acme")],
    )
    question = {"messages": [("user", "What's the weather in Paris?")]}
    agent.invoke(question)  # the middleware's default tenant
    agent.invoke(question, config=config("globex"))  # the call's own tenant wins
    assert [(r.tenant, r.decision) for r in records] == [
        ("acme", "miss"),
        ("acme", "miss"),
        ("globex", "miss"),
        ("globex", "miss"),
    ]
    assert counter.calls == 4
    agent.invoke(question, config=config("acme"))
    assert [r.decision for r in records[-2:]] == ["exact", "exact"] and counter.calls == 4


def test_llama_index_tool_calls_stay_with_their_tenant() -> None:
    counter, records = Counter(), []
    cache = StepCache()
    cache.add_listener(records.append)
    llm = LlamaStepCacheLLM(llm=llama_model(counter), step_cache=cache, pure_tools=PURE)
    tools = World().llama_tools()
    llm.chat_with_tools(tools, user_msg="What's the weather in Paris?", stepcache_tenant="acme")
    llm.chat_with_tools(tools, user_msg="What's the weather in Paris?", stepcache_tenant="globex")
    llm.chat_with_tools(tools, user_msg="What's the weather in Rome?", stepcache_tenant="globex")
    assert [(r.tenant, r.decision) for r in records] == [
        ("acme", "miss"),
        ("globex", "miss"),
        ("globex", "reuse"),  # re-instantiated from globex's own entry
    ]
    assert counter.calls == 2
