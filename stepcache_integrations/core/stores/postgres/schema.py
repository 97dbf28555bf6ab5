"""The tables of a Postgres cache, their versions and migrations, and the vector column.

Every table lives in one Postgres schema (``stepcache`` by default), so several caches can
share a database and nothing of another application is touched:

- ``meta``: what the tables hold (format, schema version, embedder, dimension);
- ``entries``: one row per entry; the entry itself is the versioned JSON of
  :meth:`~stepcache_integrations.core.entries.CacheEntry.to_dict` (``payload``, never pickle);
  id, key, namespace, tenant and times are indexed columns, so lookups, eviction and deletions
  never decode JSON. Namespace and tenant are UTF-8 bytes (any Python string survives);
- ``stats``: request counters every process of a fleet adds to (fleet-wide hit rate);
- ``audit_counts`` and ``audit_suspensions`` (schema 2): what the fleet's audits found, and
  the kinds of reuse they suspended (see :mod:`~.audit`).

The vector column (``embedding vector(dim)`` with an HNSW index over inner products) is added
by the first :class:`~.store.PostgresStore` that opens the tables: an entry store alone
(:class:`~.entries.PostgresEntryStore`) needs neither pgvector nor an embedder.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import sql

from stepcache_integrations.core.configuration import ConfigurationError
from stepcache_integrations.core.embeddings import Embedder, normalise_rows

__all__ = [
    "DB_FORMAT",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "EmbedderIdentity",
    "PostgresSchemaError",
    "Tables",
    "lock_key",
    "prepare_tables",
]

SCHEMA_VERSION = 2
DB_FORMAT = "stepcache-entries"

Migration = Callable[[psycopg.Connection[Any], "Tables"], None]

# Embedded by every store at open: another vector for it means another embedder.
_PROBE = "Solve for x: 3x + 5 = 20. Return a JSON object with the keys name and age."
_SAME_EMBEDDER = 0.999


class PostgresSchemaError(ValueError):
    """The database holds tables a Postgres cache cannot use: another application's, a newer
    schema, a schema without migration, or pgvector missing.

    Example:
        >>> str(PostgresSchemaError("stepcache", "was written by a newer version"))
        'postgres schema stepcache: was written by a newer version'
    """

    def __init__(self, schema: str, problem: str) -> None:
        self.schema = schema
        self.problem = problem
        super().__init__(f"postgres schema {schema}: {problem}")


def lock_key(schema: str, purpose: str) -> int:
    """A 64-bit advisory-lock key for one purpose in one schema (the same in every process)."""
    digest = hashlib.sha256(f"stepcache\x00{schema}\x00{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@dataclass(frozen=True)
class Tables:
    """Quoted identifiers of one cache's tables.

    Example:
        >>> Tables("stepcache").name
        'stepcache'
    """

    name: str

    def __post_init__(self) -> None:
        name = self.name
        if not isinstance(name, str) or not name or "\x00" in name or len(name.encode()) > 63:
            raise ConfigurationError(
                "schema", f"a Postgres schema name is 1 to 63 bytes without NUL, got {name!r}"
            )

    @property
    def schema(self) -> sql.Identifier:
        return sql.Identifier(self.name)

    @property
    def meta(self) -> sql.Identifier:
        return sql.Identifier(self.name, "meta")

    @property
    def entries(self) -> sql.Identifier:
        return sql.Identifier(self.name, "entries")

    @property
    def stats(self) -> sql.Identifier:
        return sql.Identifier(self.name, "stats")

    @property
    def audit_counts(self) -> sql.Identifier:
        return sql.Identifier(self.name, "audit_counts")

    @property
    def audit_suspensions(self) -> sql.Identifier:
        return sql.Identifier(self.name, "audit_suspensions")

    def q(self, template: str, **parts: sql.Composable) -> sql.Composed:
        """``template`` with ``{meta}``, ``{entries}``, ``{stats}``, ``{audit_counts}``,
        ``{audit_suspensions}`` and ``{schema}`` filled in (and any extra ``parts``)."""
        names: dict[str, sql.Composable] = {
            "meta": self.meta,
            "entries": self.entries,
            "stats": self.stats,
            "audit_counts": self.audit_counts,
            "audit_suspensions": self.audit_suspensions,
            "schema": self.schema,
        }
        names.update(parts)
        return sql.SQL(template).format(**names)


_BASE_SCHEMA = (
    "CREATE TABLE {meta} (key text PRIMARY KEY, value text NOT NULL)",
    "CREATE TABLE {entries} ("
    " id text PRIMARY KEY,"
    " key text NOT NULL UNIQUE,"
    " namespace bytea NOT NULL,"
    " tenant bytea,"
    " created_at double precision NOT NULL,"
    " last_used_at double precision NOT NULL,"
    " seq bigint GENERATED BY DEFAULT AS IDENTITY,"
    " payload text NOT NULL)",
    "CREATE INDEX ON {entries} (namespace, tenant)",
    "CREATE INDEX ON {entries} (tenant)",
    "CREATE INDEX ON {entries} (last_used_at, seq)",
    "CREATE INDEX ON {entries} (created_at)",
    "CREATE INDEX ON {entries} (seq)",
    "CREATE TABLE {stats} (name text PRIMARY KEY, value double precision NOT NULL)",
)

_AUDIT_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS {audit_counts} ("
    " namespace bytea NOT NULL,"
    " kind text NOT NULL,"
    " outcome text NOT NULL,"
    " count bigint NOT NULL,"
    " tokens bigint NOT NULL,"
    " PRIMARY KEY (namespace, kind, outcome))",
    "CREATE TABLE IF NOT EXISTS {audit_suspensions} ("
    " namespace bytea NOT NULL,"
    " kind text NOT NULL,"
    " since double precision NOT NULL,"
    " reason text NOT NULL,"
    " agreements integer NOT NULL,"
    " PRIMARY KEY (namespace, kind))",
)


def _add_audit_tables(conn: psycopg.Connection[Any], tables: Tables) -> None:
    """Schema 1 -> 2: the audit tables. Only tables are added: no entry is touched."""
    for statement in _AUDIT_SCHEMA:
        conn.execute(tables.q(statement))


MIGRATIONS: dict[int, Migration] = {1: _add_audit_tables}
"""``MIGRATIONS[n]`` upgrades the tables from schema ``n`` to ``n + 1`` inside the opening
transaction (under the schema's lock, so one process of a fleet migrates, the others wait).
1 -> 2 adds the audit tables."""


@dataclass(frozen=True)
class EmbedderIdentity:
    """What made the stored vectors: the embedder's type, dimension and its vector of a fixed
    probe text (two embedders that embed the probe alike are the same embedder).

    Example:
        >>> from stepcache_integrations.core.embeddings import StructuralEmbedder
        >>> EmbedderIdentity.of(StructuralEmbedder(dim=64)).dim
        64
    """

    type: str
    dim: int
    probe: tuple[float, ...]

    @classmethod
    def of(cls, embedder: Embedder) -> EmbedderIdentity:
        vector = normalise_rows(embedder.embed([_PROBE]))[0]
        if vector.ndim != 1 or vector.shape[0] < 1:
            raise ValueError(f"the embedder returned a vector of shape {vector.shape}")
        kind = type(embedder)
        return cls(
            f"{kind.__module__}.{kind.__qualname__}",
            int(vector.shape[0]),
            tuple(round(float(x), 6) for x in vector),
        )

    def to_json(self) -> str:
        return json.dumps({"type": self.type, "dim": self.dim, "probe": list(self.probe)})

    @classmethod
    def from_json(cls, text: str) -> EmbedderIdentity | None:
        try:
            data = json.loads(text)
            return cls(str(data["type"]), int(data["dim"]), tuple(float(x) for x in data["probe"]))
        except (ValueError, KeyError, TypeError):
            return None

    def same_as(self, other: EmbedderIdentity | None) -> bool:
        if other is None or other.type != self.type or other.dim != self.dim:
            return False
        a: npt.NDArray[np.float64] = np.asarray(self.probe)
        b: npt.NDArray[np.float64] = np.asarray(other.probe)
        return float(a @ b) >= _SAME_EMBEDDER


def _meta(conn: psycopg.Connection[Any], tables: Tables, key: str) -> str | None:
    row = conn.execute(tables.q("SELECT value FROM {meta} WHERE key = %s"), (key,)).fetchone()
    return None if row is None else str(row[0])


def _set_meta(conn: psycopg.Connection[Any], tables: Tables, key: str, value: str) -> None:
    conn.execute(
        tables.q(
            "INSERT INTO {meta} (key, value) VALUES (%s, %s) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
        ),
        (key, value),
    )


def read_meta(conn: psycopg.Connection[Any], tables: Tables, key: str) -> str | None:
    """One value of the ``meta`` table (``None`` when unset)."""
    return _meta(conn, tables, key)


def write_meta(conn: psycopg.Connection[Any], tables: Tables, key: str, value: str) -> None:
    """Set one value of the ``meta`` table (inside the caller's transaction)."""
    _set_meta(conn, tables, key, value)


def _existing_tables(conn: psycopg.Connection[Any], schema: str) -> set[str]:
    rows = conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,)
    ).fetchall()
    return {str(name) for (name,) in rows}


