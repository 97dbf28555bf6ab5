"""JSON values a request states follow the request when they change, and nothing
else is carried over.

A development set of requests for a JSON object whose values the request states, in many
phrasings (English, German, Portuguese) and in the layouts models answer with (compact and
indented JSON, a ```json fence, a lead-in sentence naming a value, keys in another order). A
SIMULATED oracle model answers every request correctly (and the cache's partial calls), so
whatever comes out wrong was made by the cache. For each pair (a cached request, then the
same request with one stated value changed) through the real StepCache and both wrappers:

- the served answer is the oracle's answer to the new request (its object, and the text
  around it word for word): never a stale value or sentence;
- over the whole set, at least 90% of the changed values are served without a model call.

Then the controls that must never be served stale whatever the phrasing: values derived from
a changed value (is_adult, a country, an email, a total), an added or removed key, a changed
instruction ("in upper case", "as YAML"), a new value of another kind than the old one (a
description for a city, a sum or a decimal for an integer), and a value stated twice.

The phrasings here were written for this set; the acceptance checks are held out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from langchain_core.messages import BaseMessage

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import ScriptedChatModel, ScriptedLLM

Wrapper = Literal["langchain", "llama_index"]
WRAPPERS: tuple[Wrapper, ...] = ("langchain", "llama_index")
Layout = Literal["compact", "indented", "fenced", "lead", "reordered"]
LAYOUTS: tuple[Layout, ...] = ("compact", "indented", "fenced", "lead", "reordered")

# --------------------------------------------------------------------------- the oracle


@dataclass
class Oracle:
    """A SIMULATED model that knows the right answer to every request of this set (given
    when the request is made), written in one layout; a partial call gets the keys it asks
    for, from the right object for the conversation's request."""

    layout: Layout
    language: str
    answers: dict[str, Any] = field(default_factory=dict)
    calls: int = 0

    def expected(self, request: str) -> str:
        right = self.answers[request]
        return right if isinstance(right, str) else render(right, self.layout, self.language)

    def reply(self, turns: Sequence[str]) -> str:
        self.calls += 1
        request, last = turns[0], turns[-1]
        partial = re.match(r"^Return only a JSON object with the keys (.+?) and their values", last)
        if len(turns) > 1 and partial is not None:
            right = self.answers[request]
            asked = re.findall(r'"([^"]+)"', partial.group(1))
            return json.dumps({key: right[key] for key in asked}, ensure_ascii=False)
        return self.expected(request)

    def chat(self, messages: list[BaseMessage]) -> str:
        return self.reply([str(m.content) for m in messages if m.type == "human"])

    def text(self, prompt: str) -> str:
        if not prompt.startswith("user: "):
            return self.reply([prompt])
        parts = re.split(r"(?m)^(user|assistant|system): ", prompt)[1:]
        return self.reply([parts[i + 1].strip() for i in range(0, len(parts), 2)
                           if parts[i] == "user"])  # fmt: skip


LEADS = {
    "en": "Here is the JSON object for {first}:",
    "de": "Hier ist das JSON-Objekt für {first}:",
    "pt": "Aqui está o JSON pedido para {first}:",
}


def render(obj: dict[str, Any], layout: Layout, language: str) -> str:
    """``obj`` as a model writes it in ``layout``."""
    indented = json.dumps(obj, indent=2, ensure_ascii=False)
    if layout == "compact":
        return json.dumps(obj, ensure_ascii=False)
    if layout == "indented":
        return indented
    if layout == "fenced":
        return f"```json\n{indented}\n```"
    if layout == "lead":
        first = next(iter(obj.values()))
        return LEADS[language].format(first=first) + f"\n```json\n{indented}\n```"
    return json.dumps(dict(reversed(list(obj.items()))), ensure_ascii=False)


# --------------------------------------------------------------------------- serving


