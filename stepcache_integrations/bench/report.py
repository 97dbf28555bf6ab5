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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from stepcache_integrations.bench.modes import PEER_MODES
from stepcache_integrations.bench.peer_tables import (
    near_miss_lines,
    peer_config_lines,
    peer_hit_path_lines,
)
from stepcache_integrations.bench.plots import write_plots
from stepcache_integrations.bench.runner import ModeRun, RequestResult, mode_order
from stepcache_integrations.bench.simulated import SIMULATED_LABEL
from stepcache_integrations.bench.targets import (
    Target,
    family_targets,
    format_value,
    hit_path_targets,
    stepcache_ratios,
)
from stepcache_integrations.bench.workload import FAMILIES
from stepcache_integrations.core.records import DECISIONS

__all__ = [
    "METRICS",
    "PAPER",
    "ROWS",
    "SHARE_KEYS",
    "SMOKE_NOTE",
    "RunInfo",
    "aggregate",
    "build_results",
    "cost_breakdown",
    "evaluate_targets",
    "family_breakdown",
    "family_runs",
    "format_cell",
    "kind_breakdown",
    "load_raw",
    "machine_info",
    "mode_metrics",
    "peer_configs",
    "per_family",
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
    mode: str = run.mode  # a run from an older raw.json may name the old semantic_cache
    if mode in PEER_MODES or mode == "semantic_cache":  # a semantic cache's hits
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
    order = mode_order(list(by_mode))
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


def _groups(
    runs: Sequence[ModeRun], key: Callable[[RequestResult], tuple[str, ...]]
) -> list[tuple[tuple[str, ...], list[RequestResult], int]]:
    """The requests grouped by ``key`` and mode (``key`` first, then modes in ``MODES``
    order): each group's key with the mode last, its requests and its mode's seed count."""
    cells: dict[tuple[str, ...], list[RequestResult]] = {}
    seeds: dict[str, set[int]] = {}
    for run in runs:
        seeds.setdefault(run.mode, set()).add(run.seed)
        for r in run.results:
            cells.setdefault((*key(r), run.mode), []).append(r)
    modes = mode_order([run.mode for run in runs])
    order = sorted(cells, key=lambda cell: (*cell[:-1], modes.index(cell[-1])))
    return [(cell, cells[cell], len(seeds[cell[-1]]) or 1) for cell in order]


def _served_shares(results: Sequence[RequestResult]) -> dict[str, float]:
    """The share of ``results`` each source (a decision or a cache hit) served."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r.served_by] = counts.get(r.served_by, 0) + 1
    return {k: v / len(results) for k, v in sorted(counts.items())}


def family_breakdown(runs: Sequence[ModeRun]) -> list[dict[str, Any]]:
    """Per task family and mode, means per seed: requests, tokens and mean latency (each with
    its ratio to no cache on the same family), task-correct share, wrong answers served,
    flagged answers, and how the requests were served."""
    rows: list[dict[str, Any]] = []
    for (family, mode), results, n_seeds in _groups(runs, lambda r: (r.family,)):
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
                "served_by": _served_shares(results),
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


def family_runs(runs: Sequence[ModeRun], family: str) -> list[ModeRun]:
    """``runs`` with only the requests of task ``family`` (a run with none is left out)."""
    out = []
    for run in runs:
        results = [r for r in run.results if r.family == family]
        if results:
            out.append(replace(run, results=results))
    return out


def per_family(runs: Sequence[ModeRun]) -> dict[str, list[dict[str, Any]]]:
    """Per task family (in ``FAMILIES`` order), one summary per mode as :func:`aggregate`
    makes them, from that family's requests alone."""
    present = {r.family for run in runs for r in run.results}
    return {
        family: aggregate(family_runs(runs, family)) for family in FAMILIES if family in present
    }


def evaluate_targets(
    families: Mapping[str, Sequence[dict[str, Any]]], overhead: dict[str, Any] | None
) -> tuple[dict[str, dict[str, Any]], list[Target]]:
    """Per family, the ratios StepCache / no cache; and every target: each family's, then the
    hit path's (from ``overhead``)."""
    ratios = {family: stepcache_ratios(modes) for family, modes in families.items()}
    targets = [t for family, modes in families.items() for t in family_targets(family, modes)]
    targets.extend(hit_path_targets(overhead))
    return ratios, targets


def kind_breakdown(runs: Sequence[ModeRun]) -> list[dict[str, Any]]:
    """Per base family, perturbation kind and mode (means per seed): how the requests were
    served (shares of each decision or hit) and the wrong answers served."""
    rows = []
    for (family, kind, mode), results, n_seeds in _groups(runs, lambda r: (r.base_family, r.kind)):
        rows.append(
            {
                "base_family": family,
                "kind": kind,
                "mode": mode,
                "requests": len(results) / n_seeds,
                "served_by": _served_shares(results),
                "correct_task": sum(r.task_correct for r in results) / len(results),
                "wrong_served": sum(r.wrong_served for r in results) / n_seeds,
            }
        )
    return rows


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
    """``results.md``: the targets per family, the paper's table per family with every mode
    as a column, the peers' configuration, all families together, the decisions per
    perturbation kind, the hit path and near-miss check against the peers (from
    ``overhead.json``), the per-seed values and the workload."""
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
    lines += _targets_table(results)
    lines += _per_family_tables(results.get("per_family") or {})
    lines += peer_config_lines(results.get("peers") or {})
    if "no_cache" in modes and "stepcache" in modes:
        lines += _paper_table(modes["no_cache"], modes["stepcache"], results["ratios"])
    lines += _modes_table(results["modes"])
    lines += _kind_table(results.get("kinds") or [])
    lines += _family_table(results.get("families") or [])
    lines += _breakdown_table(results.get("stepcache_cost_breakdown") or [])
    overhead = results.get("overhead") or {}
    lines += peer_hit_path_lines(overhead)
    lines += near_miss_lines(overhead.get("near_miss"))
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


def _per_family_tables(families: Mapping[str, Mapping[str, Any]]) -> list[str]:
    if not families:
        return []
    lines = [
        "## The paper's table, per task family",
        "",
        "Means over seeds (± standard deviation across seeds) of each family's requests; the "
        "last column is StepCache / no cache. For the baselines *miss* means a model call, "
        "*exact* / *semantic* a cache hit.",
        "",
    ]
    for family, data in families.items():
        modes = data["modes"]
        ratios = data.get("ratios") or {}
        names = [m["mode"] for m in modes]
        header = "| Metric | " + " | ".join(names) + " | StepCache / no cache |"
        lines += [f"### {family}", "", header, "|---|" + "---:|" * (len(names) + 1)]
        metrics = [metric for _, metric, _ in ROWS]
        for index, (label, cells) in enumerate(table_rows(modes)):
            ratio = ratios.get(metrics[index]) if index < len(metrics) else None
            shown = f"{ratio:.3f}" if isinstance(ratio, float) else ""
            lines.append(f"| {label} | " + " | ".join(cells) + f" | {shown} |")
        lines.append("")
    return lines


def _kind_table(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    if not rows:
        return []
    modes = mode_order([row["mode"] for row in rows])
    lines = [
        "## Decisions per perturbation kind (means per seed)",
        "",
        "How each mode served each kind of request (StepCache's decisions; a baseline's "
        "*model* is a model call, *exact* / *semantic* a cache hit) and the wrong answers it "
        "served per seed.",
        "",
        "| Base family | Kind | Requests | " + " | ".join(modes) + " |",
        "|---|---|---:|" + "---|" * len(modes),
    ]
    cells: dict[tuple[str, str], dict[str, Mapping[str, Any]]] = {}
    for row in rows:
        cells.setdefault((row["base_family"], row["kind"]), {})[row["mode"]] = row
    for (family, kind), by_mode in cells.items():
        requests = next(iter(by_mode.values()))["requests"]
        shown = []
        for mode in modes:
            cell = by_mode.get(mode)
            if cell is None:
                shown.append("")
                continue
            served = ", ".join(f"{k} {v:.0%}" for k, v in cell["served_by"].items())
            shown.append(f"{served}; wrong {cell['wrong_served']:.1f}")
        lines.append(f"| {family} | {kind} | {requests:.0f} | " + " | ".join(shown) + " |")
    return [*lines, ""]


def _paper_table(base: dict[str, Any], step: dict[str, Any], ratios: dict[str, Any]) -> list[str]:
    lines = [
        "## All families: baseline vs StepCache (the paper's table)",
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
    lines = ["## All modes, all families", "", "| Metric | " + " | ".join(names) + " |"]
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
    lines = ["## Targets per task family (StepCache vs no cache, same run)", ""]
    if not targets["apply"]:
        lines += [f"> {targets['note']}", ""]
    lines += ["| Target | Limit | Measured | Met | By how much | Paper | Note |"]
    lines.append("|---|---:|---:|:---:|---|---:|---|")
    for t in targets["items"]:
        unit = t["unit"]
        measured = "—" if t["measured"] is None else format_value(t["measured"], unit)
        met = {True: "met", False: "**missed**", None: "—"}[t["met"]]
        lines.append(
            f"| {t['name']} | {t['op']} {format_value(t['limit'], unit)} | {measured} | {met} "
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
    families = per_family(runs)
    family_ratios, targets = evaluate_targets(families, overhead)
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
        # StepCache / no cache over all families (shown, not judged: the targets are per family).
        "ratios": stepcache_ratios(modes),
        "per_family": {
            family: {"modes": summaries, "ratios": family_ratios[family]}
            for family, summaries in families.items()
        },
        "peers": peer_configs(runs),
        "targets": {
            "apply": applies,
            "note": note,
            "met": sum(t.met is True for t in targets),
            "missed": sum(t.met is False for t in targets),
            "items": [t.to_dict() for t in targets],
        },
        "overhead": overhead,
        "families": family_breakdown(runs),
        "kinds": kind_breakdown(runs),
        "stepcache_cost_breakdown": cost_breakdown(runs),
        "wrong_examples": wrong_examples,
    }


def peer_configs(runs: Sequence[ModeRun]) -> dict[str, dict[str, Any]]:
    """How each peer mode was configured (version, embedder, threshold, store), as its cache
    reported it after the first seed it served."""
    configs: dict[str, dict[str, Any]] = {}
    for run in runs:
        config = run.cache_stats.get("config")
        if run.mode in PEER_MODES and isinstance(config, dict):
            configs.setdefault(run.mode, config)
    return configs


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
