"""``stepcache cache --url``: a Postgres cache opened for maintenance, and the redaction of its
password from everything the command prints.

Imported once the ``postgres`` extra is known to be installed. The cache is opened as a
:class:`~stepcache_integrations.core.stores.postgres.PostgresEntryStore`: entries only, no
embedder, so the fleet's vectors are never touched (a cache opened with another embedder
would re-embed every entry). A database that holds no cache is refused, never initialised.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urlsplit

import psycopg
from psycopg import conninfo

from stepcache_integrations.cli.cache_targets import (
    CacheCommandError,
    CacheStats,
    EntryFilter,
)
from stepcache_integrations.core.audit import audit_report
from stepcache_integrations.core.stores.postgres import (
    PoolSettings,
    PostgresEntryStore,
    PostgresSchemaError,
    redact_url,
)
from stepcache_integrations.core.stores.postgres.audit import PostgresAuditLedger
from stepcache_integrations.core.stores.postgres.schema import (
    DB_FORMAT,
    EmbedderIdentity,
    Tables,
    has_vector_column,
    read_meta,
)

__all__ = ["DATABASE_ERRORS", "PostgresTarget", "Redactor", "open_database"]

# What a database can raise once open: one line each (redacted), never a traceback.
DATABASE_ERRORS: tuple[type[Exception], ...] = (psycopg.Error, PostgresSchemaError)

CONNECT_TIMEOUT = 5  # seconds to reach the database before the command gives up

_KEYWORD_PASSWORD = re.compile(r"\bpassword\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&#]+)")


class Redactor:
    """Removes a connection string's password from any text: the URL as given becomes its
    redacted form, and the password itself (in any spelling found in the URL) ``***``.

    Example:
        >>> Redactor("postgresql://app:s3cret@db/cache")("cannot reach postgresql://app:s3cret@db/cache")
        'cannot reach postgresql://app:***@db/cache'
        >>> Redactor("host=db password=s3cret")("bad: password=s3cret")
        'bad: password=***'
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.shown = redact_url(url)
        secrets: set[str] = set()
        if "://" in url:
            try:
                password = urlsplit(url).password
            except ValueError:  # a malformed URL: the pattern below still finds it
                password = None
            if password:
                secrets.update((password, unquote(password)))
        # ``password=...`` in the keyword form, or as a parameter of a URL.
        for found in _KEYWORD_PASSWORD.findall(url):
            secrets.update((found, found.strip("'"), unquote(found)))
        try:
            parsed = conninfo.conninfo_to_dict(url).get("password")
        except psycopg.Error:
            parsed = None
        if parsed:
            secrets.add(str(parsed))
        # Longest first: a password that contains another is replaced whole.
        self.secrets = sorted((s for s in secrets if s), key=len, reverse=True)

    def __call__(self, text: str) -> str:
        text = text.replace(self.url, self.shown)
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _probe(url: str, tables: Tables, redact: Redactor) -> None:
    """Reach the database and make sure the schema holds a cache, without creating anything."""
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
    except psycopg.Error as error:
        raise CacheCommandError(
            redact(f"cannot connect to the database {redact.shown}: {_one_line(error)}")
        ) from None
    try:
        with conn:
            rows = conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (tables.name,),
            ).fetchall()
            names = {str(name) for (name,) in rows}
            if not {"meta", "entries"} <= names:
                held = f" (it holds {', '.join(sorted(names)[:5])})" if names else ""
                raise CacheCommandError(
                    f"the database {redact.shown} holds no stepcache cache in schema "
                    f"{tables.name!r}{held}: --schema names the schema given to "
                    "PostgresStore(url, schema=...)"
                )
            _check_format(conn, tables, redact)
    except psycopg.Error as error:
        raise CacheCommandError(
            redact(f"cannot read the database {redact.shown}: {_one_line(error)}")
        ) from None


def _check_format(conn: psycopg.Connection[Any], tables: Tables, redact: Redactor) -> None:
    try:
        with conn.transaction():
            marker = read_meta(conn, tables, "format")
    except psycopg.Error:  # a ``meta`` table of another shape
        marker = None
    if marker != DB_FORMAT:
        raise CacheCommandError(
            f"schema {tables.name!r} of {redact.shown} holds tables of another application "
            "(no stepcache format marker); --schema names the schema of a PostgresStore"
        )


