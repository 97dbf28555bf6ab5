"""Properties of sound reuse over random values (issue 22).

Generated word problems whose answers state a condition, a threshold, a comparison or a
rounding over their quantities, and JSON objects whose other keys follow from a stated value,
each asked twice with random values through a default ``StepCacheLLM`` whose model is the
oracle (SIMULATED: always right). Whatever the cache decides, the answer it serves for the
second request must be the oracle's answer to it: a stale part is never served.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.security.sound_reuse.cases import json_cases as jc
from tests.security.sound_reuse.cases import word_problem_cases as wp
from tests.security.sound_reuse.cases.common import case, js
from tests.security.sound_reuse.oracle import parse_case
from tests.security.sound_reuse.paths import run

PROPERTY_SETTINGS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# Each template with a strategy for its quantities (ranges where the prose stays true).
WORD_PROBLEMS: list[tuple[Callable[..., tuple[str, str]], st.SearchStrategy[tuple[Any, ...]]]] = [
    (wp.free_delivery, st.tuples(st.integers(1, 6), st.integers(5, 30))),
    (wp.trip_minimum, st.tuples(st.integers(1, 19), st.integers(1, 19))),
    (wp.lift, st.tuples(st.integers(2, 12), st.integers(50, 100))),
    (wp.zoo_children, st.tuples(st.integers(1, 15), st.integers(1, 15))),
    (wp.bulk_discount, st.tuples(st.integers(1, 20))),
    (wp.pass_mark, st.tuples(st.integers(0, 25), st.integers(0, 25), st.integers(0, 25))),
    (wp.snack_budget, st.tuples(st.integers(5, 90), st.integers(5, 90))),
    (wp.battery, st.tuples(st.integers(1, 9), st.integers(1, 6))),
    (wp.baggage, st.tuples(st.integers(3, 20), st.integers(2, 15))),
    (wp.voting, st.tuples(st.integers(1990, 2015))),
    (wp.parking, st.tuples(st.integers(1, 9))),
    (wp.notebooks_money, st.tuples(st.integers(10, 60), st.integers(1, 10), st.integers(2, 12))),
    (wp.cafe_table, st.tuples(st.integers(2, 16))),
    (wp.tshirts_shipping, st.tuples(st.integers(1, 8))),
    (wp.overtime, st.tuples(st.integers(30, 55))),
    (wp.shirts, st.tuples(st.integers(10, 40), st.integers(10, 40))),
    (wp.laps, st.tuples(st.integers(1, 6))),
    (wp.class_vote, st.tuples(st.integers(1, 30), st.integers(1, 30))),
    (wp.minibuses, st.tuples(st.integers(10, 60), st.integers(2, 8))),
    (wp.paint, st.tuples(st.integers(11, 90), st.integers(2, 9))),
    (wp.theatre, st.tuples(st.integers(21, 160), st.integers(2, 8))),
    (wp.percent_of, st.tuples(st.integers(10, 200), st.integers(1, 99))),
]


@st.composite
def word_problem_pairs(draw: st.DrawFn) -> dict[str, Any]:
    template, values = draw(st.sampled_from(WORD_PROBLEMS))
    old, new = draw(values), draw(values)
    p1, a1 = template(*old)
    p2, a2 = template(*new)
    assume(p1 != p2)
    return case("generated", f"generated_{template.__name__}", p1, a1, p2, a2)


@PROPERTY_SETTINGS
@given(word_problem_pairs())
def test_a_word_problem_with_new_quantities_never_gets_a_stale_part(row: dict[str, Any]) -> None:
    served = run(parse_case(row), "langchain")
    wrong = [s.line() for s in served if s.wrong]
    assert wrong == [], wrong


def _fahrenheit(value: int) -> Any:
    return jc.clean(value * 9 / 5 + 32)


@st.composite
def json_pairs(draw: st.DrawFn) -> dict[str, Any]:
    template = draw(st.sampled_from(jc.TEMPLATES))
    kind = draw(st.sampled_from(["lookup", "fahrenheit", "square", "total"]))
    if kind == "lookup":
        k1, k2, facts = draw(st.sampled_from(jc.LOOKUPS))
        (a, fa), (b, fb) = draw(st.permutations(facts))[:2]
        prompts = [template.format(k1=k1, k2=k2, v=jc.literal(v)) for v in (a, b)]
        answers = [js({k1: a, k2: fa}), js({k1: b, k2: fb})]
    elif kind == "fahrenheit":
        a, b = draw(st.integers(-30, 45)), draw(st.integers(-30, 45))
        prompts = [template.format(k1="celsius", k2="fahrenheit", v=v) for v in (a, b)]
        answers = [js({"celsius": v, "fahrenheit": _fahrenheit(v)}) for v in (a, b)]
    elif kind == "square":
        a, b = draw(st.integers(2, 40)), draw(st.integers(2, 40))
        prompts = [template.format(k1="n", k2="square", v=v) for v in (a, b)]
        answers = [js({"n": v, "square": v * v}) for v in (a, b)]
    else:
        price = draw(st.integers(2, 50))
        q1, q2 = draw(st.integers(1, 12)), draw(st.integers(1, 12))
        prompt = (
            "Return a JSON object with the keys price, quantity and total where price is "
            "{p} and quantity is {q}."
        )
        prompts = [prompt.format(p=price, q=q) for q in (q1, q2)]
        answers = [js({"price": price, "quantity": q, "total": price * q}) for q in (q1, q2)]
    assume(prompts[0] != prompts[1])
    return case(
        "generated",
        f"generated_json_{kind}",
        prompts[0],
        answers[0],
        prompts[1],
        answers[1],
        judge="json",
    )


@PROPERTY_SETTINGS
@given(json_pairs())
def test_a_json_object_with_a_new_stated_value_never_keeps_a_derived_value(
    row: dict[str, Any],
) -> None:
    served = run(parse_case(row), "langchain")
    wrong = [s.line() for s in served if s.wrong]
    assert wrong == [], wrong
