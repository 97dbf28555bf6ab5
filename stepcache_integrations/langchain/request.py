"""LangChain messages to the neutral conversation, and the cache's turns back to messages."""

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

from stepcache_integrations.adapter import (
    Conversation,
    Message,
    ToolCall,
    conversation_of,
    join_text_blocks,
)
from stepcache_integrations.adapter import call_params as neutral_call_params
from stepcache_integrations.core.protocol import Turn

__all__ = [
    "TENANT_METADATA_KEY",
    "call_params",
    "inner_identity",
    "message_text",
    "to_conversation",
    "to_messages",
    "to_prompt",
]

TENANT_METADATA_KEY = "stepcache_tenant"
"""Config metadata key naming the tenant of one call:
``llm.invoke(prompt, config={"metadata": {"stepcache_tenant": "acme"}})``."""

# Call kwargs that change how an answer is delivered, never what it says.
_DELIVERY_KWARGS = ("run_manager", "callbacks", "stream")


def message_text(message: BaseMessage) -> str | None:
    """The text of a message, or ``None`` when it carries non-text content (images, ...).

    Text blocks are joined like in every adapter (see
    :data:`~stepcache_integrations.adapter.conversation.TEXT_BLOCK_SEPARATOR`).
    """
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
    return join_text_blocks(parts)


def _neutral(message: BaseMessage) -> Message:
    calls: tuple[ToolCall, ...] = ()
    if isinstance(message, AIMessage):
        calls = tuple(
            ToolCall(call["name"], dict(call.get("args") or {}), call.get("id"))
            for call in message.tool_calls
        )
        if message.invalid_tool_calls:  # unparsable calls are still tool turns
            calls += tuple(
                ToolCall(str(call.get("name")), {"raw": call.get("args")}, call.get("id"))
                for call in message.invalid_tool_calls
            )
    return Message(
        role=message.type,
        text=message_text(message),
        name=message.name,
        tool_calls=calls,
        tool_call_id=message.tool_call_id if isinstance(message, ToolMessage) else None,
    )


def to_conversation(messages: Sequence[BaseMessage], kwargs: Mapping[str, Any]) -> Conversation:
    """The call as a neutral conversation (tools and tool choice from the call's kwargs)."""
    return conversation_of([_neutral(message) for message in messages], kwargs)


def call_params(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The call's generation parameters (temperature, ...) for the namespace."""
    return neutral_call_params(kwargs, skip=_DELIVERY_KWARGS)


def inner_identity(llm: BaseLanguageModel[Any]) -> dict[str, Any]:
    """The inner model's type and identifying parameters (model name, temperature, ...)."""
    try:
        params = dict(llm._identifying_params)
    except Exception:  # a model without identifying params is still identified by type
        params = {}
    return {"type": getattr(llm, "_llm_type", type(llm).__name__), "params": params}


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
