"""Scripted models that stand in for real ones while the documentation's code blocks run.

The pages show real usage (``ChatOpenAI(model="gpt-4o-mini")``, "your LlamaIndex LLM"); the
harness swaps the real classes for these and fills placeholders (``inner = ...``) with them.
They are the suite's shared scripted models (``tests/conftest.py``: usage, streaming) with an
answer computed from the prompt, so reuse, patches and checks behave as with a good model:
linear equations are solved step by step, a JSON Schema in the prompt or "JSON with keys ..."
gets a matching object, anything else a short sentence.

With tools bound both behave like a careful tool-calling model (``tool_call``): the tool whose
name the question mentions (or the first tool, when a call is required, as for structured
output) is called with arguments copied from the question (names for strings, numbers for
numbers); after a tool result, the answer is a sentence that states it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from uuid import uuid4

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    ChatResponseAsyncGen,
    ChatResponseGen,
    MessageRole,
    ToolCallBlock,
)
from llama_index.core.llms import LLMMetadata
from llama_index.core.llms.callbacks import llm_chat_callback
from llama_index.core.llms.function_calling import FunctionCallingLLM
from llama_index.core.tools import BaseTool, ToolSelection
from pydantic import ConfigDict, Field

from tests.conftest import ChatResponder, ScriptedChatModel, ScriptedLLM, TextResponder, usage

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


# -- tool calls: what a careful model calls, in either framework ------------------------------


@dataclass(frozen=True)
class ToolSpec:
    """A bound tool as the model sees it: its name and its arguments' JSON Schema."""

    name: str
    parameters: dict[str, Any]


# Capitalised words that start questions and instructions rather than name something.
NOT_NAMES = frozenset(
    {"An", "And", "Are", "Can", "Could", "Do", "Does", "Extract", "Find", "For", "Get", "Give"}
    | {"How", "In", "Is", "It", "Please", "Show", "Tell", "The", "This", "What", "When", "Where"}
    | {"Which", "Who", "Why", "Will"}
)
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?\b")


def names_in(text: str) -> list[str]:
    """The proper names a text spells out ("Ada Lovelace", "Paris"), in order."""
    found: list[str] = []
    run: list[str] = []
    for word in [*re.findall(r"[A-Za-z][\w'-]*|\S", text), "."]:
        if re.fullmatch(r"[A-Z][a-z][\w-]*", word) and (run or word not in NOT_NAMES):
            run.append(word)
        else:
            if run:
                found.append(" ".join(run))
            run = []
    return found


def _arguments(question: str, tool: ToolSpec) -> dict[str, Any] | None:
    """Arguments copied from the question, one value per property in order; ``None`` when a
    required one is not in the question (a careful model does not make values up). In an
    instruction with its text ("Extract the person: Ada is 36 years old.") the values come
    from the text; the words that ask for the tool ("Book" a flight) are no values."""
    text = question.split(": ", 1)[-1]
    strings = iter(n for n in names_in(text) if n.lower() not in _name_words(tool))
    numbers = iter(NUMBER.findall(text))
    parameters = tool.parameters
    required = set(parameters.get("required", []))
    arguments: dict[str, Any] = {}
    for key, spec in parameters.get("properties", {}).items():
        kind = spec.get("type")
        value: Any = None
        if kind == "string":
            value = next(strings, None)
        elif kind in ("integer", "number"):
            number = next(numbers, None)
            if number is not None:
                value = int(number) if kind == "integer" and "." not in number else float(number)
        if value is not None:
            arguments[key] = value
        elif key in required:
            return None
    return arguments


def _name_words(tool: ToolSpec) -> set[str]:
    """The words of a tool's name: ``get_weather`` -> ``get``, ``weather``."""
    return set(re.findall(r"[a-z]{3,}", re.sub(r"(?<=[a-z])(?=[A-Z])|_", " ", tool.name).lower()))


def _mentioned(tool: ToolSpec, question: str) -> bool:
    return bool(set(re.findall(r"[a-z]{3,}", question.lower())) & _name_words(tool))


