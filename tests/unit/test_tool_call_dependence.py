"""The rule that keeps a rebound tool-call argument from leaving a stale call.

Its pieces (condition words, the closed-world vocabulary, what parameter schemas say) and the
rule itself on small answers: a tool that is not declared pure is re-instantiated only as the
one tool bound, with no turn before the request, a spec that says one thing besides its
parameters and a request whose every word the call accounts for. The tools and requests here
are written for these tests (a dictionary, a pharmacy, a parcel tracker...).
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.tools import StructuredTool

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.adapter import Conversation, Message, build_request
from stepcache_integrations.core.tasks.tool_call import EARLIER_TURNS
from stepcache_integrations.core.tasks.tool_call.conditions import (
    choices,
    conditions,
    numbers,
    temporal,
)
from stepcache_integrations.core.tasks.tool_call.dependence import dependent_part
from stepcache_integrations.core.tasks.tool_call.document import DocumentCall
from stepcache_integrations.core.tasks.tool_call.parameters import (
    constraint,
    descriptions,
    parameter_names,
)
from stepcache_integrations.core.tasks.tool_call.vocabulary import (
    CONVERSATION,
    NARRATION,
    identifier_tokens,
    spec_words,
    tokens,
    unaccounted,
)
from stepcache_integrations.core.verifiers.base import VerifyContext
from tests.conftest import ScriptedToolModel

WORD = {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}
PARCEL = {"type": "object", "properties": {"parcel_id": {"type": "string"}}}
DOSE = {"type": "object", "properties": {"drug": {"type": "string"}, "mg": {"type": "integer"}}}


def tool(name: str, description: str = "", parameters: Any = WORD, pure: bool = False) -> Any:
    spec = {"name": name, "description": description, "parameters": parameters}
    return {**spec, "pure": True} if pure else spec


SENSES = {  # a number default: a limit?
    "type": "object",
    "properties": {"word": {"type": "string"}, "senses": {"type": "integer", "default": 3}},
}
LOWER_CASE = {"type": "object", "properties": {"word": {"type": "string", "pattern": "^[a-z]+$"}}}
DEFINE = tool("define_word", "Define a word.")
DEFINE_CALL = [("define_word", {"word": "serendipity"})]
DEFINE_CHANGE = {"petrichor": "serendipity"}


def rule(
    tools: list[Any],
    calls: list[tuple[str, dict[str, Any]]],
    changes: dict[str, str],
    request: str,
    content: str = "",
    earlier: tuple[str, ...] | None = (),
) -> str | None:
    options: dict[str, Any] = {"tools": tools}
    if earlier is not None:
        options["earlier_turns"] = list(earlier)
    ctx = VerifyContext(request, "cached", options=options)
    documented = [DocumentCall(name, arguments) for name, arguments in calls]
    return dependent_part(ctx, documented, content, changes)


# -- condition words ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Refills above 90 days need a doctor.", ["above"]),
        ("Ships at most two parcels.", ["at most", "most"]),
        ("For low-dose tablets.", ["low"]),
        ("Only \u0456f it is in stock.", ["only", "if"]),  # a Cyrillic i
        ("u\u200bnless asked", ["unless"]),  # a zero-width space
        ("\uff55\uff4e\uff44\uff45\uff52 it", ["under"]),  # full-width letters
        ("\u13a5f it is", ["\u13a5f"]),  # a Cherokee look-alike: a word mixing scripts
        ("Define a word for today.", []),  # the day a turn is about compares nothing
        ("M\u00fcnchen or Bras\u00edlia", []),  # accented names are plain words
    ],
)
def test_conditions_are_read_through_disguises(text: str, expected: list[str]) -> None:
    assert sorted(conditions(text)) == sorted(expected)


def test_choices_numbers_and_dates() -> None:
    assert choices("Define it in English or Latin, whichever is shorter") == ["or", "whichever"]
    assert numbers("Track 3 parcels, at most twelve kg") == ["3", "twelve"]
    assert all(map(temporal, ["2026-03-14", "14/03/2026", "09:15", "March", "next Monday"]))
    assert not any(map(temporal, ["serendipity", "1Z999", "Lisbon"]))


# -- closed-world vocabulary --------------------------------------------------------------------


def test_tokens_are_stemmed_words_of_any_script_and_identifiers_split() -> None:
    assert tokens("Parcels' statuses in K\u00f8benhavn, \u6771\u4eac") == [
        "parcel",
        "statuse",
        "in",
        "k\u00f8benhavn",
        "\u6771\u4eac",
    ]
    assert identifier_tokens("trackParcel_byNumber2") == ["track", "parcel", "by", "number", "2"]


def test_a_spec_has_one_subject_besides_its_parameters_or_more() -> None:
    tracker = spec_words("track_parcel", "Track a parcel by its id.", PARCEL)
    assert tracker.heads == frozenset({"id"})
    assert tracker.subjects() == ["track", "parcel"]  # "track" is no generic verb
    dictionary = spec_words("define_word", "Define a word.", WORD)
    assert dictionary.subjects() == ["define"] and dictionary.unstated_name_words() == []
    scoped = spec_words("define_medical_word", "Define a word.", WORD)
    assert scoped.subjects() == ["define", "medical"]
    assert scoped.unstated_name_words() == ["medical"]


def test_unaccounted_words_are_what_no_known_text_or_word_list_has() -> None:
    known = ["define_word", "Define a word.", "serendipity"]
    assert unaccounted("Could you define serendipity?", known=known, words=CONVERSATION) == []
    assert unaccounted("Define serendipity for my thesis", known=known, words=CONVERSATION) == [
        "thesi"
    ]
    assert unaccounted("Let me define serendipity.", known=known, words=NARRATION) == []
    assert unaccounted("Serendipity, a Persian tale", known=known, words=NARRATION) == [
        "persian",
        "tale",
    ]


# -- parameter schemas --------------------------------------------------------------------------


def test_constraints_anywhere_in_a_schema_and_unreadable_ones_count() -> None:
    assert constraint(DOSE) is None
    assert constraint({"type": "object", "properties": {"mg": {"maximum": 400}}}) == "maximum"
    nested = {
        "type": "object",
        "properties": {"order": {"$ref": "#/$defs/Order"}},
        "$defs": {"Order": {"type": "object", "properties": {"kind": {"enum": ["a", "b"]}}}},
    }
    assert constraint(nested) == "enum"
    assert constraint({"type": "object", "properties": {"x": {"$ref": "#/$defs/Gone"}}}) == (
        "unreadable schema"
    )
    assert constraint(None) is None


def test_parameter_names_and_descriptions_reach_nested_schemas() -> None:
    schema = {
        "type": "object",
        "properties": {
            "zip_code": {"type": "string", "title": "Zip Code"},
            "pickup": {"$ref": "#/$defs/Pickup"},
        },
        "$defs": {
            "Pickup": {
                "type": "object",
                "description": "Weekday pickups only.",
                "properties": {"slots": {"type": "integer", "default": 3}},
            }
        },
    }
    assert list(parameter_names(schema)) == ["zip_code", "pickup", "slots"]
    found = list(descriptions(schema))
    assert "Weekday pickups only." in found and "3" in found  # a number default: a limit?
    assert "Zip Code" not in found  # the title Pydantic makes of the name says nothing new


# -- the rule for a tool that is not pure -------------------------------------------------------


def test_a_lone_tool_with_nothing_around_it_is_reinstantiated() -> None:
    assert rule([DEFINE], DEFINE_CALL, DEFINE_CHANGE, "Define serendipity") is None
    assert rule([DEFINE], DEFINE_CALL, DEFINE_CHANGE, "Can you define serendipity, please?") is (
        None
    )


@pytest.mark.parametrize(
    ("tools", "request_text", "earlier", "expected"),
    [
        # another tool, even one that takes nothing
        (
            [DEFINE, tool("random_word", "", {"type": "object", "properties": {}})],
            "Define serendipity",
            (),
            "other tools are bound",
        ),
        # any turn before the request: a system prompt, a call without text
        ([DEFINE], "Define serendipity", ("You are a kind tutor.",), "turns come before"),
        ([DEFINE], "Define serendipity", ("",), "turns come before"),
        # turns the adapter did not pass are unknown
        ([DEFINE], "Define serendipity", None, "not known"),
        # a word of the request the call does not account for
        ([DEFINE], "Define serendipity for a toddler", (), "'toddler'"),
        ([DEFINE], "Define serendipity in French", (), "'french'"),
        # the request itself states a condition or a choice
        ([DEFINE], "Define serendipity if it is a noun", (), "condition or a choice"),
        # a name word the spec does not state, a second subject, a subject only described
        ([tool("define_legal_word", "Define a word.")], "Define serendipity", (), "'legal'"),
        ([tool("define_word", "Define a botanical word.")], "Define serendipity", (), "botanical"),
        ([tool("lookup", "Dictionary.")], "Define serendipity", (), "name does not ('dictionary')"),
        # a number anywhere in the spec
        (
            [tool("define_word", "Define a word.", SENSES)],
            "Define serendipity",
            (),
            "states a number ('3')",
        ),
        ([tool("define_word_2", "Define a word.")], "Define serendipity", (), "'2'"),
        # a constrained parameter
        (
            [tool("define_word", "Define a word.", LOWER_CASE)],
            "Define serendipity",
            (),
            "pattern",
        ),
    ],
)
def test_a_tool_that_is_not_pure_is_reinstantiated_only_with_nothing_around_it(
    tools: list[Any], request_text: str, earlier: tuple[str, ...] | None, expected: str
) -> None:
    calls = [(tools[0]["name"], {"word": "serendipity"})]
    found = rule(tools, calls, DEFINE_CHANGE, request_text, earlier=earlier)
    assert found is not None and expected in found


def test_a_date_is_never_rebound_into_a_tool_that_is_not_pure() -> None:
    dated = {"type": "object", "properties": {"day": {"type": "string"}}}
    pickup = [tool("schedule_pickup", "Schedule a pickup.", dated)]
    call = [("schedule_pickup", {"day": "2026-03-14"})]
    found = rule(pickup, call, {"04": "03", "20": "14"}, "Schedule a pickup 2026-03-14")
    assert found is not None and "date or a time" in found


def test_the_text_beside_the_calls_may_only_narrate() -> None:
    request = "Define serendipity"
    narrated = rule([DEFINE], DEFINE_CALL, DEFINE_CHANGE, request, "Let me define serendipity.")
    assert narrated is None
    fact = rule([DEFINE], DEFINE_CALL, DEFINE_CHANGE, request, "Serendipity, a noun: defining.")
    assert fact is not None and "'noun'" in fact
    cause = rule([DEFINE], DEFINE_CALL, DEFINE_CHANGE, request, "It is rare, so I define it.")
    assert cause is not None and "condition or a cause" in cause


# -- pure tools ---------------------------------------------------------------------------------

PHARMACY = [
    tool("check_stock", "Whether the pharmacy stocks a drug, for EU stores.", DOSE, pure=True),
    tool("drug_leaflet", "The patient leaflet of a drug.", DOSE, pure=True),
]
STOCK_CALL = [("check_stock", {"drug": "ibuprofen", "mg": 200})]


def test_pure_tools_are_taken_at_their_word_for_their_specs() -> None:
    # Two tools, scope words in a description, and a system prompt: all waived.
    found = rule(
        PHARMACY,
        STOCK_CALL,
        {"paracetamol": "ibuprofen"},
        "Is ibuprofen 200 in stock?",
        earlier=("You answer for the pharmacy.",),
    )
    assert found is None


@pytest.mark.parametrize(
    ("request_text", "earlier", "expected"),
    [
        ("Is ibuprofen 200 in stock, or the leaflet?", (), "condition or a choice"),
        ("Is ibuprofen 200 in stock?", ("Say so only for adults.",), "earlier turn states"),
        ("Is ibuprofen 200 in stock?", ("Doses over 400 need a prescription.",), "'over'"),
        ("Is ibuprofen 200 in stock?", ("Prescription from 400 mg.",), "another number"),
        ("Is ibuprofen 200 in stock?", None, "not known"),
    ],
)
def test_what_no_declaration_covers_the_conversation(
    request_text: str, earlier: tuple[str, ...] | None, expected: str
) -> None:
    found = rule(PHARMACY, STOCK_CALL, {"400": "200"}, request_text, earlier=earlier)
    assert found is not None and expected in found


def test_a_pure_tool_beside_one_that_is_not_pure_is_not_enough() -> None:
    tools = [PHARMACY[0], tool("order_refill", "Order a refill.", DOSE)]
    found = rule(tools, STOCK_CALL, {"paracetamol": "ibuprofen"}, "Is ibuprofen 200 in stock?")
    assert found is not None and "order_refill is not pure and other tools are bound" in found


def test_a_date_may_be_rebound_into_a_pure_tool() -> None:
    dated = {"type": "object", "properties": {"day": {"type": "string"}}}
    pickup = [tool("schedule_pickup", "Schedule a pickup.", dated, pure=True)]
    call = [("schedule_pickup", {"day": "2026-03-14"})]
    assert rule(pickup, call, {"04": "03", "20": "14"}, "Schedule a pickup 2026-03-14") is None


# -- through the adapter and a wrapper ----------------------------------------------------------


def test_the_adapter_passes_every_earlier_turn_a_call_without_text_too() -> None:
    conversation = Conversation(
        (Message("assistant", ""), Message("user", "Define serendipity")), tools=(DEFINE,)
    )
    request = build_request(conversation, model={"id": "m"}, tenant=None)
    assert request.options[EARLIER_TURNS] == [""]


def define_word(word: str) -> str:
    """Define a word."""
    return word


def _dictionary_model() -> ScriptedToolModel:
    def respond(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        word = str(messages[-1].content).split()[-1]
        return AIMessage(
            "", tool_calls=[{"name": "define_word", "args": {"word": word}, "id": "x"}]
        )

    return ScriptedToolModel(responder=respond)


def _ask(pure_tools: list[str], *messages: list[BaseMessage]) -> list[str]:
    # A low threshold: the lookup must find the cached word, the rule is what is tested.
    cache = StepCache(similarity_threshold=0.3)
    records: list[Any] = []
    cache.add_listener(records.append)
    model = _dictionary_model()
    llm = StepCacheLLM(llm=model, step_cache=cache, pure_tools=pure_tools)
    bound = llm.bind_tools([StructuredTool.from_function(define_word)])
    for message_list in messages:
        answer = bound.invoke(message_list)
        assert isinstance(answer, AIMessage)
        word = str(message_list[-1].content).split()[-1]
        assert answer.tool_calls[0]["args"] == {"word": word}  # never the stale word
    return [record.decision for record in records]


def test_a_lone_tool_is_reused_and_a_system_prompt_stops_it_unless_pure() -> None:
    first, second = "Please define the word petrichor", "Please define the word serendipity"
    alone = _ask([], [HumanMessage(first)], [HumanMessage(second)])
    assert alone == ["miss", "reuse"]
    system = SystemMessage("You are a kind tutor.")
    prompted = [[system, HumanMessage(first)], [system, HumanMessage(second)]]
    assert _ask([], *prompted) == ["miss", "skip"]
    assert _ask(["define_word"], *prompted) == ["miss", "reuse"]
