"""Hypothesis fuzzing with a fixed seed: segmenters, verifiers and the stored-entry decoders.

Each target gets 10,000 generated cases (``derandomize=True``: the same cases on every run, so
CI is reproducible) and must never raise anything but its documented error. The verifiers'
cases are shared among the properties their tests are named for (2,000 per property and
verifier). Each target runs in well under a minute on two cores.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stepcache_integrations.core.entries import CacheEntry, EntryDecodeError
from stepcache_integrations.core.steps import JsonSegmenter, ParagraphSegmenter, Step, join_steps
from stepcache_integrations.core.stores.sqlite import decode_row, encode_text
from stepcache_integrations.core.tasks.json_object.verifier import JsonVerifier
from stepcache_integrations.core.tasks.linear_equation.verifier import LinearEquationVerifier
from stepcache_integrations.core.text import compare as diff_prompts
from stepcache_integrations.core.verifiers.base import (
    PartialPatch,
    Verdict,
    Verifier,
    VerifyContext,
)
from stepcache_integrations.core.verifiers.staleness import StalenessVerifier

FUZZ = settings(
    derandomize=True,
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,
)

# Fragments that steer generated text into the parsers' interesting corners.
FRAGMENTS = [
    "Solve for x:", "Solve for y: ", "3x", "2*y", "-x", "x", "+", "-", "=", "*", "/", " ",
    "20", "0", "-7", "1.5", "1e309", "NaN", "1/3", "Step 1:", "Step 2: ", "1.", "2)", "- ",
    "* ", "\u2022 ", "\n", "\n\n", "\t", "```json\n", "```", "{", "}", "[", "]", '"', ":",
    ",", '"a": 1', '"name": "Ada"', "null", "true", "with keys a, b and c", "keys: name, age",
    "Return a JSON object", "where age is 36", "x = 5", "The answer is", "\u00e9", "\ud800",
    "\x00", "\u202e", "Paris", "'quoted'",
]  # fmt: skip
texts = st.one_of(
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=24).map("".join),
    st.text(max_size=80),
)
steps = st.lists(st.builds(Step, texts, st.sampled_from(["", "\n", "\n\n", " "])), max_size=6)
SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
}


# -- segmenters -----------------------------------------------------------------------------------


@FUZZ
@given(texts)
def test_fuzz_paragraph_segmenter_is_lossless(text: str) -> None:
    parts = ParagraphSegmenter().split(text)
    assert join_steps(parts) == text
    assert all(isinstance(p, Step) for p in parts)
    assert (parts == []) == (text == "")


@FUZZ
@given(texts)
def test_fuzz_json_segmenter_is_lossless(text: str) -> None:
    parts = JsonSegmenter().split(text)
    assert join_steps(parts) == text
    assert (parts == []) == (text == "")


# -- verifiers ------------------------------------------------------------------------------------

# Each verifier with the options it is fuzzed with (a JSON Schema given by the caller, or none).
VERIFIERS: dict[str, tuple[type[Verifier], dict[str, Any]]] = {
    "linear": (LinearEquationVerifier, {}),
    "json": (JsonVerifier, {}),
    "json-schema": (JsonVerifier, {"json_schema": SCHEMA}),
    "staleness": (StalenessVerifier, {}),
}
# Each property gets 2,000 cases per verifier (10,000 per verifier in all).
VERIFIER_FUZZ = settings(FUZZ, max_examples=2_000)

# Real equations among the prompts, so the solver's answers (fallback, continuation) are made.
equations = st.builds(
    "Solve for {3}: {0}{3} + {1} = {2}. Show each step as 'Step N:'.".format,
    st.integers(-9, 9),
    st.integers(-20, 20),
    st.integers(-50, 50),
    st.sampled_from(["x", "y", "n"]),
)
prompts = st.one_of(texts, equations)
# Answers that close with a value of the variable, as models write them: what shows the
# solver that the value is asked (its answers are made only then).
answers = st.one_of(
    texts,
    st.builds("{0}\n{1} = {2}".format, texts, st.sampled_from(["x", "y", "n"]), st.integers(-9, 9)),
)
cases = st.tuples(prompts, st.one_of(st.none(), prompts), answers, steps)
Case = tuple[str, str | None, str, list[Step]]


def each_verifier(test: Callable[[str, Case], None]) -> Callable[..., None]:
    """Run ``test(name, case)`` for every verifier of :data:`VERIFIERS` on fuzzed cases."""
    fuzzed = VERIFIER_FUZZ(given(case=cases)(test))
    return pytest.mark.parametrize("name", VERIFIERS)(fuzzed)  # type: ignore[no-any-return]


def build(name: str) -> tuple[Verifier, dict[str, Any]]:
    cls, options = VERIFIERS[name]
    return cls(), options


def context(case: Case, options: dict[str, Any]) -> VerifyContext:
    new, cached, _, _ = case
    diff = diff_prompts(cached, new) if cached is not None else None
    return VerifyContext(new, cached, diff, options)


def verdicts(verifier: Verifier, case: Case, options: dict[str, Any]) -> list[Verdict]:
    """The verifier's verdict on every step of the case and on its whole answer."""
    ctx = context(case, options)
    _, _, answer, body = case
    found = [verifier.check_step(ctx, step, index, body) for index, step in enumerate(body)]
    return [*found, verifier.check_answer(ctx, answer)]


