"""StepCacheLLM end to end with scripted models: every decision, streaming, async, LCEL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel, FakeListLLM
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.prompts import ChatPromptTemplate

from stepcache_integrations import Policy, StepCache, StepCacheLLM
from tests.conftest import ScriptedChatModel, solve_conversation, solve_steps

EQ = "Solve for {v}: {a}{v} + {b} = {c}. Show each step as 'Step N:'."


def eq(v: str = "x", a: int = 3, b: int = 5, c: int = 20) -> str:
    return EQ.format(v=v, a=a, b=b, c=c)


def solver(messages: list[BaseMessage]) -> str:
    return solve_conversation(messages)


def decision(message: Any) -> str:
    return str(message.response_metadata["stepcache"]["decision"])


@pytest.fixture
def model() -> ScriptedChatModel:
    return ScriptedChatModel(responder=solver)


@pytest.fixture
def llm(model: ScriptedChatModel) -> StepCacheLLM:
    return StepCacheLLM(llm=model)


def test_miss_then_exact_without_model_call(llm: StepCacheLLM, model: ScriptedChatModel) -> None:
    first = llm.invoke(eq())
    assert decision(first) == "miss"
    assert first.usage_metadata is not None and first.usage_metadata["output_tokens"] > 0
    second = llm.invoke(eq())
    assert decision(second) == "exact"
    assert second.content == first.content
    assert len(model.calls) == 1
    assert second.usage_metadata == {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    assert second.response_metadata["stepcache"]["tokens_saved"] > 0
    # The inner model's name, not under "model_name": LangChain's usage callback counts
    # messages with a model_name, and the inner model's own run already reported the tokens.
    assert second.response_metadata["inner_model_name"] == "scripted-1"
    assert "model_name" not in first.response_metadata


def test_renamed_variable_is_reused_without_model_call(
    llm: StepCacheLLM, model: ScriptedChatModel
) -> None:
    llm.invoke(eq("x"))
    reused = llm.invoke(eq("y"))
    assert decision(reused) == "reuse"
    assert "y = 5" in str(reused.content)
    assert " x" not in str(reused.content)
    assert len(model.calls) == 1
    record = reused.response_metadata["stepcache"]
    assert record["steps_adapted"] >= 1
    assert record["tokens_used"] == 0


def test_changed_constant_is_patched_and_correct(
    llm: StepCacheLLM, model: ScriptedChatModel
) -> None:
    # Steps 1-2 are re-instantiated for the right side 21 (3x = 16); the cached "x = 5" does
    # not show that an exact 16/3 is asked (it may be a rounding): step 3 is the model's.
    llm.invoke(eq())
    patched = llm.invoke(eq(c=21))
    record = patched.response_metadata["stepcache"]
    assert record["decision"] == "patch" and record["patched_by"] == "model"
    assert (record["steps_reused"], record["steps_regenerated"]) == (2, 1)
    assert str(patched.content) == (
        "Step 1: Start with 3x + 5 = 21.\nStep 2: Subtract 5 from both sides: 3x = 16.\n"
        "Step 3: Divide both sides by 3: x = 16/3."
    )
    assert len(model.calls) == 2


def test_changed_constant_is_reinstantiated_without_a_model_call(
    llm: StepCacheLLM, model: ScriptedChatModel
) -> None:
    # Every number traced to what it counts and every equation checked again: a reuse (before
    # the answer was re-instantiated, a patch).
    llm.invoke(eq(b=5))
    reused = llm.invoke(eq(b=8))
    assert decision(reused) == "reuse"
    assert str(reused.content) == (
        "Step 1: Start with 3x + 8 = 20.\nStep 2: Subtract 8 from both sides: 3x = 12.\n"
        "Step 3: Divide both sides by 3: x = 4."
    )
    assert len(model.calls) == 1


def test_semantic_change_skips_reuse(model: ScriptedChatModel) -> None:
    cache = StepCache(similarity_threshold=0.1)
    llm = StepCacheLLM(llm=model, step_cache=cache)
    llm.invoke(eq())
    other = llm.invoke("Return only a JSON object with keys a, b and c for 3x + 5 = 20.")
    assert decision(other) == "skip"
    assert "semantic change" in other.response_metadata["stepcache"]["reason"]


def test_wrong_model_answer_is_replaced_by_the_deterministic_answer() -> None:
    wrong = ScriptedChatModel(responder=lambda m: solve_steps(str(m[0].content), wrong=True))
    llm = StepCacheLLM(llm=wrong)
    answer = llm.invoke(eq())
    record = answer.response_metadata["stepcache"]
    assert record["fallback"] is True and record["repaired"] is False
    assert record["passed"] is True
    assert "x = 5" in str(answer.content)
    assert len(wrong.calls) == 1  # no repair call: the fallback is certain


def test_wrong_model_answer_is_repaired_once_then_falls_back() -> None:
    wrong = ScriptedChatModel(responder=lambda m: solve_steps(str(m[0].content), wrong=True))
    cache = StepCache(policy=Policy(prefer_fallback=False))
    llm = StepCacheLLM(llm=wrong, step_cache=cache)
    answer = llm.invoke(eq())
    record = answer.response_metadata["stepcache"]
    assert record["repaired"] is True and record["fallback"] is True
    assert "x = 5" in str(answer.content)
    assert len(wrong.calls) == 2  # the answer and one repair, no more
    assert "failed" in str(wrong.calls[1][-1].content) or "x = 5" in str(wrong.calls[1][-1].content)


def test_repair_fixes_a_wrong_answer() -> None:
    answers = iter(["Step 1: 3x = 15.\nStep 2: x = 6.", "Step 1: 3x = 15.\nStep 2: x = 5."])
    model = ScriptedChatModel(responder=lambda m: next(answers))
    cache = StepCache(policy=Policy(prefer_fallback=False))
    answer = StepCacheLLM(llm=model, step_cache=cache).invoke(eq())
    record = answer.response_metadata["stepcache"]
    assert record["repaired"] is True and record["fallback"] is False
    assert str(answer.content).endswith("x = 5.")
    assert record["model_calls"] == 2 and record["stored"] is True


def test_failed_answer_is_returned_flagged_and_never_stored() -> None:
    cache = StepCache(verifiers=[lambda request, answer: "approved" in answer])
    model = FakeListChatModel(responses=["nope", "still nope", "nope again"])
    llm = StepCacheLLM(llm=model, step_cache=cache)
    answer = llm.invoke("Write a slogan for Acme.")
    record = answer.response_metadata["stepcache"]
    assert record["passed"] is False and record["stored"] is False
    assert len(cache) == 0
    again = llm.invoke("Write a slogan for Acme.")
    assert decision(again) != "exact"


def test_inner_model_error_reaches_caller_and_cache_is_untouched() -> None:
    class Boom(RuntimeError):
        pass

    def explode(messages: list[BaseMessage]) -> str:
        raise Boom("upstream down")

    cache = StepCache()
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=explode), step_cache=cache)
    with pytest.raises(Boom, match="upstream down"):
        llm.invoke(eq())
    with pytest.raises(Boom):
        list(llm.stream(eq()))
    assert len(cache) == 0


def test_streaming_yields_reused_steps_then_closing_record(
    llm: StepCacheLLM, model: ScriptedChatModel
) -> None:
    # The right side 21: steps 1-2 re-instantiated and shown at once, step 3 the model's.
    llm.invoke(eq())
    chunks = list(llm.stream(eq(c=21)))
    text = "".join(str(c.content) for c in chunks)
    assert str(chunks[0].content) == (
        "Step 1: Start with 3x + 5 = 21.\nStep 2: Subtract 5 from both sides: 3x = 16.\n"
    )
    assert text.endswith("Step 3: Divide both sides by 3: x = 16/3.")
    assert len(chunks) >= 2
    full = chunks[0]
    for chunk in chunks[1:]:
        full = full + chunk
    record = full.response_metadata["stepcache"]
    assert record["decision"] == "patch"
    assert full.usage_metadata is not None
    assert full.usage_metadata["total_tokens"] == record["tokens_used"] > 0


def test_streaming_a_generic_miss_is_live(model: ScriptedChatModel) -> None:
    chatty = ScriptedChatModel(responder=lambda m: "one two three four five")
    llm = StepCacheLLM(llm=chatty)
    chunks = list(llm.stream("Tell me something about Paris."))
    assert len(chunks) > 3  # word by word from the inner model, then the closing chunk
    assert "".join(str(c.content) for c in chunks) == "one two three four five"


async def test_async_invoke_and_stream(llm: StepCacheLLM, model: ScriptedChatModel) -> None:
    first = await llm.ainvoke(eq())
    assert decision(first) == "miss"
    chunks = [c async for c in llm.astream(eq("z"))]
    records = [c.response_metadata["stepcache"] for c in chunks if c.response_metadata]
    assert [r["decision"] for r in records] == ["reuse"]
    assert "z = 5" in "".join(str(c.content) for c in chunks)
    results = await llm.abatch([eq(), eq("w")])
    assert [decision(r) for r in results] == ["exact", "reuse"]


def test_lcel_chain_and_batch(llm: StepCacheLLM) -> None:
    prompt = ChatPromptTemplate.from_messages([("human", EQ)])
    chain = prompt | llm | StrOutputParser()
    first = chain.invoke({"v": "x", "a": 3, "b": 5, "c": 20})
    assert "x = 5" in first
    outputs = chain.batch(
        [{"v": "k", "a": 3, "b": 5, "c": 20}, {"v": "x", "a": 3, "b": 5, "c": 20}]
    )
    assert "k = 5" in outputs[0] and outputs[1] == first


def test_namespaces_separate_system_prompt_and_tenants(model: ScriptedChatModel) -> None:
    cache = StepCache()
    llm = StepCacheLLM(llm=model, step_cache=cache, tenant="acme")
    llm.invoke(eq())
    other_tenant = llm.invoke(eq(), config={"metadata": {"stepcache_tenant": "globex"}})
    assert decision(other_tenant) == "miss"
    with_system = llm.invoke([SystemMessage(content="Be terse."), HumanMessage(content=eq())])
    assert decision(with_system) == "miss"
    same = llm.invoke(eq())
    assert decision(same) == "exact"


def test_shared_cache_between_wrappers_of_the_same_model(model: ScriptedChatModel) -> None:
    cache = StepCache()
    StepCacheLLM(llm=model, step_cache=cache).invoke(eq())
    second = StepCacheLLM(llm=model, step_cache=cache).invoke(eq())
    assert decision(second) == "exact"
    other_model = ScriptedChatModel(responder=solver, model_name="scripted-2")
    third = StepCacheLLM(llm=other_model, step_cache=cache).invoke(eq())
    assert decision(third) == "miss"


def test_tool_bound_requests_go_through_the_cache(model: ScriptedChatModel) -> None:
    llm = StepCacheLLM(llm=model)
    tools = [{"type": "function", "function": {"name": "f"}}]
    first = llm.invoke(eq(), tools=tools)
    second = llm.invoke(eq(), tools=tools)
    assert (decision(first), decision(second)) == ("miss", "exact")
    assert second.content == first.content and len(model.calls) == 1
    other_tools = llm.invoke(eq(), tools=[{"type": "function", "function": {"name": "g"}}])
    assert decision(other_tools) == "miss"  # the bound tools are part of the request


def test_a_tool_without_a_schema_bypasses_the_cache(model: ScriptedChatModel) -> None:
    llm = StepCacheLLM(llm=model)
    result = llm.invoke(eq(), tools=[{"type": "web_search_preview"}])
    assert decision(result) == "bypass"
    assert "JSON Schema" in result.response_metadata["stepcache"]["reason"]


def test_decisions_fire_custom_callback_events(llm: StepCacheLLM) -> None:
    seen: list[tuple[str, dict[str, Any]]] = []

    class Listener(BaseCallbackHandler):
        def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
            seen.append((name, data))

    llm.invoke(eq(), config={"callbacks": [Listener()]})
    assert seen and seen[0][0] == "stepcache"
    assert seen[0][1]["decision"] == "miss"
    json.dumps(seen[0][1])


async def test_custom_event_visible_in_astream_events(llm: StepCacheLLM) -> None:
    events = [e async for e in llm.astream_events(eq(), version="v2")]
    custom = [e for e in events if e["event"] == "on_custom_event"]
    assert custom and custom[0]["name"] == "stepcache"
    assert custom[0]["data"]["decision"] == "miss"


def test_wraps_a_completion_llm() -> None:
    completion = FakeListLLM(responses=["Step 1: 3x = 15.\nStep 2: x = 5."])
    llm = StepCacheLLM(llm=completion)
    answer = llm.invoke(eq())
    assert decision(answer) == "miss"
    assert "x = 5" in str(answer.content)
    assert answer.response_metadata["stepcache"]["tokens_estimated"] is True


def test_langchain_cache_is_refused_on_the_wrapper_and_works_on_the_inner_model() -> None:
    from langchain_core.caches import InMemoryCache

    with pytest.raises(ValueError, match="tenant"):
        StepCacheLLM(llm=ScriptedChatModel(responder=solver), cache=InMemoryCache())
    # Without tenants, the inner model's own LangChain cache still answers for it (the
    # wrapper calls it through its public API): two wrappers with separate step caches.
    model = ScriptedChatModel(responder=solver, cache=InMemoryCache())
    StepCacheLLM(llm=model, step_cache=StepCache()).invoke(eq())
    second = StepCacheLLM(llm=model, step_cache=StepCache()).invoke(eq())
    assert decision(second) == "miss"
    assert len(model.calls) == 1


def test_identifying_params_include_the_inner_model(model: ScriptedChatModel) -> None:
    a = StepCacheLLM(llm=model)
    b = StepCacheLLM(llm=ScriptedChatModel(responder=solver, model_name="other"))
    assert a._identifying_params != b._identifying_params
    assert a._get_ls_params()["ls_model_type"] == "chat"


def test_invalid_configuration_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="BaseChatModel or BaseLLM"):
        StepCacheLLM(llm="gpt-4")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="verifier"):
        StepCacheLLM(llm=ScriptedChatModel(responder=solver), verifiers=[42])


def test_output_parser_verifier_triggers_repair_and_blocks_storage() -> None:
    from langchain_core.output_parsers import PydanticOutputParser
    from pydantic import BaseModel

    class Person(BaseModel):
        name: str
        age: int

    answers = iter(['{"name": "Ana"}', '{"name": "Ana", "age": 31}'])
    model = ScriptedChatModel(responder=lambda m: next(answers))
    llm = StepCacheLLM(llm=model, verifiers=[PydanticOutputParser(pydantic_object=Person)])
    answer = llm.invoke("Describe Ana as a person record.")
    record = answer.response_metadata["stepcache"]
    assert record["repaired"] is True and record["passed"] is True
    assert Person.model_validate_json(str(answer.content)).age == 31
    assert any(v["verifier"].startswith("parser:") for v in record["verdicts"])


def test_json_schema_from_a_pydantic_model_is_enforced() -> None:
    from pydantic import BaseModel

    class Item(BaseModel):
        title: str
        price: float

    model = ScriptedChatModel(responder=lambda m: '{"title": "Pen", "price": "cheap"}')
    llm = StepCacheLLM(llm=model, json_schema=Item)
    answer = llm.invoke("Return a JSON object describing a pen.")
    record = answer.response_metadata["stepcache"]
    assert record["passed"] is False and record["stored"] is False
    assert "price" in str(record["failure"])


def test_per_call_tenant_applies_to_streams(model: ScriptedChatModel) -> None:
    cache = StepCache()
    llm = StepCacheLLM(llm=model, step_cache=cache)
    list(llm.stream(eq(), config={"metadata": {"stepcache_tenant": "acme"}}))
    chunks = list(llm.stream(eq(), config={"metadata": {"stepcache_tenant": "globex"}}))
    full = chunks[0]
    for chunk in chunks[1:]:
        full = full + chunk
    assert full.response_metadata["stepcache"]["decision"] == "miss"
    assert full.response_metadata["stepcache"]["tenant"] == "globex"
    assert cache.delete_tenant("acme") == 1


def test_sync_stream_fires_the_decision_event(llm: StepCacheLLM) -> None:
    seen: list[str] = []

    class Listener(BaseCallbackHandler):
        def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
            seen.append(data["decision"])

    list(llm.stream(eq(), config={"callbacks": [Listener()]}))
    list(llm.stream(eq(), config={"callbacks": [Listener()]}))
    assert seen == ["miss", "exact"]


class OneShot(BaseChatModel):
    """A chat model with no streaming support at all (only ``_generate``)."""

    @property
    def _llm_type(self) -> str:
        return "one-shot"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        message = AIMessage(content="Paris is big.")
        return ChatResult(generations=[ChatGeneration(message=message)])


async def test_streaming_over_a_model_that_cannot_stream() -> None:
    llm = StepCacheLLM(llm=OneShot())
    chunks = list(llm.stream("Tell me about Paris."))
    assert "".join(str(c.content) for c in chunks) == "Paris is big."
    async_chunks = [c async for c in llm.astream("Tell me about Paris, please.")]
    assert "".join(str(c.content) for c in async_chunks) == "Paris is big."
