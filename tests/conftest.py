"""Shared test fakes: scripted models of both frameworks and the helpers tests build on.

Import them from here (``from tests.conftest import ScriptedChatModel, eq``); they are for
tests only: deterministic answers chosen by a function of the prompt, reported usage, and
streaming word by word. :class:`AnswerBook` is an oracle over such models: the correct answer
of every request it knows, and of the cache's follow-up calls (continue after verified
steps, repair).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any
from uuid import UUID, uuid4

from langchain_core.callbacks import BaseCallbackHandler, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.output_parsers import JsonOutputParser, PydanticOutputParser
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.rate_limiters import InMemoryRateLimiter
from langchain_core.runnables import Runnable, RunnableMap, RunnablePassthrough
from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_core.utils.pydantic import is_basemodel_subclass
from langchain_openai import AzureChatOpenAI, ChatOpenAI
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.base.llms.generic_utils import stream_completion_response_to_chat_response
from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    ChatResponseAsyncGen,
    ChatResponseGen,
    CompletionResponse,
    CompletionResponseAsyncGen,
    CompletionResponseGen,
    LLMMetadata,
    MessageRole,
)
from llama_index.core.llms import CustomLLM
from llama_index.core.llms.callbacks import llm_chat_callback, llm_completion_callback
from pydantic import Field

from stepcache_integrations.core.embeddings import StructuralEmbedder
from stepcache_integrations.core.engine import CONTINUE_INSTRUCTION

# -- prompts and the step-by-step solver ------------------------------------------------------

EQ = "Solve for {v}: {a}{v} + {b} = {c}. Show each step as 'Step N:'."


def eq(v: str = "x", a: int = 3, b: int = 5, c: int = 20) -> str:
    """A linear-equation request in the benchmark's style."""
    return EQ.format(v=v, a=a, b=b, c=c)


_EQUATION = re.compile(r"(-?\d*)\s*\*?\s*([a-z])\s*([+-])\s*(\d+)\s*=\s*(-?\d+)")


def fmt(value: Fraction) -> str:
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def solve_steps(prompt: str, wrong: bool = False) -> str:
    """A step-by-step solution of ``a v + b = c`` (or ``a v - b = c``) found in ``prompt``."""
    match = _EQUATION.search(prompt)
    if match is None:
        return "I cannot find an equation."
    a_text, var, sign, b_text, c_text = match.groups()
    a = int(a_text) if a_text not in ("", "-") else (-1 if a_text == "-" else 1)
    b = int(b_text) * (1 if sign == "+" else -1)
    c = int(c_text)
    rhs = c - b
    solution = Fraction(rhs, a) + (1 if wrong else 0)
    move = f"Subtract {b} from both sides" if b >= 0 else f"Add {-b} to both sides"
    return (
        f"Step 1: Start with {match.group(0)}.\n"
        f"Step 2: {move}: {a}{var} = {rhs}.\n"
        f"Step 3: Divide both sides by {a}: {var} = {fmt(solution)}."
    )


def last_user_text(messages: list[BaseMessage]) -> str:
    return str(messages[-1].content)


def continued(full: str, prompt: str) -> str:
    """``full`` without the lines ``prompt`` already shows when ``prompt`` asks to continue
    after verified steps (a patch call, flattened to one text), as a model continues; else
    ``full``."""
    if CONTINUE_INSTRUCTION not in prompt:
        return full
    return "\n".join(line for line in full.splitlines() if line.strip() not in prompt)


def respond(prompt: str) -> str:
    """Solves the first equation in the prompt (after the steps it shows, when it asks to
    continue them); answers JSON when JSON is asked for."""
    if "JSON" in prompt:
        numbers = [int(n) for n in re.findall(r"-?\d+", prompt.split("JSON", 1)[1])][:3]
        numbers += [0] * (3 - len(numbers))
        return json.dumps(dict(zip("abc", numbers, strict=True)))
    return continued(solve_steps(prompt), prompt)


