"""When a request goes straight to the model: the bypass rules, written once.

A bypassed request is answered by the model unchanged and recorded (decision ``bypass``,
with the reason); nothing is served from or stored in the cache.

Tool calling is cached: a request with tools bound, or whose conversation holds tool calls
and tool results, goes through the cache like any other (the tool-call task family verifies
its answers). What the cache cannot compare still bypasses it: content other than text, a
bound tool whose JSON Schema cannot be read, a conversation that does not end with the
user's turn or a tool result.
"""

from __future__ import annotations

from stepcache_integrations.adapter.conversation import Conversation

__all__ = ["bypass_reason"]

_LAST_ROLES = ("user", "tool")


def bypass_reason(conversation: Conversation) -> str | None:
    """Why ``conversation`` must go straight to the model, or ``None`` when the cache may
    serve it.

    Example:
        >>> from stepcache_integrations.adapter.conversation import Message
        >>> bypass_reason(Conversation((Message("user", "Hi"),))) is None
        True
        >>> print(bypass_reason(Conversation((Message("user", "Hi"), Message("ai", "Hello")))))
        the last message is an assistant message, not the user's or a tool result
    """
    if not conversation.messages:
        return "the request has no messages"
    if conversation.unreadable_tools:
        shown = ", ".join(conversation.unreadable_tools[:3])
        return f"a bound tool has no readable JSON Schema ({shown}): its calls cannot be checked"
    for message in conversation.messages:
        if message.text is None:
            return "the conversation contains non-text content"
    last = conversation.messages[-1]
    if last.role not in _LAST_ROLES:
        article = "an" if last.role[:1] in "aeiou" else "a"
        return f"the last message is {article} {last.role} message, not the user's or a tool result"
    return None
