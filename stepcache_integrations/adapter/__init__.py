"""The adapter layer: what every framework adapter shares, free of any framework.

A framework adapter converts its messages into a neutral :class:`Conversation`, builds the
cache request with :func:`build_request` (bypass rules and namespace included), turns the
model's replies into cached text and back with :func:`reply_text` / :func:`read_reply`
(tool calls included), resolves
the call's tenant with :func:`resolve_tenant`, and drives the request path with one of the
drivers (:func:`drive`, :func:`drive_async`, :func:`drive_stream`, :func:`drive_astream`,
and :func:`drive_to_call` for a framework that calls the model itself between a cache lookup
and a cache update), which validate every token count a model reports. What is left to the
adapter: converting messages and results, calling the wrapped model through its public API,
and the framework's events.

Example:
    >>> from stepcache_integrations import StepCache
    >>> from stepcache_integrations.core.protocol import ModelReply
    >>> conversation = Conversation((Message("user", "Tell me about Lisbon."),))
    >>> request = build_request(conversation, model={"id": "demo"}, tenant=None)
    >>> cache = StepCache()
    >>> drive(cache.serve(request), lambda call: ModelReply("Lisbon is a city.")).record.decision
    'miss'
    >>> drive(cache.serve(request), lambda call: ModelReply("unused")).record.decision
    'exact'
"""

from stepcache_integrations.adapter.bypass import bypass_reason
from stepcache_integrations.adapter.conversation import (
    TEXT_BLOCK_SEPARATOR,
    Conversation,
    Message,
    ToolCall,
    call_positions,
    join_text_blocks,
    neutral_role,
)
from stepcache_integrations.adapter.drive import (
    CacheText,
    Finished,
    ModelChunk,
    PendingCall,
    StreamedPiece,
    StreamEvent,
    UsageMode,
    drive,
    drive_astream,
    drive_async,
    drive_stream,
    drive_to_call,
    remaining_text,
)
from stepcache_integrations.adapter.request import (
    build_request,
    call_params,
    conversation_of,
    namespace_parts,
)
from stepcache_integrations.adapter.response_format import (
    CONSTRAIN_JSON_STYLES,
    ConstrainJson,
    check_constrain_json,
    response_format_kwargs,
)
from stepcache_integrations.adapter.tenant import (
    TENANT_UNKNOWN,
    TENANT_UNKNOWN_REASON,
    check_tenant,
    resolve_tenant,
)
from stepcache_integrations.adapter.tools import (
    Reply,
    declare_pure,
    fresh_call_id,
    namespace_spec,
    parsed_arguments,
    pure_tool_names,
    read_reply,
    reply_text,
    tool_spec,
)
from stepcache_integrations.adapter.usage import token_count, usage_from_mapping, validated_reply
from stepcache_integrations.adapter.verifiers import (
    CopiedValuesOnly,
    PlainAnswersOnly,
    ToolArgumentsVerifier,
    plain_answers_only,
)

__all__ = [
    "CONSTRAIN_JSON_STYLES",
    "TENANT_UNKNOWN",
    "TENANT_UNKNOWN_REASON",
    "TEXT_BLOCK_SEPARATOR",
    "CacheText",
    "ConstrainJson",
    "Conversation",
    "CopiedValuesOnly",
    "Finished",
    "Message",
    "ModelChunk",
    "PendingCall",
    "PlainAnswersOnly",
    "Reply",
    "StreamEvent",
    "StreamedPiece",
    "ToolArgumentsVerifier",
    "ToolCall",
    "UsageMode",
    "build_request",
    "bypass_reason",
    "call_params",
    "call_positions",
    "check_constrain_json",
    "check_tenant",
    "conversation_of",
    "declare_pure",
    "drive",
    "drive_astream",
    "drive_async",
    "drive_stream",
    "drive_to_call",
    "fresh_call_id",
    "join_text_blocks",
    "namespace_parts",
    "namespace_spec",
    "neutral_role",
    "parsed_arguments",
    "plain_answers_only",
    "pure_tool_names",
    "read_reply",
    "remaining_text",
    "reply_text",
    "resolve_tenant",
    "response_format_kwargs",
    "token_count",
    "tool_spec",
    "usage_from_mapping",
    "validated_reply",
]
