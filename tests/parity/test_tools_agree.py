"""Tool-calling scenarios through both framework adapters: they must behave the same.

The same SIMULATED brain answers behind a LangChain and a LlamaIndex wrapper; each scenario
is a sequence of conversations (a user turn, or a user turn, the model's call and a tool
result), and the decisions, texts and calls must agree. The world's tools are declared pure
(LangChain: in their metadata; LlamaIndex: ``pure_tools=``), except in the scenarios marked
otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock

from stepcache_integrations import StepCache, StepCacheLLM, StepCacheRecord
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.agents.support import PURE, Counter, World, langchain_brain, llama_model
from tests.conftest import ScriptedToolModel

Call = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Turn:
    """A conversation to send: the user's request, and optionally the model's call and the
    tool's result (then the model answers that result)."""

    user: str
    call: Call | None = None
    result: str | None = None


@dataclass(frozen=True)
class Outcome:
    decision: str
    text: str
    calls: list[Call]
    ids: list[str]


class Adapter(Protocol):
    counter: Counter

    def send(self, turn: Turn) -> Outcome: ...


class LangChainSide:
    def __init__(self, pure: bool = True) -> None:
        self.counter = Counter()
        self.records: list[StepCacheRecord] = []
        cache = StepCache()
        cache.add_listener(self.records.append)
        model = ScriptedToolModel(responder=langchain_brain(self.counter))
        tools = World().langchain_tools(pure)
        self.llm = StepCacheLLM(llm=model, step_cache=cache).bind_tools(tools)

    def send(self, turn: Turn) -> Outcome:
        messages: list[BaseMessage] = [HumanMessage(turn.user)]
        if turn.call is not None:
            name, args = turn.call
            messages.append(AIMessage("", tool_calls=[{"name": name, "args": args, "id": "t1"}]))
            messages.append(ToolMessage(str(turn.result), tool_call_id="t1"))
        answer = self.llm.invoke(messages)
        assert isinstance(answer, AIMessage)
        return Outcome(
            self.records[-1].decision,
            answer.text,
            [(c["name"], c["args"]) for c in answer.tool_calls],
            [str(c["id"]) for c in answer.tool_calls],
        )


class LlamaIndexSide:
    def __init__(self, pure: bool = True) -> None:
        self.counter = Counter()
        self.records: list[StepCacheRecord] = []
        cache = StepCache()
        cache.add_listener(self.records.append)
        self.llm = LlamaStepCacheLLM(
            llm=llama_model(self.counter), step_cache=cache, pure_tools=PURE if pure else ()
        )
        self.tools = World().llama_tools()

    def send(self, turn: Turn) -> Outcome:
        messages = [ChatMessage(role="user", content=turn.user)]
        if turn.call is not None:
            name, args = turn.call
            block = ToolCallBlock(tool_call_id="t1", tool_name=name, tool_kwargs=args)
            messages.append(ChatMessage(role="assistant", blocks=[block]))
            messages.append(
                ChatMessage(
                    role="tool", content=str(turn.result), additional_kwargs={"tool_call_id": "t1"}
                )
            )
        response = self.llm.chat(messages, tools=self.tools)
        selections = self.llm.get_tool_calls_from_response(response, error_on_no_tool_call=False)
        return Outcome(
            self.records[-1].decision,
            response.message.content or "",
            [(s.tool_name, dict(s.tool_kwargs)) for s in selections],
            [s.tool_id for s in selections],
        )


PARIS = ("get_weather", {"city": "Paris"})

SCENARIOS: dict[str, list[tuple[Turn, str]]] = {
    "identical request": [
        (Turn("What's the weather in Paris?"), "miss"),
        (Turn("What's the weather in Paris?"), "exact"),
    ],
    "copied value changed": [
        (Turn("What's the weather in Paris?"), "miss"),
        (Turn("What's the weather in Berlin?"), "reuse"),
    ],
    "copied value changed, tools not declared pure": [
        (Turn("What's the weather in Paris?"), "miss"),
        (Turn("What's the weather in Berlin?"), "skip"),  # get_forecast takes a city too
    ],
    "action changed": [
        (Turn("Book a flight to Rome on 2025-07-01"), "miss"),
        (Turn("Cancel the flight to Rome on 2025-07-01"), "skip"),
    ],
    "derived value": [
        (Turn("What's the forecast for Paris tomorrow?"), "miss"),
        (Turn("What's the forecast for Berlin tomorrow?"), "skip"),
    ],
    "after a tool result": [
        (Turn("What's the weather in Paris?", PARIS, "Paris: 18 C"), "miss"),
        (Turn("What's the weather in Paris?", PARIS, "Paris: 18 C"), "exact"),
        (Turn("What's the weather in Paris?", PARIS, "Paris: 25 C"), "skip"),
    ],
    "plain answer with tools bound": [
        (Turn("Tell me a joke about Paris."), "miss"),
        (Turn("Tell me a joke about Paris."), "exact"),
        (Turn("Tell me a joke about Berlin."), "skip"),  # a plain answer: same request only
    ],
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_both_adapters_agree_on_tool_calls(name: str) -> None:
    pure = "not declared pure" not in name
    sides: list[Adapter] = [LangChainSide(pure), LlamaIndexSide(pure)]
    outcomes: list[list[Outcome]] = [
        [side.send(turn) for turn, _ in SCENARIOS[name]] for side in sides
    ]
    langchain, llama_index = outcomes
    expected = [decision for _, decision in SCENARIOS[name]]
    assert [o.decision for o in langchain] == [o.decision for o in llama_index] == expected
    for ours, theirs in zip(langchain, llama_index, strict=True):
        assert (ours.text, ours.calls) == (theirs.text, theirs.calls)
    # Served calls get fresh ids on both sides.
    for outcome in (*langchain, *llama_index):
        assert all(i.startswith("call_") for i in outcome.ids) or outcome.decision == "miss"
    model_calls = [side.counter.calls for side in sides]
    assert model_calls[0] == model_calls[1] == sum(d in ("miss", "skip") for d in expected)


def test_reinstantiated_calls_are_equal_on_both_sides() -> None:
    sides: list[Adapter] = [LangChainSide(), LlamaIndexSide()]
    for side in sides:
        side.send(Turn("Book a flight to Rome on 2025-07-01"))
    moved = [side.send(Turn("Book a flight to Rome on 2025-07-08")) for side in sides]
    assert [o.decision for o in moved] == ["reuse", "reuse"]
    assert (
        moved[0].calls
        == moved[1].calls
        == [("book_flight", {"destination": "Rome", "date": "2025-07-08"})]
    )
