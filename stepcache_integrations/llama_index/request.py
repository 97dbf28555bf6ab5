"""Translation between LlamaIndex objects and the core request path, both ways.

In: messages to the neutral conversation of the adapter layer; output parsers to verifiers.
Out: the cache's extra turns to ``ChatMessage`` objects, the inner model's responses to
:class:`ModelReply`, and the final text plus record to LlamaIndex responses with true usage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from llama_index.core.base.llms.types import (
    CachePoint,
    ChatMessage,
    ChatResponse,
    CompletionResponse,
    MessageRole,
    TextBlock,
    ToolCallBlock,
)
from llama_index.core.llms.llm import LLM
from llama_index.core.tools.types import ToolMetadata
from llama_index.core.types import BaseOutputParser

from stepcache_integrations.adapter import (
    Conversation,
    Message,
    Reply,
    ToolCall,
    conversation_of,
    join_text_blocks,
    parsed_arguments,
    read_reply,
    reply_text,
    tool_spec,
    usage_from_mapping,
)
from stepcache_integrations.adapter import call_params as neutral_call_params
from stepcache_integrations.adapter.identity import settings
from stepcache_integrations.core.cache import as_verifier
from stepcache_integrations.core.protocol import ModelReply, Turn
from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext
from stepcache_integrations.core.verifiers.parser import OutputParserVerifier

__all__ = [
    "TENANT_KWARG",
    "LlamaIndexParserVerifier",
    "as_llama_verifier",
    "call_params",
    "chat_response",
    "completion_response",
    "inner_identity",
    "message_text",
    "read_tool",
    "reply_from",
    "reply_message",
    "text_of",
    "to_chat_messages",
    "to_conversation",
    "tool_calls_of",
    "usage_of",
]

TENANT_KWARG = "stepcache_tenant"
"""Call keyword naming the tenant of one call: ``llm.chat(messages, stepcache_tenant="acme")``."""


# -- messages in ------------------------------------------------------------------------------


def message_text(message: ChatMessage) -> str | None:
    """The text of a message, or ``None`` when it carries non-text content (images...).

    Text blocks are joined like in every adapter (see
    :data:`~stepcache_integrations.adapter.conversation.TEXT_BLOCK_SEPARATOR`); prompt-cache
    hints (``CachePoint``) carry no content and are ignored, and tool-call blocks are the
    turn's calls (read by :func:`tool_calls_of`), not its text.
    """
    parts: list[str] = []
    for block in message.blocks:
        if isinstance(block, TextBlock):
            parts.append(block.text)
        elif not isinstance(block, CachePoint | ToolCallBlock):
            return None
    return join_text_blocks(parts)


def _field(item: Any, *path: str) -> Any:
    for key in path:
        item = item.get(key) if isinstance(item, Mapping) else getattr(item, key, None)
    return item


def tool_calls_of(message: ChatMessage) -> tuple[ToolCall, ...]:
    """The tool calls of an assistant turn: ``ToolCallBlock`` blocks, and the provider forms
    some integrations keep in ``additional_kwargs`` (``tool_calls``, ``function_call``)."""
    calls: list[ToolCall] = []
    extra = message.additional_kwargs
    for call in extra.get("tool_calls") or ():
        name = _field(call, "function", "name") or _field(call, "name")
        arguments = _field(call, "function", "arguments") or _field(call, "args")
        calls.append(ToolCall(str(name), _arguments(arguments), _field(call, "id")))
    if extra.get("function_call"):
        function = extra["function_call"]
        arguments = _field(function, "arguments")
        calls.append(ToolCall(str(_field(function, "name")), _arguments(arguments)))
    for block in message.blocks:
        if isinstance(block, ToolCallBlock):
            calls.append(
                ToolCall(block.tool_name, _arguments(block.tool_kwargs), block.tool_call_id)
            )
    return tuple(calls)


def _arguments(arguments: Any) -> dict[str, Any]:
    parsed = parsed_arguments(arguments)
    return parsed if isinstance(parsed, dict) else {"raw": parsed}


def read_tool(tool: Any) -> dict[str, Any] | None:
    """A bound tool (a LlamaIndex tool, or a dict in a provider's format) as the adapter
    layer's neutral spec, or ``None`` when it has no schema."""
    metadata = getattr(tool, "metadata", None)
    if isinstance(metadata, ToolMetadata):
        try:
            parameters = metadata.get_parameters_dict()
        except Exception:  # a tool whose schema cannot be built: its calls cannot be checked
            return None
        return tool_spec(
            {
                "name": metadata.get_name(),
                "description": metadata.description,
                "parameters": parameters,
            }
        )
    return tool_spec(tool)


def _neutral(message: ChatMessage) -> Message:
    extra = message.additional_kwargs
    name = extra.get("name")
    call_id = extra.get("tool_call_id")
    return Message(
        role=message.role.value,
        text=message_text(message),
        name=name if isinstance(name, str) else None,
        tool_calls=tool_calls_of(message),
        tool_call_id=str(call_id) if call_id is not None else None,
    )


def to_conversation(messages: Sequence[ChatMessage], kwargs: Mapping[str, Any]) -> Conversation:
    """The call as a neutral conversation (tools and tool choice from the call's kwargs)."""
    return conversation_of([_neutral(message) for message in messages], kwargs, read_tool=read_tool)


def call_params(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The call's generation parameters (temperature, ...) for the namespace."""
    return neutral_call_params(kwargs)


def inner_identity(llm: LLM) -> dict[str, Any]:
    """The inner model's class and settings: model name, generation parameters and endpoint
    (base URL, API version, deployment, default headers, ...). Credentials, transport
    settings and anything that is not plain data are left out (see
    :mod:`stepcache_integrations.adapter.identity`).

    Example:
        >>> from llama_index.core.llms import MockLLM
        >>> inner_identity(MockLLM(max_tokens=64))["params"]["max_tokens"]
        64
    """
    try:
        data = dict(llm.to_dict())
    except Exception:  # a model that cannot serialise itself is still identified by class
        data = {}
    params = settings(data)
    params["class_name"] = type(llm).class_name()
    return {"type": "llama_index", "params": params}


# -- verifiers ----------------------------------------------------------------------------------


class LlamaIndexParserVerifier(OutputParserVerifier):
    """A LlamaIndex output parser as a verifier: the answer passes if ``parse`` accepts it.

    The repair call asks for the parser's own format (LlamaIndex parsers describe it through
    ``format``/``get_format_string``, not LangChain's ``get_format_instructions``).

    Example:
        >>> from pydantic import BaseModel
        >>> from llama_index.core.output_parsers import PydanticOutputParser
        >>> class Point(BaseModel):
        ...     x: int
        >>> v = LlamaIndexParserVerifier(PydanticOutputParser(output_cls=Point))
        >>> v.check_answer(VerifyContext("a point"), '{"x": 1}').passed
        True
        >>> v.check_answer(VerifyContext("a point"), "no point").failed
        True
    """

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        hint = ""
        try:
            get_format_string = getattr(self.parser, "get_format_string", None)
            if callable(get_format_string):
                hint = str(get_format_string(escape_json=False))
            elif isinstance(self.parser, BaseOutputParser):
                # ``format`` appends the instructions to a query; an empty query leaves them.
                hint = str(self.parser.format("")).replace("{{", "{").replace("}}", "}")
        except Exception:  # the reason alone still makes a useful repair instruction
            hint = ""
        hint = hint.strip()
        return f"{failure.reason}. Reply with the corrected answer only." + (
            f"\n{hint}" if hint else ""
        )


def as_llama_verifier(item: object) -> Verifier:
    """A LlamaIndex output parser, or anything :func:`~stepcache_integrations.core.cache.
    as_verifier` accepts (Verifier, LangChain parser, callable), as a verifier."""
    if isinstance(item, BaseOutputParser):
        return LlamaIndexParserVerifier(item)
    return as_verifier(item)


# -- turns and responses out --------------------------------------------------------------------


def to_chat_messages(messages: Sequence[ChatMessage], turns: Sequence[Turn]) -> list[ChatMessage]:
    """The caller's conversation followed by the turns the cache adds (patch, repair)."""
    extra = [
        ChatMessage(
            role=MessageRole.ASSISTANT if turn.role == "assistant" else MessageRole.USER,
            content=turn.content,
        )
        for turn in turns
    ]
    return [*messages, *extra]


def text_of(response: ChatResponse | CompletionResponse) -> str:
    """The text of a chat or completion response (accumulated, for a streamed chunk)."""
    if isinstance(response, ChatResponse):
        return response.message.content or ""
    return response.text or ""


def usage_of(response: ChatResponse | CompletionResponse) -> tuple[int | None, int | None]:
    """Input and output tokens a response reports, read where LlamaIndex reads them
    (``raw["usage"]``, a provider object's ``usage``, then ``additional_kwargs``);
    ``None`` when it reports none."""
    raw = response.raw
    usage: Any = None
    if isinstance(raw, Mapping):
        usage = raw.get("usage") or raw.get("usage_metadata")
    elif raw is not None:
        usage = getattr(raw, "usage", None) or getattr(raw, "usage_metadata", None)
    if usage is not None and not isinstance(usage, Mapping):
        dump = getattr(usage, "model_dump", None)
        usage = dump() if callable(dump) else getattr(usage, "__dict__", None)
    found = usage_from_mapping(usage)
    if found == (None, None):
        found = usage_from_mapping(response.additional_kwargs)
    return found


def reply_from(response: ChatResponse | CompletionResponse, *, tools: bool = False) -> ModelReply:
    """The inner model's response as the request path sees it (with tools bound, in the
    tool-call form the cache stores: see :func:`~stepcache_integrations.adapter.reply_text`)."""
    input_tokens, output_tokens = usage_of(response)
    text = text_of(response)
    if tools and isinstance(response, ChatResponse):
        text = reply_text(message_text(response.message) or "", tool_calls_of(response.message))
    return ModelReply(text, input_tokens, output_tokens, raw=response)


def reply_message(reply: Reply) -> ChatMessage:
    """An assistant message for a reply read back from the cache: its text, and each call as
    a ``ToolCallBlock`` with a fresh id."""
    blocks: list[Any] = [TextBlock(text=reply.text)] if reply.text else []
    blocks.extend(
        ToolCallBlock(tool_call_id=call.id, tool_name=call.name, tool_kwargs=dict(call.arguments))
        for call in reply.calls
    )
    return ChatMessage(role=MessageRole.ASSISTANT, blocks=blocks)


def usage_dict(record: StepCacheRecord) -> dict[str, int]:
    """The tokens this request really spent, under OpenAI's key names (LlamaIndex reads
    these from ``raw["usage"]`` and from ``additional_kwargs``)."""
    return {
        "prompt_tokens": record.tokens_input,
        "completion_tokens": record.tokens_output,
        "total_tokens": record.tokens_used,
    }


def _raw_with_usage(raw: Any, usage: dict[str, int]) -> Any:
    if raw is None:
        return {"usage": usage}
    if isinstance(raw, Mapping):
        return {**raw, "usage": usage}
    # A provider object (e.g. OpenAI's ChatCompletion) stays as it is: it is only reused for
    # a single unrepaired full generation, whose own usage is what the request spent.
    return raw


def _extra(base: Mapping[str, Any], record: StepCacheRecord) -> dict[str, Any]:
    return {**base, **usage_dict(record), "stepcache": record.to_dict()}


_Response = TypeVar("_Response", ChatResponse, CompletionResponse)


def _enriched(base: _Response, record: StepCacheRecord, delta: str | None) -> _Response:
    """The inner model's own response with the record and the usage really spent."""
    return base.model_copy(
        update={
            "delta": delta,
            "raw": _raw_with_usage(base.raw, usage_dict(record)),
            "additional_kwargs": _extra(base.additional_kwargs, record),
        }
    )


def chat_response(
    text: str,
    record: StepCacheRecord,
    *,
    delta: str | None = None,
    base: ChatResponse | None = None,
    tools: bool = False,
) -> ChatResponse:
    """The caller's response: the inner model's own (tool calls, ids, logprobs) when the text
    is exactly its one generation, else a new one (with tools bound, ``text`` is read back
    into text and tool calls); always with the record and true usage."""
    if base is not None:
        return _enriched(base, record, delta)
    message = (
        reply_message(read_reply(text))
        if tools
        else ChatMessage(role=MessageRole.ASSISTANT, content=text)
    )
    return ChatResponse(
        message=message,
        delta=delta,
        raw={"usage": usage_dict(record)},
        additional_kwargs=_extra({}, record),
    )


def completion_response(
    text: str,
    record: StepCacheRecord,
    *,
    delta: str | None = None,
    base: CompletionResponse | None = None,
) -> CompletionResponse:
    """Completion twin of :func:`chat_response`."""
    if base is not None:
        return _enriched(base, record, delta)
    return CompletionResponse(
        text=text,
        delta=delta,
        raw={"usage": usage_dict(record)},
        additional_kwargs=_extra({}, record),
    )
