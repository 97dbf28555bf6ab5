"""What the LangChain wrapper relies on in langchain-core, one behaviour per test.

``StepCacheLLM`` learns a call's tenant (and callbacks) from its run manager, which
langchain-core hands to ``_generate`` but not to ``_stream``/``_astream``. The wrapper
therefore overrides the public ``stream``/``astream`` and keeps the call's context in a
ContextVar while their iteration runs, and answers "no" to ``_should_stream`` inside
``invoke``. Each test below pins one behaviour of langchain-core that this relies on, on a
bare probe model (no StepCache involved): an upgrade that changes the call order fails the
test named for the behaviour, instead of costing a tenant's isolation or its cache hits. The
``stepcache_tenant=`` call keyword needs only the last behaviours: call keywords reach
``_stream`` and ``_generate``.

What the wrapper does on each path is tested in ``test_langchain_chat_model.py`` and in
``tests/security/test_tenant_*.py``.
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar
from typing import Any
from uuid import UUID, uuid4

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    BaseCallbackHandler,
    CallbackManager,
    CallbackManagerForLLMRun,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field

Manager = CallbackManagerForLLMRun | AsyncCallbackManagerForLLMRun | None

MARK: ContextVar[str | None] = ContextVar("contract_mark", default=None)


class Probe(BaseChatModel):
    """Records which hook langchain-core calls, with which run manager and keywords, and what
    :data:`MARK` holds while the hook's code runs."""

    calls: list[dict[str, Any]] = Field(default_factory=list)
    refuse_with_manager: bool = False  # answer _should_stream like StepCacheLLM does

    @property
    def _llm_type(self) -> str:
        return "probe"

    def _record(self, hook: str, run_manager: Manager, kwargs: dict[str, Any]) -> None:
        self.calls.append(
            {"hook": hook, "manager": run_manager, "kwargs": dict(kwargs), "mark": MARK.get()}
        )

    def _should_stream(
        self, *, async_api: bool, run_manager: Manager = None, **kwargs: Any
    ) -> bool:
        self._record("_should_stream", run_manager, kwargs)
        if self.refuse_with_manager and run_manager is not None:
            return False
        return super()._should_stream(async_api=async_api, run_manager=run_manager, **kwargs)

    # Generation hooks name their run manager: langchain-core passes it only to a hook whose
    # signature has one. Streaming hooks take it among the keywords, as langchain-core gives it.

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Manager = None, **kw: Any
    ) -> ChatResult:
        self._record("_generate", run_manager, kw)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content="ab"))])

    async def _agenerate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Manager = None, **kw: Any
    ) -> ChatResult:
        self._record("_agenerate", run_manager, kw)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content="ab"))])

    def _stream(self, messages: list[BaseMessage], **kw: Any) -> Iterator[ChatGenerationChunk]:
        for text in ("a", "b"):
            self._record("_stream", kw.get("run_manager"), without_run_manager(kw))
            yield ChatGenerationChunk(message=AIMessageChunk(content=text))

    async def _astream(
        self, messages: list[BaseMessage], **kw: Any
    ) -> AsyncIterator[ChatGenerationChunk]:
        for text in ("a", "b"):
            self._record("_astream", kw.get("run_manager"), without_run_manager(kw))
            yield ChatGenerationChunk(message=AIMessageChunk(content=text))

    def hooks(self, name: str) -> list[dict[str, Any]]:
        return [call for call in self.calls if call["hook"] == name]


def without_run_manager(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in kwargs.items() if key not in ("run_manager", "stop")}


class Starts(BaseCallbackHandler):
    """Records the run id of every chat model run it sees start."""

    def __init__(self) -> None:
        self.run_ids: list[UUID] = []

    def on_chat_model_start(
        self, serialized: Any, messages: Any, *, run_id: UUID, **_: Any
    ) -> None:
        self.run_ids.append(run_id)


# -- why the ContextVar exists ---------------------------------------------------------------


