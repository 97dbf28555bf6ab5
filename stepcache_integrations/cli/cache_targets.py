"""The cache a ``stepcache cache`` command works on, opened for maintenance.

A target is a SQLite cache directory (:class:`SqliteTarget`) or a Postgres database
(:class:`~stepcache_integrations.cli.cache_postgres.PostgresTarget`). Both work on the
entries alone, never through an embedder: opening a cache with an embedder other than the one
its vectors were made with would re-embed them (for Postgres, for the whole fleet). Deleting
entries is safe without the vector side: a vector whose entry is gone is never served, and the
SQLite index files are reconciled with the entries when a cache opens them.

Every problem a user can fix is a :class:`CacheCommandError`: one line, no traceback.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from stepcache_integrations.core.audit import audit_report
from stepcache_integrations.core.configuration import ConfigurationError
from stepcache_integrations.core.stores.base import ANY, AnyValue, TenantFilter
from stepcache_integrations.core.stores.directory import (
    INDEX_DIR,
    MARKER_NAME,
    CacheDirectory,
    IndexFileError,
    SalvageReport,
    salvage_database,
)
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.errors import CacheFileError, CacheStorageError
from stepcache_integrations.core.stores.sqlite_audit import SqliteAuditLedger

__all__ = [
    "CacheCommandError",
    "CacheStats",
    "CacheTarget",
    "EntryFilter",
    "SqliteTarget",
    "cache_folder",
    "open_directory",
    "salvage_directory",
]

Cell = tuple[str, str | None]


class CacheCommandError(Exception):
    """A problem the user can fix (bad input, a path that holds no cache, an unreachable
    database); ``str()`` is the whole one-line message."""


@dataclass(frozen=True)
class EntryFilter:
    """Which entries a purge deletes: a namespace and/or a tenant (``tenant=None``: only the
    entries stored without a tenant; :data:`ANY`: no filter).

    Example:
        >>> EntryFilter(tenant=None).describe()
        'entries without a tenant'
        >>> EntryFilter(namespace="ns", tenant="acme").describe()
        "entries of tenant 'acme' in namespace 'ns'"
    """

    namespace: str | AnyValue = ANY
    tenant: TenantFilter = ANY

    def __post_init__(self) -> None:
        if isinstance(self.namespace, AnyValue) and isinstance(self.tenant, AnyValue):
            raise ValueError("a purge needs a tenant, no tenant, or a namespace (never all)")

    def matches(self, cell: Cell) -> bool:
        namespace, tenant = cell
        return (isinstance(self.namespace, AnyValue) or namespace == self.namespace) and (
            isinstance(self.tenant, AnyValue) or tenant == self.tenant
        )

    def describe(self) -> str:
        if self.tenant is None:
            who = "entries without a tenant"
        elif isinstance(self.tenant, AnyValue):
            who = "entries"
        else:
            who = f"entries of tenant {self.tenant!r}"
        if isinstance(self.namespace, AnyValue):
            return who
        return f"{who} in namespace {self.namespace!r}"


@dataclass
class CacheStats:
    """What ``stepcache cache stats`` shows: entries per namespace and tenant, size, and the
    request counters the store keeps (``requests`` is ``None`` when it keeps none)."""

    store: str
    location: str
    schema_version: int | None
    cells: dict[Cell, int]
    size_bytes: int
    size_parts: dict[str, int] = field(default_factory=dict)
    requests: dict[str, Any] | None = None
    requests_note: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def entries(self) -> int:
        return sum(self.cells.values())

    def by_tenant(self) -> list[tuple[str | None, int, int]]:
        """``(tenant, entries, namespaces)`` per tenant; entries without a tenant last."""
        totals: dict[str | None, list[int]] = {}
        for (_namespace, tenant), count in self.cells.items():
            row = totals.setdefault(tenant, [0, 0])
            row[0] += count
            row[1] += 1
        order = sorted(totals, key=lambda tenant: (tenant is None, tenant or ""))
        return [(tenant, totals[tenant][0], totals[tenant][1]) for tenant in order]

    def to_dict(self) -> dict[str, Any]:
        return {
            "store": self.store,
            "location": self.location,
            "schema_version": self.schema_version,
            **self.details,
            "entries": self.entries,
            "size_bytes": self.size_bytes,
            "size_parts": dict(self.size_parts),
            "by_tenant": [
                {"tenant": tenant, "entries": entries, "namespaces": namespaces}
                for tenant, entries, namespaces in self.by_tenant()
            ],
            "by_namespace_and_tenant": [
                {"namespace": namespace, "tenant": tenant, "entries": count}
                for (namespace, tenant), count in sorted(self.cells.items(), key=str)
            ],
            "requests": self.requests,
            **({"requests_note": self.requests_note} if self.requests_note else {}),
        }


class CacheTarget(Protocol):
    """A cache opened by ``stepcache cache``; closed with ``close()``."""

    @property
    def location(self) -> str:
        """Where the cache is (a directory, or the URL without its password)."""
        ...

    def stats(self) -> CacheStats: ...

    def count_matching(self, selected: EntryFilter) -> int: ...

    def delete_matching(self, selected: EntryFilter) -> int: ...

    def count_created_before(self, timestamp: float) -> int: ...

    def delete_created_before(self, timestamp: float) -> int: ...

    def check(self) -> dict[str, Any]:
        """The store's full health check: ``{"ok": bool, ...}``."""
        ...

    def close(self) -> None: ...


