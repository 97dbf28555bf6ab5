"""Driving the request path: the loops that answer its model calls, written once.

The request path (:meth:`StepCache.serve <stepcache_integrations.core.cache.StepCache.serve>`)
is a generator with no I/O: it yields :class:`~stepcache_integrations.core.protocol.ModelCall`
and :class:`~stepcache_integrations.core.protocol.Emit` actions and receives
:class:`~stepcache_integrations.core.protocol.ModelReply` objects. The four drivers here
(sync, async, streaming sync, streaming async) answer it for every framework adapter, and
validate every reply's token counts on the way (:func:`validated_reply`).

Streaming drivers yield :class:`CacheText` (text the cache has ready), :class:`ModelChunk`
(a framework chunk of a live model call, passed on as it arrives) and, last,
:class:`Finished` with the result. A stream closed early by its reader closes the request
path and the model's stream too.

**The model's exceptions are its own.** Only :meth:`flow.send` ends the request path with
``StopIteration``, so only that call is read as the end: a model that raises
``StopIteration`` (a scripted model whose answers ran out) or ``StopAsyncIteration`` is not
mistaken for a finished request. :func:`drive` and :func:`drive_async` let every model
exception through unchanged, these two included (a coroutine cannot raise ``StopIteration``:
Python turns one raised *inside* the model's coroutine into ``RuntimeError`` before the driver
sees it). The streaming drivers are generators: Python turns a ``StopIteration`` (and, in
:func:`drive_astream`, a ``StopAsyncIteration``) that would leave them into ``RuntimeError``
with the model's exception as ``__cause__`` (PEP 479), which is what the caller must get: the
exception unchanged would end the caller's loop silently, passing a cut answer off as whole.
Whichever the driver, the flow is closed and nothing is stored for the request.

A framework that calls the model itself between a cache lookup and a cache update (LangChain's
``BaseCache``) runs the request path in two parts: :func:`drive_to_call` up to its model call,
which it holds as a :class:`PendingCall`, and :meth:`PendingCall.answer` with the model's reply.
"""

from __future__ import annotations

from collections.abc import (
    AsyncGenerator,
    AsyncIterable,
    Awaitable,
    Callable,
    Generator,
    Iterable,
)
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from stepcache_integrations.adapter.usage import token_count, validated_reply
from stepcache_integrations.core.protocol import (
    Emit,
    ModelCall,
    ModelReply,
    ServeGenerator,
    ServeResult,
)

__all__ = [
    "CacheText",
    "Finished",
    "ModelChunk",
    "PendingCall",
    "StreamEvent",
    "StreamedPiece",
    "UsageMode",
    "drive",
    "drive_astream",
    "drive_async",
    "drive_stream",
    "drive_to_call",
    "remaining_text",
]

C = TypeVar("C")

UsageMode = Literal["sum", "last"]
"""How a stream reports usage: per chunk, to be added up (LangChain), or cumulatively, the
last report being the total (LlamaIndex and most provider streams)."""


@dataclass(frozen=True)
class StreamedPiece(Generic[C]):
    """One chunk of a live model call as the driver sees it: the framework chunk to pass
    on, the text it adds, and any token counts it reports."""

    chunk: C
    text: str
    input_tokens: Any = None
    output_tokens: Any = None
    raw: Any = None


@dataclass(frozen=True)
class CacheText:
    """Text that is final and comes from the cache (reused steps, a hit, a mended answer)."""

    text: str


@dataclass(frozen=True)
class ModelChunk(Generic[C]):
    """A chunk of a live model call, to pass on to the caller as it is."""

    chunk: C


@dataclass(frozen=True)
class Finished:
    """The end of a streamed request: its result (text, record, what was shown)."""

    result: ServeResult


StreamEvent = CacheText | ModelChunk[C] | Finished


def remaining_text(result: ServeResult) -> str:
    """The part of the answer a streaming caller has not been shown yet.

    Example:
        >>> from stepcache_integrations.core.records import StepCacheRecord
        >>> remaining_text(ServeResult("ab", StepCacheRecord("miss"), emitted="a"))
        'b'
    """
    if result.text.startswith(result.emitted):
        return result.text[len(result.emitted) :]
    return ""


def drive(flow: ServeGenerator, call_model: Callable[[ModelCall], ModelReply]) -> ServeResult:
    """Run ``flow`` to its result, answering each :class:`ModelCall` with ``call_model``.

    An exception from the model propagates unchanged (``StopIteration`` too); the flow is
    closed and the cache stores nothing for that request.
    """
    reply: ModelReply | None = None
    try:
        while True:
            try:
                action = flow.send(reply)
            except StopIteration as stop:  # the request path's end, and only that
                result: ServeResult = stop.value
                return result
            reply = validated_reply(call_model(action)) if isinstance(action, ModelCall) else None
    finally:
        flow.close()


async def drive_async(
    flow: ServeGenerator, call_model: Callable[[ModelCall], Awaitable[ModelReply]]
) -> ServeResult:
    """Async twin of :func:`drive` (a model's exception propagates as the awaited call raised
    it)."""
    reply: ModelReply | None = None
    try:
        while True:
            try:
                action = flow.send(reply)
            except StopIteration as stop:  # the request path's end, and only that
                result: ServeResult = stop.value
                return result
            if isinstance(action, ModelCall):
                reply = validated_reply(await call_model(action))
            else:
                reply = None
    finally:
        flow.close()


