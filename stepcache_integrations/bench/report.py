"""Aggregate mode runs into ``results.json``, ``results.md`` and PNG plots; judge the targets.

Per mode and seed: mean / median / p95 / p99 latency of the evaluation requests, total tokens
and tokens per request, the fractions correct by the task check and by the integrity check,
wrong answers served (failing the task check, no flag), flagged answers, and the share of each
decision. Across seeds: the mean of each per-seed value (what the top-level fields hold), its
standard deviation (``spread``) and the per-seed values beside (``per_seed``).

The targets compare StepCache with no cache *in the same run*; each says whether it is met and
by how much. They are stated for the embedded local model: on another backend they are reported
but marked as not applying. A ``--quick`` run is a smoke test (one request per perturbation
kind, mostly first-time misses): its targets are not judged at all.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from stepcache_integrations.bench.plots import write_plots
from stepcache_integrations.bench.runner import MODES, ModeRun, RequestResult
from stepcache_integrations.bench.simulated import SIMULATED_LABEL
from stepcache_integrations.core.records import DECISIONS

__all__ = [
    "METRICS",
    "PAPER",
    "ROWS",
    "SHARE_KEYS",
    "SMOKE_NOTE",
    "RunInfo",
    "Target",
    "aggregate",
    "build_results",
    "cost_breakdown",
    "evaluate_targets",
    "family_breakdown",
    "format_cell",
    "load_raw",
    "machine_info",
    "mode_metrics",
    "render_markdown",
    "run_title",
    "save_raw",
    "table_rows",
    "write_plots",
    "write_reports",
]

# Per-seed numbers averaged across seeds (the schema's fields, plus a few extras).
METRICS: tuple[str, ...] = (
    "latency_mean_s",
    "latency_median_s",
    "latency_p95_s",
    "latency_p99_s",
    "tokens_total",
    "tokens_per_request",
    "correct_task",
    "correct_integrity",
    "wrong_served",
    "flagged",
    "wrong_total",
    "wrong_from_cache",
    "model_calls_share",
)

# The StepCache paper's figures: no cache -> StepCache, CPU, small model.
PAPER: dict[str, tuple[float, float]] = {
    "latency_mean_s": (2.13, 0.67),
    "latency_median_s": (2.42, 0.01),
    "latency_p95_s": (3.38, 3.30),
    "tokens_total": (36_100, 27_300),
    "tokens_per_request": (162.7, 123.0),
    "correct_task": (0.725, 1.0),
}
# The targets for a hit's median at 100,000 entries (``stepcache bench --overhead``):
# the exact path (a key lookup) under 0.05 ms, the nearest path (embed, search, verify, adapt,
# check, store) under 1 ms.
HIT_PATH_TARGETS_S = {"exact": 0.000_05, "nearest": 0.001}
PAPER_SHARES = {"reuse": 0.797, "patch": 0.054, "skip": 0.149}

WARMUP_RULE = (
    "Each mode starts with an empty cache per seed. The workload's base prompts (30, or the "
    "bases used by the --quick subset) are served first, in order, as warm-up: they fill the "
    "caches and are not counted. Then every evaluation request is served once, in the seeded "
    "order, timed wall-clock around invoke."
)
ORDER_RULE = {
    "interleaved": (
        "Interleaved: each request is served by every mode before the next request (the order "
        "of the modes rotates per request), so load drift on the machine hits all modes alike."
    ),
    "sequential": "Sequential: one mode serves the whole workload, then the next mode.",
}
# A --quick run serves one request per perturbation kind after a warm-up of its bases: mostly
# first-time misses, too few repeats for reuse to show. It proves the harness runs end to end.
SMOKE_NOTE = (
    "--quick is a smoke test: one request per perturbation kind, too few repeats for reuse to "
    "show, so its figures say nothing about StepCache and the targets are not judged. For a "
    "shorter real run use one seed against no cache: stepcache bench --seeds 42 --modes "
    "no_cache,stepcache (about 25 minutes on 2 cores)."
)
PREFIX_RULE = (
    " Before each mode's turn an unmeasured one-token request clears llama.cpp's prompt-prefix "
    "reuse, so no mode starts from another mode's identical prompt."
)


@dataclass(frozen=True)
class RunInfo:
    """What the run was: backend, command, options (everything that is not a measurement)."""

    backend: str
    backend_label: str
    model: str
    simulated: bool
    seeds: tuple[int, ...]
    command: str
    quick: bool
    max_tokens: int
    backend_details: dict[str, Any]
    startup_s: float | None
    composition: dict[str, dict[str, int]]
    evaluation_requests: int
    semantic_changes: int
    warmup_requests: int
    duration_s: float = 0.0
    load_start: tuple[float, float, float] = (0.0, 0.0, 0.0)
    order: str = "interleaved"
    prefix_reset: bool = False
    # ``machine_info()`` when the run ended (so a --rebuild later reports the run's machine
    # state, not the state at rebuild time).
    machine: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunInfo:
        values = dict(data)
        values["seeds"] = tuple(values["seeds"])
        a, b, c = (float(v) for v in values.get("load_start", (0.0, 0.0, 0.0)))
        values["load_start"] = (a, b, c)
        return cls(**values)


@dataclass(frozen=True)
class Target:
    """One benchmark target: ``measured`` compared with ``limit`` by ``op``.

    A target that is not ``judged`` (a smoke run) keeps its measurement but is neither met nor
    missed.

    Example:
        >>> t = Target("total tokens", "tokens_total ratio", "<=", 0.35, 0.42)
        >>> t.met, t.by
        (False, 'missed by 0.070, 1.20x the limit')
        >>> t.line()
        'total tokens: measured 0.420, limit <= 0.350; missed by 0.070, 1.20x the limit'
    """

    name: str
    metric: str
    op: str  # "<=" or "<" or ">="
    limit: float
    measured: float | None
    unit: str = ""
    paper: str = ""
    note: str = ""
    judged: bool = True

    @property
    def met(self) -> bool | None:
        """``True`` met, ``False`` missed, ``None`` not measured or not judged."""
        if self.measured is None or not self.judged:
            return None
        if self.op == "<=":
            return self.measured <= self.limit + 1e-12
        if self.op == "<":
            return self.measured < self.limit
        return self.measured >= self.limit - 1e-12

    @property
    def by(self) -> str:
        """How far inside (met) or outside (missed) the limit the measurement is."""
        if self.measured is None:
            return "not measured"
        if not self.judged:
            return "not judged (smoke test)"
        gap = abs(self.measured - self.limit)
        shown = _fmt(gap, self.unit)
        if self.met:
            return f"met, {shown} to spare" if gap > 0 else "met exactly"
        factor = ""
        if self.op != ">=" and self.limit > 0:
            factor = f", {self.measured / self.limit:.2f}x the limit"
        return f"missed by {shown}{factor}"

    @property
    def measured_text(self) -> str:
        """The measurement in the target's unit (``—`` when not measured)."""
        return "—" if self.measured is None else _fmt(self.measured, self.unit)

    @property
    def limit_text(self) -> str:
        """The limit with its comparison, e.g. ``<= 0.350``."""
        return f"{self.op} {_fmt(self.limit, self.unit)}"

    def line(self) -> str:
        """One line for a console: name, measured value, limit, and how far from it."""
        return f"{self.name}: measured {self.measured_text}, limit {self.limit_text}; {self.by}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "metric": self.metric,
            "op": self.op,
            "limit": self.limit,
            "measured": self.measured,
            "unit": self.unit,
            "met": self.met,
            "judged": self.judged,
            "by": self.by,
            "line": self.line(),
            "paper": self.paper,
            "note": self.note,
        }


