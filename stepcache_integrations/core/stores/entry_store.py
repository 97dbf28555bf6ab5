"""The entry-store protocol: the payload half of a :class:`~.local.LocalStore`.

An entry store keeps entries by id and by exact key; a vector index (the other half) finds
them by similarity. :class:`~.memory.MemoryEntryStore` and :class:`~.sqlite.SqliteEntryStore`
implement it; so can any third-party store (see ``docs/stores.md``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, runtime_checkable

from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.stores.base import ANY, AnyValue, TenantFilter

__all__ = ["EntryStore", "PromptIndex", "matches"]


def matches(entry: CacheEntry, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY) -> bool:
    """Whether ``entry`` passes a store filter (:data:`ANY` matches everything; a ``None``
    tenant matches only entries stored without a tenant).

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> e = CacheEntry.create("ns", "acme", "q", [Step("a")], "paragraph")
        >>> matches(e, tenant="acme"), matches(e, tenant=None), matches(e)
        (True, False, True)
    """
    if not isinstance(namespace, AnyValue) and entry.namespace != namespace:
        return False
    return isinstance(tenant, AnyValue) or entry.tenant == tenant


@runtime_checkable
class EntryStore(Protocol):
    """Where entries live, by id and by exact key. Implementations must be thread-safe.

    ``put`` returns the ids evicted to respect the store's bounds (the caller removes them from
    the vector index too). ``ids_matching`` filters like :func:`matches`: :data:`ANY` for no
    filter, ``tenant=None`` for entries without a tenant.

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> from stepcache_integrations.core.stores.memory import MemoryEntryStore
        >>> store: EntryStore = MemoryEntryStore()
        >>> entry = CacheEntry.create("ns", "acme", "Solve 2x = 4", [Step("x = 2")], "paragraph")
        >>> store.put(entry), store.ids_matching(tenant="acme") == [entry.id]
        ([], True)
    """

    def put(self, entry: CacheEntry) -> list[str]: ...

    def get(self, entry_id: str) -> CacheEntry | None: ...

    def get_by_key(self, key: str) -> CacheEntry | None: ...

    def touch(self, entry_id: str, now: float) -> None: ...

    def delete(self, entry_ids: Sequence[str]) -> int: ...

    def clear(self) -> None: ...

    def ids_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> list[str]: ...

    def ids_created_before(self, timestamp: float) -> list[str]: ...

    def counts(self) -> dict[tuple[str, str | None], int]:
        """How many entries each ``(namespace, tenant)`` holds."""
        ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[CacheEntry]: ...


@runtime_checkable
class PromptIndex(Protocol):
    """Optional for an :class:`EntryStore`: the exact-path key of a stored prompt text.

    ``key_of`` returns the key of an entry stored with exactly this namespace and prompt, or
    ``None`` when there is none; it must be cheap (a lookup, no text analysis), as it is
    asked on every exact lookup before the key is computed from the text.
    """

    def key_of(self, namespace: str, prompt: str) -> str | None: ...
