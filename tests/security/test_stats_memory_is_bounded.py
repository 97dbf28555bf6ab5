"""Promise: ``stats()`` stays constant in memory and cost however many requests were served,
and a malformed token count never poisons it."""

from __future__ import annotations

import math

from stepcache_integrations.core.records import LatencySummary, StatsCollector, StepCacheRecord


def test_latency_memory_is_bounded_and_percentiles_stay_close() -> None:
    stats = StatsCollector()
    for i in range(200_000):
        stats.add(StepCacheRecord(decision="exact", latency_ms={"total": float(i % 1000)}))
    snapshot = stats.snapshot()
    latency = snapshot["latency_ms"]
    assert snapshot["requests"] == 200_000
    assert latency["sampled"] <= 4096
    assert math.isclose(latency["mean"], 499.5)
    # A uniform sample of 4096 from a uniform 0..999: percentiles within a few percent.
    assert abs(latency["p50"] - 500) < 40
    assert abs(latency["p95"] - 950) < 25


def test_summary_ignores_non_finite_values() -> None:
    summary = LatencySummary(size=10)
    for value in (1.0, math.nan, math.inf, 3.0):
        summary.add(value)
    assert summary.count == 2
    assert summary.mean == 2.0


def test_malformed_token_counts_do_not_poison_totals() -> None:
    stats = StatsCollector()
    stats.add(StepCacheRecord(decision="miss", tokens_used=10, tokens_saved=0))
    bad = StepCacheRecord(decision="miss")
    bad.tokens_used = math.nan  # type: ignore[assignment]
    bad.tokens_saved = "12"  # type: ignore[assignment]
    stats.add(bad)
    snapshot = stats.snapshot()
    assert snapshot["tokens_used"] == 10
    assert snapshot["tokens_saved"] == 0
    assert snapshot["requests"] == 2
