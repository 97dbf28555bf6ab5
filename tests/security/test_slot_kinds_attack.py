"""An outside attack on "a slot keeps its kind" and on the factorial mark (ece1db4).

Each case caches one request, then asks one whose answer an ORACLE model (SIMULATED: it
answers every request correctly, by the rules written here) gives differently from what the
cache serves. Anything wrong in the served answer was therefore made by the cache.

Tool calls (through every framework side of ``tool_worlds``: the LangChain wrapper with bound
tools, ``create_agent`` with ``StepCacheMiddleware`` or a ``StepCacheLLM`` model, the LlamaIndex
wrapper's function calling): the cached call copied a value from its request; the new value
reads as the same kind to ``core.text.slots.value_kind`` but is not a value the model would
copy. The model resolves it (a nickname to its city), asks back (a region, a person where a
place is wanted, a date that does not exist) or splits it (two places). Where the tool must be
declared pure for the cache to rebind at all, the case says so: a pure declaration speaks for
the choice of the tool and its other arguments, never for what the value itself means.

The exact path and the equation family: a "!" written against an operand that is not a
number or ")"/"]" (a variable, a superscript, "|x|", a floor) is still dropped as an
exclamation, and the linear-equation family reads "2x + 1 = 9!" as "2x + 1 = 9".

The classes, each a test of its own below, with the count of cases:

- descriptions in capitals (English Title Case, German nouns): 6
- nicknames and short names of cities, in English, German and Portuguese: 9
- countries as people name them (not ISO 3166's names): 8
- regions, states and continents where a city stood: 10
- a person where a place stood: 3
- two places joined by a name particle ("Madrid y Barcelona"): 2
- a code of another shape where a currency code stood: 5
- a date of the same layout that does not exist: 4
- a date whose parts are rebound one by one into another layout: 2
- an integer that counts nothing (zero): 2
- "!" after a variable at the end of a request: 4
- "!" after a superscript: 2
- "!" after a closing delimiter other than ")" and "]": 3
- the linear-equation family drops a factorial: 9
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook
from tests.security.tool_worlds import SIDES, Answer, World, book_any, get_weather, order_item

# -- what the oracle knows ------------------------------------------------------------------------

# A place as a request names it -> the cities the oracle calls the weather tool for; an empty
# tuple: it is no city (a region, a country, a continent), and the oracle asks which city.
PLACES: dict[str, tuple[str, ...]] = {
    # the cached values and ordinary cities
    "Paris": ("Paris",),
    "Lisboa": ("Lisboa",),
    "Sevilla": ("Sevilla",),
    "New York": ("New York",),
    # descriptions in capitals
    "The Capital Of Germany": ("Berlin",),
    "The German Capital": ("Berlin",),
    "Capital Of Germany": ("Berlin",),
    "City Of Light": ("Paris",),
    "Bayerns Hauptstadt": ("München",),
    "Deutschlands Hauptstadt": ("Berlin",),
    # nicknames and short names
    "Philly": ("Philadelphia",),
    "Vegas": ("Las Vegas",),
    "Frisco": ("San Francisco",),
    "Motown": ("Detroit",),
    "Chi-Town": ("Chicago",),
    "Windy City": ("Chicago",),
    "Eternal City": ("Rome",),
    "Mainhattan": ("Frankfurt am Main",),
    "Sampa": ("São Paulo",),
    "Floripa": ("Florianópolis",),
    # countries as people name them
    "England": (),
    "Scotland": (),
    "Great Britain": (),
    "Korea": (),
    "Turkey": (),
    "America": (),
    "Schottland": (),
    "Großbritannien": (),
    # regions, states, continents
    "Bavaria": (),
    "California": (),
    "Sicily": (),
    "Europe": (),
    "Bayern": (),
    "Sizilien": (),
    "Europa": (),
    "Pernambuco": (),
    "Minas Gerais": (),
    "New England": (),
    # two places
    "Madrid y Barcelona": ("Madrid", "Barcelona"),
    "Granada y Málaga": ("Granada", "Málaga"),
}

EN = "What is the weather in {} today?"
EN_SHORT = "What is the weather in {}?"
DE = "Wie ist das Wetter heute in {}?"
PT = "Como está o tempo em {} hoje?"
ES = "¿Qué tiempo hace hoy en {}?"
TEMPLATES = (EN, EN_SHORT, DE, PT, ES)


def _place(request: str) -> str:
    for template in TEMPLATES:
        head, tail = template.split("{}")
        if request.startswith(head) and request.endswith(tail):
            return request[len(head) : len(request) - len(tail)]
    raise AssertionError(f"the oracle does not know the request {request!r}")


def weather(system: str, request: str) -> Answer:
    """SIMULATED: a call for each city the request names; a question back for no city."""
    cities = PLACES[_place(request)]
    if not cities:
        return Answer(text="Which city do you mean?")
    return Answer(tuple(("get_weather", {"city": city}) for city in cities))


def directions_to(destination: str) -> str:
    """Driving directions to a destination."""
    return f"route to {destination}"


PEOPLE = frozenset({"Anna Schmidt", "John Smith", "Maria Silva"})
ROUTE = re.compile(r"directions to (.+)$")


def directions(system: str, request: str) -> Answer:
    """SIMULATED: a place is routed to; a person's address is asked for."""
    found = ROUTE.search(request)
    assert found is not None, request
    if found[1] in PEOPLE:
        return Answer(text=f"What is {found[1]}'s address?")
    return Answer.of(("directions_to", {"destination": found[1]}))


