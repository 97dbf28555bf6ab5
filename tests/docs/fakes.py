"""Scripted models that stand in for real ones while the documentation's code blocks run.

The pages show real usage (``ChatOpenAI(model="gpt-4o-mini")``, "your LlamaIndex LLM"); the
harness swaps the real classes for these and fills placeholders (``inner = ...``) with them.
Every answer is computed from the prompt, so reuse, patches and checks behave as with a good
model: linear equations are solved step by step, JSON requests get an object with the asked
keys, anything else gets a short sentence. Usage is reported (about 4 characters a token).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from llama_index.core.base.llms.types import (
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
)
from llama_index.core.llms import CustomLLM
from llama_index.core.llms.callbacks import llm_completion_callback
from pydantic import ConfigDict

EQUATION = re.compile(r"(?P<a>\d*)\s*(?P<v>[a-z])\s*(?P<sign>[+-])\s*(?P<b>\d+)\s*=\s*(?P<c>-?\d+)")
KEYS = re.compile(r"\bkeys?\s+(?P<keys>[\w\s,]+?)(?:[.:;]|$)", re.IGNORECASE)


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value}"


SCHEMA_VALUES = {"string": "Ada", "integer": 36, "number": 1.5, "boolean": True}


def _schema_in(prompt: str) -> dict[str, Any] | None:
    """The first JSON Schema object (with ``properties``) written in the prompt."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", prompt):
        try:
            value, _ = decoder.raw_decode(prompt, match.start())
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("properties"), dict):
            return value
    return None


def answer(prompt: str) -> str:
    """What a careful model would answer to ``prompt``."""
    equation = EQUATION.search(prompt)
    schema = _schema_in(prompt)
    if schema is not None:
        return json.dumps(
            {
                name: SCHEMA_VALUES.get(str(spec.get("type")), "Ada")
                for name, spec in schema["properties"].items()
            }
        )
    if "json" in prompt.lower():
        keys = KEYS.search(prompt)
        names = (
            [k for k in re.split(r"\s*,\s*|\s+and\s+", keys["keys"].strip()) if k]
            if keys
            else ["answer"]
        )
        return json.dumps({name: f"{name} value" for name in names})
    if equation is not None:
        a = int(equation["a"] or 1)
        v = equation["v"]
        b = int(equation["b"]) * (1 if equation["sign"] == "+" else -1)
        c = int(equation["c"])
        shown = f"{equation['a']}{v} {equation['sign']} {equation['b']} = {c}"
        move = f"Subtract {b}" if b >= 0 else f"Add {-b}"
        return (
            f"Step 1: Start with {shown}.\n"
            f"Step 2: {move} on both sides: {equation['a']}{v} = {c - b}.\n"
            f"Step 3: Divide both sides by {a}: {v} = {_number(Fraction(c - b, a))}."
        )
    return f"A scripted answer to: {prompt.strip()[:80]}"


def _usage(prompt: str, text: str) -> UsageMetadata:
    i, o = max(1, len(prompt) // 4), max(1, len(text) // 4)
    return UsageMetadata(input_tokens=i, output_tokens=o, total_tokens=i + o)


class ScriptedChatModel(BaseChatModel):
    """A LangChain chat model that answers like a careful model (see ``answer``).

    It takes (and ignores) any constructor argument a real chat model takes, so
    ``ChatOpenAI(model="gpt-4o-mini", temperature=0)`` works when it stands in for it.
    """

    model_config = ConfigDict(extra="allow")
    model: str = "scripted"

    @property
    def _llm_type(self) -> str:
        return "scripted-chat"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = str(messages[-1].content)
        text = answer(prompt)
        message = AIMessage(content=text, usage_metadata=_usage(prompt, text))
        return ChatResult(generations=[ChatGeneration(message=message)])


class ScriptedEmbeddings(DeterministicFakeEmbedding):
    """Deterministic embeddings that accept a real embedding model's arguments."""

    model_config = ConfigDict(extra="allow")
    size: int = 64


class ScriptedLlamaLLM(CustomLLM):
    """A LlamaIndex LLM that answers like a careful model (see ``answer``), with usage."""

    model_config = ConfigDict(extra="allow")

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="scripted", is_chat_model=True)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        text = answer(prompt)
        usage = {"prompt_tokens": len(prompt) // 4, "completion_tokens": len(text) // 4}
        return CompletionResponse(text=text, raw={"usage": usage})

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        response = self.complete(prompt, formatted=formatted, **kwargs)

        def chunks() -> Iterator[CompletionResponse]:
            yield CompletionResponse(text=response.text, delta=response.text, raw=response.raw)

        return chunks()
