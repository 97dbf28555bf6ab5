"""``StepCacheLLM.with_structured_output``: cached, verified, a hit equal to a miss."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage
from pydantic import BaseModel, field_validator
from typing_extensions import TypedDict

from stepcache_integrations import StepCache, StepCacheLLM, StepCacheRecord
from tests.conftest import ScriptedToolModel

PERSON = re.compile(r"([A-Z][a-z]+) is (\d+) years old")


class Person(BaseModel):
    """A person mentioned in a text."""

    name: str
    age: int

    @field_validator("age")
    @classmethod
    def plausible(cls, value: int) -> int:
        if not 0 <= value < 150:
            raise ValueError("not a human age")
        return value


class PersonDict(TypedDict):
    """A person mentioned in a text."""

    name: str
    age: int


PERSON_SCHEMA: dict[str, Any] = {
    "title": "PersonRecord",
    "description": "A person mentioned in a text.",
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
}


class Extractor:
    """A SIMULATED extraction model: a tool call (function calling) or JSON text (JSON mode)
    with the first "<Name> is <n> years old" of the request; ``drop`` leaves a field out of
    its first answer."""

    def __init__(self, drop: str | None = None) -> None:
        self.calls = 0
        self.drop = drop

    def __call__(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        self.calls += 1
        document = str(messages[0].content)  # the caller's request; later turns are the cache's
        asked = re.search(r'keys? "([a-z]+)"', str(messages[-1].content))
        match = PERSON.search(document)
        assert match is not None, document
        if asked:  # a partial patch asks for only the missing field
            return AIMessage(content=json.dumps({asked[1]: int(match[2])}))
        value: dict[str, Any] = {"name": match[1], "age": int(match[2])}
        if self.drop is not None:
            value.pop(self.drop)
            self.drop = None
        if kwargs.get("response_format"):
            return AIMessage(content=json.dumps(value))
        name = kwargs["tools"][0]["function"]["name"]
        return AIMessage(content="", tool_calls=[{"name": name, "args": value, "id": "x"}])


@pytest.fixture
def records() -> list[StepCacheRecord]:
    return []


def wrapper(extractor: Extractor, records: list[StepCacheRecord]) -> StepCacheLLM:
    cache = StepCache()
    cache.add_listener(records.append)
    return StepCacheLLM(llm=ScriptedToolModel(responder=extractor), step_cache=cache)


DOC = "Extract the person: Ada is 36 years old and lives in London."


@pytest.mark.parametrize("method", ["function_calling", "json_schema", "json_mode"])
def test_second_identical_extraction_makes_no_model_call(
    method: str, records: list[StepCacheRecord]
) -> None:
    extractor = Extractor()
    extract = wrapper(extractor, records).with_structured_output(Person, method=method)
    first = extract.invoke(DOC)
    second = extract.invoke(DOC)
    assert type(first) is type(second) is Person
    assert second == first == Person(name="Ada", age=36)
    assert extractor.calls == 1
    assert [r.decision for r in records] == ["miss", "exact"]
    assert records[1].tokens_used == 0


@pytest.mark.parametrize("schema", [PersonDict, PERSON_SCHEMA], ids=["typeddict", "json_schema"])
@pytest.mark.parametrize("method", ["function_calling", "json_schema"])
def test_dict_schemas_give_equal_dicts(
    schema: Any, method: str, records: list[StepCacheRecord]
) -> None:
    extractor = Extractor()
    extract = wrapper(extractor, records).with_structured_output(schema, method=method)
    first, second = extract.invoke(DOC), extract.invoke(DOC)
    assert first == second == {"name": "Ada", "age": 36}
    assert type(first) is type(second) is dict
    assert extractor.calls == 1


@pytest.mark.parametrize("method", ["function_calling", "json_mode"])
def test_include_raw_on_a_hit_is_shaped_like_a_miss(
    method: str, records: list[StepCacheRecord]
) -> None:
    extractor = Extractor()
    extract = wrapper(extractor, records).with_structured_output(
        Person, method=method, include_raw=True
    )
    miss, hit = extract.invoke(DOC), extract.invoke(DOC)
    assert set(miss) == set(hit) == {"raw", "parsed", "parsing_error"}
    assert miss["parsed"] == hit["parsed"] == Person(name="Ada", age=36)
    assert miss["parsing_error"] is hit["parsing_error"] is None
    assert type(miss["raw"]) is type(hit["raw"]) is AIMessage
    assert hit["raw"].response_metadata["stepcache"]["decision"] == "exact"
    if method == "function_calling":
        old, new = miss["raw"].tool_calls[0], hit["raw"].tool_calls[0]
        assert (old["name"], old["args"]) == (new["name"], new["args"])
        assert old["id"] != new["id"]  # a fresh call id
    else:
        assert hit["raw"].content == miss["raw"].content


@pytest.mark.parametrize("method", ["function_calling", "json_schema"])
def test_a_changed_document_calls_the_model(method: str, records: list[StepCacheRecord]) -> None:
    extractor = Extractor()
    extract = wrapper(extractor, records).with_structured_output(Person, method=method)
    extract.invoke(DOC)
    changed = extract.invoke("Extract the person: Ada is 37 years old and lives in Paris.")
    assert changed == Person(name="Ada", age=37)
    assert extractor.calls == 2
    assert records[-1].decision in ("miss", "skip")


def test_a_copied_value_is_reinstantiated_into_an_output_class_declared_pure(
    records: list[StepCacheRecord],
) -> None:
    extractor = Extractor()
    cache = StepCache()
    cache.add_listener(records.append)
    model = ScriptedToolModel(responder=extractor)
    llm = StepCacheLLM(llm=model, step_cache=cache, pure_tools=["Person"])
    extract = llm.with_structured_output(Person)
    extract.invoke(DOC)
    other = extract.invoke("Extract the person: Grace is 36 years old and lives in London.")
    assert other == Person(name="Grace", age=36)
    assert extractor.calls == 1  # the name was copied from the text: rewritten, no model call
    assert records[-1].decision == "reuse"


def test_without_the_declaration_an_extraction_with_other_words_calls_the_model(
    records: list[StepCacheRecord],
) -> None:
    # The output class's tool says more than one thing ("a person mentioned in a text") and
    # the text says more than the object holds ("lives in London"): the cache cannot tell
    # that none of it decides another value, so the model is asked.
    extractor = Extractor()
    extract = wrapper(extractor, records).with_structured_output(Person)
    extract.invoke(DOC)
    other = extract.invoke("Extract the person: Grace is 36 years old and lives in London.")
    assert other == Person(name="Grace", age=36)
    assert extractor.calls == 2
    assert records[-1].decision == "skip"


def test_a_failing_value_is_never_served(records: list[StepCacheRecord]) -> None:
    extractor = Extractor()
    extract = wrapper(extractor, records).with_structured_output(Person)
    extract.invoke("Extract the person: Ada is 36 years old.")
    # 360 would be re-instantiated from the text, but Person rejects it: the model is asked
    # (and its answer, rejected too, is neither served as valid nor cached).
    with pytest.raises(Exception, match="not a human age"):
        extract.invoke("Extract the person: Ada is 360 years old.")
    assert records[-1].decision != "reuse" and not records[-1].stored
    assert extractor.calls >= 2


def test_json_mode_regenerates_only_the_missing_field(records: list[StepCacheRecord]) -> None:
    extractor = Extractor(drop="age")
    extract = wrapper(extractor, records).with_structured_output(Person, method="json_mode")
    person = extract.invoke(DOC)
    assert person == Person(name="Ada", age=36)
    assert records[-1].mended == "partial"  # the model was asked for "age" alone
    assert extractor.calls == 2
    assert extract.invoke(DOC) == person and extractor.calls == 2


async def test_async_structured_output_hits(records: list[StepCacheRecord]) -> None:
    extractor = Extractor()
    extract = wrapper(extractor, records).with_structured_output(Person)
    first = await extract.ainvoke(DOC)
    second = await extract.ainvoke(DOC)
    assert first == second and extractor.calls == 1


def test_unknown_method_is_a_clear_error(records: list[StepCacheRecord]) -> None:
    with pytest.raises(ValueError, match="method must be one of"):
        wrapper(Extractor(), records).with_structured_output(Person, method="xml")
