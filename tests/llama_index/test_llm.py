"""StepCacheLLM for LlamaIndex: every decision through complete and chat, sync, async, stream."""

from __future__ import annotations

import re
from typing import Any

import pytest
from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    CompletionResponse,
    CompletionResponseGen,
)
from llama_index.core.callbacks import CallbackManager
from llama_index.core.llms import MockLLM

from stepcache_integrations import Policy, StepCache
from stepcache_integrations.llama_index import StepCacheLLM
from stepcache_integrations.llama_index.request import inner_identity
from tests.conftest import ScriptedLLM, eq, solve_steps

ZERO = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}


def user(text: str) -> list[ChatMessage]:
    return [ChatMessage(role="user", content=text)]


def record(response: ChatResponse | CompletionResponse) -> dict[str, Any]:
    value: dict[str, Any] = response.additional_kwargs["stepcache"]
    return value


def spent(response: ChatResponse | CompletionResponse) -> dict[str, int]:
    """The usage LlamaIndex reads from ``raw["usage"]``."""
    assert isinstance(response.raw, dict)
    usage: dict[str, int] = response.raw["usage"]
    return usage


def decision(response: ChatResponse | CompletionResponse) -> str:
    return str(record(response)["decision"])


@pytest.fixture
def model() -> ScriptedLLM:
    return ScriptedLLM()


@pytest.fixture
def llm(model: ScriptedLLM) -> StepCacheLLM:
    return StepCacheLLM(llm=model)


# -- complete ---------------------------------------------------------------------------------


def test_complete_miss_then_exact_without_model_call(llm: StepCacheLLM, model: ScriptedLLM) -> None:
    first = llm.complete(eq())
    assert decision(first) == "miss"
    assert "x = 5" in first.text
    usage = spent(first)
    assert usage["completion_tokens"] > 0 and usage["total_tokens"] == record(first)["tokens_used"]
    assert first.additional_kwargs["total_tokens"] == usage["total_tokens"]
    second = llm.complete(eq())
    assert decision(second) == "exact"
    assert second.text == first.text
    assert second.raw == {"usage": ZERO}
    assert {k: second.additional_kwargs[k] for k in ZERO} == ZERO
    assert record(second)["tokens_saved"] > 0
    assert len(model.calls) == 1


def test_complete_renamed_variable_is_reused(llm: StepCacheLLM, model: ScriptedLLM) -> None:
    llm.complete(eq("x"))
    reused = llm.complete(eq("y"))
    assert decision(reused) == "reuse"
    assert "y = 5" in reused.text and " x" not in reused.text
    assert record(reused)["steps_adapted"] >= 1
    assert spent(reused) == ZERO
    assert len(model.calls) == 1


def test_complete_changed_constant_is_patched_and_correct(
    llm: StepCacheLLM, model: ScriptedLLM
) -> None:
    # Steps 1-2 are re-instantiated for the right side 21 (3x = 16); the cached "x = 5" does
    # not show that an exact 16/3 is asked (it may be a rounding): step 3 is the model's.
    # (3x + 8 = 20 is re-instantiated in full now: a reuse, below.)
    llm.complete(eq())
    patched = llm.complete(eq(c=21))
    rec = record(patched)
    assert rec["decision"] == "patch" and rec["patched_by"] == "model"
    assert (rec["steps_reused"], rec["steps_regenerated"]) == (2, 1)
    assert patched.text == (
        "Step 1: Start with 3x + 5 = 21.\nStep 2: Subtract 5 from both sides: 3x = 16.\n"
        "Step 3: Divide both sides by 3: x = 16/3."
    )
    reused = llm.complete(eq(b=8))
    assert record(reused)["decision"] == "reuse" and reused.text.endswith("x = 4.")
    assert len(model.calls) == 2


