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

import json
import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.directory import DB_NAME
from tests.reliability.child import churn_worker
from tests.reliability.support import ROOT, Model, ask, child_command, child_env, eq

ROUNDS = 20


# Children are forked from a server that has already imported the package (a fresh process
# that never opened a cache, so no SQLite connection crosses a fork): a round then costs its
# writes, not three interpreter start-ups.
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["tests.reliability.child"])


class Churner:
    """A process running ``child.churn_worker`` and the indexes it acknowledged (an index is
    received only after the store that acknowledged it returned)."""

    def __init__(self, directory: Path, start: int, count: int, caches: int, seed: int) -> None:
        receiving, sending = _CONTEXT.Pipe(duplex=False)
        self.process = _CONTEXT.Process(
            target=churn_worker, args=(sending, str(directory), start, count, caches, seed)
        )
        self.process.start()
        sending.close()
        self.acked: list[int] = []
        self.not_exact: list[int] = []
        self._receiving = receiving
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                word, index = self._receiving.recv()
            except (EOFError, OSError):
                return
            (self.acked if word == "ACK" else self.not_exact).append(index)

    def wait_for_acks(self, wanted: int, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.acked) < wanted:
            assert self.process.is_alive(), f"writer died early (exit {self.process.exitcode})"
            assert time.monotonic() < deadline, "writer acknowledged too little in time"
            time.sleep(0.005)

    def kill(self) -> None:
        assert self.process.pid is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self._finish(expected=-signal.SIGKILL)

    def exit_normally(self) -> None:
        self._finish(expected=0)

    def _finish(self, expected: int) -> None:
        self.process.join(timeout=120)
        self._reader.join(timeout=30)
        self._receiving.close()
        assert self.process.exitcode == expected


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
            writers = [
                Churner(tmp_path, base + 100_000 * k, -1, rng.randint(2, 3), rng.randrange(10**6))
                for k in range(2)
            ]
            leaver = Churner(
                tmp_path, base + 500_000, rng.randint(3, 8), rng.randint(2, 3), rng.randrange(10**6)
            )
            extra = StepCache(path=tmp_path)  # opened while the kept caches are open
            for j in range(3):
                prompt_index = base + 900_000 + j
                if ask(rng.choice([*kept, extra]), eq(prompt_index)).record.stored:
                    acked.append(prompt_index)
            leaver.exit_normally()  # while the writers and this process are still writing
            extra.close()
            for writer in writers:
                writer.wait_for_acks(rng.randint(1, 6))
                time.sleep(rng.uniform(0.0, 0.01))  # land the kill anywhere in a write
                writer.kill()
            for child in (*writers, leaver):
                assert child.not_exact == [], f"round {round_number}: {child.not_exact}"
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
    served = subprocess.run(
        child_command("serve", str(tmp_path), *map(str, acked)),
        cwd=ROOT,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = [json.loads(line) for line in served.stdout.splitlines()]
    assert [line["decision"] for line in lines] == ["exact"] * len(acked)
    assert sum(line["calls"] for line in lines) == 0
    with StepCache(path=tmp_path, on_corrupt_index="error") as final:
        report = final.check()
        assert report["ok"], report
    print(f"\n{ROUNDS} rounds, {len(acked)} acknowledged entries, {elapsed:.0f} s")
