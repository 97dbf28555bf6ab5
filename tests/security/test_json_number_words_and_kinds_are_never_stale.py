"""A number the request writes in words, and a copied value of a new shape, are never served
stale (json_object.number_words, json_object.value_kinds).

SIMULATED oracle model (it answers every request, and every partial call, right), five answer
layouts, both wrappers: whatever comes out wrong was made by the cache. Each class below is
a way reading number words or relaxing a copied value's kind could go wrong:

- a number word left over is an input ("ten minus five" answered 5: the 5 is no copy);
- a number the request now writes in digits where it wrote words is the model's to read;
- a code the request replaces by a country, a yes/no, a calculation, or a city by a name:
  the key may want the code, the boolean, the result, the city;
- and the rewrites the principle admits are served right and without a model call.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.security.test_json_stated_values_follow_the_request import (
    LAYOUTS,
    WRAPPERS,
    Layout,
    Pair,
    Wrapper,
    run_pair,
)


def _pair(
    name: str, language: str, cached: str, new: str, old: dict[str, Any], right: dict[str, Any]
) -> Pair:
    return Pair(name, language, cached, new, old, right)


# The model must answer: what changed is an input, or of another kind than what stood there.
ASKED = [
    _pair(
        "a-number-word-left-over-is-an-input",
        "en",
        "Please compute ten minus five and give me the result as a JSON object.",
        "Please compute ten minus three and give me the result as a JSON object.",
        {"result": 5},
        {"result": 7},
    ),
    _pair(
        "a-number-word-left-over-is-an-input-de",
        "de",
        "Bitte rechne zwölf minus vier und gib das Ergebnis als JSON-Objekt zurück.",
        "Bitte rechne zwölf minus sieben und gib das Ergebnis als JSON-Objekt zurück.",
        {"ergebnis": 8},
        {"ergebnis": 5},
    ),
    _pair(
        "words-to-digits",
        "en",
        "Please write the JSON for a table of eight people, name Delgado.",
        "Please write the JSON for a table of 8.5 people, name Delgado.",
        {"party_size": 8, "name": "Delgado"},
        {"party_size": 8.5, "name": "Delgado"},
    ),
    _pair(
        "a-code-becomes-a-country",
        "en",
        "Turn this into JSON with keys city and country_code: Lisbon, PT",
        "Turn this into JSON with keys city and country_code: Lisbon, Portugal",
        {"city": "Lisbon", "country_code": "PT"},
        {"city": "Lisbon", "country_code": "PT"},
    ),
    _pair(
        "a-word-becomes-a-yes-no",
        "de",
        "Mach mir ein JSON: Stadt Wien, Wetter bewölkt, Regen erwartet ja",
        "Mach mir ein JSON: Stadt Wien, Wetter Nein, Regen erwartet ja",
        {"stadt": "Wien", "wetter": "bewölkt", "regen_erwartet": True},
        {"stadt": "Wien", "wetter": None, "regen_erwartet": True},
    ),
    _pair(
        "a-code-becomes-a-calculation",
        "en",
        "Seat booking as JSON: passenger Ana Lima, seat 12F, flight TP 1947",
        "Seat booking as JSON: passenger Ana Lima, seat 3*4F, flight TP 1947",
        {"passenger": "Ana Lima", "seat": "12F", "flight": "TP 1947"},
        {"passenger": "Ana Lima", "seat": "12F", "flight": "TP 1947"},
    ),
    _pair(
        "a-city-becomes-a-name",
        "en",
        "JSON for the office please: city Paris, manager Ana Lima",
        "JSON for the office please: city Bavaria, manager Ana Lima",
        {"city": "Paris", "manager": "Ana Lima"},
        {"city": "Munich", "manager": "Ana Lima"},
    ),
]

# Served without a model call: the value the answer copied follows the request.
FOLLOWED = [
    _pair(
        "a-count-in-words",
        "en",
        "Table for six at Casa Verde under the name Delgado. Can you format this as JSON?",
        "Table for eight at Casa Verde under the name Delgado. Can you format this as JSON?",
        {"restaurant": "Casa Verde", "name": "Delgado", "party_size": 6},
        {"restaurant": "Casa Verde", "name": "Delgado", "party_size": 8},
    ),
    _pair(
        "a-count-in-words-pt",
        "pt",
        "Gere um JSON para o bolo de cenoura: oito porções, forno 40 minutos, sem glúten não",
        "Gere um JSON para o bolo de cenoura: dez porções, forno 40 minutos, sem glúten não",
        {"porcoes": 8, "forno_min": 40, "sem_gluten": False},
        {"porcoes": 10, "forno_min": 40, "sem_gluten": False},
    ),
    _pair(
        "a-house-number",
        "en",
        "Turn this address into a JSON object: 221B Baker Street, London, NW1 6XE",
        "Turn this address into a JSON object: 17 Baker Street, London, NW1 6XE",
        {"street": "221B Baker Street", "city": "London", "postal_code": "NW1 6XE"},
        {"street": "17 Baker Street", "city": "London", "postal_code": "NW1 6XE"},
    ),
    _pair(
        "a-seat",
        "pt",
        "Me dá um JSON com os dados do voo: TP 1947, de Lisboa para Funchal, assento 12F",
        "Me dá um JSON com os dados do voo: TP 1947, de Lisboa para Funchal, assento 7A",
        {"voo": "TP 1947", "origem": "Lisboa", "destino": "Funchal", "assento": "12F"},
        {"voo": "TP 1947", "origem": "Lisboa", "destino": "Funchal", "assento": "7A"},
    ),
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", ASKED, ids=[pair.name for pair in ASKED])
def test_a_change_the_answer_cannot_copy_goes_to_the_model(
    wrapper: Wrapper, layout: Layout, pair: Pair
) -> None:
    decision, calls = run_pair(wrapper, pair, layout)
    assert calls >= 1, decision


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", FOLLOWED, ids=[pair.name for pair in FOLLOWED])
def test_a_copied_value_follows_the_request_without_a_call(
    wrapper: Wrapper, layout: Layout, pair: Pair
) -> None:
    decision, calls = run_pair(wrapper, pair, layout)
    assert calls == 0, decision


# A value the answer capitalised is the request's only where the request writes it in small
# letters, four or more of them: a derived country code is not the pronoun "us".
CAPITALISED = [
    _pair(
        "a-derived-code-is-not-a-pronoun",
        "en",
        "give us a json for chicago with keys city and country",
        "give us a json for paris with keys city and country",
        {"city": "Chicago", "country": "US"},
        {"city": "Paris", "country": "FR"},
    ),
    _pair(
        "a-capitalised-name-follows",
        "en",
        "can you make a json for this one: sourdough loaf, price 6.50, vegan yes",
        "can you make a json for this one: rye bread, price 6.50, vegan yes",
        {"name": "Sourdough loaf", "price": 6.5, "vegan": True},
        {"name": "Rye bread", "price": 6.5, "vegan": True},
    ),
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", CAPITALISED, ids=[pair.name for pair in CAPITALISED])
def test_a_capitalised_value_is_never_served_stale(
    wrapper: Wrapper, layout: Layout, pair: Pair
) -> None:
    run_pair(wrapper, pair, layout)


# Two values changed side by side ("2025-03-05 10:30" -> "2025-03-06 14:00" is one edit of
# "05 10" -> "06 14"): each follows its own place, and a value derived from them (the day of
# the week) is asked again.
SIDE_BY_SIDE = [
    _pair(
        "a-date-and-a-time-side-by-side",
        "en",
        "Pretty-print a JSON object for this appointment: patient Maria Rossi, "
        "2025-03-05 10:30, follow-up: yes",
        "Pretty-print a JSON object for this appointment: patient Maria Rossi, "
        "2025-03-06 14:30, follow-up: yes",
        {"patient": "Maria Rossi", "date": "2025-03-05", "time": "10:30", "follow_up": True},
        {"patient": "Maria Rossi", "date": "2025-03-06", "time": "14:30", "follow_up": True},
    ),
    _pair(
        "a-weekday-derived-from-them",
        "en",
        "JSON for the appointment of Maria Rossi on 2025-03-05 10:30 with its weekday",
        "JSON for the appointment of Maria Rossi on 2025-03-06 14:30 with its weekday",
        {"patient": "Maria Rossi", "date": "2025-03-05", "time": "10:30", "weekday": "Wednesday"},
        {"patient": "Maria Rossi", "date": "2025-03-06", "time": "14:30", "weekday": "Thursday"},
    ),
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", SIDE_BY_SIDE, ids=[pair.name for pair in SIDE_BY_SIDE])
def test_values_changed_side_by_side_are_never_served_stale(
    wrapper: Wrapper, layout: Layout, pair: Pair
) -> None:
    decision, calls = run_pair(wrapper, pair, layout)
    if "weekday" in pair.new_object:
        assert calls >= 1, decision


# A key with digits set to a number ("co2=612") states it; a value computed from such
# numbers is asked again.
KEYS_WITH_DIGITS = [
    _pair(
        "a-key-with-digits",
        "de",
        "Sensorwerte, nur JSON: id=LUFT-09, co2=612, fenster_offen=nein",
        "Sensorwerte, nur JSON: id=LUFT-09, co2=1045, fenster_offen=nein",
        {"id": "LUFT-09", "co2": 612, "fenster_offen": False},
        {"id": "LUFT-09", "co2": 1045, "fenster_offen": False},
    ),
    _pair(
        "a-value-computed-from-them",
        "en",
        "Return JSON with pm10, pm25 and their sum: pm10=14, pm25=9",
        "Return JSON with pm10, pm25 and their sum: pm10=14, pm25=12",
        {"pm10": 14, "pm25": 9, "sum": 23},
        {"pm10": 14, "pm25": 12, "sum": 26},
    ),
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", KEYS_WITH_DIGITS, ids=[pair.name for pair in KEYS_WITH_DIGITS])
def test_a_key_with_digits_set_to_a_number_is_never_served_stale(
    wrapper: Wrapper, layout: Layout, pair: Pair
) -> None:
    decision, calls = run_pair(wrapper, pair, layout)
    if "sum" in pair.new_object:
        assert calls >= 1, decision
