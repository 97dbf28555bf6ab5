"""The runner (one mode over one seed), the report (aggregation, targets, Markdown) and the
overhead micro-benchmark, on the SIMULATED backend with no sleeping."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel

from stepcache_integrations.bench.backends import Backend
from stepcache_integrations.bench.hit_probes import checkpoints
from stepcache_integrations.bench.overhead import (
    TELEMETRY_CONFIGURATIONS,
    TELEMETRY_ENTRIES,
    measure_overhead,
    render_overhead,
    time_telemetry,
)
from stepcache_integrations.bench.report import (
    RunInfo,
    aggregate,
    build_results,
    cost_breakdown,
    evaluate_targets,
    family_breakdown,
    family_runs,
    kind_breakdown,
    mode_metrics,
    per_family,
    render_markdown,
)
from stepcache_integrations.bench.runner import (
    MODES,
    ModeRun,
    RequestResult,
    run_interleaved,
    run_mode,
)
from stepcache_integrations.bench.simulated import SimulatedChatModel
from stepcache_integrations.bench.workload import build_workload
from stepcache_integrations.core.records import DECISIONS

QUICK = build_workload(42, quick=True)
FULL = build_workload(42)


def simulated(
    equation: float = 0.3,
    json: float = 0.8,
    word: float = 0.4,
    continuation: float = 0.7,
    repair: float = 0.6,
) -> Backend:
    def factory(max_tokens: int) -> BaseChatModel:
        return SimulatedChatModel(
            latency_scale=0,
            max_tokens=max_tokens,
            equation_accuracy=equation,
            json_accuracy=json,
            word_accuracy=word,
            continuation_accuracy=continuation,
            repair_accuracy=repair,
        )

    return Backend("simulated", "SIMULATED-test", simulated=True, factory=factory)


def result(
    latency: float,
    *,
    tokens: int = 10,
    correct: bool = True,
    flagged: bool = False,
    served_by: str = "model",
    seed_id: str = "r",
) -> RequestResult:
    return RequestResult(
        id=seed_id,
        kind="changed_constants",
        family="equation",
        base_family="equation",
        latency_s=latency,
        input_tokens=tokens // 2,
        output_tokens=tokens - tokens // 2,
        tokens=tokens,
        task_correct=correct,
        integrity_ok=correct,
        flagged=flagged,
        served_by=served_by,
        answer="x = 1",
    )


def mode_run(mode: str, seed: int, results: list[RequestResult]) -> ModeRun:
    return ModeRun(mode, seed, 2, 0.5, results, (1.0, 1.0, 1.0), (1.5, 1.0, 1.0))  # type: ignore[arg-type]


# --- runner ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_serves_every_evaluation_request_once(mode: str) -> None:
    seen: list[RequestResult | None] = []
    run = run_mode(
        mode,  # type: ignore[arg-type]
        simulated(),
        QUICK,
        progress=lambda _, r: seen.append(r),
    )
    assert run.mode == mode and run.seed == 42
    assert [r.id for r in run.results] == [r.id for r in QUICK.evaluation]
    # The warm-up is served (progress ticks) but not measured.
    assert run.warmup_requests == len(QUICK.warmup)
    assert seen.count(None) == len(QUICK.warmup)
    assert len(seen) == len(QUICK.warmup) + len(QUICK.evaluation)
    assert all(r.latency_s >= 0 for r in run.results)


def test_no_cache_calls_the_model_for_everything() -> None:
    run = run_mode("no_cache", simulated(), QUICK)
    assert {r.served_by for r in run.results} == {"model"}
    assert all(r.tokens > 0 and r.tokens == r.input_tokens + r.output_tokens for r in run.results)
    assert all(not r.flagged for r in run.results)


def test_exact_cache_serves_identical_repeats_for_zero_tokens() -> None:
    run = run_mode("exact_cache", simulated(), QUICK)
    repeats = [r for r in run.results if r.kind == "identical_repeat"]
    assert repeats and all(r.served_by == "exact" and r.tokens == 0 for r in repeats)
    others = [r for r in run.results if r.kind != "identical_repeat"]
    assert all(r.served_by == "model" for r in others)


@pytest.mark.parametrize("peer", ["gptcache", "sulci"])
def test_stepcache_is_right_where_a_peer_serves_wrong_answers(peer: str) -> None:
    """The point of the benchmark: on changed constants a full-response cache (GPTCache,
    sulci) serves the old (wrong) answer, StepCache serves a right one."""
    # A perfect model, its continuations and repairs too: every error is the cache's.
    backend = simulated(equation=1.0, json=1.0, word=1.0, continuation=1.0, repair=1.0)
    semantic = run_mode(peer, backend, FULL)  # type: ignore[arg-type]
    step = run_mode("stepcache", backend, FULL)
    changed = [r for r in semantic.results if r.kind == "changed_constants"]
    assert sum(r.wrong_served for r in changed) > len(changed) // 2
    assert all(r.served_by == "semantic" for r in changed if r.wrong_served)
    # Every request (warm-up included) was one lookup through the peer.
    stats = semantic.cache_stats
    assert stats["hits"] + stats["misses"] == len(FULL.warmup) + len(FULL.evaluation)
    assert stats["hits"] >= sum(r.served_by == "semantic" for r in semantic.results)
    assert semantic.cache_stats["config"]["version"]
    assert all(r.task_correct for r in step.results)
    assert {r.served_by for r in step.results} <= set(DECISIONS)
    assert all(r.record is not None and r.record["decision"] == r.served_by for r in step.results)
    # Identical repeats are exact hits and spend nothing.
    assert all(
        r.served_by == "exact" and r.tokens == 0
        for r in step.results
        if r.kind == "identical_repeat"
    )
    assert step.cache_stats["requests"] == len(FULL.warmup) + len(FULL.evaluation)


def test_interleaved_serves_like_sequential_with_the_hook_before_every_turn() -> None:
    """Interleaving changes only *when* each mode serves, never what: every mode has its own
    cache, so answers and decisions equal those of one-mode-at-a-time runs."""
    calls: list[int] = []
    backend = simulated()
    runs = run_interleaved(MODES, backend, QUICK, between=lambda: calls.append(1))
    assert [run.mode for run in runs] == list(MODES)
    assert len(calls) == len(MODES) * (len(QUICK.warmup) + len(QUICK.evaluation))
    for run in runs:
        alone = run_mode(run.mode, backend, QUICK)
        assert [(r.id, r.answer, r.served_by, r.tokens) for r in run.results] == [
            (r.id, r.answer, r.served_by, r.tokens) for r in alone.results
        ]
        assert run.warmup_requests == len(QUICK.warmup)


def test_wrong_served_excludes_answers_stepcache_flagged() -> None:
    assert result(1, correct=False).wrong_served
    assert not result(1, correct=False, flagged=True).wrong_served
    assert not result(1, correct=True).wrong_served


def test_mode_run_round_trips_through_json() -> None:
    run = run_mode("stepcache", simulated(), QUICK)
    again = ModeRun.from_dict(run.to_dict())
    assert again.results == run.results
    assert (again.mode, again.seed, again.load_before) == (run.mode, run.seed, run.load_before)


# --- report ------------------------------------------------------------------------------------


def test_mode_metrics_are_computed_from_the_requests() -> None:
    results = [
        result(0.1 * i, tokens=i, correct=i != 3, flagged=i == 4, served_by="reuse")
        for i in range(1, 11)
    ]
    results[0] = result(0.1, tokens=1, served_by="miss")
    metrics = mode_metrics(mode_run("stepcache", 42, results))
    assert metrics["requests"] == 10
    assert math.isclose(metrics["latency_mean_s"], 0.55)
    assert math.isclose(metrics["latency_median_s"], 0.55)
    assert math.isclose(metrics["latency_p95_s"], 0.955)  # linear interpolation
    assert metrics["tokens_total"] == 55 and math.isclose(metrics["tokens_per_request"], 5.5)
    assert math.isclose(metrics["correct_task"], 0.9)
    # Request 3 is wrong and unflagged; request 4 is flagged but right (integrity only).
    assert metrics["wrong_served"] == 1 and metrics["flagged"] == 1
    assert metrics["wrong_from_cache"] == 1
    assert math.isclose(metrics["decisions"]["reuse"], 0.9)
    assert math.isclose(metrics["decisions"]["miss"], 0.1)
    assert math.isclose(sum(metrics["decisions"].values()), 1.0)


def test_aggregate_means_spread_and_per_seed_values() -> None:
    runs = [
        mode_run("no_cache", 42, [result(1.0), result(3.0)]),
        mode_run("no_cache", 43, [result(2.0), result(4.0)]),
    ]
    (summary,) = aggregate(runs)
    assert summary["mode"] == "no_cache"
    assert math.isclose(summary["latency_mean_s"], 2.5)
    assert math.isclose(summary["spread"]["latency_mean_s"], math.sqrt(0.5))
    assert [s["seed"] for s in summary["per_seed"]] == [42, 43]
    assert [s["latency_mean_s"] for s in summary["per_seed"]] == [2.0, 3.0]


def test_targets_are_judged_per_family() -> None:
    base = [result(2.0, tokens=100) for _ in range(10)]
    step = [result(0.005, tokens=0, served_by="reuse") for _ in range(9)]
    step.append(result(2.0, tokens=200, served_by="skip"))
    modes = aggregate([mode_run("no_cache", 42, base), mode_run("stepcache", 42, step)])
    ratios, targets = evaluate_targets({"equation": modes}, None)
    assert math.isclose(ratios["equation"]["tokens_total"], 0.2)
    assert math.isclose(ratios["equation"]["latency_mean_s"], (0.045 + 2.0) / 20)
    by_name = {t.name: t for t in targets}
    assert by_name["equation: total tokens"].met is True
    assert by_name["equation: mean latency"].met is True
    assert by_name["equation: median latency"].met is True
    assert by_name["equation: correct (task check)"].met is True
    assert by_name["equation: wrong answers served"].met is True
    p99 = by_name["equation: p99 latency"]
    assert p99.measured is not None and p99.met is True  # 2.0 / 2.0 = 1.0 <= 1.1
    assert all(t.family == "equation" for t in targets if t.name.startswith("equation: "))
    assert by_name["cache hit path median (100,000 entries)"].met is None

    slow = [result(1.0, tokens=100, served_by="skip") for _ in range(10)]
    modes = aggregate([mode_run("no_cache", 42, base), mode_run("stepcache", 42, slow)])
    _, targets = evaluate_targets({"json": modes}, None)
    mean = next(t for t in targets if t.name == "json: mean latency")
    assert mean.met is False and mean.by.startswith("missed by 0.350")
    assert "3.33x the limit" in mean.by


def test_word_problems_must_only_be_never_worse_than_no_cache() -> None:
    """A model that solves no word problem: the targets are latency and tokens <= 1.0 of no
    cache and no wrong answer served; every mode's wrong answers are named beside them."""
    base = [result(2.0, tokens=100, correct=False) for _ in range(4)]
    step = [result(1.9, tokens=100, correct=False, flagged=True) for _ in range(4)]
    peer = [result(0.01, tokens=0, correct=False, served_by="semantic") for _ in range(4)]
    modes = aggregate(
        [mode_run("no_cache", 42, base), mode_run("gptcache", 42, peer),
         mode_run("stepcache", 42, step)]
    )  # fmt: skip
    _, targets = evaluate_targets({"word": modes}, None)
    word = {t.name: t for t in targets if t.family == "word"}
    assert set(word) == {"word: mean latency", "word: total tokens", "word: wrong answers served"}
    assert word["word: mean latency"].limit == 1.0 and word["word: mean latency"].met is True
    assert word["word: total tokens"].measured == 1.0 and word["word: total tokens"].met is True
    wrong = word["word: wrong answers served"]
    assert wrong.measured == 0 and wrong.met is True
    assert wrong.note == "wrong answers served per seed: no_cache 4.0, gptcache 4.0"
    worse = aggregate([mode_run("no_cache", 42, base),
                       mode_run("stepcache", 42, [result(2.5, tokens=150)] * 4)])  # fmt: skip
    _, targets = evaluate_targets({"word": worse}, None)
    assert {t.name: t.met for t in targets if t.family == "word"} == {
        "word: mean latency": False, "word: total tokens": False,
        "word: wrong answers served": True,
    }  # fmt: skip


