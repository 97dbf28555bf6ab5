"""A rebound argument must never leave a stale tool call: in an agent that is a wrong action.

Every case caches one request, then asks one that differs only in a value the cached call
copied, where that value changes what the model does: which tool it calls (a threshold in a
description, a past date, a quantity that picks the endpoint), another argument (the unit of a
city), a second call, or the text beside the call. The model is an ORACLE (SIMULATED: it
answers every request correctly, see ``tool_worlds``), so the answer served for the new
request must be the oracle's own; each case first checks that re-using the cached call with
the value rewritten would be wrong. Through the LangChain wrapper with bound tools,
``create_agent`` with ``StepCacheMiddleware`` or a ``StepCacheLLM`` model, and the LlamaIndex
wrapper's function calling.
"""

from __future__ import annotations

import pytest

from tests.security.tool_worlds import SIDES, WORLDS, Answer, LangChainAgent, rebound

Case = tuple[str, str, str, tuple[str, ...]]  # world, cached request, new request, pure tools

SEND = ("Send 300 dollars to Bob", "Send 700 dollars to Bob")
DATED = ("Weather in Paris on 2025-06-10", "Weather in Paris on 2025-05-20")
ORDER = ("Order 20 widgets", "Order 150 widgets")
BOSTON_PARIS = ("Weather in Boston", "Weather in Paris")
PARIS_BERLIN = ("Weather in Paris", "Weather in Berlin")
IF_ABOVE = "by wire if above 500"
UNITS = "(units: celsius, fahrenheit)"
SERVICES = "(services: letter, parcel, freight)"
THREE = "by wire {} the name has three letters"
FRENCH = "dollars \u00e0 Bob, par virement si plus de 500"


def scenario(world: str, requests: tuple[str, str], *pure: str) -> Case:
    return (world, requests[0], requests[1], pure)


STALE: list[Case] = [
    scenario("threshold in the tool's description", SEND),
    scenario("threshold in the other tool's description", SEND),
    scenario("threshold in the schema", SEND),
    scenario("threshold in a parameter's description", SEND),
    scenario("threshold sends for approval", SEND),
    # Pure still refuses: the pure tool's description names a tool that is not pure.
    scenario("threshold sends for approval", SEND, "send_payment"),
    scenario("threshold in words, else a refusal", (SEND[0], "Send 900 dollars to Bob")),
    # Pure still refuses: a condition in the request, in the system prompt.
    scenario(
        "threshold in the request",
        (f"{SEND[0]}, {IF_ABOVE}", f"{SEND[1]}, {IF_ABOVE}"),
        "pay",
        "wire",
    ),
    scenario("threshold in the system prompt", SEND, "pay", "request_approval"),
    scenario("past or future date, said", DATED),
    scenario("past or future date, unsaid", DATED),
    scenario("a past date refused", DATED),
    scenario(
        "a flight in the past",
        ("Book a flight to Rome on 2025-07-01", "Book a flight to Rome on 2025-05-01"),
    ),
    scenario("quantity chooses the endpoint, said", ORDER),
    scenario("quantity chooses the endpoint, unsaid", ORDER),
    scenario("quantity chooses the unit", ("Log 800 (units: m, km)", "Log 2500 (units: m, km)")),
    scenario(
        "weight chooses the service",
        (f"Ship a box of 2 kg {SERVICES}", f"Ship a box of 50 kg {SERVICES}"),
    ),
    scenario("two tools take the city", BOSTON_PARIS),
    scenario("two tools take it under other names", BOSTON_PARIS),
    scenario("a zip code or a city", ("Stores near Boston", "Stores near 10001")),
    # Pure still refuses: another tool that is not pure takes the city.
    scenario(
        "a second call for some cities", ("Weather in Denver", "Weather in Miami"), "get_weather"
    ),
    # Pure still refuses: a value not in the request (derived from the city).
    scenario(
        "the unit follows from the city",
        ("Weather in Paris", "Weather in Boston"),
        "weather_in_units",
    ),
    scenario(
        "the unit follows from the city",
        (f"Weather in Paris {UNITS}", f"Weather in Boston {UNITS}"),
    ),
    scenario("the time zone follows from the city", ("Time in Paris", "Time in Tokyo"), "get_time"),
    # Pure still refuses: text beside the call that says more than the request.
    scenario("a fact about the city beside the call", PARIS_BERLIN, "get_weather"),
    scenario("an epithet beside the call", ("Weather in Paris", "Weather in Rome"), "get_weather"),
    # Pure still refuses: a plain answer is reused for the same request only.
    scenario(
        "a plain answer",
        ("Tell me a joke set in Paris", "Tell me a joke set in Berlin"),
        "get_weather",
    ),
]

