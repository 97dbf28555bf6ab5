"""Promise: time to live counts from the original generation; serving a cached answer (or
steps of it) for a similar request never renews it."""

from __future__ import annotations

import time
from dataclasses import replace

from stepcache_integrations.core.cache import StepCache
from tests.reliability.support import Model, ask, eq, key, local_store


def test_an_entry_made_from_reused_steps_is_as_old_as_its_source() -> None:
    cache = StepCache(ttl=60)
    first = ask(cache, eq(0, "x"))
    assert first.record.stored
    store = local_store(cache)
    source = store.get_by_key(key(eq(0, "x")))
    assert source is not None
    # The source answer was generated 59.5 s ago: half a second of life left.
    store.entries.put(replace(source, created_at=source.created_at - 59.5))

    renamed = ask(cache, eq(0, "y"))
    assert renamed.record.decision == "reuse"
    assert renamed.record.stored
    derived = store.get_by_key(key(eq(0, "y")))
    assert derived is not None
    assert derived.created_at <= source.created_at - 59.5 + 1e-6

    time.sleep(0.7)  # the original generation is now older than the ttl
    model = Model()
    again = ask(cache, eq(0, "y"), model)
    assert again.record.decision not in ("exact", "reuse", "patch")
    assert len(model.calls) == 1
