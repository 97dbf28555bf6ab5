"""Isolation, on every store: tenants never share an entry, whatever the similarity, and no
public method of the cache or of the store hands one tenant's entries to another."""

from __future__ import annotations

from dataclasses import replace

from stepcache_integrations.core.cache import tenant_namespace
from stepcache_integrations.core.entries import CacheEntry, prompt_key
from stepcache_integrations.core.steps import Step
from tests.reliability.support import NS, ask, eq
from tests.stores.conftest import MakeCache

TENANTS = ("acme", "globex", None)


def test_tenants_with_the_same_raw_namespace_never_share(make_cache: MakeCache) -> None:
    cache = make_cache()
    shared = "one-namespace-for-everybody"
    assert ask(cache, eq(5), namespace=shared, tenant="acme").record.stored
    assert ask(cache, eq(5), namespace=shared, tenant="acme").record.decision == "exact"
    assert ask(cache, eq(5), namespace=shared, tenant="globex").record.decision == "miss"
    assert ask(cache, eq(5), namespace=shared, tenant=None).record.decision == "miss"
    assert ask(cache, eq(5, "t"), namespace=shared, tenant="evil").record.decision == "miss"
    assert {e.tenant for e in cache.store} == {"acme", "globex", None, "evil"}


def test_another_tenant_never_reuses_an_entry_even_with_any_similarity(
    make_cache: MakeCache,
) -> None:
    # similarity_threshold=-1: any entry the store hands out would be a candidate.
    cache = make_cache(similarity_threshold=-1.0)
    for i in range(4):
        assert ask(cache, eq(i), tenant="acme").record.stored
    acme_ids = {e.id for e in cache.store}
    control = ask(cache, eq(0, "y"), tenant="acme")
    assert control.record.decision in ("reuse", "patch")  # acme's own entries are found
    acme_ids |= {e.id for e in cache.store if e.tenant == "acme"}
    for tenant in ("globex", None):
        for prompt in (eq(0), eq(0, "y"), eq(1, "z"), eq(3)):
            result = ask(cache, prompt, tenant=tenant)
            assert result.record.entry_id not in acme_ids, (tenant, prompt)
            if result.record.entry_id is not None:  # only the tenant's own earlier answers
                used = cache.store.get(result.record.entry_id)
                assert used is not None and used.tenant == tenant


def test_a_row_whose_tenant_disagrees_with_its_namespace_is_never_served(
    make_cache: MakeCache,
) -> None:
    """A forged row (globex's namespace, acme's tenant) is refused by the cache's own check,
    whatever the store's filters do."""
    cache = make_cache(similarity_threshold=-1.0)
    globex_ns = tenant_namespace(NS, "globex")
    forged = CacheEntry.create(globex_ns, "acme", eq(7), [Step("Step 1: x = 99")], "paragraph")
    cache.store.put(forged)
    assert cache.store.get_by_key(prompt_key(globex_ns, eq(7))) is not None  # it is there
    for prompt in (eq(7, "y"), eq(7)):  # near first: the forged row stays in place for both
        result = ask(cache, prompt, tenant="globex")
        assert result.record.decision != "exact"
        assert result.record.entry_id != forged.id
        assert "99" not in result.text


def test_no_cross_tenant_read_through_any_public_method(make_cache: MakeCache) -> None:
    cache = make_cache(similarity_threshold=-1.0)
    for tenant in TENANTS:
        for i in range(3):
            assert ask(cache, eq(i), tenant=tenant).record.stored
    store = cache.store
    by_tenant = {t: {e.id for e in store if e.tenant == t} for t in TENANTS}
    assert all(len(ids) == 3 for ids in by_tenant.values())
    for reader in TENANTS:
        own_ns = tenant_namespace(NS, reader)
        foreign = set().union(*(by_tenant[t] for t in TENANTS if t != reader))
        # The request path: exact and near requests.
        for prompt in (eq(0), eq(1, "y"), eq(2, "q")):
            assert ask(cache, prompt, tenant=reader).record.entry_id not in foreign
        # The store: by key, by id of the reader's own namespace, by nearest.
        for i in range(3):
            found = store.get_by_key(prompt_key(own_ns, eq(i)))
            assert found is not None and found.tenant == reader
        near = store.nearest(eq(1, "w"), own_ns, 50)
        assert near and {entry.tenant for entry, _ in near} == {reader}
        assert not {entry.id for entry, _ in near} & foreign
    # Summaries count per tenant without mixing them: one tenant per namespace.
    rows = store.summary()["by_namespace_and_tenant"]
    assert len({row["namespace"] for row in rows}) == len(rows) == len(TENANTS)
    for row in rows:
        assert row["namespace"] == tenant_namespace(NS, row["tenant"])
        assert row["entries"] == sum(1 for e in store if e.tenant == row["tenant"])


def test_deleting_one_tenant_leaves_the_others_served(make_cache: MakeCache) -> None:
    cache = make_cache()
    for tenant in TENANTS:
        for i in range(3):
            assert ask(cache, eq(i), tenant=tenant).record.stored
    assert len(cache) == 9
    assert cache.delete_tenant(None) == 3  # None: the entries without a tenant, nobody else's
    assert sorted(e.tenant or "" for e in cache.store) == ["acme"] * 3 + ["globex"] * 3
    assert cache.delete_tenant("acme") == 3
    assert {e.tenant for e in cache.store} == {"globex"}
    assert ask(cache, eq(0), tenant="globex").record.decision == "exact"
    assert ask(cache, eq(0), tenant="acme").record.decision == "miss"


def test_strange_tenants_and_namespaces_round_trip_and_stay_apart(make_cache: MakeCache) -> None:
    cache = make_cache()
    tenants = ["", "a\x00b", "\ud800lone", "ñ:" + "0" * 24, "x" * 200]
    for tenant in tenants:
        assert ask(cache, eq(1), tenant=tenant, namespace="\x00ns\udfff").record.stored
    assert sorted(e.tenant or "" for e in cache.store) == sorted(tenants)
    for tenant in tenants:
        assert ask(cache, eq(1), tenant=tenant, namespace="\x00ns\udfff").record.decision == "exact"
    assert cache.delete_tenant("a\x00b") == 1
    assert cache.delete_tenant("a") == 0
    assert len(cache) == len(tenants) - 1


def test_an_entry_stored_twice_is_one_entry(make_cache: MakeCache) -> None:
    cache = make_cache()
    entry = CacheEntry.create(NS, "acme", eq(0), [Step("Step 1: x = 1")], "paragraph")
    cache.store.put(entry)
    cache.store.put(replace(entry, steps=(Step("Step 1: x = 2"),)))
    assert len(cache) == 1
    stored = cache.store.get(entry.id)
    assert stored is not None and stored.answer == "Step 1: x = 2"
