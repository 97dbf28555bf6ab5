"""What the benchmark judges: the targets per task family and on the hit path, met or missed.

The request-level targets compare StepCache with no cache *in the same run*, one task family
at a time (the embedded 135M model solves none of the word problems, so targets over all
families together could not be met whatever the cache does):

* equations and JSON objects (the paper's two families): mean latency <= 0.15 of no cache,
  median < 10 ms, p95 <= 1.0, p99 <= 1.1, total tokens <= 0.35, 100% correct by the task
  check, no wrong answer served;
* word problems: never worse than no cache (mean latency and total tokens <= 1.0 of no
  cache), no wrong answer served;
* every family: the wrong answers every mode served are reported beside StepCache's 0.

The hit-path targets read ``overhead.json`` (``stepcache bench --overhead``): StepCache's
exact hit under 0.05 ms and its nearest hit under 1 ms at the largest size, and, beside the
peers, StepCache's exact hit and its nearest hit (verification included) faster than every
peer's nearest lookup at each size both were measured at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "HIT_PATH_TARGETS_S",
    "PAPER_FAMILIES",
    "RATIO_METRICS",
    "Target",
    "family_targets",
    "format_value",
    "hit_path_targets",
    "stepcache_ratios",
]

# The targets for a hit's median at 100,000 entries (``stepcache bench --overhead``):
# the exact path (a key lookup) under 0.05 ms, the nearest path (embed, search, verify, adapt,
# check, store) under 1 ms.
HIT_PATH_TARGETS_S = {"exact": 0.000_05, "nearest": 0.001}
# The families the paper measured; word problems have the never-worse targets.
PAPER_FAMILIES = ("equation", "json")
RATIO_METRICS = ("latency_mean_s", "latency_median_s", "latency_p95_s", "latency_p99_s")


def format_value(value: float, unit: str) -> str:
    """``value`` in ``unit``: seconds as ms or s, a fraction as a percentage, a count, a ratio.

    Example:
        >>> format_value(0.0042, "s"), format_value(0.5, "fraction"), format_value(0.1234, "")
        ('4.20 ms', '50.0%', '0.123')
    """
    if unit == "s":
        return f"{value * 1000:.2f} ms" if value < 1 else f"{value:.2f} s"
    if unit == "fraction":
        return f"{value:.1%}"
    if unit == "count":
        return f"{value:g}"
    return f"{value:.3f}"


@dataclass(frozen=True)
class Target:
    """One benchmark target: ``measured`` compared with ``limit`` by ``op``.

    A target that is not ``judged`` (a smoke run) keeps its measurement but is neither met nor
    missed. ``family`` names the task family a request-level target is about ("" for the hit
    path).

    Example:
        >>> t = Target("json: total tokens", "tokens_total ratio", "<=", 0.35, 0.42)
        >>> t.met, t.by
        (False, 'missed by 0.070, 1.20x the limit')
        >>> t.line()
        'json: total tokens: measured 0.420, limit <= 0.350; missed by 0.070, 1.20x the limit'
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
    family: str = ""

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
        shown = format_value(gap, self.unit)
        if self.met:
            return f"met, {shown} to spare" if gap > 0 else "met exactly"
        factor = ""
        if self.op != ">=" and self.limit > 0:
            factor = f", {self.measured / self.limit:.2f}x the limit"
        return f"missed by {shown}{factor}"

    @property
    def measured_text(self) -> str:
        """The measurement in the target's unit (``—`` when not measured)."""
        return "—" if self.measured is None else format_value(self.measured, self.unit)

    @property
    def limit_text(self) -> str:
        """The limit with its comparison, e.g. ``<= 0.350``."""
        return f"{self.op} {format_value(self.limit, self.unit)}"

    def line(self) -> str:
        """One line for a console: name, measured value, limit, and how far from it."""
        return f"{self.name}: measured {self.measured_text}, limit {self.limit_text}; {self.by}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "family": self.family,
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


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def stepcache_ratios(modes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """StepCache / no cache for latency (mean, median, p95, p99) and total tokens, over the
    seeds' means and per seed; empty when either mode is missing."""
    found = {m["mode"]: m for m in modes}
    step, base = found.get("stepcache"), found.get("no_cache")
    if step is None or base is None:
        return {}
    metrics = (*RATIO_METRICS, "tokens_total")
    ratios: dict[str, Any] = {metric: _ratio(step[metric], base[metric]) for metric in metrics}
    by_seed = {s["seed"]: s for s in base["per_seed"]}
    ratios["per_seed"] = [
        {
            "seed": s["seed"],
            **{metric: _ratio(s[metric], by_seed[s["seed"]][metric]) for metric in metrics},
        }
        for s in step["per_seed"]
        if s["seed"] in by_seed
    ]
    return ratios


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, float | int) else None


