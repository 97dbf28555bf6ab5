"""StepCache in a LangChain agent (``create_agent``), offline.

The model is SIMULATED (scripted): it calls ``get_weather`` with the city it reads in the
question, then answers from the tool's result. The tool is real code over a weather table.
Tool-calling turns go through the cache:

1. a new task: every model call is made (miss, miss);
2. the same task again: every model turn comes from the cache, 0 tokens (exact, exact), and
   the tool runs again with the cached call (fresh call id);
3. the same task for another city: the cached tool call is re-instantiated for it (reuse),
   and the model answers the new tool result (miss);
4. the same task after the weather changed: the tool call is reused, but the changed tool
   result is never answered from the cache: the model answers it (exact, skip: the turn
   after the old result is found, and a changed tool result is a change no family checks).

The same runs once more with ``StepCacheMiddleware`` on the unwrapped model.

Run: ``python cookbook/agent_example.py``
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from uuid import uuid4

from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool

from stepcache_integrations import StepCache, StepCacheLLM, StepCacheRecord
from stepcache_integrations.langchain.middleware import StepCacheMiddleware

WEATHER = {"Paris": "18 C and sunny", "Berlin": "12 C and rain"}


@tool
def get_weather(city: str) -> str:
    """The current weather in a city."""
    return f"{city}: {WEATHER.get(city, 'unknown')}"


class ScriptedWeatherModel(BaseChatModel):
    """SIMULATED tool-calling model: calls get_weather, then reports the tool's result."""

    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted-weather"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        last = messages[-1]
        if isinstance(last, ToolMessage):
            message = AIMessage(content=f"The weather report says: {last.content}.")
        else:
            city = re.search(r"weather in (\w+)", str(last.content))
            call = {"name": "get_weather", "args": {"city": city[1] if city else "?"}}
            message = AIMessage(content="", tool_calls=[{**call, "id": f"call_{uuid4().hex[:8]}"}])
        return ChatResult(generations=[ChatGeneration(message=message)])


def run(agent: Any, model: ScriptedWeatherModel, records: list[StepCacheRecord], q: str) -> None:
    calls, seen = model.calls, len(records)
    state = agent.invoke({"messages": [("user", q)]})
    decisions = ", ".join(record.decision for record in records[seen:])
    spent = sum(record.tokens_used for record in records[seen:])
    print(f"  {q}")
    print(f"    model turns: {decisions}; model calls: {model.calls - calls}; tokens: {spent}")
    print(f"    -> {state['messages'][-1].content}")


def scenario(name: str, build: Any) -> None:
    print(f"{name} (model SIMULATED):")
    WEATHER["Paris"] = "18 C and sunny"
    records: list[StepCacheRecord] = []
    cache = StepCache()
    cache.add_listener(records.append)
    model = ScriptedWeatherModel()
    agent = build(model, cache)
    run(agent, model, records, "What's the weather in Paris?")
    run(agent, model, records, "What's the weather in Paris?")  # the same task: 0 calls
    run(agent, model, records, "What's the weather in Berlin?")  # the call re-instantiated
    WEATHER["Paris"] = "9 C and hail"
    run(agent, model, records, "What's the weather in Paris?")  # a changed tool result


def main() -> None:
    scenario(
        "create_agent(model=StepCacheLLM(llm=model))",
        lambda model, cache: create_agent(
            model=StepCacheLLM(llm=model, step_cache=cache), tools=[get_weather]
        ),
    )
    scenario(
        "create_agent(model=model, middleware=[StepCacheMiddleware()])",
        lambda model, cache: create_agent(
            model=model, tools=[get_weather], middleware=[StepCacheMiddleware(cache)]
        ),
    )


if __name__ == "__main__":
    main()
