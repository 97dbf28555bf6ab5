"""Entries in SQLite: durable, shared by processes, bounded by least-recent use.

One row per entry. The entry itself is the versioned JSON of :meth:`CacheEntry.to_dict`
(``payload``); ``id``, ``key``, ``namespace``, ``tenant``, ``created_at``, ``last_used_at`` and
``seq`` are columns with indexes, so lookups, eviction and deletion by namespace or tenant never
decode JSON. The file is in WAL mode: readers never block, writers are serialised by SQLite's
own lock, so several processes can share one file without any lock of ours.

Durability: with ``durability="full"`` (the default) a commit is on disk (fsync) before
:meth:`SqliteEntryStore.put` returns, so an acknowledged entry survives a killed process and a
power cut; ``"normal"`` survives a killed process only, and writes about 30 times faster.

A row that cannot be decoded (corrupt, or written by another format version) is reported
(logged once, listed by :meth:`SqliteEntryStore.health` and :meth:`SqliteEntryStore.check`)
and skipped; it is never deleted by a read.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from stepcache_integrations.core.entries import CacheEntry, EntryDecodeError
from stepcache_integrations.core.stores.base import ANY, AnyValue, TenantFilter

__all__ = [
    "DB_FORMAT",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "CacheFileError",
    "Durability",
    "SqliteEntryStore",
    "StoreHealth",
    "decode_row",
    "encode_text",
    "inspect_sqlite_file",
]

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
DB_FORMAT = "stepcache-entries"

# MIGRATIONS[n] upgrades a database from schema n to n + 1 inside one write transaction.
# Schema 1 is the first released schema, so there is nothing to migrate yet.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {}

Durability = Literal["full", "normal"]

_SQLITE_MAGIC = b"SQLite format 3\x00"
_TOUCH_BATCH = 256  # pending last-use updates written in one transaction
_TOUCH_DELAY = 2.0  # seconds a last-use update may wait before it is written
_CHUNK = 500  # ids per DELETE statement (below SQLite's parameter limit)

_COLUMNS = "id, key, namespace, tenant, created_at, last_used_at, payload"

_SCHEMA = (
    "CREATE TABLE stepcache_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE entries ("
    " id TEXT PRIMARY KEY,"
    " key TEXT NOT NULL,"
    " namespace BLOB NOT NULL,"
    " tenant BLOB,"
    " created_at REAL NOT NULL,"
    " last_used_at REAL NOT NULL,"
    " seq INTEGER NOT NULL,"
    " payload TEXT NOT NULL)",
    "CREATE INDEX entries_key ON entries (key)",
    "CREATE INDEX entries_namespace ON entries (namespace)",
    "CREATE INDEX entries_tenant ON entries (tenant)",
    "CREATE INDEX entries_last_used ON entries (last_used_at)",
    "CREATE INDEX entries_created ON entries (created_at)",
    "CREATE INDEX entries_seq ON entries (seq)",
)


class CacheFileError(ValueError):
    """A cache file is corrupt, truncated, foreign or of an unsupported version.

    ``path`` names the file; the message says what is wrong and what to do.

    Example:
        >>> str(CacheFileError("/tmp/c/entries.sqlite", "not a SQLite database"))
        '/tmp/c/entries.sqlite: not a SQLite database'
    """

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


@dataclass(frozen=True)
class StoreHealth:
    """What a store knows about its own state.

    ``unreadable`` maps the id of every row that failed to decode to the reason; such rows
    are skipped, never deleted. ``integrity`` is SQLite's ``quick_check`` verdict (``None``
    when not checked).

    Example:
        >>> StoreHealth(path="x.sqlite", schema_version=1, rows=2, readable=2).ok
        True
    """

    path: str
    schema_version: int
    rows: int
    readable: int | None = None
    unreadable: dict[str, str] = field(default_factory=dict)
    integrity: str | None = None

    @property
    def ok(self) -> bool:
        return not self.unreadable and self.integrity in (None, "ok")

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "schema_version": self.schema_version,
            "rows": self.rows,
            "readable": self.readable,
            "unreadable": dict(self.unreadable),
            "integrity": self.integrity,
            "ok": self.ok,
        }


def encode_text(text: str) -> bytes:
    """Namespace and tenant columns are UTF-8 bytes; lone surrogates survive (no crash)."""
    return text.encode("utf-8", "surrogatepass")


def _encode_payload(entry: CacheEntry) -> str:
    # ASCII JSON: lone surrogates in a prompt or answer become \\ud800 escapes instead of
    # failing SQLite's UTF-8 encoding.
    return json.dumps(entry.to_dict(), ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def decode_row(row: Sequence[object]) -> CacheEntry:
    """Decode ``(id, key, namespace, tenant, created_at, last_used_at, payload)``.

    Anything malformed, or columns that disagree with the payload, raises
    :class:`EntryDecodeError`; nothing else escapes.

    Example:
        >>> decode_row(("x",))
        Traceback (most recent call last):
        ...
        stepcache_integrations.core.entries.EntryDecodeError: a row has 7 columns, got 1
    """
    if not isinstance(row, tuple | list) or len(row) != 7:
        size = len(row) if isinstance(row, tuple | list) else type(row).__name__
        raise EntryDecodeError(f"a row has 7 columns, got {size}")
    entry_id, key, namespace, tenant, _created, last_used, payload = row
    if isinstance(payload, bytes):
        try:
            payload = payload.decode("utf-8")
        except UnicodeDecodeError as error:
            raise EntryDecodeError(f"payload is not UTF-8 ({error})") from None
    if not isinstance(payload, str):
        raise EntryDecodeError(f"payload must be JSON text, got {type(payload).__name__}")
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError) as error:
        raise EntryDecodeError(f"payload is not valid JSON ({error})") from None
    entry = CacheEntry.from_dict(data)
    if entry_id != entry.id or key != entry.key:
        raise EntryDecodeError("the id or key column disagrees with the payload")
    if namespace != encode_text(entry.namespace):
        raise EntryDecodeError("the namespace column disagrees with the payload")
    if tenant != (None if entry.tenant is None else encode_text(entry.tenant)):
        raise EntryDecodeError("the tenant column disagrees with the payload")
    # The column is the authority for last use: touches update it without rewriting JSON.
    if (
        isinstance(last_used, int | float)
        and not isinstance(last_used, bool)
        and math.isfinite(last_used)
        and last_used != entry.last_used_at
    ):
        entry = replace(entry, last_used_at=float(last_used))
    return entry


def inspect_sqlite_file(path: Path) -> None:
    """Cheap checks of a database file's header; raise :class:`CacheFileError` if it is
    not a SQLite file or is shorter than its header says (truncated).

    An empty file is accepted (SQLite treats it as an empty database).
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as error:
        raise CacheFileError(path, f"cannot be read ({error})") from error
    if size == 0:
        return
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise CacheFileError(
            path,
            "not a SQLite database (corrupt, truncated or foreign file); restore it from a "
            "backup or move it away to start an empty cache",
        )
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise CacheFileError(path, f"corrupt SQLite header (page size {page_size})")
    pages = int.from_bytes(header[28:32], "big")
    # The in-header page count is valid only when "version-valid-for" equals the change
    # counter (SQLite file format, section 1.3.7).
    header_count_valid = header[92:96] == header[24:28] and pages > 0
    if size % page_size or (header_count_valid and size < pages * page_size):
        raise CacheFileError(
            path,
            f"truncated SQLite database ({size} bytes, header says {pages} pages of "
            f"{page_size} bytes); restore it from a backup or salvage it with "
            "stepcache_integrations.core.stores.directory.salvage_database",
        )


