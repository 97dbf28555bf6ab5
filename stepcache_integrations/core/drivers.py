"""Drivers: run the request path against a model function, sync or async.

Streaming adapters drive the generator themselves (they must yield chunks in between); these
two helpers cover every non-streaming call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from stepcache_integrations.core.protocol import (
    ModelCall,
    ModelReply,
    ServeGenerator,
    ServeResult,
)

__all__ = ["drive", "drive_async"]


def drive(flow: ServeGenerator, call_model: Callable[[ModelCall], ModelReply]) -> ServeResult:
    """Run ``flow`` to its result, answering each :class:`ModelCall` with ``call_model``.

    An exception from the model is thrown into the flow's frame and propagates unchanged; the
    cache stores nothing for that request.
    """
    reply: ModelReply | None = None
    try:
        while True:
            action = flow.send(reply)
            reply = call_model(action) if isinstance(action, ModelCall) else None
    except StopIteration as stop:
        result: ServeResult = stop.value
        return result
    finally:
        flow.close()


async def drive_async(
    flow: ServeGenerator, call_model: Callable[[ModelCall], Awaitable[ModelReply]]
) -> ServeResult:
    """Async twin of :func:`drive`."""
    reply: ModelReply | None = None
    try:
        while True:
            action = flow.send(reply)
            reply = await call_model(action) if isinstance(action, ModelCall) else None
    except StopIteration as stop:
        result: ServeResult = stop.value
        return result
    finally:
        flow.close()
