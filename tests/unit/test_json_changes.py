"""Unit tests of the JSON family's sound reuse: which part of a request an edit touches,
which values of a reused object may then depend on it, and the partial call that regenerates
them (``core/tasks/json_object/changes.py``, the family's ``account`` and ``unchecked_part``,
the verifier's ``partial_patch``)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from pydantic import BaseModel

from stepcache_integrations.core.steps import JsonSegmenter, Step
from stepcache_integrations.core.tasks.json_object import JsonObjectFamily
from stepcache_integrations.core.tasks.json_object.changes import (
    FIXED_VALUE,
    KEY_LIST,
    STATED,
    presentation_only,
)
from stepcache_integrations.core.tasks.json_object.request import prompt_layout
from stepcache_integrations.core.tasks.json_object.schema import partial_schema
from stepcache_integrations.core.tasks.soundness import account_changes
from stepcache_integrations.core.text import compare
from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext, show_edit

PLANET = 'Return a JSON object with the keys planet and moon_count where planet is "{}".'


def changed(old: str, new: str, options: dict[str, Any] | None = None) -> VerifyContext:
    """The context a reused answer of ``old`` is judged in for ``new``, with its accounts."""
    family = JsonObjectFamily()
    ctx = VerifyContext(new, old, compare(old, new), options or {})
    accounts = account_changes(ctx, [family])
    assert not isinstance(accounts, str), accounts
    return replace(ctx, accounts=accounts)


def kinds(old: str, new: str) -> list[tuple[str, str]]:
    return [(a.kind, a.what) for a in changed(old, new).accounts]


# --------------------------------------------------------------------------- where things are


def test_the_layout_says_where_each_key_and_fixed_value_is_written() -> None:
    prompt = 'JSON with the keys "name", age and city where city is "Oslo" and "n" is 2.'
    layout = prompt_layout(prompt)
    assert [prompt[a:b] for a, b in layout.key_spans] == ['"name"', "age", "city"]
    assert [
        (key, prompt[k[0] : k[1]], prompt[v[0] : v[1]]) for key, k, v in layout.fixed_spans
    ] == [
        ("city", "city", '"Oslo"'),
        ("n", '"n"', "2"),
    ]


def test_conflicting_values_fix_nothing_but_keep_their_place() -> None:
    layout = prompt_layout('Return JSON where status must be "a" and status must be "b".')
    assert layout.fixed_values == ()
    assert len(layout.fixed_spans) == 2


# --------------------------------------------------------------------------- accounts


def test_each_edit_says_which_part_of_the_request_it_touched() -> None:
    assert kinds(PLANET.format("Mars"), PLANET.format("Jupiter")) == [("value", FIXED_VALUE)]
    added = PLANET.replace("moon_count", "moon_count and mass")
    assert kinds(PLANET.format("Mars"), added.format("Mars")) == [("value", KEY_LIST)]
    reworded = PLANET.replace("Return", "Give me")
    assert kinds(PLANET.format("Mars"), reworded.format("Mars")) == [
        ("wording", "words that only name the task")
    ]


def test_a_value_mentioned_in_the_prose_may_be_a_stated_value() -> None:
    """A value the prose states is taken on as a value the answer may have taken from the
    request; here "Mars" and "Venus" are each written twice, so no value of an answer can be
    traced to the changed one, and nothing is carried over: the family fails the object (it
    cannot carry the change), and the soundness check would not vouch for it either."""
    base = (
        'Return JSON with the keys planet and target where planet is "Mars" and target is "Venus".'
    )
    old, new = base + " Count the moons of Mars.", base + " Count the moons of Venus."
    assert kinds(old, new) == [("value", STATED)]
    ctx = changed(old, new)
    family = JsonObjectFamily()
    steps = JsonSegmenter().split('{"planet": "Mars", "target": "Venus"}')
    adaptation = family.adapt_answer(ctx, steps)
    assert adaptation is not None and adaptation.valid == 0
    assert "not a value the answer took from the request" in adaptation.reason
    part = family.unchecked_part(ctx, ctx.accounts, steps[0], 0, steps)
    assert part is not None and "not a value the answer took from the request" in part


def test_task_words_inside_a_fixed_value_are_not_wording() -> None:
    # "record" and "create" only name the task elsewhere; here they are the fixed key.
    old = "Return JSON with the keys name and age where record is 5."
    new = "Return JSON with the keys name and age where create is 5."
    assert kinds(old, new) == [("value", FIXED_VALUE)]


# --------------------------------------------------------------------------- dependence


def dependence(old: str, new: str, options: dict[str, Any] | None = None) -> str | None:
    """What every unstated value of a reused object may depend on, or ``None``."""
    found = JsonObjectFamily().json.change_dependence(changed(old, new, options))
    return None if found is None else found.shown


KEYS = 'Return a JSON object with the {} where s is "x".'


@pytest.mark.parametrize(
    ("old", "new", "shown"),
    [
        ("keys alpha, beta", "keys alpha, beta, gamma", "the added key 'gamma'"),
        ("keys alpha, beta", "keys alpha, gamma and beta", "the added key 'gamma'"),
        ("keys alpha, beta", 'keys "alpha", "beta", "gamma"', "the added key 'gamma'"),
        ("keys alpha, beta", "keys beta and alpha", "the reordered key list"),
        ("keys alpha, beta", "keys alpha, gamma", "the removed key 'beta'"),  # renamed
        ("exactly the keys alpha, beta", "keys alpha, beta", "the opened key list"),
    ],
)
def test_a_changed_key_list_may_determine_every_unstated_value(
    old: str, new: str, shown: str
) -> None:
    """Beside an added ``surname``, ``name`` is the first name: no unstated value is kept."""
    found = dependence(KEYS.format(old), KEYS.format(new))
    assert found is not None and found.startswith(shown)


def test_a_key_list_written_with_other_words_is_compared_as_read() -> None:
    """ "with name and born" -> "with the keys name and born": the edit is only task words,
    but the request now lists keys it did not list."""
    old = "Return a JSON object with name and born for the author of Dracula."
    new = "Return a JSON object with the keys name and born for the author of Dracula."
    assert [a.kind for a in changed(old, new).accounts] == ["wording"]
    assert dependence(old, new) == "the added keys 'name', 'born'"


def test_a_requoted_key_list_asks_the_same() -> None:
    assert (
        dependence(KEYS.format("keys alpha, beta"), KEYS.format('keys "alpha" and "beta"')) is None
    )


@pytest.mark.parametrize(
    ("old", "new", "shown"),
    [
        (PLANET.format("Mars"), PLANET.format("Jupiter"), "'\"Mars\"' -> '\"Jupiter\"'"),
        (  # a key removed: it may have scoped the others
            'Return a JSON object with the keys city, country and population where id is "P".',
            'Return a JSON object with the keys country and population where id is "P".',
            "the removed key 'city'",
        ),
        (  # the key stays, its fixed value goes
            PLANET.format("Mars"),
            "Return a JSON object with the keys planet and moon_count.",
            "",
        ),
        (  # a fixed value added
            "Return a JSON object with the keys planet and moon_count.",
            PLANET.format("Mars"),
            "",
        ),
        (  # the key list closed: keys outside it are dropped
            PLANET.format("Mars"),
            PLANET.replace("the keys", "exactly the keys").format("Mars"),
            "the closed key list (other keys are dropped)",
        ),
        (  # task words only, but the request fixes nothing any more
            PLANET.format("Mars"),
            PLANET.replace("planet is", "planet has").format("Mars"),
            "the request's wording",
        ),
    ],
)
def test_any_other_change_may_determine_every_unstated_value(
    old: str, new: str, shown: str
) -> None:
    found = dependence(old, new)
    assert found is not None and shown in found


def test_wording_alone_changes_nothing() -> None:
    assert (
        dependence(PLANET.format("Mars"), PLANET.replace("Return", "Give me").format("Mars"))
        is None
    )
    assert dependence(PLANET.format("Mars"), PLANET.format("Mars")) is None


def test_a_change_another_family_took_on_is_not_vouched_for() -> None:
    requoted = PLANET.replace("planet and moon_count", '"planet" and "moon_count"')
    ctx = changed(PLANET.format("Mars"), requoted.format("Mars"))
    assert JsonObjectFamily().json.change_dependence(ctx) is None  # the same keys, requoted
    foreign = ChangeAccount(ctx.accounts[0].edit, "linear_equation", "value", "a constant")
    found = JsonObjectFamily().json.change_dependence(replace(ctx, accounts=(foreign,)))
    assert found is not None and found.shown == show_edit(foreign.edit)


# --------------------------------------------------------------------------- text around it


@pytest.mark.parametrize(
    "text",
    ["", "```json\n", "\n```", "Here is the JSON object you asked for:\n```json\n",
     "Sure! Here it is.", "\n```\n\nLet me know if you need anything else."],
)  # fmt: skip
def test_presentation_text(text: str) -> None:
    assert presentation_only(text)


@pytest.mark.parametrize(
    "text",
    ["Here is the data for Mars:\n", "Mars has 2 moons.", "```mars\n", "This is not it.",
     "Here it is (2 of them):", "Here is the object with name and age:"],
)  # fmt: skip
def test_text_that_may_depend_on_the_request(text: str) -> None:
    assert not presentation_only(text)


def test_fences_alone_when_no_words_are_allowed() -> None:
    assert presentation_only("```json\n\n```", words=False)
    assert not presentation_only("Here it is:\n```json\n", words=False)


# --------------------------------------------------------------------------- unchecked_part

CACHED = '{"planet": "Mars", "moon_count": 2}'


def unchecked(old: str, new: str, answer: str) -> list[str | None]:
    family = JsonObjectFamily()
    ctx = changed(old, new)
    steps = JsonSegmenter().split(answer)
    adapted = [family.verifier.adapt_step(ctx, step) or step for step in steps]
    return [family.unchecked_part(ctx, ctx.accounts, s, i, adapted) for i, s in enumerate(adapted)]


def test_an_unstated_value_after_a_changed_fixed_value_is_not_vouched_for() -> None:
    (part,) = unchecked(PLANET.format("Mars"), PLANET.format("Jupiter"), CACHED)
    assert part == (
        "the values of 'moon_count' are not stated by the request and may depend on "
        "'\"Mars\"' -> '\"Jupiter\"'"
    )


def test_an_unstated_value_after_an_added_key_is_not_vouched_for() -> None:
    """The added key may take a part of a kept value (``surname`` from ``name``)."""
    added = PLANET.replace("moon_count", "moon_count and mass")
    answer = f"Here is the JSON object you asked for:\n```json\n{CACHED}\n```"
    assert unchecked(PLANET.format("Mars"), added.format("Mars"), answer) == [
        None,
        "the values of 'moon_count' are not stated by the request and may depend on "
        "the added key 'mass'",
    ]


def test_the_values_of_a_requoted_key_list_are_vouched_for() -> None:
    requoted = PLANET.replace("planet and moon_count", '"planet" and "moon_count"')
    answer = f"Here is the JSON object you asked for:\n```json\n{CACHED}\n```"
    assert unchecked(PLANET.format("Mars"), requoted.format("Mars"), answer) == [None, None]


def test_prose_around_the_object_is_not_vouched_for() -> None:
    added = PLANET.replace("moon_count", "moon_count and mass").format("Mars")
    before, after = unchecked(PLANET.format("Mars"), added, f"Mars facts:\n```json\n{CACHED}\n```")
    assert before == (
        "'Mars facts: ```json' around the JSON object may depend on the added key 'mass'"
    )
    assert after is not None and after.startswith("the values of 'moon_count'")
    (trailing,) = unchecked(PLANET.format("Mars"), added, f"{CACHED}\nIt has 2 moons.")
    assert trailing is not None and "'It has 2 moons.'" in trailing


def test_a_request_for_the_object_alone_rejects_the_prose_around_it() -> None:
    only = PLANET.replace("Return a", "Return only a").format("Mars")
    answer = f"Here is the JSON object you asked for:\n{CACHED}"
    before, _ = unchecked(PLANET.format("Mars"), only, answer)
    assert before is not None and before.startswith(
        "the new request asks for the JSON object alone"
    )


# --------------------------------------------------------------------------- partial patch


def patch_for(old: str, new: str, answer: str, options: dict[str, Any] | None = None) -> Any:
    family = JsonObjectFamily()
    ctx = changed(old, new, options)
    steps = JsonSegmenter().split(answer)
    index = next(i for i, s in enumerate(steps) if s.text.startswith("{"))
    return family.verifier.partial_patch(ctx, steps[index]), steps, index


def test_the_partial_call_asks_for_the_dependent_values_and_shows_only_the_stated_ones() -> None:
    patch, _, _ = patch_for(PLANET.format("Mars"), PLANET.format("Jupiter"), CACHED)
    assert patch is not None and patch.regenerates_dependents is True
    assert patch.instruction == (
        'Return only a JSON object with the keys "moon_count" and their values for this '
        'request, and no other text. They will be added to this object: {"planet": "Jupiter"}'
    )
    assert patch.response_schema["required"] == ["moon_count"]
    assert patch.response_schema["additionalProperties"] is False
    merged = patch.merge('{"moon_count": 95}')
    assert merged is not None and json.loads(merged.text) == {"planet": "Jupiter", "moon_count": 95}
    assert patch.merge('{"planet": "Jupiter"}') is None  # the asked value is missing


def test_an_added_key_is_asked_with_every_unstated_value() -> None:
    """The model is told the stated planet, never Mars's old moon count."""
    added = PLANET.replace("moon_count", "moon_count and mass").format("Mars")
    patch, _, _ = patch_for(PLANET.format("Mars"), added, CACHED)
    assert patch is not None and patch.regenerates_dependents is True
    assert patch.instruction == (
        'Return only a JSON object with the keys "moon_count", "mass" and their values for '
        'this request, and no other text. They will be added to this object: {"planet": "Mars"}'
    )
    assert patch.response_schema["required"] == ["moon_count", "mass"]
    merged = patch.merge('{"mass": 0.107, "moon_count": 2}')
    assert merged is not None
    assert merged.text == '{"planet": "Mars", "moon_count": 2, "mass": 0.107}'


