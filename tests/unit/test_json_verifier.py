"""Unit tests of the JSON verifier: prompt phrases, each verifier method, bad input."""

from __future__ import annotations

import json
from typing import Literal

import pytest
from pydantic import BaseModel

from stepcache_integrations.core.steps import JsonSegmenter, ParagraphSegmenter, Step
from stepcache_integrations.core.tasks.json_object.verifier import (
    JsonRequest,
    JsonVerifier,
    parse_json_request,
)
from stepcache_integrations.core.verifiers.base import Outcome, Verdict, VerifyContext

# --------------------------------------------------------------------------- prompt parsing


@pytest.mark.parametrize(
    ("prompt", "keys"),
    [
        ("Return a JSON object with keys name, age and city.", ("name", "age", "city")),
        ('Return JSON with the keys "name", "age", "city".', ("name", "age", "city")),
        ("Return JSON with the keys 'name', `age` and “city”.", ("name", "age", "city")),
        ("Output a json object. keys: name, age, city", ("name", "age", "city")),
        ("JSON with keys:\n- name\n- age\n- city", ("name", "age", "city")),
        ("JSON object with fields id, title for each book", ("id", "title")),
        ("Return JSON including the key email.", ("email",)),
        ('Return JSON and include an "email" field.', ("email",)),
        ("Return JSON and include an email field.", ("email",)),
        (
            "The JSON must contain keys firstName, last_name and zipCode.",
            ("firstName", "last_name", "zipCode"),
        ),
        ('Return the JSON; add a key "email".', ("email",)),
        ("Return JSON. The keys are name and age.", ("name", "age")),
        ("JSON with keys name (string), age (integer)", ("name", "age")),
        ("JSON with keys a, b and c.", ("a", "b", "c")),
        ("Return a JSON object with keys name, age, and city, please", ("name", "age", "city")),
        ('JSON with keys "first name", "e-mail"', ("first name", "e-mail")),
        ('Return JSON with a key named "email".', ("email",)),
    ],
)
def test_required_key_phrases(prompt: str, keys: tuple[str, ...]) -> None:
    request = parse_json_request(prompt)
    assert request is not None
    assert request.required_keys == keys


@pytest.mark.parametrize(
    ("prompt", "fixed"),
    [
        ('Return JSON with keys name, age where status is "active".', {"status": "active"}),
        ('JSON with keys name, age; "status" set to "active".', {"status": "active"}),
        ('Return JSON with status = "active"', {"status": "active"}),
        ('JSON: status must be "active".', {"status": "active"}),
        ("Return JSON where age equal to 30.", {"age": 30}),
        ('Return JSON with "count": 3', {"count": 3}),
        ("Return JSON with active set to true.", {"active": True}),
        ("Return JSON where deleted is null and score is -1.5", {"deleted": None, "score": -1.5}),
        ("Return JSON and set the field status to 'on'.", {"status": "on"}),
        ("Return JSON; ratio should be 1e-05.", {"ratio": 1e-05}),
        ('JSON where status is "a.b" and age is 4', {"status": "a.b", "age": 4}),
        ("JSON with keys name, age. Age must be 30.", {"age": 30}),  # case of the listed key
        ('JSON: the status field must be "active".', {"status": "active"}),
        ('JSON where the status field is "x"', {"status": "x"}),
        ('JSON where "a" is 1, "b" is "x" and "c" is true', {"a": 1, "b": "x", "c": True}),
        ('JSON where status is "on"\nKeys: a, b', {"status": "on"}),
        ('JSON (where status is "on") please', {"status": "on"}),
    ],
)
def test_fixed_value_phrases(prompt: str, fixed: dict[str, object]) -> None:
    request = parse_json_request(prompt)
    assert request is not None
    assert request.fixed_values == fixed
    for key, value in fixed.items():
        assert type(request.fixed_values[key]) is type(value)