def test_semantic_change_skips_reuse(model: ScriptedLLM) -> None:
    llm = StepCacheLLM(llm=model, step_cache=StepCache(similarity_threshold=0.1))
    llm.complete(eq())
    other = llm.complete("Return only a JSON object with keys a, b and c for 3x + 5 = 20.")
    assert decision(other) == "skip"
    assert "semantic change" in record(other)["reason"]
    assert other.text == '{"a": 3, "b": 5, "c": 20}'


def test_wrong_answer_is_replaced_by_the_deterministic_fallback() -> None:
    wrong = ScriptedLLM(responder=lambda prompt: solve_steps(prompt, wrong=True))
    llm = StepCacheLLM(llm=wrong)
    answer = llm.complete(eq())
    rec = record(answer)
    assert rec["fallback"] is True and rec["passed"] is True
    assert "x = 5" in answer.text and "x = 6" not in answer.text
    assert len(wrong.calls) == rec["model_calls"]


def test_wrong_answer_is_repaired_once_then_replaced() -> None:
    wrong = ScriptedLLM(responder=lambda prompt: solve_steps(prompt, wrong=True))
    cache = StepCache(policy=Policy(prefer_fallback=False))
    answer = StepCacheLLM(llm=wrong, step_cache=cache).complete(eq())
    rec = record(answer)
    assert rec["repaired"] is True and rec["fallback"] is True and rec["passed"] is True
    assert "x = 5" in answer.text
    assert len(wrong.calls) == 2  # the answer and one repair, no more
    # The repair call is a chat: the original prompt, the failing answer, the instruction.
    assert wrong.calls[1].index(eq()) < wrong.calls[1].index("assistant: Step 1")


def test_repair_that_succeeds_is_served_and_cached() -> None:
    answers = iter([True, False])
    model = ScriptedLLM(responder=lambda prompt: solve_steps(prompt, wrong=next(answers)))
    cache = StepCache(policy=Policy(prefer_fallback=False))
    llm = StepCacheLLM(llm=model, step_cache=cache)
    answer = llm.chat(user(eq()))
    rec = record(answer)
    assert rec["repaired"] is True and rec["fallback"] is False and rec["stored"] is True
    assert "x = 5" in (answer.message.content or "")
    assert rec["tokens_used"] == spent(answer)["total_tokens"] > 0
    assert decision(llm.chat(user(eq()))) == "exact"


def test_failed_answer_is_returned_flagged_and_never_stored() -> None:
    cache = StepCache(verifiers=[lambda request, answer: "approved" in answer])
    llm = StepCacheLLM(llm=MockLLM(max_tokens=3), step_cache=cache)
    answer = llm.complete("Write a slogan for Acme.")
    assert record(answer)["passed"] is False and record(answer)["stored"] is False
    assert len(cache) == 0
    assert decision(llm.complete("Write a slogan for Acme.")) != "exact"


def test_inner_model_error_reaches_caller_and_cache_is_untouched() -> None:
    class Boom(RuntimeError):
        pass

    def explode(prompt: str) -> str:
        raise Boom("upstream down")

    cache = StepCache()
    llm = StepCacheLLM(llm=ScriptedLLM(responder=explode), step_cache=cache)
    with pytest.raises(Boom, match="upstream down"):
        llm.complete(eq())
    with pytest.raises(Boom):
        list(llm.stream_chat(user(eq())))
    assert len(cache) == 0


# -- chat -------------------------------------------------------------------------------------


def test_chat_decisions_and_response_shape(llm: StepCacheLLM, model: ScriptedLLM) -> None:
    first = llm.chat(user(eq()))
    assert decision(first) == "miss"
    assert first.message.role.value == "assistant"
    assert "x = 5" in (first.message.content or "")
    assert [decision(llm.chat(user(eq(v)))) for v in ("x", "k")] == ["exact", "reuse"]
    # A changed constant whose every step is re-instantiated (3x + 8 = 20: every number
    # traced, every equation checked again) is a reuse; a right side that changes sign
    # (-1 where 20 stood) is not re-instantiated, and the solver writes the steps (the cached
    # "x = 5" shows that the value is asked, as an integer): a patch, no model call.
    reused = llm.chat(user(eq(b=8)))
    assert decision(reused) == "reuse" and "x = 4" in (reused.message.content or "")
    patched = llm.chat(user(eq(c=-1)))
    assert decision(patched) == "patch" and "x = -2" in (patched.message.content or "")
    assert len(model.calls) == 1