def convert(amount: int, currency: str) -> str:
    """Convert an amount of US dollars into a currency."""
    return f"{amount} USD in {currency}"


ISO_4217 = frozenset({"EUR", "JPY", "GBP", "CHF", "BRL"})
CURRENCY_NAMES = {"EURO": "EUR", "YEN": "JPY", "POUNDS": "GBP"}
CONVERT = re.compile(r"Convert (\d+) dollars to (\S+)$")


def conversions(system: str, request: str) -> Answer:
    """SIMULATED: a currency's ISO 4217 code, read from its code or its name; a country is no
    currency (the oracle asks)."""
    found = CONVERT.search(request)
    assert found is not None, request
    code = CURRENCY_NAMES.get(found[2], found[2] if found[2] in ISO_4217 else None)
    if code is None:
        return Answer(text=f"Which currency do you mean by {found[2]}?")
    return Answer.of(("convert", {"amount": int(found[1]), "currency": code}))


FLIGHT = re.compile(r"flight to ([A-Z][a-z]+) on (\d{4})-(\d{1,2})-(\d{1,2})$")


def flights(system: str, request: str) -> Answer:
    """SIMULATED: a flight on a day that exists, its date written as ISO 8601 writes it."""
    found = FLIGHT.search(request)
    assert found is not None, request
    try:
        day = date(int(found[2]), int(found[3]), int(found[4]))
    except ValueError:
        return Answer(text="That date does not exist: which day do you mean?")
    return Answer.of(("book_any", {"destination": found[1], "date": day.isoformat()}))


ORDER = re.compile(r"(?:Order|Encomende) (\d+) widgets$")


def orders(system: str, request: str) -> Answer:
    """SIMULATED: an order of at least one item."""
    found = ORDER.search(request)
    assert found is not None, request
    quantity = int(found[1])
    if quantity < 1:
        return Answer(text="An order needs at least one widget: how many do you want?")
    return Answer.of(("order_item", {"item": "widgets", "quantity": quantity}))


WORLDS: dict[str, World] = {
    "weather": World("one weather tool, resolving places", (get_weather,), weather),
    "directions": World("directions to a place", (directions_to,), directions),
    "conversions": World("currency conversion", (convert,), conversions),
    "flights": World("flights on days that exist", (book_any,), flights),
    "orders": World("orders of at least one", (order_item,), orders),
}


@dataclass(frozen=True)
class Case:
    world: str
    cached: str
    new: str
    pure: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.new}{' (pure)' if self.pure else ''}"


def place(template: str, cached: str, new: str, pure: bool = False) -> Case:
    return Case(
        "weather", template.format(cached), template.format(new), ("get_weather",) if pure else ()
    )


def check(side_name: str, case: Case) -> None:
    world = WORLDS[case.world]
    side = SIDES[side_name](world, case.pure)
    side.ask(case.cached)
    served = side.ask(case.new)
    wanted = world.oracle(world.system, case.new)
    assert served == wanted, f"served {served} for {case.new!r} ({side.decision}: {side.reason})"


