"""The neutral conversation: what both framework adapters turn their messages into.

A :class:`Conversation` holds the turns (role, name, text, tool calls, tool results), the
tools bound to the call (as neutral specs: name, description, JSON Schema of the parameters),
the tool choice and the response format. Everything the cache
decides (the namespace, the prompt, the bypass rules) is computed from it, so a LangChain
and a LlamaIndex wrapper around the same model see the same request.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "TEXT_BLOCK_SEPARATOR",
    "Conversation",
    "Message",
    "ToolCall",
    "call_positions",
    "join_text_blocks",
    "neutral_role",
]

TEXT_BLOCK_SEPARATOR = "\n"
"""How the text blocks of one message are joined into its text.

A newline, in both adapters: joining with nothing glues the last word of one block to the
first word of the next, so two different messages (``["ab", "c"]`` and ``["a", "bc"]``)
would become one request and could share a cached answer. A newline keeps block
boundaries visible, and it is what LlamaIndex's ``ChatMessage.content`` does.
"""

# Role names differ between frameworks; requests must not.
_ROLE_ALIASES = {
    "human": "user",
    "ai": "assistant",
    "chatbot": "assistant",
    "model": "assistant",
    "function": "tool",
}


def neutral_role(role: str) -> str:
    """One vocabulary for roles: ``"human"`` and ``"user"`` are the same turn.

    Example:
        >>> neutral_role("human"), neutral_role("ai"), neutral_role("system")
        ('user', 'assistant', 'system')
    """
    lowered = role.lower()
    return _ROLE_ALIASES.get(lowered, lowered)


def join_text_blocks(blocks: Iterable[str]) -> str:
    """The text of a message made of several text blocks (see :data:`TEXT_BLOCK_SEPARATOR`).

    Example:
        >>> join_text_blocks(["Solve 3x + 5 = 20.", "Show each step."])
        'Solve 3x + 5 = 20.\\nShow each step.'
    """
    return TEXT_BLOCK_SEPARATOR.join(blocks)


@dataclass(frozen=True)
class ToolCall:
    """A tool call an assistant turn made: the tool's name and its arguments."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    id: str | None = None

    def neutral(self) -> dict[str, Any]:
        """The call as namespace data (the call id is a random handle, not meaning)."""
        return {"name": self.name, "arguments": dict(self.arguments)}


@dataclass(frozen=True)
class Message:
    """One turn. ``role`` is kept in one vocabulary (:func:`neutral_role`); ``text`` is
    ``None`` when the turn carries content other than text (images, audio, files): the
    cache cannot compare such turns."""

    role: str
    text: str | None
    name: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "role", neutral_role(self.role))

    @property
    def is_tool_turn(self) -> bool:
        """A tool result, or an assistant turn that called tools."""
        return self.role == "tool" or bool(self.tool_calls) or self.tool_call_id is not None

    def neutral(self, call_ids: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The turn as namespace data (tool fields only when present, so plain text turns
        keep the namespace they always had). ``call_ids`` maps the conversation's tool-call
        ids to their positions (see :func:`call_positions`)."""
        data: dict[str, Any] = {
            "role": self.role,
            "name": self.name,
            "text": self.text,
        }
        if self.tool_calls:
            data["tool_calls"] = [call.neutral() for call in self.tool_calls]
        if self.tool_call_id is not None:
            data["tool_call_id"] = (call_ids or {}).get(self.tool_call_id, self.tool_call_id)
        return data


def call_positions(messages: Iterable[Message]) -> dict[str, str]:
    """Each tool-call id of a conversation mapped to the call's position ("call-0",
    "call-1", ... in order of appearance).

    Ids are random handles: the same conversation run twice gets new ones. A tool result is
    identified by the position of the call it answers, so the same conversation is the same
    request however its ids were drawn.

    Example:
        >>> turns = [Message("assistant", "", tool_calls=(ToolCall("f", {}, "abc"),)),
        ...          Message("tool", "42", tool_call_id="abc")]
        >>> [m.neutral(call_positions(turns)).get("tool_call_id") for m in turns]
        [None, 'call-0']
    """
    positions: dict[str, str] = {}
    for message in messages:
        for call in message.tool_calls:
            if call.id is not None and call.id not in positions:
                positions[call.id] = f"call-{len(positions)}"
    return positions


@dataclass(frozen=True)
class Conversation:
    """A whole request in framework-neutral form.

    Example:
        >>> conversation = Conversation((Message("user", "Solve 3x + 5 = 20."),))
        >>> conversation.prompt_text
        'Solve 3x + 5 = 20.'
    """

    messages: tuple[Message, ...]
    tools: tuple[dict[str, Any], ...] = ()
    tool_choice: Any = None
    response_format: Any = None
    unreadable_tools: tuple[str, ...] = ()
    """Bound tools whose JSON Schema could not be read (they send the call to the model)."""

    @property
    def last(self) -> Message | None:
        """The last turn (the one the cache matches), if any."""
        return self.messages[-1] if self.messages else None

    @property
    def prompt_text(self) -> str:
        """The text of the last turn ("" when it has none)."""
        last = self.last
        return (last.text or "") if last is not None else ""

    @property
    def input_chars(self) -> int:
        """Size of the whole conversation, to estimate tokens when a model reports none."""
        return sum(len(message.text or "") for message in self.messages)