def test_chat_and_complete_share_entries_for_a_chat_model() -> None:
    chat_model = ScriptedLLM(chat_model=True)
    llm = StepCacheLLM(llm=chat_model)
    llm.chat(user(eq()))
    assert decision(llm.complete(eq())) == "exact"


def test_completion_model_keeps_complete_and_chat_apart(llm: StepCacheLLM) -> None:
    # A completion model formats chat and complete prompts differently.
    llm.chat(user(eq()))
    assert decision(llm.complete(eq())) == "miss"


def test_system_prompt_and_tenants_split_namespaces(model: ScriptedLLM) -> None:
    llm = StepCacheLLM(llm=model, tenant="acme")
    llm.chat(user(eq()))
    assert decision(llm.chat(user(eq()), stepcache_tenant="globex")) == "miss"
    with_system = [ChatMessage(role="system", content="Be terse."), *user(eq())]
    assert decision(llm.chat(with_system)) == "miss"
    same = llm.chat(user(eq()))
    assert decision(same) == "exact"
    assert record(same)["tenant"] == "acme"
    # The tenant keyword is the cache's: the inner model never sees it.
    assert all("globex" not in call for call in model.calls)


def test_per_call_tenant_reaches_the_record(llm: StepCacheLLM) -> None:
    answer = llm.complete(eq(), stepcache_tenant="globex")
    assert record(answer)["tenant"] == "globex"
    assert record(answer)["namespace"].startswith("globex:")


def test_shared_cache_between_wrappers_of_the_same_model(model: ScriptedLLM) -> None:
    cache = StepCache()
    StepCacheLLM(llm=model, step_cache=cache).complete(eq())
    assert decision(StepCacheLLM(llm=model, step_cache=cache).complete(eq())) == "exact"
    other = ScriptedLLM(model_name="scripted-li-2")
    assert decision(StepCacheLLM(llm=other, step_cache=cache).complete(eq())) == "miss"
    hotter = ScriptedLLM(temperature=0.9)
    assert decision(StepCacheLLM(llm=hotter, step_cache=cache).complete(eq())) == "miss"


class HostedLLM(ScriptedLLM):
    """A model with the parameters hosted models have."""

    api_key: str = "sk-one"
    max_retries: int = 3
    max_tokens: int = 256


def test_namespace_ignores_credentials_but_not_generation_parameters() -> None:
    cache = StepCache()
    StepCacheLLM(llm=HostedLLM(), step_cache=cache).complete(eq())
    rotated = StepCacheLLM(llm=HostedLLM(api_key="sk-two", max_retries=5), step_cache=cache)
    assert decision(rotated.complete(eq())) == "exact"
    shorter = StepCacheLLM(llm=HostedLLM(max_tokens=16), step_cache=cache)
    assert decision(shorter.complete(eq())) == "miss"
    assert "sk-one" not in str(inner_identity(HostedLLM()))


def test_conversation_ending_with_assistant_bypasses(llm: StepCacheLLM) -> None:
    messages = [*user(eq()), ChatMessage(role="assistant", content="Step 1:")]
    answer = llm.chat(messages)
    assert decision(answer) == "bypass"
    assert "assistant" in record(answer)["reason"]


# -- streaming --------------------------------------------------------------------------------


