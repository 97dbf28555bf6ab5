"""StepCacheLangChainCache: StepCache as LangChain's response cache (``set_llm_cache``, a
model's ``cache=``), with scripted models (tests/conftest.py).

What it promises: it serves what needs no model call (identical and same requests, verified
reuse), never a changed request the families do not vouch for; a request that would need a
model patch is a miss; the model's answer is stored only if it passes; namespaces cover the
whole ``llm_string``; tenants are isolated; the record is on the message; sync and async.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.globals import set_llm_cache
from langchain_core.language_models.fake import FakeListLLM
from langchain_core.load import dumps
from langchain_core.messages import AIMessage, BaseMessage, ChatMessage, HumanMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.outputs import ChatGeneration, Generation
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda

from stepcache_integrations import (
    Policy,
    StepCache,
    StepCacheLangChainCache,
    StepCacheLLM,
    StepCacheRecord,
    llm_cache_tenant,
)
from tests.conftest import ScriptedChatModel, ScriptedToolModel, eq, last_user_text, solve_steps

CAPITALS = {"Portugal": "Lisbon", "Spain": "Madrid", "France": "Paris"}


def answer(messages: list[BaseMessage]) -> str:
    prompt = last_user_text(messages)
    for country, city in CAPITALS.items():
        if country.lower() in prompt.lower():
            return f"The capital of {country} is {city}."
    return solve_steps(prompt)


def model(**fields: Any) -> ScriptedChatModel:
    return ScriptedChatModel(responder=answer, **fields)


def record_of(message: BaseMessage) -> dict[str, Any]:
    record = message.response_metadata["stepcache"]
    assert isinstance(record, dict)
    return record


@pytest.fixture
def step_cache() -> StepCache:
    return StepCache()


@pytest.fixture
def records(step_cache: StepCache) -> list[StepCacheRecord]:
    seen: list[StepCacheRecord] = []
    step_cache.add_listener(seen.append)
    return seen


@pytest.fixture
def llm_cache(step_cache: StepCache) -> Iterator[StepCacheLangChainCache]:
    cache = StepCacheLangChainCache(step_cache)
    set_llm_cache(cache)
    try:
        yield cache
    finally:
        set_llm_cache(None)


# -- what is served ---------------------------------------------------------------------------


def test_a_repeated_request_is_served_with_its_record(llm_cache: StepCacheLangChainCache) -> None:
    chat = model()
    first = chat.invoke("What is the capital of Portugal?")
    assert record_of(first)["decision"] == "miss" and record_of(first)["stored"]
    assert first.usage_metadata and first.usage_metadata["total_tokens"] > 0  # the model's
    again = chat.invoke("What is the capital of Portugal?")
    assert len(chat.calls) == 1
    assert again.content == "The capital of Portugal is Lisbon."
    assert record_of(again)["decision"] == "exact"
    assert record_of(again)["tokens_saved"] == first.usage_metadata["total_tokens"]
    assert again.usage_metadata and again.usage_metadata["total_tokens"] == 0


def test_the_same_request_in_other_words_is_served(llm_cache: StepCacheLangChainCache) -> None:
    chat = model()
    chat.invoke("What is the capital of Portugal?")
    again = chat.invoke("  Please, what is the capital of  Portugal? ")
    assert len(chat.calls) == 1 and record_of(again)["decision"] == "exact"


def test_a_changed_request_is_not_served(
    llm_cache: StepCacheLangChainCache, records: list[StepCacheRecord]
) -> None:
    chat = model()
    chat.invoke("What is the capital of Portugal?")
    spain = chat.invoke("What is the capital of Spain?")
    assert len(chat.calls) == 2
    assert spain.content == "The capital of Spain is Madrid."
    assert records[-1].decision in ("miss", "skip") and records[-1].stored


def test_a_reuse_the_families_verify_is_served(llm_cache: StepCacheLangChainCache) -> None:
    chat = model()
    chat.invoke(eq())
    renamed = chat.invoke(eq(v="y"))
    assert len(chat.calls) == 1
    assert renamed.content == solve_steps(eq(v="y"))
    assert record_of(renamed)["decision"] == "reuse"
    assert record_of(renamed)["model_calls"] == 0


def test_a_patch_that_needs_the_model_is_a_miss(records: list[StepCacheRecord]) -> None:
    step_cache = StepCache(policy=Policy(solver_patches=False, max_regenerate_fraction=0.9))
    step_cache.add_listener(records.append)
    chat = model(cache=StepCacheLangChainCache(step_cache))
    # The right side 21: steps 1-2 are re-instantiated (3x = 16), but the cached "x = 5"
    # does not show that an exact 16/3 is asked: step 3 needs the model (3x + 8 = 20 would be
    # re-instantiated in full and served without a model call).
    chat.invoke(eq(b=5))
    changed = chat.invoke(eq(c=21))
    assert len(chat.calls) == 2
    assert len(chat.calls[1]) == 1  # the user's request alone: no "continue" turn
    assert changed.content == solve_steps(eq(c=21))
    record = record_of(changed)
    assert record["decision"] == "skip" and record["stored"]
    assert record["reason"] == "step 2 failed; a patch needs a model call of its own"
    # The wrapper patches the same request: only there is the continuation asked for.
    wrapper = StepCacheLLM(llm=model(cache=False), step_cache=step_cache)
    wrapper.invoke(eq(b=5, v="z"))
    assert record_of(wrapper.invoke(eq(c=21, v="z")))["decision"] == "patch"


def test_an_answer_that_fails_its_checks_is_never_stored(
    llm_cache: StepCacheLangChainCache, step_cache: StepCache
) -> None:
    chat = ScriptedChatModel(responder=lambda m: solve_steps(last_user_text(m), wrong=True))
    first = chat.invoke(eq())
    record = record_of(first)
    assert not record["passed"] and not record["stored"]
    assert "the caller returns the model's answer as it is" in record["failure"]
    assert first.content == solve_steps(eq(), wrong=True)  # the model's, as LangChain has it
    chat.invoke(eq())
    assert len(chat.calls) == 2 and len(step_cache) == 0
    assert step_cache.stats()["failed_checks"] == 2


# -- namespaces: the whole llm_string -----------------------------------------------------------


@pytest.mark.parametrize(
    "other",
    [
        {"temperature": 0.7},
        {"model_name": "scripted-2"},
    ],
)
def test_every_model_parameter_separates_entries(
    llm_cache: StepCacheLangChainCache, other: dict[str, Any]
) -> None:
    model().invoke("What is the capital of France?")
    changed = model(**other)
    changed.invoke("What is the capital of France?")
    assert len(changed.calls) == 1


def test_call_parameters_and_tools_separate_entries(llm_cache: StepCacheLangChainCache) -> None:
    chat = model()
    chat.invoke("What is the capital of France?")
    chat.invoke("What is the capital of France?", stop=["\n\n"])
    assert len(chat.calls) == 2

    def capital_of(country: str) -> str:
        """The capital of a country."""
        return CAPITALS[country]

    tools = ScriptedToolModel(responder=lambda m, k: AIMessage("Paris."))
    tools.invoke("What is the capital of France?")
    tools.bind_tools([capital_of]).invoke("What is the capital of France?")
    assert len(tools.calls) == 2
    tools.bind_tools([capital_of]).invoke("What is the capital of France?")
    assert len(tools.calls) == 2  # the same tools: served


# -- tenants ------------------------------------------------------------------------------------


def test_tenants_are_isolated(step_cache: StepCache) -> None:
    chat = model(cache=StepCacheLangChainCache(step_cache, tenant="acme"))
    chat.invoke("What is the capital of Portugal?")
    with llm_cache_tenant("globex"):
        other = chat.invoke("What is the capital of Portugal?")
    assert len(chat.calls) == 2 and record_of(other)["tenant"] == "globex"
    assert record_of(other)["decision"] == "miss"
    again = chat.invoke("What is the capital of Portugal?")
    assert record_of(again)["decision"] == "exact" and record_of(again)["tenant"] == "acme"
    with llm_cache_tenant("globex"):
        assert record_of(chat.invoke("What is the capital of Portugal?"))["tenant"] == "globex"
    assert len(chat.calls) == 2


def test_a_tenant_in_the_call_config_is_never_taken_for_another(
    llm_cache: StepCacheLangChainCache, step_cache: StepCache
) -> None:
    chat = model()
    chain = RunnableLambda(lambda text: text) | chat
    config: Any = {"metadata": {"stepcache_tenant": "acme"}}
    with pytest.raises(ValueError, match="llm_cache_tenant"):
        chain.invoke("What is the capital of Portugal?", config=config)
    assert chat.calls == [] and len(step_cache) == 0
    with llm_cache_tenant("acme"):
        message = chain.invoke("What is the capital of Portugal?", config=config)
    assert record_of(message)["tenant"] == "acme"


@pytest.mark.parametrize("tenant", ["", 3])
def test_a_bad_tenant_is_a_clear_error(tenant: Any) -> None:
    with pytest.raises(ValueError, match="tenant"):
        StepCacheLangChainCache(tenant=tenant)
    with pytest.raises(ValueError, match="llm_cache_tenant"), llm_cache_tenant(tenant):
        pass


def test_clear_removes_one_tenant_or_everything(step_cache: StepCache) -> None:
    cache = StepCacheLangChainCache(step_cache)
    for tenant in ("acme", "globex"):
        with llm_cache_tenant(tenant):
            cache.update("What is 1 + 1?", "llm", [Generation(text="2")])
    cache.clear(tenant="acme")
    with llm_cache_tenant("acme"):
        assert cache.lookup("What is 1 + 1?", "llm") is None
    with llm_cache_tenant("globex"):
        assert cache.lookup("What is 1 + 1?", "llm") == [Generation(text="2")]
    cache.clear()
    assert len(step_cache) == 0
    with pytest.raises(TypeError, match="tenant"):
        cache.clear(namespace="x")


# -- the model's own cache=, completion models, chains, async ------------------------------------


def test_a_models_own_cache_field(step_cache: StepCache) -> None:
    chat = model(cache=StepCacheLangChainCache(step_cache))
    chat.invoke("What is the capital of France?")
    chat.invoke("What is the capital of France?")
    assert len(chat.calls) == 1
    assert model().invoke("What is the capital of France?")  # no global cache: not cached


def test_a_completion_model_is_cached_by_its_prompt(llm_cache: StepCacheLangChainCache) -> None:
    llm = FakeListLLM(responses=["Lisbon.", "Something else."])
    assert llm.invoke("The capital of Portugal is") == "Lisbon."
    assert llm.invoke("The capital of Portugal is") == "Lisbon."  # the second answer unused
    assert llm.invoke("The capital of Spain is") == "Something else."


def test_an_lcel_chain(llm_cache: StepCacheLangChainCache) -> None:
    chat = model()
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Answer in one sentence."), ("human", "What is the capital of {country}?")]
    )
    chain = prompt | chat | StrOutputParser()
    assert chain.invoke({"country": "Portugal"}) == "The capital of Portugal is Lisbon."
    assert chain.invoke({"country": "Portugal"}) == "The capital of Portugal is Lisbon."
    assert len(chat.calls) == 1
    assert chain.invoke({"country": "Spain"}) == "The capital of Spain is Madrid."
    assert len(chat.calls) == 2
    other_system = ChatPromptTemplate.from_messages(
        [("system", "Answer at length."), ("human", "What is the capital of {country}?")]
    )
    (other_system | chat).invoke({"country": "Portugal"})
    assert len(chat.calls) == 3  # the earlier turns are part of the request


def test_batches_keep_each_call_apart(
    llm_cache: StepCacheLangChainCache, records: list[StepCacheRecord]
) -> None:
    chat = model()
    questions = [f"What is the capital of {country}?" for country in CAPITALS]
    answers = chat.batch(questions)
    assert [a.content for a in answers] == [
        f"The capital of {country} is {city}." for country, city in CAPITALS.items()
    ]
    again = chat.batch(questions)
    assert [record_of(a)["decision"] for a in again] == ["exact"] * 3
    assert [a.content for a in again] == [a.content for a in answers]
    assert len(chat.calls) == 3


async def test_async_calls(
    llm_cache: StepCacheLangChainCache, records: list[StepCacheRecord]
) -> None:
    chat = model()
    questions = [f"What is the capital of {country}?" for country in CAPITALS]
    first = await asyncio.gather(*(chat.ainvoke(q) for q in questions))
    assert [record_of(m)["decision"] for m in first] == ["miss"] * 3
    assert [m.content for m in first] == [answer([HumanMessage(q)]) for q in questions]
    again = await chat.ainvoke(questions[1])
    assert record_of(again)["decision"] == "exact" and len(chat.calls) == 3
    cache = StepCacheLangChainCache(StepCache())
    await cache.aupdate("What is 1 + 1?", "llm", [Generation(text="2")])
    assert await cache.alookup("What is 1 + 1?", "llm") == [Generation(text="2")]
    await cache.aclear()
    assert await cache.alookup("What is 1 + 1?", "llm") is None


# -- failures and what cannot be read ------------------------------------------------------------


def test_a_failing_model_call_leaves_nothing_behind(
    llm_cache: StepCacheLangChainCache, records: list[StepCacheRecord]
) -> None:
    failing = [True]

    def flaky(messages: list[BaseMessage]) -> str:
        if failing.pop() if failing else False:
            raise RuntimeError("provider down")
        return answer(messages)

    chat = ScriptedChatModel(responder=flaky)
    with pytest.raises(RuntimeError, match="provider down"):
        chat.invoke("What is the capital of Portugal?")
    assert records == []  # the lookup is no request of its own
    message = chat.invoke("What is the capital of Portugal?")
    assert record_of(message)["decision"] == "miss" and record_of(message)["stored"]
    assert [r.decision for r in records] == ["miss"]


def test_messages_that_cannot_be_read_bypass(
    step_cache: StepCache, records: list[StepCacheRecord]
) -> None:
    cache = StepCacheLangChainCache(step_cache)
    prompt = dumps([ChatMessage(role="oracle", content="What is 1 + 1?")])
    assert cache.lookup(prompt, "llm") is None
    cache.update(prompt, "llm", [ChatGeneration(message=AIMessage("2"))])
    assert records[-1].decision == "bypass" and "cannot be read" in records[-1].reason
    assert len(step_cache) == 0


def test_tools_that_cannot_be_read_bypass(
    step_cache: StepCache, records: list[StepCacheRecord]
) -> None:
    cache = StepCacheLangChainCache(step_cache)
    prompt = dumps([HumanMessage("What is 1 + 1?")])
    llm_string = "[('_type', 'x'), ('tools', [<Tool object at 0x1>])]"
    assert cache.lookup(prompt, llm_string) is None
    cache.update(prompt, llm_string, [ChatGeneration(message=AIMessage("2"))])
    assert records[-1].decision == "bypass"
    assert "no readable JSON Schema" in records[-1].reason
    assert len(step_cache) == 0


def test_bad_arguments_are_clear_errors(step_cache: StepCache) -> None:
    cache = StepCacheLangChainCache(step_cache)
    with pytest.raises(ValueError, match="prompt"):
        cache.lookup(3, "llm")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="return_val"):
        cache.update("p", "llm", ["text"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="step_cache"):
        StepCacheLangChainCache("cache")  # type: ignore[arg-type]


# -- several generations, infos, persistence -------------------------------------------------------


def test_every_generation_must_pass_and_all_come_back(step_cache: StepCache) -> None:
    cache = StepCacheLangChainCache(step_cache)
    good, bad = solve_steps(eq()), solve_steps(eq(), wrong=True)
    cache.update(eq(), "llm", [Generation(text=good), Generation(text=bad)])
    assert cache.lookup(eq(), "llm") is None and len(step_cache) == 0
    both = [Generation(text=good, generation_info={"n": 0}), Generation(text=good)]
    cache.update(eq(), "llm", both)
    assert cache.lookup(eq(), "llm") == both


def test_infos_survive_a_reopened_cache(tmp_path: Path) -> None:
    generations = [Generation(text="Lisbon.", generation_info={"finish_reason": "stop"})]
    with StepCache(path=tmp_path) as step_cache:
        StepCacheLangChainCache(step_cache).update("The capital of Portugal is", "llm", generations)
    with StepCache(path=tmp_path) as reopened:
        cache = StepCacheLangChainCache(reopened)
        assert cache.lookup("The capital of Portugal is", "llm") == generations


def test_a_shared_step_cache_serves_wrapper_and_llm_cache(
    llm_cache: StepCacheLangChainCache, step_cache: StepCache
) -> None:
    plain = model()
    wrapped = StepCacheLLM(llm=model(cache=False), step_cache=step_cache)
    for _ in range(2):
        plain.invoke("What is the capital of Spain?")
        wrapped.invoke("What is the capital of Spain?")
    assert len(plain.calls) == 1 and len(wrapped.llm.calls) == 1  # type: ignore[attr-defined]
    assert step_cache.stats()["decisions"]["exact"] == 2


def test_a_wrappers_inner_model_never_answers_through_it_too(
    llm_cache: StepCacheLangChainCache, step_cache: StepCache
) -> None:
    inner = model()  # cache unset: LangChain would use the global cache for it
    with pytest.raises(ValueError, match="cache=False"):
        StepCacheLLM(llm=inner, step_cache=step_cache).invoke("What is the capital of Spain?")
    own = model(cache=StepCacheLangChainCache(step_cache))
    with pytest.raises(ValueError, match="twice"):
        StepCacheLLM(llm=own, step_cache=step_cache).invoke("What is the capital of Spain?")
    assert inner.calls == [] and own.calls == [] and len(step_cache) == 0
