"""Round 9 of the oracle attack (issue 33) on the JSON rules merged with json5.

Each case caches one request with the answer of an ORACLE model (SIMULATED: every answer
right), then asks a second request; anything wrong that comes out was made by the cache. Every
case runs on every path (invoke, stream, ainvoke, the global LangChain cache, LlamaIndex).

**A verb read as a key.** The request reader took the bare word after "fields"/"keys" as the
first key of a list, so "a JSON object with fields describing a car" required a key named
"describing": the oracle's object was refused and the model asked again for a key nobody
asked for (a model that obeys adds a made-up ``"describing"`` key to the object), on a miss and
after one. A verb that says what the object is about ("describing",
"representing") ends a key list as "including" and "containing" do; it names no key.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.conftest import AnswerBook
from tests.security.word_paths import PATHS, Case, assert_still_reused


class FollowUpBook(AnswerBook):
    """The oracle, noting every follow-up the cache sends it (a conversation of more than
    one user turn: a partial call or a repair)."""

    def __init__(self, answers: dict[str, str]) -> None:
        super().__init__(answers)
        self.follow_ups: list[str] = []

    def reply(self, turns: Sequence[tuple[str, str]]) -> str:
        users = [text for role, text in turns if role == "user"]
        if len(users) > 1:
            self.follow_ups.append(users[-1])
        return super().reply(turns)


ABOUT_VERBS: list[Case] = [
    (
        "Give me a JSON object with fields describing a car.",
        '{"make": "Fiat", "model": "500", "year": 2020}',
        "Give me a JSON object with fields describing a bike.",
        '{"make": "Trek", "model": "FX 3", "gears": 18}',
    ),
    (
        "Write a JSON object with keys representing a book.",
        '{"title": "Dune", "author": "Frank Herbert"}',
        "Write a JSON object with keys representing a film.",
        '{"title": "Alien", "director": "Ridley Scott"}',
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", ABOUT_VERBS, ids=lambda case: case[2])
def test_a_verb_after_fields_names_no_key(case: Case, path: str) -> None:
    """The oracle's object is served as it is, and the model is never asked for a key the
    request does not name."""
    cached, cached_answer, new, new_answer = case
    book = FollowUpBook({cached: cached_answer, new: new_answer})
    ask = PATHS[path](book)
    for request, answer in ((cached, cached_answer), (new, new_answer)):
        served, decision = ask(request)
        assert served.split() == answer.split(), (decision, served)
    assert book.follow_ups == [], book.follow_ups


ABOUT_VERBS_CONTROL: list[Case] = [
    (
        "Give me a JSON object with fields describing this car: make Fiat, model 500.",
        '{"make": "Fiat", "model": "500"}',
        "Give me a JSON object with fields describing this car: make Fiat, model 600.",
        '{"make": "Fiat", "model": "600"}',
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", ABOUT_VERBS_CONTROL, ids=lambda case: case[2])
def test_a_stated_value_beside_fields_describing_is_still_reused(case: Case, path: str) -> None:
    """Control: the fix must not refuse an ordinary stated value change."""
    assert_still_reused(case, path)


# **A word that qualifies the object, swapped as if it only named the task.** Every edit of
# the family's instruction words counted as rewording, and some of them say something of
# their own: "a recipe with eggs" is not "a recipe, eggs only", nor "I need a JSON object"
# "I have a JSON object". The cached object was served for both. A change of wording now keeps
# each qualifying word ("with", "has", "have", "only") as often as it was said.
QUALIFIERS: list[Case] = [
    (
        "Create a JSON object for a recipe with eggs.",
        '{"name": "Omelette", "ingredients": ["eggs", "salt", "butter"]}',
        "Create a JSON object for a recipe, eggs only.",
        '{"name": "Boiled eggs", "ingredients": ["eggs"]}',
    ),
    (
        "I need a JSON object for a recipe.",
        '{"name": "Pancakes", "serves": 4}',
        "I have a JSON object for a recipe.",
        "Great - paste it here and tell me what you would like to do with it.",
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", QUALIFIERS, ids=lambda case: case[2])
def test_a_qualifying_word_is_no_rewording(case: Case, path: str) -> None:
    cached, cached_answer, new, new_answer = case
    ask = PATHS[path](AnswerBook({cached: cached_answer, new: new_answer}))
    ask(cached)
    served, decision = ask(new)
    assert served.split() == new_answer.split(), (decision, served)


QUALIFIERS_CONTROL: list[Case] = [
    (
        "Create a JSON object for a recipe with eggs.",
        '{"name": "Omelette", "ingredients": ["eggs", "salt", "butter"]}',
        "Write a recipe with eggs as a JSON object.",
        '{"name": "Omelette", "ingredients": ["eggs", "salt", "butter"]}',
    ),
    (
        "I need a JSON object for a recipe.",
        '{"name": "Pancakes", "serves": 4}',
        "Give me a JSON object for a recipe.",
        '{"name": "Pancakes", "serves": 4}',
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", QUALIFIERS_CONTROL, ids=lambda case: case[2])
def test_a_rewording_that_keeps_its_qualifiers_is_still_reused(case: Case, path: str) -> None:
    """Control: the same object asked in other words is served from the cache."""
    assert_still_reused(case, path)


# **A capitalised value's spelling guessed (NOT FIXED: see the report).** A value the answer
# capitalised from the request's lower-case text follows the request with its first letter
# raised; the spelling of a new name is the model's to know ("mcdonald" -> "McDonald",
# "ipad" -> "iPad"), and the cache served "Mcdonald" and "Ipad".
CAPITALISED: list[Case] = [
    (
        "json for the customer: surname smith, visits 3",
        '{"surname": "Smith", "visits": 3}',
        "json for the customer: surname mcdonald, visits 3",
        '{"surname": "McDonald", "visits": 3}',
    ),
    (
        "product json: name kindle, price 99",
        '{"name": "Kindle", "price": 99}',
        "product json: name ipad, price 99",
        '{"name": "iPad", "price": 99}',
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", CAPITALISED, ids=lambda case: case[2])
def test_a_new_name_is_spelled_as_the_model_spells_it(case: Case, path: str) -> None:
    cached, cached_answer, new, new_answer = case
    ask = PATHS[path](AnswerBook({cached: cached_answer, new: new_answer}))
    ask(cached)
    served, decision = ask(new)
    assert served.split() == new_answer.split(), (decision, served)
