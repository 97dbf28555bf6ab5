"""A cached structured output is served only for its own schema, tenant and document, and
only when the output class accepts it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, field_validator

from stepcache_integrations import StepCache, StepCacheLLM, StepCacheRecord
from tests.conftest import ScriptedToolModel

FACTS = re.compile(r"([A-Z][a-z]+) is (\d+) years old and lives in ([A-Z][a-z]+)")


class Person(BaseModel):
    """A person."""

    name: str
    age: int


class Resident(BaseModel):
    """A person and their city."""

    name: str
    age: int
    city: str


class Adult(BaseModel):
    """A person of age."""

    name: str
    age: int

    @field_validator("age")
    @classmethod
    def of_age(cls, value: int) -> int:
        if value < 18:
            raise ValueError("not an adult")
        return value


def extractor(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    """A SIMULATED model: the fields its schema asks for, from the first human message."""
    match = FACTS.search(str(messages[0].content))
    assert match is not None
    values = {"name": match[1], "age": int(match[2]), "city": match[3]}
    if kwargs.get("response_format"):
        schema = kwargs["response_format"].get("json_schema", {}).get("function", {})
        wanted = schema.get("parameters", {}).get("properties", values)
        return AIMessage(content=json.dumps({k: v for k, v in values.items() if k in wanted}))
    tool = kwargs["tools"][0]["function"]
    wanted = tool["parameters"]["properties"]
    args = {k: v for k, v in values.items() if k in wanted}
    return AIMessage(content="", tool_calls=[{"name": tool["name"], "args": args, "id": "x"}])


@pytest.fixture
def setup() -> tuple[StepCacheLLM, ScriptedToolModel, list[StepCacheRecord]]:
    records: list[StepCacheRecord] = []
    cache = StepCache()
    cache.add_listener(records.append)
    model = ScriptedToolModel(responder=extractor)
    return StepCacheLLM(llm=model, step_cache=cache), model, records


DOC = "Ada is 36 years old and lives in London."


@pytest.mark.parametrize("method", ["function_calling", "json_schema"])
def test_another_schema_never_gets_the_cached_output(setup: Any, method: str) -> None:
    llm, model, records = setup
    person = llm.with_structured_output(Person, method=method).invoke(DOC)
    resident = llm.with_structured_output(Resident, method=method).invoke(DOC)
    assert person == Person(name="Ada", age=36)
    assert resident == Resident(name="Ada", age=36, city="London")
    assert [r.decision for r in records] == ["miss", "miss"] and len(model.calls) == 2


def test_another_tenant_never_gets_the_cached_output(setup: Any) -> None:
    llm, model, records = setup
    calls = len(model.calls)
    extract = llm.with_structured_output(Person)
    extract.invoke(DOC, config={"metadata": {"stepcache_tenant": "acme"}})
    extract.invoke(DOC, config={"metadata": {"stepcache_tenant": "globex"}})
    assert [(r.tenant, r.decision) for r in records] == [("acme", "miss"), ("globex", "miss")]
    assert len(model.calls) == calls + 2


def test_a_changed_fact_is_never_answered_with_the_old_output(setup: Any) -> None:
    """Every field here is a value the request states ("Ada", "36", "London"): a changed
    one follows the request, and the old output is never served. Until 0.7.0
    this test also asserted a model call per request; the values are now carried over
    without one, and must be exactly the new facts."""
    llm, model, records = setup
    extract = llm.with_structured_output(Resident, method="json_schema")
    extract.invoke(DOC)
    moved = extract.invoke("Ada is 36 years old and lives in Paris.")
    assert moved == Resident(name="Ada", age=36, city="Paris")
    older = extract.invoke("Ada is 37 years old and lives in Paris.")
    assert older == Resident(name="Ada", age=37, city="Paris")
    assert [r.decision for r in records] == ["miss", "reuse", "reuse"] and len(model.calls) == 1


def test_a_changed_fact_the_output_does_not_copy_is_asked_again(setup: Any) -> None:
    """A field the request does not state as it is (a city written in another case) is
    never carried over: the model answers."""
    llm, model, records = setup
    extract = llm.with_structured_output(Resident, method="json_schema")
    extract.invoke(DOC)
    moved = extract.invoke("Ada is 36 years old and lives in Paris. Her city is in capitals.")
    assert moved.city == "Paris" and len(model.calls) == 2
    assert records[-1].decision != "reuse"


def test_a_reinstantiated_output_the_class_rejects_is_never_served(setup: Any) -> None:
    llm, _, records = setup
    extract = llm.with_structured_output(Adult)
    assert extract.invoke(DOC) == Adult(name="Ada", age=36)
    # "36" -> "16" would be carried into the cached call; Adult rejects 16.
    with pytest.raises(Exception, match="not an adult"):
        extract.invoke("Ada is 16 years old and lives in London.")
    assert records[-1].decision != "reuse" and records[-1].stored is False
