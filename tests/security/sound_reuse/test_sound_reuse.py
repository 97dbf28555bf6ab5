"""Sound reuse (issue 22): a served answer never carries a part that depends on a change
nothing checked.

The labelled adversarial corpus (``corpus/*.jsonl``) holds request pairs written to make the
cache serve a stale answer: the cached request first, then a new request whose correct answer
differs in a part the cached answer depended on. An oracle model (SIMULATED: it answers every
request correctly, the cache's own follow-up calls included) stands behind the cache, so any
wrong answer that comes out was made by the cache. Each class runs on each path it names
(``StepCacheLLM`` for LangChain, the LlamaIndex ``StepCacheLLM``, ``StepCacheMiddleware`` in a
``create_agent`` agent), with a fresh ``StepCache`` per case.

The corpus is written independently of the package's code; it is the acceptance check of
issue 22, so it fails until every family reuses soundly.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.security.sound_reuse.cases.build import build
from tests.security.sound_reuse.oracle import (
    BENIGN_FILE,
    CORPUS_DIR,
    PATHS,
    Case,
    corpus_rows,
    find_json,
    load_benign,
    load_corpus,
    read_jsonl,
)
from tests.security.sound_reuse.paths import Served, run

CORPUS = load_corpus()
BENIGN = load_benign()
CLASSES = sorted({case.cls for case in CORPUS})
RUNS = [
    pytest.param(cls, path, id=f"{cls}-{path}")
    for cls in CLASSES
    for path in PATHS
    if any(case.cls == cls and path in case.paths for case in CORPUS)
]


def wrong_answers(cases: list[Case], path: str, fresh: bool = False) -> list[Served]:
    return [s for case in cases if path in case.paths for s in run(case, path, fresh) if s.wrong]


# -- the corpus itself ----------------------------------------------------------------------------


def test_the_corpus_is_large_labelled_and_well_formed() -> None:
    rows = corpus_rows()
    assert len(rows) >= 300
    assert len(CLASSES) >= 14
    ids = [row["id"] for row in rows] + [row["id"] for row in read_jsonl(BENIGN_FILE)]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for row in rows:
        assert {"id", "class", "paths", "cached", "new"} <= set(row), row["id"]
        assert row["paths"] and set(row["paths"]) <= set(PATHS), row["id"]
        for side in ("cached", "new"):
            assert "answer" in row[side] and row[side]["answer"] not in ("", None), row["id"]
            assert "prompt" in row[side] or "messages" in row[side], row["id"]
    per_class = Counter(case.cls for case in CORPUS)
    assert min(per_class.values()) >= 5, per_class


def test_the_committed_corpus_is_what_its_builders_write() -> None:
    """The JSONL files are generated (``python -m tests.security.sound_reuse.cases``): a case is
    added in a builder, and the files are written again."""
    by_class, benign = build()
    assert [row for rows in by_class.values() for row in rows] == corpus_rows()
    assert benign == read_jsonl(BENIGN_FILE)
    assert sorted(p.stem for p in CORPUS_DIR.glob("*.jsonl")) == sorted(by_class)


@pytest.mark.parametrize("case", CORPUS + BENIGN, ids=lambda c: c.id)
def test_every_case_is_a_real_pair_with_checkable_answers(case: Case) -> None:
    if case.models:  # the endpoint differs, the request is the same
        assert case.models["langchain"]["cached"] != case.models["langchain"]["new"]
        assert case.cached.answer != case.new.answer
    else:
        assert case.request(case.cached) != case.request(case.new), case.id
    if not case.cls.startswith("benign"):
        assert case.cached.answer != case.new.answer, case.id
    offered = {tool["function"]["name"] for tool in (*case.tools, *(case.new_tools or ()))}
    for side in (case.cached, case.new):
        if case.judge == "json":
            assert find_json(side.answer.text) is not None, (case.id, side.answer.text)
        for name, args in side.answer.calls:
            assert name in offered, (case.id, name)
            assert isinstance(json.loads(args), dict)
        if case.judge == "tool_calls" and side.messages[-1]["role"] != "tool":
            assert side.answer.calls, case.id


# -- the harness is sound: without reuse, every answer is right ----------------------------------


@pytest.mark.parametrize("path", PATHS)
def test_without_reuse_every_corpus_answer_is_the_oracles(path: str) -> None:
    """Each request through its own fresh cache: nothing can be reused, so any wrong answer
    here would be the harness's (the oracle, the judge, a path), not the cache's reuse."""
    wrong = wrong_answers(CORPUS + BENIGN, path, fresh=True)
    for bad in wrong:
        print("HARNESS", bad.line())
    assert wrong == []


# -- the acceptance check ---------------------------------------------------------------------


@pytest.mark.parametrize(("cls", "path"), RUNS)
def test_no_stale_answer_is_served_on_the_sound_reuse_corpus(cls: str, path: str) -> None:
    cases = [case for case in CORPUS if case.cls == cls]
    wrong = wrong_answers(cases, path)
    for bad in wrong:
        print("WRONG", bad.line())
    total = sum(path in case.paths for case in cases)
    print(f"{cls} on {path}: {len(wrong)} wrong answers served in {total} cases")
    assert wrong == []


# -- the benign side: reuse must not collapse ------------------------------------------------------


@pytest.mark.parametrize("path", PATHS)
def test_benign_variants_are_served_right_and_their_reuse_is_reported(path: str) -> None:
    """Only reports how many benign new requests were served without a model call (no bar on
    the count); a wrong answer is still a failure."""
    wrong: list[Served] = []
    decisions: Counter[str] = Counter()
    per_class: Counter[str] = Counter()
    cases = [case for case in BENIGN if path in case.paths]
    for case in cases:
        served = run(case, path)
        wrong.extend(s for s in served if s.wrong)
        first = next(s for s in served if s.side == "new")
        decisions[first.decision] += 1
        if first.decision in ("exact", "reuse"):
            per_class[case.cls] += 1
    hits = decisions["exact"] + decisions["reuse"]
    print(
        f"benign on {path}: {hits} of {len(cases)} served from the cache without a model call "
        f"({dict(decisions)}; per class {dict(per_class)})"
    )
    for bad in wrong:
        print("WRONG", bad.line())
    assert wrong == []
