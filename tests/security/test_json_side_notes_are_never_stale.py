"""Prose beside a carried-over JSON object: a line the request asked for is never dropped or
served stale, and a side note about the old values is never served with the new ones.

A side note the model added on its own ("Since you marked it as not pet safe, ...") is left
out when a stated value changes; a line that answers a sentence of the request ("Say first
whether she is an adult.") is what was asked, and after a change it is regenerated. Made up
here, in three languages.
"""

from __future__ import annotations

import json
import re

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from tests.conftest import AnswerBook

# (cached request, its answer, new request, its answer)
ASKED: list[tuple[str, str, str, str]] = [
    (
        "Create a JSON object for Anna, age 31. Say first whether she is an adult.",
        'Anna is an adult:\n{"name": "Anna", "age": 31}',
        "Create a JSON object for Anna, age 15. Say first whether she is an adult.",
        'Anna is not an adult:\n{"name": "Anna", "age": 15}',
    ),
    (
        "Erstelle ein JSON-Objekt für Jonas, Alter 17. Sag danach, ob er wählen darf.",
        '{"name": "Jonas", "alter": 17}\nJonas darf noch nicht wählen.',
        "Erstelle ein JSON-Objekt für Jonas, Alter 19. Sag danach, ob er wählen darf.",
        '{"name": "Jonas", "alter": 19}\nJonas darf wählen.',
    ),
    (
        "Gere um JSON para a Bia, idade 12. Diga também se ela pode dirigir.",
        '{"nome": "Bia", "idade": 12}\nA Bia ainda não pode dirigir.',
        "Gere um JSON para a Bia, idade 30. Diga também se ela pode dirigir.",
        '{"nome": "Bia", "idade": 30}\nA Bia pode dirigir.',
    ),
    (
        "Create a JSON object for Tom, age 17, and tell me whether he may vote.",
        'Tom may not vote yet:\n{"name": "Tom", "age": 17}',
        "Create a JSON object for Tom, age 18, and tell me whether he may vote.",
        'Tom may vote:\n{"name": "Tom", "age": 18}',
    ),
]

# Side notes the model added on its own, about the old values: never served after a change.
NOTES: list[tuple[str, str, str, str]] = [
    (
        "Build a JSON object: item pet bowl, price 12.50, pet safe: no.",
        '```json\n{"item": "pet bowl", "price": 12.5, "pet_safe": false}\n```\n'
        "Careful: not safe for pets.",
        "Build a JSON object: item pet bowl, price 12.50, pet safe: yes.",
        '```json\n{"item": "pet bowl", "price": 12.5, "pet_safe": true}\n```',
    ),
    (
        "Mach ein JSON: Stadt Wien, Temperatur 31, Wetter sonnig",
        'Ganz schön heiß heute!\n```json\n{"stadt": "Wien", "temperatur": 31, '
        '"wetter": "sonnig"}\n```',
        "Mach ein JSON: Stadt Wien, Temperatur 12, Wetter sonnig",
        '```json\n{"stadt": "Wien", "temperatur": 12, "wetter": "sonnig"}\n```',
    ),
]


def _served(cached: str, cached_answer: str, new: str, new_answer: str) -> tuple[str, str]:
    book = AnswerBook({cached: cached_answer, new: new_answer})
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())
    llm.invoke(cached)
    message = llm.invoke(new)
    return str(message.content), message.response_metadata["stepcache"]["decision"]


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _object(text: str) -> object:
    found = re.search(r"\{.*\}", text, re.S)
    assert found is not None, text
    return json.loads(found.group())


@pytest.mark.parametrize("case", ASKED, ids=["en", "de", "pt", "en-one-sentence"])
def test_a_line_the_request_asks_for_is_never_dropped_or_stale(
    case: tuple[str, str, str, str],
) -> None:
    served, _ = _served(*case)
    assert served.split() == case[3].split(), served


@pytest.mark.parametrize("case", NOTES, ids=["en", "de"])
def test_a_side_note_about_the_old_values_is_never_served(case: tuple[str, str, str, str]) -> None:
    served, _ = _served(*case)
    assert _object(served) == _object(case[3])
    old_note = [line for line in _lines(case[1]) if "{" not in line and "```" not in line]
    assert not any(line in _lines(served) for line in old_note), served