class PostgresTarget:
    """The cache in one schema of a Postgres database. Build it with :func:`open_database`."""

    def __init__(self, store: PostgresEntryStore, tables: Tables, redact: Redactor) -> None:
        self.store = store
        self.tables = tables
        self.redact = redact

    @property
    def location(self) -> str:
        return self.store.location

    def stats(self) -> CacheStats:
        summary = self.store.summary()
        return CacheStats(
            store="postgres",
            location=self.location,
            schema_version=summary.get("schema_version"),
            cells={
                (row["namespace"], row["tenant"]): int(row["entries"])
                for row in summary["by_namespace_and_tenant"]
            },
            size_bytes=int(summary.get("size_bytes") or 0),  # its tables and indexes
            requests=summary.get("fleet"),
            requests_note="every process of the fleet, since the cache was created",
            details={"schema": self.tables.name},
        )

    def count_matching(self, selected: EntryFilter) -> int:
        return len(self.store.ids_matching(namespace=selected.namespace, tenant=selected.tenant))

    def delete_matching(self, selected: EntryFilter) -> int:
        return self.store.delete_matching(namespace=selected.namespace, tenant=selected.tenant)

    def count_created_before(self, timestamp: float) -> int:
        return len(self.store.ids_created_before(timestamp))

    def delete_created_before(self, timestamp: float) -> int:
        return self.store.delete_created_before(timestamp)

    def check(self) -> dict[str, Any]:
        """Every row decoded; the vectors: rows without one, and which embedder made them."""
        readable = sum(1 for _ in self.store)
        unreadable = self.store.rows.unreadable()
        tables = self.tables
        with self.store.rows.ready.maintenance() as conn:
            (rows,) = conn.execute(tables.q("SELECT count(*) FROM {entries}")).fetchone() or (0,)
            vectors: dict[str, Any] = {"column": has_vector_column(conn, tables)}
            if vectors["column"]:
                (missing,) = conn.execute(
                    tables.q("SELECT count(*) FROM {entries} WHERE embedding IS NULL")
                ).fetchone() or (0,)
                vectors["missing"] = int(missing)
                made_by = EmbedderIdentity.from_json(read_meta(conn, tables, "embedder") or "")
                vectors["embedder"] = (
                    None if made_by is None else {"type": made_by.type, "dim": made_by.dim}
                )
        vectors_ok = not vectors["column"] or (
            vectors["missing"] == 0 and vectors["embedder"] is not None
        )
        return {
            "store": {
                "location": self.location,
                "schema": tables.name,
                "schema_version": self.store.schema_version,
                "rows": int(rows),
                "readable": readable,
                "unreadable": unreadable,
            },
            "entries": readable,
            "vectors": vectors,
            "ok": not unreadable and vectors_ok,
        }

    def audit_report(self) -> dict[str, Any]:
        """What the audits of every process of the fleet found."""
        ledger = PostgresAuditLedger(self.store.rows.ready, self.tables)
        return audit_report(ledger.counts(), ledger.suspensions())

    def resume(self, kind: str, namespace: str | None) -> int:
        return PostgresAuditLedger(self.store.rows.ready, self.tables).resume(kind, namespace)

    def close(self) -> None:
        self.store.close()


def open_database(url: str, schema: str) -> PostgresTarget:
    """The cache in ``schema`` of the database at ``url``; a :class:`CacheCommandError`
    (without the password) when it cannot be reached or holds no cache."""
    redact = Redactor(url)
    try:
        tables = Tables(schema)
    except ValueError as error:
        raise CacheCommandError(f"--schema: {error}") from None
    _probe(url, tables, redact)
    settings = PoolSettings(min_size=1, max_size=1, connect_timeout=CONNECT_TIMEOUT)
    try:
        store = PostgresEntryStore(url, schema=schema, pool=settings)
    except PostgresSchemaError as error:
        raise CacheCommandError(redact(str(error))) from None
    if not store.wait_ready(timeout=0):
        problem = store.rows.ready.problem or f"{redact.shown} is not ready"
        store.close()
        raise CacheCommandError(redact(f"cannot use the database: {problem}"))
    return PostgresTarget(store, tables, redact)