class SqliteEntryStore:
    """An :class:`~stepcache_integrations.core.entries.EntryStore` in one SQLite file.

    Thread-safe (one connection behind a lock) and safe for several processes on the same
    file (SQLite's WAL locking). ``max_entries`` bounds the file: the least recently used
    entries are evicted when a new one is stored.

    Args:
        path: the database file (created with its schema if missing or empty).
        max_entries: at most this many entries (``None``: unbounded).
        durability: ``"full"`` fsyncs every commit; ``"normal"`` survives a killed process
            but not a power cut.
        timeout: seconds to wait for another process's write lock before failing.

    Example:
        >>> import tempfile, pathlib
        >>> from stepcache_integrations.core.steps import Step
        >>> db = pathlib.Path(tempfile.mkdtemp()) / "entries.sqlite"
        >>> store = SqliteEntryStore(db, max_entries=100)
        >>> entry = CacheEntry.create("ns", None, "Solve 2x = 4", [Step("x = 2")], "paragraph")
        >>> store.put(entry)
        []
        >>> store.get(entry.id).answer
        'x = 2'
        >>> store.close()
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_entries: int | None = None,
        durability: Durability = "full",
        timeout: float = 30.0,
    ) -> None:
        if max_entries is not None and (isinstance(max_entries, bool) or max_entries <= 0):
            raise ValueError(f"max_entries must be positive, got {max_entries!r}")
        if durability not in ("full", "normal"):
            raise ValueError(f"durability must be 'full' or 'normal', got {durability!r}")
        self.path = Path(path)
        self.max_entries = max_entries
        self.durability: Durability = durability
        self._lock = threading.RLock()
        self._pending_touches: dict[str, float] = {}
        self._oldest_touch = 0.0
        self._unreadable: dict[str, str] = {}
        self._closed = False
        if self.path.is_dir():
            raise CacheFileError(self.path, "is a directory, expected a SQLite database file")
        if self.path.exists():
            inspect_sqlite_file(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._conn = sqlite3.connect(
                str(self.path), timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise CacheFileError(self.path, f"cannot be opened ({error})") from error
        try:
            self.schema_version = self._prepare()
        except BaseException:
            self._conn.close()
            raise

    # -- opening -------------------------------------------------------------------------------

    def _tables(self) -> set[str]:
        rows = self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {str(name) for (name,) in rows}

    def _prepare(self) -> int:
        conn = self._conn
        try:
            tables = self._tables()
        except sqlite3.DatabaseError as error:
            raise CacheFileError(
                self.path, f"not a readable SQLite database ({error}); corrupt or foreign file"
            ) from error
        if tables and "stepcache_meta" not in tables:
            # Never touch (not even switch the journal mode of) a database that is not ours.
            raise CacheFileError(
                self.path,
                "is a SQLite database of another application (tables: "
                f"{', '.join(sorted(tables)[:5])}); use another cache path",
            )
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise CacheFileError(
                    self.path,
                    f"cannot use WAL journaling (got {mode!r}); network filesystems are not "
                    "supported",
                )
            conn.execute(f"PRAGMA synchronous = {self.durability.upper()}")
            if not tables:
                self._initialise()
            return self._check_version()
        except sqlite3.DatabaseError as error:
            raise self._file_error(error) from error

    def _initialise(self) -> None:
        with self._transaction() as conn:
            # Another process may have created the schema while we waited for the lock.
            if "stepcache_meta" in self._tables():
                return
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.executemany(
                "INSERT INTO stepcache_meta (key, value) VALUES (?, ?)",
                [("format", DB_FORMAT), ("schema_version", str(SCHEMA_VERSION)), ("seq", "0")],
            )

    def _meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM stepcache_meta WHERE key = ?", (key,))
        found = row.fetchone()
        return None if found is None else str(found[0])

    def _check_version(self) -> int:
        if self._meta("format") != DB_FORMAT:
            raise CacheFileError(self.path, "is not a stepcache entry database (foreign file)")
        raw = self._meta("schema_version")
        if raw is None or not raw.isdigit():
            raise CacheFileError(self.path, f"corrupt schema version {raw!r}")
        version = int(raw)
        if version > SCHEMA_VERSION:
            raise CacheFileError(
                self.path,
                f"was written by a newer stepcache-integrations (schema {version}; this version "
                f"reads schema {SCHEMA_VERSION} and older): upgrade the package or use another "
                "path",
            )
        if version < SCHEMA_VERSION:
            version = self._migrate(version)
        return version

    def _migrate(self, version: int) -> int:
        with self._transaction() as conn:
            # Re-read under the write lock: another process may have migrated meanwhile.
            current = int(self._meta("schema_version") or version)
            while current < SCHEMA_VERSION:
                step = MIGRATIONS.get(current)
                if step is None:
                    raise CacheFileError(
                        self.path,
                        f"was written with schema {current}, which this version "
                        f"(schema {SCHEMA_VERSION}) cannot migrate; open it with the version "
                        "that wrote it, or use another path",
                    )
                step(conn)
                current += 1
                conn.execute(
                    "UPDATE stepcache_meta SET value = ? WHERE key = 'schema_version'",
                    (str(current),),
                )
            logger.info("migrated %s from schema %d to %d", self.path, version, current)
            return current

    # -- plumbing ------------------------------------------------------------------------------

    def _file_error(self, error: sqlite3.Error) -> Exception:
        message = str(error)
        if isinstance(error, sqlite3.OperationalError) and (
            "locked" in message or "busy" in message
        ):
            return error  # contention, not damage: the caller may retry
        return CacheFileError(
            self.path,
            f"SQLite error ({message}); the file may be corrupt: run check() or "
            "stepcache_integrations.core.stores.directory.salvage_database",
        )

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"the entry store {self.path} is closed")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: the database's write lock is taken up front (IMMEDIATE), so
        two writers never deadlock upgrading read locks."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    @contextmanager
    def _guard(self) -> Iterator[sqlite3.Connection]:
        """The lock, an open check, and SQLite errors turned into errors naming the file."""
        with self._lock:
            self._check_open()
            try:
                yield self._conn
            except sqlite3.Error as error:
                raise self._file_error(error) from error

    def _report(self, entry_id: str, reason: str) -> None:
        if entry_id not in self._unreadable:
            logger.warning(
                "%s: entry %s cannot be decoded and is skipped (kept in the file): %s",
                self.path,
                entry_id,
                reason,
            )
        self._unreadable[entry_id] = reason

    def _decode(self, row: Sequence[object]) -> CacheEntry | None:
        try:
            entry = decode_row(row)
        except EntryDecodeError as error:
            self._report(str(row[0]), str(error))
            return None
        pending = self._pending_touches.get(entry.id)
        if pending is not None and pending > entry.last_used_at:
            entry = entry.touched(pending)
        return entry

    def _flush_touches(self, conn: sqlite3.Connection) -> None:
        if self._pending_touches:
            conn.executemany(
                "UPDATE entries SET last_used_at = MAX(last_used_at, ?) WHERE id = ?",
                [(now, entry_id) for entry_id, now in self._pending_touches.items()],
            )
            self._pending_touches.clear()

    def _next_seq(self, conn: sqlite3.Connection) -> int:
        conn.execute(
            "UPDATE stepcache_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'seq'"
        )
        return int(self._meta("seq") or 0)

    def _evict(self, conn: sqlite3.Connection, keep: Sequence[str]) -> list[str]:
        if self.max_entries is None:
            return []
        (count,) = conn.execute("SELECT COUNT(*) FROM entries").fetchone()
        excess = int(count) - self.max_entries
        if excess <= 0:
            return []
        marks = ",".join("?" * len(keep))
        rows = conn.execute(
            f"SELECT id FROM entries WHERE id NOT IN ({marks}) "
            "ORDER BY last_used_at ASC, seq ASC LIMIT ?",
            (*keep, excess),
        )
        evicted = [str(entry_id) for (entry_id,) in rows]
        self._delete_ids(conn, evicted)
        return evicted

    def _delete_ids(self, conn: sqlite3.Connection, ids: Sequence[str]) -> int:
        removed = 0
        for start in range(0, len(ids), _CHUNK):
            chunk = list(ids[start : start + _CHUNK])
            marks = ",".join("?" * len(chunk))
            removed += conn.execute(f"DELETE FROM entries WHERE id IN ({marks})", chunk).rowcount
        for entry_id in ids:
            self._pending_touches.pop(entry_id, None)
            self._unreadable.pop(entry_id, None)
        return removed

    def _insert(self, conn: sqlite3.Connection, entry: CacheEntry, payload: str) -> None:
        if entry.id in self._unreadable:
            logger.warning("%s: unreadable entry %s replaced by a new answer", self.path, entry.id)
        conn.execute(
            f"INSERT INTO entries ({_COLUMNS}, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET key = excluded.key, namespace = excluded.namespace,"
            " tenant = excluded.tenant, created_at = excluded.created_at,"
            " last_used_at = excluded.last_used_at, payload = excluded.payload,"
            " seq = excluded.seq",
            (
                entry.id,
                entry.key,
                encode_text(entry.namespace),
                None if entry.tenant is None else encode_text(entry.tenant),
                entry.created_at,
                entry.last_used_at,
                payload,
                self._next_seq(conn),
            ),
        )
        self._pending_touches.pop(entry.id, None)
        self._unreadable.pop(entry.id, None)

    # -- EntryStore ----------------------------------------------------------------------------

    def put(self, entry: CacheEntry) -> list[str]:
        """Store (or replace) ``entry``; durable when this returns. Returns evicted ids."""
        return self.put_many([entry])

    def put_many(self, entries: Sequence[CacheEntry]) -> list[str]:
        """Store several entries in one transaction (one fsync); returns evicted ids."""
        payloads = [_encode_payload(entry) for entry in entries]  # fail before writing
        with self._guard(), self._transaction() as conn:
            self._flush_touches(conn)
            for entry, payload in zip(entries, payloads, strict=True):
                self._insert(conn, entry, payload)
            bound = min(self.max_entries or 1000, 1000)
            return self._evict(conn, keep=[entry.id for entry in entries][-bound:])

    def import_raw_rows(self, rows: Sequence[Sequence[object]]) -> int:
        """Copy ``(id, key, namespace, tenant, created_at, last_used_at, payload)`` rows
        as they are (used to keep undecodable rows when salvaging); returns how many."""
        copied = 0
        with self._guard(), self._transaction() as conn:
            for row in rows:
                try:
                    cursor = conn.execute(
                        f"INSERT OR IGNORE INTO entries ({_COLUMNS}, seq) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (*row, self._next_seq(conn)),
                    )
                except (sqlite3.IntegrityError, sqlite3.InterfaceError, sqlite3.ProgrammingError):
                    continue  # a row too damaged for the schema (NULL id, ...): nothing to keep
                copied += cursor.rowcount
        return copied

    def get(self, entry_id: str) -> CacheEntry | None:
        with self._guard() as conn:
            row = conn.execute(f"SELECT {_COLUMNS} FROM entries WHERE id = ?", (entry_id,))
            found = row.fetchone()
            return None if found is None else self._decode(found)

    def get_by_key(self, key: str) -> CacheEntry | None:
        with self._guard() as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM entries WHERE key = ? LIMIT 4", (key,))
            for row in rows.fetchall():
                entry = self._decode(row)
                if entry is not None and entry.key == key:
                    return entry
            return None

    def touch(self, entry_id: str, now: float) -> None:
        """Record a use. Buffered: written with the next store, or within about 2 s, so an
        exact hit costs one read and no fsync (a lost touch only ages an entry's LRU rank)."""
        with self._lock:
            self._check_open()
            if not self._pending_touches:
                self._oldest_touch = time.monotonic()
            self._pending_touches[entry_id] = max(now, self._pending_touches.get(entry_id, now))
            due = (
                len(self._pending_touches) >= _TOUCH_BATCH
                or time.monotonic() - self._oldest_touch > _TOUCH_DELAY
            )
        if due:
            self.flush()

    def delete(self, entry_ids: Sequence[str]) -> int:
        ids = list(dict.fromkeys(entry_ids))
        if not ids:
            return 0
        with self._guard(), self._transaction() as conn:
            return self._delete_ids(conn, ids)

    def clear(self) -> None:
        with self._guard(), self._transaction() as conn:
            conn.execute("DELETE FROM entries")
            self._pending_touches.clear()
            self._unreadable.clear()

    def __len__(self) -> int:
        with self._guard() as conn:
            (count,) = conn.execute("SELECT COUNT(*) FROM entries").fetchone()
            return int(count)

    def __iter__(self) -> Iterator[CacheEntry]:
        """Every decodable entry, read in pages (unreadable rows are reported and skipped)."""
        for entry, _seq in self.entries_since(0):
            yield entry

    # -- beyond the protocol -------------------------------------------------------------------

    def flush(self) -> None:
        """Write buffered last-use times now."""
        with self._guard():
            if self._pending_touches:
                with self._transaction() as conn:
                    self._flush_touches(conn)

    def entries_since(self, seq: int, page: int = 1000) -> Iterator[tuple[CacheEntry, int]]:
        """Decodable entries stored (or replaced) after change number ``seq``, in order."""
        last = seq
        while True:
            with self._guard() as conn:
                rows = conn.execute(
                    f"SELECT {_COLUMNS}, seq FROM entries WHERE seq > ? ORDER BY seq LIMIT ?",
                    (last, page),
                ).fetchall()
                decoded = [(self._decode(row[:7]), int(row[7])) for row in rows]
            for entry, entry_seq in decoded:
                if entry is not None:
                    yield entry, entry_seq
            if len(rows) < page:
                return
            last = int(rows[-1][7])

    def ids_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> list[str]:
        """Ids of every row (readable or not) of a namespace and/or tenant (``tenant=None``:
        the rows stored without a tenant; :data:`ANY`: no filter)."""
        clauses: list[str] = []
        params: list[bytes] = []
        if not isinstance(namespace, AnyValue):
            clauses.append("namespace = ?")
            params.append(encode_text(namespace))
        if tenant is None:
            clauses.append("tenant IS NULL")
        elif not isinstance(tenant, AnyValue):
            clauses.append("tenant = ?")
            params.append(encode_text(tenant))
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._guard() as conn:
            return [str(i) for (i,) in conn.execute(f"SELECT id FROM entries{where}", params)]

    def counts(self) -> dict[tuple[str, str | None], int]:
        """Rows per ``(namespace, tenant)``, from the indexed columns (no decoding)."""
        with self._guard() as conn:
            rows = conn.execute(
                "SELECT namespace, tenant, COUNT(*) FROM entries GROUP BY namespace, tenant"
            ).fetchall()
        out: dict[tuple[str, str | None], int] = {}
        for namespace, tenant, count in rows:
            if not isinstance(namespace, bytes):
                continue
            who = tenant.decode("utf-8", "surrogatepass") if isinstance(tenant, bytes) else None
            out[(namespace.decode("utf-8", "surrogatepass"), who)] = int(count)
        return out

    def ids_created_before(self, timestamp: float) -> list[str]:
        """Ids of rows created before ``timestamp`` (for TTL purges)."""
        with self._guard() as conn:
            rows = conn.execute("SELECT id FROM entries WHERE created_at < ?", (timestamp,))
            return [str(entry_id) for (entry_id,) in rows]

    def id_namespaces(self) -> dict[str, str]:
        """Every row's id and namespace (without decoding payloads)."""
        with self._guard() as conn:
            rows = conn.execute("SELECT id, namespace FROM entries").fetchall()
        out: dict[str, str] = {}
        for entry_id, namespace in rows:
            if isinstance(namespace, bytes):
                out[str(entry_id)] = namespace.decode("utf-8", "surrogatepass")
        return out

    def last_seq(self) -> int:
        """The number of the last change stored (grows with every put, never reused)."""
        with self._guard():
            return int(self._meta("seq") or 0)

    def data_version(self) -> int:
        """Changes when another connection (process) commits; cheap, no disk read."""
        with self._guard() as conn:
            return int(conn.execute("PRAGMA data_version").fetchone()[0])

    def health(self) -> StoreHealth:
        """Rows stored and the unreadable rows met so far (cheap: no full scan)."""
        with self._lock:
            return StoreHealth(
                path=str(self.path),
                schema_version=self.schema_version,
                rows=len(self),
                unreadable=dict(self._unreadable),
            )

    def check(self) -> StoreHealth:
        """Full check: SQLite's ``quick_check`` and a decode of every row."""
        with self._guard() as conn:
            verdicts = [str(r[0]) for r in conn.execute("PRAGMA quick_check").fetchall()]
        readable = sum(1 for _ in self)
        return StoreHealth(
            path=str(self.path),
            schema_version=self.schema_version,
            rows=len(self),
            readable=readable,
            unreadable=dict(self._unreadable),
            integrity="ok" if verdicts == ["ok"] else "; ".join(verdicts[:10]),
        )

    def disk_bytes(self) -> int:
        """Size of the database and its WAL on disk."""
        total = 0
        for suffix in ("", "-wal"):
            try:
                total += os.stat(f"{self.path}{suffix}").st_size
            except OSError:
                continue
        return total

    def close(self) -> None:
        """Write buffered touches and close the connection (idempotent)."""
        with self._lock:
            if self._closed:
                return
            try:
                if self._pending_touches:
                    with self._transaction() as conn:
                        self._flush_touches(conn)
            except sqlite3.Error as error:
                logger.warning("%s: last-use times not written at close: %r", self.path, error)
            finally:
                self._closed = True
                self._conn.close()

    def __repr__(self) -> str:
        return f"SqliteEntryStore({str(self.path)!r}, max_entries={self.max_entries})"