@pytest.mark.parametrize(
    "prompt",
    [
        'JSON where status must be "a" or "b"',  # one of several values
        "JSON where price equal to 1,000",  # a number we cannot read safely
        "JSON where price equal to $30",
        "JSON where share equal to 30%",
        "JSON with keys x; solve x = 7 - 2 first",  # arithmetic, not a value
        "JSON with keys items. The number of items must be 5.",  # a noun phrase, not a key
        "Return JSON. The answer must be 42.",  # too vague to be a key
        'Update this JSON {"name": "Bob", "age": 3} so that it is valid',  # an input object
        'Return JSON. The status is "active".',  # "is" outside a where-clause
        'Return JSON where status must be "a" and status must be "b".',  # conflicting values
        "Return JSON where age must be at least 18.",
        "Return JSON where age greater than or equal to 18.",
        # A qualified value: the key holds something the written value only describes.
        "Create a JSON object for the city Rome with the keys city and greeting, where "
        "greeting is 'hello' in the main language spoken in that city.",
        'JSON with the keys name and title, where title is "Dr." followed by the surname.',
        'Return JSON where status is "active", unless the account is closed.',
        "Return JSON where unit is 'celsius' for European cities.",
    ],
)
def test_unsure_values_are_not_fixed(prompt: str) -> None:
    request = parse_json_request(prompt)
    assert request is not None
    assert request.fixed_values == {}


@pytest.mark.parametrize(
    "prompt",
    [
        "Summarise the key points as JSON.",  # "key points" is no key
        "Return JSON. The keys are sorted.",  # "are" + one bare word is no list
        "Return JSON with keys and values.",
        "Return JSON with fields of study.",
        "Return JSON with keys first-name.",  # a hyphenated bare word is not read in half
        'Return JSON where the status field is "x".',  # a value, not a key
        "Return JSON with these keys\nOutput only the object.",  # no list across lines
    ],
)
def test_phrases_that_name_no_key(prompt: str) -> None:
    request = parse_json_request(prompt)
    assert request is not None
    assert request.required_keys == ()


def test_key_list_stops_at_the_next_clause() -> None:
    request = parse_json_request("Return JSON with keys name and age and return it quickly")
    assert request is not None
    assert request.required_keys == ("name", "age")


def test_non_json_prompt_is_no_request() -> None:
    assert parse_json_request("Solve 3x + 5 = 20 for x.") is None
    assert parse_json_request("Write a poem about keys with fields of gold") is None
    assert parse_json_request("Describe jsonl files") is None


def test_schema_makes_a_request_and_adds_required_and_const() -> None:
    schema = {
        "type": "object",
        "required": ["id", "kind"],
        "properties": {"kind": {"const": "user"}, "tier": {"enum": ["gold"]}},
    }
    request = parse_json_request("Describe the user", schema)
    assert request == JsonRequest(("id", "kind"), {"kind": "user", "tier": "gold"})


def test_prompt_value_wins_over_schema_const() -> None:
    schema = {"properties": {"kind": {"const": "user"}}}
    request = parse_json_request('JSON where kind is "admin"', schema)
    assert request is not None
    assert request.fixed_values == {"kind": "admin"}


def test_parse_rejects_non_text() -> None:
    with pytest.raises(TypeError, match="prompt must be a str"):
        parse_json_request(b"json")  # type: ignore[arg-type]


def test_parsed_request_is_not_shared_between_calls() -> None:
    first = parse_json_request('JSON where status is "on"')
    assert first is not None
    first.fixed_values["status"] = "mutated"
    again = parse_json_request('JSON where status is "on"')
    assert again is not None
    assert again.fixed_values == {"status": "on"}


# --------------------------------------------------------------------------- construction


class User(BaseModel):
    name: str
    age: int
    status: Literal["active"]


def test_pydantic_model_becomes_schema() -> None:
    verifier = JsonVerifier(User)
    assert verifier.schema is not None
    assert verifier.schema["required"] == ["name", "age", "status"]


@pytest.mark.parametrize("schema", [{"type": 12}, {"required": "name"}, {"minProperties": -1}])
def test_invalid_schema_is_rejected_at_construction(schema: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="invalid JSON Schema"):
        JsonVerifier(schema)


