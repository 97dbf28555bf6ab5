"""The async maintenance methods of the Postgres store do what their sync twins do, without
blocking the event loop (they run in a worker thread)."""

from __future__ import annotations

import asyncio
import time

from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.stores.postgres import PostgresStore
from tests.reliability.support import eq


async def test_async_maintenance(postgres_url: str, schema: str) -> None:
    store = PostgresStore(postgres_url, schema=schema)
    for i, tenant in enumerate(("acme", "acme", "globex", None)):
        store.put(CacheEntry.create(f"ns-{tenant}", tenant, eq(i), [Step("x = 1")], "paragraph"))
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    beat = asyncio.create_task(ticker())
    try:
        summary = await store.asummary()
        assert summary["entries"] == 4
        assert (await store.acheck())["ok"]
        assert await store.arebuild_index() == 4
        assert await store.adelete_matching(tenant="acme") == 2
        assert await store.adelete_created_before(time.time() + 1) == 2
        assert await store.aclear() == 0
        assert ticks > 0  # the loop kept running meanwhile
    finally:
        beat.cancel()
        await store.aclose()
    reopened = PostgresStore(postgres_url, schema=schema)
    assert len(reopened) == 0
    reopened.close()