def _wrong_note(modes: Sequence[Mapping[str, Any]]) -> str:
    others = [m for m in modes if m["mode"] != "stepcache"]
    if not others:
        return ""
    shown = ", ".join(f"{m['mode']} {m['wrong_served']:.1f}" for m in others)
    return f"wrong answers served per seed: {shown}"


def family_targets(family: str, modes: Sequence[Mapping[str, Any]]) -> list[Target]:
    """The targets of one task family, from the mode summaries of that family's requests."""
    step = next((m for m in modes if m["mode"] == "stepcache"), None)
    ratios = stepcache_ratios(modes)

    def ratio(metric: str) -> float | None:
        return _number(ratios.get(metric))

    def own(metric: str) -> float | None:
        return None if step is None else float(step[metric])

    wrong = Target(
        f"{family}: wrong answers served", "wrong_served", "<=", 0.0, own("wrong_served"),
        unit="count", note=_wrong_note(modes), family=family,
    )  # fmt: skip
    if family not in PAPER_FAMILIES:
        note = "never worse than no cache (the embedded model solves none of them)"
        return [
            Target(f"{family}: mean latency", "latency_mean_s ratio", "<=", 1.0,
                   ratio("latency_mean_s"), note=note, family=family),
            Target(f"{family}: total tokens", "tokens_total ratio", "<=", 1.0,
                   ratio("tokens_total"), note=note, family=family),
            wrong,
        ]  # fmt: skip
    return [
        Target(f"{family}: mean latency", "latency_mean_s ratio", "<=", 0.15,
               ratio("latency_mean_s"), paper="0.31", family=family),
        Target(f"{family}: median latency", "latency_median_s", "<", 0.010,
               own("latency_median_s"), unit="s", paper="0.01 s", family=family),
        Target(f"{family}: p95 latency", "latency_p95_s ratio", "<=", 1.0,
               ratio("latency_p95_s"), paper="0.98", family=family),
        Target(f"{family}: p99 latency", "latency_p99_s ratio", "<=", 1.1,
               ratio("latency_p99_s"), family=family),
        Target(f"{family}: total tokens", "tokens_total ratio", "<=", 0.35,
               ratio("tokens_total"), paper="0.76", family=family),
        Target(f"{family}: correct (task check)", "correct_task", ">=", 1.0,
               own("correct_task"), unit="fraction", paper="100%", family=family),
        wrong,
    ]  # fmt: skip


def _size_of(row: Mapping[str, Any]) -> int:
    return int(row.get("size", row["entries"]))


def hit_path_targets(overhead: Mapping[str, Any] | None) -> list[Target]:
    """The hit-path targets read from ``overhead.json`` (not measured without it)."""
    note = "run `stepcache bench --overhead --out DIR` before the benchmark to include it"
    if overhead is None:
        return [Target("cache hit path median (100,000 entries)", "hit_path_median_s", "<",
                       0.001, None, unit="s", note=note)]  # fmt: skip
    largest = overhead["sizes"][-1]
    entries = largest["entries"]
    measured_at = f"from overhead.json ({overhead.get('measured_at', '')})"
    targets = [
        Target(
            f"cache hit path median, {path} ({entries:,} entries)",
            f"{path}_median_s",
            "<",
            HIT_PATH_TARGETS_S[path],
            largest[f"{path}_median_s"],
            unit="s",
            note=measured_at,
        )
        for path in ("exact", "nearest")
    ]
    return targets + _peer_targets(overhead)


def _peer_targets(overhead: Mapping[str, Any]) -> list[Target]:
    """At every size the peers were measured at: StepCache's exact and nearest hits (through
    ``StepCacheLLM.invoke``, LangChain included) against the fastest peer nearest lookup."""
    peers = (overhead.get("peers") or {}).get("runs") or []
    own = {_size_of(row): row for row in overhead["sizes"]}
    nearest: dict[int, list[tuple[float, str]]] = {}
    for run in peers:
        for row in run["sizes"]:
            if row.get("nearest_median_s") is not None:
                nearest.setdefault(int(row["size"]), []).append(
                    (float(row["nearest_median_s"]), run["label"])
                )
    targets: list[Target] = []
    for size in sorted(nearest):
        step = own.get(size)
        if step is None:
            continue
        fastest, label = min(nearest[size])
        shown = ", ".join(f"{name} {seconds * 1000:.2f} ms" for seconds, name in nearest[size])
        for path in ("exact", "nearest"):
            targets.append(
                Target(
                    f"hit path at {size:,} entries: StepCache {path} hit faster than every "
                    "peer's nearest lookup",
                    f"wrapper_{path}_median_s",
                    "<",
                    fastest,
                    step.get(f"wrapper_{path}_median_s"),
                    unit="s",
                    note=f"StepCacheLLM.invoke against the fastest peer ({label}); peers' "
                    f"nearest lookups: {shown}",
                )
            )
    return targets