def test_non_schema_argument_is_rejected() -> None:
    with pytest.raises(ValueError, match="expected a JSON Schema dict or a Pydantic model"):
        JsonVerifier(["not", "a", "schema"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not plain JSON"):
        JsonVerifier({"type": "object", "default": {1, 2}})


def test_schema_property_is_a_copy() -> None:
    verifier = JsonVerifier({"type": "object"})
    copy = verifier.schema
    assert copy is not None
    copy["type"] = "array"
    assert verifier.schema == {"type": "object"}


# --------------------------------------------------------------------------- applies_to


def test_applies_to() -> None:
    assert JsonVerifier().applies_to("Return a JSON object with keys a, b") is True
    assert JsonVerifier().applies_to("Solve 2x + 1 = 7") is False
    assert JsonVerifier({"type": "object"}).applies_to("Describe a user") is True
    assert JsonVerifier().applies_to("Describe a user", {"json_schema": {"type": "object"}})


# --------------------------------------------------------------------------- check_step

NEW = 'Return a JSON object with keys name, age and email where status is "active".'
ANSWER = (
    "Here you go:\n```json\n"
    '{\n  "name": "Ana",\n  "age": 30,\n  "email": "a@b.c",\n  "status": "active"\n}'
    "\n```\n"
)


def _object_step(answer: str) -> tuple[list[Step], int]:
    steps = JsonSegmenter().split(answer)
    index = next(i for i, s in enumerate(steps) if s.text.lstrip().startswith("{"))
    return steps, index


def _check(request: str, answer: str, cached: str | None = None) -> Verdict:
    steps, index = _object_step(answer)
    return JsonVerifier().check_step(VerifyContext(request, cached), steps[index], index, steps)


def test_check_step_passes_a_matching_object() -> None:
    verdict = _check(NEW, ANSWER, cached=NEW)
    assert verdict.outcome is Outcome.PASS
    assert verdict.step == 1


def test_check_step_is_not_applicable_to_prose_steps() -> None:
    steps = JsonSegmenter().split(ANSWER)
    verdict = JsonVerifier().check_step(VerifyContext(NEW), steps[0], 0, steps)
    assert verdict.outcome is Outcome.NOT_APPLICABLE
    assert verdict.step == 0


def test_check_step_is_not_applicable_without_a_json_request() -> None:
    steps, index = _object_step(ANSWER)
    verdict = JsonVerifier().check_step(VerifyContext("Solve x + 1 = 2"), steps[index], index, [])
    assert verdict.outcome is Outcome.NOT_APPLICABLE


def test_check_step_fails_missing_key() -> None:
    verdict = _check(NEW.replace("age and email", "age, email and phone"), ANSWER)
    assert verdict.failed
    assert verdict.reason == "missing required key 'phone'"


def test_check_step_fails_changed_fixed_value() -> None:
    verdict = _check(NEW.replace('"active"', '"inactive"'), ANSWER)
    assert verdict.failed
    assert verdict.reason == '\'status\' is "active" but must be "inactive"'


def test_check_step_fails_removed_key() -> None:
    new = 'Return a JSON object with keys name and age where status is "active".'
    verdict = _check(new, ANSWER, cached=NEW)
    assert verdict.failed
    assert verdict.reason == "key 'email' is no longer requested"


def test_key_still_mentioned_is_not_removed() -> None:
    new = 'Return a JSON object with keys name and age where status is "active"; email optional.'
    assert _check(new, ANSWER, cached=NEW).passed


def test_check_step_fails_invalid_json() -> None:
    step = Step('```json\n{"name": "Ana", "age": }\n```')
    verdict = JsonVerifier().check_step(VerifyContext(NEW), step, 0, [step])
    assert verdict.failed
    assert verdict.reason.startswith("step is not a valid JSON object: Expecting value")


def test_check_step_fails_two_objects_in_one_step() -> None:
    step = Step('{"name": "A", "age": 1, "email": "e"} {"b": 2}')
    verdict = JsonVerifier().check_step(VerifyContext(NEW), step, 0, [step])
    assert verdict.failed
    assert verdict.reason == "step has more than one JSON object"


def test_check_step_fails_when_another_step_holds_an_object_too() -> None:
    text = '{"name": "A", "age": 1, "email": "e"}\n\n{"other": 1}'
    steps = ParagraphSegmenter().split(text)
    verdict = JsonVerifier().check_step(VerifyContext(NEW), steps[0], 0, steps)
    assert verdict.failed
    assert verdict.reason == "the answer has more than one JSON object"


def test_check_step_reports_schema_error_path() -> None:
    verifier = JsonVerifier(User)
    steps, index = _object_step('{"name": "Ana", "age": "old", "status": "active"}')
    verdict = verifier.check_step(VerifyContext("Describe a user"), steps[index], index, steps)
    assert verdict.failed
    assert verdict.reason == "schema error at $.age: 'old' is not of type 'integer'"


def test_check_step_nested_schema_error_path() -> None:
    schema = {
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string"}}},
    }
    step = Step('{"tags": ["a", 2]}')
    verdict = JsonVerifier(schema).check_step(VerifyContext("Tag it"), step, 0, [step])
    assert verdict.reason == "schema error at $.tags[1]: 2 is not of type 'string'"


# --------------------------------------------------------------------------- check_answer


def test_check_answer_pass_fenced_and_bare() -> None:
    verifier = JsonVerifier()
    assert verifier.check_answer(VerifyContext(NEW), ANSWER).passed
    bare = '{"name": "Ana", "age": 30, "email": "a@b.c"}'
    assert verifier.check_answer(VerifyContext(NEW), bare).passed


def test_check_answer_not_applicable_without_json_request() -> None:
    verdict = JsonVerifier().check_answer(VerifyContext("Solve x + 1 = 2"), "x = 1")
    assert verdict.outcome is Outcome.NOT_APPLICABLE


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("I cannot do that.", "no JSON object found"),
        (
            '{"name": "Ana", "age": }',
            "not a valid JSON object: Expecting value (line 1, column 24)",
        ),
        ('{"name": "A", "age": 1, "email": "e"} {"x": 1}', "more than one JSON object"),
        ('Like {"x": 1}:\n```json\n{"name": "A", "age": 1, "email": "e"}\n```', "more than one"),
        ('[{"name": "A", "age": 1, "email": "e"}]', "the answer is a JSON array"),
        ('{"name": "A", "age": 1}', "missing required key 'email'"),
        ('{"age": 1}', "missing required keys 'name', 'email'"),
        ('{"name": "A", "age": 1, "email": "e", "status": 1}', "'status' is 1 but must be"),
    ],
)
def test_check_answer_failures(answer: str, reason: str) -> None:
    verdict = JsonVerifier().check_answer(VerifyContext(NEW), answer)
    assert verdict.failed
    assert verdict.step is None
    assert verdict.reason.startswith(reason)


