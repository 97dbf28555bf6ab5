"""A value put where a cached one stood must be of the kind the cached answer relied on.

A cached tool call copied a city from its request ("weather in Paris" -> ``city="Paris"``).
A new request that names the place by a description ("the capital of Germany"), by a country,
or by anything that is not a city's name must reach the model: copying it into the call
serves a stale action (0.7.0 served ``get_weather(city="the capital of Germany")``). A
same-kind value is still re-instantiated. The model is an ORACLE (SIMULATED: it resolves every
request correctly), so the served answer must be the oracle's own; every framework side.

The exact path follows the same rule for its punctuation: "What is 3 + 4!" asks for a
factorial, so it is not the request "What is 3 + 4?".
"""

from __future__ import annotations

import re

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core.text import same_request
from tests.conftest import AnswerBook
from tests.security.tool_worlds import SIDES, Answer, World, get_weather

# What the oracle knows: a description, a country or a city's other name resolves to a city.
RESOLVED = {
    "the capital of Germany": "Berlin",
    "the city of the Eiffel Tower": "Paris",
    "die Hauptstadt von Portugal": "Lisbon",
    "a capital do Brasil": "Brasília",
    "my hometown": None,
    "Germany": None,
    "Deutschland": None,
    "somewhere warm": None,
    "3 + 4": None,
    "NYC": "New York",
}
PLACE = re.compile(r"weather in (.+?) today", re.IGNORECASE)


def oracle(system: str, request: str) -> Answer:
    """SIMULATED: the right call for a city; a question back when no city is named."""
    place = PLACE.search(request)
    assert place is not None, request
    named = place[1]
    city = RESOLVED.get(named, named)
    if city is None:
        return Answer(text="Which city do you mean?")
    return Answer.of(("get_weather", {"city": city}))


WORLD = World("one weather tool, resolving descriptions", (get_weather,), oracle)
CACHED = "What is the weather in Paris today?"


@pytest.mark.parametrize("side_name", sorted(SIDES))
@pytest.mark.parametrize("place", [p for p in RESOLVED if p != "Paris"])
def test_a_value_of_another_kind_reaches_the_model(side_name: str, place: str) -> None:
    new = f"What is the weather in {place} today?"
    side = SIDES[side_name](WORLD, ())
    side.ask(CACHED)
    served = side.ask(new)
    assert served == oracle("", new), f"{side.decision}: {side.reason}"
    assert side.decision in ("skip", "miss"), side.reason


@pytest.mark.parametrize("side_name", sorted(SIDES))
@pytest.mark.parametrize("city", ["Berlin", "Rio de Janeiro", "Frankfurt am Main", "São Paulo"])
def test_a_city_for_a_city_is_still_reused(side_name: str, city: str) -> None:
    new = f"What is the weather in {city} today?"
    side = SIDES[side_name](WORLD, ())
    side.ask(CACHED)
    served = side.ask(new)
    assert served == oracle("", new)
    assert side.decision == "reuse", side.reason


@pytest.mark.parametrize(
    ("cached", "new"),
    [
        ("What is 3 + 4?", "What is 3 + 4!"),
        ("Compute (2 + 3).", "Compute (2 + 3)!"),
        ("Evaluate (7 - 2).", "Evaluate (7 - 2)!"),
        ("Evaluate 6.", "Evaluate 6!"),
    ],
)
def test_an_operator_after_a_number_is_meaning(cached: str, new: str) -> None:
    assert not same_request(cached, new)
    book = AnswerBook({cached: "the first answer", new: "the second answer"})
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())
    llm.invoke(cached)
    message = llm.invoke(new)
    assert message.content == "the second answer"
    assert message.response_metadata["stepcache"]["decision"] != "exact"


@pytest.mark.parametrize(
    ("cached", "new"),
    [
        ("What is 3 + 4?", "What is 3 + 4."),
        ("Tell me a joke!", "Tell me a joke."),
        ("Hi! I turned 30 today!", "Hi! I turned 30 today."),
        ("What is 3 + 4?", "What is 3 + 4 !"),
    ],
)
def test_an_exclamation_is_still_neutral(cached: str, new: str) -> None:
    assert same_request(cached, new)
