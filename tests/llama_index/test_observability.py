"""What observers see: instrumentation events and spans, legacy callbacks, token counts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from llama_index.core import Settings
from llama_index.core.base.llms.types import ChatMessage, ChatResponse, CompletionResponse
from llama_index.core.callbacks import CallbackManager, CBEventType, EventPayload
from llama_index.core.callbacks.base_handler import BaseCallbackHandler
from llama_index.core.callbacks.token_counting import TokenCountingHandler
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events import BaseEvent
from llama_index.core.instrumentation.events.exception import ExceptionEvent
from llama_index.core.instrumentation.events.llm import LLMChatEndEvent, LLMChatStartEvent
from llama_index.core.instrumentation.span_handlers import SimpleSpanHandler
from pydantic import Field

from stepcache_integrations.llama_index import StepCacheEvent, StepCacheLLM
from tests.conftest import ScriptedLLM, eq


def user(text: str) -> list[ChatMessage]:
    return [ChatMessage(role="user", content=text)]


class EventLog(BaseEventHandler):
    """Collects every instrumentation event."""

    events: list[BaseEvent] = Field(default_factory=list)

    def handle(self, event: BaseEvent, **kwargs: Any) -> None:
        self.events.append(event)

    def of(self, kind: type[BaseEvent]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


class CallbackLog(BaseCallbackHandler):
    """Collects legacy LLM callback events."""

    def __init__(self) -> None:
        super().__init__(event_starts_to_ignore=[], event_ends_to_ignore=[])
        self.starts: list[dict[str, Any]] = []
        self.ends: list[dict[str, Any]] = []

    def on_event_start(
        self,
        event_type: CBEventType,
        payload: dict[str, Any] | None = None,
        event_id: str = "",
        parent_id: str = "",
        **kwargs: Any,
    ) -> str:
        if event_type == CBEventType.LLM:
            self.starts.append(payload or {})
        return event_id

    def on_event_end(
        self,
        event_type: CBEventType,
        payload: dict[str, Any] | None = None,
        event_id: str = "",
        **kwargs: Any,
    ) -> None:
        if event_type == CBEventType.LLM:
            self.ends.append(payload or {})

    def start_trace(self, trace_id: str | None = None) -> None:
        return None

    def end_trace(
        self, trace_id: str | None = None, trace_map: dict[str, list[str]] | None = None
    ) -> None:
        return None


@pytest.fixture
def log() -> Iterator[EventLog]:
    root = get_dispatcher()
    handler = EventLog()
    root.add_event_handler(handler)
    yield handler
    root.event_handlers.remove(handler)


@pytest.fixture
def spans() -> Iterator[SimpleSpanHandler]:
    root = get_dispatcher()
    handler = SimpleSpanHandler()
    root.add_span_handler(handler)
    yield handler
    root.span_handlers.remove(handler)


def counter() -> TokenCountingHandler:
    # A whitespace tokenizer: estimates (if any were made) would be visible and offline.
    return TokenCountingHandler(tokenizer=str.split)


# -- instrumentation --------------------------------------------------------------------------


def test_one_stepcache_event_per_request_carrying_the_record(log: EventLog) -> None:
    llm = StepCacheLLM(llm=ScriptedLLM())
    first = llm.chat(user(eq()))
    llm.chat(user(eq()))
    llm.complete(eq("y"))
    events = log.of(StepCacheEvent)
    assert [e.decision for e in events] == ["miss", "exact", "miss"]
    assert events[0].record == first.additional_kwargs["stepcache"]
    assert events[0].class_name() == "StepCacheEvent"
    assert events[0].model_dump()["record"]["decision"] == "miss"


def test_events_and_spans_nest_the_inner_call(log: EventLog, spans: SimpleSpanHandler) -> None:
    llm = StepCacheLLM(llm=ScriptedLLM())
    llm.chat(user(eq()))
    [decision] = log.of(StepCacheEvent)
    assert decision.span_id is not None and decision.span_id.startswith("StepCacheLLM.chat-")
    by_id = {span.id_: span for span in spans.completed_spans}
    inner = [s for s in spans.completed_spans if s.id_.startswith("ScriptedLLM.chat-")]
    assert len(inner) == 1
    assert inner[0].parent_id == decision.span_id  # the inner call runs inside the wrapper's
    assert by_id[decision.span_id].parent_id is None
    # The wrapper reports its own chat start and end in its span, like any LlamaIndex LLM.
    starts = [e for e in log.of(LLMChatStartEvent) if e.span_id == decision.span_id]
    ends = [e for e in log.of(LLMChatEndEvent) if e.span_id == decision.span_id]
    assert len(starts) == 1 and len(ends) == 1
    assert ends[0].response.additional_kwargs["stepcache"]["decision"] == "miss"


def test_a_cache_hit_runs_no_inner_span(log: EventLog, spans: SimpleSpanHandler) -> None:
    llm = StepCacheLLM(llm=ScriptedLLM())
    llm.chat(user(eq()))
    spans.completed_spans.clear()
    llm.chat(user(eq("z")))
    assert [e.decision for e in log.of(StepCacheEvent)] == ["miss", "reuse"]
    assert not [s for s in spans.completed_spans if s.id_.startswith("ScriptedLLM.")]


def test_streamed_events_carry_the_call_span(log: EventLog) -> None:
    llm = StepCacheLLM(llm=ScriptedLLM())
    list(llm.stream_chat(user("Tell me about Lisbon.")))
    [decision] = log.of(StepCacheEvent)
    assert decision.span_id is not None and decision.span_id.startswith("StepCacheLLM.stream_chat-")


async def test_async_events(log: EventLog) -> None:
    llm = StepCacheLLM(llm=ScriptedLLM())
    await llm.achat(user(eq()))
    stream = await llm.astream_complete(eq())
    [chunk async for chunk in stream]
    assert [e.decision for e in log.of(StepCacheEvent)] == ["miss", "miss"]


def test_inner_error_reaches_the_caller_and_every_observer(
    log: EventLog, spans: SimpleSpanHandler
) -> None:
    def explode(prompt: str) -> str:
        raise RuntimeError("upstream down")

    callbacks = CallbackLog()
    llm = StepCacheLLM(
        llm=ScriptedLLM(responder=explode), callback_manager=CallbackManager([callbacks])
    )
    with pytest.raises(RuntimeError):
        llm.chat(user(eq()))
    assert not log.of(StepCacheEvent)
    # The wrapper's span ends with the error, as any LlamaIndex call's does...
    dropped = [s for s in spans.dropped_spans if s.id_.startswith("StepCacheLLM.chat-")]
    assert len(dropped) == 1
    # ...and a legacy handler hears of the model call that failed.
    assert len(callbacks.starts) == 1 and len(callbacks.ends) == 1
    assert isinstance(callbacks.ends[0][EventPayload.EXCEPTION], RuntimeError)


def test_stream_errors_are_exception_events(log: EventLog) -> None:
    def explode(prompt: str) -> str:
        raise RuntimeError("upstream down")

    llm = StepCacheLLM(llm=ScriptedLLM(responder=explode))
    with pytest.raises(RuntimeError):
        list(llm.stream_chat(user("Tell me about Lagos.")))
    assert any(str(e.exception) == "upstream down" for e in log.of(ExceptionEvent))


# -- legacy callbacks and token counting ------------------------------------------------------
# Legacy handlers hear of every real model call once, and of nothing else: a request served
# from the cache spent no tokens, so it is no LLM event for them.


def test_a_handler_on_the_inner_model_hears_each_model_call() -> None:
    callbacks = CallbackLog()
    user_manager = CallbackManager([callbacks])
    inner = ScriptedLLM(callback_manager=user_manager)
    llm = StepCacheLLM(llm=inner)
    assert inner.callback_manager is user_manager  # the user's inner model is left alone
    llm.chat(user(eq()))  # miss: one model call
    llm.chat(user(eq()))  # exact: none
    list(llm.stream_complete("Tell me about Porto."))  # miss, streamed: one model call
    assert inner.callback_manager is user_manager and user_manager.handlers == [callbacks]
    assert len(callbacks.starts) == 2 and len(callbacks.ends) == 2
    assert callbacks.starts[0][EventPayload.MESSAGES][0].content == eq()
    assert callbacks.starts[1][EventPayload.PROMPT] == "Tell me about Porto."


def test_token_counting_counts_only_tokens_really_spent() -> None:
    tokens = counter()
    inner = ScriptedLLM(callback_manager=CallbackManager([tokens]))
    llm = StepCacheLLM(llm=inner)
    responses: list[ChatResponse | CompletionResponse] = [
        llm.chat(user(eq())),  # miss
        llm.chat(user(eq())),  # exact
        llm.chat(user(eq("y"))),  # reuse
        # A right side that changes sign is not re-instantiated: the solver writes the
        # steps (a patch, no model call); 3x + 8 = 20 would be a reuse.
        llm.chat(user(eq(c=-1))),
        llm.complete("Tell me about Porto."),  # miss
    ]
    records = [r.additional_kwargs["stepcache"] for r in responses]
    assert [r["decision"] for r in records] == ["miss", "exact", "reuse", "patch", "miss"]
    counted = tokens.llm_token_counts
    assert len(counted) == sum(r["model_calls"] for r in records) == 2
    spent = [r for r in records if r["model_calls"]]
    assert [c.prompt_token_count for c in counted] == [r["tokens_input"] for r in spent]
    assert [c.completion_token_count for c in counted] == [r["tokens_output"] for r in spent]
    assert tokens.total_llm_token_count == sum(r["tokens_used"] for r in records) > 0


def test_token_counting_of_streams_with_the_counter_on_the_wrapper() -> None:
    tokens = counter()
    llm = StepCacheLLM(llm=ScriptedLLM(), callback_manager=CallbackManager([tokens]))
    first = list(llm.stream_chat(user("Tell me about Faro.")))
    again = list(llm.stream_chat(user("Tell me about Faro.")))
    spent = first[-1].additional_kwargs["stepcache"]["tokens_used"]
    assert again[-1].additional_kwargs["stepcache"]["decision"] == "exact"
    assert spent > 0 and [c.total_token_count for c in tokens.llm_token_counts] == [spent]


def test_a_handler_on_both_models_counts_each_call_once() -> None:
    tokens = counter()
    inner = ScriptedLLM()
    llm = StepCacheLLM(llm=inner, callback_manager=CallbackManager([tokens]))
    inner.callback_manager = CallbackManager([tokens])  # e.g. Settings.llm = inner elsewhere
    answer = llm.chat(user(eq()))
    assert len(tokens.llm_token_counts) == 1
    assert tokens.total_llm_token_count == answer.additional_kwargs["stepcache"]["tokens_used"]
    assert inner.callback_manager.handlers == [tokens]  # left as the user set it


def test_settings_callback_manager_counts_each_request_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("_llm", "_embed_model", "_callback_manager"):
        monkeypatch.setattr(Settings, name, getattr(Settings, name))
    tokens = counter()
    # LlamaIndex's documented way: every component created afterwards reports to it, and
    # ``CallbackManager([])`` itself falls back to these handlers.
    Settings.callback_manager = CallbackManager([tokens])
    inner = ScriptedLLM()
    assert inner.callback_manager.handlers == [tokens]
    Settings.llm = StepCacheLLM(llm=inner)
    first = Settings.llm.chat(user(eq()))
    reused = Settings.llm.chat(user(eq("n")))
    assert reused.additional_kwargs["stepcache"]["decision"] == "reuse"
    spent = first.additional_kwargs["stepcache"]["tokens_used"]
    assert [c.total_token_count for c in tokens.llm_token_counts] == [spent]
    assert inner.callback_manager.handlers == [tokens]
