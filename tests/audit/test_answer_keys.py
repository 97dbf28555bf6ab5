"""Each built-in family's answer key: what an audit compares (the unknown's value, the JSON
object, the final number, the tool calls), and nothing of the wording around it."""

from __future__ import annotations

from fractions import Fraction

from stepcache_integrations.core.audit import compare_keys, read_keys, reuse_kind
from stepcache_integrations.core.tasks import default_registry
from stepcache_integrations.core.tasks.tool_call.document import (
    DocumentCall,
    ToolCallDocument,
    write_document,
)
from stepcache_integrations.core.tasks.tool_call.family import ToolCallFamily

REGISTRY = default_registry()


def keys(request: str, answer: str) -> dict[str, object]:
    families = REGISTRY.recognise(request, {}).families
    return read_keys(families, request, answer, {})


def test_an_equation_is_keyed_by_the_unknowns_value_in_any_layout() -> None:
    request = "Solve for x: 3x + 1 = 11."
    one = keys(request, "Step 1: 3x = 10.\nStep 2: x = 10/3.")
    other = keys(request, "Subtracting 1 gives 3x = 10, so x = 3.33")
    wrong = keys(request, "3x = 12\nx = 4")
    assert one == {"linear_equation": Fraction(10, 3)}
    assert compare_keys(one, other) == "agree"  # a rounded value of the same solution
    assert compare_keys(one, wrong) == "disagree"


def test_a_json_object_is_keyed_by_the_parsed_object() -> None:
    request = "Return a JSON object with keys name and age for Ada, 36."
    fenced = keys(request, '```json\n{"name": "Ada", "age": 36}\n```')
    spaced = keys(request, '{ "age": 36,  "name": "Ada" }')
    other = keys(request, '{"name": "Ada", "age": 37}')
    assert fenced == {"json": {"name": "Ada", "age": 36}}
    assert compare_keys(fenced, spaced) == "agree"
    assert compare_keys(fenced, other) == "disagree"


def test_a_word_problem_is_keyed_by_its_final_number() -> None:
    request = "Ana has 12 apples and gives away 5. How many apples does she have left?"
    one = keys(request, "12 - 5 = 7\nShe has 7 apples left.\n#### 7")
    other = keys(request, "She gives 5 of 12: 12 - 5 = 7.")
    assert one["word_problem"] == Fraction(7)
    assert compare_keys(one, other) == "agree"


def test_tool_calls_are_keyed_by_names_and_arguments_never_ids() -> None:
    family = ToolCallFamily()
    call = write_document(ToolCallDocument((DocumentCall("weather", {"city": "Faro"}),)))
    again = write_document(ToolCallDocument((DocumentCall("weather", {"city": "Faro"}),), "ok"))
    other = write_document(ToolCallDocument((DocumentCall("weather", {"city": "Porto"}),)))
    key = family.answer_key("Weather in Faro?", call, {})
    assert key == [("weather", {"city": "Faro"})]
    assert key == family.answer_key("Weather in Faro?", again, {})
    assert key != family.answer_key("Weather in Faro?", other, {})
    assert family.answer_key("Weather in Faro?", "It is sunny.", {}) is None


def test_free_text_has_no_key_and_is_not_comparable() -> None:
    assert keys("Tell me a joke.", "Why did the chicken...") == {}
    assert compare_keys({}, {}) is None


def test_kinds_of_reuse() -> None:
    assert reuse_kind("json", exact=True) == "json/exact"
    assert reuse_kind(None, exact=True) == "text/exact"
