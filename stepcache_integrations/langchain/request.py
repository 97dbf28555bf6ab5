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
from langchain_core.messages.tool import tool_call
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from stepcache_integrations.adapter import (
    Conversation,
    Message,
    Reply,
    ToolCall,
    conversation_of,
    declare_pure,
    join_text_blocks,
    reply_text,
    tool_spec,
)
from stepcache_integrations.adapter import call_params as neutral_call_params
from stepcache_integrations.adapter.identity import endpoint_of
from stepcache_integrations.core.protocol import Turn
from stepcache_integrations.langchain.structured import STRUCTURED_OUTPUT_KWARG

__all__ = [
    "PURE_TOOLS_KWARG",
    "PURE_TOOL_METADATA_KEY",
    "TENANT_KWARG",
    "TENANT_METADATA_KEY",
    "ai_message",
    "call_params",
    "declared_pure",
    "inner_identity",
    "message_text",
    "read_tool",
    "stored_text",
    "to_conversation",
    "to_messages",
    "to_prompt",
    "tool_calls_of",
]

TENANT_METADATA_KEY = "stepcache_tenant"
"""Config metadata key naming the tenant of one call:
``llm.invoke(prompt, config={"metadata": {"stepcache_tenant": "acme"}})``."""

TENANT_KWARG = TENANT_METADATA_KEY
"""Call keyword naming the tenant of one call, by the same name:
``llm.invoke(prompt, stepcache_tenant="acme")`` (or ``llm.bind(stepcache_tenant="acme")``).
LangChain hands call keywords to every path of the wrapper, ``_stream`` included; never sent
to the inner model."""

PURE_TOOL_METADATA_KEY = "stepcache_pure"
"""``BaseTool.metadata`` key declaring a tool pure (see ``docs/agents.md``):
``StructuredTool.from_function(get_weather, metadata={"stepcache_pure": True})``."""

PURE_TOOLS_KWARG = "stepcache_pure_tools"
"""Call keyword ``StepCacheLLM.bind_tools`` binds: the names of the bound tools declared pure
in their metadata (read by the wrapper, never sent to the inner model)."""

# Call kwargs that change how an answer is delivered, never what it says; and the structured
# output request and the pure tools, which the cache request carries in its options.
_DELIVERY_KWARGS = (
    "run_manager",
    "callbacks",
    "stream",
    STRUCTURED_OUTPUT_KWARG,
    PURE_TOOLS_KWARG,
    TENANT_KWARG,  # the cache binds the namespace to the tenant itself
)


# Content blocks of an assistant turn that hold its tool calls (read from ``tool_calls``).
_CALL_BLOCKS = frozenset({"tool_use", "tool_call", "tool_call_chunk", "function_call"})


def message_text(message: BaseMessage) -> str | None:
    """The text of a message, or ``None`` when it carries non-text content (images, ...).

    Text blocks are joined like in every adapter (see
    :data:`~stepcache_integrations.adapter.conversation.TEXT_BLOCK_SEPARATOR`); the blocks of
    an assistant turn that hold its tool calls are not content (the calls are read from
    ``tool_calls``).
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
        elif (
            isinstance(message, AIMessage)
            and isinstance(block, dict)
            and block.get("type") in _CALL_BLOCKS
        ):
            continue
        else:
            return None
    return join_text_blocks(parts)


def tool_calls_of(message: BaseMessage) -> tuple[ToolCall, ...]:
    """The tool calls of an assistant turn, unparsable ones included (their raw arguments
    then fail every schema check)."""
    if not isinstance(message, AIMessage):
        return ()
    calls = tuple(
        ToolCall(call["name"], dict(call.get("args") or {}), call.get("id"))
        for call in message.tool_calls
    )
    calls += tuple(
        ToolCall(str(call.get("name")), {"raw": call.get("args")}, call.get("id"))
        for call in message.invalid_tool_calls
    )
    return calls


def stored_text(message: BaseMessage) -> str:
    """The text the cache keeps for a reply of the inner model: its text, or a tool-call
    document when it calls tools (see :func:`~stepcache_integrations.adapter.reply_text`)."""
    return reply_text(message.text, tool_calls_of(message))


def ai_message(reply: Reply, **fields: Any) -> AIMessage:
    """An assistant message for a reply read back from the cache (its calls have fresh ids)."""
    calls = [tool_call(name=c.name, args=dict(c.arguments), id=c.id) for c in reply.calls]
    return AIMessage(content=reply.text, tool_calls=calls, **fields)


def declared_pure(tool: Any) -> bool:
    """Whether ``tool`` is a ``BaseTool`` whose metadata declares it pure
    (:data:`PURE_TOOL_METADATA_KEY`)."""
    return isinstance(tool, BaseTool) and (tool.metadata or {}).get(PURE_TOOL_METADATA_KEY) is True


def read_tool(tool: Any) -> dict[str, Any] | None:
    """A bound tool (a dict in a provider's format, a ``BaseTool``, a Pydantic model, a
    function) as the adapter layer's neutral spec, or ``None`` when it has no schema. A
    ``BaseTool`` declared pure in its metadata gives a spec marked pure."""
    spec = tool_spec(tool)
    if spec is not None:
        return spec
    try:
        spec = tool_spec(convert_to_openai_tool(tool))
    except Exception:  # a provider's built-in tool: nothing to check its calls against
        return None
    if spec is not None and declared_pure(tool):
        return declare_pure([spec], {spec["name"]})[0]
    return spec


def _neutral(message: BaseMessage) -> Message:
    calls = tool_calls_of(message)
    return Message(
        role=message.type,
        text=message_text(message),
        name=message.name,
        tool_calls=calls,
        tool_call_id=message.tool_call_id if isinstance(message, ToolMessage) else None,
    )


def to_conversation(messages: Sequence[BaseMessage], kwargs: Mapping[str, Any]) -> Conversation:
    """The call as a neutral conversation (tools and tool choice from the call's kwargs)."""
    return conversation_of([_neutral(message) for message in messages], kwargs, read_tool=read_tool)


def call_params(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The call's generation parameters (temperature, ...) for the namespace."""
    return neutral_call_params(kwargs, skip=_DELIVERY_KWARGS)


def inner_identity(llm: BaseLanguageModel[Any]) -> dict[str, Any]:
    """The inner model's type, identifying parameters (model name, temperature, ...) and
    endpoint: the fields ``_identifying_params`` leaves out that select another server or
    model (base URL, organization, Azure endpoint, deployment and API version, default headers
    and query; never a credential), and the base URL its client really uses. See
    :mod:`stepcache_integrations.adapter.identity`.

    Example:
        >>> from langchain_openai import ChatOpenAI
        >>> local = ChatOpenAI(model="m", api_key="sk-test", base_url="http://localhost:8000/v1")
        >>> inner_identity(local)["endpoint"]["client_base_url"]
        'http://localhost:8000/v1'
        >>> "sk-test" in str(inner_identity(local))
        False
    """
    try:
        params = dict(llm._identifying_params)
    except Exception:  # a model without identifying params is still identified by type
        params = {}
    identity: dict[str, Any] = {
        "type": getattr(llm, "_llm_type", type(llm).__name__),
        "params": params,
    }
    try:
        where = endpoint_of(llm)
    except Exception:  # a model that cannot say where it sends is identified as before
        where = {}
    if where:  # a model that names no endpoint keeps the namespace it always had
        identity["endpoint"] = where
    return identity


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
