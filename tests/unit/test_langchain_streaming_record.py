"""The record is where users look in a stream: on the final content chunk (which is also
the last chunk: LangChain adds no empty end marker after it) and on the aggregated message."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessageChunk, BaseMessage

from stepcache_integrations import StepCacheLLM
from tests.conftest import ScriptedChatModel, eq, solve_conversation


def solver(messages: list[BaseMessage]) -> str:
    return solve_conversation(messages)


def aggregate(chunks: list[AIMessageChunk]) -> AIMessageChunk:
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total


def check(chunks: list[AIMessageChunk], decision: str) -> dict[str, Any]:
    content = [c for c in chunks if c.content]
    assert content, "the stream has content"
    last = chunks[-1]
    assert last is content[-1]  # the final content chunk closes the stream
    assert last.chunk_position == "last"
    record = last.response_metadata["stepcache"]
    assert record["decision"] == decision
    assert [c for c in chunks if "stepcache" in c.response_metadata] == [last]
    total = aggregate(chunks)
    assert total.response_metadata["stepcache"] == record
    assert total.usage_metadata is not None
    assert total.usage_metadata["total_tokens"] == record["tokens_used"]
    return dict(record)


def test_miss_exact_reuse_and_patch_streams() -> None:
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=solver))
    check(list(llm.stream(eq())), "miss")
    check(list(llm.stream(eq())), "exact")
    check(list(llm.stream(eq("y"))), "reuse")
    # Another constant every step of which is re-instantiated: a reuse. The right side 21:
    # steps 1-2 re-instantiated, step 3 the model's ("x = 5" does not show that 16/3 is asked).
    check(list(llm.stream(eq(b=8))), "reuse")
    patched = check(list(llm.stream(eq(c=21))), "patch")
    assert (patched["steps_reused"], patched["steps_regenerated"]) == (2, 1)


def test_a_live_generic_miss_keeps_word_by_word_chunks() -> None:
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=lambda m: "one two three four"))
    chunks = list(llm.stream("Tell me about Cairo."))
    assert len([c for c in chunks if c.content]) >= 4
    record = check(chunks, "miss")
    assert record["tokens_used"] > 0


async def test_async_streams() -> None:
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=solver))
    check([c async for c in llm.astream(eq())], "miss")
    check([c async for c in llm.astream(eq("w"))], "reuse")