def test_langchain_core_calls__stream_without_a_run_manager_from_stream() -> None:
    probe = Probe()
    assert "".join(str(chunk.content) for chunk in probe.stream("hi")) == "ab"
    calls = probe.hooks("_stream")
    assert calls and all(call["manager"] is None for call in calls)
    assert probe.hooks("_generate") == []


async def test_langchain_core_calls__astream_without_a_run_manager_from_astream() -> None:
    probe = Probe()
    assert "".join([str(chunk.content) async for chunk in probe.astream("hi")]) == "ab"
    calls = probe.hooks("_astream")
    assert calls and all(call["manager"] is None for call in calls)


def test_langchain_core_calls__stream_without_a_run_manager_when_invoke_streams_implicitly() -> (
    None
):
    """Why the wrapper answers "no" to ``_should_stream`` when it is given a run manager."""
    probe = Probe()
    assert probe.invoke("hi", stream=True).content == "ab"
    calls = probe.hooks("_stream")
    assert calls and all(call["manager"] is None for call in calls)
    assert probe.hooks("_generate") == []


async def test_langchain_core_calls__astream_without_a_run_manager_when_ainvoke_streams() -> None:
    probe = Probe()
    assert (await probe.ainvoke("hi", stream=True)).content == "ab"
    calls = probe.hooks("_astream")
    assert calls and all(call["manager"] is None for call in calls)


# -- how the wrapper tells the two _should_stream questions apart -----------------------------


def test_langchain_core_asks__should_stream_with_the_run_manager_inside_invoke() -> None:
    probe = Probe()
    probe.invoke("hi", stream=True)
    [asked] = probe.hooks("_should_stream")
    assert isinstance(asked["manager"], CallbackManagerForLLMRun)


async def test_langchain_core_asks__should_stream_with_the_run_manager_inside_ainvoke() -> None:
    probe = Probe()
    await probe.ainvoke("hi", stream=True)
    [asked] = probe.hooks("_should_stream")
    assert isinstance(asked["manager"], AsyncCallbackManagerForLLMRun)


def test_langchain_core_asks__should_stream_without_a_run_manager_in_stream() -> None:
    probe = Probe()
    list(probe.stream("hi"))
    asked = probe.hooks("_should_stream")
    assert asked and all(call["manager"] is None for call in asked)


async def test_langchain_core_asks__should_stream_without_a_run_manager_in_astream() -> None:
    probe = Probe()
    [chunk async for chunk in probe.astream("hi")]
    asked = probe.hooks("_should_stream")
    assert asked and all(call["manager"] is None for call in asked)


def test_langchain_core_calls__generate_with_the_run_manager_when__should_stream_says_no() -> None:
    probe = Probe(refuse_with_manager=True)
    assert probe.invoke("hi", stream=True).content == "ab"
    [generated] = probe.hooks("_generate")
    assert isinstance(generated["manager"], CallbackManagerForLLMRun)
    assert probe.hooks("_stream") == []


async def test_langchain_core_calls__agenerate_with_the_run_manager_if__should_stream_says_no() -> (
    None
):
    probe = Probe(refuse_with_manager=True)
    assert (await probe.ainvoke("hi", stream=True)).content == "ab"
    [generated] = probe.hooks("_agenerate")
    assert isinstance(generated["manager"], AsyncCallbackManagerForLLMRun)
    assert probe.hooks("_astream") == []


# -- how the context reaches _stream: it runs inside the iteration of stream ------------------


def test_langchain_core_runs__stream_inside_each_step_of_the_iteration_of_stream() -> None:
    """The wrapper sets its ContextVar around each ``next()`` of ``super().stream()``: the
    probe's code must run there (lazily, in the caller's context), and never outside it."""
    probe = Probe()
    chunks = probe.stream("hi")
    seen_outside = []
    while True:
        token = MARK.set("inside")
        try:
            next(chunks)
        except StopIteration:
            break
        finally:
            MARK.reset(token)
        seen_outside.append(MARK.get())
    marks = [call["mark"] for call in probe.hooks("_stream")]
    assert marks == ["inside", "inside"]
    assert seen_outside and set(seen_outside) == {None}


