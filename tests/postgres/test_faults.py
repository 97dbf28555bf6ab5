"""Faults of a fleet on Postgres: a worker killed mid-store loses no acknowledged entry and
leaves nothing half-written; Postgres stopped mid-run costs answers nothing (the model answers,
decision ``bypass``) and the workers serve hits again once it is back, without a restart."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.postgres import PoolSettings, PostgresStore
from tests.postgres.fleet import Worker, close_fleet, serve_all, start_fleet
from tests.postgres.server import fresh_schema, start_private_server
from tests.reliability.support import Model, ask, eq, key, solution_text

OUTAGE_WARNING = "requests are answered by the model until it recovers"


def test_kill_9_mid_store_loses_no_acknowledged_entry(
    postgres_url: str, schema: str, tmp_path: Path
) -> None:
    workers = start_fleet(postgres_url, schema, tmp_path, 3)
    acked: dict[int, list[int]] = {}
    try:
        for n, worker in enumerate(workers):
            worker.send({"store_forever": n * 100_000})
        victim = workers[0]
        acked[0] = [victim.read()["ack"] for _ in range(25)]
        os.kill(victim.process.pid, signal.SIGKILL)  # in the middle of its next store
        victim.process.wait()
        for n, worker in enumerate(workers[1:], start=1):
            acked[n] = [worker.read()["ack"] for _ in range(10)]
            os.kill(worker.process.pid, signal.SIGKILL)
            worker.process.wait()
    finally:
        close_fleet(workers)
    store = PostgresStore(postgres_url, schema=schema)
    try:
        for indexes in acked.values():
            for i in indexes:
                assert store.get_by_key(key(eq(i))) is not None, i
        report = store.check()
        # No orphan vector, no entry without its vector, no unreadable row.
        assert report["ok"], report
        assert report["index"]["missing"] == 0 and report["store"]["unreadable"] == {}
        assert len(store) >= sum(len(v) for v in acked.values())
    finally:
        store.close()


@pytest.fixture
def private_server() -> Iterator[Any]:
    """A server of this test's own: it is stopped and started again."""
    directory = Path(tempfile.mkdtemp(prefix="sc-pg-"))
    server = start_private_server(directory / "data")
    try:
        yield server
    finally:
        server.cleanup()
        shutil.rmtree(directory, ignore_errors=True)


def test_postgres_stopped_mid_run_fails_open_and_recovers(
    private_server: Any, tmp_path: Path
) -> None:
    url = str(private_server.get_uri())
    with fresh_schema(url) as schema:
        workers = start_fleet(url, schema, tmp_path, 4)
        try:
            _outage_run(private_server, workers, url, schema)
        finally:
            close_fleet(workers)


def _outage_run(server: Any, workers: list[Worker], url: str, schema: str) -> None:
    before = [[(w * 10 + j, "x") for j in range(3)] for w in range(len(workers))]
    assert all(r["stored"] for rs in serve_all(workers, before) for r in rs)

    server.stop()
    during = [[*batch, (500 + w, "x")] for w, batch in enumerate(before)]
    for results in serve_all(workers, during):
        for r in results:
            # Every request answered, correctly, by the model; nothing stored.
            assert r["decision"] == "bypass" and r["calls"] == 1 and r["correct"], r
            assert "cache unavailable" in r["reason"] and not r["stored"]
    for worker in workers:
        assert worker.warnings(OUTAGE_WARNING) == 1  # one warning per outage, not per request

    server.start()
    deadline = time.monotonic() + 90
    for w, worker in enumerate(workers):
        # The same processes: their pools reconnect by themselves.
        while True:
            worker.send({"serve": [[w * 10, "x"]]})
            [r] = worker.results()
            assert r["correct"], r
            if r["decision"] == "exact":
                break
            assert r["decision"] == "bypass", r
            assert time.monotonic() < deadline, "the cache did not come back"
            time.sleep(0.5)
    # The stores that failed during the outage are made by later requests.
    after = [[(500 + w, "x")] for w in range(len(workers))]
    assert all(r["stored"] for rs in serve_all(workers, after) for r in rs)
    neighbours = [after[(w + 1) % len(workers)] for w in range(len(workers))]
    assert all(r["decision"] == "exact" for rs in serve_all(workers, neighbours) for r in rs)
    store = PostgresStore(url, schema=schema)
    try:
        report = store.check()
        assert report["ok"], report
        assert len(store) == 3 * len(workers) + len(workers)
    finally:
        store.close()


def test_lookups_after_a_restart_fail_open_at_once_and_the_pool_heals_in_the_background(
    private_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    url = str(private_server.get_uri())
    with fresh_schema(url) as schema:
        cache = StepCache(store=PostgresStore(url, schema=schema, pool=PoolSettings(max_size=4)))
        try:
            _restart_run(private_server, cache, caplog)
        finally:
            cache.close()


def _restart_run(server: Any, cache: StepCache, caplog: pytest.LogCaptureFixture) -> None:
    assert all(ask(cache, eq(i)).record.stored for i in range(4))
    assert [ask(cache, eq(i)).record.decision for i in range(4)] == ["exact"] * 4
    store = cache.store
    assert isinstance(store, PostgresStore)

    server.stop()
    server.start()  # every pooled connection is now broken
    with caplog.at_level(logging.WARNING):
        model = Model()
        first = ask(cache, eq(0), model)
        # The lookup failed on the broken connection itself: no test of connections, no
        # wait for a new one on the request (a wait would end in PoolTimeout).
        assert first.record.decision == "bypass" and len(model.calls) == 1, first.record
        assert "terminating connection" in first.record.reason, first.record.reason
        assert "PoolTimeout" not in first.record.reason
        assert solution_text(0) in first.text
        _wait_until_healed(store)
        after = [ask(cache, eq(i % 4), model) for i in range(8)]
    # Every other broken connection was replaced in the background: no later request met one.
    assert [r.record.decision for r in after] == ["exact"] * 8, [r.record for r in after]
    assert len(model.calls) == 1
    outage = [
        r for r in caplog.records if r.name.endswith("guard") and OUTAGE_WARNING in r.getMessage()
    ]
    assert len(outage) == 1  # one warning for the restart
    lookups = [first.record.latency_ms["lookup"], *(r.record.latency_ms["lookup"] for r in after)]
    print(f"lookup ms after the restart (budget 50): {', '.join(f'{ms:.1f}' for ms in lookups)}")


def _wait_until_healed(store: PostgresStore) -> None:
    """Until the pool has all its connections again, none of them under test."""
    deadline = time.monotonic() + 60
    while True:
        stats = store.rows.ready.stats()
        healed = stats.get("ready") and not stats["replacing_broken"]
        if healed and stats["pool_available"] == stats["pool_max"]:
            return
        assert time.monotonic() < deadline, f"the pool did not heal: {stats}"
        time.sleep(0.02)
