"""Tool worlds with an ORACLE model, for tests of re-instantiated tool calls.

Each world is a set of tools (plain functions: their docstrings are the descriptions the model
reads, their signatures the parameter schemas) and an oracle: a SIMULATED model that answers
every request correctly by rules written here, the way the descriptions say (amounts above 500
by wire, past dates from the records, a unit by the city's country...). Anything wrong that
comes out of a cached run was therefore made by the cache.

The sides run one world through one framework path: the LangChain wrapper with bound tools,
``create_agent`` with ``StepCacheMiddleware`` or a ``StepCacheLLM`` model, and the LlamaIndex
wrapper's function calling (``chat_with_tools``). Each gives the first model turn's answer:
the calls it makes (in an agent: the tools it then runs) and its text.
"""

# No ``from __future__ import annotations`` here: the tools' signatures are read by LlamaIndex
# and LangChain, which need the annotations as objects (a ``Literal`` kept as a string gives
# LlamaIndex no schema).
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, Protocol
from uuid import uuid4

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import StructuredTool
from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock, ToolCallBlock
from llama_index.core.llms import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool
from pydantic import Field

from stepcache_integrations import StepCache, StepCacheLLM, StepCacheRecord
from stepcache_integrations.langchain import PURE_TOOL_METADATA_KEY
from stepcache_integrations.langchain.middleware import StepCacheMiddleware
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import ScriptedToolModel

Call = tuple[str, dict[str, Any]]
TODAY = date(2025, 6, 1)  # the oracle's today
US_CITIES = frozenset({"Boston", "Chicago", "Denver", "Miami", "Austin"})
COASTAL = frozenset({"Miami", "Boston"})
CAPITALS = {"Paris": "France", "Berlin": "Germany", "Rome": "Italy", "Madrid": "Spain"}
EPITHETS = {"Paris": "city of light", "Rome": "eternal city", "Berlin": "grey city"}
ZONES = {"Paris": "Europe/Paris", "Tokyo": "Asia/Tokyo", "Berlin": "Europe/Berlin"}


@dataclass(frozen=True)
class Answer:
    """A model turn: its calls (in order) and its text."""

    calls: tuple[Call, ...] = ()
    text: str = ""

    @staticmethod
    def of(*calls: Call, text: str = "") -> "Answer":
        return Answer(tuple(calls), text)


@dataclass(frozen=True)
class World:
    """Tools and the oracle that uses them: ``oracle(system_prompt, request)``."""

    name: str
    tools: tuple[Callable[..., str], ...]
    oracle: Callable[[str, str], Answer]
    system: str = ""


# -- tools (their docstrings are what the model reads) -------------------------------------------


def send_money(recipient: str, amount: int) -> str:
    """Send money to a contact. Amounts above 500 must use wire_transfer."""
    return f"sent {amount} to {recipient}"


def wire_transfer(recipient: str, amount: int) -> str:
    """Wire money to a contact."""
    return f"wired {amount} to {recipient}"


def pay(recipient: str, amount: int) -> str:
    """Send money to a contact."""
    return f"paid {amount} to {recipient}"


def wire(recipient: str, amount: int) -> str:
    """Wire money to a contact, for amounts above 500."""
    return f"wired {amount} to {recipient}"


def pay_small(recipient: str, amount: int = Field(le=500)) -> str:
    """Send money to a contact."""
    return f"paid {amount} to {recipient}"


def pay_large(recipient: str, amount: int = Field(gt=500)) -> str:
    """Wire money to a contact."""
    return f"wired {amount} to {recipient}"


def transfer(
    recipient: str,
    amount: int = Field(description="In dollars; more than 500 goes by wire."),
) -> str:
    """Move money to a contact."""
    return f"moved {amount} to {recipient}"


def send_payment(recipient: str, amount: int) -> str:
    """Send money to a contact. Amounts over 500 need request_approval first."""
    return f"sent {amount} to {recipient}"


def request_approval() -> str:
    """Ask a manager to approve a payment."""
    return "approval requested"


def capped_payment(recipient: str, amount: int) -> str:
    """Send money to a contact; at most five hundred dollars per transfer."""
    return f"sent {amount} to {recipient}"


def get_history(city: str, date: str) -> str:
    """Recorded weather of a past date."""
    return f"{city} on {date}: recorded"