class PendingCall:
    """A request path stopped at its model call, for a driver that answers it later.

    :meth:`answer` gives the model's reply and runs the request path to its result;
    :meth:`cancel` ends it with nothing stored and nothing recorded (the model failed, or the
    answer never came). The request path may ask for this one call only (a request with
    ``model_access`` other than ``"calls"``).
    """

    def __init__(self, flow: ServeGenerator, call: ModelCall) -> None:
        self.flow = flow
        self.call = call

    def answer(self, reply: ModelReply) -> ServeResult:
        """Answer the held call with ``reply`` (its token counts validated) and finish."""
        answered: ModelReply | None = validated_reply(reply)
        try:
            while True:
                action = self.flow.send(answered)
                if isinstance(action, ModelCall):
                    raise RuntimeError(
                        f"the request path asked for a second model call ({action.purpose}); "
                        "this driver answers one: build the request with model_access='one_call'"
                    )
                answered = None
        except StopIteration as stop:
            result: ServeResult = stop.value
            return result
        finally:
            self.flow.close()

    def cancel(self) -> None:
        """End the request path without an answer: nothing is stored or recorded."""
        self.flow.close()


def drive_to_call(flow: ServeGenerator) -> ServeResult | PendingCall:
    """Run ``flow`` until it needs the model (a :class:`PendingCall`) or has its result.

    Emitted text is not shown to anyone (it is in the result).

    Example:
        >>> from stepcache_integrations import StepCache
        >>> from stepcache_integrations.core.protocol import CacheRequest
        >>> cache = StepCache()
        >>> request = CacheRequest("Tell me about Faro.", "ns", model_access="one_call")
        >>> pending = drive_to_call(cache.serve(request))
        >>> pending.answer(ModelReply("Faro is in the south.")).record.stored
        True
        >>> drive_to_call(cache.serve(request)).record.decision
        'exact'
    """
    try:
        action = flow.send(None)
        while not isinstance(action, ModelCall):
            action = flow.send(None)
    except StopIteration as stop:
        flow.close()
        result: ServeResult = stop.value
        return result
    except BaseException:
        flow.close()
        raise
    return PendingCall(flow, action)


class _Collector:
    """Builds the reply of a streamed model call from its pieces."""

    def __init__(self, usage: UsageMode) -> None:
        self.mode = usage
        self.parts: list[str] = []
        self.inputs: list[int] = []
        self.outputs: list[int] = []
        self.raw: Any = None

    def add(self, piece: StreamedPiece[Any]) -> None:
        self.parts.append(piece.text)
        if piece.raw is not None:
            self.raw = piece.raw
        for value, seen in ((piece.input_tokens, self.inputs), (piece.output_tokens, self.outputs)):
            count = token_count(value)
            if count is not None:
                seen.append(count)

    def _total(self, seen: list[int]) -> int | None:
        if not seen:
            return None
        return sum(seen) if self.mode == "sum" else seen[-1]

    def reply(self) -> ModelReply:
        return ModelReply(
            "".join(self.parts), self._total(self.inputs), self._total(self.outputs), self.raw
        )


def drive_stream(
    flow: ServeGenerator,
    call_model: Callable[[ModelCall], ModelReply],
    stream_model: Callable[[ModelCall], Iterable[StreamedPiece[C]]],
    *,
    usage: UsageMode,
    on_finish: Callable[[ServeResult], None] | None = None,
) -> Generator[StreamEvent[C], None, None]:
    """Run ``flow`` for a streaming caller.

    Live model calls (their text goes straight to the caller) use ``stream_model``; the
    others (checked before anything is shown) use ``call_model``. ``on_finish`` sees the
    result before the last event, :class:`Finished`.
    """
    reply: ModelReply | None = None
    try:
        while True:
            try:
                action = flow.send(reply)
            except StopIteration as stop:
                result: ServeResult = stop.value
                break
            reply = None
            if isinstance(action, Emit):
                yield CacheText(action.text)
            elif action.live:
                collector = _Collector(usage)
                pieces = stream_model(action)
                try:
                    for piece in pieces:
                        collector.add(piece)
                        yield ModelChunk(piece.chunk)
                finally:
                    _close(pieces)
                reply = collector.reply()
            else:
                reply = validated_reply(call_model(action))
    finally:
        flow.close()
    if on_finish is not None:
        on_finish(result)
    yield Finished(result)


async def drive_astream(
    flow: ServeGenerator,
    call_model: Callable[[ModelCall], Awaitable[ModelReply]],
    stream_model: Callable[[ModelCall], AsyncIterable[StreamedPiece[C]]],
    *,
    usage: UsageMode,
    on_finish: Callable[[ServeResult], Awaitable[None]] | None = None,
) -> AsyncGenerator[StreamEvent[C], None]:
    """Async twin of :func:`drive_stream`."""
    reply: ModelReply | None = None
    try:
        while True:
            try:
                action = flow.send(reply)
            except StopIteration as stop:
                result: ServeResult = stop.value
                break
            reply = None
            if isinstance(action, Emit):
                yield CacheText(action.text)
            elif action.live:
                collector = _Collector(usage)
                pieces = stream_model(action)
                try:
                    async for piece in pieces:
                        collector.add(piece)
                        yield ModelChunk(piece.chunk)
                finally:
                    await _aclose(pieces)
                reply = collector.reply()
            else:
                reply = validated_reply(await call_model(action))
    finally:
        flow.close()
    if on_finish is not None:
        await on_finish(result)
    yield Finished(result)


def _close(iterable: object) -> None:
    close = getattr(iterable, "close", None)
    if callable(close):
        close()


async def _aclose(iterable: object) -> None:
    aclose = getattr(iterable, "aclose", None)
    if callable(aclose):
        await aclose()
