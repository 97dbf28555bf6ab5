"""Postgres stores: one cache for a whole fleet (``pip install stepcache-integrations[postgres]``).

- :class:`PostgresStore`: entries and their vectors (pgvector, HNSW) in one database;
  ``StepCache(url="postgresql://...")`` builds one.
- :class:`PostgresEntryStore`: entries only, to pair with another vector store in a
  :class:`~stepcache_integrations.core.stores.local.LocalStore`.
"""

from stepcache_integrations.core.stores.postgres.connection import PoolSettings, redact_url
from stepcache_integrations.core.stores.postgres.entries import PostgresEntryStore
from stepcache_integrations.core.stores.postgres.schema import (
    MIGRATIONS,
    SCHEMA_VERSION,
    PostgresSchemaError,
)
from stepcache_integrations.core.stores.postgres.store import PostgresStore

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "PoolSettings",
    "PostgresEntryStore",
    "PostgresSchemaError",
    "PostgresStore",
    "redact_url",
]
