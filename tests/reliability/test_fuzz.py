"""Hypothesis fuzzing with a fixed seed: segmenters, verifiers and the stored-entry decoders.

Each target gets 10,000 generated cases (``derandomize=True``: the same cases on every run, so
CI is reproducible) and must never raise anything but its documented error. Each target runs
in well under a minute on two cores.
"""

from __future__ import annotations

import json
import math
from typing import Any

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


def exercise(verifier: Verifier, new: str, cached: str | None, answer: str, body: list[Step],
             options: dict[str, Any]) -> None:  # fmt: skip
    """Every hook of a verifier on arbitrary input: valid types back, no exception."""
    diff = diff_prompts(cached, new) if cached is not None else None
    ctx = VerifyContext(new, cached, diff, options)
    assert isinstance(verifier.checks_answer(new), bool)
    for index, step in enumerate(body):
        assert isinstance(verifier.check_step(ctx, step, index, body), Verdict)
        adapted = verifier.adapt_step(ctx, step)
        assert adapted is None or isinstance(adapted, Step)
        patch = verifier.partial_patch(ctx, step)
        assert patch is None or isinstance(patch, PartialPatch)
        if patch is not None:
            merged = patch.merge(answer)
            assert merged is None or isinstance(merged, Step)
    verdict = verifier.check_answer(ctx, answer)
    assert isinstance(verdict, Verdict)
    repair = verifier.repair_instruction(ctx, answer, Verdict.fail(verifier.name, "x"))
    assert repair is None or isinstance(repair, str)
    continuation = verifier.continue_steps(ctx, body)
    assert continuation is None or isinstance(continuation, str)
    fallback = verifier.fallback(ctx)
    assert fallback is None or isinstance(fallback, str)


@FUZZ
@given(texts, st.one_of(st.none(), texts), texts, steps)
def test_fuzz_linear_equation_verifier(
    new: str, cached: str | None, answer: str, body: list[Step]
) -> None:
    exercise(LinearEquationVerifier(), new, cached, answer, body, {})


@FUZZ
@given(texts, st.one_of(st.none(), texts), texts, steps, st.booleans())
def test_fuzz_json_verifier(
    new: str, cached: str | None, answer: str, body: list[Step], with_schema: bool
) -> None:
    exercise(
        JsonVerifier(), new, cached, answer, body, {"json_schema": SCHEMA} if with_schema else {}
    )


@FUZZ
@given(texts, st.one_of(st.none(), texts), texts, steps)
def test_fuzz_staleness_verifier(
    new: str, cached: str | None, answer: str, body: list[Step]
) -> None:
    exercise(StalenessVerifier(), new, cached, answer, body, {})


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