def _files_bytes(folder: Path) -> int:
    """Bytes of the files under ``folder``, each hard-linked file counted once."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                info = os.stat(os.path.join(root, name))
            except OSError:
                continue
            if (info.st_dev, info.st_ino) not in seen:
                seen.add((info.st_dev, info.st_ino))
                total += info.st_size
    return total


class SqliteTarget:
    """A cache directory of ``StepCache(path=...)``: its entry database, opened read-only
    unless entries are to be deleted. Build it with :func:`open_directory`."""

    def __init__(self, path: Path, directory: CacheDirectory) -> None:
        self.path = path
        self.directory = directory

    @property
    def location(self) -> str:
        return str(self.path)

    def stats(self) -> CacheStats:
        store = self.directory.store
        entries_bytes = store.disk_bytes()
        index_bytes = _files_bytes(self.path / INDEX_DIR)
        return CacheStats(
            store="sqlite",
            location=self.location,
            schema_version=store.schema_version,
            cells=store.counts(),
            size_bytes=entries_bytes + index_bytes,
            size_parts={"entries database": entries_bytes, "index files": index_bytes},
            requests_note=(
                "not recorded: a SQLite cache keeps no request counters (each process has its "
                "own in StepCache.stats())"
            ),
        )

    def count_matching(self, selected: EntryFilter) -> int:
        return len(
            self.directory.store.ids_matching(namespace=selected.namespace, tenant=selected.tenant)
        )

    def delete_matching(self, selected: EntryFilter) -> int:
        store = self.directory.store
        with store.maintenance():  # an operator's deletion waits for other writers' locks
            ids = store.ids_matching(namespace=selected.namespace, tenant=selected.tenant)
            return store.delete(ids)

    def count_created_before(self, timestamp: float) -> int:
        return len(self.directory.store.ids_created_before(timestamp))

    def delete_created_before(self, timestamp: float) -> int:
        store = self.directory.store
        with store.maintenance():
            return store.delete(store.ids_created_before(timestamp))

    def check(self) -> dict[str, Any]:
        """SQLite's integrity check, every row decoded, and the index files loaded and
        compared with the entries (in memory: nothing is written)."""
        try:
            local = SqliteStore(self.path, read_only=True)
        except IndexFileError as error:
            report = self.directory.store.check().to_dict()
            return {
                "store": report,
                "entries": report["readable"],
                "index": {"error": str(error)},
                "ok": False,
            }
        try:
            return local.check()
        finally:
            local.close()

    def audit_report(self) -> dict[str, Any]:
        """What the audits of every process on this cache found (empty for a database that
        was never opened by a version with audits: read-only, it is not migrated)."""
        ledger = SqliteAuditLedger(self.directory.store.path)
        try:
            return audit_report(ledger.counts(), ledger.suspensions())
        except sqlite3.OperationalError as error:
            if "no such table" not in str(error):
                raise
            return audit_report([], [])
        finally:
            ledger.close()

    def resume(self, kind: str, namespace: str | None) -> int:
        ledger = SqliteAuditLedger(self.directory.store.path)
        try:
            return ledger.resume(kind, namespace)
        finally:
            ledger.close()

    def close(self) -> None:
        self.directory.close()


def open_directory(path: str | os.PathLike[str], *, writable: bool) -> SqliteTarget:
    """The cache directory at ``path``; a :class:`CacheCommandError` when there is none.

    Never creates anything: a directory that holds no cache is refused, writable or not.
    """
    folder = cache_folder(path)
    try:
        directory = CacheDirectory(folder, read_only=not writable)
    except (CacheFileError, CacheStorageError, ConfigurationError) as error:
        raise CacheCommandError(str(error)) from error
    return SqliteTarget(folder, directory)


def salvage_directory(path: str | os.PathLike[str]) -> SalvageReport:
    """Salvage the entry database of the cache directory at ``path``
    (:func:`~stepcache_integrations.core.stores.directory.salvage_database`: the damaged file
    is moved aside and kept, every readable row is copied into a new database)."""
    folder = cache_folder(path)
    try:
        return salvage_database(folder)
    except (FileNotFoundError, RuntimeError, CacheFileError, CacheStorageError) as error:
        raise CacheCommandError(str(error)) from error


def cache_folder(path: str | os.PathLike[str]) -> Path:
    """``path`` if it is a cache directory (it exists and holds a cache marker); a
    :class:`CacheCommandError` otherwise. Opens nothing."""
    folder = Path(path)
    if not folder.exists():
        raise CacheCommandError(f"{folder} does not exist (--path names a cache directory)")
    if not folder.is_dir():
        raise CacheCommandError(f"{folder} is a file; --path names a cache directory")
    if not (folder / MARKER_NAME).is_file():
        raise CacheCommandError(
            f"{folder} holds no stepcache cache ({MARKER_NAME} is missing): --path names the "
            "directory given to StepCache(path=...)"
        )
    return folder


def cutoff(ttl: float, now: float | None = None) -> float:
    """The creation time before which an entry is older than ``ttl`` seconds.

    Example:
        >>> cutoff(60, now=1000.0)
        940.0
    """
    return (time.time() if now is None else now) - ttl


def iter_cells(cells: dict[Cell, int]) -> Iterator[tuple[str, str | None, int]]:
    """``(namespace, tenant, entries)`` sorted by tenant (no tenant last), then namespace."""
    for (namespace, tenant), count in sorted(
        cells.items(), key=lambda item: (item[0][1] is None, item[0][1] or "", item[0][0])
    ):
        yield namespace, tenant, count