def _create_base(conn: psycopg.Connection[Any], tables: Tables) -> None:
    conn.execute(tables.q("CREATE SCHEMA IF NOT EXISTS {schema}"))
    for statement in (*_BASE_SCHEMA, *_AUDIT_SCHEMA):
        conn.execute(tables.q(statement))
    for key, value in (("format", DB_FORMAT), ("schema_version", str(SCHEMA_VERSION))):
        _set_meta(conn, tables, key, value)


def _check_version(conn: psycopg.Connection[Any], tables: Tables) -> int:
    if _meta(conn, tables, "format") != DB_FORMAT:
        raise PostgresSchemaError(
            tables.name,
            "holds tables of another application (no stepcache format marker); use another schema",
        )
    raw = _meta(conn, tables, "schema_version")
    if raw is None or not raw.isdigit():
        raise PostgresSchemaError(tables.name, f"corrupt schema version {raw!r}")
    version = int(raw)
    if version > SCHEMA_VERSION:
        raise PostgresSchemaError(
            tables.name,
            f"was written by a newer stepcache-integrations (schema {version}; this version "
            f"reads schema {SCHEMA_VERSION} and older): upgrade the package or use another schema",
        )
    while version < SCHEMA_VERSION:
        migration = MIGRATIONS.get(version)
        if migration is None:
            raise PostgresSchemaError(
                tables.name,
                f"schema {version} has no migration to {version + 1}; this version reads "
                f"schema {SCHEMA_VERSION}",
            )
        migration(conn, tables)
        version += 1
        _set_meta(conn, tables, "schema_version", str(version))
    return version


