"""The labelled corpus of request pairs: the proof of "the same request".

Every pair marked different-meaning must be judged different (in both directions): serving
one's answer for the other would be a wrong answer. A same-meaning pair judged different only
costs a model call; the share judged the same is measured and printed.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from stepcache_integrations.core.text import compare

CORPUS = Path(__file__).with_name("same_request_corpus.jsonl")
# Measured on this corpus: 116 of 158 same-meaning pairs (73.4%) are judged the same. The
# "same_reworded" class (synonyms, reordering, spelling variants) is deliberately outside
# the neutral rules and judged different throughout. 0.5.0 judged 134 the same: the 18 more
# it merged rested on rules that are not certain (a capital inside a sentence folded unless a
# lexicon listed the word; "'s" after a question word read as "is"; a sentence's capital in
# a request about letters; "Good morning!" dropped, though it tells the time of day), see
# docs/same_request.md#what-it-costs-measured.
PARAPHRASE_FLOOR = 116 / 158


def _load() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


ROWS = _load()
DIFFERENT = [row for row in ROWS if row["label"] == "different"]
SAME = [row for row in ROWS if row["label"] == "same"]


def test_corpus_shape() -> None:
    assert len(ROWS) >= 300
    ids = [row["id"] for row in ROWS]
    assert len(ids) == len(set(ids))
    for row in ROWS:
        assert set(row) == {"id", "class", "label", "a", "b"}
        assert row["label"] in ("same", "different")
        assert row["a"] != row["b"]
    classes = Counter(row["class"] for row in ROWS)
    assert len(classes) >= 10
    assert len({row["class"] for row in DIFFERENT}) >= 10
    for cls, count in classes.items():
        assert count >= 10, f"class {cls} has only {count} pairs"
    labels_per_class = {cls: {r["label"] for r in ROWS if r["class"] == cls} for cls in classes}
    assert all(len(labels) == 1 for labels in labels_per_class.values())


@pytest.mark.parametrize("row", DIFFERENT, ids=[row["id"] for row in DIFFERENT])
def test_different_meaning_is_never_the_same_request(row: dict[str, Any]) -> None:
    forward = compare(row["a"], row["b"])
    backward = compare(row["b"], row["a"])
    assert forward.same is False
    assert backward.same is False
    assert forward.edits and backward.edits


@pytest.mark.parametrize(
    "row",
    [row for row in DIFFERENT if row["class"] == "negation"],
    ids=[row["id"] for row in DIFFERENT if row["class"] == "negation"],
)
def test_every_negation_pair_changes_polarity(row: dict[str, Any]) -> None:
    assert compare(row["a"], row["b"]).polarity_changed
    assert compare(row["b"], row["a"]).polarity_changed


def test_paraphrase_share(capsys: pytest.CaptureFixture[str]) -> None:
    judged_same = [row for row in SAME if compare(row["a"], row["b"]).same]
    share = len(judged_same) / len(SAME)
    per_class = Counter(row["class"] for row in SAME)
    hits = Counter(row["class"] for row in judged_same)
    with capsys.disabled():
        print(
            f"\nsame-meaning pairs judged the same request: {len(judged_same)}/{len(SAME)} "
            f"({share:.1%}); "
            + ", ".join(f"{cls} {hits[cls]}/{n}" for cls, n in sorted(per_class.items()))
        )
    assert share >= PARAPHRASE_FLOOR


@pytest.mark.parametrize("row", SAME, ids=[row["id"] for row in SAME])
def test_a_same_judgement_is_symmetric_and_carries_no_change(row: dict[str, Any]) -> None:
    forward = compare(row["a"], row["b"])
    backward = compare(row["b"], row["a"])
    assert forward.same == backward.same
    if forward.same:
        assert not forward.edits and not forward.removed and not forward.added
        assert not forward.numbers_changed and not forward.polarity_changed
        assert forward.identical_content
    else:
        assert forward.edits
