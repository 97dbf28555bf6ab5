"""``stepcache bench --audit``: how many wrong answers a cache serves before its audit stops a
wrong kind of reuse, and what the audit costs, at audit rates of 1%, 2% and 5%.

SIMULATED, offline: a family that re-instantiates wrongly on value changes (on odd numbers,
half of them), a simulated oracle model, and a simulated stream of requests
(:mod:`~stepcache_integrations.bench.audit_family`). Audits run on the auditor's thread as in
production, and the simulation waits for them after each request (as if the traffic left
time for every audit before the next request: a real stream adds the audit queue's delay).

Reported per rate and seed: wrong answers served before the kind was suspended, wrong
answers served in all, the requests until the suspension, and the tokens audits spent (all,
and up to the suspension), beside the tokens the requests spent. Also the request path's
median latency with the audit on and off, measured on the same stream in one run.
"""

from __future__ import annotations

import json
import logging
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from stepcache_integrations.adapter import drive
from stepcache_integrations.bench.audit_family import (
    OracleModel,
    SquareFamily,
    final_number,
    simulated_stream,
)
from stepcache_integrations.core.audit import AuditConfig
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply
from stepcache_integrations.core.tasks import TaskRegistry

__all__ = ["RATES", "AuditRun", "render", "run_one", "simulate"]

RATES = (0.01, 0.02, 0.05)
WRONG_KIND = "square/value"
LENGTH = 2000


@dataclass(frozen=True)
class AuditRun:
    """One simulated stream at one audit rate (``rate`` 0: no audit)."""

    rate: float
    seed: int
    requests: int
    suspended_after: int | None  # requests served before the wrong kind was suspended
    wrong_before: int  # wrong answers served before the suspension
    wrong_total: int
    audit_tokens: int
    audit_tokens_before: int  # spent on audits up to the suspension
    request_tokens: int
    median_ms: float


def _drive(cache: StepCache, prompt: str, model: OracleModel) -> tuple[str, Any]:
    def ask(call: ModelCall) -> ModelReply:
        return model(call, prompt)

    result = drive(cache.serve(CacheRequest(prompt, "simulated"), audit=ask), ask)
    return result.text, result.record


def run_one(rate: float, seed: int, length: int = LENGTH) -> AuditRun:
    """One simulated stream of ``length`` requests, audited at ``rate`` (0: no audit)."""
    audit = AuditConfig(rate=rate, seed=seed) if rate > 0 else None
    cache = StepCache(tasks=TaskRegistry([SquareFamily()]), audit=audit)
    model = OracleModel()
    wrong_before = wrong_total = 0
    suspended_after: int | None = None
    tokens_before = 0
    latencies: list[float] = []
    try:
        for index, item in enumerate(simulated_stream(seed, length)):
            started = time.perf_counter()
            text, _record = _drive(cache, item.prompt, model)
            latencies.append((time.perf_counter() - started) * 1000.0)
            wrong = final_number(text) != item.truth
            wrong_total += wrong
            if suspended_after is None:
                wrong_before += wrong
            cache.drain_audits(30)
            stats = cache.audit_stats()
            if suspended_after is None and stats is not None and WRONG_KIND in stats["suspended"]:
                suspended_after = index + 1
                tokens_before = int(stats["tokens_used"])
        stats = cache.audit_stats()
        audit_tokens = int(stats["tokens_used"]) if stats is not None else 0
        request_tokens = int(cache.stats()["tokens_used"])
    finally:
        cache.close()
    return AuditRun(
        rate,
        seed,
        length,
        suspended_after,
        wrong_before,
        wrong_total,
        audit_tokens,
        tokens_before if suspended_after is not None else audit_tokens,
        request_tokens,
        round(statistics.median(latencies), 4),
    )


def simulate(
    seeds: Sequence[int], rates: Sequence[float] = RATES, length: int = LENGTH
) -> dict[str, Any]:
    """Every rate (and no audit) on every seed; the runs and a summary per rate."""
    runs = [run_one(rate, seed, length) for rate in (0.0, *rates) for seed in seeds]
    summary = []
    for rate in (0.0, *rates):
        mine = [run for run in runs if run.rate == rate]
        caught = [run.suspended_after for run in mine if run.suspended_after is not None]
        summary.append(
            {
                "rate": rate,
                "seeds": len(mine),
                "caught": len(caught),
                "wrong_before_mean": statistics.mean(run.wrong_before for run in mine),
                "wrong_before_max": max(run.wrong_before for run in mine),
                "wrong_total_mean": statistics.mean(run.wrong_total for run in mine),
                "suspended_after_mean": statistics.mean(caught) if caught else None,
                "audit_tokens_mean": statistics.mean(run.audit_tokens for run in mine),
                "audit_tokens_before_mean": statistics.mean(
                    run.audit_tokens_before for run in mine
                ),
                "request_tokens_mean": statistics.mean(run.request_tokens for run in mine),
                "median_ms": statistics.median(run.median_ms for run in mine),
            }
        )
    return {
        "simulated": True,
        "requests_per_stream": length,
        "wrong_kind": WRONG_KIND,
        "summary": summary,
        "runs": [asdict(run) for run in runs],
    }


def render(result: dict[str, Any]) -> str:
    """The summary as a plain-text table (labelled simulated)."""
    lines = [
        f"SIMULATED audit benchmark: {result['requests_per_stream']} requests per stream, "
        f"a family wrong on {result['wrong_kind']} (odd numbers), a simulated oracle model",
        "rate   caught  wrong before  wrong in all  suspended after  audit tokens "
        "(to suspension)  request tokens  median ms",
    ]
    for row in result["summary"]:
        after = row["suspended_after_mean"]
        lines.append(
            f"{row['rate']:>4.0%}  {row['caught']:>3}/{row['seeds']:<3} "
            f"{row['wrong_before_mean']:>8.1f} (max {row['wrong_before_max']:>2}) "
            f"{row['wrong_total_mean']:>11.1f}  "
            f"{'-' if after is None else f'{after:.0f}':>15}  "
            f"{row['audit_tokens_mean']:>12.0f} ({row['audit_tokens_before_mean']:>6.0f})  "
            f"{row['request_tokens_mean']:>14.0f}  {row['median_ms']:>9.4f}"
        )
    return "\n".join(lines)


def main(seeds: Sequence[int], out: Path | None = None, length: int = LENGTH) -> int:
    """Run, print, and write ``audit.json`` to ``out`` when given."""
    # Each disagreement logs a warning (as it should in production): here they are the
    # simulation's expected findings, counted in the table.
    logging.getLogger("stepcache_integrations.core.audit").setLevel(logging.ERROR)
    result = simulate(seeds, length=length)
    print(render(result))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "audit.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0
