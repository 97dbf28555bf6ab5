"""Stores: where a cache keeps its entries, behind one protocol
(:class:`~stepcache_integrations.core.stores.base.CacheStore`)."""

from stepcache_integrations.core.stores.base import (
    ANY,
    CacheStore,
    StoreCapabilities,
    StoreUnavailable,
)
from stepcache_integrations.core.stores.directory import IndexFileError, salvage_database
from stepcache_integrations.core.stores.entry_store import EntryStore
from stepcache_integrations.core.stores.guard import StoreGuard
from stepcache_integrations.core.stores.local import LocalStore
from stepcache_integrations.core.stores.memory import MemoryEntryStore
from stepcache_integrations.core.stores.sqlite import CacheFileError, SqliteEntryStore

__all__ = [
    "ANY",
    "CacheFileError",
    "CacheStore",
    "EntryStore",
    "IndexFileError",
    "LocalStore",
    "MemoryEntryStore",
    "SqliteEntryStore",
    "StoreCapabilities",
    "StoreGuard",
    "StoreUnavailable",
    "salvage_database",
]
