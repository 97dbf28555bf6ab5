"""When a request goes straight to the model: the bypass rules, written once.

A bypassed request is answered by the model unchanged and recorded (decision ``bypass``,
with the reason); nothing is served from or stored in the cache.
"""

from __future__ import annotations

from stepcache_integrations.adapter.conversation import Conversation

__all__ = ["bypass_reason"]


def bypass_reason(conversation: Conversation) -> str | None:
    """Why ``conversation`` must go straight to the model, or ``None`` when the cache may
    serve it.

    Example:
        >>> from stepcache_integrations.adapter.conversation import Message
        >>> bypass_reason(Conversation((Message("user", "Hi"),))) is None
        True
        >>> print(bypass_reason(Conversation((Message("user", "Hi"), Message("ai", "Hello")))))
        the last message is an assistant message, not the user's
    """
    if not conversation.messages:
        return "the request has no messages"
    if conversation.tools or conversation.tool_choice:
        return "tools are bound: tool-calling answers are not cached"
    for message in conversation.messages:
        if message.is_tool_turn:
            return "the conversation contains tool calls"
        if message.text is None:
            return "the conversation contains non-text content"
    last = conversation.messages[-1]
    if last.role != "user":
        article = "an" if last.role[:1] in "aeiou" else "a"
        return f"the last message is {article} {last.role} message, not the user's"
    return None
