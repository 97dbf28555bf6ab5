"""The layer that keeps tenants apart is the cache's own check of every entry a store hands
back (``core.cache``), and it holds on every store: here each real store (memory, SQLite,
Postgres) sits behind a wrapper whose lookups ignore namespaces, the way a buggy filter, a
framework's vector store or a third party's store could. The stores' own filters are tested
in ``test_isolation.py``; this file takes them away."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.entries import CacheEntry, prompt_key
from stepcache_integrations.core.namespace import tenant_namespace
from stepcache_integrations.core.stores.base import CacheStore, StoreCapabilities
from tests.reliability.support import NS, Model, ask, eq
from tests.stores.conftest import MakeStore

TENANTS = ("acme", "globex", None)
NAMESPACES = [tenant_namespace(NS, tenant) for tenant in TENANTS]


class NamespaceBlindStore:
    """A real store whose three lookups ignore namespaces, offering another tenant's entries
    first: by exact prompt text and by exact key (an entry for the same prompt, in any
    namespace), and by similarity (every entry, at similarity 1.0). Everything else is the
    real store's."""

    def __init__(self, inner: CacheStore) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __len__(self) -> int:
        return len(self.inner)

    def __iter__(self) -> Iterator[CacheEntry]:
        return iter(self.inner)

    @property
    def capabilities(self) -> StoreCapabilities:
        # Declared, so the cache asks the prompt lookup too, on every store.
        return replace(self.inner.capabilities, prompt_lookup=True)

    def _same_prompt(self, namespace: str, prompt: str) -> CacheEntry | None:
        found = sorted(
            (entry for entry in self.inner if entry.prompt == prompt),
            key=lambda entry: entry.namespace == namespace,
        )
        return found[0] if found else None

    def get_by_prompt(self, namespace: str, prompt: str) -> CacheEntry | None:
        return self._same_prompt(namespace, prompt)

    def get_by_key(self, key: str) -> CacheEntry | None:
        # A key is bound to a namespace: find which request it is, then ignore the namespace.
        for namespace in NAMESPACES:
            for entry in self.inner:
                if prompt_key(namespace, entry.prompt) == key:
                    return self._same_prompt(namespace, entry.prompt)
        return None

    def nearest(self, text: str, namespace: str, k: int) -> list[tuple[CacheEntry, float]]:
        foreign_first = sorted(self.inner, key=lambda entry: entry.namespace == namespace)
        return [(entry, 1.0) for entry in foreign_first[:k]]


def test_the_wrapper_really_hands_out_another_tenants_entries(make_store: MakeStore) -> None:
    """Control: without the cache's check, these lookups would serve acme's answers."""
    blind = NamespaceBlindStore(make_store())
    cache = StepCache(store=blind)  # type: ignore[arg-type]
    assert ask(cache, eq(0), tenant="acme").record.stored
    [acme] = list(blind)
    globex = tenant_namespace(NS, "globex")
    assert blind.get_by_prompt(globex, eq(0)) == acme
    assert blind.get_by_key(prompt_key(globex, eq(0))) == acme
    assert [entry for entry, _ in blind.nearest(eq(0, "y"), globex, 4)] == [acme]


def test_no_tenant_is_served_another_tenants_entry_whatever_the_store_returns(
    make_store: MakeStore,
) -> None:
    blind = NamespaceBlindStore(make_store())
    cache = StepCache(store=blind, similarity_threshold=-1.0)  # type: ignore[arg-type]
    for i in range(3):
        assert ask(cache, eq(i), tenant="acme").record.stored
    acme_ids = {entry.id for entry in blind}
    for tenant in TENANTS[1:]:
        # The same prompts (the exact paths) and near ones (the similarity path): every
        # lookup offers acme's entries first, and every one is refused.
        for prompt in (eq(0), eq(1), eq(2, "y"), eq(0, "z")):
            model = Model()
            result = ask(cache, prompt, model, tenant=tenant)
            used = result.record.entry_id
            assert used not in acme_ids, (tenant, prompt)
            if used is None:
                assert model.calls, (tenant, prompt)  # the model answered
            else:  # a reuse of the tenant's own earlier answer, never of acme's
                entry = blind.inner.get(used)
                assert entry is not None and entry.tenant == tenant
    # Now other tenants' entries crowd acme's own out of the blind lookups: that costs acme
    # hits, never isolation.
    again = ask(cache, eq(0), tenant="acme").record.entry_id
    assert again is None or again in acme_ids