def cases_on_every_side(cases: list[Case]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(
        ("side_name", "case"),
        [(side, case) for case in cases for side in sorted(SIDES)],
        ids=[f"{case}-{side}" for case in cases for side in sorted(SIDES)],
    )


# -- tool calls -----------------------------------------------------------------------------------

# Class: a description written in capitals reads as a name. English Title Case, and German,
# where every noun is capitalised: any German description of a place is "capitalised words".
DESCRIPTIONS_IN_CAPITALS = [
    place(EN_SHORT, "Paris", "The Capital Of Germany"),
    place(EN_SHORT, "Paris", "The German Capital"),
    place(EN, "Paris", "Capital Of Germany"),
    place(EN, "Paris", "City Of Light"),
    place(DE, "Paris", "Bayerns Hauptstadt", pure=True),
    place(DE, "Paris", "Deutschlands Hauptstadt", pure=True),
]


@cases_on_every_side(DESCRIPTIONS_IN_CAPITALS)
def test_a_description_in_capitals_is_not_a_name(side_name: str, case: Case) -> None:
    check(side_name, case)


# Class: a city's nickname or short form is a name, but not the name the model calls the tool
# with: it resolves "Philly" to Philadelphia.
NICKNAMES = [
    place(EN, "Paris", "Philly"),
    place(EN, "Paris", "Vegas"),
    # Not "Frisco": a city of 200,000 in Texas as much as San Francisco's nickname; copying
    # what the user wrote is what a model does too (a judgement call, left as it is).
    place(EN, "Paris", "Motown"),
    place(EN, "Paris", "Chi-Town"),
    place(EN, "Paris", "Windy City"),
    place(EN, "Paris", "Eternal City"),
    place(DE, "Paris", "Mainhattan", pure=True),
    place(PT, "Lisboa", "Sampa", pure=True),
    place(PT, "Lisboa", "Floripa", pure=True),
]


@cases_on_every_side(NICKNAMES)
def test_a_nickname_is_not_the_city_it_stands_for(side_name: str, case: Case) -> None:
    check(side_name, case)


# Class: countries as people name them, which ISO 3166 (pycountry) does not list: the
# constituent countries of the United Kingdom, short and former names ("Korea", "Turkey" for
# Türkiye, "America"), and their German spellings.
COUNTRIES_AS_PEOPLE_NAME_THEM = [
    place(EN, "Paris", "England"),
    place(EN, "Paris", "Scotland"),
    place(EN, "Paris", "Great Britain"),
    place(EN, "Paris", "Korea"),
    place(EN, "Paris", "Turkey"),
    place(EN, "Paris", "America"),
    place(DE, "Paris", "Schottland", pure=True),
    place(DE, "Paris", "Großbritannien", pure=True),
]


@cases_on_every_side(COUNTRIES_AS_PEOPLE_NAME_THEM)
def test_a_country_not_named_as_iso_names_it_is_no_city(side_name: str, case: Case) -> None:
    check(side_name, case)


# Class: a region, a state or a continent where a city stood (slots.py leaves regions out of
# the country list on purpose, so they are read as names).
REGIONS = [
    place(EN, "Paris", "Bavaria"),
    place(EN, "Paris", "California"),
    place(EN, "Paris", "Sicily"),
    place(EN, "Paris", "Europe"),
    place(DE, "Paris", "Bayern", pure=True),
    place(DE, "Paris", "Sizilien", pure=True),
    place(DE, "Paris", "Europa", pure=True),
    place(PT, "Lisboa", "Pernambuco", pure=True),
    place(PT, "Lisboa", "Minas Gerais", pure=True),
    # a part of a city's name rebound into a region's: "York" -> "England", a name for a name
    place(EN, "New York", "New England"),
]


@cases_on_every_side(REGIONS)
def test_a_region_is_no_city(side_name: str, case: Case) -> None:
    check(side_name, case)


# Class: a person where a place stood: both are "name" to the kind reader.
PEOPLE_FOR_PLACES = [
    Case(
        "directions",
        "Get me directions to Berlin",
        f"Get me directions to {person}",
        ("directions_to",),
    )
    for person in ("Anna Schmidt", "John Smith", "Maria Silva")
]


@cases_on_every_side(PEOPLE_FOR_PLACES)
def test_a_person_is_not_a_place(side_name: str, case: Case) -> None:
    check(side_name, case)


# Class: two places joined by a word of the name-particle list ("y" is a particle of Spanish
# names, and the Spanish "and"): one name to the kind reader, two calls to the model.
TWO_PLACES = [
    place(ES, "Sevilla", "Madrid y Barcelona", pure=True),
    place(ES, "Sevilla", "Granada y Málaga", pure=True),
]


@cases_on_every_side(TWO_PLACES)
def test_two_places_joined_by_a_particle_are_two_calls(side_name: str, case: Case) -> None:
    check(side_name, case)


# Class: a code of another shape where an ISO 4217 code stood: a currency's name in capitals
# (four or more letters, or not a code at all) or a country code (two letters).
CODES = [
    Case(
        "conversions", "Convert 100 dollars to EUR", f"Convert 100 dollars to {code}", ("convert",)
    )
    for code in ("EURO", "YEN", "POUNDS", "US", "UK")
]


@cases_on_every_side(CODES)
def test_a_code_of_another_shape_is_another_kind(side_name: str, case: Case) -> None:
    check(side_name, case)


# Class: a date of the cached date's layout that is no date ("a date keeps its layout" is all
# the kind reader asks): a booking for February 30th.
NO_DATES = [
    Case(
        "flights",
        "Book a flight to Rome on 2025-07-01",
        f"Book a flight to Rome on {day}",
        ("book_any",),
    )
    for day in ("2025-02-30", "2025-02-29", "2025-06-31", "2025-13-01")
]


@cases_on_every_side(NO_DATES)
def test_a_date_that_does_not_exist_is_not_a_date(side_name: str, case: Case) -> None:
    check(side_name, case)


# Class: a date's parts are rebound one by one ("07" -> "7", "01" -> "9": each an integer for
# an integer), so the date the call copied changes its layout, which the model writes as the
# tool takes it (ISO 8601).
DATE_PARTS = [
    Case(
        "flights",
        "Book a flight to Rome on 2025-07-01",
        f"Book a flight to Rome on {day}",
        ("book_any",),
    )
    for day in ("2025-7-9", "2025-07-9")
]


@cases_on_every_side(DATE_PARTS)
def test_a_date_is_rebound_whole_or_not_at_all(side_name: str, case: Case) -> None:
    check(side_name, case)


# Class: an integer that counts nothing: zero where a quantity of items stood ("every number
# counts something: keep its kind and bounds").
ZERO = [
    Case("orders", "Order 5 widgets", "Order 0 widgets"),
    Case("orders", "Encomende 5 widgets", "Encomende 0 widgets", ("order_item",)),
]


@cases_on_every_side(ZERO)
def test_zero_of_a_quantity_is_no_order(side_name: str, case: Case) -> None:
    check(side_name, case)


# -- the exact path and the equation family -------------------------------------------------------

# (cached request, its answer, new request, the oracle's answer, the forms of the result the
# right answer states: the cache may phrase it its own way)
Factorial = tuple[str, str, str, str, tuple[str, ...]]

# Class: "!" after a variable at the end of a request: "n!" is a factorial as much as "5!".
VARIABLE_FACTORIALS: list[Factorial] = [
    ("Let n = 5. What is n?", "n is 5.", "Let n = 5. What is n!", "n! = 5! = 120.", ("120",)),
    ("If k = 6, find k.", "k = 6.", "If k = 6, find k!", "k! = 6! = 720.", ("720",)),
    ("Sei n = 4. Berechne n.", "n = 4.", "Sei n = 4. Berechne n!", "n! = 4! = 24.", ("24",)),
    ("Seja n = 4. Calcule n.", "n = 4.", "Seja n = 4. Calcule n!", "n! = 4! = 24.", ("24",)),
]

# Class: "!" after a superscript (a word to the tokeniser, not a number).
SUPERSCRIPT_FACTORIALS: list[Factorial] = [
    (
        "What is 3\u00b2?",
        "3\u00b2 = 9.",
        "What is 3\u00b2!",
        "3\u00b2! = 9! = 362880.",
        ("362880",),
    ),
    ("What is 2\u00b3?", "2\u00b3 = 8.", "What is 2\u00b3!", "2\u00b3! = 8! = 40320.", ("40320",)),
]

# Class: "!" after a closing delimiter other than ")" and "]": an absolute value, a floor, a
# ceiling.
DELIMITER_FACTORIALS: list[Factorial] = [
    ("What is |-4|?", "|-4| = 4.", "What is |-4|!", "|-4|! = 4! = 24.", ("24",)),
    (
        "What is \u230a7.5\u230b?",
        "\u230a7.5\u230b = 7.",
        "What is \u230a7.5\u230b!",
        "7! = 5040.",
        ("5040",),
    ),
    (
        "What is \u23082.1\u2309?",
        "\u23082.1\u2309 = 3.",
        "What is \u23082.1\u2309!",
        "3! = 6.",
        ("6",),
    ),
]

# Class: the linear-equation family reads "2x + 1 = 9!" as "2x + 1 = 9" (the factorial, and a
# double factorial, against a number or a variable inside the equation is dropped), verifies
# the cached solution against it and serves it, or solves it itself.
HALF = ("181439.5", "181439,5", "362879/2")  # x of 2x + 1 = 9!
EQUATION_FACTORIALS: list[Factorial] = [
    (
        "Solve 2x + 1 = 9.",
        "2x = 8, so x = 4.",
        "Solve 2x + 1 = 9!",
        "9! = 362880, so 2x = 362879 and x = 181439.5.",
        HALF,
    ),
    (
        "Solve 2x + 1 = 9 for x.",
        "2x = 8, so x = 4.",
        "Solve 2x + 1 = 9! for x.",
        "9! = 362880, so 2x = 362879 and x = 181439.5.",
        HALF,
    ),
    (
        "Solve 2x + 1 = 9 for x.",
        "2x = 8, so x = 4.",
        "Solve 2x + 1 = (9)! for x.",
        "(9)! = 362880, so 2x = 362879 and x = 181439.5.",
        HALF,
    ),
    (
        "Solve 3x = 12.",
        "x = 4.",
        "Solve 3x = 12!",
        "12! = 479001600, so x = 159667200.",
        ("159667200",),
    ),
    ("Solve x - 2 = 4.", "x = 6.", "Solve x - 2 = 4!!", "4!! = 8, so x = 10.", ("10",)),
    ("What is n for n = 4?", "n = 4.", "What is n! for n = 4?", "n! = 4! = 24.", ("24",)),
    ("Find x when x = 6.", "x = 6.", "Find x! when x = 6.", "x! = 6! = 720.", ("720",)),
    (
        "Löse 2x + 1 = 9.",
        "2x = 8, also x = 4.",
        "Löse 2x + 1 = 9!",
        "9! = 362880, also 2x = 362879 und x = 181439,5.",
        HALF,
    ),
    (
        "Resolva 2x + 1 = 9.",
        "2x = 8, então x = 4.",
        "Resolva 2x + 1 = 9!",
        "9! = 362880, então 2x = 362879 e x = 181439,5.",
        HALF,
    ),
]


def _langchain(book: AnswerBook, first: str, second: str) -> str:
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())
    llm.invoke(first)
    return str(llm.invoke(second).content)


