"""Promise: deleting "no tenant" never deletes another tenant's entries (data loss)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stepcache_integrations.core.cache import StepCache
from tests.reliability.support import ask, eq


@pytest.fixture(params=["memory", "sqlite"])
def cache(request: pytest.FixtureRequest, tmp_path: Path) -> StepCache:
    if request.param == "memory":
        return StepCache()
    return StepCache(path=tmp_path / "cache")


def test_delete_tenant_none_removes_only_entries_without_a_tenant(cache: StepCache) -> None:
    for tenant in ("acme", "globex", None):
        for i in range(3):
            assert ask(cache, eq(i), tenant=tenant).record.stored
    assert len(cache) == 9

    assert cache.delete_tenant(None) == 3

    assert sorted({entry.tenant or "" for entry in cache.store}) == ["acme", "globex"]
    assert len(cache) == 6
    # The other tenants' answers are still served without a model call.
    for tenant in ("acme", "globex"):
        assert ask(cache, eq(0), tenant=tenant).record.decision == "exact"
    cache.close()


def test_delete_tenant_and_namespace_refuse_non_strings(cache: StepCache) -> None:
    ask(cache, eq(0), tenant="acme")
    with pytest.raises(TypeError, match="tenant"):
        cache.delete_tenant(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="namespace"):
        cache.delete_namespace(None)  # type: ignore[arg-type]
    assert len(cache) == 1
    cache.close()
