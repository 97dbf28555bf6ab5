"""A JSON request reworded around the words that only name the task asks for the same object;
a rewording that changes the object never gets the cached one (json_object.wording).

"Create a JSON object for a recipe." -> "Write a recipe as a JSON object.": the subject
moved across "create", "for", "as", "JSON", "object"; everything else the request says is
the same, in the same order: the cached object is the answer (no model call). Another
subject, a qualifier, another type of answer, a negation, or two things that trade places
leave a difference, and the model answers. SIMULATED oracle model, five answer layouts,
both wrappers (every served answer is checked against the oracle's).
"""

from __future__ import annotations

import pytest

from tests.security.test_json_stated_values_follow_the_request import (
    LAYOUTS,
    WRAPPERS,
    Layout,
    Pair,
    Wrapper,
    run_pair,
)

KEYS = 'Return only a JSON object with exactly the keys "dish", "servings" and "minutes", '
WHERE = 'where "servings" is 4.'
BASE = f"Create a JSON object for a recipe. {KEYS}{WHERE}"
PANCAKES = {"dish": "Pancakes", "servings": 4, "minutes": 20}


def _reworded(lead: str, right: dict[str, object] | None = None) -> Pair:
    return Pair(lead, "en", BASE, f"{lead} {KEYS}{WHERE}", PANCAKES, right or PANCAKES)


SAME_OBJECT = [
    _reworded("Write a recipe as a JSON object."),
    _reworded("Generate a JSON record for a recipe."),
    _reworded("Make a JSON object representing a recipe."),
    _reworded("I need JSON describing a recipe."),
]

ANOTHER_OBJECT = [
    _reworded(
        "Write a cocktail as a JSON object.", {"dish": "Mojito", "servings": 4, "minutes": 5}
    ),
    _reworded(
        "Write a vegan recipe as a JSON object.",
        {"dish": "Chana masala", "servings": 4, "minutes": 35},
    ),
    _reworded(
        "Write a recipe as a JSON array.", {"dish": "Pancakes (list)", "servings": 4, "minutes": 20}
    ),
    _reworded(
        "Write a recipe for a dessert as a JSON object.",
        {"dish": "Flan", "servings": 4, "minutes": 60},
    ),
    _reworded(
        "Do not write a recipe; write a JSON object.", {"dish": "none", "servings": 4, "minutes": 0}
    ),
    Pair(
        "two-things-trade-places",
        "en",
        f"Create a JSON object for a recipe from a chef. {KEYS}{WHERE}",
        f"Write a chef from a recipe as a JSON object. {KEYS}{WHERE}",
        PANCAKES,
        {"dish": "Chef's salad", "servings": 4, "minutes": 10},
    ),
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", SAME_OBJECT, ids=[pair.name for pair in SAME_OBJECT])
def test_a_rewording_of_the_same_object_needs_no_model_call(
    wrapper: Wrapper, layout: Layout, pair: Pair
) -> None:
    decision, calls = run_pair(wrapper, pair, layout)
    assert calls == 0, decision


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("pair", ANOTHER_OBJECT, ids=[pair.name for pair in ANOTHER_OBJECT])
def test_a_rewording_that_changes_the_object_goes_to_the_model(
    wrapper: Wrapper, layout: Layout, pair: Pair
) -> None:
    decision, calls = run_pair(wrapper, pair, layout)
    assert calls >= 1, decision