async def test_langchain_core_runs__astream_inside_each_step_of_the_iteration_of_astream() -> None:
    probe = Probe()
    chunks = probe.astream("hi")
    while True:
        token = MARK.set("inside")
        try:
            await chunks.__anext__()
        except StopAsyncIteration:
            break
        finally:
            MARK.reset(token)
    marks = [call["mark"] for call in probe.hooks("_astream")]
    assert marks == ["inside", "inside"]


def test_langchain_core_starts_the_run_of_stream_with_the_run_id_and_handlers_it_is_given() -> None:
    """The wrapper's context names the run ``stream`` will start (its decision event and the
    inner model's child runs go there) and hands ``stream`` the callback manager it built."""
    starts = Starts()
    manager = CallbackManager.configure(inheritable_callbacks=[starts])
    run_id = uuid4()
    list(Probe().stream("hi", {"callbacks": manager, "run_id": run_id}))
    assert starts.run_ids == [run_id]  # the very handler object, and the given id


async def test_langchain_core_starts_the_run_of_astream_with_the_run_id_it_is_given() -> None:
    starts = Starts()
    run_id = uuid4()
    [chunk async for chunk in Probe().astream("hi", {"callbacks": [starts], "run_id": run_id})]
    assert starts.run_ids == [run_id]


# -- the other streaming paths ---------------------------------------------------------------


class Wrapped(Probe):
    """A probe that, like the wrapper, overrides the public ``astream``."""

    def astream(self, input: Any, config: Any = None, **kwargs: Any) -> AsyncIterator[Any]:
        self._record("astream", None, kwargs)
        return super().astream(input, config, **kwargs)


async def test_langchain_core_astream_events_streams_a_chat_model_through_its_public_astream() -> (
    None
):
    probe = Wrapped()
    events = [event["event"] async for event in probe.astream_events("hi", version="v2")]
    assert "on_chat_model_stream" in events
    assert probe.hooks("astream")  # so the wrapper's context is set on this path too
    assert probe.hooks("_astream")


def test_langchain_core_passes_the_run_manager_to__stream_in_stream_events_v3() -> None:
    """``stream_events(version="v3")`` (beta) bypasses ``stream``: the tenant then comes from
    the run manager, which this path hands to ``_stream``."""
    probe = Probe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "v3 is in beta"
        stream = probe.stream_events("hi", version="v3")
        assert stream.output.content  # type: ignore[attr-defined]
    calls = probe.hooks("_stream")
    assert calls and all(isinstance(call["manager"], CallbackManagerForLLMRun) for call in calls)


# -- what the stepcache_tenant= keyword relies on: call keywords reach every hook -------------


def test_langchain_core_hands_call_keywords_to__stream_from_stream() -> None:
    probe = Probe()
    list(probe.stream("hi", stepcache_tenant="acme"))
    calls = probe.hooks("_stream")
    assert calls and all(call["kwargs"].get("stepcache_tenant") == "acme" for call in calls)


async def test_langchain_core_hands_call_keywords_to__astream_from_astream() -> None:
    probe = Probe()
    [chunk async for chunk in probe.astream("hi", stepcache_tenant="acme")]
    calls = probe.hooks("_astream")
    assert calls and all(call["kwargs"].get("stepcache_tenant") == "acme" for call in calls)


def test_langchain_core_hands_call_keywords_to__stream_when_invoke_streams_implicitly() -> None:
    probe = Probe()
    probe.invoke("hi", stream=True, stepcache_tenant="acme")
    calls = probe.hooks("_stream")
    assert calls and all(call["kwargs"].get("stepcache_tenant") == "acme" for call in calls)


def test_langchain_core_hands_call_keywords_to__generate_from_invoke_batch_and_bind() -> None:
    probe = Probe()
    probe.invoke("hi", stepcache_tenant="acme")
    probe.batch(["a", "b"], stepcache_tenant="globex")
    probe.bind(stepcache_tenant="initech").invoke("hi")
    tenants = [call["kwargs"].get("stepcache_tenant") for call in probe.hooks("_generate")]
    assert sorted(tenants) == ["acme", "globex", "globex", "initech"]