def test_fixed_values_compare_as_json() -> None:
    verifier = JsonVerifier()
    ctx = VerifyContext("Return JSON where active is true and count is 1")
    assert verifier.check_answer(ctx, '{"active": true, "count": 1.0}').passed
    assert verifier.check_answer(ctx, '{"active": 1, "count": 1}').failed  # 1 is not true
    assert verifier.check_answer(ctx, '{"active": true, "count": true}').failed
    # A fixed key that is not required only needs to match when present.
    assert verifier.check_answer(ctx, '{"other": 2}').passed


def test_removed_key_check_needs_a_cached_request() -> None:
    new = 'Return a JSON object with keys name and age where status is "active".'
    verifier = JsonVerifier()
    assert verifier.check_answer(VerifyContext(new), ANSWER).passed
    assert verifier.check_answer(VerifyContext(new, NEW), ANSWER).failed


def test_options_schema_wins_over_constructor_schema() -> None:
    verifier = JsonVerifier({"type": "object", "required": ["a"]})
    answer = '{"b": 1}'
    assert verifier.check_answer(VerifyContext("Describe"), answer).failed
    ctx = VerifyContext("Describe", options={"json_schema": {"required": ["b"]}})
    assert verifier.check_answer(ctx, answer).passed
    model_ctx = VerifyContext("Describe", options={"json_schema": User})
    assert verifier.check_answer(model_ctx, answer).reason.startswith("missing required keys")