def test_an_added_key_beside_stated_values_only_is_asked_alone() -> None:
    prompt = 'Return a JSON object with the keys {} where planet is "Mars" and moon_count is 2.'
    old, new = prompt.format("planet and moon_count"), prompt.format("planet, mass, moon_count")
    patch, _, _ = patch_for(old, new, CACHED)
    assert patch is not None and patch.regenerates_dependents is True
    assert patch.response_schema["required"] == ["mass"]
    merged = patch.merge('{"mass": 0.107}')  # placed where the request lists it
    assert merged is not None
    assert merged.text == '{"planet": "Mars", "mass": 0.107, "moon_count": 2}'


def test_no_partial_call_when_an_added_key_leaves_nothing_stated_to_keep() -> None:
    """ "name, born" -> "name, surname, born": name and born are asked again, and a fresh
    answer costs no more."""
    prompt = "Return a JSON object with the keys {} describing the author of Dracula."
    answer = '{"name": "Bram Stoker", "born": 1847}'
    patch, _, _ = patch_for(
        prompt.format("name and born"), prompt.format("name, surname and born"), answer
    )
    assert patch is None


def test_a_changed_value_and_an_added_key_ask_for_both() -> None:
    new = PLANET.replace("moon_count", "moon_count and mass").format("Venus")
    patch, _, _ = patch_for(PLANET.format("Mars"), new, CACHED)
    assert patch is not None
    assert patch.response_schema["required"] == ["moon_count", "mass"]


