"""Promise: the database password never shows: not in stats, summaries, reprs, checks, the
reason a request was bypassed, nor the warnings of an outage."""

from __future__ import annotations

import logging
import tempfile
from urllib.parse import urlsplit, urlunsplit

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.postgres import PostgresStore
from tests.postgres.fixtures import postgres_url, schema
from tests.reliability.support import ask, eq

__all__ = ["postgres_url", "schema"]

SECRET = "s3cret-Pa55"


def with_password(url: str) -> tuple[str, str]:
    """The URL with a password (the server's own, or one it ignores), and that password."""
    parts = urlsplit(url)
    if parts.password:
        return url, parts.password
    user = parts.username or "postgres"
    netloc = f"{user}:{SECRET}@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc)), SECRET


def test_a_working_store_never_shows_its_password(postgres_url: str, schema: str) -> None:
    url, secret = with_password(postgres_url)
    cache = StepCache(store=PostgresStore(url, schema=schema))
    try:
        ask(cache, eq(0))
        store = cache.store
        assert isinstance(store, PostgresStore)
        shown = " ".join(
            str(part)
            for part in (
                repr(store),
                repr(cache),
                store.summary(),
                store.capabilities,
                store.check(),
                cache.stats(),
            )
        )
        assert secret not in shown
        assert "***" in shown
    finally:
        cache.close()


@pytest.mark.parametrize("where", ["user info", "query parameter"])
def test_an_outage_never_shows_the_password(caplog: pytest.LogCaptureFixture, where: str) -> None:
    nowhere = tempfile.mkdtemp(prefix="sc-no-pg-")
    url = (
        f"postgresql://app:{SECRET}@/app?host={nowhere}"
        if where == "user info"
        else f"postgresql://app@/app?host={nowhere}&password={SECRET}"
    )
    with caplog.at_level(logging.DEBUG):
        cache = StepCache(url=url)
        result = ask(cache, eq(0))
        stats = cache.stats()
        cache.close()
    assert result.record.decision == "bypass"
    assert SECRET not in result.record.reason
    assert SECRET not in str(stats)
    assert caplog.records  # the outage was logged...
    assert not [r for r in caplog.records if SECRET in r.getMessage()]  # ...without it
