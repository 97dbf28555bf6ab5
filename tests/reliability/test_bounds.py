"""Bounds, in memory and in SQLite: LRU eviction, TTL, clear, deletion by namespace and tenant,
len(), memory per entry, and over-size prompts and answers."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from stepcache_integrations.adapter import drive
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.core.protocol import ModelCall, ModelReply
from stepcache_integrations.core.stores.base import CacheStore
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.local import MemoryStore
from stepcache_integrations.core.vector_index import EmbeddingIndex
from tests.conftest import solve_steps
from tests.reliability.support import NS, Model, ask, eq, key, local_store, request

MakeCache = Callable[..., StepCache]


@pytest.fixture(params=["memory", "sqlite"])
def make_cache(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MakeCache]:
    made: list[StepCache] = []

    def make(*, max_entries: int | None = None, **kwargs: Any) -> StepCache:
        store: CacheStore = (
            SqliteStore(tmp_path / "cache", max_entries=max_entries)
            if request.param == "sqlite"
            else MemoryStore(max_entries=max_entries)
        )
        cache = StepCache(store=store, **kwargs)
        made.append(cache)
        return cache

    yield make
    for cache in made:
        cache.close()


def indexed(cache: StepCache) -> set[str]:
    assert isinstance(local_store(cache).index, EmbeddingIndex)
    return set(local_store(cache).index.ids())


def stored(cache: StepCache) -> set[str]:
    return {entry.id for entry in cache.store}


def test_lru_eviction_keeps_the_most_recently_used(make_cache: MakeCache) -> None:
    cache = make_cache(max_entries=3)
    for i in range(3):
        ask(cache, eq(i))
    time.sleep(0.01)  # distinct last-use times (ordering only; nothing asserts durations)
    assert ask(cache, eq(0)).record.decision == "exact"  # eq(0) is now the most recent
    ask(cache, eq(3))
    assert len(cache) == 3
    kept = stored(cache)
    assert key(eq(1))[:32] not in kept  # least recently used: evicted
    assert {key(eq(i))[:32] for i in (0, 2, 3)} == kept
    assert indexed(cache) == kept  # the index follows the store


def test_lru_bound_holds_under_many_stores(make_cache: MakeCache) -> None:
    cache = make_cache(max_entries=5)
    for i in range(40):
        ask(cache, eq(i))
        assert len(cache) <= 5
    assert len(cache) == 5
    assert indexed(cache) == stored(cache)


def _age(cache: StepCache, prompt: str, seconds: float) -> None:
    entry = cache.store.get_by_key(key(prompt))
    assert entry is not None
    cache.store.put(replace(entry, created_at=entry.created_at - seconds))


def test_an_expired_entry_is_never_served_and_is_deleted(make_cache: MakeCache) -> None:
    cache = make_cache(ttl=60)
    ask(cache, eq(0))
    ask(cache, eq(1))
    _age(cache, eq(0), 120)
    model = Model()
    again = ask(cache, eq(0), model)
    assert again.record.decision != "exact"
    assert again.record.entry_id != key(eq(0))[:32]  # the expired entry was not used at all
    fresh = cache.store.get_by_key(key(eq(0)))
    assert fresh is not None and time.time() - fresh.created_at < 60  # replaced by a new answer
    assert ask(cache, eq(1)).record.decision == "exact"  # the other entry is still valid


def test_purge_expired_and_open_purges(make_cache: MakeCache) -> None:
    cache = make_cache(ttl=60)
    for i in range(4):
        ask(cache, eq(i))
    _age(cache, eq(1), 120)
    _age(cache, eq(2), 120)
    assert cache.purge_expired() == 2
    assert len(cache) == 2
    assert indexed(cache) == stored(cache)
    assert StepCache().purge_expired() == 0  # without ttl nothing expires


def test_ttl_is_applied_when_a_persistent_cache_opens(tmp_path: Path) -> None:
    with StepCache(path=tmp_path) as cache:
        ask(cache, eq(0))
        ask(cache, eq(1))
        _age(cache, eq(0), 3600)
    with StepCache(path=tmp_path, ttl=60) as cache:
        assert len(cache) == 1
        assert cache.check()["ok"]


def test_clear_empties_store_and_index(make_cache: MakeCache) -> None:
    cache = make_cache()
    for i in range(5):
        ask(cache, eq(i))
    cache.clear()
    assert len(cache) == 0 and indexed(cache) == set()
    assert cache.stats()["entries"] == 0
    assert ask(cache, eq(0)).record.decision == "miss"


def test_clear_is_permanent_for_a_persistent_cache(tmp_path: Path) -> None:
    with StepCache(path=tmp_path) as cache:
        for i in range(5):
            ask(cache, eq(i))
        cache.clear()
    with StepCache(path=tmp_path) as cache:
        assert len(cache) == 0
        assert cache.check()["index"]["entries"] == 0


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
    assert len(cache) == 2
    assert {(e.namespace, e.tenant) for e in cache.store} == {
        ("other", None),
        (next(e.namespace for e in cache.store if e.tenant == "globex"), "globex"),
    }
    assert indexed(cache) == stored(cache)
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


def test_stats_report_entries_and_memory_per_entry(make_cache: MakeCache) -> None:
    cache = make_cache()
    for i in range(20):
        ask(cache, eq(i))
    stats = cache.stats()
    memory = stats["memory"]
    assert stats["entries"] == len(cache) == 20
    assert memory["entries"] == 20
    assert memory["index_bytes_per_entry"] >= 4 * 512  # a 512-float vector at least
    assert memory["bytes_total"] == memory["bytes_per_entry"] * 20
    if cache.path is None:
        assert memory["store_bytes_per_entry"] > len(eq(0))
    else:
        assert memory["disk_bytes"] > 0 and memory["store_bytes_per_entry"] == 0


def test_an_over_size_prompt_is_bypassed_with_the_reason(make_cache: MakeCache) -> None:
    cache = make_cache(policy=Policy(max_prompt_chars=100))
    long_prompt = eq(0) + " Please be careful." * 10
    model = Model()
    result = ask(cache, long_prompt, model)
    assert result.record.decision == "bypass"
    assert "max_prompt_chars=100" in result.record.reason
    assert len(model.calls) == 1 and result.text  # still answered, by the model
    assert len(cache) == 0
    assert ask(cache, long_prompt).record.decision == "bypass"  # never cached


def test_an_over_size_answer_is_returned_but_not_cached(make_cache: MakeCache) -> None:
    cache = make_cache(policy=Policy(max_answer_chars=200))
    huge = "word " * 100

    result = ask(cache, "Tell me about Lisbon.", Model(lambda prompt, call: huge))
    assert result.text == huge
    assert result.record.stored is False
    assert "max_answer_chars=200" in (result.record.failure or "")
    assert len(cache) == 0


def test_entry_create_helper_is_consistent_with_the_cache_key() -> None:
    entry = CacheEntry.create(NS, None, eq(0), [], "paragraph")
    assert entry.key == key(eq(0)) and entry.id == key(eq(0))[:32]
