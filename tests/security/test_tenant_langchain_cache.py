"""Promise: LangChain's own response cache can never hand one tenant another's answer.

LangChain's cache keys on the model's parameters and the messages; the tenant of a call is
in neither. The wrapper refuses ``cache=`` (and ignores the global cache); an inner model
that would answer through a LangChain cache is refused as soon as a tenant is used.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langchain_core.caches import InMemoryCache
from langchain_core.globals import set_llm_cache

from stepcache_integrations import StepCache, StepCacheLLM
from tests.conftest import ScriptedChatModel


def model() -> ScriptedChatModel:
    return ScriptedChatModel(responder=lambda m: f"private answer #{len(m)}")


@pytest.fixture
def global_cache() -> Iterator[InMemoryCache]:
    cache = InMemoryCache()
    set_llm_cache(cache)
    yield cache
    set_llm_cache(None)


@pytest.mark.parametrize("cache", [InMemoryCache(), True])
def test_cache_on_the_wrapper_is_refused_with_the_fix(cache: object) -> None:
    with pytest.raises(ValueError, match="cache=") as error:
        StepCacheLLM(llm=model(), cache=cache)
    assert "tenant" in str(error.value)


def test_the_global_cache_never_serves_another_tenant(global_cache: InMemoryCache) -> None:
    llm = StepCacheLLM(llm=model(), step_cache=StepCache())
    assert llm.cache is False  # the wrapper itself never consults the global cache
    with pytest.raises(ValueError, match="cache=False"):
        llm.invoke("What is my balance?", config={"metadata": {"stepcache_tenant": "acme"}})
    assert len(global_cache._cache) == 0  # nothing was asked, nothing was stored


def test_an_inner_model_with_its_own_cache_is_refused_with_tenants() -> None:
    inner = ScriptedChatModel(responder=lambda m: "x", cache=InMemoryCache())
    llm = StepCacheLLM(llm=inner, tenant="acme")
    with pytest.raises(ValueError, match="shared by every tenant"):
        llm.invoke("What is my balance?")
    assert inner.calls == []


def test_without_tenants_the_inner_cache_keeps_working(global_cache: InMemoryCache) -> None:
    inner = model()
    StepCacheLLM(llm=inner, step_cache=StepCache()).invoke("What is my balance?")
    StepCacheLLM(llm=inner, step_cache=StepCache()).invoke("What is my balance?")
    assert len(inner.calls) == 1