def test_per_family_splits_the_runs_by_the_task_each_request_asks_for() -> None:
    def of(family: str, latency: float, tokens: int) -> RequestResult:
        return replace(result(latency, tokens=tokens), family=family)

    runs = [
        mode_run("no_cache", 42, [of("equation", 2.0, 100), of("word", 4.0, 300)]),
        mode_run("stepcache", 42, [of("equation", 0.01, 0), of("word", 4.0, 300)]),
    ]
    families = per_family(runs)
    assert list(families) == ["equation", "word"]
    equation = {m["mode"]: m for m in families["equation"]}
    assert equation["stepcache"]["requests"] == 1 and equation["stepcache"]["tokens_total"] == 0
    assert [r.family for r in family_runs(runs, "word")[0].results] == ["word"]
    assert family_runs(runs, "json") == []


def test_the_kind_table_says_how_each_mode_served_each_kind() -> None:
    runs = [
        mode_run("gptcache", 42, [result(0.01, served_by="semantic", correct=False),
                                  result(1.0, served_by="model")]),
        mode_run("stepcache", 42, [result(0.01, served_by="patch")] * 2),
    ]  # fmt: skip
    rows = {row["mode"]: row for row in kind_breakdown(runs)}
    assert rows["gptcache"]["served_by"] == {"model": 0.5, "semantic": 0.5}
    assert rows["gptcache"]["wrong_served"] == 1 and rows["stepcache"]["wrong_served"] == 0
    assert rows["stepcache"]["served_by"] == {"patch": 1.0}
    assert rows["stepcache"]["kind"] == "changed_constants"


