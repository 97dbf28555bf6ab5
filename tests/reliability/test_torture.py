"""Torture: several processes, each with several caches on one directory, killed or exiting
normally at random, round after round; nothing acknowledged is ever lost.

Each round, on the same directory:

* this test process (long-lived, the "process A" of the data-loss report) keeps two caches
  open across all rounds, opens a third one, stores through all three, then closes the third;
* two writer processes, each with two or three caches that they close and reopen at random,
  store and re-read entries in a loop until they are killed with ``SIGKILL`` mid-write;
* one process with two or three caches stores a few entries and exits normally while the
  others are still writing (the exit that used to delete the write-ahead log in use).

After every round SQLite's full ``PRAGMA integrity_check`` must say ``ok`` and every entry
acknowledged so far, by any process, must be served as an exact hit without a model call.
"""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.directory import DB_NAME
from stepcache_integrations.core.stores.directory_store import SqliteStore
from tests.reliability.child import churn_worker
from tests.reliability.processes import Worker
from tests.reliability.support import (
    Model,
    ask,
    eq,
    served_by_a_new_process,
)

ROUNDS = 20


def churner(directory: Path, start: int, count: int, rng: random.Random) -> Worker:
    """A process with 2 or 3 caches on ``directory`` (see ``child.churn_worker``)."""
    caches, seed = rng.randint(2, 3), rng.randrange(10**6)
    return Worker(churn_worker, str(directory), start, count, caches, seed)


def integrity(directory: Path) -> list[str]:
    # A SQLite connection (never open() on the file): safe next to this process's caches.
    conn = sqlite3.connect(directory / DB_NAME)
    try:
        return [str(row[0]) for row in conn.execute("PRAGMA integrity_check").fetchall()]
    finally:
        conn.close()


@pytest.mark.timeout(600)
def test_processes_with_several_caches_killed_or_exiting_never_lose_an_acknowledged_entry(
    tmp_path: Path,
) -> None:
    rng = random.Random(20240914)
    kept = [StepCache(path=tmp_path), StepCache(path=tmp_path)]
    acked: list[int] = []
    started = time.monotonic()
    try:
        for round_number in range(ROUNDS):
            base = 1_000_000 * (round_number + 1)
            writers = [churner(tmp_path, base + 100_000 * k, -1, rng) for k in range(2)]
            leaver = churner(tmp_path, base + 500_000, rng.randint(3, 8), rng)
            extra = StepCache(path=tmp_path)  # opened while the kept caches are open
            for j in range(3):
                prompt_index = base + 900_000 + j
                if ask(rng.choice([*kept, extra]), eq(prompt_index)).record.stored:
                    acked.append(prompt_index)
            leaver.finish()  # exits normally while the writers and this process still write
            extra.close()
            for writer in writers:
                writer.wait_for_acks(rng.randint(1, 6))
                time.sleep(rng.uniform(0.0, 0.01))  # land the kill anywhere in a write
                writer.kill()
            for child in (*writers, leaver):
                assert child.other == [], f"round {round_number}: {child.other}"
                acked.extend(child.acked)

            assert integrity(tmp_path) == ["ok"], f"round {round_number}"
            model = Model()
            server = kept[round_number % 2]
            missing = [i for i in acked if ask(server, eq(i), model).record.decision != "exact"]
            assert missing == [], f"round {round_number}: acknowledged entries not served"
            assert model.calls == []
    finally:
        for cache in kept:
            cache.close()
    elapsed = time.monotonic() - started

    # A fresh process serves every acknowledged entry too.
    served = served_by_a_new_process(tmp_path, acked)
    assert [line["decision"] for line in served] == ["exact"] * len(acked)
    assert sum(line["calls"] for line in served) == 0
    with StepCache(store=SqliteStore(tmp_path, on_corrupt_index="error")) as final:
        report = final.check()
        assert report["ok"], report
    print(f"\n{ROUNDS} rounds, {len(acked)} acknowledged entries, {elapsed:.0f} s")
