"""Bounds and deletions, on every store, through the cache: least-recently-used eviction,
time to live, clear, deletion by namespace and tenant (as a grid), and deletions that overlap
a request in flight."""

from __future__ import annotations

import itertools
import time
from dataclasses import replace

from stepcache_integrations.adapter import drive
from stepcache_integrations.core.cache import StepCache, tenant_namespace
from stepcache_integrations.core.protocol import ModelCall, ModelReply
from stepcache_integrations.core.stores.base import ANY
from tests.conftest import solve_steps
from tests.reliability.support import NS, ask, eq, key, request, solution_text
from tests.stores.conftest import MakeCache


def ids(cache: StepCache) -> set[str]:
    return {entry.id for entry in cache.store}


def test_the_least_recently_used_entries_are_evicted_first(make_cache: MakeCache) -> None:
    cache = make_cache(max_entries=4)
    for i in range(4):
        assert ask(cache, eq(i)).record.stored
        time.sleep(0.01)  # distinct times (ordering only)
    for i in (0, 2):  # used again: now the most recent
        assert ask(cache, eq(i)).record.decision == "exact"
        time.sleep(0.01)
    for i in (10, 11):
        assert ask(cache, eq(i, "w")).record.stored
        time.sleep(0.01)
    assert len(cache) == 4
    survivors = ids(cache)
    assert {key(eq(i))[:32] for i in (0, 2)} <= survivors  # kept: recently used
    assert not {key(eq(i))[:32] for i in (1, 3)} & survivors  # evicted: least recent
    for _ in range(12):  # the bound holds under a stream of stores
        ask(cache, eq(len(cache) + 20, "v"))
        assert len(cache) <= 4
    assert cache.check()["ok"]


def test_time_to_live_hides_and_purges_old_answers(make_cache: MakeCache) -> None:
    cache = make_cache(ttl=60)
    for i in range(3):
        ask(cache, eq(i))

    def generated_long_ago(i: int) -> None:
        old = cache.store.get_by_key(key(eq(i)))
        assert old is not None
        cache.store.put(replace(old, created_at=old.created_at - 120))

    generated_long_ago(0)
    generated_long_ago(1)
    assert cache.purge_expired() == 2
    assert ids(cache) == {key(eq(2))[:32]}
    generated_long_ago(2)
    served = ask(cache, eq(2))  # never served once expired: answered anew
    assert served.record.decision != "exact" and served.record.entry_id != key(eq(2))[:32]
    renewed = cache.store.get_by_key(key(eq(2)))
    assert renewed is not None and time.time() - renewed.created_at < 60
    assert ask(cache, eq(2)).record.decision == "exact"


def test_clear_forgets_everything_and_the_cache_fills_again(make_cache: MakeCache) -> None:
    cache = make_cache()
    for i, tenant in itertools.product(range(3), ("acme", None)):
        ask(cache, eq(i), tenant=tenant)
    assert len(cache) == 6
    cache.clear()
    assert len(cache) == 0 and not ids(cache) and cache.stats()["entries"] == 0
    assert ask(cache, eq(1), tenant="acme").record.decision == "miss"
    assert len(cache) == 1


def test_deletions_by_namespace_and_tenant_remove_exactly_their_cell(
    make_cache: MakeCache,
) -> None:
    cache = make_cache()
    grid = list(itertools.product((NS, "other"), ("acme", "globex", None)))
    for namespace, tenant in grid:
        for i in range(2):
            assert ask(cache, eq(i), namespace=namespace, tenant=tenant).record.stored

    def cell(namespace: str, tenant: str | None) -> int:
        bound = tenant_namespace(namespace, tenant)
        return sum(1 for e in cache.store if (e.namespace, e.tenant) == (bound, tenant))

    assert all(cell(ns, t) == 2 for ns, t in grid)
    # A namespace as the cache stores it (bound to its tenant): one cell.
    assert cache.delete_namespace(tenant_namespace("other", "globex")) == 2
    assert cell("other", "globex") == 0 and cell(NS, "globex") == 2
    assert cache.delete_tenant("acme") == 4
    assert cell(NS, "acme") == cell("other", "acme") == 0
    assert cache.store.delete_matching(namespace=tenant_namespace(NS, None), tenant=None) == 2
    assert [(ns, t) for ns, t in grid if cell(ns, t)] == [(NS, "globex"), ("other", None)]
    assert cache.store.delete_matching(namespace=ANY, tenant=ANY) == 4
    assert cache.check()["ok"]


def test_deletions_overlapping_a_request_keep_its_answer_out(make_cache: MakeCache) -> None:
    cache = make_cache(ttl=3600)
    deletions = (
        cache.clear,
        lambda: cache.delete_tenant("acme"),
        lambda: cache.delete_namespace("a namespace nobody uses"),
        cache.purge_expired,
    )
    for delete in deletions:

        def model(call: ModelCall, delete: object = delete) -> ModelReply:
            delete()  # type: ignore[operator]  # lands while the model is answering
            return ModelReply(solve_steps(eq(4)), 12, 30)

        result = drive(cache.serve(request(eq(4), tenant="acme")), model)
        assert result.passed and solution_text(4) in result.text
        assert result.record.stored is False
        assert len(cache) == 0
    assert ask(cache, eq(4), tenant="acme").record.stored  # later requests store again


def test_stats_count_the_entries_of_the_store(make_cache: MakeCache) -> None:
    cache = make_cache()
    for i in range(12):
        ask(cache, eq(i))
    stats = cache.stats()
    assert stats["entries"] == len(cache) == 12
    assert stats["requests"] == sum(stats["decisions"].values()) == 12
    rows = stats["store"]["by_namespace_and_tenant"]
    assert rows == [{"namespace": NS, "tenant": None, "entries": 12}]
