"""StepCache in a tool-calling agent loop, offline.

Both models are SIMULATED (scripted): the agent's "brain" decides to call a tool, and the
tool asks a second model for a step-by-step solution. Tool-calling turns go straight to the
inner model (decision ``bypass``: a tool call is never served from a cache); the tool's own
LLM calls are text requests, and those StepCache reuses and patches.

Run: ``python cookbook/agent_example.py``
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import tool
from langchain_core.utils.function_calling import convert_to_openai_tool

from stepcache_integrations import StepCache, StepCacheLLM

EQUATION = re.compile(r"(\d+)([a-z]) \+ (\d+) = (\d+)")


class ScriptedAgentBrain(BaseChatModel):
    """SIMULATED tool-calling model: calls `solve` once, then reports the tool's result."""

    @property
    def _llm_type(self) -> str:
        return "scripted-agent"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        last = messages[-1]
        if isinstance(last, ToolMessage):
            final = str(last.content).splitlines()[-1]
            message = AIMessage(content=f"Done. {final}")
        else:
            match = EQUATION.search(str(last.content))
            equation = match.group(0) if match else str(last.content)
            message = AIMessage(
                content="",
                tool_calls=[{"name": "solve", "args": {"equation": equation}, "id": "call-1"}],
            )
        return ChatResult(generations=[ChatGeneration(message=message)])


class ScriptedSolver(BaseChatModel):
    """SIMULATED solver model: a correct step-by-step solution of `a v + b = c`."""

    @property
    def _llm_type(self) -> str:
        return "scripted-solver"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        match = EQUATION.search(str(messages[-1].content))
        assert match, "the scripted solver only knows 'a v + b = c'"
        a, v, b, c = int(match[1]), match[2], int(match[3]), int(match[4])
        text = (
            f"Step 1: Start with {a}{v} + {b} = {c}.\n"
            f"Step 2: Subtract {b} from both sides: {a}{v} = {c - b}.\n"
            f"Step 3: Divide both sides by {a}: {v} = {Fraction(c - b, a)}."
        )
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


cache = StepCache()
solver = StepCacheLLM(llm=ScriptedSolver(), step_cache=cache)


@tool
def solve(equation: str) -> str:
    """Solve a linear equation step by step."""
    answer = solver.invoke(f"Solve {equation}. Show each step as 'Step N:'.")
    print(f"    tool's LLM call: {answer.response_metadata['stepcache']['decision']}")
    return str(answer.content)


def run_agent(question: str) -> str:
    agent = StepCacheLLM(llm=ScriptedAgentBrain(), step_cache=cache).bind_tools([solve])
    messages: list[BaseMessage] = [HumanMessage(content=question)]
    while True:
        reply: Any = agent.invoke(messages)
        print(f"    agent turn: {reply.response_metadata['stepcache']['decision']}")
        messages.append(reply)
        if not reply.tool_calls:
            return str(reply.content)
        for call in reply.tool_calls:
            messages.append(
                ToolMessage(content=solve.invoke(call["args"]), tool_call_id=call["id"])
            )


def main() -> None:
    for question in (
        "What is x if 3x + 5 = 20?",
        "What is y if 3y + 5 = 20?",  # renamed variable: the tool's call is reused
        "What is x if 3x + 8 = 20?",  # changed constant: the tool's call is patched
    ):
        print(question)
        print("  ->", run_agent(question))
    print("stats:", cache.stats()["decisions"], "(both models SIMULATED)")


if __name__ == "__main__":
    main()
