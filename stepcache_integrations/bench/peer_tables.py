"""Markdown tables about the peers: how each was configured, the hit path beside StepCache's,
and the near-miss check. ``results.md`` shows them, and ``stepcache bench --overhead`` prints
the last two (they read ``overhead.json``'s ``peers`` and ``near_miss``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["near_miss_lines", "peer_config_lines", "peer_hit_path_lines"]

CONFIG_FIELDS = ("version", "api", "embedder", "threshold", "store")
CONFIG_HEADERS = {
    "version": "Version",
    "api": "API",
    "embedder": "Embedder",
    "threshold": "Threshold",
    "store": "Store",
}


def _ms(value: Any) -> str:
    return "—" if value is None else f"{float(value) * 1000:.3f} ms"


def _cell(median: Any, p95: Any, hits: Any = None, probes: Any = None) -> str:
    text = "—" if median is None else f"{_ms(median)} (p95 {_ms(p95)})"
    if probes is not None and hits is not None:
        text += f", {hits}/{probes} hits"
    return text


def peer_config_lines(configs: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """``## How the peers were configured``: version, API, embedder, threshold and store."""
    if not configs:
        return []
    lines = [
        "## How the peers were configured",
        "",
        "| Mode | " + " | ".join(CONFIG_HEADERS[name] for name in CONFIG_FIELDS) + " |",
        "|---|" + "---|" * len(CONFIG_FIELDS),
    ]
    for mode, config in configs.items():
        cells = [str(config.get(name, "")).replace("|", "/") for name in CONFIG_FIELDS]
        lines.append(f"| {mode} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def peer_hit_path_lines(overhead: Mapping[str, Any]) -> list[str]:
    """``## Hit path against the peers``: medians (p95) at every size both were measured at."""
    peers = overhead.get("peers") or {}
    runs: Sequence[Mapping[str, Any]] = peers.get("runs") or []
    if not runs:
        return []
    own = {int(row.get("size", row["entries"])): row for row in overhead.get("sizes") or []}
    lines = [
        "## Hit path against the peers (no model, same process)",
        "",
        f"{peers.get('what', '')}",
        "",
        "| Entries | Cache | Exact hit / lookup | Nearest hit / lookup |",
        "|---:|---|---|---|",
    ]
    sizes = sorted({int(row["size"]) for run in runs for row in run["sizes"]} | set())
    for size in sizes:
        step = own.get(size)
        if step is not None:
            lines.append(
                f"| {size:,} | StepCache, engine (`StepCache.serve`) | "
                f"{_cell(step['exact_median_s'], step['exact_p95_s'])} | "
                f"{_cell(step['nearest_median_s'], step['nearest_p95_s'])} |"
            )
            lines.append(
                f"| {size:,} | StepCache, `StepCacheLLM.invoke` | "
                f"{_cell(step['wrapper_exact_median_s'], step['wrapper_exact_p95_s'])} | "
                f"{_cell(step['wrapper_nearest_median_s'], step['wrapper_nearest_p95_s'])} |"
            )
        for run in runs:
            row = next((r for r in run["sizes"] if int(r["size"]) == size), None)
            if row is None:
                continue
            lines.append(
                f"| {size:,} | {run['label']} | "
                f"{_cell(row['exact_median_s'], row['exact_p95_s'], row['exact_hits'], row['exact_probes'])} | "  # noqa: E501
                f"{_cell(row['nearest_median_s'], row['nearest_p95_s'], row['nearest_hits'], row['nearest_probes'])} |"  # noqa: E501
            )
    lines.append("")
    for run in runs:
        for row in run["sizes"]:
            lines.append(
                f"- {run['label']} at {int(row['size']):,} entries: filled in "
                f"{row['fill_s']:.1f} s ({row['fill_how']})."
            )
        for skipped in run.get("skipped") or []:
            lines.append(f"- {run['label']} at {int(skipped['size']):,} entries: not measured: "
                         f"{skipped['reason']}")  # fmt: skip
    return [*lines, ""]


def near_miss_lines(near_miss: Mapping[str, Any] | None) -> list[str]:
    """``## Near-miss check``: per cache, how many different-meaning requests got the other
    request's answer, and how many same-meaning ones were served from the cache."""
    if not near_miss:
        return []
    different, same = near_miss["different_pairs"], near_miss["same_pairs"]
    lines = [
        "## Near-miss check (pairs of requests that look alike)",
        "",
        near_miss.get("what", ""),
        "",
        f"| Cache | Threshold | Different meaning: served the other request's answer (of "
        f"{different}) | Same meaning: served from the cache (of {same}) |",
        "|---|---|---:|---:|",
    ]
    for row in near_miss["caches"]:
        lines.append(
            f"| {row['label']} | {row['threshold']} | {row['different_served_other']} | "
            f"{row['same_served_cached']} |"
        )
    lines.append("")
    for row in near_miss["caches"]:
        wrong = row.get("different_examples") or []
        if wrong:
            shown = "; ".join(f"`{pair}`" for pair in wrong[:5])
            lines.append(f"- {row['label']}: e.g. {shown}")
    return [*lines, ""]
