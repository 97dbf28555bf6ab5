"""What the LlamaIndex wrapper tells observers, beyond LlamaIndex's own LLM events.

:class:`StepCacheEvent` carries the record of each request through LlamaIndex's
instrumentation dispatcher. :class:`LegacyRelay` keeps legacy callback handlers (such as
``TokenCountingHandler``) true: they hear of every real model call exactly once, and of
nothing else (a cache hit costs no tokens, so it is no LLM event for them).

Why: the wrapper's own call goes through LlamaIndex's ``llm_chat_callback`` /
``llm_completion_callback``, whose legacy LLM event would count a request served from the
cache (LlamaIndex estimates the tokens of a response that reports zero) and would count a
model call a second time for a handler that also listens to the inner model. So the
wrapper's legacy LLM event goes to no handler; the inner model reports its own calls to its
own handlers, and the relay reports them to the wrapper's handlers that the inner model does
not have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, ChatResponse, CompletionResponse
from llama_index.core.callbacks import CallbackManager, CBEventType, EventPayload
from llama_index.core.callbacks.base import EventContext
from llama_index.core.instrumentation.events import BaseEvent
from llama_index.core.llms.llm import LLM

__all__ = ["LegacyRelay", "RelayedCall", "StepCacheEvent", "silent_callback_manager"]

Response = ChatResponse | CompletionResponse


class StepCacheEvent(BaseEvent):
    """One StepCache decision, sent through LlamaIndex's instrumentation dispatcher.

    ``record`` is the request's record as a JSON-serialisable dict (the same dict as in
    ``additional_kwargs["stepcache"]``); ``span_id`` is the wrapper call's span.

    Example:
        .. code-block:: python

            from llama_index.core.instrumentation import get_dispatcher
            from llama_index.core.instrumentation.event_handlers import BaseEventHandler

            class Decisions(BaseEventHandler):
                def handle(self, event, **kwargs):
                    if isinstance(event, StepCacheEvent):
                        print(event.decision, event.record["tokens_saved"])

            get_dispatcher().add_event_handler(Decisions())
    """

    record: dict[str, Any]

    @property
    def decision(self) -> str:
        """``exact``, ``reuse``, ``patch``, ``skip``, ``miss`` or ``bypass``."""
        return str(self.record.get("decision", ""))

    @classmethod
    def class_name(cls) -> str:
        """The serialisation name of this event."""
        return "StepCacheEvent"


def silent_callback_manager() -> CallbackManager:
    """A callback manager with no handlers at all.

    ``CallbackManager([])`` is not one: an empty list falls back to the handlers of
    ``Settings.callback_manager`` (and the global handler is always added).
    """
    manager = CallbackManager([])
    manager.handlers = []
    return manager


class LegacyRelay:
    """Reports the inner model's calls to the wrapper's legacy handlers it does not reach.

    Handlers are compared by identity with the inner model's own, read at call time (a
    handler attached to the inner model later is heard there, and only there).
    """

    def __init__(self, wrapper: CallbackManager | None, inner: LLM) -> None:
        inner_manager = getattr(inner, "callback_manager", None)
        inner_handlers = (
            {id(handler) for handler in inner_manager.handlers}
            if isinstance(inner_manager, CallbackManager)
            else set()
        )
        wrapper_handlers = wrapper.handlers if isinstance(wrapper, CallbackManager) else []
        handlers = [h for h in wrapper_handlers if id(h) not in inner_handlers]
        self.manager: CallbackManager | None = None
        if handlers:
            self.manager = silent_callback_manager()
            self.manager.handlers = handlers
        self.serialized = inner.to_payload()

    def start(
        self,
        *,
        messages: Sequence[ChatMessage] | None = None,
        prompt: str | None = None,
        kwargs: Mapping[str, Any] | None = None,
    ) -> RelayedCall:
        """Report the start of one inner call (a no-op when no handler needs it)."""
        return RelayedCall(self, messages, prompt, dict(kwargs or {}))


class RelayedCall:
    """One inner model call, as the relay reports it (LlamaIndex's own payload keys)."""

    def __init__(
        self,
        relay: LegacyRelay,
        messages: Sequence[ChatMessage] | None,
        prompt: str | None,
        kwargs: dict[str, Any],
    ) -> None:
        self.messages = list(messages) if messages is not None else None
        self.prompt = prompt
        self.event: EventContext | None = None
        if relay.manager is None:
            return
        self.event = EventContext(relay.manager, CBEventType.LLM)
        payload: dict[str, Any] = (
            {EventPayload.MESSAGES: self.messages}
            if self.messages is not None
            else {EventPayload.PROMPT: prompt}
        )
        payload[EventPayload.ADDITIONAL_KWARGS] = kwargs
        payload[EventPayload.SERIALIZED] = relay.serialized
        self.event.on_start(payload=payload)

    def end(self, response: Response | None) -> None:
        """Report what the inner model answered (the last chunk of a stream)."""
        if self.event is None or self.event.finished:
            return
        payload: dict[str, Any]
        if self.messages is not None:
            payload = {EventPayload.MESSAGES: self.messages, EventPayload.RESPONSE: response}
        else:
            payload = {EventPayload.PROMPT: self.prompt, EventPayload.COMPLETION: response}
        self.event.on_end(payload=payload)

    def fail(self, error: BaseException) -> None:
        """Report an inner call that raised (or a stream its reader stopped)."""
        if self.event is not None and not self.event.finished:
            self.event.on_end(payload={EventPayload.EXCEPTION: error})