def get_forecast(city: str, date: str) -> str:
    """Predicted weather of a future date."""
    return f"{city} on {date}: predicted"


def weather_records(city: str, date: str) -> str:
    """Weather records of a city."""
    return f"{city} on {date}: records"


def weather_predictions(city: str, date: str) -> str:
    """Weather predictions for a city."""
    return f"{city} on {date}: predictions"


def book_flight(destination: str, date: str) -> str:
    """Book a flight to a destination."""
    return f"booked {destination} on {date}"


def order_item(item: str, quantity: int) -> str:
    """Order an item."""
    return f"ordered {quantity} {item}"


def book_any(destination: str, date: str) -> str:
    """Book a flight to a destination."""
    return f"booked {destination} on {date}"


def order_small(item: str, quantity: int) -> str:
    """Order up to 99 units of an item."""
    return f"ordered {quantity} {item}"


def order_bulk(item: str, quantity: int) -> str:
    """Order 100 units or more of an item."""
    return f"ordered {quantity} {item} in bulk"


def order_retail(item: str, quantity: int) -> str:
    """Order an item from the shop."""
    return f"shop: {quantity} {item}"


def order_wholesale(item: str, quantity: int) -> str:
    """Order an item from the warehouse."""
    return f"warehouse: {quantity} {item}"


def log_distance(value: int, unit: Literal["m", "km"]) -> str:
    """Log a distance."""
    return f"logged {value} {unit}"


def ship(item: str, weight: int, service: Literal["letter", "parcel", "freight"]) -> str:
    """Ship an item."""
    return f"shipped {item} by {service}"


def weather_us(city: str) -> str:
    """Weather for a city."""
    return f"US weather for {city}"


def weather_eu(city: str) -> str:
    """Weather for a city."""
    return f"EU weather for {city}"


def weather_europe(location: str) -> str:
    """Weather for a place."""
    return f"EU weather for {location}"


def lookup_by_zip(zip_code: str = Field(pattern=r"^\d{5}$")) -> str:
    """Stores near a zip code."""
    return f"stores near {zip_code}"


def lookup_by_city(city: str) -> str:
    """Stores near a city."""
    return f"stores near {city}"


def get_weather(city: str) -> str:
    """The current weather in a city."""
    return f"{city}: mild"


def get_alerts(city: str) -> str:
    """Storm alerts for a city."""
    return f"alerts for {city}"


def search_web(query: str) -> str:
    """Search the web."""
    return f"results for {query}"


def weather_in_units(city: str, unit: Literal["celsius", "fahrenheit"]) -> str:
    """The current weather in a city."""
    return f"{city} in {unit}"


def get_time(city: str, timezone: str) -> str:
    """The time in a city."""
    return f"time in {city} ({timezone})"


# Tools of the outsider's attacks (see test_tool_choice_is_never_stale.ATTACKS).


def pay_desk(recipient: str, amount: int) -> str:
    """Send money to a contact; big-ticket payments are refused."""
    return f"paid {amount} to {recipient}"


def send_under_500(recipient: str, amount: int) -> str:
    """Send money to a contact."""
    return f"sent {amount} to {recipient}"


def pay_capped(recipient: str, amount_up_to_500: int) -> str:
    """Send money to a contact."""
    return f"paid {amount_up_to_500} to {recipient}"


def pay_stop(recipient: str, amount: int) -> str:
    """Send money to a contact. Payments stop at five hundred dollars."""
    return f"paid {amount} to {recipient}"


def pay_default(recipient: str, amount: int, mode: str = "refused above 500") -> str:
    """Send money to a contact."""
    return f"paid {amount} to {recipient} ({mode})"


def us_weather(city: str) -> str:
    """Weather for a city."""
    return f"US weather for {city}"


# -- oracles ------------------------------------------------------------------------------------

MONEY = re.compile(r"Send (\d+) dollars to ([A-Z][a-z]+)")
DATED = re.compile(r"in ([A-Z][a-z]+) on (\d{4}-\d{2}-\d{2})")
FLIGHT = re.compile(r"flight to ([A-Z][a-z]+) on (\d{4}-\d{2}-\d{2})")
ORDER = re.compile(r"Order (\d+) ([a-z]+)")
CITY = re.compile(r"(?:in|near) ([A-Z][a-z]+|\d{5})")
DISTANCE = re.compile(r"Log (\d+)")
WEIGHT = re.compile(r"of (\d+) kg")


