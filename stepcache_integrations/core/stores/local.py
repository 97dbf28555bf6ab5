"""A store made of an entry store and a vector index, kept consistent under one lock.

This is the store of ``StepCache()`` (both halves in memory), of ``StepCache(path=...)``
(entries in SQLite, the FAISS index as rebuildable files beside them) and of a cache over a
LangChain or LlamaIndex vector store (``StepCache(store=..., index=...)``).

The entry store is the source of truth: a vector hit is always re-read from it, so an entry
deleted elsewhere (another process, an eviction) is never served, and its stale vector is
dropped when met.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.stores.base import ANY, AnyValue, StoreCapabilities, TenantFilter
from stepcache_integrations.core.stores.directory import CacheDirectory, OnCorruptIndex
from stepcache_integrations.core.stores.entry_store import EntryStore
from stepcache_integrations.core.stores.memory import MemoryEntryStore, memory_report
from stepcache_integrations.core.stores.sqlite import Durability
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex

__all__ = ["LocalStore"]

logger = logging.getLogger(__name__)


class LocalStore:
    """Entries in an :class:`~.entry_store.EntryStore`, found through a
    :class:`~stepcache_integrations.core.vector_index.VectorIndex`.

    Build one with :meth:`in_memory` or :meth:`open_directory`, or from your own halves.

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> store = LocalStore.in_memory(max_entries=100)
        >>> store.put(CacheEntry.create("ns", None, "Solve 2x = 4", [Step("x = 2")], "paragraph"))
        >>> [entry.answer for entry, _ in store.nearest("Solve 2y = 6", "ns", 1)]
        ['x = 2']
    """

    def __init__(
        self,
        entries: EntryStore,
        index: VectorIndex,
        *,
        name: str = "custom",
        directory: CacheDirectory | None = None,
    ) -> None:
        if directory is not None and not isinstance(index, EmbeddingIndex):
            raise ValueError("a cache directory persists an EmbeddingIndex only")
        self.entries = entries
        self.index = index
        self._directory = directory
        self._capabilities = StoreCapabilities(
            name=name,
            persistent=directory is not None,
            shared=directory is not None,
            atomic_vectors=False,
            location=None if directory is None else str(directory.path),
        )
        # One lock keeps the pair consistent: every mutation of both halves happens under it.
        self._lock = threading.RLock()

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def in_memory(
        cls, *, max_entries: int | None = None, embedder: Embedder | None = None
    ) -> LocalStore:
        """Both halves in this process: LRU-bounded entries and FAISS per namespace."""
        return cls(MemoryEntryStore(max_entries), EmbeddingIndex(embedder), name="memory")

    @classmethod
    def open_directory(
        cls,
        path: str | os.PathLike[str],
        *,
        embedder: Embedder | None = None,
        max_entries: int | None = None,
        durability: Durability = "full",
        on_corrupt_index: OnCorruptIndex = "error",
    ) -> LocalStore:
        """Entries in ``path/entries.sqlite``, the index loaded from (and saved to) files."""
        directory = CacheDirectory(path, max_entries=max_entries, durability=durability)
        try:
            index = directory.open_index(embedder or StructuralEmbedder(), on_corrupt_index)
        except BaseException:
            directory.store.close()
            raise
        return cls(directory.store, index, name="sqlite", directory=directory)

    @property
    def capabilities(self) -> StoreCapabilities:
        return self._capabilities

    @property
    def path(self) -> Path | None:
        """The cache directory, or ``None`` when nothing is persisted."""
        return None if self._directory is None else self._directory.path

    # -- reads ----------------------------------------------------------------------------------

    def get(self, entry_id: str) -> CacheEntry | None:
        return self.entries.get(entry_id)

    def get_by_key(self, key: str) -> CacheEntry | None:
        return self.entries.get_by_key(key)

    def nearest(self, text: str, namespace: str, k: int) -> list[tuple[CacheEntry, float]]:
        if self._directory is not None:
            try:
                with self._lock:  # other processes' new entries become searchable here
                    self._directory.sync(self._embedding_index())
            except Exception as error:  # a failed sync costs recall, never the request
                logger.warning("syncing the index with %s failed: %r", self._directory.path, error)
        found: list[tuple[CacheEntry, float]] = []
        for entry_id, score in self.index.search(text, namespace, k):
            entry = self.entries.get(entry_id)
            if entry is None:
                self._drop_stale(entry_id)
            elif entry.namespace == namespace:  # a foreign index may ignore its filter
                found.append((entry, float(score)))
        return sorted(found, key=lambda pair: -pair[1])

    def _drop_stale(self, entry_id: str) -> None:
        """An indexed id with no (readable) entry, e.g. deleted by another process."""
        with self._lock:
            if self.entries.get(entry_id) is None:  # it may have been stored since
                self.index.remove([entry_id])

    # -- writes ---------------------------------------------------------------------------------

    def put(self, entry: CacheEntry) -> None:
        with self._lock:
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
        self.entries.touch(entry_id, now)

    def delete(self, entry_ids: Sequence[str]) -> int:
        doomed = list(dict.fromkeys(entry_ids))
        with self._lock:
            removed = self.entries.delete(doomed)
            self.index.remove(doomed)
            return int(removed)

    def delete_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> int:
        with self._lock:
            return self.delete(self.entries.ids_matching(namespace=namespace, tenant=tenant))

    def delete_created_before(self, timestamp: float) -> int:
        with self._lock:
            return self.delete(self.entries.ids_created_before(timestamp))

    def clear(self) -> int:
        with self._lock:
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
        """Make the index agree with the entries now; returns ``(added, removed)``.

        Not needed for correctness (hits are re-read from the entry store, other processes'
        entries are found on the next lookup); it prunes the index and re-syncs eagerly.
        """
        if self._directory is None:
            return 0, 0
        with self._lock:
            self._directory.store.flush()
            return self._directory.reconcile(self._embedding_index())

    def rebuild_index(self) -> int:
        """Re-embed every readable entry into a fresh index (saved, for a directory)."""
        with self._lock:
            if self._directory is not None:
                return self._directory.rebuild_index(self._embedding_index())
            self.index.clear()
            for entry in self.entries:
                self.index.add(entry.id, entry.prompt, entry.namespace)
            return len(self.entries)

    def save_index(self) -> Path | None:
        """Write the index files now (a directory store; ``close()`` also does it)."""
        if self._directory is None:
            return None
        with self._lock:
            return self._directory.save_index(self._embedding_index())

    def summary(self) -> dict[str, Any]:
        counts = self.entries.counts()
        disk = None if self._directory is None else self._directory.store.disk_bytes()
        return {
            "store": self._capabilities.name,
            "location": self._capabilities.location,
            "entries": sum(counts.values()),
            "by_namespace_and_tenant": [
                {"namespace": namespace, "tenant": tenant, "entries": count}
                for (namespace, tenant), count in sorted(counts.items(), key=str)
            ],
            "memory": memory_report(self.entries, self.index, disk),
        }

    def check(self) -> dict[str, Any]:
        """Store integrity, unreadable entries, and whether the index agrees with the entries."""
        with self._lock:
            if self._directory is not None:  # what other processes stored is not a defect
                self._directory.sync(self._embedding_index())
            store_ids = {entry.id for entry in self.entries}
            index_ids = set(self.index.ids()) if isinstance(self.index, EmbeddingIndex) else None
            if self._directory is not None:
                store_report = self._directory.store.check().to_dict()
            else:
                store_report = {"rows": len(self.entries)}
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
        """Save the index if it changed and close the database (a directory store). Idempotent."""
        if self._directory is not None:
            with self._lock:
                self._directory.close(self._embedding_index())

    def _embedding_index(self) -> EmbeddingIndex:
        assert isinstance(self.index, EmbeddingIndex)  # checked in __init__ for directories
        return self.index

    def __repr__(self) -> str:
        where = f", path={str(self.path)!r}" if self.path is not None else ""
        return f"LocalStore({self._capabilities.name!r}{where}, entries={len(self)})"
