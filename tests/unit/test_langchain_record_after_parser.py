"""The record after ``| parser`` in an LCEL chain: the two recipes of docs/langchain.md on every
path they are documented for (invoke, batch, stream; callbacks, astream_events)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import Runnable

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.langchain import STEPCACHE_EVENT
from tests.conftest import ScriptedChatModel, last_user_text, solve_steps

PROMPT = ChatPromptTemplate.from_messages(
    [("human", "Solve for {v}: 3{v} + 5 = 20. Show each step as 'Step N:'.")]
)


def solver(messages: list[BaseMessage]) -> str:
    return solve_steps(last_user_text(messages))


def llm() -> StepCacheLLM:
    return StepCacheLLM(llm=ScriptedChatModel(responder=solver), step_cache=StepCache())


def side_by_side(model: StepCacheLLM) -> Runnable[dict[str, str], dict[str, Any]]:
    return (
        PROMPT
        | model
        | {
            "text": StrOutputParser(),
            "stepcache": lambda message: message.response_metadata["stepcache"],
        }
    )


class Records(BaseCallbackHandler):
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kwargs: Any) -> None:
        if name == STEPCACHE_EVENT:
            self.records.append(data)


def test_side_by_side_keeps_the_record_on_invoke_batch_and_stream() -> None:
    chain = side_by_side(llm())
    first = chain.invoke({"v": "x"})
    assert "x = 5" in first["text"] and first["stepcache"]["decision"] == "miss"
    renamed, again = chain.batch([{"v": "y"}, {"v": "x"}])
    assert "y = 5" in renamed["text"] and renamed["stepcache"]["decision"] == "reuse"
    assert again["text"] == first["text"] and again["stepcache"]["decision"] == "exact"
    parts: dict[str, Any] = {}
    for chunk in chain.stream({"v": "k"}):
        for key, value in chunk.items():
            parts[key] = parts.get(key, "") + value if key == "text" else value
    assert "k = 5" in parts["text"]
    assert parts["stepcache"]["decision"] == "reuse"
    assert parts["stepcache"]["tokens_used"] == 0


def test_the_callback_handler_collects_the_records_of_its_call() -> None:
    model = llm()
    chain = PROMPT | model | StrOutputParser()
    chain.invoke({"v": "x"})
    records = Records()
    text = chain.invoke({"v": "y"}, config={"callbacks": [records]})
    assert "y = 5" in text
    assert [r["decision"] for r in records.records] == ["reuse"]
    assert records.records[0]["model_calls"] == 0


async def test_astream_events_carries_the_record() -> None:
    chain = PROMPT | llm() | StrOutputParser()
    decisions = []
    output = None
    async for event in chain.astream_events({"v": "x"}, version="v2"):
        if event["event"] == "on_custom_event" and event["name"] == STEPCACHE_EVENT:
            decisions.append(event["data"]["decision"])
        if event["event"] == "on_chain_end" and event["name"] == "RunnableSequence":
            output = event["data"]["output"]
    assert decisions == ["miss"]
    assert isinstance(output, str) and "x = 5" in output