def _money(request: str) -> tuple[str, int] | None:
    found = MONEY.search(request)
    return (found[2], int(found[1])) if found else None


def _past(day: str) -> bool:
    return date.fromisoformat(day) < TODAY


def by_amount(small: str, large: str) -> Callable[[str, str], Answer]:
    """Amounts above 500 go to ``large``."""

    def oracle(system: str, request: str) -> Answer:
        found = _money(request)
        if found is None:
            return Answer(text="How much, and to whom?")
        who, amount = found
        return Answer.of((large if amount > 500 else small, {"recipient": who, "amount": amount}))

    return oracle


def approval_first(tool: str) -> Callable[[str, str], Answer]:
    """Amounts over 500 ask for approval first (no payment yet)."""

    def oracle(system: str, request: str) -> Answer:
        found = _money(request)
        if found is None:
            return Answer(text="How much, and to whom?")
        who, amount = found
        if amount > 500:
            return Answer.of(("request_approval", {}))
        return Answer.of((tool, {"recipient": who, "amount": amount}))

    return oracle


def capped(system: str, request: str) -> Answer:
    found = _money(request)
    if found is None:
        return Answer(text="How much, and to whom?")
    who, amount = found
    if amount > 500:
        return Answer(text="I can send at most 500 dollars per transfer.")
    return Answer.of(("capped_payment", {"recipient": who, "amount": amount}))


def wire_if_asked(system: str, request: str) -> Answer:
    """The request itself says when to wire."""
    found = _money(request)
    assert found is not None
    who, amount = found
    tool = "wire" if "above 500" in request and amount > 500 else "pay"
    return Answer.of((tool, {"recipient": who, "amount": amount}))


def approval_by_system(system: str, request: str) -> Answer:
    """The system prompt says when to ask for approval."""
    found = _money(request)
    assert found is not None
    who, amount = found
    if "above 500" in system and amount > 500:
        return Answer.of(("request_approval", {}))
    return Answer.of(("pay", {"recipient": who, "amount": amount}))


def by_date(past: str, future: str) -> Callable[[str, str], Answer]:
    def oracle(system: str, request: str) -> Answer:
        found = DATED.search(request)
        assert found is not None
        tool = past if _past(found[2]) else future
        return Answer.of((tool, {"city": found[1], "date": found[2]}))

    return oracle


def future_only(system: str, request: str) -> Answer:
    found = DATED.search(request)
    assert found is not None
    if _past(found[2]):
        return Answer(text="I can only predict the weather of days to come.")
    return Answer.of(("weather_predictions", {"city": found[1], "date": found[2]}))


def flights(system: str, request: str) -> Answer:
    found = FLIGHT.search(request)
    assert found is not None
    if _past(found[2]):
        return Answer(text="That day has passed: I cannot book it.")
    return Answer.of(("book_flight", {"destination": found[1], "date": found[2]}))


def by_quantity(small: str, bulk: str) -> Callable[[str, str], Answer]:
    def oracle(system: str, request: str) -> Answer:
        found = ORDER.search(request)
        assert found is not None
        quantity = int(found[1])
        tool = bulk if quantity >= 100 else small
        return Answer.of((tool, {"item": found[2], "quantity": quantity}))

    return oracle


def orders(system: str, request: str) -> Answer:
    found = ORDER.search(request)
    assert found is not None
    return Answer.of(("order_item", {"item": found[2], "quantity": int(found[1])}))


def any_flight(system: str, request: str) -> Answer:
    found = FLIGHT.search(request)
    assert found is not None
    return Answer.of(("book_any", {"destination": found[1], "date": found[2]}))


def distances(system: str, request: str) -> Answer:
    found = DISTANCE.search(request)
    assert found is not None
    value = int(found[1])
    return Answer.of(("log_distance", {"value": value, "unit": "km" if value >= 1000 else "m"}))


def shipping(system: str, request: str) -> Answer:
    found = WEIGHT.search(request)
    assert found is not None
    weight = int(found[1])
    service = "letter" if weight < 1 else "parcel" if weight < 30 else "freight"
    return Answer.of(("ship", {"item": "box", "weight": weight, "service": service}))


