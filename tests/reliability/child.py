"""A separate process for the durability, crash and multi-process tests.

    python -m tests.reliability.child store DIR START COUNT [--save-every N] [--no-close]
    python -m tests.reliability.child loop DIR START [--save-every N] [--durability normal]
    python -m tests.reliability.child serve DIR I [I ...]

``store``/``loop`` print ``ACK <i>`` (flushed) only after the call that stored prompt ``eq(i)``
has returned with the answer stored: every printed index is an acknowledged entry. ``serve``
prints one JSON line per prompt with the decision and the number of model calls.
"""

from __future__ import annotations

import itertools
import json
import os
import sys

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.sqlite import Durability
from tests.reliability.support import Model, ask, eq


def _store(cache: StepCache, indexes: itertools.count[int] | range, save_every: int) -> None:
    for done, i in enumerate(indexes, start=1):
        result = ask(cache, eq(i))
        if not result.record.stored:
            print(f"NOT-STORED {i} {result.record.decision}", flush=True)
            continue
        print(f"ACK {i}", flush=True)
        if save_every and done % save_every == 0:
            cache.save_index()


def main(argv: list[str]) -> int:
    mode, path = argv[0], argv[1]
    save_every = int(argv[argv.index("--save-every") + 1]) if "--save-every" in argv else 0
    durability: Durability = "normal" if "normal" in argv else "full"
    cache = StepCache(path=path, durability=durability)
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
    cache.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
