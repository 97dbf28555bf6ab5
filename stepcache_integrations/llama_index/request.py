"""Translation between LlamaIndex objects and the core request path, both ways.

In: messages (or a completion prompt) to a :class:`CacheRequest`; output parsers to verifiers.
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
)
from llama_index.core.llms.llm import LLM
from llama_index.core.types import BaseOutputParser

from stepcache_integrations.core.cache import as_verifier
from stepcache_integrations.core.namespace import make_namespace, neutral_parts
from stepcache_integrations.core.protocol import CacheRequest, ModelReply, Turn
from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext
from stepcache_integrations.core.verifiers.parser import OutputParserVerifier

__all__ = [
    "TENANT_KWARG",
    "LlamaIndexParserVerifier",
    "as_llama_verifier",
    "build_request",
    "chat_response",
    "completion_response",
    "inner_identity",
    "message_text",
    "reply_from",
    "text_of",
    "to_chat_messages",
    "usage_of",
]

TENANT_KWARG = "stepcache_tenant"
"""Call keyword naming the tenant of one call: ``llm.chat(messages, stepcache_tenant="acme")``."""

# Call kwargs that mean "the answer may be a tool call": such requests are never cached.
_TOOL_KWARGS = ("tools", "functions", "tool_choice", "function_call", "tool_required")

# Words of parameter names that identify credentials or transport, not the model: such
# parameters must not split (or leak into) namespaces. Rotating an API key must not empty the
# cache. Matched on whole words ("api_key", "max_retries"; not "max_tokens").
_VOLATILE = frozenset(
    {
        "key",
        "token",
        "secret",
        "password",
        "credentials",
        "header",
        "headers",
        "timeout",
        "retries",
        "retry",
        "client",
        "callback",
        "callbacks",
        "session",
    }
)

_INPUT_KEYS = ("prompt_tokens", "input_tokens", "prompt_token_count")
_OUTPUT_KEYS = ("completion_tokens", "output_tokens", "candidates_token_count")


# -- messages in ------------------------------------------------------------------------------


def message_text(message: ChatMessage) -> str | None:
    """The text of a message, or ``None`` when it carries non-text content (images, tools...).

    Text blocks are joined with newlines, as ``ChatMessage.content`` does; prompt-cache hints
    (``CachePoint``) carry no content and are ignored.
    """
    parts: list[str] = []
    for block in message.blocks:
        if isinstance(block, TextBlock):
            parts.append(block.text)
        elif not isinstance(block, CachePoint):
            return None
    return "\n".join(parts)


def _has_tool_calls(message: ChatMessage) -> bool:
    if message.role in (MessageRole.TOOL, MessageRole.FUNCTION):
        return True
    extra = message.additional_kwargs
    if extra.get("tool_calls") or extra.get("function_call") or extra.get("tool_call_id"):
        return True
    return any(getattr(block, "block_type", None) == "tool_call" for block in message.blocks)


def bypass_reason(messages: Sequence[ChatMessage], kwargs: Mapping[str, Any]) -> str | None:
    """Why a request must go straight to the model, or ``None`` when the cache may serve it."""
    if not messages:
        return "the request has no messages"
    if any(kwargs.get(name) for name in _TOOL_KWARGS):
        return "tools are bound: tool-calling answers are not cached"
    for message in messages:
        if _has_tool_calls(message):
            return "the conversation contains tool calls"
        if message_text(message) is None:
            return "the conversation contains non-text content"
    if messages[-1].role != MessageRole.USER:
        return f"the last message is a {messages[-1].role.value} message, not the user's"
    return None


def _plain(value: Any) -> bool:
    """JSON-like values only: a repr with a memory address would split namespaces."""
    if value is None or isinstance(value, str | int | float | bool):
        return True
    if isinstance(value, list | tuple):
        return all(_plain(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def inner_identity(llm: LLM) -> dict[str, Any]:
    """The inner model's class and generation parameters (model name, temperature, ...).

    Credentials and transport settings are left out (see ``_VOLATILE``), and so is anything
    that is not plain data.
    """
    try:
        data = dict(llm.to_dict())
    except Exception:  # a model that cannot serialise itself is still identified by class
        data = {}
    params = {
        key: value
        for key, value in data.items()
        if _VOLATILE.isdisjoint(key.lower().split("_")) and _plain(value)
    }
    params["class_name"] = type(llm).class_name()
    return {"type": "llama_index", "params": params}


def build_request(
    model: Mapping[str, Any],
    messages: Sequence[ChatMessage],
    *,
    kwargs: Mapping[str, Any],
    tenant: str | None,
    options: Mapping[str, Any],
    verifiers: Sequence[Verifier],
    mode: Mapping[str, Any] | None = None,
) -> CacheRequest:
    """Everything that changes the meaning of an answer goes into the namespace.

    ``model`` is the inner model's identity (``{"id": model_id}`` to share entries with other
    wrappers of the same model, LangChain's included); ``mode`` distinguishes a completion
    call when it reaches the model differently from a chat call.
    """
    input_chars = sum(len(message_text(m) or "") for m in messages)
    reason = bypass_reason(messages, kwargs)
    prompt = "" if reason else (message_text(messages[-1]) or "")
    history = [
        (
            message.role.value,
            name if isinstance(name := message.additional_kwargs.get("name"), str) else None,
            message_text(message),
        )
        for message in messages[:-1]
    ]
    call = {**kwargs, **(dict(mode) if mode else {})}
    parts = neutral_parts(model, history, call=call, options=options)
    return CacheRequest(
        prompt=prompt,
        namespace=make_namespace(parts, tenant),
        tenant=tenant,
        input_chars=input_chars,
        options=dict(options),
        extra_verifiers=tuple(verifiers),
        bypass_reason=reason,
    )


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


def _token_pair(usage: Mapping[str, Any]) -> tuple[int | None, int | None]:
    def first(keys: tuple[str, ...]) -> int | None:
        for key in keys:
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                return value
        return None

    return first(_INPUT_KEYS), first(_OUTPUT_KEYS)


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
    found: tuple[int | None, int | None] = (None, None)
    if isinstance(usage, Mapping):
        found = _token_pair(usage)
    if found == (None, None):
        found = _token_pair(response.additional_kwargs)
    return found


def reply_from(response: ChatResponse | CompletionResponse) -> ModelReply:
    """The inner model's response as the request path sees it."""
    input_tokens, output_tokens = usage_of(response)
    return ModelReply(text_of(response), input_tokens, output_tokens, raw=response)


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
) -> ChatResponse:
    """The caller's response: the inner model's own (tool calls, ids, logprobs) when the text
    is exactly its one generation, else a new one; always with the record and true usage."""
    if base is not None:
        return _enriched(base, record, delta)
    return ChatResponse(
        message=ChatMessage(role=MessageRole.ASSISTANT, content=text),
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
