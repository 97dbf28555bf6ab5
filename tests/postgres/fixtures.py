"""Fixtures of the Postgres tests (imported by the conftest files that use them)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.postgres.server import fresh_schema, server_url


@pytest.fixture(scope="session")
def postgres_url() -> str:
    return server_url()


@pytest.fixture
def schema(postgres_url: str) -> Iterator[str]:
    with fresh_schema(postgres_url) as name:
        yield name