def solve_conversation(messages: list[BaseMessage]) -> str:
    """:func:`respond` to a conversation: its first user turn is the request; a patch call's
    last turn asks to continue after the assistant turn before it."""
    first = next(str(m.content) for m in messages if m.type == "human")
    return respond("\n".join([first, *(str(m.content) for m in messages[1:])]))


def usage(prompt: str, text: str) -> dict[str, int]:
    """OpenAI-style usage of a scripted answer (about four characters a token)."""
    prompt_tokens, completion_tokens = max(1, len(prompt) // 4), max(1, len(text) // 4)
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


# -- LangChain ----------------------------------------------------------------------------------

ChatResponder = Callable[[list[BaseMessage]], str]


class ScriptedChatModel(BaseChatModel):
    """Answers with ``responder(messages)``; counts calls; reports usage; streams by words."""

    responder: ChatResponder
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    call_kwargs: list[dict[str, Any]] = Field(default_factory=list)  # per call, as received
    model_name: str = "scripted-1"
    temperature: float = 0.0

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "temperature": self.temperature}

    def _answer(self, messages: list[BaseMessage]) -> AIMessage:
        self.calls.append(list(messages))
        text = self.responder(messages)
        prompt_chars = sum(len(str(m.content)) for m in messages)
        return AIMessage(
            content=text,
            response_metadata={"model_name": self.model_name},
            usage_metadata={
                "input_tokens": max(1, prompt_chars // 4),
                "output_tokens": max(1, len(text) // 4),
                "total_tokens": max(1, prompt_chars // 4) + max(1, len(text) // 4),
            },
        )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.call_kwargs.append(dict(kwargs))
        return ChatResult(generations=[ChatGeneration(message=self._answer(messages))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        self.call_kwargs.append(dict(kwargs))
        message = self._answer(messages)
        for word in re.split(r"(\s+)", str(message.content)):
            if word:
                yield ChatGenerationChunk(message=AIMessageChunk(content=word))
        yield ChatGenerationChunk(
            message=AIMessageChunk(
                content="",
                usage_metadata=message.usage_metadata,
                response_metadata={"model_name": self.model_name},
            )
        )


ToolResponder = Callable[[list[BaseMessage], dict[str, Any]], AIMessage]


class ScriptedToolModel(BaseChatModel):
    """A tool-calling chat model: ``responder(messages, call_kwargs)`` gives each answer.

    Binds tools in OpenAI's format (like ``ChatOpenAI``), gives every tool call a new id,
    reports usage, and offers a JSON mode through ``with_structured_output(method=
    "json_mode" | "json_schema")`` (a ``response_format`` call keyword, like OpenAI's).
    """

    responder: ToolResponder
    calls: list[tuple[list[BaseMessage], dict[str, Any]]] = Field(default_factory=list)
    model_name: str = "scripted-tools-1"

    @property
    def _llm_type(self) -> str:
        return "scripted-tools"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def bind_tools(
        self, tools: Sequence[Any], *, tool_choice: str | None = None, **kwargs: Any
    ) -> Runnable[Any, AIMessage]:
        extra = {"tool_choice": tool_choice} if tool_choice else {}
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **extra, **kwargs)

    def with_structured_output(  # type: ignore[override]
        self,
        schema: Any,
        *,
        include_raw: bool = False,
        method: str = "function_calling",
        **kwargs: Any,
    ) -> Runnable[Any, Any]:
        if method == "function_calling":
            return super().with_structured_output(schema, include_raw=include_raw, **kwargs)
        response_format: dict[str, Any] = {"type": "json_object"}
        if method == "json_schema":
            response_format = {"type": "json_schema", "json_schema": convert_to_openai_tool(schema)}
        bound = self.bind(response_format=response_format)
        parser: Runnable[Any, Any] = (
            PydanticOutputParser(pydantic_object=schema)
            if isinstance(schema, type) and is_basemodel_subclass(schema)
            else JsonOutputParser()
        )
        if not include_raw:
            return bound | parser
        parsed = RunnablePassthrough.assign(
            parsed=lambda data: parser.invoke(data["raw"]), parsing_error=lambda _: None
        )
        failed = RunnablePassthrough.assign(parsed=lambda _: None)
        return RunnableMap(raw=bound) | parsed.with_fallbacks(
            [failed], exception_key="parsing_error"
        )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append((list(messages), dict(kwargs)))
        answer = self.responder(list(messages), dict(kwargs))
        calls = [{**call, "id": f"call_{uuid4().hex[:12]}"} for call in answer.tool_calls]
        spent_in = max(1, sum(len(str(m.content)) for m in messages) // 4)
        spent_out = max(1, (len(answer.text) + len(json.dumps(calls))) // 4)
        message = AIMessage(
            content=answer.content,
            tool_calls=calls,
            response_metadata={"model_name": self.model_name},
            usage_metadata={
                "input_tokens": spent_in,
                "output_tokens": spent_out,
                "total_tokens": spent_in + spent_out,
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


class CountingRateLimiter(InMemoryRateLimiter):
    """LangChain's real in-memory rate limiter, counting how often it is acquired."""

    def __init__(self) -> None:
        super().__init__(
            requests_per_second=1000, check_every_n_seconds=0.001, max_bucket_size=1000
        )
        self.acquired = 0

    def acquire(self, *, blocking: bool = True) -> bool:
        self.acquired += 1
        return super().acquire(blocking=blocking)

    async def aacquire(self, *, blocking: bool = True) -> bool:
        self.acquired += 1
        return await super().aacquire(blocking=blocking)


class RunRecorder(BaseCallbackHandler):
    """Records every chat model run a LangChain callback handler sees."""

    def __init__(self) -> None:
        self.starts: list[dict[str, Any]] = []
        self.ends: list[UUID] = []
        self.tokens: list[tuple[UUID, str]] = []
        self.custom: list[tuple[str, Any, UUID]] = []

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        name = serialized.get("name") if serialized else None
        self.starts.append(
            {
                "run_id": run_id,
                "parent_run_id": parent_run_id,
                "name": name,
                "metadata": metadata,
                "tags": tags or [],
            }
        )

    def on_llm_start(
        self,
        serialized: dict[str, Any],
        prompts: list[str],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        name = serialized.get("name") if serialized else None
        self.starts.append(
            {"run_id": run_id, "parent_run_id": parent_run_id, "name": name, "metadata": metadata}
        )

    def on_llm_new_token(self, token: str, *, run_id: UUID, **kwargs: Any) -> None:
        self.tokens.append((run_id, token))

    def on_llm_end(self, response: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self.ends.append(run_id)

    def on_custom_event(self, name: str, data: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self.custom.append((name, data, run_id))

    def names(self) -> list[str | None]:
        return [start["name"] for start in self.starts]


class StreamingHandler(RunRecorder):
    """A handler that asks chat models for tokens the way LangGraph's message streaming does
    (LangChain streams an ``invoke`` implicitly when a handler has these two methods)."""

    def tap_output_aiter(self, run_id: UUID, output: AsyncIterator[Any]) -> AsyncIterator[Any]:
        return output

    def tap_output_iter(self, run_id: UUID, output: Iterator[Any]) -> Iterator[Any]:
        return output


# -- LlamaIndex ---------------------------------------------------------------------------------

TextResponder = Callable[[str], str]


class ScriptedLLM(CustomLLM):
    """Answers ``responder(prompt)``; records prompts; reports usage in ``raw["usage"]``.

    Like a provider's LLM, each public method is one reported LLM call (``CustomLLM`` alone
    would report a chat twice: its ``chat`` calls its ``complete``).
    """

    responder: TextResponder = Field(default=respond, exclude=True)
    calls: list[str] = Field(default_factory=list, exclude=True)
    chat_kwargs: list[dict[str, Any]] = Field(default_factory=list, exclude=True)  # per chat
    model_name: str = "scripted-li-1"
    chat_model: bool = False
    temperature: float = 0.0

    @classmethod
    def class_name(cls) -> str:
        return "ScriptedLLM"

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name=self.model_name, is_chat_model=self.chat_model)

    def _answer(self, prompt: str) -> tuple[str, dict[str, int]]:
        self.calls.append(prompt)
        text = self.responder(prompt)
        return text, usage(prompt, text)

    def _completion(self, prompt: str) -> CompletionResponse:
        text, spent = self._answer(prompt)
        return CompletionResponse(text=text, raw={"usage": spent})

    def _completion_chunks(self, prompt: str) -> CompletionResponseGen:
        text, spent = self._answer(prompt)
        return _word_chunks(text, spent)

    def _chat(self, messages: Sequence[ChatMessage]) -> ChatResponse:
        text, spent = self._answer(self.messages_to_prompt(messages))
        return ChatResponse(
            message=ChatMessage(role=MessageRole.ASSISTANT, content=text), raw={"usage": spent}
        )

    def _chat_chunks(self, messages: Sequence[ChatMessage]) -> ChatResponseGen:
        chunks = self._completion_chunks(self.messages_to_prompt(messages))
        return stream_completion_response_to_chat_response(chunks)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return self._completion(prompt)

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        return self._completion_chunks(prompt)

    @llm_chat_callback()
    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        self.chat_kwargs.append(dict(kwargs))
        return self._chat(messages)

    @llm_chat_callback()
    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponseGen:
        return self._chat_chunks(messages)

    @llm_completion_callback()
    async def acomplete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponse:
        return self._completion(prompt)

    @llm_completion_callback()
    async def astream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseAsyncGen:
        return _as_async(self._completion_chunks(prompt))

    @llm_chat_callback()
    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        self.chat_kwargs.append(dict(kwargs))
        return self._chat(messages)

    @llm_chat_callback()
    async def astream_chat(
        self, messages: Sequence[ChatMessage], **kwargs: Any
    ) -> ChatResponseAsyncGen:
        return _as_async(self._chat_chunks(messages))


def _word_chunks(text: str, spent: dict[str, int]) -> CompletionResponseGen:
    """``text`` streamed word by word, the usage on the last chunk."""
    shown = ""
    pieces = [p for p in re.split(r"(\s+)", text) if p]
    for position, piece in enumerate(pieces):
        shown += piece
        last = position == len(pieces) - 1
        yield CompletionResponse(text=shown, delta=piece, raw={"usage": spent} if last else None)


ConversationResponder = Callable[[Sequence[ChatMessage]], str]


class ScriptedChatLLM(ScriptedLLM):
    """A :class:`ScriptedLLM` whose chat calls are answered from the messages themselves
    (``chat_responder``), not from their flattened prompt: what a follow-up turn says (an
    assistant turn, then an instruction) reaches the responder as it was sent."""

    chat_responder: ConversationResponder = Field(exclude=True)

    @classmethod
    def class_name(cls) -> str:
        return "ScriptedChatLLM"

    def _conversation(self, messages: Sequence[ChatMessage]) -> tuple[str, dict[str, int]]:
        prompt = self.messages_to_prompt(messages)
        self.calls.append(prompt)
        text = self.chat_responder(messages)
        return text, usage(prompt, text)

    def _chat(self, messages: Sequence[ChatMessage]) -> ChatResponse:
        text, spent = self._conversation(messages)
        return ChatResponse(
            message=ChatMessage(role=MessageRole.ASSISTANT, content=text), raw={"usage": spent}
        )

    def _chat_chunks(self, messages: Sequence[ChatMessage]) -> ChatResponseGen:
        text, spent = self._conversation(messages)
        return stream_completion_response_to_chat_response(_word_chunks(text, spent))


# -- an oracle: the correct answer of every request and of the cache's follow-up calls ---------


class AnswerBook:
    """An oracle model's knowledge: the correct answer of every request it was given.

    :meth:`reply` answers a whole conversation the way a correct model would: the request
    (the first user turn) gets its answer; the cache's "continue after these verified steps"
    call (:data:`~stepcache_integrations.core.engine.CONTINUE_INSTRUCTION` after an
    assistant turn) gets the rest of the correct answer after the steps shown; any other
    follow-up (a repair) gets the correct answer. :meth:`chat_model` and :meth:`llama_llm`
    are the oracle as a LangChain chat model and as a LlamaIndex LLM.
    """

    def __init__(self, answers: Mapping[str, str]) -> None:
        self.answers = dict(answers)

    def answer(self, prompt: str) -> str:
        try:
            return self.answers[prompt]
        except KeyError:
            raise AssertionError(f"the oracle does not know the request {prompt!r}") from None

    def cost(self, prompt: str) -> int:
        """The tokens one call of the oracle spends on ``prompt`` without a cache."""
        return usage(prompt, self.answer(prompt))["total_tokens"]

    def reply(self, turns: Sequence[tuple[str, str]]) -> str:
        """The oracle's reply to a conversation of ``(role, text)`` turns."""
        request = next(text for role, text in turns if role == "user")
        correct = self.answer(request)
        role, last = turns[-1]
        if len(turns) >= 3 and role == "user" and CONTINUE_INSTRUCTION in last:
            shown = next(text for role, text in reversed(turns) if role == "assistant")
            return self.rest_after(correct, shown)
        return correct

    @staticmethod
    def rest_after(correct: str, shown: str) -> str:
        """What follows ``shown`` in ``correct`` (compared word by word, whitespace aside);
        when ``shown`` is not how the correct answer begins, the correct answer's lines after
        as many lines as ``shown`` has (a model continuing from steps it did not write)."""
        shown_words = shown.split()
        spans = list(re.finditer(r"\S+", correct))
        if [m.group(0) for m in spans[: len(shown_words)]] == shown_words:
            if len(shown_words) >= len(spans):
                return ""
            return correct[spans[len(shown_words)].start() :]
        lines = [line for line in correct.splitlines() if line.strip()]
        held = len([line for line in shown.splitlines() if line.strip()])
        return "\n".join(lines[min(held, len(lines) - 1) :])

    def chat_model(self) -> ScriptedChatModel:
        """The oracle as a LangChain chat model."""
        roles = {"human": "user", "ai": "assistant"}
        return ScriptedChatModel(
            responder=lambda messages: self.reply(
                [(roles.get(m.type, m.type), str(m.content)) for m in messages]
            ),
            model_name="oracle-1",
        )

    def llama_llm(self) -> ScriptedChatLLM:
        """The oracle as a LlamaIndex LLM (completions and chats)."""
        return ScriptedChatLLM(
            responder=self.answer,
            chat_responder=lambda messages: self.reply(
                [(m.role.value, m.content or "") for m in messages]
            ),
            model_name="oracle-li-1",
        )


async def _as_async(chunks: Iterator[Any]) -> AsyncIterator[Any]:
    for chunk in chunks:
        yield chunk


class StructuralEmbedding(BaseEmbedding):
    """A LlamaIndex embedding model over the core's offline structural embedder."""

    @classmethod
    def class_name(cls) -> str:
        return "StructuralEmbedding"

    def _get_text_embedding(self, text: str) -> list[float]:
        return [float(v) for v in StructuralEmbedder().embed([text])[0]]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._get_text_embedding(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_text_embedding(query)


# -- real model classes answering offline (endpoint fields kept) --------------------------------

EndpointResponder = Callable[[Any, Sequence[Any], dict[str, Any]], str]


def _offline_result(model: Any, messages: list[BaseMessage], kwargs: dict[str, Any]) -> ChatResult:
    text = model.responder(model, list(messages), dict(kwargs))
    prompt_chars = sum(len(str(m.content)) for m in messages)
    spent_in, spent_out = max(1, prompt_chars // 4), max(1, len(text) // 4)
    message = AIMessage(
        content=text,
        usage_metadata={
            "input_tokens": spent_in,
            "output_tokens": spent_out,
            "total_tokens": spent_in + spent_out,
        },
    )
    return ChatResult(generations=[ChatGeneration(message=message)])


class _OfflineGeneration:
    """Generation from ``self.responder`` instead of the network, for real model classes."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return _offline_result(self, messages, kwargs)

    def _stream(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Iterator[Any]:
        message = _offline_result(self, messages, kwargs).generations[0].message
        yield ChatGenerationChunk(
            message=AIMessageChunk(
                content=message.content, usage_metadata=getattr(message, "usage_metadata", None)
            )
        )

    async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        return _offline_result(self, messages, kwargs)


class OfflineChatOpenAI(_OfflineGeneration, ChatOpenAI):
    """A real ``ChatOpenAI`` (every field, ``base_url``, ``organization``, ``default_headers``,
    ``extra_body`` ... as set) whose generation is ``responder(model, messages, kwargs)``
    instead of a network call (SIMULATED answers). Give it a dummy ``api_key``."""

    responder: EndpointResponder = Field(exclude=True)


class OfflineAzureChatOpenAI(_OfflineGeneration, AzureChatOpenAI):
    """A real ``AzureChatOpenAI`` (``azure_endpoint``, ``azure_deployment``, ``api_version``
    as set) answering from ``responder(model, messages, kwargs)`` offline (SIMULATED)."""

    responder: EndpointResponder = Field(exclude=True)


class OfflineOpenAILike(CustomLLM):
    """A LlamaIndex chat model with the fields of ``llama_index.llms.openai_like.OpenAILike``
    (``model``, ``api_base``, ``api_key``, ``api_version``, ``default_headers``,
    ``additional_kwargs``, ...; that package is not installed here), answering from
    ``responder(model, messages, kwargs)`` offline (SIMULATED)."""

    model: str = "local-model"
    api_base: str = "http://localhost:8000/v1"
    api_key: str = "fake"
    api_version: str = ""
    default_headers: dict[str, str] | None = None
    additional_kwargs: dict[str, Any] = Field(default_factory=dict)
    temperature: float = 0.1
    max_tokens: int | None = None
    timeout: float = 60.0
    max_retries: int = 3
    context_window: int = 3900
    is_chat_model: bool = True
    is_function_calling_model: bool = False
    responder: EndpointResponder = Field(exclude=True)

    @classmethod
    def class_name(cls) -> str:
        return "OpenAILike"

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(
            model_name=self.model,
            is_chat_model=self.is_chat_model,
            context_window=self.context_window,
            is_function_calling_model=self.is_function_calling_model,
        )

    def _respond(self, messages: Sequence[ChatMessage], kwargs: dict[str, Any]) -> ChatResponse:
        text = self.responder(self, list(messages), dict(kwargs))
        spent = usage(" ".join(m.content or "" for m in messages), text)
        return ChatResponse(
            message=ChatMessage(role=MessageRole.ASSISTANT, content=text), raw={"usage": spent}
        )

    @llm_chat_callback()
    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return self._respond(messages, kwargs)

    @llm_chat_callback()
    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponseGen:
        response = self._respond(messages, kwargs)

        def one() -> ChatResponseGen:
            yield ChatResponse(
                message=response.message, delta=response.message.content, raw=response.raw
            )

        return one()

    @llm_chat_callback()
    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return self._respond(messages, kwargs)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        response = self._respond([ChatMessage(role=MessageRole.USER, content=prompt)], kwargs)
        return CompletionResponse(text=response.message.content or "", raw=response.raw)

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        done = self.complete(prompt, formatted, **kwargs)

        def one() -> CompletionResponseGen:
            yield CompletionResponse(text=done.text, delta=done.text, raw=done.raw)

        return one()
