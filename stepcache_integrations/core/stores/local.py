"""A store made of an entry store and a vector index, kept consistent under one lock.

:class:`LocalStore` pairs any entry store with any vector index (``StepCache(store=
LocalStore(entries, index))``, a LangChain or LlamaIndex vector store as the index);
:class:`MemoryStore` is the store of ``StepCache()`` (both halves in memory), and
:class:`~.directory_store.SqliteStore` (entries in SQLite, the FAISS index as rebuildable
files beside them) the store of ``StepCache(path=...)``.

The entry store is the source of truth: a vector hit is always re-read from it, so an entry
deleted elsewhere (another process, an eviction) is never served, and its stale vector is
dropped when met.

Calls of the request path (``get_by_key``, ``nearest``, ``put``, ``touch``, ``delete``) never
wait long for this store's lock: a store or deletion gives up after ``request_timeout``
seconds (raising :class:`~.base.StoreUnavailable`), and a lookup skips the index refresh it
cannot do at once. Operator actions (``clear``, ``delete_matching``, ``sync``...) wait as long
as needed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from stepcache_integrations.core.embeddings import Embedder
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.stores.base import (
    ANY,
    AnyValue,
    StoreCapabilities,
    StoreUnavailable,
    TenantFilter,
)
from stepcache_integrations.core.stores.entry_store import EntryStore, PromptIndex
from stepcache_integrations.core.stores.memory import MemoryEntryStore, memory_report
from stepcache_integrations.core.stores.sqlite import SqliteEntryStore
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex

__all__ = ["LocalStore", "MemoryStore"]

logger = logging.getLogger(__name__)

_STALE_WAIT = 0.05  # seconds a lookup waits for the lock to drop a stale id, then leaves it


class LocalStore:
    """Entries in an :class:`~.entry_store.EntryStore`, found through a
    :class:`~stepcache_integrations.core.vector_index.VectorIndex`.

    Args:
        entries: where entries live (your database's entry store, ``MemoryEntryStore``...).
        index: where nearest requests are searched (default: FAISS per namespace with the
            offline :class:`~stepcache_integrations.core.embeddings.StructuralEmbedder`;
            adapters offer indexes over LangChain and LlamaIndex vector stores).
        name: how logs and ``stats()`` name the store.
        request_timeout: seconds a store or deletion of the request path waits for the lock
            before it gives up (:class:`~.base.StoreUnavailable`: the answer is served
            uncached).

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> store = LocalStore(MemoryEntryStore(max_entries=100))
        >>> store.put(CacheEntry.create("ns", None, "Solve 2x = 4", [Step("x = 2")], "paragraph"))
        >>> [entry.answer for entry, _ in store.nearest("Solve 2y = 6", "ns", 1)]
        ['x = 2']
    """

    def __init__(
        self,
        entries: EntryStore,
        index: VectorIndex | None = None,
        *,
        name: str = "custom",
        request_timeout: float = 1.0,
    ) -> None:
        self.entries = entries
        self.index: VectorIndex = index if index is not None else EmbeddingIndex()
        # Declared by the entry store's type (the memory store keeps one): asked per lookup.
        self._prompt_index = entries if isinstance(entries, PromptIndex) else None
        self._capabilities = StoreCapabilities(
            name=name, prompt_lookup=self._prompt_index is not None
        )
        # One lock keeps the pair consistent: every mutation of both halves happens under it.
        self._lock = threading.RLock()
        self.request_timeout = request_timeout
        self._closed = False

    @property
    def capabilities(self) -> StoreCapabilities:
        return self._capabilities

    @property
    def path(self) -> Path | None:
        """The cache directory, or ``None`` when nothing is persisted."""
        return None

    # -- locking --------------------------------------------------------------------------------

    def _check_handle(self) -> None:
        if self._closed:
            raise RuntimeError(f"this handle on the cache at {self.path} is closed")

    @contextmanager
    def _request_lock(self, what: str) -> Iterator[None]:
        """The lock, for a call of the request path: waited for at most ``request_timeout``."""
        self._check_handle()
        if not self._lock.acquire(timeout=self.request_timeout):
            raise StoreUnavailable(
                f"{self._capabilities.name} store busy: {what} waited more than "
                f"{self.request_timeout:g} s for other operations of this process"
            )
        try:
            yield
        finally:
            self._lock.release()

    @contextmanager
    def _maintenance(self) -> Iterator[None]:
        """The lock, for an operator's action: waited for as long as needed, and the SQLite
        store's long lock timeout instead of the request path's short budgets."""
        self._check_handle()
        with self._lock:
            if isinstance(self.entries, SqliteEntryStore):
                with self.entries.maintenance():
                    yield
            else:
                yield

    # -- reads ----------------------------------------------------------------------------------

    def get(self, entry_id: str) -> CacheEntry | None:
        self._check_handle()
        return self.entries.get(entry_id)

    def get_by_key(self, key: str) -> CacheEntry | None:
        self._check_handle()
        return self.entries.get_by_key(key)

    def get_by_prompt(self, namespace: str, prompt: str) -> CacheEntry | None:
        """The entry stored for exactly this prompt text, when the entry store indexes prompt
        texts (:class:`~.entry_store.PromptIndex`, as the memory store does); else ``None``."""
        self._check_handle()
        if self._prompt_index is None:
            return None
        key = self._prompt_index.key_of(namespace, prompt)
        return None if key is None else self.entries.get_by_key(key)

    def nearest(self, text: str, namespace: str, k: int) -> list[tuple[CacheEntry, float]]:
        self._check_handle()
        found: list[tuple[CacheEntry, float]] = []
        for entry_id, score in self.index.search(text, namespace, k):
            entry = self.entries.get(entry_id)
            if entry is None:
                self._drop_stale(entry_id)
            elif entry.namespace == namespace:
                # The protocol's promise, kept for every caller of this store: a framework's
                # vector store may ignore the namespace filter silently. Not what isolates
                # tenants: the cache checks every entry a store returns (core.cache).
                found.append((entry, float(score)))
        return sorted(found, key=lambda pair: -pair[1])

    def _drop_stale(self, entry_id: str) -> None:
        """An indexed id with no (readable) entry, e.g. deleted by another process; left for a
        later lookup when the lock is busy."""
        if not self._lock.acquire(timeout=_STALE_WAIT):
            return
        try:
            if self.entries.get(entry_id) is None:  # it may have been stored since
                self.index.remove([entry_id])
        finally:
            self._lock.release()

    # -- writes ---------------------------------------------------------------------------------

    def put(self, entry: CacheEntry) -> None:
        with self._request_lock("storing an entry"):
            evicted = self.entries.put(entry)
            if evicted:
                self.index.remove(evicted)
            try:
                self.index.add(entry.id, entry.prompt, entry.namespace)
            except BaseException:
                # Keep the pair consistent: an entry the index cannot find is not stored.
                self.entries.delete([entry.id])
                self.index.remove([entry.id])
                raise

    def touch(self, entry_id: str, now: float) -> None:
        self._check_handle()
        self.entries.touch(entry_id, now)

    def delete(self, entry_ids: Sequence[str]) -> int:
        with self._request_lock("deleting entries"):
            return self._delete(entry_ids)

    def _delete(self, entry_ids: Sequence[str]) -> int:
        doomed = list(dict.fromkeys(entry_ids))
        removed = self.entries.delete(doomed)
        self.index.remove(doomed)
        return int(removed)

    def delete_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> int:
        with self._maintenance():
            return self._delete(self.entries.ids_matching(namespace=namespace, tenant=tenant))

    def delete_created_before(self, timestamp: float) -> int:
        with self._maintenance():
            return self._delete(self.entries.ids_created_before(timestamp))

    def clear(self) -> int:
        with self._maintenance():
            count = len(self.entries)
            self.entries.clear()
            self.index.clear()
            return count

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[CacheEntry]:
        return iter(self.entries)

    # -- maintenance ----------------------------------------------------------------------------

    def sync(self) -> tuple[int, int]:
        """``(0, 0)``: the index learns of every entry as it is stored through this store."""
        return 0, 0

    def rebuild_index(self) -> int:
        """Re-embed every readable entry into a fresh index; returns the count."""
        with self._maintenance():
            self.index.clear()
            for entry in self.entries:
                self.index.add(entry.id, entry.prompt, entry.namespace)
            return len(self.entries)

    def save_index(self) -> Path | None:
        """``None``: nothing is persisted (a :class:`~.directory_store.SqliteStore` saves)."""
        return None

    def summary(self) -> dict[str, Any]:
        counts = self.entries.counts()
        return {
            "store": self._capabilities.name,
            "location": self._capabilities.location,
            "entries": sum(counts.values()),
            "by_namespace_and_tenant": [
                {"namespace": namespace, "tenant": tenant, "entries": count}
                for (namespace, tenant), count in sorted(counts.items(), key=str)
            ],
            "memory": memory_report(self.entries, self.index, self._disk_bytes()),
        }

    def _disk_bytes(self) -> int | None:
        return None

    def check(self) -> dict[str, Any]:
        """Unreadable entries, and whether the index agrees with the entries."""
        with self._maintenance():
            return self._agreement({"rows": len(self.entries)})

    def _agreement(self, store_report: dict[str, Any]) -> dict[str, Any]:
        """The check's report: ``store_report`` and whether the index agrees with the entries
        (under the lock)."""
        store_ids = {entry.id for entry in self.entries}
        index_ids = set(self.index.ids()) if isinstance(self.index, EmbeddingIndex) else None
        report: dict[str, Any] = {"store": store_report, "entries": len(store_ids)}
        if index_ids is not None:
            report["index"] = {
                "entries": len(index_ids),
                "missing": len(store_ids - index_ids),
                "extra": len(index_ids - store_ids),
            }
        index_ok = index_ids is None or index_ids == store_ids
        report["ok"] = bool(store_report.get("ok", True)) and index_ok
        return report

    def close(self) -> None:
        """Nothing to release in memory (idempotent); a persistent store saves and closes."""

    def __repr__(self) -> str:
        where = f", path={str(self.path)!r}" if self.path is not None else ""
        try:
            entries = str(len(self))
        except Exception:  # a damaged or lost database: a repr must not raise
            entries = "?"
        return f"{type(self).__name__}({self._capabilities.name!r}{where}, entries={entries})"


class MemoryStore(LocalStore):
    """The store of ``StepCache()``: entries in this process, least recently used evicted
    first, and FAISS per namespace. Nothing survives the process.

    Args:
        max_entries: at most this many entries (``None``: unbounded).
        embedder: turns prompts into vectors (default:
            :class:`~stepcache_integrations.core.embeddings.StructuralEmbedder`, offline).

    Example:
        >>> from stepcache_integrations import StepCache
        >>> cache = StepCache(store=MemoryStore(max_entries=10_000))
        >>> cache.store.capabilities.name, cache.store.entries.max_entries
        ('memory', 10000)
    """

    def __init__(self, *, max_entries: int | None = None, embedder: Embedder | None = None) -> None:
        super().__init__(MemoryEntryStore(max_entries), EmbeddingIndex(embedder), name="memory")
