"""A fleet: eight processes share one Postgres-backed cache and serve an interleaved workload
with a scripted model. What one process stores, the others hit; one key is one entry; the
fleet's counters add up to what the processes counted."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from stepcache_integrations.core.entries import prompt_key
from stepcache_integrations.core.stores.postgres import PostgresStore
from tests.postgres.fleet import Worker, close_fleet, serve_all, start_fleet
from tests.reliability.support import NS, eq

WORKERS = 8


@pytest.fixture
def fleet(postgres_url: str, schema: str, tmp_path: Path) -> Iterator[list[Worker]]:
    workers = start_fleet(postgres_url, schema, tmp_path, WORKERS)
    try:
        yield workers
    finally:
        close_fleet(workers)


def test_eight_processes_share_one_cache(
    fleet: list[Worker], postgres_url: str, schema: str
) -> None:
    # 1. Each process answers its own prompts: every answer is stored for the fleet.
    own = [[(w * 3 + j, "x") for j in range(3)] for w in range(WORKERS)]
    first = serve_all(fleet, own)
    assert all(r["stored"] and r["correct"] for rs in first for r in rs), first

    # 2. Each process asks what its neighbour stored: exact hits, no model call.
    neighbours = [own[(w + 1) % WORKERS] for w in range(WORKERS)]
    second = serve_all(fleet, neighbours)
    for results in second:
        assert [r["decision"] for r in results] == ["exact"] * 3, results
        assert all(r["calls"] == 0 and r["correct"] for r in results)

    # 3. ... and a renamed variable of it: served from the cache (re-instantiated, or
    # completed by the equation solver), no model call.
    renamed = [[(i, "y") for i, _ in own[(w + 2) % WORKERS]] for w in range(WORKERS)]
    third = serve_all(fleet, renamed)
    for results in third:
        for r in results:
            assert r["decision"] in ("exact", "reuse", "patch"), r
            assert r["calls"] == 0 and r["correct"]

    # 4. Interleaved: every process serves the same new prompts, in its own order, at once.
    shared = [(100 + j, var) for j in range(10) for var in ("x", "z")]
    shuffled = [random.Random(w).sample(shared, len(shared)) for w in range(WORKERS)]
    fourth = serve_all(fleet, shuffled)
    assert all(r["correct"] for rs in fourth for r in rs)

    stats = []
    for worker in fleet:
        worker.send({"stats": True})
        stats.append(worker.read()["stats"])
    close_fleet(fleet)  # each process writes its counters

    store = PostgresStore(postgres_url, schema=schema)
    try:
        entries = list(store)
        keys = [e.key for e in entries]
        assert len(keys) == len(set(keys)), "two entries for one key"
        distinct = {(i, v) for batch in own + renamed + shuffled for i, v in batch}
        assert {e.key for e in entries} == {prompt_key(NS, eq(i, v)) for i, v in distinct}
        assert len(store) == len(distinct)
        assert store.check()["ok"]

        # The fleet's counters are the sum of what the processes counted, request for request.
        total = sum(len(batch) for phase in (own, neighbours, renamed, shuffled) for batch in phase)
        assert sum(s["requests"] for s in stats) == total
        summed: Counter[str] = Counter()
        for s in stats:
            summed.update(s["decisions"])
        fleet_counts = store.summary()["fleet"]
        assert fleet_counts["requests"] == total
        assert fleet_counts["decisions"] == {d: summed[d] for d in fleet_counts["decisions"]}
        assert fleet_counts["hit_rate"] > 0.5
    finally:
        store.close()
