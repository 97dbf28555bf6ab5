"""A model that raises ``StopIteration`` (a scripted model whose answers ran out) or
``StopAsyncIteration``: its own exception reaches the caller, never taken for the end of the
request path, and nothing is stored. Each driver (sync, async, sync stream, async stream) is
tried directly and through both framework wrappers (LangChain's and LlamaIndex's).

What reaches the caller is the model's exception object itself, or, where Python forbids that
exception to leave a coroutine or a generator (PEP 479: ``StopIteration`` out of either,
``StopAsyncIteration`` out of an async generator), the ``RuntimeError`` Python makes of it with
the model's exception as its ``__cause__``. Unchanged there, it would end the caller's loop over
the stream silently, as if the cut answer were whole.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
from llama_index.core.base.llms.types import ChatMessage

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.adapter import (
    Finished,
    StreamedPiece,
    drive,
    drive_astream,
    drive_async,
    drive_stream,
)
from stepcache_integrations.core.protocol import ModelCall, ModelReply
from stepcache_integrations.llama_index import StepCacheLLM as LlamaIndexStepCacheLLM
from tests.conftest import ScriptedChatModel, ScriptedLLM
from tests.reliability.support import eq, request

STOPS = [StopIteration, StopAsyncIteration]
PROMPT = eq(0)


class RunsOut:
    """A scripted model's responder whose answers ran out: raises ``kind``, and keeps the
    exception it raised last."""

    def __init__(self, kind: type[Exception]) -> None:
        self.kind = kind
        self.raised: Exception | None = None

    def __call__(self, *_: object) -> str:
        self.raised = self.kind("the scripted answers ran out")
        raise self.raised


def caught(call: Callable[[], object]) -> BaseException:
    try:
        call()
    except BaseException as error:  # StopIteration is not an Exception subclass's concern
        return error
    raise AssertionError("the model's exception did not reach the caller")


def assert_reaches_the_caller(error: BaseException, raised: Exception | None) -> None:
    """The model's exception itself, or Python's RuntimeError made of it."""
    assert raised is not None
    if error is not raised:
        assert type(error) is RuntimeError and error.__cause__ is raised, repr(error)


def itself(method: str, kind: type[Exception]) -> bool:
    """Whether Python lets ``kind`` out of the wrapper's ``method`` unchanged: everywhere but
    out of a coroutine (StopIteration) or a generator (StopIteration; StopAsyncIteration out
    of an async one)."""
    streams = "stream" in method
    asynchronous = method.startswith("a")
    if kind is StopIteration:
        return not streams and not asynchronous
    return not (streams and asynchronous)


def assert_nothing_stored(cache: StepCache) -> None:
    assert len(cache) == 0
    assert cache.stats()["requests"] == 0  # no record either: the request never finished


async def _all(items: AsyncIterator[Any]) -> list[Any]:
    return [item async for item in items]


# -- each driver, directly ---------------------------------------------------------------------


def _reply_with(runs_out: RunsOut) -> Callable[[ModelCall], ModelReply]:
    def call(action: ModelCall) -> ModelReply:
        runs_out()
        raise AssertionError("unreachable")

    return call


@pytest.mark.parametrize("kind", STOPS)
def test_drive_lets_the_models_own_exception_through_unchanged(kind: type[Exception]) -> None:
    cache, runs_out = StepCache(), RunsOut(kind)
    error = caught(lambda: drive(cache.serve(request(PROMPT)), _reply_with(runs_out)))
    assert error is runs_out.raised  # unchanged, StopIteration included
    assert_nothing_stored(cache)


@pytest.mark.parametrize("kind", STOPS)
def test_drive_async_never_takes_the_models_exception_for_the_end(kind: type[Exception]) -> None:
    cache, runs_out = StepCache(), RunsOut(kind)

    def call(action: ModelCall) -> Awaitable[ModelReply]:
        runs_out()  # raised while asking, before any awaitable exists
        raise AssertionError("unreachable")

    error = caught(lambda: asyncio.run(drive_async(cache.serve(request(PROMPT)), call)))
    assert_reaches_the_caller(error, runs_out.raised)
    if kind is StopAsyncIteration:
        assert error is runs_out.raised  # a coroutine may raise this one unchanged
    assert_nothing_stored(cache)


@pytest.mark.parametrize("kind", STOPS)
def test_drive_stream_never_ends_the_stream_as_if_complete(kind: type[Exception]) -> None:
    cache, runs_out = StepCache(), RunsOut(kind)

    def stream(action: ModelCall) -> Iterator[StreamedPiece[str]]:
        runs_out()
        raise AssertionError("unreachable")

    events: list[object] = []

    def read() -> None:
        for event in drive_stream(
            cache.serve(request(PROMPT)), _reply_with(runs_out), stream, usage="last"
        ):
            events.append(event)

    assert_reaches_the_caller(caught(read), runs_out.raised)
    assert not any(isinstance(event, Finished) for event in events)  # no cut answer as whole
    assert_nothing_stored(cache)


@pytest.mark.parametrize("kind", STOPS)
def test_drive_astream_never_ends_the_stream_as_if_complete(kind: type[Exception]) -> None:
    cache, runs_out = StepCache(), RunsOut(kind)

    async def call(action: ModelCall) -> ModelReply:
        runs_out()
        raise AssertionError("unreachable")

    def stream(action: ModelCall) -> AsyncIterator[StreamedPiece[str]]:
        runs_out()
        raise AssertionError("unreachable")

    flow = drive_astream(cache.serve(request(PROMPT)), call, stream, usage="last")
    error = caught(lambda: asyncio.run(_all(flow)))
    assert_reaches_the_caller(error, runs_out.raised)
    assert_nothing_stored(cache)


# -- through the framework wrappers --------------------------------------------------------------

Call = Callable[[Any], object]

LANGCHAIN: dict[str, Call] = {
    "invoke": lambda llm: llm.invoke(PROMPT),
    "ainvoke": lambda llm: asyncio.run(llm.ainvoke(PROMPT)),
    "stream": lambda llm: list(llm.stream(PROMPT)),
    "astream": lambda llm: asyncio.run(_all(llm.astream(PROMPT))),
}


async def _astream_complete(llm: Any) -> list[Any]:
    return await _all(await llm.astream_complete(PROMPT))


LLAMA_INDEX: dict[str, Call] = {
    "complete": lambda llm: llm.complete(PROMPT),
    "chat": lambda llm: llm.chat([ChatMessage(role="user", content=PROMPT)]),
    "acomplete": lambda llm: asyncio.run(llm.acomplete(PROMPT)),
    "stream_complete": lambda llm: list(llm.stream_complete(PROMPT)),
    "astream_complete": lambda llm: asyncio.run(_astream_complete(llm)),
}


def _langchain(responder: RunsOut, cache: StepCache) -> Any:
    return StepCacheLLM(llm=ScriptedChatModel(responder=responder), step_cache=cache)


def _llama_index(responder: RunsOut, cache: StepCache) -> Any:
    return LlamaIndexStepCacheLLM(llm=ScriptedLLM(responder=responder), step_cache=cache)


WRAPPERS: dict[str, tuple[Callable[[RunsOut, StepCache], Any], dict[str, Call]]] = {
    "langchain": (_langchain, LANGCHAIN),
    "llama_index": (_llama_index, LLAMA_INDEX),
}
ENTRY_POINTS = [(name, method) for name, (_, calls) in WRAPPERS.items() for method in calls]


@pytest.mark.parametrize("kind", STOPS)
@pytest.mark.parametrize(
    ("framework", "method"), ENTRY_POINTS, ids=[f"{f}-{m}" for f, m in ENTRY_POINTS]
)
def test_the_wrappers_pass_the_models_exception_to_the_caller(
    kind: type[Exception], framework: str, method: str
) -> None:
    make, calls = WRAPPERS[framework]
    cache, runs_out = StepCache(), RunsOut(kind)
    error = caught(lambda: calls[method](make(runs_out, cache)))
    assert_reaches_the_caller(error, runs_out.raised)
    # LangChain's invoke with StopIteration was AttributeError: 'NoneType' ... 'record'.
    assert (error is runs_out.raised) is itself(method, kind), repr(error)
    assert_nothing_stored(cache)
