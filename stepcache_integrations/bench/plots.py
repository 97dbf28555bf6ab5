"""The benchmark's PNG plots: latency, tokens, and correctness per mode.

``correctness.png`` is the plot that shows what StepCache does and a semantic cache cannot:
how many answers each mode got right, and how many wrong answers it served as if they were
right. Every legend sits outside the axes, so it never hides a curve or a bar. A simulated
run says so in every title and in the PNG metadata.

matplotlib comes with the ``bench`` extra; it is imported when a figure is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from stepcache_integrations.bench.runner import ModeRun, mode_order

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "PLOT_FILES",
    "correctness_figure",
    "latency_figure",
    "save_figure",
    "tokens_figure",
    "write_plots",
]

PLOT_FILES: tuple[str, ...] = ("latency.png", "tokens.png", "correctness.png")

# One colour per mode, the same in every plot.
MODE_COLOURS = {
    "no_cache": "#7f7f7f",
    "exact_cache": "#1f77b4",
    "gptcache": "#d62728",
    "sulci": "#9467bd",
    "semantic_cache": "#8c564b",  # the hand-written semantic cache of runs up to 0.5.0
    "stepcache": "#2ca02c",
}
CORRECT, FLAGGED, SERVED_WRONG = "#2ca02c", "#ff9f1c", "#d62728"
TASK_CHECK, INTEGRITY_CHECK = "#4c72b0", "#9ecae1"
LATENCY_FLOOR_S = 1e-5  # a log axis needs positive values; faster requests are drawn here


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on servers and CI
    import matplotlib.pyplot as plt

    return plt


def _legend_under(axis: Any, handles: Sequence[Any], labels: Sequence[str], ncol: int) -> None:
    """The axes' legend, centred under its x-axis label: never on the data."""
    axis.legend(
        handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=ncol,
        frameon=False,
    )  # fmt: skip


def latency_figure(runs: Sequence[ModeRun], title: str) -> Figure:
    """Latency per request and mode: an ECDF and a box plot, both on a log axis."""
    plt = _pyplot()
    modes = mode_order([r.mode for r in runs])
    latencies = {
        m: np.maximum(
            np.asarray([x.latency_s for r in runs if r.mode == m for x in r.results], dtype=float),
            LATENCY_FLOOR_S,
        )
        for m in modes
    }
    fig, (ecdf, box) = plt.subplots(1, 2, figsize=(12, 5.2))
    handles = []
    for mode in modes:
        values = np.sort(latencies[mode])
        if values.size:
            (line,) = ecdf.step(
                values, np.arange(1, values.size + 1) / values.size, where="post",
                color=MODE_COLOURS.get(mode), label=mode,
            )  # fmt: skip
            handles.append(line)
    ecdf.set_xscale("log")
    ecdf.set_xlabel("latency per request (s, log scale)")
    ecdf.set_ylabel("fraction of requests")
    ecdf.set_title("ECDF, all seeds pooled")
    ecdf.grid(True, which="both", alpha=0.3)
    box.boxplot([latencies[m] for m in modes], tick_labels=modes, whis=(5, 95), showfliers=True)
    box.set_yscale("log")
    box.set_ylabel("latency per request (s, log scale)")
    box.set_title("box: quartiles, whiskers p5-p95")
    box.grid(True, which="both", axis="y", alpha=0.3)
    fig.suptitle(f"Latency per mode: {title}")
    _legend_under(ecdf, handles, [h.get_label() for h in handles], ncol=2)
    fig.tight_layout()
    return cast("Figure", fig)


def tokens_figure(runs: Sequence[ModeRun], title: str) -> Figure:
    """Total tokens per seed and mode: bars for the mean, a dot per seed."""
    plt = _pyplot()
    modes = mode_order([r.mode for r in runs])
    seeds = sorted({r.seed for r in runs})
    totals = {m: [sum(x.tokens for x in r.results) for r in runs if r.mode == m] for m in modes}
    fig, axis = plt.subplots(figsize=(7.5, 5))
    axis.bar(
        modes, [float(np.mean(totals[m])) for m in modes],
        color=[MODE_COLOURS.get(m, "#8fb3d9") for m in modes], alpha=0.6,
    )  # fmt: skip
    dots = None
    for mode in modes:
        dots = axis.scatter([mode] * len(totals[mode]), totals[mode], color="black", s=12, zorder=3)
    axis.set_ylabel("total tokens per seed (input + output, every call)")
    fig.suptitle(f"Tokens per mode:\n{title}")
    axis.grid(True, axis="y", alpha=0.3)
    from matplotlib.patches import Patch

    mean = Patch(facecolor="#cccccc", edgecolor="#666666")
    handles: list[Any] = [mean] + ([dots] if dots is not None else [])
    labels = [f"bar: mean over seeds {', '.join(map(str, seeds))}", "dot: one seed"]
    _legend_under(axis, handles, labels, ncol=2)
    fig.tight_layout()
    return cast("Figure", fig)