def by_region(us: str, eu: str, parameter: str = "city") -> Callable[[str, str], Answer]:
    def oracle(system: str, request: str) -> Answer:
        found = CITY.search(request)
        assert found is not None
        city = found[1]
        if city in US_CITIES:
            return Answer.of((us, {"city": city}))
        return Answer.of((eu, {parameter: city}))

    return oracle


def stores(system: str, request: str) -> Answer:
    found = CITY.search(request)
    assert found is not None
    place = found[1]
    if place.isdigit():
        return Answer.of(("lookup_by_zip", {"zip_code": place}))
    return Answer.of(("lookup_by_city", {"city": place}))


def weather_and_alerts(system: str, request: str) -> Answer:
    found = CITY.search(request)
    if found is None:
        return Answer(text="Which city?")
    city = found[1]
    calls: list[Call] = [("get_weather", {"city": city})]
    if city in COASTAL:
        calls.append(("get_alerts", {"city": city}))
    return Answer(tuple(calls))


def weather_with(text: Callable[[str], str]) -> Callable[[str, str], Answer]:
    """``get_weather`` for the city, with ``text(city)`` beside the call."""

    def oracle(system: str, request: str) -> Answer:
        found = CITY.search(request)
        if found is None:
            return Answer(text="Which city?")
        return Answer.of(("get_weather", {"city": found[1]}), text=text(found[1]))

    return oracle


def units(system: str, request: str) -> Answer:
    found = CITY.search(request)
    assert found is not None
    city = found[1]
    unit = "fahrenheit" if city in US_CITIES else "celsius"
    return Answer.of(("weather_in_units", {"city": city, "unit": unit}))


def times(system: str, request: str) -> Answer:
    found = CITY.search(request)
    assert found is not None
    return Answer.of(("get_time", {"city": found[1], "timezone": ZONES[found[1]]}))


def refused_above(limit: int, tool: str, parameter: str = "amount") -> Callable[[str, str], Answer]:
    """Payments above ``limit`` are refused in words."""

    def oracle(system: str, request: str) -> Answer:
        found = _money(request)
        assert found is not None
        who, amount = found
        if amount > limit:
            return Answer(text=f"I cannot send more than {limit} dollars.")
        return Answer.of((tool, {"recipient": who, parameter: amount}))

    return oracle


NAMED = re.compile(r"Pay ([A-Z][a-z]+) (\d+) dollars")


def wire_three_letter_names(system: str, request: str) -> Answer:
    """The request says: by wire when the name has three letters."""
    found = NAMED.search(request)
    assert found is not None
    who, amount = found[1], int(found[2])
    tool = "wire" if len(who) == 3 else "pay"
    return Answer.of((tool, {"recipient": who, "amount": amount}))


FRENCH = re.compile(r"Envoie (\d+) dollars \u00e0 ([A-Z][a-z]+), par virement si plus de (\d+)")


def french_threshold(system: str, request: str) -> Answer:
    found = FRENCH.search(request)
    assert found is not None
    amount, who, limit = int(found[1]), found[2], int(found[3])
    return Answer.of(("wire" if amount > limit else "pay", {"recipient": who, "amount": amount}))


GLUED = re.compile(r"Send (\d+),wire-at-(\d+) dollars to ([A-Z][a-z]+)")


def glued_threshold(system: str, request: str) -> Answer:
    """The threshold written in one piece with the amount."""
    found = GLUED.search(request)
    assert found is not None
    amount, limit, who = int(found[1]), int(found[2]), found[3]
    return Answer.of(("wire" if amount > limit else "pay", {"recipient": who, "amount": amount}))


def wire_above_words(system: str, request: str) -> Answer:
    """The request says "by wire at five hundred"."""
    found = _money(request)
    assert found is not None and "at five hundred" in request
    who, amount = found
    return Answer.of(("wire" if amount >= 500 else "pay", {"recipient": who, "amount": amount}))


def wire_by_french_system(system: str, request: str) -> Answer:
    """The system prompt says, in French, from which amount to wire."""
    found, limit = _money(request), re.search(r"partir de (\d+)", system)
    assert found is not None and limit is not None
    who, amount = found
    tool = "wire" if amount >= int(limit[1]) else "pay"
    return Answer.of((tool, {"recipient": who, "amount": amount}))