def tool_call(
    question: str, tools: Sequence[ToolSpec], required: bool
) -> tuple[str, dict[str, Any]] | None:
    """The call a careful model makes for ``question``: the first tool the question mentions
    (or, when a call is required, the first tool) with arguments taken from the question;
    ``None`` (answer in text) when no tool fits or an argument is missing."""
    chosen = [t for t in tools if _mentioned(t, question)] or (list(tools[:1]) if required else [])
    for tool in chosen:
        arguments = _arguments(question, tool)
        if arguments is not None:
            return tool.name, arguments
    return None


def tool_answer(tool_name: str | None, result: str) -> str:
    """The text answer after a tool result: it states the result."""
    return f"According to {tool_name or 'the tool'}: {result}"


def _openai_tools(kwargs: dict[str, Any]) -> list[ToolSpec]:
    return [
        ToolSpec(t["function"]["name"], t["function"].get("parameters") or {})
        for t in kwargs.get("tools") or []
    ]


def _answer_last_message(messages: list[BaseMessage]) -> str:
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return tool_answer(last.name, str(last.content))
    return answer(str(last.content))


class DocsChatModel(ScriptedChatModel):
    """A LangChain chat model answering like a careful model (see ``answer``; with tools
    bound, ``tool_call``; after a tool result, ``tool_answer``).

    It takes (and ignores) any constructor argument a real chat model takes, so
    ``ChatOpenAI(model="gpt-4o-mini", temperature=0)`` works when it stands in for it.
    """

    model_config = ConfigDict(extra="allow")
    responder: ChatResponder = Field(default=_answer_last_message, exclude=True)

    def bind_tools(
        self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any
    ) -> Runnable[Any, AIMessage]:
        extra = {"tool_choice": tool_choice} if tool_choice else {}
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **extra, **kwargs)

    def _tool_message(
        self, messages: list[BaseMessage], kwargs: dict[str, Any]
    ) -> AIMessage | None:
        """The tool-calling answer to a user's question with tools bound, else ``None``."""
        last = messages[-1]
        if not kwargs.get("tools") or last.type != "human":
            return None
        choice = kwargs.get("tool_choice")
        required = choice not in (None, "auto", "none")
        call = tool_call(str(last.content), _openai_tools(kwargs), required)
        if call is None:
            return None
        self.calls.append(list(messages))
        self.call_kwargs.append(dict(kwargs))
        name, arguments = call
        spent = usage("".join(str(m.content) for m in messages), json.dumps(arguments))
        return AIMessage(
            content="",
            tool_calls=[{"name": name, "args": arguments, "id": f"call_{uuid4().hex[:12]}"}],
            response_metadata={"model_name": self.model_name},
            usage_metadata={
                "input_tokens": spent["prompt_tokens"],
                "output_tokens": spent["completion_tokens"],
                "total_tokens": spent["total_tokens"],
            },
        )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self._tool_message(messages, kwargs)
        if message is None:
            return super()._generate(messages, stop, run_manager, **kwargs)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        message = self._tool_message(messages, kwargs)
        if message is None:
            yield from super()._stream(messages, stop, run_manager, **kwargs)
            return
        chunk = AIMessageChunk(
            content="",
            tool_call_chunks=[
                {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                for i, c in enumerate(message.tool_calls)
            ],
            usage_metadata=message.usage_metadata,
            response_metadata=message.response_metadata,
        )
        yield ChatGenerationChunk(message=chunk)


class DocsEmbeddings(DeterministicFakeEmbedding):
    """Deterministic embeddings that accept a real embedding model's arguments."""

    model_config = ConfigDict(extra="allow")
    size: int = 64


class DocsLlamaLLM(ScriptedLLM, FunctionCallingLLM):
    """A LlamaIndex function-calling chat LLM (like OpenAI's) answering like a careful model
    (see ``answer`` and ``tool_call``), with usage."""

    model_config = ConfigDict(extra="allow")
    responder: TextResponder = Field(default=answer, exclude=True)
    chat_model: bool = True

    @classmethod
    def class_name(cls) -> str:
        return "DocsLlamaLLM"

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(
            model_name=self.model_name, is_chat_model=True, is_function_calling_model=True
        )

    def _prepare_chat_with_tools(
        self,
        tools: Sequence[BaseTool],
        user_msg: str | ChatMessage | None = None,
        chat_history: list[ChatMessage] | None = None,
        verbose: bool = False,
        allow_parallel_tool_calls: bool = False,
        tool_required: bool = False,
        **kwargs: Any,
    ) -> dict[str, Any]:
        messages = list(chat_history or [])
        if user_msg is not None:
            messages.append(
                ChatMessage(role=MessageRole.USER, content=user_msg)
                if isinstance(user_msg, str)
                else user_msg
            )
        return {"messages": messages, "tools": tools, "tool_required": tool_required, **kwargs}

    def get_tool_calls_from_response(
        self, response: ChatResponse, error_on_no_tool_call: bool = True, **kwargs: Any
    ) -> list[ToolSelection]:
        calls = [
            ToolSelection(
                tool_id=block.tool_call_id or "",
                tool_name=block.tool_name,
                tool_kwargs=block.tool_kwargs if isinstance(block.tool_kwargs, dict) else {},
            )
            for block in response.message.blocks
            if isinstance(block, ToolCallBlock)
        ]
        if not calls and error_on_no_tool_call:
            raise ValueError(f"Expected a tool call, got: {response.message.content!r}")
        return calls

    def _careful_chat(
        self, messages: Sequence[ChatMessage], kwargs: dict[str, Any]
    ) -> ChatResponse:
        """A tool call for a user's question with tools bound, a sentence after a tool result,
        otherwise the scripted chat answer."""
        self.chat_kwargs.append(dict(kwargs))
        last = messages[-1]
        if last.role == MessageRole.TOOL:
            name = last.additional_kwargs.get("name") or last.additional_kwargs.get("tool_name")
            text, spent = self._answer_with(tool_answer(name, last.content or ""), messages)
            return ChatResponse(
                message=ChatMessage(role=MessageRole.ASSISTANT, content=text), raw={"usage": spent}
            )
        tools = [
            ToolSpec(t.metadata.name or "", t.metadata.get_parameters_dict())
            for t in kwargs.get("tools") or []
        ]
        call = (
            tool_call(last.content or "", tools, bool(kwargs.get("tool_required")))
            if tools and last.role == MessageRole.USER
            else None
        )
        if call is None:
            return self._chat(messages)
        name, arguments = call
        _, spent = self._answer_with(json.dumps(arguments), messages)
        block = ToolCallBlock(
            tool_call_id=f"call_{uuid4().hex[:12]}", tool_name=name, tool_kwargs=arguments
        )
        return ChatResponse(
            message=ChatMessage(role=MessageRole.ASSISTANT, blocks=[block]), raw={"usage": spent}
        )

    def _answer_with(
        self, text: str, messages: Sequence[ChatMessage]
    ) -> tuple[str, dict[str, int]]:
        """Record a model call that answered ``text``; return it with its usage."""
        prompt = self.messages_to_prompt(messages)
        self.calls.append(prompt)
        return text, usage(prompt, text)

    @llm_chat_callback()
    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return self._careful_chat(messages, kwargs)

    @llm_chat_callback()
    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return self._careful_chat(messages, kwargs)

    def _careful_chunks(
        self, messages: Sequence[ChatMessage], kwargs: dict[str, Any]
    ) -> ChatResponseGen:
        """Text streams word by word; a tool call or a tool-result answer comes whole."""
        if not kwargs.get("tools") and messages[-1].role != MessageRole.TOOL:
            return self._chat_chunks(messages)
        return _one(self._careful_chat(messages, kwargs))

    @llm_chat_callback()
    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponseGen:
        return self._careful_chunks(messages, kwargs)

    @llm_chat_callback()
    async def astream_chat(
        self, messages: Sequence[ChatMessage], **kwargs: Any
    ) -> ChatResponseAsyncGen:
        return _aone(self._careful_chunks(messages, kwargs))


def _one(response: ChatResponse) -> ChatResponseGen:
    yield ChatResponse(
        message=response.message,
        delta=response.message.content or "",
        raw=response.raw,
    )


async def _aone(chunks: ChatResponseGen) -> ChatResponseAsyncGen:
    for chunk in chunks:
        yield chunk
