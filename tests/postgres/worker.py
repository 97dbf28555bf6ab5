"""One worker process of a fleet sharing a Postgres-backed cache (tests only).

    python -m tests.postgres.worker URL SCHEMA

Reads one JSON command per line on stdin and answers with JSON lines on stdout:

- ``{"serve": [[i, var], ...], "tenant": t}``: serve ``eq(i, var)`` with a scripted model; one
  line per request (decision, model calls, stored, correct), then ``{"done": true}``;
- ``{"store_forever": start}``: store ``eq(start)``, ``eq(start + 1)``... printing
  ``{"ack": i}`` only once the entry is stored (acknowledged), until killed;
- ``{"stats": true}``: this process's ``cache.stats()`` (decisions, requests);
- ``{"close": true}``: close the cache (writes the fleet counters) and exit.

Warnings go to stderr, where the tests count them.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.postgres import PoolSettings, PostgresStore
from tests.reliability.support import Model, ask, eq, solution_text


def emit(line: dict[str, Any]) -> None:
    print(json.dumps(line), flush=True)


def serve(cache: StepCache, command: dict[str, Any]) -> None:
    for i, var in command["serve"]:
        model = Model()
        result = ask(cache, eq(i, var), model, tenant=command.get("tenant"))
        emit(
            {
                "i": i,
                "var": var,
                "decision": result.record.decision,
                "reason": result.record.reason,
                "calls": len(model.calls),
                "stored": bool(result.record.stored),
                "correct": solution_text(i, var) in result.text,
            }
        )
    emit({"done": True})


def store_forever(cache: StepCache, start: int) -> None:
    i = start
    while True:
        if ask(cache, eq(i)).record.stored:
            emit({"ack": i})
        i += 1


def main(url: str, schema: str) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    cache = StepCache(store=PostgresStore(url, schema=schema, pool=PoolSettings(max_size=2)))
    emit({"ready": True})
    for raw in sys.stdin:
        command = json.loads(raw)
        if "serve" in command:
            serve(cache, command)
        elif "store_forever" in command:
            store_forever(cache, int(command["store_forever"]))
        elif "stats" in command:
            stats = cache.stats()
            emit({"stats": {k: stats[k] for k in ("requests", "decisions", "entries")}})
        elif "close" in command:
            break
    cache.close()
    emit({"closed": True})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
