"""Round 5 of the outside attack on the JSON family (values the request states, yes/no flips).

Each case caches one request with the answer of an ORACLE model (SIMULATED: it answers every
request, and the cache's partial calls, correctly by the objects written here), then asks a
request that differs in one stated value. Anything wrong in what the cache serves was made by
the cache. Served through both wrappers, in the five layouts models answer with.

The classes, each a test of its own below:

- **a stated value the cached object does not carry, held by coincidence**: "Smoker: no"
  answered ``{"healthy_lungs": true}``; after "Smoker: yes" the cached object was served
  unchanged, since the new "yes" reads as the ``true`` it already held (the soundness check
  read the cached object against the new request alone). A stated change the family cannot
  carry over now fails the object.
- **a yes/no traced to a boolean that merely equals it**: "premium: no" beside
  ``{"trial_expired": false}`` was taken for the statement of ``trial_expired``, and "premium:
  yes" served ``true``. A boolean is one of two values; a yes/no is now its statement only
  where the request names the boolean's key right before it ("Active: yes", "disponível: sim"
  for ``disponivel``).
"""

from __future__ import annotations

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


@dataclass(frozen=True)
class Pair:
    """A cached request and its object; a new request and its object."""

    cached: str
    new: str
    cached_object: dict[str, Any]
    new_object: dict[str, Any]
    language: str = "en"


def _check(pair: Pair, layout: Layout, wrapper: Wrapper) -> tuple[str, int]:
    oracle = Oracle(layout, pair.language)
    oracle.answers[pair.cached] = pair.cached_object
    oracle.answers[pair.new] = pair.new_object
    served = serve(wrapper, oracle, [pair.cached, pair.new])
    text, _, calls = served[1]
    assert_right(text, oracle.expected(pair.new))
    return text, calls


# -- a stated value the cached object does not carry --------------------------------------------

UNCARRIED = [
    Pair(
        "Smoker: no. Return JSON with name Anna and healthy_lungs.",
        "Smoker: yes. Return JSON with name Anna and healthy_lungs.",
        {"name": "Anna", "healthy_lungs": True},
        {"name": "Anna", "healthy_lungs": False},
    ),
    Pair(
        "Return a JSON object for Bruno, member: yes, with name and pays_full_price.",
        "Return a JSON object for Bruno, member: no, with name and pays_full_price.",
        {"name": "Bruno", "pays_full_price": False},
        {"name": "Bruno", "pays_full_price": True},
    ),
    Pair(
        "Raucher: nein. Gib JSON mit Name Lena und gesunde_lunge zurück.",
        "Raucher: ja. Gib JSON mit Name Lena und gesunde_lunge zurück.",
        {"name": "Lena", "gesunde_lunge": True},
        {"name": "Lena", "gesunde_lunge": False},
        "de",
    ),
    Pair(
        "Fumante: não. Retorne um JSON com nome Ana e pulmao_saudavel.",
        "Fumante: sim. Retorne um JSON com nome Ana e pulmao_saudavel.",
        {"nome": "Ana", "pulmao_saudavel": True},
        {"nome": "Ana", "pulmao_saudavel": False},
        "pt",
    ),
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", UNCARRIED, ids=lambda p: p.new)
def test_a_stated_change_the_object_does_not_carry_is_never_served(
    pair: Pair, layout: Layout, wrapper: Wrapper
) -> None:
    _check(pair, layout, wrapper)


# -- a yes/no traced to a boolean that merely equals it ----------------------------------------

UNRELATED = [
    Pair(
        "Return a JSON object: name Anna, premium: no, trial_expired.",
        "Return a JSON object: name Anna, premium: yes, trial_expired.",
        {"name": "Anna", "trial_expired": False},
        {"name": "Anna", "trial_expired": False},
    ),
    Pair(
        "Student: yes. Employed: no. Return JSON with name Anna, is_student and pays_full_fare.",
        "Student: yes. Employed: yes. Return JSON with name Anna, is_student and pays_full_fare.",
        {"name": "Anna", "is_student": True, "pays_full_fare": False},
        {"name": "Anna", "is_student": True, "pays_full_fare": False},
    ),
    Pair(
        "Return JSON for Anna: has a car: no; walks_to_work.",
        "Return JSON for Anna: has a car: yes; walks_to_work.",
        {"name": "Anna", "walks_to_work": False},
        {"name": "Anna", "walks_to_work": False},
    ),
    Pair(
        "Produkt Lampe, Garantie: nein. JSON mit produkt und rabatt_erlaubt.",
        "Produkt Lampe, Garantie: ja. JSON mit produkt und rabatt_erlaubt.",
        {"produkt": "Lampe", "rabatt_erlaubt": False},
        {"produkt": "Lampe", "rabatt_erlaubt": False},
        "de",
    ),
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", UNRELATED, ids=lambda p: p.new)
def test_a_yes_no_is_never_traced_to_a_boolean_that_merely_equals_it(
    pair: Pair, layout: Layout, wrapper: Wrapper
) -> None:
    _check(pair, layout, wrapper)


# -- the controls: a yes/no under the boolean's own key is still carried ------------------------

NAMED = [
    Pair(
        "Create a JSON object for the user jsmith. Active: yes",
        "Create a JSON object for the user jsmith. Active: no",
        {"username": "jsmith", "active": True},
        {"username": "jsmith", "active": False},
    ),
    Pair(
        "Crie um objeto JSON para o produto Lâmpada, disponível: sim.",
        "Crie um objeto JSON para o produto Lâmpada, disponível: não.",
        {"produto": "Lâmpada", "disponivel": True},
        {"produto": "Lâmpada", "disponivel": False},
        "pt",
    ),
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("pair", NAMED, ids=lambda p: p.new)
def test_a_yes_no_under_its_key_is_still_carried_without_a_model_call(
    pair: Pair, wrapper: Wrapper
) -> None:
    _, calls = _check(pair, "compact", wrapper)
    assert calls == 0, f"{pair.new!r}: the flip under its own key called the model"
