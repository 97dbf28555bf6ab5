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
from stepcache_integrations.core.stores.local import LocalStore
from tests.postgres.fixtures import postgres_url, schema

__all__ = ["make_cache", "make_store", "postgres_url", "schema", "store_kind"]

MakeCache = Callable[..., StepCache]
MakeStore = Callable[..., CacheStore]

KINDS = ["memory", "sqlite", "postgres"]


@pytest.fixture(params=KINDS)
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_cache(
    store_kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[MakeCache]:
    made: list[StepCache] = []
    where: dict[str, Any] = {}
    if store_kind == "sqlite":
        where["path"] = tmp_path / "cache"
    elif store_kind == "postgres":
        where["url"] = request.getfixturevalue("postgres_url")
        where["db_schema"] = request.getfixturevalue("schema")

    def make(**kwargs: Any) -> StepCache:
        cache = StepCache(**where, **kwargs)
        made.append(cache)
        return cache

    yield make
    for cache in made:
        cache.close()


@pytest.fixture
def make_store(
    store_kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[MakeStore]:
    made: list[CacheStore] = []

    def make(max_entries: int | None = None) -> CacheStore:
        store: CacheStore
        if store_kind == "memory":
            store = LocalStore.in_memory(max_entries=max_entries)
        elif store_kind == "sqlite":
            store = LocalStore.open_directory(tmp_path / "cache", max_entries=max_entries)
        else:
            from stepcache_integrations.core.stores.postgres import PostgresStore

            store = PostgresStore(
                request.getfixturevalue("postgres_url"),
                schema=request.getfixturevalue("schema"),
                max_entries=max_entries,
            )
        made.append(store)
        return store

    yield make
    for store in made:
        store.close()