def test_options_schema_makes_a_json_request() -> None:
    ctx = VerifyContext("Describe a user", options={"json_schema": {"required": ["id"]}})
    verdict = JsonVerifier().check_answer(ctx, '{"name": "x"}')
    assert verdict.reason.startswith("missing required key 'id'")


def test_invalid_options_schema_is_a_clear_error() -> None:
    ctx = VerifyContext("Describe", options={"json_schema": {"type": 5}})
    with pytest.raises(ValueError, match=r"options\['json_schema'\]: invalid JSON Schema"):
        JsonVerifier().check_answer(ctx, "{}")


def test_unresolvable_schema_ref_fails_with_reason() -> None:
    schema = {"properties": {"a": {"$ref": "https://example.invalid/schema.json"}}}
    verdict = JsonVerifier(schema).check_answer(VerifyContext("Describe"), '{"a": 1}')
    assert verdict.failed
    assert verdict.reason.startswith("the JSON Schema could not be applied")


# --------------------------------------------------------------------------- repair_instruction


def test_repair_instruction_names_keys_and_values() -> None:
    request = 'Return a JSON object with keys name, age, email where status is "active".'
    answer = '{"name": "Ana", "age": 3, "status": "off"}'
    verifier = JsonVerifier()
    ctx = VerifyContext(request)
    instruction = verifier.repair_instruction(ctx, answer, verifier.check_answer(ctx, answer))
    assert instruction is not None
    assert instruction.startswith(
        "Return only the corrected JSON object. It must have the keys name, age, email; "
        'status must be "active".'
    )
    assert "missing required key 'email'" in instruction
    assert '\'status\' is "off" but must be "active"' in instruction


def test_repair_instruction_for_unparsable_answer_and_schema() -> None:
    verifier = JsonVerifier(User)
    ctx = VerifyContext("Describe a user")
    failure = verifier.check_answer(ctx, "sorry")
    instruction = verifier.repair_instruction(ctx, "sorry", failure)
    assert instruction is not None
    assert "What was wrong: no JSON object found." in instruction
    assert '"required":["name","age","status"]' in instruction


def test_repair_instruction_names_removed_keys() -> None:
    new = 'Return a JSON object with keys name and age where status is "active".'
    ctx = VerifyContext(new, NEW)
    instruction = JsonVerifier().repair_instruction(ctx, ANSWER, Verdict.fail("json", "x"))
    assert instruction is not None
    assert "Remove 'email': no longer requested." in instruction


def test_repair_instruction_none_without_json_request() -> None:
    ctx = VerifyContext("Solve x + 1 = 2")
    assert JsonVerifier().repair_instruction(ctx, "x = 1", Verdict.fail("json", "x")) is None


# --------------------------------------------------------------------------- adapt_step


def _adapt(request: str, text: str, cached: str | None = None) -> Step | None:
    return JsonVerifier().adapt_step(VerifyContext(request, cached), Step(text, "\n```\n"))


def test_adapt_sets_fixed_value_and_drops_removed_key() -> None:
    steps, index = _object_step(ANSWER)
    new = 'Return a JSON object with keys name and age where status is "inactive".'
    adapted = _adapt(new, steps[index].text, cached=NEW)
    assert adapted == Step(
        '{\n  "name": "Ana",\n  "age": 30,\n  "status": "inactive"\n}', "\n```\n"
    )
    ctx = VerifyContext(new, NEW)
    assert JsonVerifier().check_step(ctx, adapted, index, steps).passed


