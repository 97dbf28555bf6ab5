"""``stepcache bench --overhead --store sqlite|postgres`` measures what it says: hits on a
filled persistent store, stores one by one, and several processes serving hits at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from stepcache_integrations.bench.overhead import measure_overhead, render_overhead
from stepcache_integrations.cli.app import build_parser


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_the_overhead_benchmark_runs_on_a_persistent_store(
    store: str, postgres_url: str, tmp_path: Path
) -> None:
    location = postgres_url if store == "postgres" else str(tmp_path / "cache")
    result = measure_overhead(
        300,
        probes=4,
        store=store,
        location=location,
        fleet_processes=2,
        fleet_seconds=1.0,
        telemetry_rounds=1,  # the in-memory telemetry table, whatever the store: a few hits
        telemetry_hits=10,
    )
    assert result["store"] == store and result["entries"] == 300
    largest = result["sizes"][-1]
    assert largest["exact_hits"] == 4  # every identical request was an exact hit
    assert largest["nearest_hits"] >= 1
    assert result["stores_per_second"]["stores"] == 200
    assert result["stores_per_second"]["per_second"] > 0
    fleet = result["fleet"]
    assert fleet["processes"] == 2 and fleet["requests"] > 0
    assert fleet["decisions"].get("exact", 0) > 0  # served from the shared cache
    text = render_overhead(result)
    assert "stores:" in text and "fleet: 2 processes" in text


def test_the_cli_takes_a_store() -> None:
    args = build_parser().parse_args(
        ["bench", "--overhead", "--store", "postgres", "--url", "postgresql://app@db/app"]
    )
    assert (args.store, args.url) == ("postgres", "postgresql://app@db/app")