def _fmt(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value * 1000:.2f} ms" if value < 1 else f"{value:.2f} s"
    if unit == "fraction":
        return f"{value:.1%}"
    if unit == "count":
        return f"{value:g}"
    return f"{value:.3f}"


# --- per-seed metrics ------------------------------------------------------------------------


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else 0.0


def mode_metrics(run: ModeRun) -> dict[str, Any]:
    """The metrics of one mode on one seed."""
    results = run.results
    n = len(results)
    latencies = [r.latency_s for r in results]
    tokens = sum(r.tokens for r in results)
    counts: dict[str, int] = {d: 0 for d in DECISIONS}
    if run.mode == "semantic_cache":
        counts["semantic"] = 0
    for r in results:
        # A baseline's model call is its "miss"; its cache hits are "exact" / "semantic".
        key = "miss" if r.served_by == "model" else r.served_by
        counts[key] = counts.get(key, 0) + 1
    wrong = [r for r in results if not r.task_correct]
    return {
        "seed": run.seed,
        "requests": n,
        "latency_mean_s": statistics.fmean(latencies) if latencies else 0.0,
        "latency_median_s": _percentile(latencies, 50),
        "latency_p95_s": _percentile(latencies, 95),
        "latency_p99_s": _percentile(latencies, 99),
        "tokens_total": tokens,
        "tokens_per_request": tokens / n if n else 0.0,
        "correct_task": sum(r.task_correct for r in results) / n if n else 0.0,
        "correct_integrity": sum(r.integrity_ok for r in results) / n if n else 0.0,
        "wrong_served": sum(r.wrong_served for r in results),
        "flagged": sum(r.flagged for r in results),
        "wrong_total": len(wrong),
        "wrong_from_cache": sum(r.from_cache for r in wrong),
        "model_calls_share": sum(r.called_model for r in results) / n if n else 0.0,
        "decisions": {k: v / n if n else 0.0 for k, v in counts.items()},
        "decision_counts": counts,
        "warmup_requests": run.warmup_requests,
        "warmup_s": run.warmup_s,
        "load_before": list(run.load_before),
        "load_after": list(run.load_after),
        "cache_stats": run.cache_stats,
    }