@pytest.mark.parametrize(
    ("original", "expected"),
    [
        ('{"a": 1, "s": "x"}', '{"a": 1, "s": "y"}'),
        ('{"a":1,"s":"x"}', '{"a":1,"s":"y"}'),
        ('{\n    "a": 1,\n    "s": "x"\n}', '{\n    "a": 1,\n    "s": "y"\n}'),
        ('{\n\t"a": 1,\n\t"s": "x"\n}', '{\n\t"a": 1,\n\t"s": "y"\n}'),
        # The object sits indented inside a list item: every line keeps the base indent.
        ('{\n     "a": 1,\n     "s": "x"\n   }', '{\n     "a": 1,\n     "s": "y"\n   }'),
        ('{"a": "\\u00e9", "s": "x"}', '{"a": "\\u00e9", "s": "y"}'),
        ('{"a": "é", "s": "x"}', '{"a": "é", "s": "y"}'),
    ],
)
def test_adapt_keeps_formatting(original: str, expected: str) -> None:
    adapted = _adapt('Return JSON where s is "y"', "Result: " + original)
    assert adapted == Step("Result: " + expected, "\n```\n")


def test_adapt_adds_a_required_key_whose_value_is_fixed() -> None:
    adapted = _adapt('Return JSON with keys a, s where s is "on"', '{"a": 1}')
    assert adapted is not None
    assert json.loads(adapted.text) == {"a": 1, "s": "on"}


def test_adapt_returns_none_when_a_required_value_is_unknown() -> None:
    assert _adapt('Return JSON with keys a, b where s is "on"', '{"a": 1, "s": "off"}') is None


def test_adapt_returns_none_when_nothing_changes_or_no_object() -> None:
    assert _adapt('Return JSON with keys a where s is "on"', '{"a": 1, "s": "on"}') is None
    assert _adapt('Return JSON where s is "on"', "no object here") is None
    assert _adapt('Return JSON where s is "on"', '{"s": broken}') is None
    assert _adapt('Solve x + 1 = 2 where s is "on"', '{"s": "off"}') is None


def test_adapt_matches_key_case_insensitively() -> None:
    adapted = _adapt('Return JSON where Status is "on"', '{"status": "off"}')
    assert adapted is not None
    assert adapted.text == '{"status": "on"}'


# --------------------------------------------------------------------------- partial_patch


def test_partial_patch_asks_for_missing_keys_and_merges() -> None:
    new = 'Return a JSON object with keys name, age, email and phone where status is "off".'
    steps, index = _object_step(ANSWER)
    verifier = JsonVerifier()
    patch = verifier.partial_patch(VerifyContext(new, NEW), steps[index])
    assert patch is not None
    assert patch.instruction.startswith('Return only a JSON object with the keys "phone" and')
    assert '"email": "a@b.c"' in patch.instruction  # the rest of the object, for context
    merged = patch.merge('```json\n{"phone": "555"}\n```')
    assert merged is not None
    assert json.loads(merged.text) == {
        "name": "Ana",
        "age": 30,
        "email": "a@b.c",
        "status": "off",
        "phone": "555",
    }
    assert merged.text.startswith('{\n  "name"')  # original indentation kept
    assert verifier.check_step(VerifyContext(new, NEW), merged, index, steps).passed
    assert patch.merge("no json") is None
    assert patch.merge('{"other": 1}') is None


def test_partial_patch_none_when_nothing_is_missing() -> None:
    steps, index = _object_step(ANSWER)
    assert JsonVerifier().partial_patch(VerifyContext(NEW), steps[index]) is None
    assert JsonVerifier().partial_patch(VerifyContext(NEW), Step("prose")) is None


# --------------------------------------------------------------------------- fallback, bad input


def test_fallback_is_none() -> None:
    assert JsonVerifier().fallback(VerifyContext(NEW)) is None


