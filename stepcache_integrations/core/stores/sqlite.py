"""Entries in SQLite: durable, shared by processes, bounded by least-recent use.

One row per entry. The entry itself is the versioned JSON of :meth:`CacheEntry.to_dict`
(``payload``); ``id``, ``key``, ``namespace``, ``tenant``, ``created_at``, ``last_used_at`` and
``seq`` are columns with indexes, so lookups, eviction and deletion by namespace or tenant never
decode JSON. The file is in WAL mode: readers never block, writers are serialised by SQLite's
own lock, so several processes can share one file without any lock of ours.

Connections: one for writes and one for reads, so a lookup never waits behind a write of this
process (a write may wait for another process's lock).

Time budgets: an operation of the request path never waits long. Reads wait at most
``read_timeout`` (0.2 s) for a lock, storing an answer or deleting an expired entry at most
``write_timeout`` (1 s), and last-use updates never wait (they stay buffered and are retried).
Operations an operator asks for (``clear``, deletions by namespace or tenant, migrations, and
anything inside :meth:`SqliteEntryStore.maintenance`) wait up to ``timeout`` (30 s).
A lock wait that runs out raises :class:`CacheLockedError`; a full disk
:class:`CacheDiskFullError`; neither means the file is damaged.

Durability: with ``durability="full"`` (the default) a commit is on disk (fsync) before
:meth:`SqliteEntryStore.put` returns, so an acknowledged entry survives a killed process and a
power cut; ``"normal"`` survives a killed process only, and writes about 30 times faster.

The store watches its files: if the database or its write-ahead log is deleted or replaced
while open (by hand, or by a process that wrongly believed it was the last user), every later
operation raises :class:`CacheFileLostError` instead of writing into a file nobody else sees,
and a write that raced with the loss is not acknowledged.

A row that cannot be decoded (corrupt, or written by another format version) is reported
(logged once, listed by :meth:`SqliteEntryStore.check`) and skipped; it is never deleted by a
read.

A damaged database (a malformed page) is found at open by SQLite's ``quick_check`` when the
file is at most :data:`QUICK_CHECK_AT_OPEN` bytes (about 1 ms per MB), otherwise when an
operation meets the damage (SQLite reports ``SQLITE_CORRUPT``) or by :meth:`check`. From then
on the store refuses every operation with :class:`CacheCorruptError` (:attr:`damage` says
why): no lookup is served from the file and nothing more is written into it, so the request
path answers with the model and the damage never spreads. Nothing acknowledged before is
touched; :func:`~stepcache_integrations.core.stores.directory.salvage_database` copies every
readable row into a new database.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from stepcache_integrations.core.configuration import (
    ConfigurationError,
    check_choice,
    check_count,
    check_path,
    check_seconds,
)
from stepcache_integrations.core.entries import CacheEntry, EntryDecodeError
from stepcache_integrations.core.stores import sqlite_files
from stepcache_integrations.core.stores.base import ANY, AnyValue, TenantFilter
from stepcache_integrations.core.stores.errors import (
    READ_ONLY_ADVICE,
    CacheCorruptError,
    CacheDiskFullError,
    CacheFileError,
    CacheFileLostError,
    CacheLockedError,
    CacheReadOnlyError,
    CacheStorageError,
    classify_sqlite_error,
    create_directory,
    on_read_only_filesystem,
    read_only_reason,
    recovery_advice,
)
from stepcache_integrations.core.stores.sqlite_files import FileIdentity, inspect_sqlite_file

__all__ = [
    "AUDIT_TABLES",
    "DB_FORMAT",
    "MIGRATIONS",
    "QUICK_CHECK_AT_OPEN",
    "SCHEMA_VERSION",
    "CacheCorruptError",
    "CacheDiskFullError",
    "CacheFileError",
    "CacheFileLostError",
    "CacheLockedError",
    "CacheReadOnlyError",
    "CacheStorageError",
    "Durability",
    "SqliteEntryStore",
    "StoreHealth",
    "decode_row",
    "encode_text",
    "immediate",
    "inspect_sqlite_file",
]

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 2
DB_FORMAT = "stepcache-entries"

# The audit's counts and suspensions (schema 2; see sqlite_audit). Kept here, with the rest
# of the schema, so that creating and migrating a database is one place.
AUDIT_TABLES = (
    "CREATE TABLE IF NOT EXISTS audit_counts ("
    " namespace BLOB NOT NULL,"
    " kind TEXT NOT NULL,"
    " outcome TEXT NOT NULL,"
    " count INTEGER NOT NULL,"
    " tokens INTEGER NOT NULL,"
    " PRIMARY KEY (namespace, kind, outcome))",
    "CREATE TABLE IF NOT EXISTS audit_suspensions ("
    " namespace BLOB NOT NULL,"
    " kind TEXT NOT NULL,"
    " since REAL NOT NULL,"
    " reason TEXT NOT NULL,"
    " agreements INTEGER NOT NULL,"
    " PRIMARY KEY (namespace, kind))",
)


def _add_audit_tables(conn: sqlite3.Connection) -> None:
    """Schema 1 -> 2: the audit tables. Only tables are added: no entry is touched."""
    for statement in AUDIT_TABLES:
        conn.execute(statement)


# MIGRATIONS[n] upgrades a database from schema n to n + 1 inside one write transaction.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _add_audit_tables}

Durability = Literal["full", "normal"]

QUICK_CHECK_AT_OPEN = 128 * 1024 * 1024
"""Bytes (database and log) up to which opening runs SQLite's ``quick_check`` (measured: 0.08 s
for 79 MB). A larger file is checked when an operation meets damage, or by ``check()``."""

_TOUCH_BATCH = 256  # pending last-use updates written in one transaction
_TOUCH_DELAY = 2.0  # seconds a last-use update may wait before it is written
_MAX_PENDING_TOUCHES = 50_000  # beyond this (writes failing for long), the oldest are dropped
_CHUNK = 500  # ids per DELETE statement (below SQLite's parameter limit)
_MAX_WAIT = 1e6  # seconds: SQLite's busy timeout is a 32-bit count of milliseconds

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
    *AUDIT_TABLES,
)


@dataclass(frozen=True)
class StoreHealth:
    """What a store knows about its own state.

    ``unreadable`` maps the id of every row that failed to decode to the reason; such rows
    are skipped, never deleted. ``integrity`` is SQLite's ``quick_check`` verdict (``None``
    when not checked). ``damage`` says why the store stopped using a damaged database (and
    how to recover); ``rows`` and ``readable`` are then ``None`` when they cannot be read.

    Example:
        >>> StoreHealth(path="x.sqlite", schema_version=1, rows=2, readable=2).ok
        True
    """

    path: str
    schema_version: int
    rows: int | None
    readable: int | None = None
    unreadable: dict[str, str] = field(default_factory=dict)
    integrity: str | None = None
    damage: str | None = None

    @property
    def ok(self) -> bool:
        return not self.unreadable and self.integrity in (None, "ok") and self.damage is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "schema_version": self.schema_version,
            "rows": self.rows,
            "readable": self.readable,
            "unreadable": dict(self.unreadable),
            "integrity": self.integrity,
            "damage": self.damage,
            "ok": self.ok,
        }


def filter_clause(
    namespace: str | AnyValue, tenant: TenantFilter, placeholder: str = "?"
) -> tuple[str, list[bytes]]:
    """A ``WHERE`` clause (or ``""``) and its parameters for a store filter, in the SQL of
    both stores (``placeholder``: ``?`` for SQLite, ``%s`` for Postgres). :data:`ANY` means no
    filter; ``tenant=None`` matches only the rows stored without a tenant, never all of them.

    Example:
        >>> filter_clause(ANY, None)
        (' WHERE tenant IS NULL', [])
        >>> filter_clause("ns", ANY, "%s")[0]
        ' WHERE namespace = %s'
    """
    clauses: list[str] = []
    params: list[bytes] = []
    if not isinstance(namespace, AnyValue):
        clauses.append(f"namespace = {placeholder}")
        params.append(encode_text(namespace))
    if tenant is None:
        clauses.append("tenant IS NULL")
    elif not isinstance(tenant, AnyValue):
        clauses.append(f"tenant = {placeholder}")
        params.append(encode_text(tenant))
    return (f" WHERE {' AND '.join(clauses)}" if clauses else "", params)


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


def _connect(target: str, *, timeout: float, uri: bool = False) -> sqlite3.Connection:
    return sqlite3.connect(
        target, timeout=timeout, isolation_level=None, check_same_thread=False, uri=uri
    )


def _tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(name) for (name,) in rows}


def _meta(conn: sqlite3.Connection, key: str) -> str | None:
    found = conn.execute("SELECT value FROM stepcache_meta WHERE key = ?", (key,)).fetchone()
    return None if found is None else str(found[0])


def _quick_check(conn: sqlite3.Connection) -> list[str]:
    return [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]


def _summary(verdicts: list[str]) -> str:
    """The first lines of a ``quick_check`` verdict, for one-line messages."""
    shown = "; ".join(" ".join(line.split()) for line in verdicts[:3])
    return shown + (f"; ... ({len(verdicts)} problems)" if len(verdicts) > 3 else "")


def _count_rows(conn: sqlite3.Connection) -> int | None:
    """``COUNT(*)`` of the entries, or ``None`` when a damaged page stops SQLite."""
    try:
        return int(conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0])
    except sqlite3.Error:
        return None


def _holds_commits(wal: str) -> bool:
    try:
        return os.stat(wal).st_size > 0
    except OSError:
        return False


@contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction: the database's write lock is taken up front (IMMEDIATE), so two
    writers never deadlock upgrading read locks. Rolled back if anything fails, the commit
    included."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


class SqliteEntryStore:
    """An :class:`~stepcache_integrations.core.entries.EntryStore` in one SQLite file.

    Thread-safe and safe for several processes on the same file (SQLite's WAL locking).
    ``max_entries`` bounds the file: the least recently used entries are evicted when a new
    one is stored. Open one store per file per process (``StepCache(path=...)`` does it for
    you: every cache on one directory shares one store).

    Args:
        path: the database file (created with its schema if missing or empty).
        max_entries: at most this many entries (``None``: unbounded).
        durability: ``"full"`` fsyncs every commit; ``"normal"`` survives a killed process
            but not a power cut.
        timeout: seconds maintenance operations wait for another process's write lock
            (``clear``, migrations, anything inside :meth:`maintenance`).
        write_timeout: seconds storing an entry or deleting entries waits for the lock before
            giving up with :class:`CacheLockedError`.
        read_timeout: seconds a read waits when SQLite reports the database busy (rare in WAL
            mode: recovery after a crash, or another process's exclusive locking).
        read_only: never write; open an existing database, also on a read-only filesystem.
            Stores and deletions raise :class:`CacheReadOnlyError`, last-use updates are not
            recorded.

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
        write_timeout: float = 1.0,
        read_timeout: float = 0.2,
        read_only: bool = False,
    ) -> None:
        if max_entries is not None:
            check_count("max_entries", max_entries)
        check_choice("durability", durability, ("full", "normal"))
        self.path = check_path("path", path)
        self.max_entries = max_entries
        self.durability: Durability = durability
        self.timeout = check_seconds("timeout", timeout, zero=True, most=_MAX_WAIT)
        self.write_timeout = check_seconds(
            "write_timeout", write_timeout, zero=True, most=_MAX_WAIT
        )
        self.read_timeout = check_seconds("read_timeout", read_timeout, zero=True, most=_MAX_WAIT)
        self.read_only = bool(read_only)
        # Writes go through one connection, reads through another: a lookup never waits
        # behind a write of this process. Each connection has its own lock; ``_state``
        # guards the in-memory bookkeeping and is never held during I/O.
        self._write_lock = threading.RLock()
        self._read_lock = threading.RLock()
        self._state = threading.Lock()
        self._local = threading.local()
        self._pending_touches: dict[str, float] = {}
        self._oldest_touch = 0.0
        self._retry_touches_at = 0.0
        self._unreadable: dict[str, str] = {}
        self._busy_ms: dict[int, int] = {}
        self._closed = False
        self._lost: str | None = None
        self._damage: str | None = None
        self._writer: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._reader_target = str(self.path)
        self._watch_wal = True
        if self.path.is_dir():
            raise ConfigurationError(
                "path",
                f"{self.path} is a directory; a SqliteEntryStore path names its database file",
            )
        if read_only and not self.path.is_file():
            raise CacheFileError(
                self.path, "does not exist (read_only=True opens an existing cache)"
            )
        if not read_only:
            create_directory("path", self.path.parent)
            self._refuse_read_only_storage()
        claimed = sqlite_files.claim(self.path)  # the header check, before any connection
        try:
            if read_only:
                self.schema_version = self._open_read_only()
            else:
                self.schema_version = self._open_writable()
            if claimed is None:  # SQLite created the file
                claimed = sqlite_files.claim(self.path, check_header=False)
        except BaseException:
            sqlite_files.release(claimed)
            self._close_connections()
            raise
        self._release_claim = weakref.finalize(self, sqlite_files.release, claimed)
        self._identity = FileIdentity.of(self.path, with_wal=self._watch_wal)
        self._path_text = str(self.path)
        self._check_at_open()

    # -- opening -------------------------------------------------------------------------------

    def _check_at_open(self) -> None:
        """SQLite's ``quick_check`` of a file small enough to check at once: a damaged file
        opens, but as damaged (every operation refused), never as a sound one."""
        if self.disk_bytes() > QUICK_CHECK_AT_OPEN:
            return
        assert self._reader is not None  # set while open
        try:
            self._set_busy_timeout(self._reader, self.timeout)
            verdicts = _quick_check(self._reader)
        except sqlite3.Error as error:
            classified = self._failed(error, self.timeout)
            if isinstance(classified, CacheCorruptError):
                return  # the store is marked damaged
            raise classified from error
        self._judge(verdicts)

    def _judge(self, verdicts: list[str]) -> None:
        """Mark the store damaged unless ``quick_check`` said ``ok``."""
        if verdicts != ["ok"]:
            self._mark_damaged(
                f"the database is damaged (SQLite quick_check: {_summary(verdicts)}); this "
                "cache stopped using it: requests are answered by the model and nothing more "
                f"is written into it. To recover: {recovery_advice(self.path)}"
            )

    def _refuse_read_only_storage(self) -> None:
        reason = read_only_reason(self.path)
        if reason is not None:
            raise CacheReadOnlyError(self.path, f"cannot be written: {reason}; {READ_ONLY_ADVICE}")

    def _open_error(self, error: sqlite3.Error) -> Exception:
        classified = self._classify(error, self.timeout)
        if isinstance(classified, CacheFileError):
            return CacheFileError(
                self.path, f"not a readable SQLite database ({error}); corrupt or foreign file"
            )
        return classified

    def _open_writable(self) -> int:
        try:
            self._writer = _connect(str(self.path), timeout=self.timeout)
        except sqlite3.Error as error:
            raise self._open_error(error) from error
        version = self._prepare(self._writer)
        self._reader = _connect(self._reader_target, timeout=self.read_timeout)
        self._reader.execute("PRAGMA query_only = ON")
        return version

    def _open_read_only(self) -> int:
        base = self.path.resolve().as_uri()
        self._reader_target = f"{base}?mode=ro"
        try:
            self._reader = _connect(self._reader_target, timeout=self.timeout, uri=True)
            tables = _tables(self._reader)
        except sqlite3.Error as error:
            # Reading a WAL database needs its -shm index, which SQLite cannot create on a
            # read-only filesystem. Nobody can write there either: the file is immutable, and
            # reading it without locks is exact, provided no write-ahead log holds commits.
            if not on_read_only_filesystem(self.path) or _holds_commits(f"{self.path}-wal"):
                raise self._read_only_open_error(error) from error
            self._close_connections()
            self._reader_target = f"{base}?mode=ro&immutable=1"
            self._watch_wal = False
            try:
                self._reader = _connect(self._reader_target, timeout=self.timeout, uri=True)
                tables = _tables(self._reader)
            except sqlite3.Error as again:
                raise self._open_error(again) from again
        if "stepcache_meta" not in tables:
            raise self._not_ours(tables)
        try:
            return self._check_version(self._reader, may_migrate=False)
        except sqlite3.Error as error:
            raise self._classify(error, self.timeout) from error

    def _read_only_open_error(self, error: sqlite3.Error) -> Exception:
        problem = self._open_error(error)
        reason = read_only_reason(self.path.parent)
        if not isinstance(problem, CacheStorageError) or reason is None:
            return problem
        # Advising read_only=True would be circular: say what SQLite needs instead.
        if _holds_commits(f"{self.path}-wal"):
            return CacheReadOnlyError(
                self.path,
                f"cannot be read: its write-ahead log holds commits not yet in the database "
                f"file, and SQLite cannot create the -shm index it needs to read them ({reason}; "
                f"SQLite: {error}); open the cache once where it can be written (closing it "
                "moves the log into the file), then read-only",
            )
        return CacheReadOnlyError(
            self.path,
            f"cannot be read: to read a WAL database SQLite needs its -shm index file, which "
            f"does not exist and cannot be created ({reason}; SQLite: {error}); let this "
            "process write in the directory, or read it while a writer has the cache open",
        )

    def _not_ours(self, tables: set[str]) -> CacheFileError:
        if not tables:
            return CacheFileError(self.path, "is an empty database, not a stepcache cache")
        return CacheFileError(
            self.path,
            "is a SQLite database of another application (tables: "
            f"{', '.join(sorted(tables)[:5])}); use another cache path",
        )

    def _prepare(self, conn: sqlite3.Connection) -> int:
        try:
            tables = _tables(conn)
        except sqlite3.Error as error:
            raise self._open_error(error) from error
        if tables and "stepcache_meta" not in tables:
            # Never touch (not even switch the journal mode of) a database that is not ours.
            raise self._not_ours(tables)
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
                self._initialise(conn)
            return self._check_version(conn, may_migrate=True)
        except sqlite3.Error as error:
            raise self._classify(error, self.timeout) from error

    def _initialise(self, conn: sqlite3.Connection) -> None:
        with immediate(conn):
            # Another process may have created the schema while we waited for the lock.
            if "stepcache_meta" in _tables(conn):
                return
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.executemany(
                "INSERT INTO stepcache_meta (key, value) VALUES (?, ?)",
                [("format", DB_FORMAT), ("schema_version", str(SCHEMA_VERSION)), ("seq", "0")],
            )

    def _check_version(self, conn: sqlite3.Connection, *, may_migrate: bool) -> int:
        if _meta(conn, "format") != DB_FORMAT:
            raise CacheFileError(self.path, "is not a stepcache entry database (foreign file)")
        raw = _meta(conn, "schema_version")
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
            if not may_migrate:
                raise CacheFileError(
                    self.path,
                    f"has schema {version} and needs a migration to schema {SCHEMA_VERSION}, "
                    "which read_only=True cannot do: open it once without read_only",
                )
            version = self._migrate(conn, version)
        return version

    def _migrate(self, conn: sqlite3.Connection, version: int) -> int:
        with immediate(conn):
            # Re-read under the write lock: another process may have migrated meanwhile.
            current = int(_meta(conn, "schema_version") or version)
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

    def _classify(self, error: sqlite3.Error, waited: float) -> Exception:
        return classify_sqlite_error(self.path, error, waited=waited)

    def _failed(self, error: sqlite3.Error, waited: float) -> Exception:
        """The error to raise for ``error`` met while using the file; a damaged database
        marks the store damaged (and every later operation raises the same error)."""
        classified = self._classify(error, waited)
        if isinstance(classified, CacheCorruptError):
            self._mark_damaged(classified.problem)
            return self._damaged_error()
        return classified

    def _mark_damaged(self, problem: str) -> None:
        with self._state:
            if self._damage is not None:
                return
            self._damage = problem
        # The request path's guard warns once; this line is for whoever reads INFO logs.
        logger.info("%s: stopped using a damaged database: %s", self.path, problem)

    def _damaged_error(self) -> CacheCorruptError:
        assert self._damage is not None
        return CacheCorruptError(self.path, self._damage)

    @property
    def damage(self) -> str | None:
        """Why this store stopped using its database (damaged: every operation raises
        :class:`CacheCorruptError`), or ``None`` while it is sound as far as known."""
        return self._damage

    @contextmanager
    def maintenance(self) -> Iterator[None]:
        """Inside this block, this thread's operations wait up to ``timeout`` for locks (for
        deletions an operator asked for, bulk imports, full scans), not the short budgets of
        the request path.

        Example:
            >>> import tempfile, pathlib
            >>> store = SqliteEntryStore(pathlib.Path(tempfile.mkdtemp()) / "e.sqlite")
            >>> with store.maintenance():
            ...     store.delete(["no-such-id"])
            0
            >>> store.close()
        """
        previous = getattr(self._local, "patient", False)
        self._local.patient = True
        try:
            yield
        finally:
            self._local.patient = previous

    def _budget(self, request_budget: float) -> float:
        return self.timeout if getattr(self._local, "patient", False) else request_budget

    def _set_busy_timeout(self, conn: sqlite3.Connection, seconds: float) -> None:
        milliseconds = int(seconds * 1000)
        if self._busy_ms.get(id(conn)) != milliseconds:
            conn.execute(f"PRAGMA busy_timeout = {milliseconds}")
            self._busy_ms[id(conn)] = milliseconds

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"the entry store {self.path} is closed")

    def _check_usable(self) -> None:
        """Open, not known to be damaged, and still the file this process opened (a ``stat``
        or two: microseconds)."""
        self._check_open()
        if self._damage is not None:
            raise self._damaged_error()
        if self._lost is None:
            change = self._identity.changed(self._path_text)
            if change is None:
                return
            self._lost = change
        raise CacheFileLostError(
            self.path,
            f"{self._lost}; this store stopped using it so that no entry is written where "
            "nobody reads it: close every StepCache on this path and open it again",
        )

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        budget = self._budget(self.read_timeout)
        if not self._read_lock.acquire(timeout=budget):
            raise CacheLockedError(
                self.path, f"the read connection was busy for more than {budget:g} s"
            )
        try:
            self._check_usable()
            assert self._reader is not None  # set while open
            try:
                self._set_busy_timeout(self._reader, budget)
                yield self._reader
            except sqlite3.Error as error:
                raise self._failed(error, budget) from error
        finally:
            self._read_lock.release()

    @contextmanager
    def _writing(
        self, request_budget: float | None = None, *, wait_in_process: bool = True
    ) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed when the block ends. Waits at most the budget
        (``write_timeout`` unless given; ``timeout`` inside :meth:`maintenance`) for the
        lock; without ``wait_in_process`` it does not wait for this process's other writers."""
        if self._writer is None:
            raise CacheReadOnlyError(
                self.path, "this cache was opened with read_only=True: nothing is written"
            )
        budget = self._budget(self.write_timeout if request_budget is None else request_budget)
        if wait_in_process:
            acquired = self._write_lock.acquire(timeout=budget)
        else:
            acquired = self._write_lock.acquire(blocking=False)
        if not acquired:
            raise CacheLockedError(
                self.path, f"another thread of this process was writing for more than {budget:g} s"
            )
        try:
            self._check_usable()
            try:
                self._set_busy_timeout(self._writer, budget)
                with immediate(self._writer) as conn:
                    yield conn
            except sqlite3.Error as error:
                raise self._failed(error, budget) from error
            # A commit that raced with the loss of the file is not acknowledged.
            self._check_usable()
        finally:
            self._write_lock.release()

    def _report(self, entry_id: str, reason: str) -> None:
        with self._state:
            first = entry_id not in self._unreadable
            self._unreadable[entry_id] = reason
        if first:
            logger.warning(
                "%s: entry %s cannot be decoded and is skipped (kept in the file): %s",
                self.path,
                entry_id,
                reason,
            )

    def _decode(self, row: Sequence[object]) -> CacheEntry | None:
        try:
            entry = decode_row(row)
        except EntryDecodeError as error:
            self._report(str(row[0]), str(error))
            return None
        with self._state:
            pending = self._pending_touches.get(entry.id)
        if pending is not None and pending > entry.last_used_at:
            entry = entry.touched(pending)
        return entry

    # -- last-use updates ------------------------------------------------------------------------

    def _take_touches(self) -> dict[str, float]:
        with self._state:
            taken, self._pending_touches = self._pending_touches, {}
            return taken

    def _restore_touches(self, touches: dict[str, float]) -> None:
        """Put back touches whose write failed (newer ones win), keeping the buffer bounded."""
        if not touches:
            return
        with self._state:
            merged = dict(touches)
            for entry_id, now in self._pending_touches.items():
                merged[entry_id] = max(now, merged.get(entry_id, now))
            self._pending_touches = merged
            self._bound_touches()
            self._retry_touches_at = time.monotonic() + _TOUCH_DELAY

    def _bound_touches(self) -> None:
        excess = len(self._pending_touches) - _MAX_PENDING_TOUCHES
        for entry_id in list(self._pending_touches)[: max(0, excess)]:
            del self._pending_touches[entry_id]  # the oldest: a lost touch only ages an entry

    @staticmethod
    def _write_touches(conn: sqlite3.Connection, touches: dict[str, float]) -> None:
        if touches:
            conn.executemany(
                "UPDATE entries SET last_used_at = MAX(last_used_at, ?) WHERE id = ?",
                [(now, entry_id) for entry_id, now in touches.items()],
            )

    def _flush(self, request_budget: float | None, *, wait_in_process: bool = True) -> None:
        touches = self._take_touches()
        if not touches:
            return
        try:
            with self._writing(request_budget, wait_in_process=wait_in_process) as conn:
                self._write_touches(conn, touches)
        except BaseException:
            self._restore_touches(touches)
            raise

    def _forget(self, entry_ids: Sequence[str]) -> None:
        with self._state:
            for entry_id in entry_ids:
                self._pending_touches.pop(entry_id, None)
                self._unreadable.pop(entry_id, None)

    # -- writing rows ----------------------------------------------------------------------------

    def _next_seq(self, conn: sqlite3.Connection) -> int:
        conn.execute(
            "UPDATE stepcache_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'seq'"
        )
        return int(_meta(conn, "seq") or 0)

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

    @staticmethod
    def _delete_ids(conn: sqlite3.Connection, ids: Sequence[str]) -> int:
        removed = 0
        for start in range(0, len(ids), _CHUNK):
            chunk = list(ids[start : start + _CHUNK])
            marks = ",".join("?" * len(chunk))
            removed += conn.execute(f"DELETE FROM entries WHERE id IN ({marks})", chunk).rowcount
        return removed

    def _insert(self, conn: sqlite3.Connection, entry: CacheEntry, payload: str) -> None:
        with self._state:
            replaces_unreadable = entry.id in self._unreadable
        if replaces_unreadable:
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

    # -- EntryStore ----------------------------------------------------------------------------

    def put(self, entry: CacheEntry) -> list[str]:
        """Store (or replace) ``entry``; durable when this returns. Returns evicted ids."""
        return self.put_many([entry])

    def put_many(self, entries: Sequence[CacheEntry]) -> list[str]:
        """Store several entries in one transaction (one fsync); returns evicted ids."""
        payloads = [_encode_payload(entry) for entry in entries]  # fail before writing
        touches = self._take_touches()  # written in the same transaction
        try:
            with self._writing() as conn:
                self._write_touches(conn, touches)
                for entry, payload in zip(entries, payloads, strict=True):
                    self._insert(conn, entry, payload)
                bound = min(self.max_entries or 1000, 1000)
                evicted = self._evict(conn, keep=[entry.id for entry in entries][-bound:])
        except BaseException:
            self._restore_touches(touches)
            raise
        self._forget([*evicted, *(entry.id for entry in entries)])
        return evicted

    def import_raw_rows(self, rows: Sequence[Sequence[object]]) -> int:
        """Copy ``(id, key, namespace, tenant, created_at, last_used_at, payload)`` rows
        as they are (used to keep undecodable rows when salvaging); returns how many."""
        copied = 0
        with self._writing(self.timeout) as conn:
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
        with self._reading() as conn:
            found = conn.execute(
                f"SELECT {_COLUMNS} FROM entries WHERE id = ?", (entry_id,)
            ).fetchone()
        return None if found is None else self._decode(found)

    def get_by_key(self, key: str) -> CacheEntry | None:
        with self._reading() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM entries WHERE key = ? LIMIT 4", (key,)
            ).fetchall()
        for row in rows:
            entry = self._decode(row)
            if entry is not None and entry.key == key:
                return entry
        return None

    def touch(self, entry_id: str, now: float) -> None:
        """Record a use. Buffered: written with the next store, or by a later touch once the
        oldest buffered one is 2 s old, and then only if the write lock is free right away
        (a touch never waits for a lock). So an exact hit costs one read and no fsync; a lost
        touch only ages an entry's LRU rank. A read-only store records nothing.

        Raises the storage error (e.g. :class:`CacheDiskFullError`) when a due write fails;
        the touches stay buffered and are retried 2 s later."""
        if self._writer is None:
            self._check_open()
            return
        with self._state:
            self._check_open()
            clock = time.monotonic()
            if not self._pending_touches:
                self._oldest_touch = clock
            self._pending_touches[entry_id] = max(now, self._pending_touches.get(entry_id, now))
            self._bound_touches()
            due = (
                len(self._pending_touches) >= _TOUCH_BATCH
                or clock - self._oldest_touch > _TOUCH_DELAY
            ) and clock >= self._retry_touches_at
        if due:
            # Another writer holding the lock is no failure: retried later, never waited for.
            with suppress(CacheLockedError):
                self._flush(0.0, wait_in_process=False)

    def delete(self, entry_ids: Sequence[str]) -> int:
        ids = list(dict.fromkeys(entry_ids))
        if not ids:
            return 0
        with self._writing() as conn:
            removed = self._delete_ids(conn, ids)
        self._forget(ids)
        return removed

    def clear(self) -> None:
        with self._writing(self.timeout) as conn:
            conn.execute("DELETE FROM entries")
        with self._state:
            self._pending_touches.clear()
            self._unreadable.clear()

    def __len__(self) -> int:
        with self._reading() as conn:
            (count,) = conn.execute("SELECT COUNT(*) FROM entries").fetchone()
        return int(count)

    def __iter__(self) -> Iterator[CacheEntry]:
        """Every decodable entry, read in pages (unreadable rows are reported and skipped)."""
        for entry, _seq in self.entries_since(0):
            yield entry

    # -- beyond the protocol -------------------------------------------------------------------

    def flush(self) -> None:
        """Write buffered last-use times now (waiting for the lock like a store does)."""
        self._flush(None)

    def entries_since(self, seq: int, page: int = 1000) -> Iterator[tuple[CacheEntry, int]]:
        """Decodable entries stored (or replaced) after change number ``seq``, in order."""
        last = seq
        while True:
            with self._reading() as conn:
                rows = conn.execute(
                    f"SELECT {_COLUMNS}, seq FROM entries WHERE seq > ? ORDER BY seq LIMIT ?",
                    (last, page),
                ).fetchall()
            for row in rows:
                entry = self._decode(row[:7])
                if entry is not None:
                    yield entry, int(row[7])
            if len(rows) < page:
                return
            last = int(rows[-1][7])

    def ids_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> list[str]:
        """Ids of every row (readable or not) of a namespace and/or tenant (``tenant=None``:
        the rows stored without a tenant; :data:`ANY`: no filter)."""
        where, params = filter_clause(namespace, tenant)
        with self._reading() as conn:
            rows = conn.execute(f"SELECT id FROM entries{where}", params).fetchall()
        return [str(entry_id) for (entry_id,) in rows]

    def counts(self) -> dict[tuple[str, str | None], int]:
        """Rows per ``(namespace, tenant)``, from the indexed columns (no decoding)."""
        with self._reading() as conn:
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
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT id FROM entries WHERE created_at < ?", (timestamp,)
            ).fetchall()
        return [str(entry_id) for (entry_id,) in rows]

    def id_namespaces(self) -> dict[str, str]:
        """Every row's id and namespace (without decoding payloads)."""
        with self._reading() as conn:
            rows = conn.execute("SELECT id, namespace FROM entries").fetchall()
        out: dict[str, str] = {}
        for entry_id, namespace in rows:
            if isinstance(namespace, bytes):
                out[str(entry_id)] = namespace.decode("utf-8", "surrogatepass")
        return out

    def last_seq(self) -> int:
        """The number of the last change stored (grows with every put, never reused)."""
        with self._reading() as conn:
            return int(_meta(conn, "seq") or 0)

    def data_version(self) -> int:
        """Changes when another connection (process) commits; cheap, no disk read."""
        with self._reading() as conn:
            return int(conn.execute("PRAGMA data_version").fetchone()[0])

    def _health(
        self, rows: int | None, readable: int | None = None, integrity: str | None = None
    ) -> StoreHealth:
        with self._state:
            unreadable = dict(self._unreadable)
        return StoreHealth(
            path=str(self.path),
            schema_version=self.schema_version,
            rows=rows,
            readable=readable,
            unreadable=unreadable,
            integrity=integrity,
            damage=self._damage,
        )

    def check(self) -> StoreHealth:
        """Full check: SQLite's ``quick_check`` and a decode of every row. The check runs on
        a connection of its own, so lookups are not held up while it scans the file.

        A damaged database is reported, not raised: ``integrity`` holds SQLite's findings,
        ``damage`` the advice, and the store is marked damaged (every later operation
        raises :class:`CacheCorruptError`); its rows are counted where SQLite still can, not
        decoded."""
        self._check_open()
        if self._damage is None:
            with self._reading():  # the usual checks (open, same file)
                pass
        conn = _connect(self._reader_target, timeout=self.timeout, uri=self.read_only)
        try:
            try:
                verdicts = _quick_check(conn)
            except sqlite3.Error as error:
                classified = self._failed(error, self.timeout)
                if not isinstance(classified, CacheCorruptError):
                    raise classified from error
                verdicts = [str(error)]
            self._judge(verdicts)
            if self._damage is not None:
                return self._health(_count_rows(conn), None, _summary(verdicts))
        finally:
            conn.close()
        with self.maintenance():
            readable = sum(1 for _ in self)
            rows = len(self)
        integrity = "ok" if verdicts == ["ok"] else "; ".join(verdicts[:10])
        return self._health(rows, readable, integrity)

    def disk_bytes(self) -> int:
        """Size of the database and its WAL on disk (``stat`` only: no file is opened)."""
        total = 0
        for suffix in ("", "-wal"):
            try:
                total += os.stat(f"{self.path}{suffix}").st_size
            except OSError:
                continue
        return total

    def _close_connections(self) -> None:
        for conn in (self._writer, self._reader):
            if conn is not None:
                with suppress(sqlite3.Error):
                    conn.close()

    def close(self) -> None:
        """Write buffered touches and close the connections (idempotent)."""
        if self._closed:
            return
        if self._writer is not None and self._lost is None and self._damage is None:
            try:
                self._flush(None)
            except (CacheStorageError, CacheFileError) as error:
                logger.warning("%s: last-use times not written at close: %s", self.path, error)
        with self._write_lock, self._read_lock:
            if self._closed:
                return
            self._closed = True
            self._close_connections()
        self._release_claim()

    def __repr__(self) -> str:
        mode = ", read_only=True" if self.read_only else ""
        return f"SqliteEntryStore({str(self.path)!r}, max_entries={self.max_entries}{mode})"