@each_verifier
def test_fuzz_verifiers_never_raise_and_answer_with_their_documented_types(
    name: str, case: Case
) -> None:
    verifier, options = build(name)
    ctx = context(case, options)
    new, _, answer, body = case
    assert isinstance(verifier.checks_answer(new), bool)
    assert all(isinstance(verdict, Verdict) for verdict in verdicts(verifier, case, options))
    for step in body:
        adapted = verifier.adapt_step(ctx, step)
        assert adapted is None or isinstance(adapted, Step)
        patch = verifier.partial_patch(ctx, step)
        assert patch is None or isinstance(patch, PartialPatch)
        if patch is not None:
            merged = patch.merge(answer)
            assert merged is None or isinstance(merged, Step)
    repair = verifier.repair_instruction(ctx, answer, Verdict.fail(verifier.name, "x"))
    assert repair is None or (isinstance(repair, str) and repair.strip())  # never an empty ask
    continuation = verifier.continue_steps(ctx, body)
    assert continuation is None or isinstance(continuation, str)
    fallback = verifier.fallback(ctx)
    assert fallback is None or isinstance(fallback, str)


@each_verifier
def test_fuzz_verdicts_name_their_verifier_and_step_and_a_failure_says_why(
    name: str, case: Case
) -> None:
    verifier, options = build(name)
    *steps_verdicts, answer_verdict = verdicts(verifier, case, options)
    assert [verdict.step for verdict in steps_verdicts] == list(range(len(case[3])))
    assert answer_verdict.step is None
    for verdict in [*steps_verdicts, answer_verdict]:
        assert verdict.verifier == verifier.name
        assert not verdict.failed or verdict.reason.strip()  # a record says why it failed


@each_verifier
def test_fuzz_verifiers_give_the_same_verdicts_when_asked_again(name: str, case: Case) -> None:
    """No state carried from one call to the next: the same verifier asked twice, and a new
    one, judge the same case alike."""
    verifier, options = build(name)
    first = verdicts(verifier, case, options)
    assert verdicts(verifier, case, options) == first
    assert verdicts(build(name)[0], case, options) == first


@pytest.mark.parametrize("name", [name for name, (_, options) in VERIFIERS.items() if not options])
@VERIFIER_FUZZ
@given(case=cases)
def test_fuzz_a_verifier_never_fails_an_answer_it_says_it_does_not_check(
    name: str, case: Case
) -> None:
    """``checks_answer(request) is False`` promises that ``check_answer`` cannot fail: a
    streamed answer is then shown as it comes. (Fuzzed without options: a JSON Schema given by
    the caller makes the JSON verifier check answers to any request, which ``checks_answer``,
    given the request alone, cannot tell.)"""
    verifier, options = build(name)
    new, _, answer, _ = case
    if not verifier.checks_answer(new):
        assert not verifier.check_answer(context(case, options), answer).failed


@each_verifier
def test_fuzz_a_verifiers_own_answers_pass_its_own_check(name: str, case: Case) -> None:
    """The deterministic answer (``fallback``) and the deterministic continuation of a prefix
    (``continue_steps``) are served without a model: they must pass the verifier itself."""
    verifier, options = build(name)
    new, _, answer, body = case
    # The answer in hand: the model's own being mended (fallback), the cached answer whose
    # prefix is shown (continue_steps).
    ctx = replace(context(case, options), answer=answer)
    fallback = verifier.fallback(ctx)
    if fallback is not None:
        assert verifier.check_answer(VerifyContext(new, options=options), fallback).passed
    continuation = verifier.continue_steps(ctx, body)
    if continuation is not None:
        assert verifier.check_answer(ctx, join_steps(body) + continuation).passed


