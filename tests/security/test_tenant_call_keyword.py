"""Promise: the ``stepcache_tenant=`` call keyword isolates tenants on every LangChain call
path, reaches ``_stream`` without the wrapper's stream context, never reaches the inner
model, and can never be contradicted silently by the configuration's tenant.

Each path caches an answer for ``acme`` and asks the same question as ``globex`` by keyword:
``globex`` must get the model's answer (its own), never ``acme``'s.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from stepcache_integrations import StepCache, StepCacheLLM
from tests.conftest import ScriptedChatModel

QUESTION = "What was my last invoice?"


def setup() -> tuple[StepCacheLLM, ScriptedChatModel]:
    served: list[str] = []

    def respond(messages: list[BaseMessage]) -> str:
        served.append("model")
        return f"Answer #{len(served)} from the model."

    model = ScriptedChatModel(responder=respond)
    llm = StepCacheLLM(llm=model, step_cache=StepCache())
    first = llm.invoke(QUESTION, stepcache_tenant="acme")
    assert first.response_metadata["stepcache"]["decision"] == "miss"
    assert first.response_metadata["stepcache"]["tenant"] == "acme"
    again = llm.invoke(QUESTION, stepcache_tenant="acme")
    assert again.response_metadata["stepcache"]["decision"] == "exact"  # control: cached
    return llm, model


def check(message: Any, model: ScriptedChatModel) -> None:
    record = message.response_metadata["stepcache"]
    assert record["tenant"] == "globex"
    assert record["decision"] == "miss"
    assert "Answer #2" in str(message.content)
    # The keyword is the wrapper's: the inner model never receives it.
    assert all("stepcache_tenant" not in kwargs for kwargs in model.call_kwargs)


def joined(chunks: list[AIMessageChunk]) -> Any:
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total


def test_invoke() -> None:
    llm, model = setup()
    check(llm.invoke(QUESTION, stepcache_tenant="globex"), model)


async def test_ainvoke() -> None:
    llm, model = setup()
    check(await llm.ainvoke(QUESTION, stepcache_tenant="globex"), model)


def test_invoke_streamed_implicitly() -> None:
    llm, model = setup()
    check(llm.invoke(QUESTION, stream=True, stepcache_tenant="globex"), model)


def test_stream() -> None:
    llm, model = setup()
    check(joined(list(llm.stream(QUESTION, stepcache_tenant="globex"))), model)


async def test_astream() -> None:
    llm, model = setup()
    chunks = [chunk async for chunk in llm.astream(QUESTION, stepcache_tenant="globex")]
    check(joined(chunks), model)


def test_bind_and_batch() -> None:
    llm, model = setup()
    check(llm.bind(stepcache_tenant="globex").invoke(QUESTION), model)
    [same] = llm.batch([QUESTION], stepcache_tenant="globex")
    assert same.response_metadata["stepcache"]["decision"] == "exact"  # globex's own now
    assert same.response_metadata["stepcache"]["tenant"] == "globex"


def test_the_keyword_reaches__stream_without_the_wrappers_stream_context() -> None:
    """Called the way langchain-core calls it from ``stream`` (no run manager), but without
    the wrapper's ``stream`` around it: the metadata's tenant cannot be known there (the
    cache is bypassed), the keyword's is."""
    llm, _ = setup()
    messages = [HumanMessage(QUESTION)]
    unknown = list(llm._stream(messages))[-1].message.response_metadata["stepcache"]
    assert unknown["decision"] == "bypass" and unknown["tenant"] is None
    [*_, last] = list(llm._stream(messages, stepcache_tenant="globex"))
    record = last.message.response_metadata["stepcache"]
    assert record["tenant"] == "globex" and record["decision"] == "miss"
    [*_, again] = list(llm._stream(messages, stepcache_tenant="acme"))
    assert again.message.response_metadata["stepcache"]["decision"] == "exact"  # acme's


def test_the_keyword_and_the_metadata_naming_two_tenants_are_refused() -> None:
    llm, model = setup()
    calls = len(model.calls)
    config = RunnableConfig(metadata={"stepcache_tenant": "acme"})
    with pytest.raises(ValueError, match="names two tenants"):
        llm.invoke(QUESTION, config=config, stepcache_tenant="globex")
    with pytest.raises(ValueError, match="names two tenants"):
        list(llm.stream(QUESTION, config=config, stepcache_tenant="globex"))
    assert len(model.calls) == calls  # refused before anything is asked
    # Naming the same tenant twice is one tenant.
    same = llm.invoke(QUESTION, config=config, stepcache_tenant="acme")
    assert same.response_metadata["stepcache"]["decision"] == "exact"


@pytest.mark.parametrize("bad", ["", 42])
def test_a_bad_keyword_tenant_is_a_clear_error(bad: object) -> None:
    llm, _ = setup()
    with pytest.raises(ValueError, match="stepcache_tenant"):
        llm.invoke(QUESTION, stepcache_tenant=bad)


def test_the_keyword_tenant_gets_the_namespace_of_the_metadata_tenant() -> None:
    """One tenant, however it is named: the keyword and the metadata share entries."""
    llm, _ = setup()
    by_metadata = llm.invoke(QUESTION, config=RunnableConfig(metadata={"stepcache_tenant": "acme"}))
    assert by_metadata.response_metadata["stepcache"]["decision"] == "exact"
