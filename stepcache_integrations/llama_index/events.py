"""What the LlamaIndex wrapper tells observers: instrumentation events and legacy callbacks.

:class:`StepCacheEvent` carries the record of each request through LlamaIndex's dispatcher.
:class:`CallReport` reports one wrapper call the way LlamaIndex's own ``llm_chat_callback`` /
``llm_completion_callback`` decorators do (start, in-progress and end events, one legacy
``CBEventType.LLM`` event), with one difference that keeps token counting true: see
:meth:`CallReport.end`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from llama_index.core.base.llms.base import BaseLLM
from llama_index.core.base.llms.types import ChatMessage, ChatResponse, CompletionResponse
from llama_index.core.callbacks import CallbackManager, CBEventType, EventPayload

# LlamaIndex's documented import; the package re-exports it without ``__all__``.
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.events import BaseEvent
from llama_index.core.instrumentation.events.exception import ExceptionEvent
from llama_index.core.instrumentation.events.llm import (
    LLMChatEndEvent,
    LLMChatInProgressEvent,
    LLMChatStartEvent,
    LLMCompletionEndEvent,
    LLMCompletionInProgressEvent,
    LLMCompletionStartEvent,
)
from llama_index.core.instrumentation.span import active_span_id

from stepcache_integrations.core.records import StepCacheRecord

__all__ = ["CallReport", "StepCacheEvent"]

dispatcher = get_dispatcher(__name__)


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


Response = ChatResponse | CompletionResponse


class CallReport:
    """Reports one call of a wrapper LLM to its callback manager and to the dispatcher.

    Give either ``messages`` (chat) or ``prompt`` (completion). Create it inside the call's
    span, so every event carries that span's id even when a stream is consumed later.
    """

    def __init__(
        self,
        llm: BaseLLM,
        *,
        messages: Sequence[ChatMessage] | None = None,
        prompt: str | None = None,
        kwargs: Mapping[str, Any] | None = None,
    ) -> None:
        if (messages is None) == (prompt is None):
            raise ValueError("CallReport needs either messages or a prompt")
        if not isinstance(llm.callback_manager, CallbackManager):
            # The same repair LlamaIndex's decorators make for a missing manager.
            llm.callback_manager = CallbackManager()
        self.callbacks: CallbackManager = llm.callback_manager
        self.messages = list(messages) if messages is not None else None
        self.prompt = prompt
        self.kwargs = dict(kwargs or {})
        self.model_dict = llm.to_payload()
        self.span_id = active_span_id.get()
        self.event_id = ""

    @property
    def trace_name(self) -> str:
        """The legacy trace name LlamaIndex uses for this kind of call."""
        return "chat" if self.messages is not None else "completion"

    def start(self) -> None:
        """Report the start of the call."""
        if self.messages is not None:
            dispatcher.event(
                LLMChatStartEvent(
                    model_dict=self.model_dict,
                    messages=self.messages,
                    additional_kwargs=self.kwargs,
                    span_id=self.span_id,
                )
            )
            payload: dict[str, Any] = {EventPayload.MESSAGES: self.messages}
        else:
            dispatcher.event(
                LLMCompletionStartEvent(
                    model_dict=self.model_dict,
                    prompt=str(self.prompt),
                    additional_kwargs=self.kwargs,
                    span_id=self.span_id,
                )
            )
            payload = {EventPayload.PROMPT: self.prompt}
        payload[EventPayload.ADDITIONAL_KWARGS] = self.kwargs
        payload[EventPayload.SERIALIZED] = self.model_dict
        self.event_id = self.callbacks.on_event_start(CBEventType.LLM, payload=payload)

    def progress(self, response: Response) -> None:
        """Report one streamed chunk."""
        if self.messages is not None and isinstance(response, ChatResponse):
            dispatcher.event(
                LLMChatInProgressEvent(
                    messages=self.messages, response=response, span_id=self.span_id
                )
            )
        elif isinstance(response, CompletionResponse):
            dispatcher.event(
                LLMCompletionInProgressEvent(
                    prompt=str(self.prompt), response=response, span_id=self.span_id
                )
            )

    def end(self, response: Response, record: StepCacheRecord) -> None:
        """Report the decision and the end of the call.

        When the request spent no tokens (served from the cache), the legacy end payload
        carries the response but not the messages or prompt: ``TokenCountingHandler`` treats
        a response without usage as "unknown" and would estimate tokens from the text, but
        it counts a payload without messages or prompt as zero, which is what was spent.
        """
        dispatcher.event(StepCacheEvent(record=record.to_dict(), span_id=self.span_id))
        spent = record.tokens_used > 0
        if self.messages is not None:
            payload: dict[str, Any] = {EventPayload.RESPONSE: response}
            if spent:
                payload[EventPayload.MESSAGES] = self.messages
        else:
            payload = {EventPayload.COMPLETION: response}
            if spent:
                payload[EventPayload.PROMPT] = self.prompt
        self.callbacks.on_event_end(CBEventType.LLM, payload=payload, event_id=self.event_id)
        if self.messages is not None and isinstance(response, ChatResponse):
            dispatcher.event(
                LLMChatEndEvent(messages=self.messages, response=response, span_id=self.span_id)
            )
        elif isinstance(response, CompletionResponse):
            dispatcher.event(
                LLMCompletionEndEvent(
                    prompt=str(self.prompt), response=response, span_id=self.span_id
                )
            )

    def fail(self, error: BaseException) -> None:
        """Report a call that raised (the inner model's error, or the caller stopping)."""
        self.callbacks.on_event_end(
            CBEventType.LLM, payload={EventPayload.EXCEPTION: error}, event_id=self.event_id
        )
        dispatcher.event(ExceptionEvent(exception=error, span_id=self.span_id))
