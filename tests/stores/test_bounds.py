"""Bounds and deletions, on every store: LRU eviction, TTL, clear, deletion by namespace and
tenant, len(), and requests that overlap a deletion."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

import pytest

from stepcache_integrations.adapter import drive
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.protocol import ModelCall, ModelReply
from tests.conftest import solve_steps
from tests.reliability.support import NS, ask, eq, key, request
from tests.stores.conftest import MakeCache


def stored(cache: StepCache) -> set[str]:
    return {entry.id for entry in cache.store}


def test_lru_eviction_keeps_the_most_recently_used(make_cache: MakeCache) -> None:
    cache = make_cache(max_entries=3)
    for i in range(3):
        ask(cache, eq(i))
        time.sleep(0.01)  # distinct last-use times (ordering only)
    assert ask(cache, eq(0)).record.decision == "exact"  # eq(0) is now the most recent
    time.sleep(0.01)
    ask(cache, eq(3))
    assert len(cache) == 3
    assert stored(cache) == {key(eq(i))[:32] for i in (0, 2, 3)}  # eq(1) was least recent
    assert cache.check()["ok"]


def test_lru_bound_holds_under_many_stores(make_cache: MakeCache) -> None:
    cache = make_cache(max_entries=5)
    for i in range(30):
        assert ask(cache, eq(i)).record.stored
        assert len(cache) <= 5
    assert len(cache) == 5
    assert stored(cache) == {key(eq(i))[:32] for i in range(25, 30)}
    assert cache.check()["ok"]


def _age(cache: StepCache, prompt: str, seconds: float) -> None:
    entry = cache.store.get_by_key(key(prompt))
    assert entry is not None
    cache.store.put(replace(entry, created_at=entry.created_at - seconds))


def test_an_expired_entry_is_never_served_and_is_deleted(make_cache: MakeCache) -> None:
    cache = make_cache(ttl=60)
    ask(cache, eq(0))
    ask(cache, eq(1))
    _age(cache, eq(0), 120)
    again = ask(cache, eq(0))
    assert again.record.decision != "exact"
    assert again.record.entry_id != key(eq(0))[:32]
    fresh = cache.store.get_by_key(key(eq(0)))
    assert fresh is not None and time.time() - fresh.created_at < 60
    assert ask(cache, eq(1)).record.decision == "exact"


def test_purge_expired(make_cache: MakeCache) -> None:
    cache = make_cache(ttl=60)
    for i in range(4):
        ask(cache, eq(i))
    _age(cache, eq(1), 120)
    _age(cache, eq(2), 120)
    assert cache.purge_expired() == 2
    assert stored(cache) == {key(eq(i))[:32] for i in (0, 3)}
    assert cache.check()["ok"]


def test_clear_empties_the_store(make_cache: MakeCache) -> None:
    cache = make_cache()
    for i in range(5):
        ask(cache, eq(i))
    cache.clear()
    assert len(cache) == 0 and list(cache.store) == []
    assert cache.stats()["entries"] == 0
    assert ask(cache, eq(0)).record.decision == "miss"


def test_delete_by_namespace_and_by_tenant(make_cache: MakeCache) -> None:
    cache = make_cache()
    ask(cache, eq(0))
    ask(cache, eq(1))
    ask(cache, eq(0), namespace="other")
    ask(cache, eq(0), tenant="acme")
    ask(cache, eq(1), tenant="acme")
    ask(cache, eq(0), tenant="globex")
    assert len(cache) == 6
    assert cache.delete_namespace(NS) == 2
    assert cache.delete_namespace(NS) == 0
    assert cache.delete_tenant("acme") == 2
    assert {(e.namespace, e.tenant) for e in cache.store} == {
        ("other", None),
        (next(e.namespace for e in cache.store if e.tenant == "globex"), "globex"),
    }
    assert cache.check()["ok"]
    assert ask(cache, eq(0), tenant="globex").record.decision == "exact"


DELETIONS: dict[str, Callable[[StepCache], object]] = {
    "clear": lambda cache: cache.clear(),
    "delete_tenant": lambda cache: cache.delete_tenant("acme"),
    "delete_namespace": lambda cache: cache.delete_namespace("unrelated"),
}


@pytest.mark.parametrize("deletion", list(DELETIONS))
def test_a_request_running_during_a_deletion_stores_nothing(
    make_cache: MakeCache, deletion: str
) -> None:
    cache = make_cache()

    def model(action: ModelCall) -> ModelReply:
        DELETIONS[deletion](cache)  # the deletion lands while the model is answering
        return ModelReply(solve_steps(eq(0)), 10, 10)

    result = drive(cache.serve(request(eq(0), tenant="acme")), model)
    assert result.passed and result.record.stored is False
    assert len(cache) == 0
    assert ask(cache, eq(0), tenant="acme").record.stored  # later requests store again


def test_stats_count_the_entries_of_the_store(make_cache: MakeCache) -> None:
    cache = make_cache()
    for i in range(12):
        ask(cache, eq(i))
    stats = cache.stats()
    assert stats["entries"] == len(cache) == 12
    assert stats["requests"] == sum(stats["decisions"].values()) == 12
    rows = stats["store"]["by_namespace_and_tenant"]
    assert rows == [{"namespace": NS, "tenant": None, "entries": 12}]