def test_no_partial_call_when_the_prose_may_depend_on_the_change() -> None:
    patch, _, _ = patch_for(PLANET.format("Mars"), PLANET.format("Venus"), f"{CACHED}\nMars, yes.")
    assert patch is None


def test_no_partial_call_when_it_would_keep_less_than_it_asks_again() -> None:
    prompt = 'Return a JSON object with the keys planet, summary where planet is "{}".'
    answer = '{"planet": "Mars", "summary": "A cold desert world with two small moons."}'
    patch, _, _ = patch_for(prompt.format("Mars"), prompt.format("Venus"), answer)
    assert patch is None


def test_the_partial_reply_is_held_to_the_callers_schema_for_those_keys() -> None:
    class Moon(BaseModel):
        name: str

    class Planet(BaseModel):
        planet: str
        notes: str
        moon_count: int
        largest: Moon

    notes = "a note long enough to be worth keeping rather than asking for the whole object"
    answer = json.dumps(
        {"planet": "Mars", "notes": notes, "moon_count": 2, "largest": {"name": "Phobos"}}
    )
    prompt = f'Describe the planet as JSON where planet is "{{}}" and notes is "{notes}".'
    patch, _, _ = patch_for(
        prompt.format("Mars"), prompt.format("Venus"), answer, {"json_schema": Planet}
    )
    assert patch is not None
    schema = patch.response_schema
    assert schema["required"] == ["moon_count", "largest"]
    assert schema["properties"]["moon_count"]["type"] == "integer"
    assert schema["properties"]["largest"] == {"$ref": "#/$defs/Moon"}
    assert "Moon" in schema["$defs"]


