"""LangChain's standard cache tests (``langchain-tests``), run against StepCacheLangChainCache.

Both suites, each on a fresh StepCache per test: in memory, and persisted in a directory
(the generations' infos and the other generations are kept with the entry, so they survive a
reopen too: see ``tests/unit/test_langchain_cache.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_tests.integration_tests import AsyncCacheTestSuite, SyncCacheTestSuite

from stepcache_integrations import StepCache, StepCacheLangChainCache
from stepcache_integrations.core import SqliteStore


@pytest.fixture(params=["memory", "directory"])
def step_cache(request: pytest.FixtureRequest, tmp_path: Path) -> StepCache:
    if request.param == "memory":
        return StepCache()
    return StepCache(store=SqliteStore(tmp_path / "cache", durability="normal"))


class TestStepCacheLangChainCacheSync(SyncCacheTestSuite):
    @pytest.fixture
    def cache(self, step_cache: StepCache) -> StepCacheLangChainCache:
        return StepCacheLangChainCache(step_cache)


class TestStepCacheLangChainCacheAsync(AsyncCacheTestSuite):
    @pytest.fixture
    async def cache(self, step_cache: StepCache) -> StepCacheLangChainCache:
        return StepCacheLangChainCache(step_cache)
