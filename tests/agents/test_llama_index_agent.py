"""LlamaIndex agents (``FunctionAgent``, ``ReActAgent``) through ``StepCacheLLM`` with scripted
models and real tools (declared pure, ``pure_tools=``: the brain never chooses by a value)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent, ReActAgent
from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock

from stepcache_integrations.llama_index import StepCacheLLM
from tests.agents.support import PURE, Counter, World, llama_model, recording_cache
from tests.conftest import ScriptedLLM


class Runner:
    """Runs one agent task at a time, counting the model calls and decisions of each run."""

    def __init__(self, streaming: bool, pure: bool = True) -> None:
        self.world, self.counter = World(), Counter()
        self.cache, self.records = recording_cache()
        llm = StepCacheLLM(
            llm=llama_model(self.counter), step_cache=self.cache, pure_tools=PURE if pure else ()
        )
        self.agent = FunctionAgent(tools=self.world.llama_tools(), llm=llm, streaming=streaming)

    async def run(self, question: str) -> tuple[str, int, list[str]]:
        calls, seen = self.counter.calls, len(self.records)
        answer = await self.agent.run(question)
        decisions = [r.decision for r in self.records[seen:]]
        return str(answer), self.counter.calls - calls, decisions


@pytest.fixture(params=[False, True], ids=["chat", "streaming"])
def runner(request: pytest.FixtureRequest) -> Runner:
    return Runner(streaming=request.param)


async def test_a_repeated_task_makes_no_model_call(runner: Runner) -> None:
    first, calls, decisions = await runner.run("What's the weather in Paris?")
    assert (calls, decisions) == (2, ["miss", "miss"])
    second, calls, decisions = await runner.run("What's the weather in Paris?")
    assert (calls, decisions) == (0, ["exact", "exact"])
    assert second == first == "Here is what I found: Paris: 18 C and sunny."
    assert runner.world.asked == ["Paris", "Paris"]  # the tool runs on every run


async def test_another_city_reinstantiates_the_tool_call(runner: Runner) -> None:
    await runner.run("What's the weather in Paris?")
    answer, calls, decisions = await runner.run("What's the weather in Berlin?")
    assert decisions == ["reuse", "miss"]
    assert calls == 1  # only after the new tool result
    assert runner.world.asked == ["Paris", "Berlin"]
    assert answer == "Here is what I found: Berlin: 12 C and rain."


async def test_tools_not_declared_pure_are_not_reinstantiated() -> None:
    # get_forecast takes the city too: without the declaration the model is asked again.
    runner = Runner(streaming=False, pure=False)
    await runner.run("What's the weather in Paris?")
    answer, calls, decisions = await runner.run("What's the weather in Berlin?")
    assert (calls, decisions) == (2, ["skip", "miss"])
    assert answer == "Here is what I found: Berlin: 12 C and rain."


async def test_a_changed_tool_result_is_never_answered_from_the_cache(runner: Runner) -> None:
    await runner.run("What's the weather in Paris?")
    runner.world.weather["Paris"] = "9 C and hail"
    answer, calls, decisions = await runner.run("What's the weather in Paris?")
    # The call after the new tool result is answered by the model: a miss, or a skip when the
    # embedder finds the cached call after the old result close enough to be checked.
    assert calls == 1 and decisions[0] == "exact" and decisions[1] in ("miss", "skip")
    assert answer == "Here is what I found: Paris: 9 C and hail."


async def test_a_changed_action_and_a_derived_argument_call_the_model(runner: Runner) -> None:
    await runner.run("Book a flight to Rome on 2025-07-01")
    _, calls, decisions = await runner.run("Cancel the flight to Rome on 2025-07-01")
    assert calls == 2 and decisions[0] in ("miss", "skip")
    assert runner.world.cancelled == [("Rome", "2025-07-01")]
    await runner.run("What's the forecast for Paris tomorrow?")
    _, calls, decisions = await runner.run("What's the forecast for Berlin tomorrow?")
    assert calls == 2 and decisions[0] == "skip"
    assert runner.world.asked[-1] == "Berlin@2025-06-02"


# -- ReAct: tool use written as text, cached like any conversation ------------------------------

REACT_CITY = re.compile(r"weather in ([A-Za-z]+)")


def react_brain(counter: Counter) -> Any:
    """A SIMULATED ReAct model: one action, then the answer from its observation."""

    def respond(prompt: str) -> str:
        counter.calls += 1
        conversation = prompt.rsplit("## Current Conversation", 1)[-1]  # after the header
        if "Observation:" in conversation:
            observation = conversation.rsplit("Observation:", 1)[1].strip().splitlines()[0]
            return f"Thought: I can answer without using any more tools.\nAnswer: {observation}"
        city = REACT_CITY.findall(conversation)[-1]
        return (
            "Thought: I need to use a tool to help me answer the question.\n"
            "Action: get_weather\n"
            f'Action Input: {{"city": "{city}"}}'
        )

    return respond


async def test_react_agent_repeated_task_is_served_from_the_cache() -> None:
    world, counter = World(), Counter()
    cache, records = recording_cache()
    inner = ScriptedLLM(responder=react_brain(counter), chat_model=True)
    agent = ReActAgent(tools=world.llama_tools(), llm=StepCacheLLM(llm=inner, step_cache=cache))
    first = await agent.run("What's the weather in Paris?")
    assert counter.calls == 2 and str(first).endswith("Paris: 18 C and sunny")
    second = await agent.run("What's the weather in Paris?")
    assert counter.calls == 2  # every turn of the repeated task came from the cache
    assert str(second) == str(first)
    assert [r.decision for r in records] == ["miss", "miss", "exact", "exact"]
    world.weather["Paris"] = "9 C and hail"
    third = await agent.run("What's the weather in Paris?")
    assert counter.calls == 3 and str(third).endswith("Paris: 9 C and hail")


def conversation(call_id: str, result: str) -> list[ChatMessage]:
    call = ToolCallBlock(
        tool_call_id=call_id, tool_name="get_weather", tool_kwargs={"city": "Paris"}
    )
    return [
        ChatMessage(role="user", content="What's the weather in Paris?"),
        ChatMessage(role="assistant", blocks=[call]),
        ChatMessage(role="tool", content=result, additional_kwargs={"tool_call_id": call_id}),
    ]


def test_tool_results_in_a_chat_are_part_of_the_request() -> None:
    cache, records = recording_cache()
    counter = Counter()
    llm = StepCacheLLM(llm=llama_model(counter), step_cache=cache)
    tools = {"tools": World().llama_tools()}
    llm.chat(conversation("a1", "Paris: 18 C"), **tools)
    llm.chat(conversation("b2", "Paris: 18 C"), **tools)  # new ids, the same conversation
    llm.chat(conversation("a1", "Paris: 30 C"), **tools)  # another tool result
    assert [r.decision for r in records] == ["miss", "exact", "skip"]
    assert counter.calls == 2