@pytest.mark.parametrize(
    "answer",
    [
        "{" * 20_000,
        "[" * 20_000,
        '{"a":' * 3_000 + "1" + "}" * 3_000,
        '{"name": "\ud800", "age": 1, "email": "\udfff"}',
        "x " * 200_000 + '{"name": "A", "age": 1, "email": "e"}',
        '{"name": NaN, "age": Infinity, "email": "e"}',
    ],
    ids=["braces", "brackets", "deep", "surrogates", "huge", "nan"],
)
def test_no_exception_on_hostile_answers(answer: str) -> None:
    verifier = JsonVerifier(User)
    ctx = VerifyContext(NEW, NEW.replace("email", "phone"))
    steps = JsonSegmenter().split(answer)
    verdicts = [verifier.check_step(ctx, step, i, steps) for i, step in enumerate(steps)]
    verdicts.append(verifier.check_answer(ctx, answer))
    assert all(isinstance(v, Verdict) for v in verdicts)
    assert isinstance(verifier.repair_instruction(ctx, answer, Verdict.fail("json", "x")), str)
    for step in steps:
        verifier.adapt_step(ctx, step)
        verifier.partial_patch(ctx, step)


def test_hostile_answers_fail_cleanly() -> None:
    verifier = JsonVerifier()
    assert verifier.check_answer(VerifyContext(NEW), "{" * 20_000).failed
    deep = '{"a":' * 3_000 + "1" + "}" * 3_000
    assert verifier.check_answer(VerifyContext(NEW), deep).failed


def test_no_exception_on_hostile_prompts() -> None:
    for prompt in ["json " + '{"a": ' * 20_000, "JSON " + "keys a, " * 20_000, "json \ud800 keys"]:
        request = parse_json_request(prompt)
        assert request is not None
        JsonVerifier().check_answer(VerifyContext(prompt), '{"a": 1}')


def test_exactly_the_keys_closes_the_key_list() -> None:
    from stepcache_integrations.core.tasks.json_object.verifier import parse_json_request

    prompt = 'Return only a JSON object with exactly the keys "a" and "b", where "a" is 1.'
    request = parse_json_request(prompt)
    assert request is not None and request.exact_keys
    verifier = JsonVerifier()
    ctx = VerifyContext(prompt)
    failed = verifier.check_answer(ctx, '{"a": 1, "b": 2, "id": 7}')
    assert failed.failed and "unexpected key 'id'" in failed.reason
    assert verifier.check_answer(ctx, '{"a": 1, "b": 2}').passed
    adapted = verifier.adapt_step(ctx, Step('{"a": 1, "b": 2, "id": 7}'))
    assert adapted is not None and json.loads(adapted.text) == {"a": 1, "b": 2}


def test_only_a_json_object_does_not_close_the_key_list() -> None:
    from stepcache_integrations.core.tasks.json_object.verifier import parse_json_request

    request = parse_json_request("Return only a JSON object with keys a and b.")
    assert request is not None and not request.exact_keys
    ctx = VerifyContext("Return only a JSON object with keys a and b.")
    assert JsonVerifier().check_answer(ctx, '{"a": 1, "b": 2, "c": 3}').passed


def test_syntax_slips_are_repaired_without_a_model_call() -> None:
    prompt = 'Return only a JSON object with the keys "flight" and "seats".'
    ctx = VerifyContext(prompt)
    slipped = '```json\n{\n  "flight": {"origin": "Tokyo",},\n  "seats": 2,\n}\n```'
    verifier = JsonVerifier()
    assert verifier.check_answer(ctx, slipped).failed
    steps = JsonSegmenter().split(slipped)
    repaired = [verifier.adapt_step(ctx, step) or step for step in steps]
    text = "".join(step.text + step.separator for step in repaired)
    assert verifier.check_answer(ctx, text).passed
    assert json.loads(text[text.index("{") : text.rindex("}") + 1]) == {
        "flight": {"origin": "Tokyo"},
        "seats": 2,
    }


def test_unreadable_text_is_not_salvaged() -> None:
    ctx = VerifyContext('Return only a JSON object with the keys "a" and "b".')
    assert JsonVerifier().adapt_step(ctx, Step("{ this is not : json at all")) is None