def test_the_fuzzed_prompts_reach_the_solvers_answers() -> None:
    """Control: the cases above include requests with a deterministic answer, and prefixes
    the solver continues (so the last property is not vacuous)."""
    verifier = LinearEquationVerifier()
    prompt = "Solve for x: 3x + 5 = 20. Show each step as 'Step N:'."
    # Only an answer that shows the value is asked makes the solver answer: here a model's
    # wrong one (fallback) and the cached one (continue_steps).
    assert verifier.fallback(VerifyContext(prompt)) is None
    ctx = VerifyContext(prompt, answer="Step 1: 3x = 18.\nStep 2: x = 6.")
    fallback = verifier.fallback(ctx)
    assert fallback == "Step 1: 3x = 15.\nStep 2: x = 5."
    ctx = VerifyContext(prompt, answer="Step 1: 3x = 15.\nStep 2: x = 5.")
    assert verifier.continue_steps(ctx, [Step("Step 1: Start with 3x + 5 = 20.", "\n")])


# -- stored-entry decoders ------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=10),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
entries = st.builds(
    CacheEntry,
    id=st.text(max_size=8),
    namespace=st.text(max_size=12),
    tenant=st.one_of(st.none(), st.text(max_size=6)),
    prompt=texts,
    key=st.text(max_size=8),
    steps=st.lists(st.builds(Step, texts, st.sampled_from(["", "\n"])), max_size=4).map(tuple),
    segmenter=st.sampled_from(["paragraph", "json"]),
    task=st.one_of(st.none(), st.text(max_size=6)),
    tokens_input=st.integers(0, 10**6),
    tokens_output=st.integers(0, 10**6),
    created_at=st.floats(0, 4e9),
    last_used_at=st.floats(0, 4e9),
)
FIELDS = list(CacheEntry.create("ns", None, "prompt", [], "paragraph").to_dict())


@st.composite
def entry_dicts(draw: st.DrawFn) -> object:
    """Valid dicts, valid dicts with one field broken or removed, and arbitrary JSON."""
    kind = draw(st.sampled_from(["valid", "mutated", "missing", "arbitrary"]))
    if kind == "arbitrary":
        return draw(json_values)
    data = draw(entries).to_dict()
    if kind == "mutated":
        data[draw(st.sampled_from(FIELDS))] = draw(json_values)
    elif kind == "missing":
        del data[draw(st.sampled_from(FIELDS))]
    return data


@FUZZ
@given(entry_dicts())
def test_fuzz_entry_decoder(data: object) -> None:
    try:
        entry = CacheEntry.from_dict(data)
    except EntryDecodeError:
        return
    assert CacheEntry.from_dict(entry.to_dict()) == entry  # what decodes round-trips
    assert math.isfinite(entry.created_at) and math.isfinite(entry.last_used_at)


@st.composite
def rows(draw: st.DrawFn) -> object:
    """Rows as SQLite returns them: valid, with a broken column or payload, or arbitrary."""
    kind = draw(st.sampled_from(["valid", "column", "payload", "arbitrary"]))
    cells = st.one_of(json_values, st.binary(max_size=12))
    if kind == "arbitrary":
        return draw(st.one_of(st.lists(cells, max_size=9).map(tuple), cells))
    entry = draw(entries)
    payload = json.dumps(entry.to_dict(), ensure_ascii=True)
    row: list[object] = [
        entry.id,
        entry.key,
        encode_text(entry.namespace),
        None if entry.tenant is None else encode_text(entry.tenant),
        entry.created_at,
        entry.last_used_at,
        payload,
    ]
    if kind == "column":
        row[draw(st.integers(0, 6))] = draw(cells)
    elif kind == "payload":
        cut = draw(st.integers(0, len(payload)))
        junk = draw(st.one_of(st.text(max_size=4), st.binary(max_size=4).map(repr)))
        row[6] = draw(st.sampled_from([payload[:cut], payload[:cut] + junk + payload[cut:]]))
    return tuple(row)


@FUZZ
@given(rows())
def test_fuzz_sqlite_row_decoder(row: Any) -> None:
    try:
        entry = decode_row(row)
    except EntryDecodeError:
        return
    assert isinstance(entry, CacheEntry)
    assert entry.id == row[0] and encode_text(entry.namespace) == row[2]