def serve(wrapper: Wrapper, oracle: Oracle, prompts: Sequence[str]) -> list[tuple[str, str, int]]:
    """Each prompt through one fresh cache: the answer, the decision, the model calls made."""
    cache = StepCache()
    served: list[tuple[str, str, int]] = []
    if wrapper == "langchain":
        llm = StepCacheLLM(llm=ScriptedChatModel(responder=oracle.chat), step_cache=cache)
        for prompt in prompts:
            before = oracle.calls
            message = llm.invoke(prompt)
            decision = message.response_metadata["stepcache"]["decision"]
            served.append((str(message.content), decision, oracle.calls - before))
    else:
        index_llm = LlamaStepCacheLLM(llm=ScriptedLLM(responder=oracle.text), step_cache=cache)
        for prompt in prompts:
            before = oracle.calls
            response = index_llm.complete(prompt)
            decision = response.additional_kwargs["stepcache"]["decision"]
            served.append((response.text, decision, oracle.calls - before))
    return served


def assert_right(served: str, expected: str) -> None:
    """The served answer is the oracle's: the same JSON values (a number is a number), and
    the same words around the object (a stale sentence is stale too)."""
    span = re.search(r"\{.*\}", expected, re.S)
    if span is None:
        assert served.split() == expected.split(), f"{served!r} is not {expected!r}"
        return
    got_span = re.search(r"\{.*\}", served, re.S)
    assert got_span is not None, f"no object served: {served!r}"
    got, want = json.loads(got_span.group()), json.loads(span.group())
    typed = [{k: (type(v).__name__, v) for k, v in o.items()} for o in (got, want)]
    assert typed[0] == typed[1], f"stale object: {got} instead of {want}"
    around = [
        (text[: s.start()] + " <object> " + text[s.end() :]).split()
        for text, s in ((served, got_span), (expected, span))
    ]
    assert around[0] == around[1], f"stale text around the object: {served!r}"


# --------------------------------------------------------------------------- the set

PERSON_KEYS = {"en": ("name", "age", "city"), "de": ("name", "alter", "wohnort"),
               "pt": ("nome", "idade", "cidade")}  # fmt: skip
PERSON_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("en", "Create a JSON object for {name}, age {age}, who lives in {city}."),
    ("en", "name {name}, age {age}, city {city}. Give me that as JSON."),
    ("en", "Name: {name}\nAge: {age}\nCity: {city}\nReturn this as a JSON object."),
    ("en", "{name} is {age} and lives in {city}. Make a JSON record of that."),
    ("en", "Convert to JSON: {name} ({age}) from {city}"),
    ("en", "Please produce JSON with name={name}, age={age}, city={city}."),
    ("de", "Erstelle ein JSON-Objekt für {name} ({age}) aus {city}."),
    ("de", "Bitte gib mir ein JSON mit Name {name}, Alter {age} und Wohnort {city}."),
    ("pt", "Gere um JSON com nome {name}, idade {age} e cidade {city}."),
    ("pt", "Preciso de um JSON: {name} tem {age} anos e mora em {city}."),
)
PERSON = {"name": "Anna", "age": 31, "city": "Lisbon"}
PERSON_CHANGES = ({"name": "Bruno"}, {"age": 47}, {"city": "São Paulo"})

PRODUCT_KEYS = {"en": ("product", "price", "in_stock"), "de": ("produkt", "preis", "lieferbar"),
                "pt": ("produto", "preco", "disponivel")}  # fmt: skip
PRODUCT_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("en", "I need a JSON object for the product {product}, price {price}, in stock: {flag}."),
    ("de", "Produkt {product}, Preis {price} Euro, lieferbar: {flag}. Als JSON bitte."),
    ("pt", "Crie um objeto JSON para o produto {product}, preço {price}, disponível: {flag}."),
)
FLAGS = {"en": ("yes", "no"), "de": ("ja", "nein"), "pt": ("sim", "não")}
PRODUCT = {"product": "Desk Lamp", "price": 24.99, "in_stock": True}
PRODUCT_CHANGES = ({"product": "Office Chair"}, {"price": 19.5}, {"in_stock": False})