def _llama_index(book: AnswerBook, first: str, second: str) -> str:
    llm = LlamaStepCacheLLM(llm=book.llama_llm(), step_cache=StepCache())
    llm.complete(first)
    return llm.complete(second).text


WRAPPERS: dict[str, Callable[[AnswerBook, str, str], str]] = {
    "langchain": _langchain,
    "llama_index": _llama_index,
}


def check_factorial(wrapper: str, case: Factorial) -> None:
    cached, cached_answer, new, answer, results = case
    book = AnswerBook({cached: cached_answer, new: answer})
    served = WRAPPERS[wrapper](book, cached, new)
    # The right answer states the factorial's result (a whole number, not a part of one).
    stated = [
        r for r in results if re.search(rf"(?<![\d.,]){re.escape(r)}(?![\d]|[.,/]\d)", served)
    ]
    assert stated, f"served {served!r} for {new!r}, which states none of {results}"


def factorials(cases: list[Factorial]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(
        ("wrapper", "case"),
        [(wrapper, case) for case in cases for wrapper in WRAPPERS],
        ids=[f"{case[2]}-{wrapper}" for case in cases for wrapper in WRAPPERS],
    )


@factorials(VARIABLE_FACTORIALS)
def test_a_factorial_of_a_variable_is_meaning(wrapper: str, case: Factorial) -> None:
    check_factorial(wrapper, case)


@factorials(SUPERSCRIPT_FACTORIALS)
def test_a_factorial_of_a_power_is_meaning(wrapper: str, case: Factorial) -> None:
    check_factorial(wrapper, case)


@factorials(DELIMITER_FACTORIALS)
def test_a_factorial_after_any_closing_delimiter_is_meaning(wrapper: str, case: Factorial) -> None:
    check_factorial(wrapper, case)


@factorials(EQUATION_FACTORIALS)
def test_the_equation_family_keeps_a_factorial(wrapper: str, case: Factorial) -> None:
    check_factorial(wrapper, case)
