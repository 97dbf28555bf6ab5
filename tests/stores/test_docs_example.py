"""The third-party store of ``docs/stores.md`` runs as written, and behaves like a store: the
exact path, the near path (through FAISS), tenants and deletions."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from stepcache_integrations.core.stores.base import ANY
from stepcache_integrations.core.stores.entry_store import EntryStore
from tests.reliability.support import ask, eq

DOC = Path(__file__).resolve().parents[2] / "docs" / "stores.md"


def run_example() -> dict[str, Any]:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert len(blocks) == 1, "docs/stores.md has one example"
    namespace: dict[str, Any] = {"__name__": "docs_stores_example"}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)
    return namespace


def test_the_documented_store_serves_a_cache() -> None:
    example = run_example()
    cache = example["cache"]
    store = cache.store.entries
    assert isinstance(store, EntryStore)
    assert ask(cache, eq(0), tenant="acme").record.stored
    assert ask(cache, eq(0), tenant="acme").record.decision == "exact"
    assert ask(cache, eq(0, "y"), tenant="acme").record.decision in ("reuse", "patch")
    assert ask(cache, eq(0), tenant="globex").record.decision == "miss"
    assert ask(cache, eq(1), tenant=None).record.stored
    assert len(cache) == 4
    assert cache.delete_tenant(None) == 1  # only the entry without a tenant
    assert cache.delete_tenant("acme") == 2
    assert {e.tenant for e in cache.store} == {"globex"}
    assert store.counts() == {(next(iter(store)).namespace, "globex"): 1}
    assert store.ids_created_before(float("inf")) == [e.id for e in store]
    cache.clear()
    assert len(cache) == 0 and store.ids_matching(namespace=ANY) == []


def test_the_documented_store_skips_an_unreadable_entry() -> None:
    example = run_example()
    cache = example["cache"]
    ask(cache, eq(2))
    client = cache.store.entries.client
    [name] = [n for n in client.data if n.startswith("entry:")]
    client.data[name] = '{"format": 99}'
    assert ask(cache, eq(2)).record.decision == "miss"  # never served, answered again
