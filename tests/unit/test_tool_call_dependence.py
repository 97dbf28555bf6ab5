"""The rule that keeps a rebound tool-call argument from leaving a stale call: its pieces
(conditions in texts, what parameter schemas say) and the rule itself on small answers."""

from __future__ import annotations

from typing import Any

import pytest

from stepcache_integrations.core.tasks.tool_call.conditions import (
    choices,
    conditions,
    qualifiers,
    signature_limits,
    split_signature,
    temporal,
    unexplained,
)
from stepcache_integrations.core.tasks.tool_call.dependence import dependent_part
from stepcache_integrations.core.tasks.tool_call.document import DocumentCall
from stepcache_integrations.core.tasks.tool_call.parameters import (
    constraint,
    descriptions,
    parameter_at,
    takes,
)
from stepcache_integrations.core.verifiers.base import VerifyContext

CITY = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
AMOUNT = {"type": "object", "properties": {"amount": {"type": "integer"}}}


def tool(name: str, description: str = "", parameters: Any = CITY, pure: bool = False) -> Any:
    spec = {"name": name, "description": description, "parameters": parameters}
    return {**spec, "pure": True} if pure else spec


def rule(
    tools: list[Any],
    calls: list[tuple[str, dict[str, Any]]],
    changes: dict[str, str],
    request: str,
    content: str = "",
    earlier: tuple[str, ...] = (),
) -> str | None:
    options = {"tools": tools, "earlier_turns": list(earlier)}
    ctx = VerifyContext(request, "cached", options=options)
    documented = [DocumentCall(name, arguments) for name, arguments in calls]
    return dependent_part(ctx, documented, content, changes)


# -- texts --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Amounts above 500 must use wire.", ["above", "must", "500"]),
        ("Sends at most five hundred dollars.", ["at most", "most", "five", "hundred"]),
        ("Use it for big-ticket items.", ["big"]),
        ("Only \u0456f the date has passed.", ["only", "if", "passed"]),  # a Cyrillic i
        ("w\u200bhen needed", ["when"]),  # a zero-width space
        ("\uff41\uff42\uff4f\uff56\uff45 it", ["above"]),  # full-width letters
        ("\u0131f it is", ["if"]),  # a dotless i
        ("i\u0308f it is", ["if"]),  # a combining diaeresis
        ("\u13a5f it is", ["\u13a5f"]),  # a Cherokee look-alike: a word mixing scripts
        ("Z\u00fcrich or S\u00e3o Paulo", []),  # accented names are plain words
        ("The current weather in a city.", []),
    ],
)
def test_conditions_are_read_through_disguises(text: str, expected: list[str]) -> None:
    assert sorted(conditions(text)) == sorted(expected)


def test_a_request_offers_choices_and_its_numbers_are_values() -> None:
    assert choices("Weather in Paris or Berlin, whichever is warmer") == ["or", "whichever"]
    assert conditions("Send 300 dollars to Bob", numbers=False) == []


def test_qualifiers_are_names_acronyms_quotes_and_other_tools() -> None:
    assert qualifiers("Weather for US cities.", tool_names=()) == ["US"]
    assert qualifiers("Book a flight (YYYY-MM-DD).", tool_names=()) == ["YYYY-MM-DD"]
    assert qualifiers("Like `wire` for Europe.", tool_names=("wire",)) == [
        "Europe",
        "`wire`",
        "wire",
    ]
    assert qualifiers("Current weather. Returns JSON.", tool_names=()) == []


def test_dates_and_times_are_temporal() -> None:
    assert all(map(temporal, ["2025-06-01", "06/01/2025", "14:30", "June", "on Friday", "2024"]))
    assert not any(map(temporal, ["Paris", "300", "B2"]))


