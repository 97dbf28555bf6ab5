"""Chunks: the inner model's chunks for the caller, and where the record goes.

The record and the request's usage go on the final content chunk (LangChain then adds no
empty end marker after it, so it is also the last chunk) and therefore on the aggregated
message. The inner model's chunks are passed on with their usage removed (the request's
usage is reported once, at the end) and their ids cleared (they get the wrapper run's).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Generator
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, BaseMessageChunk
from langchain_core.messages.ai import UsageMetadata
from langchain_core.messages.tool import tool_call_chunk

from stepcache_integrations.adapter import (
    CacheText,
    Finished,
    StreamedPiece,
    StreamEvent,
    remaining_text,
)
from stepcache_integrations.core.records import StepCacheRecord

__all__ = [
    "INNER_MODEL_NAME_KEY",
    "caller_chunks",
    "caller_chunks_async",
    "caller_metadata",
    "for_caller",
    "piece",
    "usage_metadata",
    "whole_chunk",
]

INNER_MODEL_NAME_KEY = "inner_model_name"
"""``response_metadata`` key of the inner model's name in the wrapper's messages.

Not ``model_name``: LangChain's usage callback (``get_usage_metadata_callback``) counts every
message that has both usage and a ``model_name``; the inner model's own runs already report
the tokens they spent, so the wrapper's message must not be counted a second time.
"""


def usage_metadata(record: StepCacheRecord) -> UsageMetadata:
    """The tokens this request really spent."""
    return UsageMetadata(
        input_tokens=record.tokens_input,
        output_tokens=record.tokens_output,
        total_tokens=record.tokens_used,
    )


def caller_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    """The inner model's response metadata for the caller (its model name moved, see
    :data:`INNER_MODEL_NAME_KEY`)."""
    moved = dict(metadata)
    if "model_name" in moved:
        moved[INNER_MODEL_NAME_KEY] = moved.pop("model_name")
    return moved


def for_caller(message: BaseMessage) -> AIMessageChunk:
    """An inner model's streamed message as a chunk of the wrapper's stream."""
    if isinstance(message, AIMessageChunk):
        chunk = message
    elif isinstance(message, AIMessage):  # a model that cannot stream answers in one piece
        chunk = AIMessageChunk(
            content=message.content,
            additional_kwargs=message.additional_kwargs,
            response_metadata=message.response_metadata,
            tool_call_chunks=[
                tool_call_chunk(
                    name=call["name"], args=_json(call["args"]), id=call.get("id"), index=i
                )
                for i, call in enumerate(message.tool_calls)
            ],
        )
    else:
        chunk = AIMessageChunk(content=str(message.content))
    return chunk.model_copy(
        update={
            "id": None,
            "usage_metadata": None,
            "chunk_position": None,
            "response_metadata": caller_metadata(chunk.response_metadata),
        }
    )


def whole_chunk(message: AIMessage, chunk_id: str | None = None) -> AIMessageChunk:
    """A whole answer as the one and last chunk of a stream (tool calls as tool-call chunks,
    with the record and the request's usage)."""
    return for_caller(message).model_copy(
        update={
            "id": chunk_id,
            "usage_metadata": message.usage_metadata,
            "response_metadata": dict(message.response_metadata),
            "chunk_position": "last",
        }
    )


def _json(value: Any) -> str:
    return json.dumps(value)


def piece(message: BaseMessage | BaseMessageChunk | str) -> StreamedPiece[AIMessageChunk]:
    """One chunk of the inner model's stream (a chat chunk, or a completion model's text)."""
    if isinstance(message, str):
        return StreamedPiece(AIMessageChunk(content=message), message)
    usage = getattr(message, "usage_metadata", None) or {}
    return StreamedPiece(
        for_caller(message),
        message.text,
        usage.get("input_tokens"),
        usage.get("output_tokens"),
    )


def _has_content(chunk: AIMessageChunk) -> bool:
    return bool(chunk.text) or bool(chunk.tool_call_chunks) or bool(chunk.content)


class _Closer:
    """Holds back the latest content chunk so the record can go on it."""

    def __init__(self) -> None:
        self.held: AIMessageChunk | None = None

    def push(self, event: StreamEvent[AIMessageChunk]) -> list[AIMessageChunk]:
        if isinstance(event, Finished):
            return self.finish(event)
        chunk = AIMessageChunk(content=event.text) if isinstance(event, CacheText) else event.chunk
        if not _has_content(chunk):
            return [chunk]  # metadata only (a finish reason): passed on now
        out = [self.held] if self.held is not None else []
        self.held = chunk
        return out

    def finish(self, event: Finished) -> list[AIMessageChunk]:
        result = event.result
        record = {"stepcache": result.record.to_dict()}
        usage = usage_metadata(result.record)
        remaining = remaining_text(result)
        if self.held is not None and not remaining:
            last = self.held.model_copy(
                update={
                    "response_metadata": {**self.held.response_metadata, **record},
                    "usage_metadata": usage,
                    "chunk_position": "last",
                }
            )
            return [last]
        closing = AIMessageChunk(
            content=remaining, response_metadata=record, usage_metadata=usage, chunk_position="last"
        )
        return [self.held, closing] if self.held is not None else [closing]


def caller_chunks(
    events: Generator[StreamEvent[AIMessageChunk], None, None],
) -> Generator[AIMessageChunk, None, None]:
    """The wrapper's stream: cache text and inner chunks, the record on the last content.

    Closing this stream early closes ``events`` (the request path and the inner stream).
    """
    closer = _Closer()
    try:
        for event in events:
            yield from closer.push(event)
    finally:
        events.close()


async def caller_chunks_async(
    events: AsyncGenerator[StreamEvent[AIMessageChunk], None],
) -> AsyncGenerator[AIMessageChunk, None]:
    """Async twin of :func:`caller_chunks`."""
    closer = _Closer()
    try:
        async for event in events:
            for chunk in closer.push(event):
                yield chunk
    finally:
        await events.aclose()