def _outcome_shares(mode: dict[str, Any]) -> tuple[float, float, float]:
    """Mean shares over seeds: correct by the task check, wrong but flagged, wrong and served
    as if right (they add up to 1)."""
    correct, flagged, served = [], [], []
    for seed in mode["per_seed"]:
        n = seed["requests"] or 1
        wrong_served = seed["wrong_served"] / n
        correct.append(seed["correct_task"])
        served.append(wrong_served)
        flagged.append(max(0.0, 1.0 - seed["correct_task"] - wrong_served))
    return float(np.mean(correct)), float(np.mean(flagged)), float(np.mean(served))


def correctness_figure(results: dict[str, Any], title: str) -> Figure:
    """What each mode served: correct answers, wrong answers it flagged, and wrong answers it
    served as if they were right; beside it, correctness by the task and integrity checks.

    Drawn from the ``results.json`` document (its per-seed values), so it can be redrawn for
    any earlier run.
    """
    plt = _pyplot()
    from matplotlib.ticker import PercentFormatter

    modes = list(results["modes"])
    names = [m["mode"] for m in modes]
    fig, (outcome, checks) = plt.subplots(1, 2, figsize=(12, 5.2))

    positions = np.arange(len(modes))
    shares = [_outcome_shares(m) for m in modes]
    left = np.zeros(len(modes))
    handles: list[Any] = []
    segments = (
        ("correct (task check)", CORRECT),
        ("wrong, flagged (passed: false)", FLAGGED),
        ("wrong, served as if right", SERVED_WRONG),
    )
    for index, (label, colour) in enumerate(segments):
        values = np.asarray([s[index] for s in shares])
        bars = outcome.barh(positions, values, left=left, color=colour, label=label)
        handles.append(bars)
        for y, (x0, width) in enumerate(zip(left, values, strict=True)):
            if width >= 0.08:
                outcome.text(x0 + width / 2, y, f"{width:.0%}", ha="center", va="center",
                             color="white", fontsize=9, fontweight="bold")  # fmt: skip
        left += values
    outcome.set_yticks(positions, names)
    outcome.invert_yaxis()
    outcome.set_xlim(0, 1)
    outcome.xaxis.set_major_formatter(PercentFormatter(1.0))
    outcome.set_xlabel("share of evaluation answers (mean over seeds)")
    outcome.set_title("What each mode served")
    _legend_under(outcome, handles, [h.get_label() for h in handles], ncol=2)

    width = 0.38
    handles = []
    for offset, metric, label, colour in (
        (-width / 2, "correct_task", "task check", TASK_CHECK),
        (width / 2, "correct_integrity", "integrity check", INTEGRITY_CHECK),
    ):
        means = [m[metric] for m in modes]
        bars = checks.bar(positions + offset, means, width, color=colour, label=label)
        handles.append(bars)
        for x, mode in zip(positions + offset, modes, strict=True):
            per_seed = [s[metric] for s in mode["per_seed"]]
            checks.scatter([x] * len(per_seed), per_seed, color="black", s=10, zorder=3)
    checks.set_xticks(positions, names)
    checks.set_ylim(0, 1.05)
    checks.yaxis.set_major_formatter(PercentFormatter(1.0))
    checks.set_ylabel("answers correct (bars: mean; dots: each seed)")
    checks.set_title("Correct by each check")
    checks.grid(True, axis="y", alpha=0.3)
    _legend_under(checks, handles, [h.get_label() for h in handles], ncol=2)
    fig.suptitle(f"Correctness per mode: {title}")
    fig.tight_layout()
    return cast("Figure", fig)


def save_figure(fig: Figure, path: Path) -> Path:
    """Write ``fig`` as a PNG whose metadata repeats the figure's title, then close it."""
    title = fig.get_suptitle() or path.stem
    # The title goes into the PNG's metadata too, so a SIMULATED plot says so even cropped.
    fig.savefig(path, dpi=120, metadata={"Title": title})
    _pyplot().close(fig)
    return path


def write_plots(
    runs: Sequence[ModeRun], results: dict[str, Any], out_dir: Path, title: str
) -> list[Path]:
    """``latency.png``, ``tokens.png`` and ``correctness.png`` in ``out_dir``."""
    figures = (
        latency_figure(runs, title),
        tokens_figure(runs, title),
        correctness_figure(results, title),
    )
    return [save_figure(fig, out_dir / name) for fig, name in zip(figures, PLOT_FILES, strict=True)]
