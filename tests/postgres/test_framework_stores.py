"""The frameworks' own Postgres vector stores as the cache's vector side: a user who keeps
documents in langchain-postgres ``PGVectorStore`` or LlamaIndex's ``PGVectorStore`` points the
cache at the same database, entries in a :class:`PostgresEntryStore`, against the real server.
Two caches over the same tables stand for two servers of a fleet."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from psycopg import sql

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.local import LocalStore
from stepcache_integrations.core.stores.postgres import PostgresEntryStore
from stepcache_integrations.core.vector_index import VectorIndex
from stepcache_integrations.langchain import StructuralEmbeddings, VectorStoreIndex
from stepcache_integrations.llama_index import LlamaIndexVectorIndex
from tests.conftest import StructuralEmbedding
from tests.postgres.server import drop_schema
from tests.reliability.support import ask, eq

MakeIndex = Callable[[], VectorIndex]


def vectors_in(url: str, schema: str) -> int:
    """Rows in the user's vector tables (the framework store's own schema)."""
    with psycopg.connect(url) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", [schema]
        ).fetchall()
        total = 0
        for (table,) in tables:
            query = sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(schema, table))
            total += int((conn.execute(query).fetchone() or (0,))[0])
    return total


def driver_url(url: str, driver: str) -> str:
    assert url.startswith("postgresql://"), "the framework tests need a URL-form server address"
    return url.replace("postgresql://", f"postgresql+{driver}://", 1)


@pytest.fixture
def langchain_index(postgres_url: str, schema: str) -> Iterator[MakeIndex]:
    from langchain_postgres import Column, PGEngine, PGVectorStore

    engine = PGEngine.from_connection_string(url=driver_url(postgres_url, "psycopg"))
    documents = f"{schema}_docs"  # the user's own schema: the cache keeps to its own
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(documents)))
    engine.init_vectorstore_table(
        "documents",
        512,
        schema_name=documents,
        metadata_columns=[Column("stepcache_namespace", "TEXT")],
        # The cache's entry ids are 32 hex digits: a TEXT id keeps them as they are (a UUID
        # column would hand them back with dashes).
        id_column=Column("langchain_id", "TEXT", nullable=False),
    )

    def make() -> VectorIndex:
        store = PGVectorStore.create_sync(
            engine,
            StructuralEmbeddings(),
            "documents",
            schema_name=documents,
            metadata_columns=["stepcache_namespace"],
        )
        # PGVectorStore scores by cosine distance: the cache wants a similarity.
        return VectorStoreIndex(store, score_to_similarity=lambda distance: 1.0 - distance)

    try:
        yield make
    finally:
        drop_schema(postgres_url, documents)


@pytest.fixture
def llama_index_index(postgres_url: str, schema: str) -> Iterator[MakeIndex]:
    from llama_index.vector_stores.postgres import PGVectorStore

    stores: list[Any] = []
    documents = f"{schema}_docs"

    def make() -> VectorIndex:
        store = PGVectorStore.from_params(
            connection_string=driver_url(postgres_url, "psycopg2"),
            async_connection_string=driver_url(postgres_url, "asyncpg"),
            table_name="documents",
            schema_name=documents,
            embed_dim=512,
            hnsw_kwargs={"hnsw_m": 16, "hnsw_ef_construction": 64, "hnsw_ef_search": 40},
        )
        stores.append(store)
        return LlamaIndexVectorIndex(StructuralEmbedding(), store)

    try:
        yield make
    finally:
        for store in stores:
            store.close()
        drop_schema(postgres_url, documents)


@pytest.fixture(params=["langchain", "llama_index"])
def make_index(request: pytest.FixtureRequest) -> MakeIndex:
    return request.getfixturevalue(f"{request.param}_index")  # type: ignore[no-any-return]


def test_two_servers_share_a_cache_through_the_frameworks_vector_store(
    make_index: MakeIndex, postgres_url: str, schema: str
) -> None:
    caches = [
        StepCache(store=LocalStore(PostgresEntryStore(postgres_url, schema=schema), make_index()))
        for _ in range(2)
    ]
    first, second = caches
    try:
        assert ask(first, eq(0), tenant="acme").record.stored
        assert ask(first, eq(8), tenant="acme").record.stored
        assert vectors_in(postgres_url, f"{schema}_docs") == 2  # in the framework's table
        # The other server: exact from the shared entries, near through the framework's store.
        assert ask(second, eq(0), tenant="acme").record.decision == "exact"
        near = ask(second, eq(0, "y"), tenant="acme")
        assert near.record.decision in ("reuse", "patch") and near.record.similarity > 0.8
        assert near.record.entry_id is not None
        # Another tenant never sees acme's entries, whatever the vector store returns.
        other = ask(second, eq(0, "y"), tenant="globex")
        assert other.record.decision == "miss"
        # Deleting a tenant removes its entries from both halves.
        assert vectors_in(postgres_url, f"{schema}_docs") == 4
        assert second.delete_tenant("acme") == 3
        assert vectors_in(postgres_url, f"{schema}_docs") == 1  # globex's
        assert ask(first, eq(0), tenant="acme").record.decision == "miss"
    finally:
        for cache in caches:
            cache.close()
