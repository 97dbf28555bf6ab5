"""LlamaIndex structured output through the cache: ``structured_predict`` and
``as_structured_llm``, with a function-calling model (the output arrives as a tool call) and
with a text model (JSON text checked by the output class's parser)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock
from llama_index.core.llms import MockFunctionCallingLLM
from llama_index.core.prompts import PromptTemplate
from pydantic import BaseModel

from stepcache_integrations import StepCache, StepCacheRecord
from stepcache_integrations.llama_index import StepCacheLLM
from tests.conftest import ScriptedLLM

PERSON = re.compile(r"([A-Z][a-z]+) is (\d+) years old")
EXTRACT = PromptTemplate("Extract the person from this text: {text}")


class Person(BaseModel):
    """A person mentioned in a text."""

    name: str
    age: int


class ToolExtractor:
    """A SIMULATED function-calling model: calls the output tool with the person it finds."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.calls += 1
        tools = kwargs.get("tools") or []
        match = PERSON.search(str(messages[-1].content))
        assert match is not None and tools
        block = ToolCallBlock(
            tool_call_id=f"call-{self.calls}",
            tool_name=tools[0].metadata.name,
            tool_kwargs={"name": match[1], "age": int(match[2])},
        )
        return ChatMessage(role="assistant", blocks=[block])


def text_extractor(prompt: str) -> str:
    match = PERSON.search(prompt.rsplit("text:", 1)[-1])
    assert match is not None, prompt
    return json.dumps({"name": match[1], "age": int(match[2])})


@pytest.fixture
def records() -> list[StepCacheRecord]:
    return []


@pytest.fixture
def cache(records: list[StepCacheRecord]) -> StepCache:
    step_cache = StepCache()
    step_cache.add_listener(records.append)
    return step_cache


def test_function_calling_structured_predict_is_cached(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    model = ToolExtractor()
    llm = StepCacheLLM(llm=MockFunctionCallingLLM(response_generator=model), step_cache=cache)
    text = "Ada is 36 years old and lives in London."
    first = llm.structured_predict(Person, EXTRACT, text=text)
    second = llm.structured_predict(Person, EXTRACT, text=text)
    assert type(first) is type(second) is Person
    assert first == second == Person(name="Ada", age=36)
    assert model.calls == 1
    assert [r.decision for r in records] == ["miss", "exact"]
    # The output class's own validation checked the call's arguments.
    assert {"verifier": "structured_output", "outcome": "pass", "reason": "", "step": None} in (
        records[0].verdicts
    )


def test_function_calling_extraction_from_a_changed_text_calls_the_model(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    model = ToolExtractor()
    llm = StepCacheLLM(llm=MockFunctionCallingLLM(response_generator=model), step_cache=cache)
    llm.structured_predict(Person, EXTRACT, text="Ada is 36 years old and lives in London.")
    changed = llm.structured_predict(
        Person, EXTRACT, text="Ada is 37 years old and lives in London with her cat."
    )
    assert changed == Person(name="Ada", age=37)
    assert model.calls == 2 and records[-1].decision in ("miss", "skip")


def test_as_structured_llm_goes_through_the_cache(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    model = ToolExtractor()
    llm = StepCacheLLM(llm=MockFunctionCallingLLM(response_generator=model), step_cache=cache)
    structured = llm.as_structured_llm(Person)
    question = [ChatMessage(role="user", content="Ada is 36 years old.")]
    first = structured.chat(question)
    second = structured.chat(question)
    assert first.raw == second.raw == Person(name="Ada", age=36)
    assert model.calls == 1
    assert [r.decision for r in records] == ["miss", "exact"]


async def test_async_text_structured_predict_is_cached(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    model = ScriptedLLM(responder=text_extractor, chat_model=True)
    llm = StepCacheLLM(llm=model, step_cache=cache)
    text = "Grace is 45 years old."
    first = await llm.astructured_predict(Person, EXTRACT, text=text)
    second = await llm.astructured_predict(Person, EXTRACT, text=text)
    assert first == second == Person(name="Grace", age=45)
    assert len(model.calls) == 1
    changed = await llm.astructured_predict(Person, EXTRACT, text="Grace is 46 years old.")
    # Every field is a value the text states: the changed age follows the request with no
    # model call (until 0.7.0 the model was asked again).
    assert changed == Person(name="Grace", age=46) and len(model.calls) == 1
    assert records[-1].decision == "reuse"


def test_a_changed_fact_in_a_text_extraction_is_never_served_stale(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    class Resident(BaseModel):
        """A person and their city."""

        name: str
        city: str

    def answer(prompt: str) -> str:
        match = re.search(r"text: ([A-Z][a-z]+) lives in ([A-Z][a-z]+)", prompt)
        assert match is not None, prompt
        return json.dumps({"name": match[1], "city": match[2]})

    model = ScriptedLLM(responder=answer)
    llm = StepCacheLLM(llm=model, step_cache=cache)
    first = llm.structured_predict(Resident, EXTRACT, text="Ada lives in London.")
    moved = llm.structured_predict(Resident, EXTRACT, text="Ada lives in Paris.")
    assert (first.city, moved.city) == ("London", "Paris")
    # The city is a value the text states: it follows the request with no model call (until
    # 0.7.0 the model was asked again). Text added beside it is asked of the model.
    assert len(model.calls) == 1 and records[-1].decision == "reuse"
    more = llm.structured_predict(Resident, EXTRACT, text="Ada lives in Paris, France.")
    assert more.city == "Paris" and len(model.calls) == 2
