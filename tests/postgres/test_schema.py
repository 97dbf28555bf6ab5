"""Schema versions, migrations, foreign tables, the embedder the vectors belong to, and the
entry store that needs no vectors."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import psycopg
import pytest
from psycopg import sql

from stepcache_integrations.core.embeddings import StructuralEmbedder, Vectors
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.stores.base import StoreUnavailable
from stepcache_integrations.core.stores.local import LocalStore
from stepcache_integrations.core.stores.postgres import (
    PostgresEntryStore,
    PostgresSchemaError,
    PostgresStore,
)
from stepcache_integrations.core.stores.postgres import (
    schema as schema_module,
)
from tests.reliability.support import eq


def entry(i: int, namespace: str = "ns", var: str = "x") -> CacheEntry:
    return CacheEntry.create(namespace, None, eq(i, var), [Step(f"x = {i}")], "paragraph")


def execute(url: str, statement: sql.Composable, params: Sequence[object] = ()) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement, params)


def set_version(url: str, schema: str, version: str) -> None:
    execute(
        url,
        sql.SQL("UPDATE {} SET value = %s WHERE key = 'schema_version'").format(
            sql.Identifier(schema, "meta")
        ),
        [version],
    )


def test_a_newer_schema_is_a_clear_error(postgres_url: str, schema: str) -> None:
    PostgresStore(postgres_url, schema=schema).close()
    set_version(postgres_url, schema, "99")
    with pytest.raises(PostgresSchemaError, match="newer stepcache-integrations"):
        PostgresStore(postgres_url, schema=schema)


def test_an_older_schema_is_migrated_and_keeps_every_entry(
    postgres_url: str, schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = PostgresStore(postgres_url, schema=schema)
    for i in range(5):
        store.put(entry(i))
    store.close()
    ran: list[int] = []

    def to_two(conn: psycopg.Connection[object], tables: schema_module.Tables) -> None:
        ran.append(1)
        conn.execute(tables.q("ALTER TABLE {entries} ADD COLUMN note text"))

    current = schema_module.SCHEMA_VERSION
    monkeypatch.setattr(schema_module, "SCHEMA_VERSION", current + 1)
    monkeypatch.setitem(schema_module.MIGRATIONS, current, to_two)
    store = PostgresStore(postgres_url, schema=schema)
    try:
        assert ran == [1] and store.schema_version == current + 1
        assert len(store) == 5 and store.check()["ok"]
    finally:
        store.close()
    reopened = PostgresStore(postgres_url, schema=schema)  # migrated once, not again
    assert ran == [1]
    reopened.close()


def test_an_older_schema_without_migration_is_a_clear_error(
    postgres_url: str, schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    PostgresStore(postgres_url, schema=schema).close()
    monkeypatch.setattr(schema_module, "SCHEMA_VERSION", schema_module.SCHEMA_VERSION + 1)
    with pytest.raises(PostgresSchemaError, match="no migration"):
        PostgresStore(postgres_url, schema=schema)


def test_another_applications_tables_are_refused_and_untouched(
    postgres_url: str, schema: str
) -> None:
    execute(postgres_url, sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
    execute(
        postgres_url,
        sql.SQL("CREATE TABLE {} (id int)").format(sql.Identifier(schema, "orders")),
    )
    with pytest.raises(PostgresSchemaError, match="another application"):
        PostgresStore(postgres_url, schema=schema)
    with psycopg.connect(postgres_url) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", [schema]
        ).fetchall()
    assert tables == [("orders",)]


class OtherEmbedder:
    """Another embedder (a different dimension), counting what it embeds."""

    def __init__(self) -> None:
        self.inner = StructuralEmbedder(dim=128)
        self.texts = 0

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.texts += len(texts)
        return self.inner.embed(texts)


def test_another_embedder_reembeds_and_the_old_one_stops_comparing(
    postgres_url: str, schema: str
) -> None:
    old = PostgresStore(postgres_url, schema=schema)
    for i in range(6):
        old.put(entry(i))
    assert old.nearest(eq(2, "y"), "ns", 1)
    embedder = OtherEmbedder()
    new = PostgresStore(postgres_url, schema=schema, embedder=embedder)
    try:
        assert embedder.texts == 1 + 6  # the probe, then every entry
        assert new.check()["ok"]
        assert new.nearest(eq(2, "y"), "ns", 1)[0][0].prompt == eq(2)
        # The old process must not compare its vectors with the new ones: it bypasses.
        with pytest.raises(StoreUnavailable, match="another embedder"):
            old.nearest(eq(2, "y"), "ns", 1)
        with pytest.raises(StoreUnavailable):
            old.put(entry(7))
        assert old.get_by_key(entry(3).key) is not None  # exact lookups need no vectors
        assert not old.check()["ok"] and old.check()["embedder_matches"] is False
    finally:
        old.close()
        new.close()


def test_a_rebuild_with_the_same_embedder_is_adopted_by_other_processes(
    postgres_url: str, schema: str
) -> None:
    one = PostgresStore(postgres_url, schema=schema)
    two = PostgresStore(postgres_url, schema=schema)
    try:
        for i in range(4):
            one.put(entry(i))
        assert two.rebuild_index() == 4
        assert one.nearest(eq(1, "y"), "ns", 1)[0][0].prompt == eq(1)
        one.put(entry(5))
        assert len(two) == 5
    finally:
        one.close()
        two.close()


def test_entries_from_an_entry_store_are_embedded_by_sync(postgres_url: str, schema: str) -> None:
    entries = PostgresEntryStore(postgres_url, schema=schema, max_entries=100)
    try:
        for i in range(3):
            assert entries.put(entry(i)) == []
        assert len(entries) == 3 and entries.counts() == {("ns", None): 3}
        store = PostgresStore(postgres_url, schema=schema)  # embeds the rows it finds
        assert store.check()["ok"]
        entries.put(entry(9))  # a row without a vector
        assert store.check()["index"]["missing"] == 1
        assert store.sync() == (1, 0)
        assert store.check()["ok"]
        assert store.nearest(eq(9), "ns", 1)[0][0].prompt == eq(9)
        store.close()
    finally:
        entries.close()


def test_the_entry_store_pairs_with_any_vector_index(postgres_url: str, schema: str) -> None:
    entries = PostgresEntryStore(postgres_url, schema=schema, max_entries=2)
    try:
        from stepcache_integrations.core.vector_index import EmbeddingIndex

        store = LocalStore(entries, EmbeddingIndex())
        for i in range(3):
            store.put(entry(i))
        assert len(store) == 2 and store.get(entry(0).id) is None  # evicted, least recent
        found = store.nearest(eq(2, "y"), "ns", 2)
        assert found[0][0].prompt == eq(2)
        assert entries.ids_matching(tenant=None) and entries.ids_matching(tenant="acme") == []
        assert sorted(entries.ids_created_before(float("inf"))) == sorted(e.id for e in entries)
    finally:
        entries.close()


def test_vectors_are_unit_length_in_the_database(postgres_url: str, schema: str) -> None:
    store = PostgresStore(postgres_url, schema=schema)
    try:
        store.put(entry(0))
        with psycopg.connect(postgres_url) as conn:
            (norm,) = conn.execute(
                sql.SQL("SELECT vector_norm(embedding) FROM {}").format(
                    sql.Identifier(schema, "entries")
                )
            ).fetchone() or (None,)
        assert norm is not None and np.isclose(norm, 1.0, atol=1e-5)
    finally:
        store.close()
