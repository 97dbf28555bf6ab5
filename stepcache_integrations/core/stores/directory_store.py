"""The store of ``StepCache(path=...)``: a cache directory, entries in SQLite and the FAISS
index as files rebuilt from them (:mod:`.directory`), shared by the processes of one machine.

A directory store is shared within a process too: every :class:`SqliteStore` of one directory
in a process is a handle on the same connections, index and lock (see
:mod:`.directory_registry`).
"""

from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from stepcache_integrations.core.configuration import (
    ConfigurationError,
    check_choice,
    check_count,
    check_path,
)
from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.stores import directory_registry
from stepcache_integrations.core.stores.directory import CacheDirectory, OnCorruptIndex
from stepcache_integrations.core.stores.directory_registry import DirectoryOptions
from stepcache_integrations.core.stores.errors import CacheCorruptError
from stepcache_integrations.core.stores.local import LocalStore
from stepcache_integrations.core.stores.sqlite import Durability
from stepcache_integrations.core.stores.sqlite_audit import SqliteAuditLedger
from stepcache_integrations.core.vector_index import EmbeddingIndex

__all__ = ["SqliteStore"]

logger = logging.getLogger(__name__)

_REFRESH_WAIT = 0.05  # seconds a lookup waits for the lock to refresh the index, then skips it


