"""Entries in Postgres without vectors: the payload half of a
:class:`~stepcache_integrations.core.stores.local.LocalStore` whose vector side is another
vector store (LangChain's or LlamaIndex's ``PGVectorStore``, any other)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.stores.base import ANY, AnyValue, TenantFilter
from stepcache_integrations.core.stores.postgres.connection import (
    Connection,
    PoolSettings,
    ReadyPool,
)
from stepcache_integrations.core.stores.postgres.rows import EntryRows, tenant_clause
from stepcache_integrations.core.stores.postgres.schema import Tables, prepare_tables

__all__ = ["PostgresEntryStore"]


class PostgresEntryStore:
    """An :class:`~stepcache_integrations.core.stores.entry_store.EntryStore` in Postgres:
    shared by every process that opens the same database and schema, bounded by
    least-recent use across all of them. Needs neither pgvector nor an embedder.

    Pair it with a vector index to make a cache::

        from stepcache_integrations.core.stores import LocalStore, PostgresEntryStore
        from stepcache_integrations.langchain import VectorStoreIndex
        entries = PostgresEntryStore("postgresql://app@db/cache")
        cache = StepCache(store=LocalStore(entries, VectorStoreIndex(pg_vector_store)))

    Args:
        url: a libpq connection string or URL.
        schema: the Postgres schema holding the cache's tables (created if missing).
        max_entries: at most this many entries in the schema (``None``: unbounded).
        pool: connection pool sizes and time limits.

    Example:
        >>> PostgresEntryStore.__name__
        'PostgresEntryStore'
    """

    def __init__(
        self,
        url: str,
        *,
        schema: str = "stepcache",
        max_entries: int | None = None,
        pool: PoolSettings | None = None,
    ) -> None:
        self._tables = Tables(schema)
        self.schema_version: int | None = None
        ready = ReadyPool(
            url, pool or PoolSettings(), prepare=self._prepare, name="stepcache-entries"
        )
        self.rows = EntryRows(ready, self._tables, max_entries)
        ready.start()

    def _prepare(self, conn: Connection) -> None:
        # Runs when the pool is first made: at construction, or later if the database was down.
        self.schema_version = prepare_tables(conn, self._tables)

    @property
    def max_entries(self) -> int | None:
        return self.rows.max_entries

    @property
    def location(self) -> str:
        return self.rows.ready.location

    def put(self, entry: CacheEntry) -> list[str]:
        with self.rows.ready.write() as conn:
            self.rows.flush_touches(conn)
            self.rows.upsert(conn, entry)
            return self.rows.evict(conn, keep=entry.id)

    def get(self, entry_id: str) -> CacheEntry | None:
        return self.rows.get(entry_id)

    def get_by_key(self, key: str) -> CacheEntry | None:
        return self.rows.get_by_key(key)

    def touch(self, entry_id: str, now: float) -> None:
        self.rows.touch(entry_id, now)

    def delete(self, entry_ids: Sequence[str]) -> int:
        return self.rows.delete(entry_ids)

    def clear(self) -> None:
        self.rows.clear()

    def ids_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> list[str]:
        """Ids of every row (readable or not) of a namespace and/or tenant."""
        where, params = tenant_clause(namespace, tenant)
        return self.rows.ids_where(where, params)

    def ids_created_before(self, timestamp: float) -> list[str]:
        return self.rows.ids_where(" WHERE created_at < %s", [timestamp])

    def counts(self) -> dict[tuple[str, str | None], int]:
        return self.rows.counts()

    def __len__(self) -> int:
        return self.rows.count()

    def __iter__(self) -> Iterator[CacheEntry]:
        return self.rows.iterate()

    def delete_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> int:
        """Delete every row (readable or not) of a namespace and/or tenant in one statement;
        returns how many (``tenant=None``: the rows stored without a tenant)."""
        return len(self.rows.delete_matching(namespace, tenant))

    def delete_created_before(self, timestamp: float) -> int:
        """Delete every row created before ``timestamp`` (time to live); returns how many."""
        return len(self.rows.delete_created_before(timestamp))

    def summary(self) -> dict[str, Any]:
        """Entries per namespace and tenant, size in the database, the fleet's counters."""
        return self.rows.summary(self.schema_version)

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """Wait for a database that was down at start (for tools)."""
        return self.rows.ready.wait_ready(timeout)

    def close(self) -> None:
        """Write buffered last-use times and close the pool (idempotent)."""
        self.rows.close()

    def __repr__(self) -> str:
        return f"PostgresEntryStore({self.location!r}, max_entries={self.max_entries})"
