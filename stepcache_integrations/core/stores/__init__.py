"""Stores: where a cache keeps its entries, behind one protocol
(:class:`~stepcache_integrations.core.stores.base.CacheStore`). Each store takes its own
options: ``StepCache(store=SqliteStore(path, durability="normal"))``.

``PostgresStore``, ``PostgresEntryStore`` and ``PoolSettings`` need the ``postgres`` extra
(``pip install 'stepcache-integrations[postgres]'``); they are imported on first use.
"""

from typing import Any

from stepcache_integrations.core.stores.base import (
    ANY,
    CacheStore,
    StoreCapabilities,
    StoreUnavailable,
)
from stepcache_integrations.core.stores.directory import IndexFileError, salvage_database
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.entry_store import EntryStore
from stepcache_integrations.core.stores.errors import (
    CacheCorruptError,
    CacheDiskFullError,
    CacheFileLostError,
    CacheLockedError,
    CacheReadOnlyError,
    CacheStorageError,
)
from stepcache_integrations.core.stores.guard import StoreGuard
from stepcache_integrations.core.stores.local import LocalStore, MemoryStore
from stepcache_integrations.core.stores.memory import MemoryEntryStore
from stepcache_integrations.core.stores.sqlite import CacheFileError, SqliteEntryStore

__all__ = [
    "ANY",
    "CacheCorruptError",
    "CacheDiskFullError",
    "CacheFileError",
    "CacheFileLostError",
    "CacheLockedError",
    "CacheReadOnlyError",
    "CacheStorageError",
    "CacheStore",
    "EntryStore",
    "IndexFileError",
    "LocalStore",
    "MemoryEntryStore",
    "MemoryStore",
    "PoolSettings",
    "PostgresEntryStore",
    "PostgresStore",
    "SqliteEntryStore",
    "SqliteStore",
    "StoreCapabilities",
    "StoreGuard",
    "StoreUnavailable",
    "salvage_database",
]

_POSTGRES = ("PoolSettings", "PostgresEntryStore", "PostgresStore")


def __getattr__(name: str) -> Any:
    # The Postgres stores import psycopg: only when asked for, so the extra stays optional.
    if name in _POSTGRES:
        try:
            from stepcache_integrations.core.stores import postgres
        except ImportError as error:
            raise ImportError(
                f"{name} needs the postgres extra: pip install 'stepcache-integrations[postgres]' "
                f"({error})"
            ) from error
        return getattr(postgres, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