class SqliteStore(LocalStore):
    """A cache directory: entries in ``path/entries.sqlite``, the index loaded from (and saved
    to) files beside it. ``StepCache(path=...)`` builds one with the defaults.

    Args:
        path: the cache directory (created if missing, unless ``read_only``).
        embedder: turns prompts into vectors (default:
            :class:`~stepcache_integrations.core.embeddings.StructuralEmbedder`, offline).
        max_entries: at most this many entries, least recently used evicted first (``None``:
            unbounded).
        durability: ``"full"`` (fsync per stored entry: survives power loss) or ``"normal"``
            (survives a killed process; much faster writes).
        read_only: serve an existing cache without ever writing to it (also on a read-only
            filesystem): hits are served, new answers are not stored (logged once), the index
            is not saved. A directory this process cannot write must be opened so.
        on_corrupt_index: what a corrupt index file does: ``"error"`` raises
            :class:`~stepcache_integrations.core.stores.directory.IndexFileError` naming the
            file; ``"rebuild"`` rebuilds the index from the entries, losing nothing.

    Raises:
        ConfigurationError: an argument that cannot work (a path that is a file or cannot be
            created, a ``durability`` or ``on_corrupt_index`` outside its choices...).
        CacheFileError: a corrupt or foreign file, or ``read_only`` without a cache there.

    One store per directory per process: when this process already has ``path`` open, the
    new store is a handle on that one (same connections, index and lock), and
    ``on_corrupt_index`` is moot. Each handle is closed once; the last one closed saves the
    index and closes the database. Opening an open directory with another ``max_entries``,
    ``durability``, ``read_only`` or embedder raises :class:`ValueError`.

    Example:
        >>> import tempfile
        >>> from stepcache_integrations import StepCache
        >>> with StepCache(store=SqliteStore(tempfile.mkdtemp(), durability="normal")) as cache:
        ...     cache.store.capabilities.persistent, len(cache)
        (True, 0)
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        embedder: Embedder | None = None,
        max_entries: int | None = None,
        durability: Durability = "full",
        read_only: bool = False,
        on_corrupt_index: OnCorruptIndex = "error",
    ) -> None:
        # Every option is checked before anything is created on disk.
        folder = check_path("path", path)
        if max_entries is not None:
            check_count("max_entries", max_entries)
        check_choice("durability", durability, ("full", "normal"))
        check_choice("on_corrupt_index", on_corrupt_index, ("error", "rebuild"))
        if not isinstance(read_only, bool):
            raise ConfigurationError("read_only", f"must be True or False, got {read_only!r}")
        options = DirectoryOptions(max_entries, durability, read_only)

        def open_new() -> tuple[CacheDirectory, EmbeddingIndex]:
            directory = CacheDirectory(
                folder, max_entries=max_entries, durability=durability, read_only=read_only
            )
            try:
                index = directory.open_index(embedder or StructuralEmbedder(), on_corrupt_index)
            except BaseException:
                directory.store.close()
                raise
            return directory, index

        shared = directory_registry.acquire(folder, options, embedder, open_new)
        entries = shared.directory.store
        super().__init__(
            entries, shared.index, name="sqlite", request_timeout=entries.write_timeout
        )
        self._directory = shared.directory
        self._index = shared.index
        self._lock, self._shared = shared.lock, shared
        self._capabilities = replace(
            self._capabilities,
            persistent=True,
            shared=True,
            location=str(shared.directory.path),
            options={"read_only": True} if read_only else {},
        )
        self._release_finalizer = directory_registry.release_when_collected(self, shared)
        self._audit_ledger: SqliteAuditLedger | None = None

    def audit_ledger(self) -> SqliteAuditLedger:
        """The audit's counts and suspensions, in this directory's database (shared by every
        process on the machine that opens it)."""
        if self._audit_ledger is None:
            self._audit_ledger = SqliteAuditLedger(
                self._directory.store.path, timeout=self._directory.store.write_timeout
            )
        return self._audit_ledger

    @property
    def path(self) -> Path:
        """The cache directory."""
        return self._directory.path

    @property
    def read_only(self) -> bool:
        """Whether this cache is served without ever being written."""
        return self._directory.read_only

    # -- reads: other processes' new entries first --------------------------------------------

    def nearest(self, text: str, namespace: str, k: int) -> list[tuple[CacheEntry, float]]:
        self._check_handle()
        self._refresh_index()
        return super().nearest(text, namespace, k)

    def _refresh_index(self) -> None:
        """Make other processes' new entries searchable, unless that means waiting: a skipped
        or failed refresh costs recall (they are found by a later lookup), never the request."""
        if not self._lock.acquire(timeout=_REFRESH_WAIT):
            return
        try:
            self._directory.sync(self._index)
        except CacheCorruptError:
            raise  # the store stopped using the file: this lookup fails like every other
        except Exception as error:
            logger.warning("syncing the index with %s failed: %r", self._directory.path, error)
        finally:
            self._lock.release()

    # -- maintenance ----------------------------------------------------------------------------

    def sync(self) -> tuple[int, int]:
        """Make the index agree with the entries now; returns ``(added, removed)``.

        Not needed for correctness (hits are re-read from the entry store, other processes'
        entries are found on the next lookup); it prunes the index and re-syncs eagerly.
        """
        with self._maintenance():
            if not self._directory.read_only:
                self._directory.store.flush()
            return self._directory.reconcile(self._index)

    def rebuild_index(self) -> int:
        """Re-embed every readable entry into a fresh index, and save it."""
        with self._maintenance():
            return self._directory.rebuild_index(self._index)

    def save_index(self) -> Path | None:
        """Write the index files now (``close()`` also does it)."""
        with self._maintenance():
            return self._directory.save_index(self._index)

    def _disk_bytes(self) -> int | None:
        return self._directory.store.disk_bytes()

    def check(self) -> dict[str, Any]:
        """Database integrity, unreadable entries, and whether the index agrees with them."""
        with self._maintenance():
            store_report = self._directory.store.check().to_dict()
            if store_report["damage"] is not None:
                return _damaged_report(store_report)
            # What other processes stored is not a defect.
            self._directory.sync(self._index)
            return self._agreement(store_report)

    def close(self) -> None:
        """Close this handle (idempotent); the last handle closed saves the index if it
        changed and closes the database."""
        if self._closed:
            return
        self._closed = True
        if self._audit_ledger is not None:
            self._audit_ledger.close()
        self._release_finalizer.detach()
        directory_registry.release(self._shared)


def _damaged_report(store_report: dict[str, Any]) -> dict[str, Any]:
    """The check of a damaged database: its findings and the way to recover; the index is
    not compared (nothing is served from the entries)."""
    return {
        "store": store_report,
        "entries": store_report["readable"],
        "index": {"error": "not compared: the entry database is damaged"},
        "ok": False,
    }