def test_partial_schema_allows_a_nested_value_where_the_object_had_one() -> None:
    schema = partial_schema(["facts", "count"], None, {"facts": {"a": 1}, "count": 2})
    assert schema["properties"]["facts"] == {}
    assert {"type": "number"} in schema["properties"]["count"]["anyOf"]


def test_a_fresh_answer_is_mended_as_before() -> None:
    family = JsonObjectFamily()
    ctx = VerifyContext(PLANET.replace("moon_count", "moon_count and mass").format("Mars"))
    patch = family.verifier.partial_patch(ctx, Step(CACHED))
    assert patch is not None and patch.regenerates_dependents is False
    assert patch.response_schema["required"] == ["mass"]


def test_no_partial_call_keeps_words_a_request_for_the_object_alone_rules_out() -> None:
    """The partial call's merged step is not vouched for again: the text around it must
    already be what the new request allows (the same rule as ``unchecked_part``)."""
    note = "a long stated note that is worth keeping"
    prompt = (
        "Return {}a JSON object with the keys planet, note and moon_count "
        f'where planet is "{{}}" and note is "{note}".'
    )
    answer = json.dumps({"planet": "Mars", "note": note, "moon_count": 2})
    old, new = prompt.format("", "Mars"), prompt.format("only ", "Venus")
    patch, _, _ = patch_for(old, new, f"```json\n{answer}\n```\nHope this helps!")
    assert patch is None
    patch, _, _ = patch_for(old, new, answer)
    assert patch is not None and patch.response_schema["required"] == ["moon_count"]