def test_stream_complete_reuses_steps_at_once_then_closes_with_record(
    llm: StepCacheLLM, model: ScriptedLLM
) -> None:
    # A changed constant every step of which is re-instantiated: a reuse (before, a patch).
    llm.complete(eq())
    chunks = list(llm.stream_complete(eq(b=8)))
    text = "".join(c.delta or "" for c in chunks)
    assert text == (
        "Step 1: Start with 3x + 8 = 20.\nStep 2: Subtract 8 from both sides: 3x = 12.\n"
        "Step 3: Divide both sides by 3: x = 4."
    )
    assert chunks[-1].text == text  # accumulated text, as LlamaIndex streams it
    assert len(chunks) >= 2
    assert decision(chunks[-1]) == "reuse"
    assert chunks[-1].raw == {"usage": ZERO}
    assert all("stepcache" not in c.additional_kwargs for c in chunks[:-1])
    assert len(model.calls) == 1


def test_stream_chat_generic_miss_is_live_word_by_word() -> None:
    chatty = ScriptedLLM(responder=lambda prompt: "one two three four five")
    llm = StepCacheLLM(llm=chatty)
    chunks = list(llm.stream_chat(user("Tell me something about Paris.")))
    assert len(chunks) > 3  # the inner model's chunks, then the closing one
    assert "".join(c.delta or "" for c in chunks) == "one two three four five"
    closing = chunks[-1]
    assert decision(closing) == "miss"
    assert closing.message.content == "one two three four five"
    # Usage of the live stream is the inner model's own report, not an estimate.
    assert record(closing)["tokens_estimated"] is False
    assert spent(closing)["total_tokens"] == record(closing)["tokens_used"] > 0


def test_stream_after_exact_hit_has_no_model_call(llm: StepCacheLLM, model: ScriptedLLM) -> None:
    first = llm.chat(user(eq()))
    chunks = list(llm.stream_chat(user(eq())))
    assert "".join(c.delta or "" for c in chunks) == first.message.content
    assert decision(chunks[-1]) == "exact"
    assert len(model.calls) == 1


# -- async ------------------------------------------------------------------------------------


async def test_async_complete_and_chat(llm: StepCacheLLM, model: ScriptedLLM) -> None:
    first = await llm.acomplete(eq())
    assert decision(first) == "miss"
    reused = await llm.acomplete(eq("z"))
    assert decision(reused) == "reuse" and "z = 5" in reused.text
    chat_miss = await llm.achat(user(eq(b=2)))
    assert decision(chat_miss) == "miss"
    # Re-instantiated, but "Step 2:" mentions the old constant 2, which the generic staleness
    # check refuses: the solver writes the steps from there (a patch, no model call).
    patched = await llm.achat(user(eq(b=11)))
    assert decision(patched) == "patch" and "x = 3" in (patched.message.content or "")
    assert record(patched)["patched_by"] == "solver" and len(model.calls) == 2


async def test_async_streams(llm: StepCacheLLM, model: ScriptedLLM) -> None:
    await llm.acomplete(eq())
    stream = await llm.astream_complete(eq("w"))
    chunks = [c async for c in stream]
    assert decision(chunks[-1]) == "reuse"
    assert "w = 5" in chunks[-1].text
    chat_stream = await llm.astream_chat(user("Tell me something about Rome."))
    chat_chunks = [c async for c in chat_stream]
    assert decision(chat_chunks[-1]) == "miss"
    assert len(chat_chunks) > 2  # live: the inner model's words as they come


async def test_async_wrong_answer_is_repaired_and_replaced() -> None:
    wrong = ScriptedLLM(responder=lambda prompt: solve_steps(prompt, wrong=True))
    llm = StepCacheLLM(llm=wrong, step_cache=StepCache(policy=Policy(prefer_fallback=False)))
    answer = await llm.achat(user(eq()))
    assert record(answer)["repaired"] is True and record(answer)["fallback"] is True
    assert "x = 5" in (answer.message.content or "")
    stream = await llm.astream_complete(eq(b=2))
    chunks = [c async for c in stream]
    assert "x = 6" in chunks[-1].text
    assert record(chunks[-1])["fallback"] is True


