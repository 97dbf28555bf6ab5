"""One suite for every store: each test runs against memory, SQLite and Postgres.

``make_cache(**kwargs)`` builds a :class:`StepCache` on the store under test;
``make_store(**kwargs)`` builds the bare :class:`CacheStore` (the protocol, without a cache).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.base import CacheStore
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.local import MemoryStore
from tests.postgres.fixtures import postgres_url, schema

__all__ = ["make_cache", "make_store", "postgres_url", "schema", "store_kind"]

MakeCache = Callable[..., StepCache]
MakeStore = Callable[..., CacheStore]

KINDS = ["memory", "sqlite", "postgres"]


@pytest.fixture(params=KINDS)
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_store(
    store_kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[MakeStore]:
    made: list[CacheStore] = []
    # Asked for now, not in make(): the schema is then dropped after the stores are closed.
    database = (
        (request.getfixturevalue("postgres_url"), request.getfixturevalue("schema"))
        if store_kind == "postgres"
        else None
    )

    def make(max_entries: int | None = None) -> CacheStore:
        store: CacheStore
        if store_kind == "memory":
            store = MemoryStore(max_entries=max_entries)
        elif store_kind == "sqlite":
            store = SqliteStore(tmp_path / "cache", max_entries=max_entries)
        else:
            from stepcache_integrations.core.stores.postgres import PostgresStore

            assert database is not None
            url, schema = database
            store = PostgresStore(url, schema=schema, max_entries=max_entries)
        made.append(store)
        return store

    yield make
    for store in made:
        store.close()


@pytest.fixture
def make_cache(make_store: MakeStore) -> MakeCache:
    """A cache on a new store of the kind under test (``max_entries`` bounds the store; every
    other keyword goes to :class:`StepCache`)."""

    def make(*, max_entries: int | None = None, **kwargs: Any) -> StepCache:
        return StepCache(store=make_store(max_entries), **kwargs)

    return make
