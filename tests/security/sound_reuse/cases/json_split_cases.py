"""JSON objects where a key added to the key list changes what a kept key means.

"Return a JSON object with the keys name and born for the author of Dracula" is answered
`{"name": "Bram Stoker", "born": 1847}`; asked with the keys "name, surname and born", a good
model answers `{"name": "Bram", "surname": "Stoker", "born": 1847}`: beside `surname`, `name`
is the first name. The same holds for a value and its unit (`"height": "8849 m"` ->
`8849` and `"unit": "m"`), a price and its currency, an address and its postcode, a city and
its country, a date and its time. The added key takes a part of a kept value, so the kept
value is not what the new request asks for. Facts are common knowledge written here by hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.security.sound_reuse.cases.common import STREAMED, case, js

# (what the object is about, the cached object, the object with the added key(s)); the
# key list of each request is its object's keys in order.
SPLITS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "the author of Dracula",
        {"name": "Bram Stoker", "born": 1847},
        {"name": "Bram", "surname": "Stoker", "born": 1847},
    ),
    (
        "the playwright who wrote Hamlet",
        {"name": "William Shakespeare", "born": 1564},
        {"name": "William", "surname": "Shakespeare", "born": 1564},
    ),
    (
        "the first person to walk on the Moon",
        {"name": "Neil Armstrong", "year": 1969},
        {"name": "Neil", "last_name": "Armstrong", "year": 1969},
    ),
    (
        "the scientist who discovered radium",
        {"name": "Marie Curie", "nobel_prizes": 2},
        {"name": "Marie", "last_name": "Curie", "nobel_prizes": 2},
    ),
    (
        "a flat white that costs €3.50",
        {"item": "flat white", "price": "€3.50"},
        {"item": "flat white", "price": 3.5, "currency": "EUR"},
    ),
    (
        "a train ticket from Leeds to York that costs £12.40",
        {"route": "Leeds to York", "price": "£12.40"},
        {"route": "Leeds to York", "price": 12.4, "currency": "GBP"},
    ),
    (
        "the address 221B Baker Street, London",
        {"street": "221B Baker Street", "city": "London"},
        {"number": "221B", "street": "Baker Street", "city": "London"},
    ),
    (
        "the address 10 Downing Street, London SW1A 2AA",
        {"address": "10 Downing Street, London SW1A 2AA", "country": "United Kingdom"},
        {
            "address": "10 Downing Street, London",
            "postcode": "SW1A 2AA",
            "country": "United Kingdom",
        },
    ),
    (
        "the Eiffel Tower",
        {"landmark": "Eiffel Tower", "city": "Paris, France"},
        {"landmark": "Eiffel Tower", "city": "Paris", "country": "France"},
    ),
    (
        "the Colosseum",
        {"landmark": "Colosseum", "location": "Rome, Italy"},
        {"landmark": "Colosseum", "location": "Rome", "country": "Italy"},
    ),
    (
        "Mount Everest",
        {"mountain": "Mount Everest", "height": "8849 m"},
        {"mountain": "Mount Everest", "height": 8849, "unit": "m"},
    ),
    (
        "normal human body temperature",
        {"measure": "body temperature", "temperature": "37 °C"},
        {"measure": "body temperature", "temperature": 37, "unit": "°C"},
    ),
    (
        "a marathon",
        {"race": "marathon", "distance": "42.195 km"},
        {"race": "marathon", "distance": 42.195, "unit": "km"},
    ),
    (
        "the speed of sound in dry air at 20 °C",
        {"medium": "dry air", "speed": "343 m/s"},
        {"medium": "dry air", "speed": 343, "unit": "m/s"},
    ),
    (
        "the 1997 film Titanic",
        {"title": "Titanic", "runtime": "3 h 14 min"},
        {"title": "Titanic", "runtime": 194, "unit": "minutes"},
    ),
    (
        "the Apollo 11 Moon landing",
        {"event": "Apollo 11 Moon landing", "date": "1969-07-20 20:17 UTC"},
        {"event": "Apollo 11 Moon landing", "date": "1969-07-20", "time": "20:17 UTC"},
    ),
    (
        "a team meeting at half past three in the afternoon",
        {"event": "team meeting", "time": "3:30 PM"},
        {"event": "team meeting", "time": "3:30", "period": "PM"},
    ),
    (
        "the phone number +44 20 7946 0018",
        {"country": "United Kingdom", "phone": "+44 20 7946 0018"},
        {"country": "United Kingdom", "country_code": "+44", "phone": "20 7946 0018"},
    ),
    (
        "Dr. Jane Smith, a cardiologist",
        {"name": "Dr. Jane Smith", "specialty": "cardiology"},
        {"title": "Dr.", "name": "Jane Smith", "specialty": "cardiology"},
    ),
    (
        "the quiz question Which planet is known as the Red Planet",
        {
            "question": "Which planet is known as the Red Planet?",
            "answer": "Mars, because iron oxide on its surface makes it look red",
        },
        {
            "question": "Which planet is known as the Red Planet?",
            "answer": "Mars",
            "explanation": "Iron oxide on its surface makes it look red.",
        },
    ),
    (
        "a basic pancake recipe",
        {"dish": "pancakes", "ingredients": ["200 g flour", "2 eggs", "300 ml milk"]},
        {
            "dish": "pancakes",
            "ingredients": ["flour", "eggs", "milk"],
            "quantities": ["200 g", "2", "300 ml"],
        },
    ),
    (
        "a 27-inch computer monitor",
        {"product": "computer monitor", "size": "27 inches"},
        {"product": "computer monitor", "size": 27, "unit": "inches"},
    ),
    (
        "a 2 kg bag of basmati rice",
        {"product": "basmati rice", "weight": "2 kg"},
        {"product": "basmati rice", "weight": 2, "unit": "kg"},
    ),
    (
        "the Golden Gate Bridge",
        {"bridge": "Golden Gate Bridge", "length": "2737 m"},
        {"bridge": "Golden Gate Bridge", "length": 2737, "unit": "m"},
    ),
    (
        "the painter of the Mona Lisa",
        {"name": "Leonardo da Vinci", "nationality": "Italian"},
        {"name": "Leonardo", "surname": "da Vinci", "nationality": "Italian"},
    ),
    (
        "the Sydney Opera House",
        {"building": "Sydney Opera House", "opened": "20 October 1973"},
        {"building": "Sydney Opera House", "opened": "20 October", "year": 1973},
    ),
]

TEMPLATES = [
    "Return a JSON object with the keys {keys} for {subject}.",
    "Give me a JSON object with keys {keys} describing {subject}. No explanation.",
    "Create a JSON object with the keys {keys} for {subject}.",
    "Return only JSON: an object with the keys {quoted} for {subject}.",
    "Generate a JSON object that has the keys {keys} for {subject}.",
]


def key_list(keys: list[str], quote: bool = False) -> str:
    """Keys as a person lists them: "a and b", "a, b and c" (quoted when asked)."""
    shown = [f'"{key}"' if quote else key for key in keys]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def prompt(template: str, obj: dict[str, Any], subject: str) -> str:
    keys = list(obj)
    return template.format(keys=key_list(keys), quoted=key_list(keys, True), subject=subject)


def answer(obj: dict[str, Any], fenced: bool) -> str:
    return f"```json\n{js(obj)}\n```" if fenced else js(obj)


def split_cases() -> Iterator[dict[str, Any]]:
    for n, (subject, before, after) in enumerate(SPLITS, start=1):
        template = TEMPLATES[n % len(TEMPLATES)]
        fenced = n % 4 == 3
        yield case(
            f"json-split-{n:03d}",
            "json_added_key_redefines_sibling",
            prompt(template, before, subject),
            answer(before, fenced),
            prompt(template, after, subject),
            answer(after, fenced),
            paths=STREAMED,
            judge="json",
            note="the added key takes a part of a kept value: the kept value changes too",
        )


def all_cases() -> Iterator[dict[str, Any]]:
    yield from split_cases()
