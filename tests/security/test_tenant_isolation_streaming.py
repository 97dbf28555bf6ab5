"""Promise: two tenants never share an answer, on every LangChain call path.

Each test caches an answer for tenant ``acme`` and then asks the same question as tenant
``globex`` through one path where LangChain streams the wrapper implicitly (or batches it):
``globex`` must get its own answer from the model, never ``acme``'s from the cache.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableConfig, RunnableLambda

from stepcache_integrations import StepCache, StepCacheLLM
from tests.conftest import ScriptedChatModel, StreamingHandler

QUESTION = "What was my last invoice?"


def tenant(name: str) -> RunnableConfig:
    return RunnableConfig(metadata={"stepcache_tenant": name})


def setup() -> tuple[StepCacheLLM, list[str]]:
    served: list[str] = []

    def respond(messages: list[BaseMessage]) -> str:
        served.append("model")
        return f"Answer #{len(served)} from the model."

    model = ScriptedChatModel(responder=respond)
    llm = StepCacheLLM(llm=model, step_cache=StepCache(), tenant="acme")
    first = llm.invoke(QUESTION, config=tenant("acme"))
    assert first.response_metadata["stepcache"]["decision"] == "miss"
    return llm, served


def check(message: Any) -> None:
    record = message.response_metadata["stepcache"]
    assert record["tenant"] == "globex"
    assert record["decision"] == "miss"
    assert "Answer #2" in str(message.content)


def test_invoke_with_stream_true() -> None:
    llm, _ = setup()
    check(llm.invoke(QUESTION, config=tenant("globex"), stream=True))


async def test_ainvoke_with_stream_true() -> None:
    llm, _ = setup()
    check(await llm.ainvoke(QUESTION, config=tenant("globex"), stream=True))


def test_a_streaming_callback_handler_as_langgraph_message_streaming_uses() -> None:
    llm, _ = setup()
    handler = StreamingHandler()
    config = RunnableConfig(metadata={"stepcache_tenant": "globex"}, callbacks=[handler])
    check(llm.invoke(QUESTION, config=config))
    assert handler.tokens  # it was streamed


async def test_astream_events_over_a_chain_that_calls_invoke() -> None:
    llm, _ = setup()

    def ask(question: str, config: RunnableConfig) -> Any:
        return llm.invoke(question, config=config)

    chain = RunnableLambda(ask)
    events = [
        e async for e in chain.astream_events(QUESTION, config=tenant("globex"), version="v2")
    ]
    [end] = [e for e in events if e["event"] == "on_chain_end" and e["name"] == "ask"]
    check(end["data"]["output"])


async def test_astream_events_over_an_lcel_pipeline() -> None:
    llm, _ = setup()
    chain = ChatPromptTemplate.from_messages([("human", "{q}")]) | llm
    events = [
        e
        async for e in chain.astream_events({"q": QUESTION}, config=tenant("globex"), version="v2")
    ]
    ends = [e for e in events if e["event"] == "on_chat_model_end" and e["name"] == "StepCacheLLM"]
    check(ends[0]["data"]["output"])


def test_batch_with_one_config_per_input() -> None:
    llm, _ = setup()
    acme, globex = llm.batch([QUESTION, QUESTION], config=[tenant("acme"), tenant("globex")])
    assert acme.response_metadata["stepcache"]["decision"] == "exact"
    check(globex)


async def test_abatch_with_one_config_per_input() -> None:
    llm, _ = setup()
    acme, globex = await llm.abatch([QUESTION, QUESTION], config=[tenant("acme"), tenant("globex")])
    assert acme.response_metadata["stepcache"]["decision"] == "exact"
    check(globex)


def test_stream_and_astream() -> None:
    llm, _ = setup()
    chunks = list(llm.stream(QUESTION, config=tenant("globex")))
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    check(total)
