"""Atomicity: a writer killed with SIGKILL at random moments, many times, loses nothing it had
acknowledged, and leaves a directory that opens (index files included) without any repair."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.directory_store import SqliteStore
from tests.reliability.child import loop_worker
from tests.reliability.processes import Worker
from tests.reliability.support import Model, ask, eq, key

ROUNDS = 20


def _kill_after_acks(
    directory: Path, start: int, wanted: int, rng: random.Random, durability: str
) -> list[int]:
    """Run a writer, SIGKILL it after ``wanted`` acknowledgements (plus jitter), return every
    index it acknowledged (including those sent before the kill landed)."""
    # Saving the index every 3 stores puts index writes, too, under the kill.
    writer = Worker(loop_worker, str(directory), start, 3, durability)
    writer.wait_for_acks(wanted)
    time.sleep(rng.uniform(0.0, 0.004))  # land the kill anywhere in the next write
    writer.kill()
    return writer.acked


@pytest.mark.timeout(240)
@pytest.mark.parametrize(("durability", "rounds"), [("full", ROUNDS), ("normal", ROUNDS // 2)])
def test_sigkill_mid_write_never_loses_an_acknowledged_entry(
    tmp_path: Path, durability: str, rounds: int
) -> None:
    # "normal" skips the fsync per commit: a killed process still loses nothing (the OS has
    # the data); only a power cut could.
    rng = random.Random(1234)
    every_ack: list[int] = []
    for round_number in range(rounds):
        acked = _kill_after_acks(tmp_path, round_number * 1000, rng.randint(1, 12), rng, durability)
        assert acked, "the writer acknowledged nothing before it was killed"
        every_ack.extend(acked)
        # Reopen as the next process would: strict about index files (no silent rebuild).
        with StepCache(store=SqliteStore(tmp_path, on_corrupt_index="error")) as cache:
            missing = [i for i in every_ack if cache.store.get_by_key(key(eq(i))) is None]
            assert missing == [], f"round {round_number}: acknowledged entries lost: {missing}"
            report = cache.check()
            assert report["ok"], report
            assert report["store"]["integrity"] == "ok"
    with StepCache(path=tmp_path) as cache:
        model = Model()
        for i in every_ack:
            assert ask(cache, eq(i), model).record.decision == "exact"
        assert model.calls == []
