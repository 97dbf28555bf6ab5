"""Entry rows in Postgres: what the entry store and the full store share.

Reads decode the versioned JSON payload; a row that cannot be decoded is reported (logged
once, listed by ``check()``) and skipped, never deleted by a read. Last-use times are buffered
(written with the next store, or within about two seconds) so a hit costs one read.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from stepcache_integrations.core.configuration import check_count
from stepcache_integrations.core.entries import CacheEntry, EntryDecodeError
from stepcache_integrations.core.stores.base import ANY, AnyValue, TenantFilter
from stepcache_integrations.core.stores.postgres.connection import Connection, ReadyPool
from stepcache_integrations.core.stores.postgres.counters import fleet_summary
from stepcache_integrations.core.stores.postgres.schema import Tables, lock_key
from stepcache_integrations.core.stores.sqlite import decode_row, encode_text, filter_clause

__all__ = ["COLUMNS", "EntryRows", "encode_payload", "tenant_clause"]

logger = logging.getLogger(__name__)

COLUMNS = "id, key, namespace, tenant, created_at, last_used_at, payload"
_TOUCH_BATCH = 256
_TOUCH_DELAY = 2.0
_PAGE = 1000


def encode_payload(entry: CacheEntry) -> str:
    """The stored JSON of an entry: ASCII (lone surrogates and NUL become escapes), no NaN."""
    return json.dumps(entry.to_dict(), ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def tenant_clause(namespace: str | AnyValue, tenant: TenantFilter) -> tuple[str, list[bytes]]:
    """A ``WHERE`` clause (or ``""``) and its parameters for a store filter: :data:`ANY` for no
    filter; ``tenant=None`` matches only the rows stored without a tenant.

    Example:
        >>> tenant_clause(ANY, None)
        (' WHERE tenant IS NULL', [])
        >>> tenant_clause("ns", ANY)[0]
        ' WHERE namespace = %s'
    """
    return filter_clause(namespace, tenant, "%s")


def _text(value: object) -> str | None:
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else None


class EntryRows:
    """The ``entries`` table of one cache: reads, upserts, eviction, deletions, counters."""

    def __init__(self, ready: ReadyPool, tables: Tables, max_entries: int | None) -> None:
        self.check_bound(max_entries)
        self.ready = ready
        self.tables = tables
        self.max_entries = max_entries
        self._lock = threading.Lock()
        self._pending_touches: dict[str, float] = {}
        self._oldest_touch = 0.0
        self._unreadable: dict[str, str] = {}

    @staticmethod
    def check_bound(max_entries: int | None) -> None:
        """Refuse a bound that is not a positive integer."""
        if max_entries is not None:
            check_count("max_entries", max_entries)

    def q(self, template: str) -> Any:
        return self.tables.q(template)

    # -- decoding ------------------------------------------------------------------------------

    def decode(self, row: Sequence[Any]) -> CacheEntry | None:
        """An entry from ``COLUMNS``; ``None`` (reported once) when it cannot be decoded."""
        raw = (row[0], row[1], bytes(row[2]), None if row[3] is None else bytes(row[3]), *row[4:7])
        try:
            entry = decode_row(raw)
        except EntryDecodeError as error:
            entry_id = str(row[0])
            with self._lock:
                first = entry_id not in self._unreadable
                self._unreadable[entry_id] = str(error)
            if first:
                logger.warning(
                    "%s: entry %s cannot be decoded and is skipped (kept): %s",
                    self.ready.location,
                    entry_id,
                    error,
                )
            return None
        with self._lock:
            pending = self._pending_touches.get(entry.id)
        return entry.touched(pending) if pending and pending > entry.last_used_at else entry

    # -- lookups -------------------------------------------------------------------------------

    def get(self, entry_id: str) -> CacheEntry | None:
        with self.ready.lookup() as conn:
            row = conn.execute(
                self.q(f"SELECT {COLUMNS} FROM {{entries}} WHERE id = %s"), (entry_id,)
            ).fetchone()
        return None if row is None else self.decode(row)

    def get_by_key(self, key: str) -> CacheEntry | None:
        with self.ready.lookup() as conn:
            row = conn.execute(
                self.q(f"SELECT {COLUMNS} FROM {{entries}} WHERE key = %s"), (key,)
            ).fetchone()
        entry = None if row is None else self.decode(row)
        return entry if entry is not None and entry.key == key else None

    # -- writes --------------------------------------------------------------------------------

    def upsert(self, conn: Connection, entry: CacheEntry, vector: Any = None) -> None:
        """Insert or replace ``entry`` (and its vector, when given) in the caller's transaction."""
        columns = f"{COLUMNS}" + (", embedding" if vector is not None else "")
        marks = ", ".join(["%s"] * (8 if vector is not None else 7))
        updates = (
            "key = excluded.key, namespace = excluded.namespace, tenant = excluded.tenant,"
            " created_at = excluded.created_at, last_used_at = excluded.last_used_at,"
            " payload = excluded.payload, seq = excluded.seq"
            + (", embedding = excluded.embedding" if vector is not None else "")
        )
        params: list[Any] = [
            entry.id,
            entry.key,
            encode_text(entry.namespace),
            None if entry.tenant is None else encode_text(entry.tenant),
            entry.created_at,
            entry.last_used_at,
            encode_payload(entry),
        ]
        if vector is not None:
            params.append(vector)
        conn.execute(
            self.q(
                f"INSERT INTO {{entries}} ({columns}) VALUES ({marks}) "
                f"ON CONFLICT (id) DO UPDATE SET {updates}"
            ),
            params,
        )
        with self._lock:
            self._pending_touches.pop(entry.id, None)
            self._unreadable.pop(entry.id, None)

    def evict(self, conn: Connection, keep: str) -> list[str]:
        """Delete the least recently used rows beyond ``max_entries`` (never ``keep``).

        Writers of one bounded cache take turns here (an advisory lock held to the end of the
        transaction), so the bound holds exactly across a fleet.
        """
        if self.max_entries is None:
            return []
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(self.tables.name, "evict"),))
        (count,) = conn.execute(self.q("SELECT count(*) FROM {entries}")).fetchone() or (0,)
        excess = int(count) - self.max_entries
        if excess <= 0:
            return []
        rows = conn.execute(
            self.q(
                "DELETE FROM {entries} WHERE id IN (SELECT id FROM {entries} WHERE id <> %s "
                "ORDER BY last_used_at, seq LIMIT %s) RETURNING id"
            ),
            (keep, excess),
        ).fetchall()
        evicted = [str(entry_id) for (entry_id,) in rows]
        self._forget(evicted)
        return evicted

    def _forget(self, ids: Sequence[str]) -> None:
        with self._lock:
            for entry_id in ids:
                self._pending_touches.pop(entry_id, None)
                self._unreadable.pop(entry_id, None)

    def touch(self, entry_id: str, now: float) -> None:
        """Record a use; written in batches (a lost touch only ages an entry's LRU rank)."""
        with self._lock:
            if not self._pending_touches:
                self._oldest_touch = time.monotonic()
            self._pending_touches[entry_id] = max(now, self._pending_touches.get(entry_id, now))
            due = (
                len(self._pending_touches) >= _TOUCH_BATCH
                or time.monotonic() - self._oldest_touch > _TOUCH_DELAY
            )
        if due:
            # On the request path: never waits longer than a lookup for a connection.
            with self.ready.write(best_effort=True) as conn:
                self.flush_touches(conn)

    def flush_touches(self, conn: Connection) -> None:
        """Write buffered last-use times in the caller's transaction."""
        with self._lock:
            pending, self._pending_touches = self._pending_touches, {}
        if not pending:
            return
        try:
            conn.execute(
                self.q(
                    "UPDATE {entries} AS e SET last_used_at = GREATEST(e.last_used_at, t.at) "
                    "FROM unnest(%s::text[], %s::float8[]) AS t(id, at) WHERE e.id = t.id"
                ),
                (list(pending), list(pending.values())),
            )
        except BaseException:
            with self._lock:  # keep them for the next attempt
                for entry_id, at in pending.items():
                    self._pending_touches[entry_id] = max(
                        at, self._pending_touches.get(entry_id, at)
                    )
            raise

    def add_counters(self, conn: Connection, counters: dict[str, float]) -> None:
        """Add to the fleet-wide counters (sorted: concurrent writers never deadlock)."""
        names = sorted(counters)
        conn.execute(
            self.q(
                "INSERT INTO {stats} (name, value) "
                "SELECT * FROM unnest(%s::text[], %s::float8[]) "
                "ON CONFLICT (name) DO UPDATE SET value = {stats}.value + excluded.value"
            ),
            (names, [counters[name] for name in names]),
        )

    def counters(self) -> dict[str, float]:
        with self.ready.maintenance() as conn:
            rows = conn.execute(self.q("SELECT name, value FROM {stats}")).fetchall()
        return {str(name): float(value) for name, value in rows}

    # -- deletions -----------------------------------------------------------------------------

    def delete(self, entry_ids: Sequence[str]) -> int:
        ids = list(dict.fromkeys(entry_ids))
        if not ids:
            return 0
        with self.ready.write() as conn:
            removed = conn.execute(
                self.q("DELETE FROM {entries} WHERE id = ANY(%s)"), (ids,)
            ).rowcount
        self._forget(ids)
        return int(removed)

    def delete_where(self, where: str, params: Sequence[Any]) -> list[str]:
        """Delete every row (readable or not) matching ``where``; returns their ids."""
        with self.ready.maintenance() as conn:
            rows = conn.execute(
                self.q(f"DELETE FROM {{entries}}{where} RETURNING id"), params
            ).fetchall()
        ids = [str(entry_id) for (entry_id,) in rows]
        self._forget(ids)
        return ids

    def delete_matching(
        self, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> list[str]:
        where, params = tenant_clause(namespace, tenant)
        return self.delete_where(where, params)

    def delete_created_before(self, timestamp: float) -> list[str]:
        return self.delete_where(" WHERE created_at < %s", [timestamp])

    def clear(self) -> int:
        with self.ready.maintenance() as conn:
            removed = conn.execute(self.q("DELETE FROM {entries}")).rowcount
        with self._lock:
            self._pending_touches.clear()
            self._unreadable.clear()
        return int(removed)

    # -- listing -------------------------------------------------------------------------------

    def ids_where(self, where: str, params: Sequence[Any]) -> list[str]:
        with self.ready.maintenance() as conn:
            rows = conn.execute(self.q(f"SELECT id FROM {{entries}}{where}"), params).fetchall()
        return [str(entry_id) for (entry_id,) in rows]

    def counts(self) -> dict[tuple[str, str | None], int]:
        with self.ready.maintenance() as conn:
            rows = conn.execute(
                self.q(
                    "SELECT namespace, tenant, count(*) FROM {entries} GROUP BY namespace, tenant"
                )
            ).fetchall()
        out: dict[tuple[str, str | None], int] = {}
        for namespace, tenant, count in rows:
            name = _text(bytes(namespace))
            if name is not None:
                out[(name, _text(None if tenant is None else bytes(tenant)))] = int(count)
        return out

    def count(self) -> int:
        with self.ready.maintenance() as conn:
            (count,) = conn.execute(self.q("SELECT count(*) FROM {entries}")).fetchone() or (0,)
        return int(count)

    def iterate(self) -> Iterator[CacheEntry]:
        """Every decodable entry, read in pages in the order they were stored."""
        last = 0
        while True:
            with self.ready.maintenance() as conn:
                rows = conn.execute(
                    self.q(
                        f"SELECT {COLUMNS}, seq FROM {{entries}} WHERE seq > %s "
                        "ORDER BY seq LIMIT %s"
                    ),
                    (last, _PAGE),
                ).fetchall()
            for row in rows:
                entry = self.decode(row[:7])
                if entry is not None:
                    yield entry
            if len(rows) < _PAGE:
                return
            last = int(rows[-1][7])

    def summary(self, schema_version: int | None) -> dict[str, Any]:
        """What ``summary()`` of a Postgres store reports (JSON)."""
        counts = self.counts()
        return {
            "store": "postgres",
            "location": self.ready.location,
            "schema": self.tables.name,
            "schema_version": schema_version,
            "entries": sum(counts.values()),
            "by_namespace_and_tenant": [
                {"namespace": namespace, "tenant": tenant, "entries": count}
                for (namespace, tenant), count in sorted(counts.items(), key=str)
            ],
            "size_bytes": self.size_bytes(),
            "fleet": fleet_summary(self.counters()),
            "pool": self.ready.stats(),
        }

    def unreadable(self) -> dict[str, str]:
        with self._lock:
            return dict(self._unreadable)

    def size_bytes(self) -> int:
        """Bytes the cache's tables and indexes take in the database."""
        with self.ready.maintenance() as conn:
            row = conn.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = %s AND c.relkind = 'r'",
                (self.tables.name,),
            ).fetchone()
        return int(row[0]) if row else 0

    def close(self) -> None:
        """Write buffered last-use times (best effort) and close the pool."""
        try:
            if self.ready.ready:
                with self.ready.write() as conn:
                    self.flush_touches(conn)
        except Exception as error:
            logger.warning(
                "%s: last-use times not written at close: %r", self.ready.location, error
            )
        self.ready.close()