# -- identity and configuration ---------------------------------------------------------------


def test_metadata_and_prompt_formatting_come_from_the_inner_model() -> None:
    inner = ScriptedLLM(chat_model=True, model_name="m-1", system_prompt="Be exact.")
    llm = StepCacheLLM(llm=inner)
    assert llm.metadata == inner.metadata
    assert llm.system_prompt == "Be exact."
    assert llm.messages_to_prompt is inner.messages_to_prompt
    assert StepCacheLLM.class_name() == "StepCacheLLM"
    assert "step_cache" not in llm.to_dict()


def test_the_inner_model_is_never_modified() -> None:
    user_manager = CallbackManager([])
    inner = ScriptedLLM(callback_manager=user_manager)
    before = inner.model_dump()
    llm = StepCacheLLM(llm=inner)
    llm.complete(eq())
    assert inner.callback_manager is user_manager
    assert inner.model_dump() == before
    explicit = CallbackManager([])
    assert StepCacheLLM(llm=ScriptedLLM(), callback_manager=explicit).callback_manager is explicit


def test_invalid_configuration_is_a_clear_error(model: ScriptedLLM) -> None:
    with pytest.raises(ValueError, match="LlamaIndex LLM"):
        StepCacheLLM(llm="gpt-4")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="StepCache"):
        StepCacheLLM(llm=model, step_cache={})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="verifier"):
        StepCacheLLM(llm=model, verifiers=[42])
    with pytest.raises(ValueError, match="tenant"):
        StepCacheLLM(llm=model, tenant=7)  # type: ignore[arg-type]
    llm = StepCacheLLM(llm=model)
    with pytest.raises(ValueError, match="ChatMessage"):
        llm.chat("hello")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="stepcache_tenant"):
        llm.complete(eq(), stepcache_tenant=3)
    assert model.calls == []


def test_langchain_model_gets_a_pointer_to_the_langchain_wrapper() -> None:
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    with pytest.raises(ValueError, match=re.escape("stepcache_integrations.StepCacheLLM")):
        StepCacheLLM(llm=FakeListChatModel(responses=["x"]))  # type: ignore[arg-type]


class NoStreamLLM(ScriptedLLM):
    """A model that cannot stream (every streaming method raises NotImplementedError)."""

    def _completion_chunks(self, prompt: str) -> CompletionResponseGen:
        raise NotImplementedError("no streaming here")


async def test_a_model_that_cannot_stream_still_streams_through_the_wrapper() -> None:
    model = NoStreamLLM(responder=lambda prompt: "one two three")
    llm = StepCacheLLM(llm=model)
    chunks = list(llm.stream_complete("Tell me about Braga."))
    assert chunks[-1].text == "one two three" and decision(chunks[-1]) == "miss"
    stream = await llm.astream_chat(user("Tell me about Evora."))
    async_chunks = [c async for c in stream]
    assert async_chunks[-1].message.content == "one two three"
    assert len(model.calls) == 2


def test_the_last_streamed_chunk_holds_the_answer_record_and_usage() -> None:
    llm = StepCacheLLM(llm=ScriptedLLM(responder=lambda prompt: "one two three"))
    for _ in range(2):  # a live miss, then an exact hit
        chunks = list(llm.stream_chat(user("Tell me about Braga.")))
        last = chunks[-1]
        assert last.message.content == "one two three"
        assert "".join(c.delta or "" for c in chunks) == "one two three"
        assert [c for c in chunks if "stepcache" in c.additional_kwargs] == [last]
        spent = last.additional_kwargs["stepcache"]["tokens_used"]
        assert last.raw["usage"]["total_tokens"] == last.additional_kwargs["total_tokens"] == spent
    assert last.additional_kwargs["stepcache"]["decision"] == "exact" and spent == 0