def _spread(values: list[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def _mode_summary(mode: str, per_seed: list[dict[str, Any]]) -> dict[str, Any]:
    summary: dict[str, Any] = {"mode": mode}
    summary["requests"] = round(statistics.fmean(s["requests"] for s in per_seed))
    spread: dict[str, float] = {}
    for metric in METRICS:
        values = [float(s[metric]) for s in per_seed]
        summary[metric] = statistics.fmean(values)
        spread[metric] = _spread(values)
    keys = list(per_seed[0]["decisions"])
    summary["decisions"] = {k: statistics.fmean(s["decisions"][k] for s in per_seed) for k in keys}
    summary["spread"] = spread
    summary["per_seed"] = per_seed
    return summary


def aggregate(runs: Sequence[ModeRun]) -> list[dict[str, Any]]:
    """One summary per mode (in ``MODES`` order): means over seeds, spread, per-seed values."""
    by_mode: dict[str, list[dict[str, Any]]] = {}
    for run in runs:
        by_mode.setdefault(run.mode, []).append(mode_metrics(run))
    order = [m for m in MODES if m in by_mode]
    return [_mode_summary(mode, sorted(by_mode[mode], key=lambda s: s["seed"])) for mode in order]


def cost_breakdown(runs: Sequence[ModeRun], mode: str = "stepcache") -> list[dict[str, Any]]:
    """Where ``mode``'s tokens and time go, by task family and decision (all seeds pooled):
    what explains a missed latency or token target."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    chosen = [r for run in runs if run.mode == mode for r in run.results]
    tokens = sum(r.tokens for r in chosen) or 1
    seconds = sum(r.latency_s for r in chosen) or 1.0
    for r in chosen:
        row = rows.setdefault(
            (r.family, r.served_by),
            {"family": r.family, "served_by": r.served_by, "requests": 0, "tokens": 0,
             "latency_s": 0.0, "model_calls": 0, "wrong": 0, "flagged": 0},
        )  # fmt: skip
        row["requests"] += 1
        row["tokens"] += r.tokens
        row["latency_s"] += r.latency_s
        row["model_calls"] += int((r.record or {}).get("model_calls", int(r.called_model)))
        row["wrong"] += int(not r.task_correct)
        row["flagged"] += int(r.flagged)
    out = sorted(rows.values(), key=lambda row: -row["latency_s"])
    for row in out:
        row["tokens_share"] = row["tokens"] / tokens
        row["latency_share"] = row["latency_s"] / seconds
    return out


def family_breakdown(runs: Sequence[ModeRun]) -> list[dict[str, Any]]:
    """Per task family and mode, means per seed: requests, tokens and mean latency (each with
    its ratio to no cache on the same family), task-correct share, wrong answers served,
    flagged answers, and how the requests were served."""
    cells: dict[tuple[str, str], list[RequestResult]] = {}
    seeds: dict[str, set[int]] = {}
    for run in runs:
        seeds.setdefault(run.mode, set()).add(run.seed)
        for r in run.results:
            cells.setdefault((r.family, run.mode), []).append(r)
    rows: list[dict[str, Any]] = []
    for (family, mode), results in sorted(
        cells.items(),
        key=lambda item: (item[0][0], MODES.index(item[0][1])),
    ):
        n_seeds = len(seeds[mode]) or 1
        served: dict[str, int] = {}
        for r in results:
            served[r.served_by] = served.get(r.served_by, 0) + 1
        rows.append(
            {
                "family": family,
                "mode": mode,
                "requests": len(results) / n_seeds,
                "tokens": sum(r.tokens for r in results) / n_seeds,
                "latency_mean_s": sum(r.latency_s for r in results) / len(results),
                "correct_task": sum(r.task_correct for r in results) / len(results),
                "wrong_served": sum(r.wrong_served for r in results) / n_seeds,
                "flagged": sum(r.flagged for r in results) / n_seeds,
                "served_by": {k: v / len(results) for k, v in sorted(served.items())},
            }
        )
    no_cache = {row["family"]: row for row in rows if row["mode"] == "no_cache"}
    for row in rows:
        base = no_cache.get(row["family"], {})
        row["tokens_vs_no_cache"] = _ratio(float(row["tokens"]), float(base.get("tokens", 0.0)))
        row["latency_mean_vs_no_cache"] = _ratio(
            float(row["latency_mean_s"]), float(base.get("latency_mean_s", 0.0))
        )
    return rows


# --- targets ---------------------------------------------------------------------------------


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def evaluate_targets(
    modes: Sequence[dict[str, Any]], overhead: dict[str, Any] | None
) -> tuple[dict[str, Any], list[Target]]:
    """Ratios StepCache / no cache and the benchmark's targets, met or missed."""
    found = {m["mode"]: m for m in modes}
    step, base, semantic = (
        found.get("stepcache"),
        found.get("no_cache"),
        found.get("semantic_cache"),
    )
    ratios: dict[str, Any] = {}
    if step is not None and base is not None:
        for metric in ("latency_mean_s", "latency_median_s", "latency_p95_s", "latency_p99_s"):
            ratios[metric] = _ratio(step[metric], base[metric])
        ratios["tokens_total"] = _ratio(step["tokens_total"], base["tokens_total"])
        by_seed = {s["seed"]: s for s in base["per_seed"]}
        ratios["per_seed"] = [
            {
                "seed": s["seed"],
                **{
                    metric: _ratio(s[metric], by_seed[s["seed"]][metric])
                    for metric in (
                        "latency_mean_s",
                        "latency_median_s",
                        "latency_p95_s",
                        "latency_p99_s",
                        "tokens_total",
                    )
                },
            }
            for s in step["per_seed"]
            if s["seed"] in by_seed
        ]

    def ratio(metric: str) -> float | None:
        value = ratios.get(metric)
        return float(value) if isinstance(value, float | int) else None

    semantic_note = (
        f"semantic cache served {semantic['wrong_served']:.1f} wrong answers per seed"
        if semantic is not None
        else ""
    )
    targets = [
        Target("mean latency", "latency_mean_s ratio", "<=", 0.15, ratio("latency_mean_s"),
               paper="0.31"),
        Target("median latency", "latency_median_s", "<", 0.010,
               step["latency_median_s"] if step else None, unit="s", paper="0.01 s"),
        Target("p95 latency", "latency_p95_s ratio", "<=", 1.0, ratio("latency_p95_s"),
               paper="0.98"),
        Target("p99 latency", "latency_p99_s ratio", "<=", 1.1, ratio("latency_p99_s")),
        Target("total tokens", "tokens_total ratio", "<=", 0.35, ratio("tokens_total"),
               paper="0.76"),
        Target("correct (task check)", "correct_task", ">=", 1.0,
               step["correct_task"] if step else None, unit="fraction", paper="100%"),
        Target("correct (integrity check)", "correct_integrity", ">=", 1.0,
               step["correct_integrity"] if step else None, unit="fraction"),
        Target("wrong answers served", "wrong_served", "<=", 0.0,
               step["wrong_served"] if step else None, unit="count", note=semantic_note),
    ]  # fmt: skip
    targets.extend(_overhead_targets(overhead))
    return ratios, targets


def _overhead_targets(overhead: dict[str, Any] | None) -> list[Target]:
    note = "run `stepcache bench --overhead --out DIR` before the benchmark to include it"
    if overhead is None:
        return [Target("cache hit path median (100,000 entries)", "hit_path_median_s", "<",
                       0.001, None, unit="s", note=note)]  # fmt: skip
    largest = overhead["sizes"][-1]
    entries = largest["entries"]
    return [
        Target(
            f"cache hit path median, {path} ({entries:,} entries)",
            f"{path}_median_s",
            "<",
            HIT_PATH_TARGETS_S[path],
            largest[f"{path}_median_s"],
            unit="s",
            note=f"from overhead.json ({overhead.get('measured_at', '')})",
        )
        for path in ("exact", "nearest")
    ]


# --- machine ---------------------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    """Where the numbers come from: CPUs, platform, load, Python."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count() or 0
    return {
        "cpu_count": os.cpu_count(),
        "cpus_usable": usable,
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": sys.version.split()[0],
        "load_average": list(os.getloadavg()),
    }


# --- Markdown --------------------------------------------------------------------------------


def format_cell(summary: dict[str, Any], metric: str, unit: str) -> str:
    """``mean ± standard deviation over seeds`` of one metric, formatted for ``unit``."""
    mean, spread = summary[metric], summary["spread"].get(metric, 0.0)
    seeds = len(summary["per_seed"])
    if unit == "s":
        text = f"{mean:.3f}" if mean >= 0.01 else f"{mean:.4f}"
        return text + (f" ± {spread:.3f}" if seeds > 1 else "")
    if unit == "fraction":
        return f"{mean:.1%}" + (f" ± {spread:.1%}" if seeds > 1 else "")
    if unit == "int":
        return f"{mean:,.0f}" + (f" ± {spread:,.0f}" if seeds > 1 else "")
    return f"{mean:.1f}" + (f" ± {spread:.1f}" if seeds > 1 else "")


ROWS: tuple[tuple[str, str, str], ...] = (
    ("Mean latency (s)", "latency_mean_s", "s"),
    ("Median latency (s)", "latency_median_s", "s"),
    ("p95 latency (s)", "latency_p95_s", "s"),
    ("p99 latency (s)", "latency_p99_s", "s"),
    ("Total tokens", "tokens_total", "int"),
    ("Tokens per request", "tokens_per_request", "float"),
    ("Correct (task check)", "correct_task", "fraction"),
    ("Correct (integrity check)", "correct_integrity", "fraction"),
    ("Wrong answers served", "wrong_served", "float"),
    ("Flagged answers (StepCache: passed=false)", "flagged", "float"),
    ("Wrong answers, from a cache hit", "wrong_from_cache", "float"),
    ("Requests that called the model", "model_calls_share", "fraction"),
)


# Who served the answers: StepCache's decisions, and the semantic cache's hits.
SHARE_KEYS: tuple[str, ...] = (*DECISIONS, "semantic")


def _share_row(summary: dict[str, Any], key: str) -> str:
    return f"{summary['decisions'].get(key, 0.0):.1%}"


def table_rows(modes: Sequence[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """The all-modes table, one (label, cell per mode) row per metric and per decision share:
    what the console prints and ``results.md`` shows."""
    rows = [(label, [format_cell(m, metric, unit) for m in modes]) for label, metric, unit in ROWS]
    rows += [(f"Share served as {key}", [_share_row(m, key) for m in modes]) for key in SHARE_KEYS]
    return rows


def run_title(results: dict[str, Any]) -> str:
    """The run's title for tables and plots: a simulated run says SIMULATED once, up front.

    Example:
        >>> run_title({"simulated": True, "backend_label": "SIMULATED (m)", "quick": True})
        'SIMULATED StepCache benchmark (simulated model, not a real LLM), --quick smoke test'
        >>> run_title({"simulated": False, "backend_label": "local: smollm2", "quick": False})
        'StepCache benchmark: local: smollm2'
    """
    if results["simulated"]:
        title = f"{SIMULATED_LABEL} StepCache benchmark (simulated model, not a real LLM)"
    else:
        title = f"StepCache benchmark: {results['backend_label']}"
    return title + (", --quick smoke test" if results.get("quick") else "")


def _paper_cell(metric: str) -> str:
    if metric not in PAPER:
        return ""
    before, after = PAPER[metric]
    if metric == "correct_task":
        return f"{before:.1%} → {after:.0%}"
    if metric == "tokens_total":
        return f"{before / 1000:.1f}k → {after / 1000:.1f}k"
    return f"{before:g} → {after:g}"


def render_markdown(results: dict[str, Any]) -> str:
    """``results.md``: the paper's table, all modes side by side, targets, per-seed values."""
    simulated = results["simulated"]
    modes = {m["mode"]: m for m in results["modes"]}
    lines = [f"# {run_title(results)}", ""]
    if results.get("quick"):
        lines += [f"> **Smoke test.** {SMOKE_NOTE}", ""]
    if simulated:
        lines += [
            f"> **{SIMULATED_LABEL}**: these numbers come from a deterministic simulated model, "
            "not a real LLM. They prove the harness, not the product.",
            "",
        ]
    machine = results["machine"]
    lines += [
        f"- Command: `{results['command']}`",
        f"- Backend: {results['backend']} / model `{results['model']}`"
        + (f" (server start-up {results['startup_s']:.2f} s)" if results.get("startup_s") else ""),
        f"- Seeds: {', '.join(map(str, results['seeds']))}; means over seeds ± standard "
        "deviation across seeds",
        f"- Machine: {machine['cpu_count']} CPUs ({machine['cpus_usable']} usable), "
        f"{machine['platform']}, Python {machine['python']}; load average at start "
        f"{_load(results['load_average_start'])}, at end {_load(machine['load_average'])}",
        f"- Evaluation requests per seed: {results['workload']['evaluation_requests']} "
        f"(semantic changes: {results['workload']['semantic_changes']}); warm-up: "
        f"{results['workload']['warmup']['requests']} requests per mode, not counted",
        f"- Max output tokens per model call: {results['max_tokens']}; "
        f"run time {results['duration_s'] / 60:.1f} min",
        "",
    ]
    if "no_cache" in modes and "stepcache" in modes:
        lines += _paper_table(modes["no_cache"], modes["stepcache"], results["ratios"])
    lines += _modes_table(results["modes"])
    lines += _targets_table(results)
    lines += _family_table(results.get("families") or [])
    lines += _breakdown_table(results.get("stepcache_cost_breakdown") or [])
    lines += _per_seed_table(results["modes"])
    lines += ["## Workload", "", "| Base family | Kind | Requests per seed |", "|---|---|---:|"]
    for family, kinds in results["workload"]["composition"].items():
        lines += [f"| {family} | {kind} | {count} |" for kind, count in kinds.items()]
    lines += ["", f"Warm-up rule: {results['workload']['warmup']['rule']}", ""]
    lines += [f"Order: {results['workload']['order_rule']}", ""]
    lines += [
        "Wrong answers served: answers that fail the task check and were returned without a "
        "flag. StepCache flags an answer it knows failed its checks (`passed: false`); those "
        "count against correctness but not as served wrong answers.",
        "",
    ]
    return "\n".join(lines)


def _load(values: Sequence[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in values)


def _paper_table(base: dict[str, Any], step: dict[str, Any], ratios: dict[str, Any]) -> list[str]:
    lines = [
        "## Baseline vs StepCache (the paper's table)",
        "",
        "| Metric | No cache | StepCache | StepCache / no cache | Paper (no cache → StepCache) |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, metric, unit in ROWS[:8]:
        ratio = ratios.get(metric)
        shown = f"{ratio:.3f}" if isinstance(ratio, float) else ""
        lines.append(
            f"| {label} | {format_cell(base, metric, unit)} | "
            f"{format_cell(step, metric, unit)} | {shown} | {_paper_cell(metric)} |"
        )
    for label, metric in (("Wrong answers served", "wrong_served"), ("Flagged", "flagged")):
        lines.append(
            f"| {label} | {format_cell(base, metric, 'float')} | "
            f"{format_cell(step, metric, 'float')} |  |  |"
        )
    for decision in ("exact", "reuse", "patch", "skip", "miss", "bypass"):
        paper = PAPER_SHARES.get(decision)
        lines.append(
            f"| StepCache {decision} share |  | {_share_row(step, decision)} |  | "
            f"{f'{paper:.1%}' if paper is not None else ''} |"
        )
    return [*lines, ""]


def _modes_table(modes: Sequence[dict[str, Any]]) -> list[str]:
    names = [m["mode"] for m in modes]
    lines = ["## All modes", "", "| Metric | " + " | ".join(names) + " |"]
    lines.append("|---|" + "---:|" * len(names))
    lines += [f"| {label} | " + " | ".join(cells) + " |" for label, cells in table_rows(modes)]
    return [
        *lines,
        "",
        "For the baselines, *miss* means a model call, *exact* / *semantic* a cache hit.",
        "",
    ]


def _targets_table(results: dict[str, Any]) -> list[str]:
    targets = results["targets"]
    lines = ["## Targets (StepCache vs no cache, same run)", ""]
    if not targets["apply"]:
        lines += [f"> {targets['note']}", ""]
    lines += ["| Target | Limit | Measured | Met | By how much | Paper | Note |"]
    lines.append("|---|---:|---:|:---:|---|---:|---|")
    for t in targets["items"]:
        unit = t["unit"]
        measured = "—" if t["measured"] is None else _fmt(t["measured"], unit)
        met = {True: "met", False: "**missed**", None: "—"}[t["met"]]
        lines.append(
            f"| {t['name']} | {t['op']} {_fmt(t['limit'], unit)} | {measured} | {met} "
            f"| {t['by']} | {t['paper']} | {t['note']} |"
        )
    return [*lines, ""]


def _family_table(rows: Sequence[dict[str, Any]]) -> list[str]:
    if not rows:
        return []
    lines = [
        "## Per task family (means per seed)",
        "",
        "| Family | Mode | Requests | Mean latency (s) | Mean latency / no cache | Tokens | "
        "Tokens / no cache | Correct (task) | Wrong served | Flagged | Served by |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        ratio = row["tokens_vs_no_cache"]
        latency = row["latency_mean_vs_no_cache"]
        served = ", ".join(f"{k} {v:.0%}" for k, v in row["served_by"].items())
        lines.append(
            f"| {row['family']} | {row['mode']} | {row['requests']:.0f} | "
            f"{row['latency_mean_s']:.3f} | "
            f"{'' if latency is None else f'{latency:.3f}'} | {row['tokens']:,.0f} | "
            f"{'' if ratio is None else f'{ratio:.3f}'} | {row['correct_task']:.1%} | "
            f"{row['wrong_served']:.1f} | {row['flagged']:.1f} | {served} |"
        )
    return [*lines, ""]


def _breakdown_table(rows: Sequence[dict[str, Any]]) -> list[str]:
    if not rows:
        return []
    lines = [
        "## Where StepCache's time and tokens go (all seeds pooled)",
        "",
        "| Family | Decision | Requests | Share of latency | Share of tokens | Model calls | "
        "Wrong (flagged) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['family']} | {row['served_by']} | {row['requests']} | "
            f"{row['latency_share']:.1%} | {row['tokens_share']:.1%} | {row['model_calls']} | "
            f"{row['wrong']} ({row['flagged']}) |"
        )
    return [*lines, ""]


def _per_seed_table(modes: Sequence[dict[str, Any]]) -> list[str]:
    lines = [
        "## Per seed",
        "",
        "| Mode | Seed | Mean (s) | Median (s) | p95 (s) | p99 (s) | Tokens | Task | "
        "Integrity | Wrong served | Flagged | Load before / after |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for m in modes:
        for s in m["per_seed"]:
            lines.append(
                f"| {m['mode']} | {s['seed']} | {s['latency_mean_s']:.3f} | "
                f"{s['latency_median_s']:.4f} | {s['latency_p95_s']:.3f} | "
                f"{s['latency_p99_s']:.3f} | {s['tokens_total']:,} | {s['correct_task']:.1%} | "
                f"{s['correct_integrity']:.1%} | {s['wrong_served']} | {s['flagged']} | "
                f"{s['load_before'][0]:.2f} / {s['load_after'][0]:.2f} |"
            )
    return [*lines, ""]


# --- everything ------------------------------------------------------------------------------


def _run_machine(info: RunInfo, runs: Sequence[ModeRun]) -> dict[str, Any]:
    if info.machine is not None:
        return info.machine
    machine = machine_info()
    if runs:  # the load when the last measurement ended, not now
        machine["load_average"] = list(runs[-1].load_after)
    return machine


def build_results(
    info: RunInfo, runs: Sequence[ModeRun], overhead: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The ``results.json`` document."""
    modes = aggregate(runs)
    ratios, targets = evaluate_targets(modes, overhead)
    applies = info.backend == "local" and not info.simulated and not info.quick
    if info.quick:
        targets = [replace(t, judged=False) for t in targets]
        note = SMOKE_NOTE
    elif applies:
        note = "The targets are stated for the embedded local model on 2 CPU cores."
    else:
        note = (
            f"The targets are stated for the embedded local model; on the {info.backend} "
            "backend they are reported for reference only."
        )
    wrong_examples = {
        mode: [
            {
                "id": r.id,
                "kind": r.kind,
                "served_by": r.served_by,
                "flagged": r.flagged,
                "answer": r.answer[:400],
            }
            for run in runs
            if run.mode == mode
            for r in run.results
            if not r.task_correct
        ][:10]
        for mode in (m["mode"] for m in modes)
    }
    return {
        "backend": info.backend,
        "backend_label": info.backend_label,
        "model": info.model,
        "simulated": info.simulated,
        "seeds": list(info.seeds),
        "command": info.command,
        "machine": _run_machine(info, runs),
        "load_average_start": list(info.load_start),
        "duration_s": info.duration_s,
        "quick": info.quick,
        "max_tokens": info.max_tokens,
        "startup_s": info.startup_s,
        "backend_details": info.backend_details,
        "workload": {
            "composition": info.composition,
            "evaluation_requests": info.evaluation_requests,
            "semantic_changes": info.semantic_changes,
            "semantic_share": (
                info.semantic_changes / info.evaluation_requests
                if info.evaluation_requests
                else 0.0
            ),
            "warmup": {"requests": info.warmup_requests, "counted": False, "rule": WARMUP_RULE},
            "order": info.order,
            "order_rule": ORDER_RULE.get(info.order, info.order)
            + (PREFIX_RULE if info.prefix_reset else ""),
        },
        "modes": modes,
        "ratios": ratios,
        "targets": {
            "apply": applies,
            "note": note,
            "met": sum(t.met is True for t in targets),
            "missed": sum(t.met is False for t in targets),
            "items": [t.to_dict() for t in targets],
        },
        "overhead": overhead,
        "families": family_breakdown(runs),
        "stepcache_cost_breakdown": cost_breakdown(runs),
        "wrong_examples": wrong_examples,
    }


def save_raw(out_dir: Path, runs: Sequence[ModeRun], info: RunInfo | None = None) -> Path:
    """``raw.json``: every run with every request (and the run's info once it is complete),
    written after each mode so a long run that dies keeps what it measured."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "raw.json"
    document = {
        "simulated": info.simulated if info is not None else None,
        "info": info.to_dict() if info is not None else None,
        "runs": [run.to_dict() for run in runs],
    }
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(document) + "\n")
    tmp.replace(path)  # atomic: a crash mid-write never leaves half a file
    return path


def load_raw(out_dir: Path) -> tuple[RunInfo, list[ModeRun]]:
    """Read ``raw.json`` back (to rebuild the reports without running again)."""
    document = json.loads((out_dir / "raw.json").read_text())
    if document.get("info") is None:
        raise ValueError(f"{out_dir / 'raw.json'} is from an unfinished run (no run info)")
    return RunInfo.from_dict(document["info"]), [ModeRun.from_dict(r) for r in document["runs"]]


def write_reports(
    info: RunInfo,
    runs: Sequence[ModeRun],
    out_dir: Path,
    overhead: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write ``results.json``, ``results.md``, ``requests.jsonl`` and the plots; return the
    results document."""
    out_dir.mkdir(parents=True, exist_ok=True)
    results = build_results(info, runs, overhead)
    (out_dir / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (out_dir / "results.md").write_text(render_markdown(results))
    with (out_dir / "requests.jsonl").open("w") as handle:
        for run in runs:
            for result in run.results:
                data = result.to_dict(with_record=True)
                # What was asked first: the labels, then the prompt they describe.
                labels = {key: data[key] for key in ("id", "kind", "family", "base_family")}
                row = {"mode": run.mode, "seed": run.seed, **labels, "prompt": data["prompt"]}
                row.update(data)
                if info.simulated:
                    row["simulated"] = True
                handle.write(json.dumps(row) + "\n")
    write_plots(runs, results, out_dir, run_title(results))
    return results
