"""A store made of an entry store and a vector index, kept consistent under one lock.

This is the store of ``StepCache()`` (both halves in memory), of ``StepCache(path=...)``
(entries in SQLite, the FAISS index as rebuildable files beside them) and of a cache over a
LangChain or LlamaIndex vector store (``StepCache(store=..., index=...)``).

The entry store is the source of truth: a vector hit is always re-read from it, so an entry
deleted elsewhere (another process, an eviction) is never served, and its stale vector is
dropped when met.

Calls of the request path (``get_by_key``, ``nearest``, ``put``, ``touch``, ``delete``) never
wait long for this store's lock: a store or deletion gives up after ``request_timeout``
seconds (raising :class:`~.base.StoreUnavailable`), and a lookup skips the index refresh it
cannot do at once. Operator actions (``clear``, ``delete_matching``, ``sync``...) wait as long
as needed.

A directory store is shared: every :meth:`LocalStore.open_directory` of one directory in a
process returns a handle on the same store (see :mod:`.directory_registry`).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from stepcache_integrations.core.configuration import check_choice, check_path
from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.stores import directory_registry
from stepcache_integrations.core.stores.base import (
    ANY,
    AnyValue,
    StoreCapabilities,
    StoreUnavailable,
    TenantFilter,
)
from stepcache_integrations.core.stores.directory import CacheDirectory, OnCorruptIndex
from stepcache_integrations.core.stores.directory_registry import DirectoryOptions
from stepcache_integrations.core.stores.entry_store import EntryStore, PromptIndex
from stepcache_integrations.core.stores.errors import CacheCorruptError
from stepcache_integrations.core.stores.memory import MemoryEntryStore, memory_report
from stepcache_integrations.core.stores.sqlite import Durability, SqliteEntryStore
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex

__all__ = ["LocalStore"]

logger = logging.getLogger(__name__)

_SYNC_WAIT = 0.05  # seconds a lookup waits for the lock to refresh the index, then skips it


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
        request_timeout: float = 1.0,
    ) -> None:
        if directory is not None and not isinstance(index, EmbeddingIndex):
            raise ValueError("a cache directory persists an EmbeddingIndex only")
        self.entries = entries
        self.index = index
        # Declared by the entry store's type (the memory store keeps one): asked per lookup.
        self._prompt_index = entries if isinstance(entries, PromptIndex) else None
        self._directory = directory
        self._capabilities = StoreCapabilities(
            name=name,
            persistent=directory is not None,
            shared=directory is not None,
            atomic_vectors=False,
            prompt_lookup=self._prompt_index is not None,
            location=None if directory is None else str(directory.path),
        )
        # One lock keeps the pair consistent: every mutation of both halves happens under it.
        self._lock = threading.RLock()
        self.request_timeout = request_timeout
        self._shared: directory_registry.SharedDirectory | None = None
        self._release_finalizer: directory_registry.CollectedFinalizer | None = None
        self._closed = False

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
        read_only: bool = False,
    ) -> LocalStore:
        """Entries in ``path/entries.sqlite``, the index loaded from (and saved to) files.

        One store per directory per process: when this process already has ``path`` open,
        the result is a new handle on that store (same connections, index and lock), and
        ``on_corrupt_index`` is moot. Each handle is closed once; the last one closed saves
        the index and closes the database. Opening an open directory with another
        ``max_entries``, ``durability``, ``read_only`` or embedder raises :class:`ValueError`.

        ``read_only=True`` serves an existing cache without ever writing (also on a
        read-only filesystem): stores and deletions raise
        :class:`~.errors.CacheReadOnlyError`, uses are not recorded, the index is not saved.
        """
        path = check_path("path", path)
        check_choice("on_corrupt_index", on_corrupt_index, ("error", "rebuild"))
        options = DirectoryOptions(max_entries, durability, read_only)

        def open_new() -> tuple[CacheDirectory, EmbeddingIndex]:
            directory = CacheDirectory(
                path, max_entries=max_entries, durability=durability, read_only=read_only
            )
            try:
                index = directory.open_index(embedder or StructuralEmbedder(), on_corrupt_index)
            except BaseException:
                directory.store.close()
                raise
            return directory, index

        shared = directory_registry.acquire(path, options, embedder, open_new)
        store = cls(
            shared.directory.store,
            shared.index,
            name="sqlite",
            directory=shared.directory,
            request_timeout=shared.directory.store.write_timeout,
        )
        store._lock, store._shared = shared.lock, shared
        store._release_finalizer = directory_registry.release_when_collected(store, shared)
        if read_only:
            store._capabilities = replace(store._capabilities, options={"read_only": True})
        return store

    @property
    def capabilities(self) -> StoreCapabilities:
        return self._capabilities

    @property
    def path(self) -> Path | None:
        """The cache directory, or ``None`` when nothing is persisted."""
        return None if self._directory is None else self._directory.path

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
        if self._directory is not None:
            self._refresh_index()
        found: list[tuple[CacheEntry, float]] = []
        for entry_id, score in self.index.search(text, namespace, k):
            entry = self.entries.get(entry_id)
            if entry is None:
                self._drop_stale(entry_id)
            elif entry.namespace == namespace:  # a foreign index may ignore its filter
                found.append((entry, float(score)))
        return sorted(found, key=lambda pair: -pair[1])

    def _refresh_index(self) -> None:
        """Make other processes' new entries searchable, unless that means waiting: a skipped
        or failed refresh costs recall (they are found by a later lookup), never the request."""
        assert self._directory is not None
        if not self._lock.acquire(timeout=_SYNC_WAIT):
            return
        try:
            self._directory.sync(self._embedding_index())
        except CacheCorruptError:
            raise  # the store stopped using the file: this lookup fails like every other
        except Exception as error:
            logger.warning("syncing the index with %s failed: %r", self._directory.path, error)
        finally:
            self._lock.release()

    def _drop_stale(self, entry_id: str) -> None:
        """An indexed id with no (readable) entry, e.g. deleted by another process; left for a
        later lookup when the lock is busy."""
        if not self._lock.acquire(timeout=_SYNC_WAIT):
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
        """Make the index agree with the entries now; returns ``(added, removed)``.

        Not needed for correctness (hits are re-read from the entry store, other processes'
        entries are found on the next lookup); it prunes the index and re-syncs eagerly.
        """
        if self._directory is None:
            return 0, 0
        with self._maintenance():
            if not self._directory.read_only:
                self._directory.store.flush()
            return self._directory.reconcile(self._embedding_index())

    def rebuild_index(self) -> int:
        """Re-embed every readable entry into a fresh index (saved, for a directory)."""
        with self._maintenance():
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
        with self._maintenance():
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
        with self._maintenance():
            store_report: dict[str, Any] = {}
            if self._directory is not None:
                store_report = self._directory.store.check().to_dict()
                if store_report["damage"] is not None:
                    return _damaged_report(store_report)
                # What other processes stored is not a defect.
                self._directory.sync(self._embedding_index())
            store_ids = {entry.id for entry in self.entries}
            index_ids = set(self.index.ids()) if isinstance(self.index, EmbeddingIndex) else None
            if self._directory is None:
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
        """Close this handle (idempotent). For a directory store, the last handle closed saves
        the index if it changed and closes the database."""
        if self._closed:
            return
        if self._shared is not None:
            self._closed = True
            if self._release_finalizer is not None:
                self._release_finalizer.detach()
            directory_registry.release(self._shared)
        elif self._directory is not None:
            self._closed = True
            with self._lock:
                self._directory.close(self._embedding_index())

    def _embedding_index(self) -> EmbeddingIndex:
        assert isinstance(self.index, EmbeddingIndex)  # checked in __init__ for directories
        return self.index

    def __repr__(self) -> str:
        where = f", path={str(self.path)!r}" if self.path is not None else ""
        try:
            entries = str(len(self))
        except Exception:  # a damaged or lost database: a repr must not raise
            entries = "?"
        return f"LocalStore({self._capabilities.name!r}{where}, entries={entries})"


def _damaged_report(store_report: dict[str, Any]) -> dict[str, Any]:
    """The check of a damaged database: its findings and the way to recover; the index is
    not compared (nothing is served from the entries)."""
    return {
        "store": store_report,
        "entries": store_report["readable"],
        "index": {"error": "not compared: the entry database is damaged"},
        "ok": False,
    }