def test_a_llama_index_signature_is_split_off_and_read_for_limits() -> None:
    description = (
        "pay(amount: typing.Annotated[int, FieldInfo(metadata=[Le(le=500)])]) -> str\nPay."
    )
    signature, prose = split_signature(description, "pay")
    assert prose == "Pay." and signature.startswith("pay(")
    assert "500" in "".join(signature_limits(signature))
    assert signature_limits("pay(recipient: str, amount: int) -> str") == []


def test_unexplained_words_are_what_neither_the_request_nor_narration_says() -> None:
    known = ["What's the weather in Berlin?", "get weather", "The current weather in a city."]
    assert unexplained("I'll check the current weather in Berlin for you.", known=known) == []
    assert unexplained("Berlin is the capital of France; let me check.", known=known) == [
        "capital",
        "France",
    ]


# -- parameter schemas --------------------------------------------------------------------------


def test_constraints_narrow_values_and_types_do_not() -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "title": "City", "description": "A city."},
            "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "unit": {"enum": ["c", "f"]},
            "day": {"type": "string", "format": "date"},
            "nested": {"$ref": "#/$defs/Inner"},
        },
        "$defs": {"Inner": {"type": "object", "properties": {"n": {"maximum": 5}}}},
    }
    assert constraint(parameter_at(schema, ("city",)), schema) is None
    assert constraint(parameter_at(schema, ("maybe",)), schema) is None
    assert constraint(parameter_at(schema, ("unit",)), schema) == "enum"
    assert constraint(parameter_at(schema, ("day",)), schema) == "format"
    assert constraint(parameter_at(schema, ("nested", "n")), schema) == "maximum"
    assert constraint(parameter_at(schema, ("missing",)), schema) == "unreadable schema"


def test_a_tool_takes_a_value_its_parameters_could_hold() -> None:
    zip_code = {"type": "object", "properties": {"zip": {"type": "string", "pattern": r"^\d{5}$"}}}
    assert takes(zip_code, "10001") and not takes(zip_code, "Boston")
    assert takes(AMOUNT, "700") and not takes(AMOUNT, "Paris")
    assert not takes({"type": "object", "properties": {}}, "Paris")  # no arguments
    assert takes({"type": "object"}, "Paris")  # free-form: anything
    assert takes({"type": "object", "properties": {"tags": {"type": "array"}}}, "Paris")


def test_descriptions_reach_nested_models_but_not_generated_titles() -> None:
    schema = {
        "type": "object",
        "properties": {
            "zip_code": {"type": "string", "title": "Zip Code"},
            "order": {"$ref": "#/$defs/Order"},
        },
        "$defs": {"Order": {"type": "object", "description": "Orders above 500 need approval."}},
    }
    found = list(descriptions(schema))
    assert "Orders above 500 need approval." in found
    assert "Zip Code" not in found and "zip_code" in found


# -- the rule -----------------------------------------------------------------------------------


def test_a_lone_neutral_tool_is_reinstantiated() -> None:
    tools = [tool("get_weather", "The current weather in a city.")]
    assert (
        rule(
            tools, [("get_weather", {"city": "Berlin"})], {"Paris": "Berlin"}, "Weather in Berlin?"
        )
        is None
    )


def test_another_tool_that_takes_the_value_stops_it_unless_it_is_pure() -> None:
    call = [("get_weather", {"city": "Berlin"})]
    search = {"type": "object", "properties": {"q": {"type": "string"}}}
    tools = [tool("get_weather"), tool("search", parameters=search)]
    found = rule(tools, call, {"Paris": "Berlin"}, "Weather in Berlin?")
    assert found is not None and "search takes 'Berlin'" in found
    tools = [tool("get_weather"), tool("search", parameters=search, pure=True)]
    assert rule(tools, call, {"Paris": "Berlin"}, "Weather in Berlin?") is None


