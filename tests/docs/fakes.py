"""Scripted models that stand in for real ones while the documentation's code blocks run.

The pages show real usage (``ChatOpenAI(model="gpt-4o-mini")``, "your LlamaIndex LLM"); the
harness swaps the real classes for these and fills placeholders (``inner = ...``) with them.
They are the suite's shared scripted models (``tests/conftest.py``: usage, streaming) with an
answer computed from the prompt, so reuse, patches and checks behave as with a good model:
linear equations are solved step by step, a JSON Schema in the prompt or "JSON with keys ..."
gets a matching object, anything else a short sentence.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field

from tests.conftest import ChatResponder, ScriptedChatModel, ScriptedLLM, TextResponder

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


def _answer_last_message(messages: list[BaseMessage]) -> str:
    return answer(str(messages[-1].content))


class DocsChatModel(ScriptedChatModel):
    """A LangChain chat model answering like a careful model (see ``answer``).

    It takes (and ignores) any constructor argument a real chat model takes, so
    ``ChatOpenAI(model="gpt-4o-mini", temperature=0)`` works when it stands in for it.
    """

    model_config = ConfigDict(extra="allow")
    responder: ChatResponder = Field(default=_answer_last_message, exclude=True)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)


class DocsEmbeddings(DeterministicFakeEmbedding):
    """Deterministic embeddings that accept a real embedding model's arguments."""

    model_config = ConfigDict(extra="allow")
    size: int = 64


class DocsLlamaLLM(ScriptedLLM):
    """A LlamaIndex chat LLM answering like a careful model (see ``answer``), with usage."""

    model_config = ConfigDict(extra="allow")
    responder: TextResponder = Field(default=answer, exclude=True)
    chat_model: bool = True
