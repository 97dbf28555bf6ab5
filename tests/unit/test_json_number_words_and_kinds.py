"""Numbers a request writes in words, the kind a copied value keeps, and a rewording that
says the same things in order (json_object)."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.tasks.json_object import JsonObjectFamily
from stepcache_integrations.core.tasks.json_object.number_words import (
    read_word_number,
    request_language,
    word_numbers,
)
from stepcache_integrations.core.tasks.json_object.tracing import retarget, token_pieces, trace
from stepcache_integrations.core.tasks.json_object.value_kinds import (
    read_stated,
    recased_statements,
)
from stepcache_integrations.core.tasks.json_object.wording import same_said
from stepcache_integrations.core.text import Token, compare


def _read(text: str) -> list[tuple[str, int]]:
    return [(text[start:end], value) for (start, end), value in word_numbers(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Table for eight at Casa Verde, please, as JSON.", [("eight", 8)]),
        (
            "The course has forty places and thirty-five students.",
            [("forty", 40), ("thirty-five", 35)],
        ),
        ("Sommerfest im Stadtpark mit zweihundert Gästen, bitte als JSON.", [("zweihundert", 200)]),
        (
            "Bolo de cenoura para oito porções, com cem gramas de açúcar.",
            [("oito", 8), ("cem", 100)],
        ),
        ("Mi gata Nube tiene tres años y vive en casa.", [("tres", 3)]),
        ("A story of one hundred and five pages for the JSON.", [("one hundred and five", 105)]),
    ],
)
def test_number_words_are_read_in_the_request_language(
    text: str, expected: list[tuple[str, int]]
) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Erstelle ein JSON für einen Hund namens Bello.",  # "ein": an article, not one
        "Give me one JSON object for the red one, please.",  # "one": a pronoun
        "Once you have it, write the JSON for the elf in the story.",  # es "once", de "elf"
        "A JSON of the population in millions for each country, please.",  # a plural scale
        "A JSON for our stay at the Four Seasons hotel in the city.",  # inside a name
        "Is the answer two or three? Write it as JSON for the quiz.",  # beside an alternative
    ],
)
def test_words_that_are_no_count_are_not_read(text: str) -> None:
    assert _read(text) == []


def test_a_text_of_no_clear_language_reads_no_number_words() -> None:
    assert request_language("JSON: TP 1947, 12F, FNC") is None
    assert word_numbers("JSON: TP 1947, 12F, FNC") == ()


def test_a_new_number_word_is_read_alone_and_in_the_same_language() -> None:
    request = "Please write the JSON for a table of eight people at the window."
    assert read_word_number("twelve", request) == 12
    assert read_word_number("twelve people", request) is None
    assert read_word_number("zwölf", request) is None
    assert read_word_number("12", request) is None
    assert read_word_number("one", request) is None


def test_a_value_stated_in_words_follows_the_request() -> None:
    cached = "Mach mir ein JSON für die Suppe mit vier Portionen und 35 Minuten Kochzeit."
    new = "Mach mir ein JSON für die Suppe mit sechs Portionen und 35 Minuten Kochzeit."
    obj = {"portionen": 4, "kochzeit": 35}
    assert [slot.path for slot in trace(cached, obj)] == [("portionen",), ("kochzeit",)]
    result = retarget(cached, new, compare(cached, new).edits, obj)
    assert not isinstance(result, str)
    assert result.obj == {"portionen": 6, "kochzeit": 35}


def test_a_number_word_left_over_leaves_the_numbers_untraced() -> None:
    """ "ten minus five" answered 5: five is no copy while ten is an input."""
    request = "Please compute ten minus five and give me the result as a JSON object."
    assert trace(request, {"result": 5}) == ()


def test_digits_for_words_are_the_model_s() -> None:
    cached = "Please write the JSON for a table of eight people at the window."
    new = "Please write the JSON for a table of 12 people at the window."
    result = retarget(cached, new, compare(cached, new).edits, {"party": 8})
    assert isinstance(result, str)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("221B Baker Street", "17 Baker Street"),
        ("12F", "7A"),
        ("TP1234", "LH400"),
        ("Müller GmbH", "Schneider KG"),
        ("bewölkt", "Regen"),
        ("Miso", "Tofu"),
    ],
)
def test_a_copied_value_takes_text_of_its_class(old: str, new: str) -> None:
    assert read_stated(new, old, old, "") == new


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("DE", "Deutschland"),  # a code becomes a country: the key may want the code
        ("Paris", "Tofu"),  # a city stays a city
        ("Berlin HQ", "Munich office"),  # a proper word became a lower-case one
        ("Berlin HQ", "the capital"),
        ("bewölkt", "Nein"),  # a yes/no
        ("12F", "5!"),  # a calculation
        ("12F", "-5"),
        ("Construção", "Apesar de Você"),  # another number of words
        ("EUR", "EURO"),  # a currency keeps its kind
        ("Anna", "anna@example.com"),
    ],
)
def test_a_copied_value_refuses_text_of_another_kind(old: str, new: str) -> None:
    assert read_stated(new, old, old, "") is None


def test_a_number_with_thousands_marks_may_lose_them() -> None:
    assert read_stated("980", 1150, "1.150", "") == 980
    assert read_stated("0", 1150, "1.150", "") is None  # a positive count never becomes zero
    assert read_stated("9,5", 1150, "1.150", "") is None


def _names_the_task(token: Token) -> bool:
    return token.kind == "punct" or token.norm.lower() in JsonObjectFamily.instruction_words


@pytest.mark.parametrize(
    ("new", "same"),
    [
        ("Write a recipe as a JSON object.", True),
        ("Give me a recipe as JSON.", True),
        ("Write a cocktail as a JSON object.", False),
        ("Write a recipe as a JSON array.", False),
        ("Write a recipe as a YAML document.", False),
        ("Write a vegan recipe as a JSON object.", False),
    ],
)
def test_a_rewording_says_the_same_things_in_order(new: str, same: bool) -> None:
    assert same_said("Create a JSON object for a recipe.", new, _names_the_task) is same


def test_things_that_trade_places_are_not_the_same_request() -> None:
    old, new = "JSON for a recipe from a chef.", "JSON for a chef from a recipe."
    assert not same_said(old, new, _names_the_task)


def test_a_value_the_answer_capitalised_follows_the_request() -> None:
    cached = "can you make a json for this one: sourdough loaf, price 6.50, vegan yes"
    new = "can you make a json for this one: rye bread, price 6.50, vegan yes"
    obj = {"name": "Sourdough loaf", "price": 6.5, "vegan": True}
    result = retarget(cached, new, compare(cached, new).edits, obj)
    assert not isinstance(result, str)
    assert result.obj == {"name": "Rye bread", "price": 6.5, "vegan": True}
    titled = {"name": "Sourdough Loaf", "price": 6.5, "vegan": True}
    result = retarget(cached, new, compare(cached, new).edits, titled)
    assert not isinstance(result, str)
    assert result.obj["name"] == "Rye Bread"


@pytest.mark.parametrize(
    ("request_text", "value"),
    [
        ("give us the json for chicago", "US"),  # short: a pronoun, not the code
        ("make the json, all caps: sourdough loaf", "SOURDOUGH LOAF"),  # not a capitalisation
        ("json for sourdough loaf or rye bread", "Sourdough loaf"),  # beside an alternative
        ("json for Sourdough loaf", "Sourdough Loaf"),  # the request's own capitals differ
    ],
)
def test_only_small_letters_capitalised_are_the_same_value(request_text: str, value: str) -> None:
    assert recased_statements(request_text, value) == ()


def test_a_number_may_gain_thousands_marks_in_the_request_s_convention() -> None:
    german = "Mach mal ein JSON für die Wohnung: Kaltmiete 980 €, Balkon ja, bitte schnell"
    assert read_stated("1.150", 980, "980", german) == 1150
    assert read_stated("1,150", 980, "980", german) is None


def test_values_changed_side_by_side_follow_each_its_place() -> None:
    cached = "Appointment as JSON: patient Maria Rossi, 2025-03-05 10:30, follow-up: yes"
    new = "Appointment as JSON: patient Maria Rossi, 2025-03-06 14:30, follow-up: yes"
    obj = {"patient": "Maria Rossi", "date": "2025-03-05", "time": "10:30", "follow_up": True}
    edits = compare(cached, new).edits
    assert len(edits) == 1 and len(token_pieces(edits[0])) == 2
    result = retarget(cached, new, edits, obj)
    assert not isinstance(result, str)
    assert result.obj == {**obj, "date": "2025-03-06", "time": "14:30"}


def test_a_piece_outside_every_value_refuses_the_whole_edit() -> None:
    cached = "Appointment as JSON: patient Maria Rossi, room 5 10 minutes early"
    new = "Appointment as JSON: patient Maria Rossi, room 6 14 minutes early"
    obj = {"patient": "Maria Rossi", "room": 5}
    assert isinstance(retarget(cached, new, compare(cached, new).edits, obj), str)


def test_a_name_with_digits_set_to_a_number_states_it() -> None:
    cached = "Sensorwerte, nur JSON: id=LUFT-09, co2=612, fenster_offen=nein"
    new = "Sensorwerte, nur JSON: id=LUFT-09, co2=1045, fenster_offen=nein"
    obj = {"id": "LUFT-09", "co2": 612, "fenster_offen": False}
    result = retarget(cached, new, compare(cached, new).edits, obj)
    assert not isinstance(result, str)
    assert result.obj == {**obj, "co2": 1045}
    # A lone letter with digits is an equation's unknown: its number is an operand.
    assert trace("Given x2 = 5, return JSON with x2 and its double", {"x2": 5, "d": 10}) == ()
