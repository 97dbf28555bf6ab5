"""Promise: a stream that is not read to the end leaves nothing behind for later calls.

A half-read stream of tenant ``acme`` is suspended (not closed); a later call of tenant
``globex`` on the same thread must not run with ``acme``'s configuration.
"""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig

from stepcache_integrations import StepCache, StepCacheLLM
from tests.conftest import ScriptedChatModel


def tenant(name: str) -> RunnableConfig:
    return RunnableConfig(metadata={"stepcache_tenant": name})


def test_a_half_read_stream_does_not_leak_its_tenant() -> None:
    model = ScriptedChatModel(responder=lambda m: "acme's private answer, word by word")
    llm = StepCacheLLM(llm=model, step_cache=StepCache())
    llm.invoke("What is my balance?", config=tenant("acme"))
    stream = llm.stream("What is my balance?", config=tenant("acme"))
    next(stream)  # read one chunk, then leave the stream suspended
    other = llm.invoke("What is my balance?", config=tenant("globex"), stream=True)
    record = other.response_metadata["stepcache"]
    assert record["tenant"] == "globex" and record["decision"] == "miss"
    stream.close()


async def test_a_half_read_async_stream_does_not_leak_its_tenant() -> None:
    model = ScriptedChatModel(responder=lambda m: "acme's private answer, word by word")
    llm = StepCacheLLM(llm=model, step_cache=StepCache())
    await llm.ainvoke("What is my balance?", config=tenant("acme"))
    stream = llm.astream("What is my balance?", config=tenant("acme"))
    await anext(stream)
    other = await llm.ainvoke("What is my balance?", config=tenant("globex"), stream=True)
    record = other.response_metadata["stepcache"]
    assert record["tenant"] == "globex" and record["decision"] == "miss"
    await stream.aclose()


def test_closing_a_stream_early_closes_the_inner_stream() -> None:
    closed: list[bool] = []

    class Tracked(ScriptedChatModel):
        def _stream(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            try:
                yield from super()._stream(*args, **kwargs)
            finally:
                closed.append(True)

    llm = StepCacheLLM(llm=Tracked(responder=lambda m: "one two three four"))
    stream = llm.stream("Tell me a story.")
    next(stream)
    stream.close()
    assert closed == [True]
