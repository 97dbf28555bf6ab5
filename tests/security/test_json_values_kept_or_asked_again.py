"""After a changed value, a JSON answer keeps what the unchanged request still states and
asks the model again for the rest, and only for the rest.

A development set written before the rules it measures (English, German, Portuguese, one
Spanish case), in five answer layouts, through both wrappers, with a SIMULATED oracle model
that answers every request (and every partial call) correctly: whatever comes out wrong was
made by the cache. Its classes:

- **normalised values**: the answer writes a value of the request in its own form (a date
  "April 12, 2025" / "12.04.2025" / "12 de abril de 2025" as "2025-04-12", "48.200 km" as
  48200, "$1,299" as 1299, "R$ 450.000" as 450000) while another value changes;
- **lists** the request states in order ("sizes 8, 9, 10, 11"), kept when another value
  changes; a list with a changed item, or in another order than the request's, asked again;
- **yes/no flips** ("Active: yes" -> "no", "vegetariano: sim" -> "não");
- **dependent values** (an adult flag after a changed age, a total after a changed quantity,
  a country after a changed city): asked again alone (a partial call), never kept;
- **soundness**: a value listed beside its alternatives ("volljaehrig (true/false)") is a
  type, not a statement; a fixed value that the request qualifies ("where greeting is
  'hello' in the main language spoken in that city") is no fixed value.

Measured: served without a full answer (exact, reuse or patch) and wrong answers; every
answer is checked against the oracle's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.security.test_json_stated_values_follow_the_request import (
    LAYOUTS,
    WRAPPERS,
    Layout,
    Oracle,
    Wrapper,
    assert_right,
    serve,
)

# Decisions that served the new request without a full answer from the model.
WITHOUT_FULL_ANSWER = frozenset({"exact", "reuse", "patch"})


@dataclass(frozen=True)
class Case:
    """A cached request and its right object, then a new request and its right object.
    ``kind``: the class of the case; ``asked``: the new answer needs the model (a value may
    depend on the change), in a partial call at best."""

    name: str
    kind: str
    language: str
    cached: str
    cached_object: dict[str, Any]
    new: str
    new_object: dict[str, Any]
    asked: bool = False


def _pairs(
    kind: str,
    name: str,
    language: str,
    template: str,
    base: dict[str, Any],
    shape: Any,
    changes: tuple[dict[str, Any], ...],
    asked: bool = False,
) -> Iterator[Case]:
    """One case per change of ``base`` (the facts the template is written with); ``shape``
    makes the right object of the facts."""
    for change in changes:
        facts = {**base, **change}
        yield Case(
            f"{kind}-{name}-{'-'.join(change)}",
            kind,
            language,
            template.format(**base),
            shape(base),
            template.format(**facts),
            shape(facts),
            asked,
        )


def _normalised() -> Iterator[Case]:
    yield from _pairs(
        "normalised", "gala", "en",
        "Create a JSON object for the event {event} on {when} in {city} with {guests} guests.",
        {"event": "Spring Gala", "when": "April 12, 2025", "iso": "2025-04-12",
         "city": "Boston", "guests": 120},
        lambda f: {"event": f["event"], "date": f["iso"], "city": f["city"],
                   "guests": f["guests"]},
        ({"guests": 150}, {"city": "Chicago"}, {"when": "May 3, 2025", "iso": "2025-05-03"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "born", "en",
        "Turn this into JSON: {name}, born {born}, email {email}.",
        {"name": "Liam Carter", "born": "3 March 1990", "iso": "1990-03-03",
         "email": "liam@example.com"},
        lambda f: {"name": f["name"], "birth_date": f["iso"], "email": f["email"]},
        ({"name": "Noah Brooks"}, {"email": "l.carter@example.org"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "car", "en",
        "I need a JSON record of my car: {year} Toyota Corolla, {km} km, color {color}.",
        {"year": 2018, "km": 48200, "color": "silver"},
        lambda f: {"make": "Toyota", "model": "Corolla", "year": f["year"],
                   "mileage_km": f["km"], "color": f["color"]},
        ({"color": "blue"}, {"km": 51000}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "recipe", "en",
        "JSON for this recipe please: {dish}, prep time {prep} minutes, {servings} servings.",
        {"dish": "pancakes", "prep": 25, "servings": 4},
        lambda f: {"dish": f["dish"], "prep_time_minutes": f["prep"],
                   "servings": f["servings"]},
        ({"servings": 6}, {"prep": 30}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "order", "en",
        "Put this order in JSON: order #{number}, total {total} USD, customer {customer}.",
        {"number": 10482, "total": "57.40", "customer": "Ana Reyes"},
        lambda f: {"order_id": f["number"], "total": float(f["total"]), "currency": "USD",
                   "customer": f["customer"]},
        ({"customer": "Mia Stone"}, {"total": "63.15"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "seat", "en",
        "Booking as JSON: passenger {name}, seat {seat}, flight BA117.",
        {"name": "Tom Lee", "seat": "23C"},
        lambda f: {"passenger": f["name"], "seat": f["seat"], "flight": "BA117"},
        ({"name": "Eva Stone"}, {"seat": "14A"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "baker", "en",
        "Make a JSON for {name}, age {age}, who lives at 221B Baker Street.",
        {"name": "Sherlock Holmes", "age": 40},
        lambda f: {"name": f["name"], "age": f["age"], "address": "221B Baker Street"},
        ({"age": 41},),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "dog", "en",
        "JSON for my dog {name}: {age} years old, and she's vaccinated.",
        {"name": "Rex", "age": 3},
        lambda f: {"name": f["name"], "species": "dog", "age": f["age"], "vaccinated": True},
        ({"age": 4}, {"name": "Luna"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "laptop", "en",
        "Create JSON for the laptop ThinkPad X1 that costs {price} and weighs {kg} kg.",
        {"price": "$1,299", "usd": 1299, "kg": 1.1},
        lambda f: {"product": "ThinkPad X1", "price_usd": f["usd"], "weight_kg": f["kg"]},
        ({"kg": 1.3},),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "booking", "de",
        "Erstelle ein JSON für die Buchung von Frau {name} am {when}, Zimmer {room}, "
        "{nights} Nächte.",
        {"name": "Weber", "when": "12.04.2025", "iso": "2025-04-12", "room": 214, "nights": 3},
        lambda f: {"name": f["name"], "datum": f["iso"], "zimmer": f["room"],
                   "naechte": f["nights"]},
        ({"nights": 5}, {"room": 305}, {"when": "19.04.2025", "iso": "2025-04-19"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "termin", "de",
        "Bitte als JSON: Termin am {when} mit {doctor} in Raum {room}.",
        {"when": "5. Mai 2025", "iso": "2025-05-05", "doctor": "Dr. Klein", "room": 12},
        lambda f: {"datum": f["iso"], "arzt": f["doctor"], "raum": f["room"]},
        ({"room": 7},),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "auto", "de",
        "Gib mir JSON für mein Auto: VW Golf, Baujahr {year}, Kilometerstand {km} km.",
        {"year": 2019, "km": "48.200", "value": 48200},
        lambda f: {"marke": "VW", "modell": "Golf", "baujahr": f["year"],
                   "kilometerstand": f["value"]},
        ({"year": 2020},),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "bestellung", "de",
        "JSON bitte: Bestellung Nr. 5531, Summe {total} EUR, Kunde {name}.",
        {"total": "89,90", "name": "Jonas Berg"},
        lambda f: {"bestellnummer": 5531, "summe": float(f["total"].replace(",", ".")),
                   "waehrung": "EUR", "kunde": f["name"]},
        ({"name": "Lea Wolf"},),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "hund", "de",
        "Erstelle ein JSON für meinen Hund {name}, {age} Jahre alt, er ist geimpft.",
        {"name": "Bello", "age": 5},
        lambda f: {"name": f["name"], "tierart": "Hund", "alter": f["age"], "geimpft": True},
        ({"age": 6},),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "consulta", "pt",
        "Crie um JSON para a consulta de {name} em {when}, sala {room}.",
        {"name": "Maria Souza", "when": "12 de abril de 2025", "iso": "2025-04-12", "room": 5},
        lambda f: {"paciente": f["name"], "data": f["iso"], "sala": f["room"]},
        ({"room": 8}, {"name": "Clara Nunes"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "imovel", "pt",
        "Preciso de um JSON do imóvel: apartamento em {city}, 85 m², preço R$ {price}.",
        {"city": "Porto", "price": "450.000", "value": 450000},
        lambda f: {"tipo": "apartamento", "cidade": f["city"], "area_m2": 85,
                   "preco": f["value"]},
        ({"city": "Braga"},),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "gata", "pt",
        "Faça um JSON para minha gata {name}, {age} anos, ela é vacinada.",
        {"name": "Mimi", "age": 2},
        lambda f: {"nome": f["name"], "especie": "gata", "idade": f["age"], "vacinada": True},
        ({"age": 3},),
    )  # fmt: skip


def _lists() -> Iterator[Case]:
    yield from _pairs(
        "list", "shoe", "en",
        "JSON for the shoe Trail Runner: sizes {sizes}, price {price}.",
        {"sizes": "8, 9, 10, 11", "price": 89},
        lambda f: {"product": "Trail Runner",
                   "sizes": [int(s) for s in f["sizes"].split(", ")], "price": f["price"]},
        ({"price": 95},),
    )  # fmt: skip
    yield from _pairs(
        "list", "shoe", "en",
        "JSON for the shoe Trail Runner: sizes {sizes}, price {price}.",
        {"sizes": "8, 9, 10, 11", "price": 89},
        lambda f: {"product": "Trail Runner",
                   "sizes": [int(s) for s in f["sizes"].split(", ")], "price": f["price"]},
        ({"sizes": "8, 9, 10, 12"},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "list", "post", "en",
        "Create a JSON object for the blog post {title} with tags: {tags}.",
        {"title": "Morning Miles", "tags": "running, trail"},
        lambda f: {"title": f["title"], "tags": f["tags"].split(", ")},
        ({"title": "Evening Laps"},),
    )  # fmt: skip
    yield from _pairs(
        "list", "post", "en",
        "Create a JSON object for the blog post {title} with tags: {tags}.",
        {"title": "Morning Miles", "tags": "running, trail"},
        lambda f: {"title": f["title"], "tags": f["tags"].split(", ")},
        ({"tags": "running, road"},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "list", "shirt", "de",
        "Erstelle JSON für das T-Shirt {name}, Farben: rot, blau, grün, Preis {price} Euro.",
        {"name": "Basic Tee", "price": 15},
        lambda f: {"produkt": f["name"], "farben": ["rot", "blau", "grün"],
                   "preis": f["price"]},
        ({"price": 19},),
    )  # fmt: skip
    yield from _pairs(
        "list", "bolo", "pt",
        "JSON da receita {name}, ingredientes: farinha, ovos e leite, {portions} porções.",
        {"name": "Bolo Simples", "portions": 8},
        lambda f: {"receita": f["name"], "ingredientes": ["farinha", "ovos", "leite"],
                   "porcoes": f["portions"]},
        ({"portions": 12},),
    )  # fmt: skip
    yield from _pairs(
        "list", "team", "en",
        "JSON for the team {team} with the members Zoe, Anna and Bob sorted alphabetically.",
        {"team": "Red"},
        lambda f: {"team": f["team"], "members": ["Anna", "Bob", "Zoe"]},
        ({"team": "Blue"},),
        asked=True,
    )  # fmt: skip


def _flips() -> Iterator[Case]:
    yield from _pairs(
        "flip", "user", "en",
        "Create a JSON object for the user jsmith, role editor. Active: {flag}",
        {"flag": "yes"},
        lambda f: {"username": "jsmith", "role": "editor", "active": f["flag"] == "yes"},
        ({"flag": "no"},),
    )  # fmt: skip
    yield from _pairs(
        "flip", "prato", "pt",
        "Crie um JSON para o prato Moqueca, preço 42, vegetariano: {flag}.",
        {"flag": "sim"},
        lambda f: {"prato": "Moqueca", "preco": 42, "vegetariano": f["flag"] == "sim"},
        ({"flag": "não"},),
    )  # fmt: skip
    yield from _pairs(
        "flip", "wohnung", "de",
        "JSON für die Wohnung in Köln, 3 Zimmer, Haustiere erlaubt: {flag}.",
        {"flag": "ja"},
        lambda f: {"stadt": "Köln", "zimmer": 3, "haustiere_erlaubt": f["flag"] == "ja"},
        ({"flag": "nein"},),
    )  # fmt: skip
    yield from _pairs(
        "flip", "lamp", "en",
        "Product JSON: Desk Lamp, in stock: yes, on sale: {flag}.",
        {"flag": "yes"},
        lambda f: {"product": "Desk Lamp", "in_stock": True, "on_sale": f["flag"] == "yes"},
        ({"flag": "no"},),
    )  # fmt: skip
    yield from _pairs(
        "flip", "hotel", "es",
        "Dame un JSON del hotel Sol, 4 estrellas, piscina: {flag}.",
        {"flag": "sí"},
        lambda f: {"hotel": "Sol", "estrellas": 4, "piscina": f["flag"] == "sí"},
        ({"flag": "no"},),
    )  # fmt: skip


def _dependent() -> Iterator[Case]:
    yield from _pairs(
        "dependent", "adult", "en",
        "Create a JSON object for {name}, age {age}, who lives in Lisbon. "
        "Add whether she is an adult.",
        {"name": "Anna", "age": 31},
        lambda f: {"name": f["name"], "age": f["age"], "city": "Lisbon",
                   "is_adult": f["age"] >= 18},
        ({"age": 15},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "dependent", "total", "en",
        "JSON for an order: item Pen, price 2.5, quantity {quantity}, and the total.",
        {"quantity": 4},
        lambda f: {"item": "Pen", "price": 2.5, "quantity": f["quantity"],
                   "total": 2.5 * f["quantity"]},
        ({"quantity": 6},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "dependent", "land", "de",
        "Erstelle ein JSON für Jonas ({age}) aus {city}, mit dem Land und ob er volljährig ist.",
        {"age": 17, "city": "Hamburg"},
        lambda f: {"name": "Jonas", "alter": f["age"], "stadt": f["city"],
                   "land": "Deutschland", "volljaehrig": f["age"] >= 18},
        ({"age": 19}, {"city": "Berlin"}),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "dependent", "pais", "pt",
        "Gere um JSON com nome Ana, idade 31, cidade {city} e o país.",
        {"city": "Porto", "country": "Portugal"},
        lambda f: {"nome": "Ana", "idade": 31, "cidade": f["city"], "pais": f["country"]},
        ({"city": "Madrid", "country": "Espanha"},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "dependent", "area", "en",
        "Make a JSON for the rectangle with width {width} and height 5, including its area.",
        {"width": 4},
        lambda f: {"width": f["width"], "height": 5, "area": f["width"] * 5},
        ({"width": 6},),
        asked=True,
    )  # fmt: skip


def _soundness() -> Iterator[Case]:
    yield from _pairs(
        "alternatives", "volljaehrig", "de",
        "Erstelle ein JSON für Lena, {age} Jahre, mit einem Feld volljaehrig (true/false).",
        {"age": 17},
        lambda f: {"name": "Lena", "alter": f["age"], "volljaehrig": f["age"] >= 18},
        ({"age": 19},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "alternatives", "adult", "en",
        "JSON for Tom, {age}, with a field adult (yes/no).",
        {"age": 16},
        lambda f: {"name": "Tom", "age": f["age"], "adult": f["age"] >= 18},
        ({"age": 21},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "alternatives", "maior", "pt",
        "JSON para Rita, {age} anos, com o campo maior_de_idade (sim/não).",
        {"age": 15},
        lambda f: {"nome": "Rita", "idade": f["age"], "maior_de_idade": f["age"] >= 18},
        ({"age": 20},),
        asked=True,
    )  # fmt: skip
    greetings = {"Rome": "Ciao", "Madrid": "Hola", "Berlin": "Hallo"}
    yield from _pairs(
        "qualified", "greeting", "en",
        "Create a JSON object for the city {city} with the keys city and greeting, where "
        "greeting is 'hello' in the main language spoken in that city.",
        {"city": "Rome"},
        lambda f: {"city": f["city"], "greeting": greetings[f["city"]]},
        ({"city": "Madrid"}, {"city": "Berlin"}),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "qualified", "title", "en",
        'Create a JSON object with the keys name and title, where title is "Dr." followed by '
        "the surname, for {name}.",
        {"name": "Maria Lopez", "title": "Dr. Lopez"},
        lambda f: {"name": f["name"], "title": f["title"]},
        ({"name": "Paul Weiss", "title": "Dr. Weiss"},),
        asked=True,
    )  # fmt: skip


CASES: tuple[Case, ...] = (
    *_normalised(),
    *_lists(),
    *_flips(),
    *_dependent(),
    *_soundness(),
)


@dataclass
class Served:
    """One case served in one layout through one wrapper."""

    case: Case
    layout: Layout
    wrapper: Wrapper
    decision: str
    calls: int
    wrong: str | None

    @property
    def without_full_answer(self) -> bool:
        return self.wrong is None and self.decision in WITHOUT_FULL_ANSWER


def serve_case(wrapper: Wrapper, case: Case, layout: Layout) -> Served:
    """Serve the cached request, then the new one; what was served for the new one."""
    oracle = Oracle(layout, case.language,
                    {case.cached: case.cached_object, case.new: case.new_object})  # fmt: skip
    (_, first, _), (text, decision, calls) = serve(wrapper, oracle, [case.cached, case.new])
    wrong: str | None = None
    try:
        assert first == "miss", f"the first request was {first}"
        assert_right(text, oracle.expected(case.new))
    except AssertionError as error:
        wrong = str(error)
    return Served(case, layout, wrapper, decision, calls, wrong)


def measure(cases: tuple[Case, ...] = CASES) -> list[Served]:
    return [
        serve_case(wrapper, case, layout)
        for case in cases
        for layout in LAYOUTS
        for wrapper in WRAPPERS
    ]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_no_answer_is_ever_wrong(wrapper: Wrapper, layout: Layout, case: Case) -> None:
    served = serve_case(wrapper, case, layout)
    assert served.wrong is None, served.wrong
    if case.asked:
        assert served.calls >= 1, "a value that may depend on the change was kept"


# --------------------------------------------------------------------------- a second set

# Written after the rules were developed on the set above, then measured once as it is:
# new worlds, new phrasings, other date and number layouts.


def _second() -> Iterator[Case]:
    yield from _pairs(
        "normalised", "run", "en",
        "Log this run as JSON: 10.5 km on {when}, time {minutes} minutes, felt great.",
        {"when": "June 1st, 2025", "iso": "2025-06-01", "minutes": 52},
        lambda f: {"distance_km": 10.5, "date": f["iso"], "duration_min": f["minutes"],
                   "note": "felt great"},
        ({"minutes": 49}, {"when": "June 8th, 2025", "iso": "2025-06-08"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "invoice", "en",
        "JSON for the invoice INV-2041 dated 2025-03-31, amount {amount}, client {client}.",
        {"amount": "$2,450.00", "value": 2450.0, "client": "Northwind"},
        lambda f: {"invoice": "INV-2041", "date": "2025-03-31", "amount": f["value"],
                   "client": f["client"]},
        ({"client": "Contoso"}, {"amount": "$2,980.00", "value": 2980.0}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "cat", "en",
        "Please make JSON: my cat Tom, 7 years, weighs {kg} kg, indoor: {flag}.",
        {"kg": 4.2, "flag": "yes"},
        lambda f: {"name": "Tom", "species": "cat", "age": 7, "weight_kg": f["kg"],
                   "indoor": f["flag"] == "yes"},
        ({"kg": 4.5}, {"flag": "no"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "room", "en",
        "Store this as JSON - room {room}, capacity {capacity}, projector: {flag}, floor 2.",
        {"room": "12B", "capacity": 40, "flag": "no"},
        lambda f: {"room": f["room"], "capacity": f["capacity"],
                   "projector": f["flag"] == "yes", "floor": 2},
        ({"capacity": 60}, {"flag": "yes"}, {"room": "14C"}),
    )  # fmt: skip
    yield from _pairs(
        "list", "playlist", "en",
        "JSON of the playlist {name} with songs: Africa, Hey Jude, Wonderwall.",
        {"name": "Road Trip"},
        lambda f: {"playlist": f["name"], "songs": ["Africa", "Hey Jude", "Wonderwall"]},
        ({"name": "Night Drive"},),
    )  # fmt: skip
    yield from _pairs(
        "dependent", "vote", "en",
        "Make a JSON for Priya Nair, {age}, software engineer, and add whether she can vote "
        "in the US.",
        {"age": 28},
        lambda f: {"name": "Priya Nair", "age": f["age"], "job": "software engineer",
                   "can_vote": f["age"] >= 18},
        ({"age": 16},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "normalised", "lauf", "de",
        "Lege ein JSON an: Lauf am {when} über 10,5 km in {minutes} Minuten.",
        {"when": "01.06.2025", "iso": "2025-06-01", "minutes": 52},
        lambda f: {"datum": f["iso"], "distanz_km": 10.5, "dauer_min": f["minutes"]},
        ({"minutes": 49}, {"when": "08.06.2025", "iso": "2025-06-08"}),
    )  # fmt: skip
    yield from _pairs(
        "list", "rezept", "de",
        "Als JSON: Rezept Pfannkuchen, Zutaten: Mehl, Milch, Eier, für {people} Personen.",
        {"people": 4},
        lambda f: {"rezept": "Pfannkuchen", "zutaten": ["Mehl", "Milch", "Eier"],
                   "personen": f["people"]},
        ({"people": 6},),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "wohnung", "de",
        "JSON bitte: Wohnung in {city}, 68 m², Miete {rent} Euro, Balkon: {flag}.",
        {"city": "Leipzig", "rent": "1.150", "value": 1150, "flag": "ja"},
        lambda f: {"stadt": f["city"], "flaeche_m2": 68, "miete": f["value"],
                   "balkon": f["flag"] == "ja"},
        ({"rent": "1.290", "value": 1290}, {"flag": "nein"}, {"city": "Dresden"}),
    )  # fmt: skip
    yield from _pairs(
        "dependent", "stern", "de",
        "Erstelle JSON für {name}, geboren am 3. Juli 1985, und gib sein Sternzeichen an.",
        {"name": "Paul Becker"},
        lambda f: {"name": f["name"], "geburtsdatum": "1985-07-03", "sternzeichen": "Krebs"},
        ({"name": "Max Vogel"},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "normalised", "voo", "pt",
        "Monte um JSON: voo LA3050 de {origin} em 1 de junho de 2025, {people} passageiros.",
        {"origin": "Recife", "people": 2},
        lambda f: {"voo": "LA3050", "origem": f["origin"], "data": "2025-06-01",
                   "passageiros": f["people"]},
        ({"people": 3}, {"origin": "Salvador"}),
    )  # fmt: skip
    yield from _pairs(
        "normalised", "cafeteira", "pt",
        "JSON do produto Cafeteira Turbo, preço R$ {price}, voltagem 220 V, em estoque: {flag}.",
        {"price": "1.299,90", "value": 1299.9, "flag": "sim"},
        lambda f: {"produto": "Cafeteira Turbo", "preco": f["value"], "voltagem": 220,
                   "em_estoque": f["flag"] == "sim"},
        ({"flag": "não"}, {"price": "1.349,90", "value": 1349.9}),
    )  # fmt: skip
    yield from _pairs(
        "list", "sorvete", "pt",
        "Quero um JSON com os sabores: morango, chocolate, baunilha e o nome {name}.",
        {"name": "Sorveteria Lua"},
        lambda f: {"nome": f["name"], "sabores": ["morango", "chocolate", "baunilha"]},
        ({"name": "Sorveteria Sol"},),
    )  # fmt: skip
    yield from _pairs(
        "dependent", "maior", "pt",
        "Gere um JSON para Lucas, {age} anos, de Curitiba, dizendo se ele é maior de idade.",
        {"age": 17},
        lambda f: {"nome": "Lucas", "idade": f["age"], "cidade": "Curitiba",
                   "maior_de_idade": f["age"] >= 18},
        ({"age": 18},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "alternatives", "drink", "en",
        "JSON for Mia, {age}, with a field can_drink_in_us (true or false).",
        {"age": 20},
        lambda f: {"name": "Mia", "age": f["age"], "can_drink_in_us": f["age"] >= 21},
        ({"age": 22},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "alternatives", "waehlen", "de",
        "Erstelle JSON für Ben, {age} Jahre, Feld darf_waehlen (ja/nein).",
        {"age": 16},
        lambda f: {"name": "Ben", "alter": f["age"], "darf_waehlen": f["age"] >= 18},
        ({"age": 18},),
        asked=True,
    )  # fmt: skip
    thanks = {"Brazil": "obrigado", "Germany": "danke"}
    yield from _pairs(
        "qualified", "thanks", "en",
        'Return a JSON object with the keys word and translation, where translation is "thank '
        'you" in the language of {country}, and word is "thank you".',
        {"country": "Brazil"},
        lambda f: {"word": "thank you", "translation": thanks[f["country"]]},
        ({"country": "Germany"},),
        asked=True,
    )  # fmt: skip
    yield from _pairs(
        "list", "players", "en",
        "JSON: team Falcons, players Kim, Lee, {third}.",
        {"third": "Park"},
        lambda f: {"team": "Falcons", "players": ["Kim", "Lee", f["third"]]},
        ({"third": "Choi"},),
        asked=True,
    )  # fmt: skip


SECOND_CASES: tuple[Case, ...] = tuple(_second())


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", SECOND_CASES, ids=[case.name for case in SECOND_CASES])
def test_the_second_set_is_never_wrong(wrapper: Wrapper, layout: Layout, case: Case) -> None:
    served = serve_case(wrapper, case, layout)
    assert served.wrong is None, served.wrong
    if case.asked:
        assert served.calls >= 1, "a value that may depend on the change was kept"


@pytest.mark.parametrize(
    ("cases", "least"),
    [pytest.param(CASES, 0.88, id="first"), pytest.param(SECOND_CASES, 0.85, id="second")],
)
def test_most_changes_are_served_without_a_full_answer(
    cases: tuple[Case, ...], least: float
) -> None:
    """Measured when the rules were written: the first set 466 of 520 (89.6%) served without
    a full answer (main: 118 of 520, 60 wrong), the second, measured once, 250 of 280
    (89.3%; main: 20 of 280, 30 wrong); no answer wrong in either. The misses: a partial
    call that would not pay (a small object whose changed list or derived value is most of
    it), an e-mail of another shape, a city replaced by a name that is also a country's
    ("Recife" -> "Salvador"), a change of a value the object does not hold ("Brazil")."""
    served = measure(cases)
    wrong = [s for s in served if s.wrong is not None]
    assert not wrong, wrong[0].wrong
    share = sum(s.without_full_answer for s in served) / len(served)
    assert share >= least, f"{share:.1%} served without a full answer"


def _gate(old: str, new: str) -> list[str] | str:
    from stepcache_integrations.core.tasks import default_registry
    from stepcache_integrations.core.tasks.soundness import account_changes
    from stepcache_integrations.core.text import compare
    from stepcache_integrations.core.verifiers.base import VerifyContext

    families = default_registry().recognise(new, {}).families
    found = account_changes(VerifyContext(new, old, compare(old, new)), families)
    return found if isinstance(found, str) else [account.what for account in found]


def test_the_polarity_gate_opens_only_for_a_yes_no_a_json_answer_may_state() -> None:
    """The JSON family takes on a yes/no turned around as a stated value (the object must
    then trace it to a boolean); a negation beside it, a negation in a request that asks for
    no JSON, or a negated form, still turn the meaning around for every family."""
    old = "Create a JSON object for the user jsmith. Active: yes"
    assert _gate(old, old.replace("yes", "no")) == ["a value the answer took from the request"]
    turned = _gate(old, old.replace("user jsmith", "user who can't log in").replace("yes", "no"))
    assert isinstance(turned, str) and "turned around" in turned
    assert "turned around" in str(_gate("Is it safe? Answer: yes", "Is it safe? Answer: no"))
    assert "turned around" in str(_gate(old, old.replace("Active", "Inactive")))