def each_city_once(system: str, request: str) -> Answer:
    cities = list(dict.fromkeys(re.findall(r"[A-Z][a-z]+", request.split(" in ", 1)[1])))
    return Answer(tuple(("get_weather", {"city": city}) for city in cities))


def us_cities_only(system: str, request: str) -> Answer:
    found = CITY.search(request)
    assert found is not None
    if found[1] not in US_CITIES:
        return Answer(text="I only have the weather of US cities.")
    return Answer.of(("us_weather", {"city": found[1]}))


def tell(system: str, request: str) -> Answer:
    found = CITY.search(request)
    assert found is not None
    return Answer(text=f"A joke about {found[1]}, in {CAPITALS[found[1]]}.")


WORLDS = {
    world.name: world
    for world in (
        World(
            "threshold in the tool's description",
            (send_money, wire_transfer),
            by_amount("send_money", "wire_transfer"),
        ),
        World("threshold in the other tool's description", (pay, wire), by_amount("pay", "wire")),
        World(
            "threshold in the schema", (pay_small, pay_large), by_amount("pay_small", "pay_large")
        ),
        World(
            "threshold in a parameter's description",
            (transfer, wire),
            by_amount("transfer", "wire"),
        ),
        World(
            "threshold sends for approval",
            (send_payment, request_approval),
            approval_first("send_payment"),
        ),
        World("threshold in words, else a refusal", (capped_payment,), capped),
        World("threshold in the request", (pay, wire), wire_if_asked),
        World(
            "threshold in the system prompt",
            (pay, request_approval),
            approval_by_system,
            system="Payments above 500 dollars need request_approval first.",
        ),
        World(
            "past or future date, said",
            (get_history, get_forecast),
            by_date("get_history", "get_forecast"),
        ),
        World(
            "past or future date, unsaid",
            (weather_records, weather_predictions),
            by_date("weather_records", "weather_predictions"),
        ),
        World("a past date refused", (weather_predictions,), future_only),
        World("a flight in the past", (book_flight,), flights),
        World(
            "quantity chooses the endpoint, said",
            (order_small, order_bulk),
            by_quantity("order_small", "order_bulk"),
        ),
        World(
            "quantity chooses the endpoint, unsaid",
            (order_retail, order_wholesale),
            by_quantity("order_retail", "order_wholesale"),
        ),
        World("quantity chooses the unit", (log_distance,), distances),
        World("weight chooses the service", (ship,), shipping),
        World(
            "two tools take the city",
            (weather_us, weather_eu),
            by_region("weather_us", "weather_eu"),
        ),
        World(
            "two tools take it under other names",
            (weather_us, weather_europe),
            by_region("weather_us", "weather_europe", "location"),
        ),
        World("a zip code or a city", (lookup_by_zip, lookup_by_city), stores),
        World("a second call for some cities", (get_weather, get_alerts), weather_and_alerts),
        World("the unit follows from the city", (weather_in_units,), units),
        World("the time zone follows from the city", (get_time,), times),
        World(
            "a fact about the city beside the call",
            (get_weather,),
            weather_with(lambda c: f"{c} is the capital of {CAPITALS[c]}; let me check."),
        ),
        World(
            "an epithet beside the call",
            (get_weather,),
            weather_with(lambda c: f"Checking {c}, the {EPITHETS[c]}."),
        ),
        World(
            "narration beside the call",
            (get_weather,),
            weather_with(lambda c: f"Let me check the weather in {c}."),
        ),
        World("one weather tool", (get_weather,), weather_with(lambda c: "")),
        World("weather and web search", (get_weather, search_web), weather_with(lambda c: "")),
        World("a plain answer", (get_weather,), tell),
        World("one order tool", (order_item,), orders),
        World("flights any day", (book_any,), any_flight),
        World("a hyphenated size word", (pay_desk,), refused_above(1000, "pay_desk")),
        World(
            "a threshold only in the tool's name",
            (send_under_500,),
            refused_above(499, "send_under_500"),
        ),
        World(
            "a threshold only in a parameter's name",
            (pay_capped,),
            refused_above(500, "pay_capped", "amount_up_to_500"),
        ),
        World("a threshold in number words", (pay_stop,), refused_above(500, "pay_stop")),
        World("a condition on the name in the request", (pay, wire), wire_three_letter_names),
        World("a threshold in another language", (pay, wire), french_threshold),
        World("each city once", (get_weather,), each_city_once),
        World("a region only in the tool's name", (us_weather,), us_cities_only),
        World("a threshold glued to the amount", (pay, wire), glued_threshold),
        World("a threshold in number words in the request", (pay, wire), wire_above_words),
        World(
            "a threshold in a French system prompt",
            (pay, wire),
            wire_by_french_system,
            system="Virement \u00e0 partir de 500 dollars.",
        ),
        World(
            "a condition in a parameter's default",
            (pay_default,),
            refused_above(500, "pay_default"),
        ),
    )
}


