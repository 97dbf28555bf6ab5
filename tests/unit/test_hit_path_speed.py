"""The hit path's shortcuts (memos, lazy recognition, fast paths) change no result.

Speed itself is measured by ``stepcache bench --overhead``, never asserted here.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

from stepcache_integrations import StepCache
from stepcache_integrations.adapter import drive
from stepcache_integrations.core.embeddings import StructuralEmbedder
from stepcache_integrations.core.namespace import make_namespace
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply
from stepcache_integrations.core.tasks import default_registry
from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    parse_equation,
    scan_equations,
)
from stepcache_integrations.core.tasks.linear_equation.family import LinearEquationFamily
from stepcache_integrations.core.tasks.linear_equation.rewrite import Trace
from stepcache_integrations.core.tasks.linear_equation.written import numbers_in
from tests.conftest import solve_steps

NS = make_namespace({"model": "plain"})

PROMPTS = [
    "Solve for x: 3x + 5 = 20.",
    'Solve -18 - 8g = -34 for g. End with the line "g = <value>".',
    'Give me a JSON object with the keys "name" and "age".',
    "",
    "Héllo wörld 3.5 'quoted' `code` camelCase a.b_c",
]


def test_embedder_gives_the_same_vector_fresh_remembered_and_in_any_batch() -> None:
    remembered = StructuralEmbedder()
    batch = remembered.embed(PROMPTS)
    for row, text in enumerate(PROMPTS):
        fresh = StructuralEmbedder().embed([text])[0]  # a new embedder remembers nothing
        again = remembered.embed([text])[0]  # served from the memo
        assert fresh.tobytes() == batch[row].tobytes() == again.tobytes()
    shuffled = list(reversed(PROMPTS))
    assert remembered.embed(shuffled).tobytes() == batch[::-1].tobytes()


def test_embedder_memo_is_not_changed_by_callers() -> None:
    embedder = StructuralEmbedder()
    first = embedder.embed([PROMPTS[0]])
    first[0, :] = 0.0  # the caller owns the returned array
    second = embedder.embed([PROMPTS[0]])
    assert np.linalg.norm(second[0]) > 0.99


def test_equation_spans_are_the_same_when_asked_again() -> None:
    family = LinearEquationFamily()
    request = "Solve for x: 3x + 5 = 20, then give x."
    spans = family.verified_spans(request, {})
    assert [request[start:end] for start, end in spans][:1] == ["3x + 5 = 20"]
    assert family.verified_spans(request, {}) == spans
    assert family.verified_spans("Write a poem.", {}) == ()


def test_signs_and_unit_factors_give_the_exact_values() -> None:
    equation = parse_equation("Solve -(2x - 3) = -(-7) for x")
    assert equation is not None
    assert (equation.a, equation.b, equation.c) == (Fraction(-2), Fraction(3), Fraction(7))
    assert equation.solution == Fraction(-2)
    _, found = scan_equations("1 * (x + 0.5) = -2.25")
    assert [(eq.left.coef("x"), eq.left.const, eq.right.const) for eq in found] == [
        (Fraction(1), Fraction(1, 2), Fraction(-9, 4))
    ]


def test_scanning_plain_text_and_marked_up_text_agree() -> None:
    rng = random.Random(5)
    for _ in range(50):
        a, b = rng.randint(1, 9), rng.randint(-20, 20)
        plain = f"Step 1: {a}x + {b} = {a * 3 + b}"
        marked = f"**Step 1:** $ {a}x + {b} = {a * 3 + b} $"
        assert [eq.text for eq in scan_equations(plain)[1]] == [
            eq.text for eq in scan_equations(marked)[1]
        ]


def test_exact_hit_does_not_recognise_the_task() -> None:
    registry = default_registry()
    calls: list[str] = []
    recognise = registry.recognise

    def counting(prompt, options):  # type: ignore[no-untyped-def]
        calls.append(prompt)
        return recognise(prompt, options)

    registry.recognise = counting  # type: ignore[method-assign]
    cache = StepCache(tasks=registry)
    prompt = "Solve for x: 3x + 5 = 20. Show each step as 'Step N:'."

    def model(call: ModelCall) -> ModelReply:
        return ModelReply(solve_steps(prompt), 10, 5)

    def ask(text: str):  # type: ignore[no-untyped-def]
        return drive(cache.serve(CacheRequest(text, NS, input_chars=len(text))), model)

    assert ask(prompt).record.decision == "miss"
    assert calls  # the miss needed the task families
    calls.clear()
    exact = ask(prompt)
    assert exact.record.decision == "exact" and exact.text == solve_steps(prompt)
    assert calls == []
    near = ask(prompt.replace("x", "y"))
    assert near.record.decision in ("reuse", "patch") and near.record.model_calls == 0
    assert calls != []


def test_an_identical_prompt_is_found_by_its_text_and_a_rewording_by_its_form(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The exact path asks the store for the prompt's own text before computing its comparison
    # form (a tokenisation); a rewording of the same request still hits, through its form.
    import stepcache_integrations.core.cache as cache_module

    forms: list[str] = []
    compute = cache_module.prompt_key

    def counting(namespace: str, prompt: str) -> str:
        forms.append(prompt)
        return compute(namespace, prompt)

    monkeypatch.setattr(cache_module, "prompt_key", counting)
    cache = StepCache()
    prompt = "Solve for x: 3x + 5 = 20. Show each step as 'Step N:'."
    reworded = prompt.replace("Show each", "Show  each")

    def model(call: ModelCall) -> ModelReply:
        return ModelReply(solve_steps(prompt), 10, 5)

    def ask(text: str):  # type: ignore[no-untyped-def]
        return drive(cache.serve(CacheRequest(text, NS, input_chars=len(text))), model)

    assert ask(prompt).record.decision == "miss"
    forms.clear()
    exact = ask(prompt)
    assert exact.record.decision == "exact" and exact.text == solve_steps(prompt)
    assert forms == []
    again = ask(reworded)
    assert again.record.decision == "exact" and again.text == solve_steps(prompt)
    assert forms == [reworded]
    other = ask(prompt.replace("20", "23"))  # another request: never found by the text path
    assert other.record.decision != "exact"


def test_a_text_is_scanned_once_and_its_equations_are_shared_read_only() -> None:
    text = "Step 2: Divide both sides by 3: 3x = 15, so x = 5."
    first = scan_equations(text)
    assert scan_equations(text) is first  # a hit reads a step several times: scanned once
    assert isinstance(first[1], tuple) and [eq.text for eq in first[1]] == ["3x = 15", "x = 5"]


def _every_quantity(old: LinearEquation, new: LinearEquation) -> dict[Fraction, set[Fraction]]:
    """What the rewrite's trace must index, computed the plain way: every constant as written
    and in normal form and the solution, and the sum, difference, product and quotient of
    every ordered pair of them, each with both signs."""
    base = [(old.a, new.a), (old.b, new.b), (old.c, new.c), (old.solution, new.solution)]
    written = [w.signed for w in numbers_in(old.text)], [w.signed for w in numbers_in(new.text)]
    if len(written[0]) == len(written[1]):
        base += list(zip(*written, strict=True))
    pairs = list(base)
    for (p_old, p_new), (q_old, q_new) in itertools.product(base, repeat=2):
        pairs += [(p_old + q_old, p_new + q_new), (p_old - q_old, p_new - q_new)]
        pairs.append((p_old * q_old, p_new * q_new))
        if q_old != 0 and q_new != 0:
            pairs.append((p_old / q_old, p_new / q_new))
    index: dict[Fraction, set[Fraction]] = {}
    for old_value, new_value in pairs:
        for sign in (1, -1):
            index.setdefault(sign * old_value, set()).add(sign * new_value)
    return index


def test_the_rewrite_trace_reads_every_quantity_as_the_plain_computation_does() -> None:
    rng = random.Random(11)
    forms = ["{a}x + {b} = {c}", "{c} = {b} - {a}x", "x/{a} + {b} = {c}", "{a}(x - {b}) = {c}"]
    for _ in range(200):
        old = parse_equation(
            rng.choice(forms).format(
                a=rng.randint(1, 9), b=rng.randint(0, 30), c=rng.randint(-40, 40)
            )
        )
        new = parse_equation(
            rng.choice(forms).format(
                a=rng.randint(1, 9), b=rng.randint(0, 30), c=rng.randint(-40, 40)
            )
        )
        if old is None or new is None:
            continue
        trace, expected = Trace(old, new), _every_quantity(old, new)
        for value in [*expected, Fraction(1, 7), Fraction(10**6)]:
            readings = trace.readings(value)
            assert readings == expected.get(value, set())
            assert all(type(reading) is Fraction for reading in readings)