def test_cost_breakdown_says_where_the_time_and_tokens_go() -> None:
    run = mode_run(
        "stepcache",
        42,
        [
            result(3.0, tokens=300, served_by="skip"),
            result(1.0, tokens=100, served_by="patch", correct=False, flagged=True),
            result(0.004, tokens=0, served_by="reuse"),
            result(0.006, tokens=0, served_by="reuse"),
        ],
    )
    rows = cost_breakdown([run])
    assert [r["served_by"] for r in rows] == ["skip", "patch", "reuse"]  # by time spent
    assert math.isclose(rows[0]["tokens_share"], 0.75)
    assert math.isclose(sum(r["latency_share"] for r in rows), 1.0)
    assert rows[1]["wrong"] == rows[1]["flagged"] == 1
    assert rows[2]["requests"] == 2 and rows[2]["model_calls"] == 0


def test_markdown_has_the_papers_table_targets_and_the_simulated_label() -> None:
    runs = [
        mode_run("no_cache", 42, [result(2.0, tokens=100)]),
        mode_run("stepcache", 42, [result(0.004, tokens=0, served_by="reuse")]),
    ]
    info = RunInfo(
        backend="simulated",
        backend_label="SIMULATED (x)",
        model="x",
        simulated=True,
        seeds=(42,),
        command="stepcache bench --backend simulated",
        quick=False,
        max_tokens=200,
        backend_details={},
        startup_s=None,
        composition={"equation": {"changed_constants": 1}},
        evaluation_requests=1,
        semantic_changes=0,
        warmup_requests=2,
    )
    results = build_results(info, runs)
    text = render_markdown(results)
    assert text.startswith("# SIMULATED ")
    assert "## All families: baseline vs StepCache (the paper's table)" in text
    assert "## The paper's table, per task family" in text and "### equation" in text
    assert "## Targets per task family" in text and "reported for reference only" in text
    assert "| equation: total tokens | <= 0.350 | 0.000 | met |" in text
    assert "## Decisions per perturbation kind" in text
    assert results["targets"]["apply"] is False
    assert RunInfo.from_dict(info.to_dict()) == info


