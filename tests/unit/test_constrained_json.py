"""Holding the model to the JSON Schema a request implies (constrained decoding), and the
deterministic JSON answer when the request states every value."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import BaseMessage

from stepcache_integrations import Policy, StepCache, StepCacheLLM
from tests.conftest import ScriptedChatModel, last_user_text

ONLY_JSON = (
    "Create a JSON object for a user profile. Return only a JSON object with exactly the keys "
    '"name", "age" and "city", where "city" is "Lisbon".'
)


def profile(messages: list[BaseMessage]) -> str:
    """A model that writes the profile asked for; asked only for missing keys, only those."""
    prompt = last_user_text(messages)
    if "They will be added to this object" in prompt:
        return json.dumps({"email": "ada@example.com"})
    obj = {"name": "Ada", "age": 36, "city": "Lisbon" if "Lisbon" in prompt else "Porto"}
    if '"email"' in prompt:
        obj["email"] = "ada@example.com"
    return json.dumps(obj)


def formats(model: ScriptedChatModel) -> list[dict[str, object] | None]:
    return [kwargs.get("response_format") for kwargs in model.call_kwargs]


def test_llama_cpp_style_sends_the_requests_schema() -> None:
    model = ScriptedChatModel(responder=profile)
    llm = StepCacheLLM(llm=model, step_cache=StepCache(), constrain_json="llama_cpp")
    llm.invoke(ONLY_JSON)
    (sent,) = formats(model)
    assert sent is not None and sent["type"] == "json_object"
    schema = sent["schema"]
    assert isinstance(schema, dict)
    assert schema["required"] == ["name", "age", "city"]
    assert schema["properties"]["city"] == {"const": "Lisbon"}
    assert schema["additionalProperties"] is False


def test_openai_style_sends_a_json_schema_response_format() -> None:
    model = ScriptedChatModel(responder=profile)
    StepCacheLLM(llm=model, step_cache=StepCache(), constrain_json="openai").invoke(ONLY_JSON)
    (sent,) = formats(model)
    assert sent is not None and sent["type"] == "json_schema"
    assert sent["json_schema"]["schema"]["required"] == ["name", "age", "city"]  # type: ignore[index]


def test_nothing_is_sent_unless_enabled() -> None:
    model = ScriptedChatModel(responder=profile)
    StepCacheLLM(llm=model, step_cache=StepCache()).invoke(ONLY_JSON)
    assert formats(model) == [None]


def test_a_request_with_prose_around_the_object_is_not_constrained() -> None:
    model = ScriptedChatModel(responder=profile)
    llm = StepCacheLLM(llm=model, step_cache=StepCache(), constrain_json="llama_cpp")
    llm.invoke('Explain what a user profile is, then give a JSON object with the key "name".')
    assert formats(model) == [None]


def test_the_callers_own_response_format_wins() -> None:
    model = ScriptedChatModel(responder=profile)
    llm = StepCacheLLM(llm=model, step_cache=StepCache(), constrain_json="llama_cpp")
    llm.invoke(ONLY_JSON, response_format={"type": "json_object"})
    assert formats(model) == [{"type": "json_object"}]


def test_a_partial_patch_is_held_to_the_missing_keys_only() -> None:
    # Every cached value is stated, so only the added key is asked (beside an unstated
    # value it would be asked again too: the added key may take a part of it).
    stated = ONLY_JSON.replace('where "city"', 'where "name" is "Ada", "age" is 36 and "city"')
    model = ScriptedChatModel(responder=profile)
    llm = StepCacheLLM(llm=model, step_cache=StepCache(), constrain_json="llama_cpp")
    llm.invoke(stated)
    added = stated.replace('"age" and "city",', '"age", "city" and "email",')
    assert added != stated
    message = llm.invoke(added)
    record = message.response_metadata["stepcache"]
    assert record["decision"] == "patch" and record["passed"] is True
    assert json.loads(str(message.content))["email"] == "ada@example.com"
    partial = formats(model)[-1]
    assert partial is not None
    assert partial["schema"]["required"] == ["email"]  # type: ignore[index]
    assert partial["schema"]["additionalProperties"] is False  # type: ignore[index]


def test_an_invalid_style_is_refused() -> None:
    with pytest.raises(ValueError, match="constrain_json"):
        StepCacheLLM(llm=ScriptedChatModel(responder=profile), constrain_json="grammar")


STATED = (
    'Return only a JSON object with exactly the keys "unit" and "value", where "unit" is '
    '"celsius" and "value" is 21.'
)


def test_every_value_stated_gives_a_deterministic_answer() -> None:
    model = ScriptedChatModel(responder=lambda messages: "I cannot do JSON today.")
    llm = StepCacheLLM(llm=model, step_cache=StepCache(policy=Policy(repair=False)))
    message = llm.invoke(STATED)
    record = message.response_metadata["stepcache"]
    assert record["passed"] is True and record["fallback"] is True
    assert json.loads(str(message.content)) == {"unit": "celsius", "value": 21}


def test_no_deterministic_answer_when_a_value_is_left_to_the_model() -> None:
    model = ScriptedChatModel(responder=lambda messages: "I cannot do JSON today.")
    llm = StepCacheLLM(llm=model, step_cache=StepCache(policy=Policy(repair=False)))
    message = llm.invoke(ONLY_JSON)
    record = message.response_metadata["stepcache"]
    assert record["passed"] is False and record["fallback"] is False
    assert message.content == "I cannot do JSON today."


def test_llama_index_chat_calls_carry_the_schema_too() -> None:
    from llama_index.core.llms import ChatMessage

    from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
    from tests.conftest import ScriptedLLM

    inner = ScriptedLLM(
        responder=lambda prompt: json.dumps({"name": "Ada", "age": 36, "city": "Lisbon"}),
        chat_model=True,
    )
    llm = LlamaStepCacheLLM(llm=inner, step_cache=StepCache(), constrain_json="llama_cpp")
    response = llm.chat([ChatMessage(role="user", content=ONLY_JSON)])
    assert response.additional_kwargs["stepcache"]["passed"] is True
    (sent,) = [kwargs.get("response_format") for kwargs in inner.chat_kwargs]
    assert sent is not None and sent["schema"]["required"] == ["name", "age", "city"]