def _price(value: float, language: str) -> str:
    text = f"{value:.2f}"
    return text.replace(".", ",") if language in ("de", "pt") else text


@dataclass(frozen=True)
class Pair:
    """A cached request, the new one, the right objects for both, and the answers' layout."""

    name: str
    language: str
    cached: str
    new: str
    cached_object: dict[str, Any]
    new_object: dict[str, Any]


def _person(language: str, template: str, facts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    keys = PERSON_KEYS[language]
    return template.format(**facts), dict(zip(keys, (facts["name"], facts["age"], facts["city"]),
                                              strict=True))  # fmt: skip


def _product(language: str, template: str, facts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    keys = PRODUCT_KEYS[language]
    words = {"product": facts["product"], "price": _price(facts["price"], language),
             "flag": FLAGS[language][0 if facts["in_stock"] else 1]}  # fmt: skip
    values = (facts["product"], facts["price"], facts["in_stock"])
    return template.format(**words), dict(zip(keys, values, strict=True))


def development_set() -> list[Pair]:
    """Every phrasing with every change of one stated value."""
    pairs: list[Pair] = []
    worlds: tuple[tuple[Any, ...], ...] = (
        (PERSON_TEMPLATES, PERSON, PERSON_CHANGES, _person),
        (PRODUCT_TEMPLATES, PRODUCT, PRODUCT_CHANGES, _product),
    )
    for templates, base, changes, build in worlds:
        for number, (language, template) in enumerate(templates):
            cached, cached_object = build(language, template, base)
            for change in changes:
                new, new_object = build(language, template, {**base, **change})
                name = f"{language}{number}-{next(iter(change))}"
                pairs.append(Pair(name, language, cached, new, cached_object, new_object))
    return pairs


PAIRS = development_set()


def run_pair(wrapper: Wrapper, pair: Pair, layout: Layout) -> tuple[str, int]:
    """Serve the pair; assert the new answer is right; its decision and model calls."""
    oracle = Oracle(layout, pair.language, {pair.cached: pair.cached_object,
                                           pair.new: pair.new_object})  # fmt: skip
    (_, first, _), (text, decision, calls) = serve(wrapper, oracle, [pair.cached, pair.new])
    assert first == "miss"
    assert_right(text, oracle.expected(pair.new))
    return decision, calls


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", PAIRS, ids=[pair.name for pair in PAIRS])
def test_a_changed_stated_value_is_never_served_stale(
    wrapper: Wrapper, layout: Layout, pair: Pair
) -> None:
    run_pair(wrapper, pair, layout)


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_most_changed_stated_values_need_no_model_call(wrapper: Wrapper) -> None:
    """The share served without a model call (measured over the whole set; every answer is
    also checked right). Goal: at least 90%."""
    free = total = 0
    missed: list[str] = []
    for pair in PAIRS:
        for layout in LAYOUTS:
            decision, calls = run_pair(wrapper, pair, layout)
            total += 1
            if calls == 0:
                free += 1
            else:
                missed.append(f"{pair.name}/{layout}: {decision}")
    assert free / total >= 0.9, f"{free}/{total} without a model call; missed: {missed[:20]}"


# --------------------------------------------------------------------------- controls

BASE = "Create a JSON object for {name}, age {age}, who lives in {city}."
COUNTRIES = {"Lisbon": "Portugal", "Porto": "Portugal", "Berlin": "Germany", "Paris": "France"}


def _obj(name: str, age: Any, city: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "age": age, "city": city, **more}


Control = tuple[str, dict[str, Any] | str, str, dict[str, Any] | str]


def _derived() -> list[Control]:
    adult = BASE + " Add whether they are an adult."
    country = BASE + " Include their country."
    email = BASE + " Include an email address made from the name."
    return [
        (
            adult.format(name="Anna", age=31, city="Lisbon"),
            _obj("Anna", 31, "Lisbon", is_adult=True),
            adult.format(name="Anna", age=15, city="Lisbon"),
            _obj("Anna", 15, "Lisbon", is_adult=False),
        ),
        (
            country.format(name="Anna", age=31, city="Lisbon"),
            _obj("Anna", 31, "Lisbon", country="Portugal"),
            country.format(name="Anna", age=31, city="Berlin"),
            _obj("Anna", 31, "Berlin", country="Germany"),
        ),
        (
            email.format(name="Anna", age=31, city="Lisbon"),
            _obj("Anna", 31, "Lisbon", email="anna@example.com"),
            email.format(name="Bruno", age=31, city="Lisbon"),
            _obj("Bruno", 31, "Lisbon", email="bruno@example.com"),
        ),
        (
            "JSON for an order: item Pen, price 2.5, quantity 4, and the total.",
            {"item": "Pen", "price": 2.5, "quantity": 4, "total": 10.0},
            "JSON for an order: item Pen, price 3.5, quantity 4, and the total.",
            {"item": "Pen", "price": 3.5, "quantity": 4, "total": 14.0},
        ),
        (
            "JSON for an order: item Pen, price 2.5, quantity 4, and the total.",
            {"item": "Pen", "price": 2.5, "quantity": 4, "total": 10.0},
            "JSON for an order: item Pen, price 2.5, quantity 6, and the total.",
            {"item": "Pen", "price": 2.5, "quantity": 6, "total": 15.0},
        ),
    ]


def _structure() -> list[Control]:
    cached = BASE.format(name="Anna", age=31, city="Lisbon")
    right = _obj("Anna", 31, "Lisbon")
    return [
        (cached, right, cached + " Also add their email.", {**right, "email": "anna@example.com"}),
        (cached, right, cached + " Leave out the age.", {"name": "Anna", "city": "Lisbon"}),
        (
            cached,
            right,
            cached + " Write every value in upper case.",
            {"name": "ANNA", "age": 31, "city": "LISBON"},
        ),
        (
            cached,
            right,
            cached.replace("JSON object", "YAML document"),
            "name: Anna\nage: 31\ncity: Lisbon",
        ),
        (
            cached,
            right,
            cached.replace("a JSON object", "YAML"),
            "name: Anna\nage: 31\ncity: Lisbon",
        ),
    ]


def _kinds() -> list[Control]:
    cached = BASE.format(name="Anna", age=31, city="Paris")
    right = _obj("Anna", 31, "Paris")
    return [
        (
            cached,
            right,
            BASE.format(name="Anna", age=31, city="the capital of Germany"),
            _obj("Anna", 31, "Berlin"),
        ),
        (
            cached,
            right,
            BASE.format(name="Anna", age="31 + 1", city="Paris"),
            _obj("Anna", 32, "Paris"),
        ),
        (
            cached,
            right,
            BASE.format(name="Anna", age="31.5", city="Paris"),
            _obj("Anna", 31.5, "Paris"),
        ),
        (
            cached,
            right,
            BASE.format(name="my best friend", age=31, city="Paris"),
            _obj("Maria", 31, "Paris"),
        ),
        (
            cached,
            right,
            BASE.format(name="Anna", age="thirty-two", city="Paris"),
            _obj("Anna", 32, "Paris"),
        ),
        (
            "Create a JSON object for Anna, 31, in room 31.",
            {"name": "Anna", "age": 31, "room": 31},
            "Create a JSON object for Anna, 31, in room 32.",
            {"name": "Anna", "age": 31, "room": 32},
        ),
        (
            "Create a JSON object with 10 minus 5 as the result and the label Ana.",
            {"result": 5, "label": "Ana"},
            "Create a JSON object with 10 minus 3 as the result and the label Ana.",
            {"result": 7, "label": "Ana"},
        ),
    ]


def _prose() -> list[Control]:
    adult = "Create a JSON object for Anna, age {age}. Say first whether she is an adult."
    names = (
        "Make a JSON object with the names {first} and Bob, sorted alphabetically, "
        "and the team Red."
    )
    return [
        (
            adult.format(age=31),
            'Anna is an adult:\n{"name": "Anna", "age": 31}',
            adult.format(age=15),
            'Anna is not an adult:\n{"name": "Anna", "age": 15}',
        ),
        (
            adult.format(age=31),
            '{"name": "Anna", "age": 31}\nShe is an adult.',
            adult.format(age=15),
            '{"name": "Anna", "age": 15}\nShe is not an adult.',
        ),
        (
            names.format(first="Anna"),
            {"names": ["Anna", "Bob"], "team": "Red"},
            names.format(first="Zoe"),
            {"names": ["Bob", "Zoe"], "team": "Red"},
        ),
    ]


def _coincidences() -> list[Control]:
    """Derived values equal to a key's name or to a word of every request (found by the
    random derived-values test): they are not values the request states."""
    ask = 'Return a JSON object with the keys "a0", "aa" and "b0" where "a0" is "{}".'
    return [
        (ask.format("aa"), {"a0": "aa", "aa": "a", "b0": "aa"},
         ask.format("ab"), {"a0": "ab", "aa": "a", "b0": "ba"}),
        (ask.format("aa"), {"a0": "aa", "aa": "a", "b0": "aa"},
         ask.format("bb"), {"a0": "bb", "aa": "b", "b0": "bb"}),
    ]  # fmt: skip


def _listed_keys() -> list[Control]:
    """A request that lists its keys: the derived value alone is asked again (a partial
    call), beside the stated values carried over."""
    ask = "Return a JSON object with the keys name, age and is_adult for {name}, {age}."
    return [
        (ask.format(name="Anna", age=31), {"name": "Anna", "age": 31, "is_adult": True},
         ask.format(name="Anna", age=15), {"name": "Anna", "age": 15, "is_adult": False}),
        (ask.format(name="Anna", age=31), {"name": "Anna", "age": 31, "is_adult": True},
         ask.format(name="Bruno", age=12), {"name": "Bruno", "age": 12, "is_adult": False}),
    ]  # fmt: skip


CONTROLS = [
    *_derived(),
    *_structure(),
    *_kinds(),
    *_prose(),
    *_coincidences(),
    *_listed_keys(),
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", ["compact", "lead"])
@pytest.mark.parametrize("control", CONTROLS, ids=[f"control{i}" for i in range(len(CONTROLS))])
def test_what_the_request_does_not_state_is_never_carried_over(
    wrapper: Wrapper, layout: Layout, control: Control
) -> None:
    cached, cached_right, new, new_right = control
    oracle = Oracle(layout, "en", {cached: cached_right, new: new_right})
    (_, first, _), (text, _, calls) = serve(wrapper, oracle, [cached, new])
    assert first == "miss"
    assert_right(text, oracle.expected(new))
    assert calls >= 1, "a value nobody can vouch for was served without the model"


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", ["compact", "lead"])
def test_a_value_stated_twice_follows_the_request_where_its_key_is_named(
    wrapper: Wrapper, layout: Layout
) -> None:
    """ "age 31, in room 31": each 31 has one origin, the one its key names right before it
    (the control above, where the age's 31 is not named, goes to the model)."""
    cached = "Create a JSON object for Anna, age 31, in room 31."
    new = "Create a JSON object for Anna, age 31, in room 32."
    oracle = Oracle(layout, "en", {cached: {"name": "Anna", "age": 31, "room": 31},
                                   new: {"name": "Anna", "age": 31, "room": 32}})  # fmt: skip
    (_, first, _), (text, decision, calls) = serve(wrapper, oracle, [cached, new])
    assert first == "miss"
    assert_right(text, oracle.expected(new))
    assert (decision, calls) == ("reuse", 0)


# --------------------------------------------------------------------------- a second set

# Written after the first set had been measured (and the rules adjusted on it), then measured
# once as it is: new worlds, new phrasings, a fourth language.
SECOND_TEMPLATES: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("en", "book", ("title", "author", "year"),
     "Could you turn this into JSON? Book: {title}, author: {author}, published {year}."),
    ("en", "book", ("title", "author", "year"),
     "{author} wrote {title} in {year}; put that in a JSON object please"),
    ("en", "flight", ("flight", "origin", "seats"),
     "Hey, quick one: I need a JSON for the flight {flight} leaving {origin} with {seats} seats. "
     "Thanks!"),
    ("en", "employee", ("name", "department", "salary"),
     "JSON please - employee {name}, department {department}, salary {salary}"),
    ("de", "book", ("titel", "autor", "jahr"),
     "Kannst du mir das als JSON geben? Buch: {title}, Autor: {author}, Jahr {year}."),
    ("de", "flight", ("flug", "abflugort", "plaetze"),
     "Flug {flight} ab {origin}, {seats} Plätze - bitte als JSON-Objekt."),
    ("pt", "book", ("titulo", "autor", "ano"),
     "Transforme em JSON: livro {title}, autor {author}, ano {year}."),
    ("pt", "employee", ("nome", "setor", "salario"),
     "Quero um objeto JSON do funcionário {name}, setor {department}, salário {salary}."),
    ("es", "flight", ("vuelo", "origen", "asientos"),
     "Dame un JSON con el vuelo {flight} desde {origin} y {seats} asientos."),
)  # fmt: skip
SECOND_WORLDS: dict[str, tuple[dict[str, Any], tuple[dict[str, Any], ...]]] = {
    "book": (
        {"title": "Blue Harbor", "author": "Maria Costa", "year": 1999},
        ({"title": "Silent Stars"}, {"author": "John Reed"}, {"year": 2005}),
    ),
    "flight": (
        {"flight": "TP1234", "origin": "Lisbon", "seats": 2},
        ({"flight": "LH400"}, {"origin": "Madrid"}, {"seats": 4}),
    ),
    "employee": (
        {"name": "Carla", "department": "marketing", "salary": 52000},
        ({"name": "Diego"}, {"department": "finance"}, {"salary": 61000}),
    ),
}
LEADS["es"] = "Aquí está el JSON para {first}:"


def second_set() -> list[Pair]:
    pairs: list[Pair] = []
    for number, (language, world, keys, template) in enumerate(SECOND_TEMPLATES):
        base, changes = SECOND_WORLDS[world]
        for change in changes:
            facts = {**base, **change}
            pairs.append(
                Pair(
                    f"second-{language}{number}-{next(iter(change))}",
                    language,
                    template.format(**base),
                    template.format(**facts),
                    dict(zip(keys, base.values(), strict=True)),
                    dict(zip(keys, facts.values(), strict=True)),
                )
            )
    return pairs


SECOND = second_set()


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", SECOND, ids=[pair.name for pair in SECOND])
def test_the_second_set_is_never_served_stale(wrapper: Wrapper, layout: Layout, pair: Pair) -> None:
    run_pair(wrapper, pair, layout)


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_the_second_set_needs_no_model_call_where_the_kind_is_kept(wrapper: Wrapper) -> None:
    """Measured once when written: 135 of 135 without a model call. The family then took the
    project's one definition of a slot's kind (``core.text.slots.same_kind``), under which a
    code keeps its shape: "TP1234" -> "LH400" was answered by the model; 120 of 135. A value
    the answer copied letter for letter now keeps its class instead (a code of any shape
    stays a code: ``json_object.value_kinds``): 135 of 135 again, every one right
    (:func:`test_the_second_set_is_never_served_stale`)."""
    kept = 0
    for pair in SECOND:
        for layout in LAYOUTS:
            kept += run_pair(wrapper, pair, layout)[1] == 0
    assert kept == 135, kept