# What an outsider tried to get a stale call served with; each was served until the rule
# read it (the fix is named).
ATTACKS: list[Case] = [
    # Hyphenated words are read in parts too.
    scenario("a hyphenated size word", (SEND[0], "Send 5000 dollars to Bob")),
    # A tool's and a parameter's names are read like its description.
    scenario("a threshold only in the tool's name", SEND),
    scenario("a threshold only in a parameter's name", SEND),
    # A number in words is a threshold in a description.
    scenario("a threshold in number words", SEND),
    # Look-alike letters, invisible characters and full-width letters hide no condition.
    *(
        scenario(
            "a condition on the name in the request",
            (
                f"Pay Bob 300 dollars, {THREE.format(word)}",
                f"Pay Alice 300 dollars, {THREE.format(word)}",
            ),
            "pay",
            "wire",
        )
        # Cyrillic i, a zero-width space, full width, a dotless i, a combining diaeresis, and
        # a Cherokee letter no table maps (a word mixing scripts is read as a condition).
        for word in ("\u0456f", "i\u200bf", "\uff49\uff46", "\u0131f", "i\u0308f", "\u13a5f")
    ),
    # A rebound number alone in its request: another one may be a threshold, in any language.
    scenario(
        "a threshold in another language",
        (f"Envoie 300 {FRENCH}", f"Envoie 700 {FRENCH}"),
        "pay",
        "wire",
    ),
    # A new value the request already states: one call or two?
    scenario("each city once", ("Weather in Paris and Berlin", "Weather in Paris and Paris")),
    # A region in a tool's name narrows it.
    scenario("a region only in the tool's name", BOSTON_PARIS),
    # Numbers are read apart from the letters around them, in words too, in earlier turns too.
    scenario(
        "a threshold glued to the amount",
        ("Send 300,wire-at-500 dollars to Bob", "Send 700,wire-at-500 dollars to Bob"),
        "pay",
        "wire",
    ),
    scenario(
        "a threshold in number words in the request",
        (f"{SEND[0]}, by wire at five hundred", f"{SEND[1]}, by wire at five hundred"),
        "pay",
        "wire",
    ),
    scenario("a threshold in a French system prompt", SEND, "pay", "wire"),
    # A parameter's default is read like its description.
    scenario("a condition in a parameter's default", SEND),
]

# Re-instantiation that is sound: the cached call, with the value rewritten, is the oracle's.
SOUND: list[Case] = [
    scenario("one weather tool", PARIS_BERLIN),
    scenario("narration beside the call", PARIS_BERLIN),
    scenario("one order tool", ("Order 20 widgets", "Order 30 widgets")),
    # Pure restores reuse: another tool takes strings too, a date's place in time.
    scenario("weather and web search", PARIS_BERLIN, "get_weather", "search_web"),
    scenario(
        "flights any day",
        ("Book a flight to Rome on 2025-07-01", "Book a flight to Rome on 2025-07-08"),
        "book_any",
    ),
]


def _changed_value(cached: str, new: str) -> tuple[str, str]:
    old_words, new_words = cached.split(), new.split()
    changed = [(a, b) for a, b in zip(old_words, new_words, strict=True) if a != b]
    assert len(changed) == 1, "each case changes one value"
    return changed[0][0].strip(",.?"), changed[0][1].strip(",.?")


def _case_id(case: Case) -> str:
    world, cached, new, pure = case
    return f"{world}: {cached!r} -> {new!r}" + (f" (pure: {', '.join(pure)})" if pure else "")


@pytest.mark.parametrize("side_name", sorted(SIDES))
@pytest.mark.parametrize("case", STALE + ATTACKS, ids=[_case_id(c) for c in STALE + ATTACKS])
def test_a_value_that_changes_the_call_never_gets_the_stale_call(
    case: Case, side_name: str
) -> None:
    world_name, cached, new, pure = case
    world = WORLDS[world_name]
    right = world.oracle(world.system, new)
    old_value, new_value = _changed_value(cached, new)
    stale = rebound(world.oracle(world.system, cached), old_value, new_value)
    assert stale != right, "the case must be a trap: the rewritten cached call is wrong"
    side = SIDES[side_name](world, pure)
    side.ask(cached)
    served = side.ask(new)
    assert served == right, f"{side.decision}: {side.reason}"
    assert side.decision in ("skip", "miss"), side.reason  # through the cache, not around it
    if isinstance(side, LangChainAgent):
        assert side.ran[-1] == [name for name, _ in right.calls]  # the actions taken


@pytest.mark.parametrize("side_name", sorted(SIDES))
@pytest.mark.parametrize("case", SOUND, ids=[_case_id(c) for c in SOUND])
def test_a_value_that_changes_nothing_else_is_reinstantiated(case: Case, side_name: str) -> None:
    world_name, cached, new, pure = case
    world = WORLDS[world_name]
    right = world.oracle(world.system, new)
    old_value, new_value = _changed_value(cached, new)
    assert rebound(world.oracle(world.system, cached), old_value, new_value) == right
    side = SIDES[side_name](world, pure)
    side.ask(cached)
    calls = side.model_calls
    served = side.ask(new)
    assert served == right
    assert side.decision == "reuse", side.reason
    agent_turns = 1 if isinstance(side, LangChainAgent) else 0  # the answer to the tool result
    assert side.model_calls == calls + agent_turns


# The benign cost of the rule: a tool that is not pure is re-instantiated only as the one tool
# bound. Web search could take "Berlin" too, and the cache cannot tell that the city never
# chooses between the two tools (the declaration can); a lookup by zip code beside a lookup by
# city is sound to re-instantiate for "Chicago", but the cache cannot tell a tool that refuses
# the value from one that would be chosen for it.
COSTS = [
    ("weather and web search", PARIS_BERLIN, "get_weather", ("get_weather", {"city": "Berlin"})),
    (
        "a zip code or a city",
        ("Stores near Boston", "Stores near Chicago"),
        "lookup_by_city",
        ("lookup_by_city", {"city": "Chicago"}),
    ),
]


@pytest.mark.parametrize("side_name", sorted(SIDES))
@pytest.mark.parametrize(("world", "requests", "called", "call"), COSTS, ids=[c[0] for c in COSTS])
def test_without_the_declaration_another_bound_tool_stops_the_reuse(
    side_name: str,
    world: str,
    requests: tuple[str, str],
    called: str,
    call: tuple[str, dict[str, str]],
) -> None:
    side = SIDES[side_name](WORLDS[world], ())
    side.ask(requests[0])
    served = side.ask(requests[1])
    assert served == Answer.of(call)
    assert side.decision == "skip"
    assert f"{called} is not pure and other tools are bound" in side.reason