# -- the framework paths ------------------------------------------------------------------------


def final_text(result: str) -> str:
    return f"Done: {result}"


class Side(Protocol):
    """One framework path through one cache."""

    model_calls: int
    records: list[StepCacheRecord]
    decision: str  # the cache's decision on the last request's first model turn
    reason: str  # and why (the failing verdicts' reasons, when there are any)

    def ask(self, request: str) -> Answer: ...


def _recording_cache() -> tuple[StepCache, list[StepCacheRecord]]:
    records: list[StepCacheRecord] = []
    cache = StepCache()
    cache.add_listener(records.append)
    return cache, records


def _langchain_tools(world: World, pure: Sequence[str]) -> list[StructuredTool]:
    return [
        StructuredTool.from_function(
            func=fn, metadata={PURE_TOOL_METADATA_KEY: True} if fn.__name__ in pure else None
        )
        for fn in world.tools
    ]


def _langchain_responder(side: Any, world: World) -> Callable[..., AIMessage]:
    def respond(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        side.model_calls += 1
        last = messages[-1]
        if isinstance(last, ToolMessage):
            return AIMessage(content=final_text(str(last.content)))
        system = next((str(m.content) for m in messages if isinstance(m, SystemMessage)), "")
        answer = world.oracle(system, str(last.content))
        calls = [{"name": n, "args": a, "id": f"call_{uuid4().hex[:8]}"} for n, a in answer.calls]
        return AIMessage(content=answer.text, tool_calls=calls)

    return respond


def _decided(side: Any, record: StepCacheRecord) -> None:
    failed = [v["reason"] for v in record.verdicts if v.get("outcome") == "fail"]
    side.decision, side.reason = record.decision, "; ".join([record.reason, *failed])


def _answer_of(message: AIMessage) -> Answer:
    return Answer(tuple((c["name"], dict(c["args"])) for c in message.tool_calls), message.text)


@dataclass
class LangChainWrapper:
    """``StepCacheLLM(llm=...).bind_tools(tools)``; pure tools by metadata, or by the
    ``pure_tools=`` keyword when ``keyword``."""

    world: World
    pure: Sequence[str] = ()
    keyword: bool = False
    model_calls: int = 0
    records: list[StepCacheRecord] = field(default_factory=list)
    decision: str = ""
    reason: str = ""

    def __post_init__(self) -> None:
        cache, self.records = _recording_cache()
        model = ScriptedToolModel(responder=_langchain_responder(self, self.world))
        llm = StepCacheLLM(
            llm=model, step_cache=cache, pure_tools=list(self.pure) if self.keyword else []
        )
        tools = _langchain_tools(self.world, () if self.keyword else self.pure)
        self.bound = llm.bind_tools(tools)

    def ask(self, request: str) -> Answer:
        messages: list[BaseMessage] = [HumanMessage(request)]
        if self.world.system:
            messages.insert(0, SystemMessage(self.world.system))
        answer = self.bound.invoke(messages)
        assert isinstance(answer, AIMessage)
        _decided(self, self.records[-1])
        return _answer_of(answer)


@dataclass
class LangChainAgent:
    """``create_agent`` with ``StepCacheMiddleware`` (``middleware``) or a ``StepCacheLLM``
    model; the answer is the agent's first model turn (the tools it then ran)."""

    world: World
    pure: Sequence[str] = ()
    middleware: bool = True
    keyword: bool = False
    model_calls: int = 0
    records: list[StepCacheRecord] = field(default_factory=list)
    decision: str = ""
    reason: str = ""
    ran: list[list[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        cache, self.records = _recording_cache()
        model = ScriptedToolModel(responder=_langchain_responder(self, self.world))
        tools = _langchain_tools(self.world, () if self.keyword else self.pure)
        names = list(self.pure) if self.keyword else []
        system = self.world.system or None
        if self.middleware:
            self.agent = create_agent(
                model=model,
                tools=tools,
                system_prompt=system,
                middleware=[StepCacheMiddleware(cache, pure_tools=names)],
            )
        else:
            llm = StepCacheLLM(llm=model, step_cache=cache, pure_tools=names)
            self.agent = create_agent(model=llm, tools=tools, system_prompt=system)

    def ask(self, request: str) -> Answer:
        before = len(self.records)
        state = self.agent.invoke({"messages": [("user", request)]})
        messages = state["messages"]
        self.ran.append([m.name for m in messages if isinstance(m, ToolMessage)])
        first = next(m for m in messages if isinstance(m, AIMessage))
        _decided(self, self.records[before])  # the first model turn of this run
        return _answer_of(first)


@dataclass
class LlamaIndexWrapper:
    """``StepCacheLLM(llm=FunctionCallingLLM).chat_with_tools(tools, ...)``, pure tools by
    the ``pure_tools=`` keyword."""

    world: World
    pure: Sequence[str] = ()
    model_calls: int = 0
    records: list[StepCacheRecord] = field(default_factory=list)
    decision: str = ""
    reason: str = ""

    def __post_init__(self) -> None:
        cache, self.records = _recording_cache()
        inner = MockFunctionCallingLLM(response_generator=self._respond, is_chat_model=True)
        self.llm = LlamaStepCacheLLM(llm=inner, step_cache=cache, pure_tools=list(self.pure))
        self.tools = [FunctionTool.from_defaults(fn=fn) for fn in self.world.tools]

    def _respond(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        self.model_calls += 1
        last = messages[-1]
        if last.role == MessageRole.TOOL:
            return ChatMessage(role="assistant", content=final_text(str(last.content)))
        system = next((str(m.content) for m in messages if m.role == MessageRole.SYSTEM), "")
        answer = self.world.oracle(system, str(last.content))
        blocks: list[Any] = [TextBlock(text=answer.text)] if answer.text else []
        blocks += [
            ToolCallBlock(tool_call_id=f"call_{uuid4().hex[:8]}", tool_name=n, tool_kwargs=a)
            for n, a in answer.calls
        ]
        return ChatMessage(role="assistant", blocks=blocks)

    def ask(self, request: str) -> Answer:
        history = (
            [ChatMessage(role="system", content=self.world.system)] if self.world.system else []
        )
        response = self.llm.chat_with_tools(self.tools, user_msg=request, chat_history=history)
        selections = self.llm.get_tool_calls_from_response(response, error_on_no_tool_call=False)
        _decided(self, self.records[-1])
        calls = tuple((s.tool_name, dict(s.tool_kwargs)) for s in selections)
        return Answer(calls, response.message.content or "")


SIDES: dict[str, Callable[[World, Sequence[str]], Side]] = {
    "langchain wrapper": lambda world, pure: LangChainWrapper(world, pure),
    "langchain wrapper, pure_tools=": lambda world, pure: LangChainWrapper(
        world, pure, keyword=True
    ),
    "agent + middleware": lambda world, pure: LangChainAgent(world, pure),
    "agent + middleware, pure_tools=": lambda world, pure: LangChainAgent(
        world, pure, keyword=True
    ),
    "agent + StepCacheLLM": lambda world, pure: LangChainAgent(world, pure, middleware=False),
    "llama_index function calling": lambda world, pure: LlamaIndexWrapper(world, pure),
}


def rebound(answer: Answer, old: str, new: str) -> Answer:
    """What copying ``old`` -> ``new`` into a cached answer gives (the stale answer a cache
    that only rewrites values would serve)."""

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return re.sub(rf"\b{re.escape(old)}\b", new, value)
        if isinstance(value, int) and not isinstance(value, bool) and str(value) == old:
            return int(new)
        return value

    calls = tuple((name, {k: swap(v) for k, v in args.items()}) for name, args in answer.calls)
    return Answer(calls, swap(answer.text))