def prepare_tables(conn: psycopg.Connection[Any], tables: Tables) -> int:
    """Create the tables if missing, or check and migrate them; returns the schema version.

    Runs in one transaction under the schema's advisory lock: processes opening the same
    cache at once create (or migrate) it exactly once.
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key(tables.name, "schema"),))
        existing = _existing_tables(conn, tables.name)
        if not existing:
            _create_base(conn, tables)
        elif "meta" not in existing or "entries" not in existing:
            raise PostgresSchemaError(
                tables.name,
                f"holds tables of another application ({', '.join(sorted(existing)[:5])}); "
                "use another schema",
            )
        return _check_version(conn, tables)


def has_vector_column(conn: psycopg.Connection[Any], tables: Tables) -> bool:
    row = conn.execute(
        "SELECT 1 FROM information_schema.columns "
        "WHERE table_schema = %s AND table_name = 'entries' AND column_name = 'embedding'",
        (tables.name,),
    ).fetchone()
    return row is not None


def ensure_pgvector(conn: psycopg.Connection[Any], tables: Tables) -> None:
    """Install pgvector if it is missing (needs the privilege to; a clear error otherwise)."""
    if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
        return
    try:
        with conn.transaction():
            # Processes opening a new database at once: one creates it, the others wait.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (lock_key("", "pgvector"),))
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except psycopg.errors.DatabaseError as error:
        raise PostgresSchemaError(
            tables.name,
            f"pgvector is not installed in this database and cannot be installed ({error}); "
            "run CREATE EXTENSION vector as a superuser",
        ) from error


# Vectors up to this dimension stay inside their row (no TOAST): reading one for a distance
# then costs no extra lookups, and the planner prefers the HNSW index. Measured at 2,000
# entries of 512 dimensions: 2 ms instead of 40 ms per nearest lookup.
INLINE_VECTOR_MAX_DIM = 1536


def vector_column_sql(tables: Tables, dim: int) -> Sequence[sql.Composed]:
    """Statements that (re)create the vector column for ``dim``; the last one creates its
    HNSW index (run it after filling the column: building at once is faster)."""
    storage = "PLAIN" if dim <= INLINE_VECTOR_MAX_DIM else "EXTERNAL"
    return (
        tables.q(
            "DROP INDEX IF EXISTS {index}", index=sql.Identifier(tables.name, "entries_embedding")
        ),
        tables.q("ALTER TABLE {entries} DROP COLUMN IF EXISTS embedding"),
        tables.q(
            "ALTER TABLE {entries} ADD COLUMN embedding vector({dim}) STORAGE {storage}",
            dim=sql.Literal(dim),
            storage=sql.SQL(storage),
        ),
        tables.q(
            "CREATE INDEX entries_embedding ON {entries} USING hnsw (embedding vector_ip_ops)"
        ),
    )
