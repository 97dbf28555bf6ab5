"""The store protocol: where a :class:`~stepcache_integrations.StepCache` keeps its entries.

A store holds :class:`~stepcache_integrations.core.entries.CacheEntry` objects and finds, for a
request text, the nearest cached requests of one namespace. Three implementations ship:

- :class:`~stepcache_integrations.core.stores.local.LocalStore` over an entry store and a
  vector index: :class:`~stepcache_integrations.core.stores.local.MemoryStore` (in memory, the
  default), :class:`~stepcache_integrations.core.stores.directory_store.SqliteStore` (a SQLite
  directory with a FAISS index, ``StepCache(path=...)``), or over a LangChain / LlamaIndex
  vector store;
- :class:`~stepcache_integrations.core.stores.postgres.PostgresStore`: entries and their vectors
  in one Postgres database with pgvector (``StepCache(url="postgresql://...")``), shared by a
  fleet of processes.

Each store takes its own options (``SqliteStore(path, durability="normal")``,
``PostgresStore(url, schema="app")``); ``StepCache(store=...)`` takes the store.

A third party adds a store (Redis, another database) by implementing :class:`CacheStore`;
``docs/stores.md`` walks through it. The request path never learns which store it talks to:
what a store can do is declared in :class:`StoreCapabilities`, never probed. A store that finds
an entry by its exact prompt text cheaply (without the request's comparison form, which costs a
tokenisation) implements :class:`PromptLookup` and declares ``prompt_lookup``; the cache then
asks it first on the exact path. A store that keeps request counters for a fleet implements
:class:`RequestCounter` and declares ``request_counts``; the cache then hands it the record of
every request.

Filters take :data:`ANY` for "no filter". ``tenant=None`` always means "entries without a
tenant": a ``None`` never widens a filter (``delete_matching(tenant=None)`` deletes only the
entries stored without a tenant).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable

from stepcache_integrations.core.entries import CacheEntry

if TYPE_CHECKING:
    from stepcache_integrations.core.records import StepCacheRecord

__all__ = [
    "ANY",
    "AnyValue",
    "CacheStore",
    "PromptLookup",
    "RequestCounter",
    "StoreCapabilities",
    "StoreUnavailable",
    "TenantFilter",
]


class AnyValue:
    """The type of :data:`ANY`, the "no filter" value of store filters."""

    _instance: AnyValue | None = None

    def __new__(cls) -> AnyValue:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ANY"

    def __reduce__(self) -> str:
        return "ANY"


ANY: Final = AnyValue()
"""Matches every value of a filter (``None`` matches only entries without a tenant)."""

TenantFilter = str | None | AnyValue


class StoreUnavailable(RuntimeError):
    """The store cannot answer now: unreachable, past its time budget, or failing.

    The request path answers such a request with the model (decision ``bypass``) and stores
    nothing for it; the store is tried again on the next request.

    Example:
        >>> str(StoreUnavailable("postgres: connection refused"))
        'postgres: connection refused'
    """


@dataclass(frozen=True)
class StoreCapabilities:
    """What a store can do, declared once (the cache never probes for methods).

    Attributes:
        name: a short name for logs and ``stats()`` ("memory", "sqlite", "postgres", ...).
        persistent: entries survive the process.
        shared: other processes (or machines) see entries as soon as they are stored.
        location: where the entries live (a directory, a URL without credentials), if anywhere.
        prompt_lookup: finds an entry by its exact prompt text without the request's key
            (the store implements :class:`PromptLookup` usefully, not only by returning None).
        lookup_budget: seconds the store lets a lookup take (it enforces them: the Postgres
            store's server cancels a slower lookup), or ``None``. The cache reports lookups
            slower than this (0.05 s when ``None``).
        request_counts: the store keeps request counters (a fleet-wide hit rate): it
            implements :class:`RequestCounter`, and the cache hands it every record.
        options: anything else worth showing in ``stats()`` (bounds, pool sizes...).

    Example:
        >>> StoreCapabilities("memory").persistent
        False
    """

    name: str
    persistent: bool = False
    shared: bool = False
    location: str | None = None
    prompt_lookup: bool = False
    lookup_budget: float | None = None
    request_counts: bool = False
    options: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class CacheStore(Protocol):
    """Entries and nearest-request search behind one interface. Implementations are
    thread-safe; every method may raise (the cache guards each call and fails open).

    Reads:
        ``get`` and ``get_by_key`` return ``None`` for an unknown (or unreadable) entry.
        ``nearest`` returns up to ``k`` entries of ``namespace`` as ``(entry, similarity)``,
        nearest first; similarity is higher for closer requests (cosine for the built-in
        stores). Only entries of exactly that namespace may be returned.

    Writes:
        ``put`` stores an entry (replacing one with the same id) together with what makes it
        searchable, or raises and stores nothing; it evicts what the store's bounds require.
        ``touch`` records a use for least-recently-used eviction; it may be buffered and lost.

    Deletes return how many entries were removed. ``delete_matching`` filters by namespace
    and tenant (:data:`ANY` for no filter; ``tenant=None`` means entries without a tenant).

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> from stepcache_integrations.core.stores.local import MemoryStore
        >>> store: CacheStore = MemoryStore()
        >>> store.put(CacheEntry.create("ns", "acme", "Solve 2x = 4", [Step("x = 2")], "paragraph"))
        >>> [entry.answer for entry, _ in store.nearest("Solve 2y = 4", "ns", 1)]
        ['x = 2']
        >>> store.delete_matching(tenant="acme"), len(store)
        (1, 0)
    """

    @property
    def capabilities(self) -> StoreCapabilities: ...

    def get(self, entry_id: str) -> CacheEntry | None: ...

    def get_by_key(self, key: str) -> CacheEntry | None: ...

    def nearest(self, text: str, namespace: str, k: int) -> list[tuple[CacheEntry, float]]: ...

    def put(self, entry: CacheEntry) -> None: ...

    def touch(self, entry_id: str, now: float) -> None: ...

    def delete(self, entry_ids: Sequence[str]) -> int: ...

    def delete_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> int: ...

    def delete_created_before(self, timestamp: float) -> int: ...

    def clear(self) -> int: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[CacheEntry]: ...

    def summary(self) -> dict[str, Any]:
        """Counts per namespace and tenant, size on disk or in memory, anything useful to an
        operator; JSON-serialisable."""
        ...

    def check(self) -> dict[str, Any]:
        """A full consistency check; ``{"ok": bool, ...}``."""
        ...

    def sync(self) -> tuple[int, int]:
        """Make the search side agree with the entries now; ``(added, removed)`` (``(0, 0)``
        where both are always in agreement)."""
        ...

    def rebuild_index(self) -> int:
        """Re-embed every readable entry (after a change of embedder); returns the count."""
        ...

    def save_index(self) -> Path | None:
        """Write derived index files now, where the store has any; returns where."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class PromptLookup(Protocol):
    """Optional for a :class:`CacheStore`: the entry stored for exactly this prompt text.

    ``get_by_prompt`` returns the entry that ``get_by_key`` would return for the prompt's
    exact-path key, or ``None`` when the store does not know the prompt (the cache then
    computes the key, which costs a tokenisation, and calls ``get_by_key``). It never answers
    for another prompt text: identical text in one namespace is the same request.

    Example:
        >>> from stepcache_integrations.core.stores.local import MemoryStore
        >>> isinstance(MemoryStore(), PromptLookup)
        True
    """

    def get_by_prompt(self, namespace: str, prompt: str) -> CacheEntry | None: ...


@runtime_checkable
class RequestCounter(Protocol):
    """Optional for a :class:`CacheStore` that declares ``request_counts``: counts every
    finished request (``record_request`` is called after each one, on the request's thread;
    it must never raise, and should not wait: buffer, and write later).

    Example:
        >>> from stepcache_integrations.core.stores.local import MemoryStore
        >>> isinstance(MemoryStore(), RequestCounter)
        False
    """

    def record_request(self, record: StepCacheRecord) -> None: ...
