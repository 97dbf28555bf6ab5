"""Turning LangChain messages into a cache request, and the cache's turns back into messages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel, BaseLanguageModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    ToolMessage,
    get_buffer_string,
)

from stepcache_integrations.core.namespace import make_namespace, neutral_parts
from stepcache_integrations.core.protocol import CacheRequest, Turn
from stepcache_integrations.core.verifiers.base import Verifier

__all__ = ["TENANT_METADATA_KEY", "build_request", "inner_identity", "to_messages"]

TENANT_METADATA_KEY = "stepcache_tenant"

# Call kwargs that mean "the answer may be a tool call": such requests are never cached.
_TOOL_KWARGS = ("tools", "functions", "tool_choice", "function_call")


def message_text(message: BaseMessage) -> str | None:
    """The text of a message, or ``None`` when it carries non-text content (images, ...)."""
    content = message.content
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        else:
            return None
    return "".join(parts)


def inner_identity(llm: BaseLanguageModel[Any]) -> dict[str, Any]:
    """The inner model's type and identifying parameters (model name, temperature, ...)."""
    try:
        params = dict(llm._identifying_params)
    except Exception:  # a model without identifying params is still identified by type
        params = {}
    return {"type": getattr(llm, "_llm_type", type(llm).__name__), "params": params}


def _bypass_reason(messages: Sequence[BaseMessage], kwargs: Mapping[str, Any]) -> str | None:
    if not messages:
        return "the request has no messages"
    if any(kwargs.get(name) for name in _TOOL_KWARGS):
        return "tools are bound: tool-calling answers are not cached"
    for message in messages:
        if isinstance(message, ToolMessage) or (
            isinstance(message, AIMessage) and message.tool_calls
        ):
            return "the conversation contains tool calls"
        if message_text(message) is None:
            return "the conversation contains non-text content"
    if not isinstance(messages[-1], HumanMessage):
        return f"the last message is a {messages[-1].type} message, not the user's"
    return None


def build_request(
    llm: BaseLanguageModel[Any],
    messages: Sequence[BaseMessage],
    *,
    stop: Sequence[str] | None,
    kwargs: Mapping[str, Any],
    tenant: str | None,
    options: Mapping[str, Any],
    verifiers: Sequence[Verifier],
    model_id: str | None = None,
) -> CacheRequest:
    """Everything that changes the meaning of an answer goes into the namespace."""
    input_chars = sum(len(message_text(m) or "") for m in messages)
    reason = _bypass_reason(messages, kwargs)
    prompt = "" if reason else (message_text(messages[-1]) or "")
    # The parts every adapter builds the same way: with a ``model_id``, wrappers of both
    # frameworks around the same model share entries.
    parts = neutral_parts(
        {"id": model_id} if model_id else inner_identity(llm),
        [(m.type, m.name, message_text(m)) for m in messages[:-1]],
        stop=stop,
        # Call-time parameters (temperature, response_format, tools, ...) change answers.
        call={k: v for k, v in kwargs.items() if k not in ("run_manager", "callbacks")},
        options=options,
    )
    return CacheRequest(
        prompt=prompt,
        namespace=make_namespace(parts, tenant),
        tenant=tenant,
        input_chars=input_chars,
        options=dict(options),
        extra_verifiers=tuple(verifiers),
        bypass_reason=reason,
    )


def to_messages(messages: Sequence[BaseMessage], turns: Sequence[Turn]) -> list[BaseMessage]:
    """The caller's conversation followed by the turns the cache adds (patch, repair)."""
    extra: list[BaseMessage] = [
        AIMessage(content=t.content) if t.role == "assistant" else HumanMessage(content=t.content)
        for t in turns
    ]
    return [*messages, *extra]


def to_prompt(llm: BaseLanguageModel[Any], messages: Sequence[BaseMessage]) -> str:
    """A completion model gets the conversation as one prompt string."""
    if isinstance(llm, BaseChatModel):
        raise TypeError("chat models take messages, not a prompt string")
    if len(messages) == 1 and isinstance(messages[0], HumanMessage):
        return message_text(messages[0]) or ""
    return get_buffer_string(list(messages))