def test_a_pure_tool_is_not_asked_about_its_own_description() -> None:
    call = [("get_weather", {"city": "Berlin"})]
    tools = [tool("get_weather", "Weather for EU cities, before noon.", pure=True)]
    assert rule(tools, call, {"Paris": "Berlin"}, "Weather in Berlin?") is None
    tools = [tool("get_weather", "Weather for EU cities, before noon.")]
    assert "states a condition" in str(rule(tools, call, {"Paris": "Berlin"}, "Weather in Berlin?"))


PURE_PAY = [tool("pay", parameters=AMOUNT, pure=True)]
NO_ARGUMENTS = {"type": "object", "properties": {}}


@pytest.mark.parametrize(
    ("tools", "asked", "earlier", "expected"),
    [
        # a condition in the request, in an earlier turn, another number in the request
        (PURE_PAY, "Pay 700, by wire if above 500", (), "condition"),
        (PURE_PAY, "Pay 700", ("Wire anything over 500.",), "earlier turn"),
        (PURE_PAY, "Pay 700 (virement si plus de 500)", (), "another number"),
        # a pure tool's description that names a tool that is not pure
        (
            [tool("pay", "Above 500 use wire.", AMOUNT, pure=True), tool("wire", "", NO_ARGUMENTS)],
            "Pay 700",
            (),
            "names wire",
        ),
    ],
)
def test_what_pure_never_allows(
    tools: list[Any], asked: str, earlier: tuple[str, ...], expected: str
) -> None:
    found = rule(tools, [("pay", {"amount": 700})], {"300": "700"}, asked, earlier=earlier)
    assert found is not None and expected in found


def test_a_date_is_rebound_into_a_pure_tool_only() -> None:
    dated = {"type": "object", "properties": {"date": {"type": "string"}}}
    call = [("book", {"date": "2025-05-20"})]
    changes = {"06": "05", "10": "20"}  # a date's parts, as the request comparison sees them
    found = rule([tool("book", "Book a day.", dated)], call, changes, "Book 2025-05-20")
    assert found is not None and "date or a time" in found
    assert (
        rule([tool("book", "Book a day.", dated, pure=True)], call, changes, "Book 2025-05-20")
        is None
    )


def test_an_enum_argument_picked_among_values_the_request_names_is_a_choice() -> None:
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "unit": {"enum": ["celsius", "fahrenheit"]}},
    }
    call = [("weather", {"city": "Boston", "unit": "celsius"})]
    found = rule([tool("weather", "Weather.", schema)], call, {"Paris": "Boston"},
                 "Weather in Boston (celsius, fahrenheit)")  # fmt: skip
    assert found is not None and "a choice among values" in found
    named_once = rule([tool("weather", "Weather.", schema)], call, {"Paris": "Boston"},
                      "Weather in Boston in celsius")  # fmt: skip
    assert named_once is None


def test_text_beside_the_calls_may_only_narrate() -> None:
    tools = [tool("get_weather", "The current weather in a city.", pure=True)]
    call = [("get_weather", {"city": "Berlin"})]
    changes = {"Paris": "Berlin"}
    narration = "Let me check the weather in Berlin."
    assert rule(tools, call, changes, "Weather in Berlin?", narration) is None
    fact = rule(tools, call, changes, "Weather in Berlin?", "Berlin, in France: checking.")
    assert fact is not None and "'France'" in fact
    cause = rule(tools, call, changes, "Weather in Berlin?", "It is far, so I check.")
    assert cause is not None and "condition or a cause" in cause


def test_the_day_a_turn_is_about_is_no_condition_but_a_description_of_days_is() -> None:
    call = [("get_weather", {"city": "Berlin"})]
    changes = {"Paris": "Berlin"}
    neutral = [tool("get_weather", "The current weather in a city.")]
    assert rule(neutral, call, changes, "Weather in Berlin today?") is None
    assert rule(neutral, call, changes, "Weather in Berlin?", earlier=("Today is June 1.",)) is None
    dated = [tool("get_weather", "The weather of today or tomorrow.")]
    assert "states a condition" in str(rule(dated, call, changes, "Weather in Berlin?"))
