"""Round 8 of the oracle attack (issue 33): a line beside a carried-over JSON object that
answers part of the request.

Each case caches one request with the answer of an ORACLE model (SIMULATED: every answer
right), then asks a second request that differs only in a value it states; anything wrong that
comes out was made by the cache.

**An answer dropped as a side note.** A line beside the object was kept only when it took up
a word of a sentence of the request that states no value (or of the text after the last
value). An answer in words of its own ("Is she old enough to vote?" -> "Yes.", "ist sie
volljährig?" -> "Ja.", "ele é maior de idade?" -> "Sim.") shares none, and a question before
the values in the sentence that asks for the JSON ("Tell me if Anna is an adult and make a
JSON object for her, age 31.") was read nowhere: the line was left out as a side note and the
object alone served with no model call -- what the request asked was dropped, on every path.
A yes or a no answers a question, never a note; the text before the request's mention of
JSON is read like the text after its last value.
"""

from __future__ import annotations

import pytest

from tests.security.word_paths import PATHS, Case, assert_still_reused, served_after

ANSWERED: list[Case] = [
    (
        "Tell me if Anna is an adult and make a JSON object for her, age 31.",
        'Anna is an adult.\n{"name": "Anna", "age": 31}',
        "Tell me if Anna is an adult and make a JSON object for her, age 15.",
        'Anna is not an adult.\n{"name": "Anna", "age": 15}',
    ),
    (
        "Is she old enough to vote? JSON for Anna, age 31.",
        'Yes.\n{"name": "Anna", "age": 31}',
        "Is she old enough to vote? JSON for Anna, age 15.",
        'No.\n{"name": "Anna", "age": 15}',
    ),
    (
        "JSON with user Anna, age 31; then one line: can she rent a car?",
        '{"user": "Anna", "age": 31}\nYes.',
        "JSON with user Anna, age 17; then one line: can she rent a car?",
        '{"user": "Anna", "age": 17}\nNo.',
    ),
    (
        "Erstelle ein JSON für Lena, Alter 16 — und ist sie volljährig?",
        '{"name": "Lena", "alter": 16}\nNein.',
        "Erstelle ein JSON für Lena, Alter 19 — und ist sie volljährig?",
        '{"name": "Lena", "alter": 19}\nJa.',
    ),
    (
        "Crie um JSON para o Rui, idade 16 — ele é maior de idade?",
        '{"nome": "Rui", "idade": 16}\nNão.',
        "Crie um JSON para o Rui, idade 19 — ele é maior de idade?",
        '{"nome": "Rui", "idade": 19}\nSim.',
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", ANSWERED, ids=lambda case: case[2])
def test_a_line_that_answers_the_request_is_never_dropped(case: Case, path: str) -> None:
    served, decision = served_after(case, path)
    assert served.split() == case[3].split(), (decision, served)


NOTES: list[Case] = [
    (
        "Erstelle ein JSON für Lena, Alter 16.",
        '{"name": "Lena", "alter": 16}\nNoch minderjährig.',
        "Erstelle ein JSON für Lena, Alter 19.",
        '{"name": "Lena", "alter": 19}',
    ),
    (
        "Build a JSON object: item pet bowl, price 12.50, pet safe: no.",
        '```json\n{"item": "pet bowl", "price": 12.5, "pet_safe": false}\n```\n'
        "Better warn buyers about this one.",
        "Build a JSON object: item pet bowl, price 12.50, pet safe: yes.",
        '```json\n{"item": "pet bowl", "price": 12.5, "pet_safe": true}\n```\n',
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", NOTES, ids=lambda case: case[2])
def test_a_note_beside_an_object_nothing_else_is_asked_of_is_still_left_out(
    case: Case, path: str
) -> None:
    """Control: the request asks for the object alone (a stated yes/no is a value); the
    model's note about the old values is left out and the object reused."""
    assert_still_reused(case, path)
