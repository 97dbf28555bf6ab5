"""A separate process for the durability, crash and multi-process tests.

    python -m tests.reliability.child store DIR START COUNT [--save-every N] [--no-close]
    python -m tests.reliability.child loop DIR START [--save-every N] [--durability normal]
    python -m tests.reliability.child serve DIR I [I ...]
    python -m tests.reliability.child delete-namespace DIR NAMESPACE
    python -m tests.reliability.child clear DIR
    python -m tests.reliability.child churn DIR START COUNT CACHES SEED

``churn`` is the multi-cache writer of the torture test (which runs it as
:func:`churn_worker` in forked processes, to skip the import time): it keeps CACHES
``StepCache`` objects open on DIR, stores ``eq(START..)`` through a random one of them (COUNT of
them, or forever with -1), re-reads earlier ones (reporting ``NOT-EXACT <i>`` if one is not an
exact hit), and now and then closes one cache and opens a new one or saves the index. With a
finite COUNT it closes its caches and returns.

``store``/``loop`` print ``ACK <i>`` (flushed) only after the call that stored prompt ``eq(i)``
has returned with the answer stored: every printed index is an acknowledged entry. ``serve``
prints one JSON line per prompt with the decision and the number of model calls.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import sys
from collections.abc import Callable
from multiprocessing.connection import Connection

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.sqlite import Durability
from tests.reliability.support import Model, ask, eq

Report = Callable[[str, int], None]


def _print(word: str, i: int) -> None:
    print(f"{word} {i}", flush=True)


def _store(
    cache: StepCache,
    indexes: itertools.count[int] | range,
    save_every: int,
    report: Report = _print,
) -> None:
    for done, i in enumerate(indexes, start=1):
        result = ask(cache, eq(i))
        if not result.record.stored:
            report("NOT-STORED", i)
            continue
        report("ACK", i)
        if save_every and done % save_every == 0:
            cache.save_index()


def loop_worker(
    report: Connection, path: str, start: int, save_every: int, durability: Durability
) -> None:
    """``loop`` reporting through a pipe (for forked processes): stores until killed."""
    cache = StepCache(store=SqliteStore(path, durability=durability))
    _store(cache, itertools.count(start), save_every, lambda word, i: report.send((word, i)))


def churn_worker(
    report: Connection, path: str, start: int, count: int, caches: int, seed: int
) -> None:
    """``churn`` reporting through a pipe: ``send`` returns once the parent has the line."""
    _churn(path, start, count, caches, seed, lambda word, i: report.send((word, i)))


def _churn(
    path: str,
    start: int,
    count: int,
    caches: int,
    seed: int,
    report: Report = _print,
) -> None:
    rng = random.Random(seed)
    open_caches = [StepCache(path=path) for _ in range(caches)]
    indexes = itertools.count(start) if count < 0 else range(start, start + count)
    acked: list[int] = []
    for i in indexes:
        if ask(rng.choice(open_caches), eq(i)).record.stored:
            acked.append(i)
            report("ACK", i)
        if acked and rng.random() < 0.5:
            again = rng.choice(acked)
            if ask(rng.choice(open_caches), eq(again)).record.decision != "exact":
                report("NOT-EXACT", again)
        if rng.random() < 0.2:  # a cache goes away and another one opens, others stay open
            open_caches.pop(rng.randrange(len(open_caches))).close()
            open_caches.append(StepCache(path=path))
        if rng.random() < 0.1:
            rng.choice(open_caches).save_index()
    for cache in open_caches:
        cache.close()


def main(argv: list[str]) -> int:
    mode, path = argv[0], argv[1]
    save_every = int(argv[argv.index("--save-every") + 1]) if "--save-every" in argv else 0
    durability: Durability = "normal" if "normal" in argv else "full"
    if mode == "churn":
        _churn(path, int(argv[2]), int(argv[3]), int(argv[4]), int(argv[5]))
        return 0
    cache = StepCache(store=SqliteStore(path, durability=durability))
    if mode == "store":
        _store(cache, range(int(argv[2]), int(argv[2]) + int(argv[3])), save_every)
        if "--no-close" in argv:
            os._exit(0)  # no close(): no index save, no cleanup, like a crash after the ack
    elif mode == "loop":
        _store(cache, itertools.count(int(argv[2])), save_every)
    elif mode == "serve":
        for raw in argv[2:]:
            model = Model()
            result = ask(cache, eq(int(raw)), model)
            line = {"i": int(raw), "decision": result.record.decision, "calls": len(model.calls)}
            print(json.dumps(line), flush=True)
    elif mode == "delete-namespace":
        print(f"DELETED {cache.delete_namespace(argv[2])}", flush=True)
    elif mode == "clear":
        cache.clear()
        print("CLEARED", flush=True)
    cache.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
