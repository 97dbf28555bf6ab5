"""Promise: a hit never needs a write to succeed. While another process holds the database's
write lock, exact hits are served at once (their last-use update is kept for later, never
waited for), and a new answer waits a bounded time for the lock, then is served uncached.

The attack: another process holds SQLite's write lock (``BEGIN IMMEDIATE``) for as long as it
likes. Before, an exact hit whose buffered last-use updates were due blocked 30 s and raised
``database is locked``.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores import sqlite as sqlite_store
from stepcache_integrations.core.stores.directory import DB_NAME
from tests.reliability.support import Model, ask, eq, key, local_store, solution_text

# Far below the 30 s a hit used to wait; generous for a loaded 2-core machine.
NEVER_BLOCKED = 2.0

_HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("UPDATE stepcache_meta SET value = value WHERE key = 'seq'")
print("LOCKED", flush=True)
sys.stdin.read()  # hold the write lock until the test closes our stdin
conn.execute("ROLLBACK")
"""


@contextmanager
def another_process_holds_the_write_lock(db: Path) -> Iterator[None]:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    try:
        assert holder.stdout.readline().strip() == "LOCKED"
        yield
        assert holder.poll() is None  # it held the lock the whole time
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)


@pytest.fixture
def due_touches(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every hit's buffered last-use update is due at once, so every hit tries to write it.
    monkeypatch.setattr(sqlite_store, "_TOUCH_DELAY", 0.0)


@pytest.mark.usefixtures("due_touches")
def test_exact_hits_are_served_at_once_while_another_process_holds_the_lock(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = StepCache(path=tmp_path)
    for i in range(3):
        assert ask(cache, eq(i)).record.stored
    model = Model()
    slowest = 0.0
    with caplog.at_level(logging.WARNING), another_process_holds_the_write_lock(tmp_path / DB_NAME):
        for _ in range(10):
            for i in range(3):
                started = time.perf_counter()
                result = ask(cache, eq(i), model)
                slowest = max(slowest, time.perf_counter() - started)
                assert result.record.decision == "exact"
                assert solution_text(i) in result.text
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # no failure
        near = ask(cache, eq(1, "w"), model)  # the nearest path reads too
        assert near.record.decision in ("reuse", "patch")
        assert near.record.stored is False  # its new entry could not be written: uncached
    assert model.calls == []
    assert slowest < NEVER_BLOCKED, f"a hit waited {slowest:.2f} s for the lock"
    # The uses recorded meanwhile were kept, and are written once the lock is free.
    before = local_store(cache).entries.get_by_key(key(eq(0)))
    assert before is not None
    cache.store.sync()
    conn_entry = local_store(cache).entries.get_by_key(key(eq(0)))
    assert conn_entry is not None and conn_entry.last_used_at >= before.last_used_at
    cache.close()


@pytest.mark.usefixtures("due_touches")
def test_a_new_answer_waits_a_bounded_time_then_is_served_uncached(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = StepCache(path=tmp_path)
    assert ask(cache, eq(0)).record.stored
    budget = local_store(cache).request_timeout
    with caplog.at_level(logging.WARNING), another_process_holds_the_write_lock(tmp_path / DB_NAME):
        waits = []
        for i in (50, 51, 52):
            started = time.perf_counter()
            result = ask(cache, eq(i))
            waits.append(time.perf_counter() - started)
            assert result.passed and solution_text(i) in result.text  # served
            assert result.record.stored is False  # uncached: the lock was never free
        assert ask(cache, eq(0)).record.decision == "exact"
    # The store waited its budget for the lock (plus the work of the request), not 30 s.
    assert max(waits) < budget + NEVER_BLOCKED, waits
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, warnings  # one per episode, not one per request
    assert "locked by another connection" in warnings[0] and "corrupt" not in warnings[0]
    # Once the lock is free, answers are stored again.
    with caplog.at_level(logging.WARNING):
        assert ask(cache, eq(50)).record.stored
    assert any("writes work again" in r.getMessage() for r in caplog.records)
    cache.close()


@pytest.mark.usefixtures("due_touches")
def test_a_hit_never_waits_behind_a_store_of_this_process_stuck_on_the_lock(
    tmp_path: Path,
) -> None:
    cache = StepCache(path=tmp_path)
    assert ask(cache, eq(0)).record.stored
    model = Model()
    slowest = 0.0
    with another_process_holds_the_write_lock(tmp_path / DB_NAME):
        stuck = threading.Thread(target=lambda: [ask(cache, eq(i)) for i in range(60, 63)])
        stuck.start()  # its stores wait for the lock, one after the other
        time.sleep(0.1)
        while stuck.is_alive():
            started = time.perf_counter()
            assert ask(cache, eq(0), model).record.decision == "exact"
            slowest = max(slowest, time.perf_counter() - started)
        stuck.join()
    assert model.calls == []
    assert slowest < NEVER_BLOCKED / 2, f"a hit waited {slowest:.2f} s behind a store"
    cache.close()