# --- overhead ----------------------------------------------------------------------------------


def test_checkpoints() -> None:
    assert checkpoints(100_000) == [1_000, 10_000, 100_000]
    assert checkpoints(500) == [500]
    assert checkpoints(1_000) == [1_000]


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    return measure_overhead(entries=400, probes=12, telemetry_rounds=2, telemetry_hits=25)


def test_overhead_times_exact_and_nearest_hits(figures: dict[str, Any]) -> None:
    (size,) = figures["sizes"]
    assert size["entries"] == 400
    assert size["exact_hits"] == 12 and size["exact_decisions"] == {"exact": 12}
    assert size["exact_median_s"] > 0
    # Renamed-variable probes are served from the cache without a model call.
    assert size["nearest_hits"] > 0 and size["nearest_median_s"] > 0
    assert size["wrapper_exact_hits"] == 3
    # RSS growth over 400 entries is noise (freed pages get reused), so only its presence is
    # checked; the cache's own estimate must account for every entry.
    assert math.isfinite(figures["memory"]["rss_bytes_per_entry"])
    assert figures["memory"]["estimate"]["entries"] >= 400
    assert figures["memory"]["estimate"]["bytes_per_entry"] > 0
    assert figures["simulated"] is False


SDK_MODULES = (
    "opentelemetry.sdk.metrics",
    "opentelemetry.sdk.metrics.export",
    "opentelemetry.sdk.trace",
    "opentelemetry.sdk.trace.export",
    "opentelemetry.sdk.trace.export.in_memory_span_exporter",
)
API_MODULES = ("opentelemetry.metrics", "opentelemetry.trace")


