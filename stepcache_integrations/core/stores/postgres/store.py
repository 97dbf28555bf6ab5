"""One cache for a whole fleet: entries, their vectors and their bookkeeping in one Postgres
database with pgvector.

Every process (on every machine) that opens the same database and schema shares the same
entries: an answer stored by one is an exact or near hit in all the others at once. An entry
and its vector are one row, written in one transaction: they are never apart. Nearest requests
are found with an HNSW index over inner products of unit vectors (cosine similarity), filtered
by namespace; pgvector's iterative index scan keeps the filter from costing recall.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pgvector.psycopg import register_vector
from psycopg import sql

from stepcache_integrations.core.embeddings import (
    Embedder,
    StructuralEmbedder,
    Vectors,
    normalise_rows,
)
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.core.stores.base import (
    ANY,
    AnyValue,
    StoreCapabilities,
    StoreUnavailable,
    TenantFilter,
)
from stepcache_integrations.core.stores.postgres.audit import PostgresAuditLedger
from stepcache_integrations.core.stores.postgres.connection import (
    Connection,
    PoolSettings,
    ReadyPool,
)
from stepcache_integrations.core.stores.postgres.counters import FleetCounters
from stepcache_integrations.core.stores.postgres.rows import COLUMNS, EntryRows
from stepcache_integrations.core.stores.postgres.schema import (
    EmbedderIdentity,
    Tables,
    ensure_pgvector,
    has_vector_column,
    lock_key,
    prepare_tables,
    read_meta,
    vector_column_sql,
    write_meta,
)
from stepcache_integrations.core.stores.sqlite import encode_text

__all__ = ["PostgresStore"]

logger = logging.getLogger(__name__)

_EMBED_BATCH = 256
_GENERATION = "embedder_generation"


class PostgresStore:
    """A :class:`~stepcache_integrations.core.stores.base.CacheStore` in Postgres + pgvector.

    ``StepCache(url=...)`` builds one with the defaults; ``StepCache(store=PostgresStore(url,
    ...))`` takes one with your options.

    Args:
        url: a libpq connection string or URL (``postgresql://user:password@host/db``).
        schema: the Postgres schema holding the cache's tables (several caches can share a
            database); created if missing.
        embedder: turns prompts into vectors (default :class:`StructuralEmbedder`). The
            database remembers which embedder made its vectors: a store opened with another
            one re-embeds every entry (see :meth:`rebuild_index`).
        max_entries: at most this many entries in the whole cache, least recently used
            evicted first (``None``: unbounded; a bounded cache serialises its writers).
        pool: connections per process and time limits, the lookup budget among them
            (:class:`~stepcache_integrations.core.stores.postgres.connection.PoolSettings`:
            4 connections, 50 ms per lookup, enforced by the server).

    Raises:
        ConfigurationError: a ``url`` libpq cannot parse or of another scheme, a ``schema``
            that is not a valid name, a negative bound... A database that is down is not one:
            the store opens, every call fails open until the database answers.

    The request path calls the synchronous protocol methods (each lookup bounded by the
    budget). The ``a``-prefixed methods (``adelete_matching``, ``aclear``, ``asummary``,
    ``acheck``, ``arebuild_index``...) run the long maintenance operations in a worker thread
    for async applications, so an event loop never waits on them. The cache hands the store
    every request's record (``request_counts``): a fleet-wide hit rate.

    Example (needs a running server, so it is shown, not run here; the store tests run it
    against a real Postgres)::

        store = PostgresStore(
            "postgresql://app@db/cache", schema="support_bot", pool=PoolSettings(max_size=8)
        )
        cache = StepCache(store=store)
    """

    def __init__(
        self,
        url: str,
        *,
        schema: str = "stepcache",
        embedder: Embedder | None = None,
        max_entries: int | None = None,
        pool: PoolSettings | None = None,
    ) -> None:
        self.embedder: Embedder = embedder or StructuralEmbedder()
        self.identity = EmbedderIdentity.of(self.embedder)
        self._tables = Tables(schema)
        EntryRows.check_bound(max_entries)
        self.schema_version: int | None = None
        self._generation = 0
        self._generation_lock = threading.Lock()
        self.counters = FleetCounters()
        self.settings = pool or PoolSettings()
        ready = ReadyPool(
            url,
            self.settings,
            prepare=self._prepare,
            configure=self._configure,
            name="stepcache",
        )
        self.rows = EntryRows(ready, self._tables, max_entries)
        ready.start()
        self._capabilities = StoreCapabilities(
            name="postgres",
            persistent=True,
            shared=True,
            location=ready.location,
            lookup_budget=self.settings.lookup_budget,
            request_counts=True,
            options={
                "schema": schema,
                "max_entries": max_entries,
                "pool_min_size": self.settings.kept_open,
                "pool_max_size": self.settings.max_size,
                "lookup_budget": self.settings.lookup_budget,
            },
        )

    # -- opening --------------------------------------------------------------------------------

    def _prepare(self, conn: Connection) -> None:
        """Create or check the tables, then make sure the vectors are this embedder's."""
        tables = self._tables
        self.schema_version = prepare_tables(conn, tables)
        ensure_pgvector(conn, tables)
        register_vector(conn)
        with conn.transaction():
            self._lock_vectors(conn)
            stored = None
            if has_vector_column(conn, tables):
                stored = EmbedderIdentity.from_json(read_meta(conn, tables, "embedder") or "")
            if stored is None or not self.identity.same_as(stored):
                if stored is not None:
                    logger.warning(
                        "%s: vectors were made by another embedder (%s, dim %d); re-embedding "
                        "every entry for %s (dim %d)",
                        tables.name,
                        stored.type,
                        stored.dim,
                        self.identity.type,
                        self.identity.dim,
                    )
                self._reembed(conn)
            self._generation = int(read_meta(conn, tables, _GENERATION) or 0)

    def _configure(self, conn: Connection) -> None:
        register_vector(conn)
        # Keep searching the HNSW graph until k rows of the namespace are found (a namespace
        # filter alone would cost recall); the few rows found are sorted here.
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        # Plan each search for its own namespace: a generic plan of a prepared statement does
        # not know how large the namespace is.
        conn.execute("SET plan_cache_mode = force_custom_plan")

    def _reembed(self, conn: Connection) -> int:
        """Recreate the vector column for this embedder and embed every entry (in the caller's
        transaction, under the vectors lock); returns how many were embedded."""
        tables = self._tables
        for statement in vector_column_sql(tables, self.identity.dim)[:3]:
            conn.execute(statement)
        count = self._embed_missing(conn)
        conn.execute(vector_column_sql(tables, self.identity.dim)[3])
        write_meta(conn, tables, "embedder", self.identity.to_json())
        generation = int(read_meta(conn, tables, _GENERATION) or 0) + 1
        write_meta(conn, tables, _GENERATION, str(generation))
        return count

    def _embed_missing(self, conn: Connection) -> int:
        """Embed every row without a vector (rows stored by an entry store, or after a change
        of embedder); returns how many."""
        tables = self._tables
        done = 0
        last = 0
        while True:
            rows = conn.execute(
                tables.q(
                    f"SELECT {COLUMNS}, seq FROM {{entries}} WHERE embedding IS NULL AND seq > %s "
                    "ORDER BY seq LIMIT %s"
                ),
                (last, _EMBED_BATCH),
            ).fetchall()
            if not rows:
                return done
            last = int(rows[-1][7])
            entries = [e for e in (self.rows.decode(row[:7]) for row in rows) if e is not None]
            if entries:
                vectors = normalise_rows(self.embedder.embed([e.prompt for e in entries]))
                conn.cursor().executemany(
                    tables.q("UPDATE {entries} SET embedding = %s WHERE id = %s"),
                    [(vectors[i], e.id) for i, e in enumerate(entries)],
                )
                done += len(entries)

    @property
    def capabilities(self) -> StoreCapabilities:
        return self._capabilities

    @property
    def location(self) -> str:
        """The database URL without its password."""
        return self.rows.ready.location

    @property
    def ready(self) -> bool:
        """Whether the database has been reached and prepared."""
        return self.rows.ready.ready

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """Wait for a database that was down at start (for tools and tests)."""
        return self.rows.ready.wait_ready(timeout)

    # -- reads ----------------------------------------------------------------------------------

    def get(self, entry_id: str) -> CacheEntry | None:
        return self.rows.get(entry_id)

    def get_by_key(self, key: str) -> CacheEntry | None:
        return self.rows.get_by_key(key)

    def _vector(self, text: str) -> Vectors:
        vector: Vectors = normalise_rows(self.embedder.embed([text]))[0]
        if vector.shape[0] != self.identity.dim:
            raise ValueError(
                f"the embedder returned {vector.shape[0]} dimensions, expected {self.identity.dim}"
            )
        return vector

    def nearest(self, text: str, namespace: str, k: int) -> list[tuple[CacheEntry, float]]:
        if k < 1:
            return []
        vector = self._vector(text)
        for _attempt in range(2):
            generation, rows = self._search(vector, namespace, k)
            if generation == self._generation:
                break
            self._adopt_generation(generation)
        else:  # pragma: no cover - a rebuild between the two attempts
            raise StoreUnavailable("the cache's vectors are being rebuilt")
        found: list[tuple[CacheEntry, float]] = []
        for row in rows:
            if row[1] is None:  # the meta row alone: no entry in this namespace
                continue
            entry = self.rows.decode(row[1:8])
            if entry is not None and entry.namespace == namespace:
                found.append((entry, float(row[8])))
        return sorted(found, key=lambda pair: -pair[1])

    def _search(self, vector: Vectors, namespace: str, k: int) -> tuple[int, list[tuple[Any, ...]]]:
        # One round trip returns the generation of the vectors with the nearest rows, so a
        # process never compares its query with vectors another embedder made.
        query = self._tables.q(
            "SELECT m.value, e.* FROM {meta} AS m LEFT JOIN LATERAL ("
            f" SELECT {COLUMNS}, -(embedding <#> %(v)s) AS similarity FROM {{entries}}"
            " WHERE namespace = %(ns)s AND embedding IS NOT NULL AND m.value = %(gen)s"
            " ORDER BY embedding <#> %(v)s LIMIT %(k)s"
            ") AS e ON true WHERE m.key = 'embedder_generation'"
        )
        params = {"v": vector, "ns": encode_text(namespace), "gen": str(self._generation), "k": k}
        with self.rows.ready.lookup() as conn:
            rows = conn.execute(query, params).fetchall()
        if not rows:
            raise StoreUnavailable(f"{self.location}: the cache has no vectors (being rebuilt?)")
        return int(rows[0][0]), rows

    def _adopt_generation(self, generation: int) -> None:
        """Another process rebuilt the vectors: keep searching them only if they are this
        store's embedder's."""
        with self.rows.ready.lookup() as conn:
            stored = EmbedderIdentity.from_json(read_meta(conn, self._tables, "embedder") or "")
        if not self.identity.same_as(stored):
            raise StoreUnavailable(
                f"{self.location}: the cache's vectors were re-made by another embedder "
                f"({stored.type if stored else 'unknown'}); restart this process with that "
                "embedder, or rebuild_index() to re-embed for this one"
            )
        with self._generation_lock:
            self._generation = generation

    # -- writes ---------------------------------------------------------------------------------

    def put(self, entry: CacheEntry) -> None:
        """Store the entry and its vector in one transaction (or raise and store nothing)."""
        vector = self._vector(entry.prompt)
        with self.rows.ready.write() as conn:
            self._check_generation(conn)
            self.rows.flush_touches(conn)
            self.rows.upsert(conn, entry, vector)
            self.rows.evict(conn, keep=entry.id)

    def put_many(self, entries: Sequence[CacheEntry]) -> None:
        """Store many entries in one transaction, embedded in one batch (to import or warm a
        cache; the request path stores one entry at a time with :meth:`put`)."""
        if not entries:
            return
        vectors = normalise_rows(self.embedder.embed([entry.prompt for entry in entries]))
        with self.rows.ready.maintenance() as conn:
            self._check_generation(conn)
            self.rows.flush_touches(conn)
            for entry, vector in zip(entries, vectors, strict=True):
                self.rows.upsert(conn, entry, vector)
            self.rows.evict(conn, keep=entries[-1].id)

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        """Drop the HNSW index while many entries are imported (:meth:`put_many`), and build
        it once at the end: much faster than growing it entry by entry. Meanwhile nearest
        lookups scan exactly (slower: past the lookup budget they bypass)."""
        index = self._tables.q(
            "DROP INDEX IF EXISTS {index}",
            index=sql.Identifier(self._tables.name, "entries_embedding"),
        )
        with self.rows.ready.maintenance() as conn:
            self._lock_vectors(conn)
            conn.execute(index)
        try:
            yield
        finally:
            with self.rows.ready.maintenance() as conn:
                self._lock_vectors(conn)
                conn.execute("SET LOCAL maintenance_work_mem = '512MB'")
                conn.execute(vector_column_sql(self._tables, self.identity.dim)[3])
                # Fresh statistics: the planner picks the HNSW index for large namespaces.
                conn.execute(self._tables.q("ANALYZE {entries}"))

    def _check_generation(self, conn: Connection) -> None:
        """Refuse to write vectors another embedder's vectors now sit beside (the row is
        locked against a rebuild until the transaction ends)."""
        row = conn.execute(
            self._tables.q("SELECT value FROM {meta} WHERE key = %s FOR SHARE"), (_GENERATION,)
        ).fetchone()
        if row is None or int(row[0]) != self._generation:
            raise StoreUnavailable(
                f"{self.location}: the vectors were rebuilt by another process; "
                "this entry is not stored"
            )

    def touch(self, entry_id: str, now: float) -> None:
        self.rows.touch(entry_id, now)

    def delete(self, entry_ids: Sequence[str]) -> int:
        return self.rows.delete(entry_ids)

    def delete_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> int:
        return len(self.rows.delete_matching(namespace, tenant))

    def delete_created_before(self, timestamp: float) -> int:
        return len(self.rows.delete_created_before(timestamp))

    def clear(self) -> int:
        return self.rows.clear()

    def __len__(self) -> int:
        return self.rows.count()

    def __iter__(self) -> Iterator[CacheEntry]:
        return self.rows.iterate()

    # -- fleet-wide counters ----------------------------------------------------------------------

    def audit_ledger(self) -> PostgresAuditLedger:
        """The fleet's audit counts and suspensions, in this store's schema: every process
        that audits counts into them and sees the same suspensions."""
        return PostgresAuditLedger(self.rows.ready, self._tables)

    def record_request(self, record: StepCacheRecord) -> None:
        """Count a finished request in the fleet-wide counters (the cache calls this after
        every request: the store declares ``request_counts``). Never raises: counts that
        cannot be written now are written later."""
        self.counters.add(record)
        if self.counters.due():
            self._flush_counters(best_effort=True)  # on the request: a lookup's wait at most

    def flush_counters(self) -> bool:
        """Write this process's pending counts now; ``False`` (kept for later) on failure."""
        return self._flush_counters(best_effort=False)

    def _flush_counters(self, *, best_effort: bool) -> bool:
        pending = self.counters.take()
        if not pending:
            return True
        try:
            with self.rows.ready.write(best_effort=best_effort) as conn:
                self.rows.add_counters(conn, pending)
        except Exception as error:
            self.counters.restore(pending)
            logger.debug("fleet counters not written yet: %r", error)
            return False
        return True

    # -- maintenance ----------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        return {
            **self.rows.summary(self.schema_version),
            "embedder": {"type": self.identity.type, "dim": self.identity.dim},
        }

    def check(self) -> dict[str, Any]:
        """Decode every row; count rows without a vector; check the embedder."""
        readable = sum(1 for _ in self.rows.iterate())
        unreadable = self.rows.unreadable()
        with self.rows.ready.maintenance() as conn:
            rows = int(
                (conn.execute(self._tables.q("SELECT count(*) FROM {entries}")).fetchone() or (0,))[
                    0
                ]
            )
            missing = int(
                (
                    conn.execute(
                        self._tables.q("SELECT count(*) FROM {entries} WHERE embedding IS NULL")
                    ).fetchone()
                    or (0,)
                )[0]
            )
            stored = EmbedderIdentity.from_json(read_meta(conn, self._tables, "embedder") or "")
        embedder_ok = self.identity.same_as(stored)
        return {
            "store": {
                "location": self.location,
                "schema": self._tables.name,
                "schema_version": self.schema_version,
                "rows": rows,
                "readable": readable,
                "unreadable": unreadable,
            },
            "entries": readable,
            "index": {"entries": rows - missing, "missing": missing, "extra": 0},
            "embedder_matches": embedder_ok,
            "ok": not unreadable and missing == 0 and embedder_ok,
        }

    def _lock_vectors(self, conn: Connection) -> None:
        """One process at a time (re)makes vectors: the lock lasts to the end of the
        transaction."""
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(self._tables.name, "vectors"),))

    def sync(self) -> tuple[int, int]:
        """Embed the rows stored without a vector (by a :class:`PostgresEntryStore`);
        returns ``(added, 0)``: a row and its vector are never apart otherwise."""
        with self.rows.ready.maintenance() as conn:
            conn.execute(
                "SELECT pg_advisory_xact_lock(%s)", (lock_key(self._tables.name, "vectors"),)
            )
            return self._embed_missing(conn), 0

    def rebuild_index(self) -> int:
        """Re-embed every readable entry with this store's embedder and rebuild the HNSW index,
        in one transaction; returns the count. Other processes using another embedder then
        answer with the model (``bypass``) instead of comparing incomparable vectors."""
        with self.rows.ready.maintenance() as conn:
            conn.execute(
                "SELECT pg_advisory_xact_lock(%s)", (lock_key(self._tables.name, "vectors"),)
            )
            count = self._reembed(conn)
            generation = int(read_meta(conn, self._tables, _GENERATION) or 0)
        with self._generation_lock:
            self._generation = generation
        return count

    def save_index(self) -> Path | None:
        """Nothing to save: the index lives in the database."""
        return None

    def close(self) -> None:
        """Write pending counters and last-use times, close the pool (idempotent)."""
        if self.rows.ready.ready:
            self.flush_counters()
        self.rows.close()

    # -- async maintenance ------------------------------------------------------------------------

    async def adelete_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> int:
        """:meth:`delete_matching` without blocking the event loop."""
        return await asyncio.to_thread(self.delete_matching, namespace=namespace, tenant=tenant)

    async def adelete_created_before(self, timestamp: float) -> int:
        return await asyncio.to_thread(self.delete_created_before, timestamp)

    async def aclear(self) -> int:
        return await asyncio.to_thread(self.clear)

    async def asummary(self) -> dict[str, Any]:
        return await asyncio.to_thread(self.summary)

    async def acheck(self) -> dict[str, Any]:
        return await asyncio.to_thread(self.check)

    async def arebuild_index(self) -> int:
        return await asyncio.to_thread(self.rebuild_index)

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    def __repr__(self) -> str:
        return f"PostgresStore({self.location!r}, schema={self._tables.name!r})"