def test_telemetry_times_exact_hits_in_every_configuration(figures: dict[str, Any]) -> None:
    pytest.importorskip("opentelemetry.sdk.trace")  # the test extra installs it
    telemetry = figures["telemetry"]
    assert telemetry["entries"] == TELEMETRY_ENTRIES
    assert telemetry["rounds"] == 2 and telemetry["hits_per_round"] == 25
    rows = telemetry["rows"]
    assert [(row["configuration"], row["label"]) for row in rows] == list(TELEMETRY_CONFIGURATIONS)
    for row in rows:
        # Every timed request of every configuration was an exact hit, none went missing.
        assert row["hits"] == 50 and row["decisions"] == {"exact": 50}, row
        assert "missing" not in row
        assert 0 < row["median_s"] <= row["p95_s"]


def test_the_report_renders_the_telemetry_table(figures: dict[str, Any]) -> None:
    pytest.importorskip("opentelemetry.sdk.trace")
    lines = render_overhead(figures).splitlines()
    title = lines.index(f"Telemetry on the exact path ({TELEMETRY_ENTRIES} entries in memory)")
    assert lines[title + 1].split() == ["telemetry", "median", "p95", "vs", "off"]
    table = lines[title + 2 : title + 6]
    for (_, label), line in zip(TELEMETRY_CONFIGURATIONS, table, strict=True):
        assert line.startswith(label)
        median, p95, ratio = line[len(label) :].replace(" ms", "").split()
        assert float(median) > 0 and float(p95) >= float(median) and ratio.endswith("x")
    assert table[0].endswith("1.00x")  # off, against itself
    assert "2 rounds of 25 hits per configuration" in " ".join(lines[title + 6 :])


@pytest.mark.parametrize(
    ("hidden", "missing", "absent"),
    [
        (SDK_MODULES, "opentelemetry-sdk", {"sdk_metrics", "sdk_metrics_spans"}),
        (
            API_MODULES + SDK_MODULES,
            "opentelemetry-api",
            {"api", "sdk_metrics", "sdk_metrics_spans"},
        ),
    ],
    ids=["no-sdk", "no-api"],
)
def test_telemetry_without_opentelemetry_says_what_is_not_installed(
    monkeypatch: pytest.MonkeyPatch,
    figures: dict[str, Any],
    hidden: tuple[str, ...],
    missing: str,
    absent: set[str],
) -> None:
    for module in hidden:
        monkeypatch.setitem(sys.modules, module, None)  # importing it raises ImportError
    telemetry = time_telemetry(rounds=1, hits=5)
    rows = {row["configuration"]: row for row in telemetry["rows"]}
    assert list(rows) == [configuration for configuration, _ in TELEMETRY_CONFIGURATIONS]
    for configuration, row in rows.items():
        if configuration in absent:
            assert row["missing"] == missing and row["hits"] == 0 and row["median_s"] is None
        else:
            assert "missing" not in row and row["hits"] == 5 and row["median_s"] > 0
    rendered = render_overhead({**figures, "telemetry": telemetry})
    assert rendered.count(f"not installed ({missing})") == len(absent)


def test_family_rows_give_mean_latency_and_tokens_against_no_cache() -> None:
    runs = [
        mode_run("no_cache", 42, [result(2.0, tokens=100), result(4.0, tokens=300)]),
        mode_run("stepcache", 42, [result(0.01, tokens=0), result(1.49, tokens=100)]),
    ]
    rows = {row["mode"]: row for row in family_breakdown(runs)}
    assert rows["no_cache"]["latency_mean_s"] == pytest.approx(3.0)
    assert rows["stepcache"]["latency_mean_vs_no_cache"] == pytest.approx(0.25)
    assert rows["stepcache"]["tokens_vs_no_cache"] == pytest.approx(0.25)
    assert rows["no_cache"]["latency_mean_vs_no_cache"] == pytest.approx(1.0)
