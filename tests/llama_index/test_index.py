"""The cache over LlamaIndex vector stores and embedding models."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from llama_index.core import MockEmbedding
from llama_index.core.vector_stores import SimpleVectorStore
from llama_index.core.vector_stores.types import (
    BasePydanticVectorStore,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryResult,
)

from stepcache_integrations import StepCache
from stepcache_integrations.core.stores.local import MemoryStore
from stepcache_integrations.llama_index import (
    NAMESPACE_METADATA_KEY,
    LlamaIndexEmbedder,
    LlamaIndexVectorIndex,
    StepCacheFaissVectorStore,
    StepCacheLLM,
)
from tests.conftest import ScriptedLLM, StructuralEmbedding, eq


class NoDeleteNodesStore(SimpleVectorStore):
    """A store that can only delete whole source documents, and cannot clear."""

    def delete_nodes(
        self,
        node_ids: list[str] | None = None,
        filters: MetadataFilters | None = None,
        **delete_kwargs: Any,
    ) -> None:
        raise NotImplementedError("delete_nodes not implemented")

    def clear(self) -> None:
        raise NotImplementedError("clear not implemented")


class FilterBlindStore(StepCacheFaissVectorStore):
    """A text-storing store that ignores metadata filters."""

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        return super().query(replace(query, filters=None), **kwargs)


class FilterBlindIdsOnlyStore(SimpleVectorStore):
    """A store that ignores metadata filters and returns ids only (no nodes)."""

    def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
        return super().query(replace(query, filters=None), **kwargs)


def stores() -> list[BasePydanticVectorStore]:
    return [StepCacheFaissVectorStore(), SimpleVectorStore()]


@pytest.mark.parametrize("store", stores(), ids=["faiss", "simple"])
def test_search_is_confined_to_the_namespace(store: BasePydanticVectorStore) -> None:
    index = LlamaIndexVectorIndex(StructuralEmbedding(), store)
    index.add("a1", eq(), "ns-a")
    index.add("b1", eq(), "ns-b")
    index.add("a2", "Return only a JSON object with keys a and b.", "ns-a")
    hits = index.search(eq("y", b=7), "ns-a", k=2)
    assert [entry for entry, _ in hits] == ["a1", "a2"]
    assert hits[0][1] > hits[1][1]  # higher is closer
    assert hits[0][1] > 0.75
    assert [entry for entry, _ in index.search(eq(), "ns-b", k=5)] == ["b1"]
    assert index.search(eq(), "ns-c", k=5) == []
    assert index.search(eq(), "ns-a", k=0) == []


@pytest.mark.parametrize("store", stores(), ids=["faiss", "simple"])
def test_remove_and_clear(store: BasePydanticVectorStore) -> None:
    index = LlamaIndexVectorIndex(StructuralEmbedding(), store)
    for n in range(3):
        index.add(f"e{n}", eq(b=n + 1), "ns")
    index.remove(["e0", "missing"])
    assert sorted(entry for entry, _ in index.search(eq(), "ns", k=5)) == ["e1", "e2"]
    index.clear()
    assert index.search(eq(), "ns", k=5) == []


def test_stores_without_delete_nodes_or_clear_still_work() -> None:
    index = LlamaIndexVectorIndex(StructuralEmbedding(), NoDeleteNodesStore())
    index.add("e1", eq(), "ns")
    index.add("e2", eq(b=9), "ns")
    index.remove(["e1"])
    assert [entry for entry, _ in index.search(eq(), "ns", k=5)] == ["e2"]
    index.clear()
    assert index.search(eq(), "ns", k=5) == []


def test_a_store_ignoring_filters_never_leaks_another_namespace() -> None:
    index = LlamaIndexVectorIndex(StructuralEmbedding(), FilterBlindStore())
    index.add("other", eq(), "ns-b")
    assert index.search(eq(), "ns-a", k=3) == []
    # Without nodes to check, the cache's own namespace check keeps tenants apart.
    blind = LlamaIndexVectorIndex(StructuralEmbedding(), FilterBlindIdsOnlyStore())
    llm = StepCacheLLM(llm=ScriptedLLM(), step_cache=StepCache(index=blind))
    llm.complete(eq(), stepcache_tenant="acme")
    other = llm.complete(eq("y"), stepcache_tenant="globex")
    assert other.additional_kwargs["stepcache"]["decision"] == "miss"


def test_nodes_carry_the_prompt_and_namespace() -> None:
    store = StepCacheFaissVectorStore()
    LlamaIndexVectorIndex(MockEmbedding(embed_dim=4), store).add("e1", eq(), "tenant:ns")
    [node] = store.get_nodes(["e1"])
    assert node.get_content() == eq()
    assert node.metadata == {NAMESPACE_METADATA_KEY: "tenant:ns"}
    assert node.ref_doc_id == "e1"


@pytest.mark.parametrize("store", stores(), ids=["faiss", "simple"])
def test_step_cache_over_a_llama_index_store_reuses_and_patches(
    store: BasePydanticVectorStore,
) -> None:
    cache = StepCache(index=LlamaIndexVectorIndex(StructuralEmbedding(), store))
    model = ScriptedLLM()
    llm = StepCacheLLM(llm=model, step_cache=cache)
    # A changed constant whose every step is re-instantiated (3x + 8 = 20: every number
    # traced, every equation checked again) is a reuse; a right side that changes sign
    # (-1 where 20 stood) is not re-instantiated, and the solver writes the steps (the cached
    # "x = 5" shows that the value is asked, as an integer): a patch, no model call.
    decisions = [
        llm.complete(prompt).additional_kwargs["stepcache"]["decision"]
        for prompt in (eq(), eq("y"), eq(b=8), eq(c=-1))
    ]
    assert decisions == ["miss", "reuse", "reuse", "patch"]
    assert len(model.calls) == 1
    cache.clear()
    assert llm.complete(eq("y")).additional_kwargs["stepcache"]["decision"] == "miss"


def test_llama_index_embedder_feeds_the_default_faiss_index() -> None:
    embedder = LlamaIndexEmbedder(StructuralEmbedding())
    vectors = embedder.embed([eq(), eq("y")])
    assert vectors.shape == (2, 512) and vectors.dtype == np.float32
    assert embedder.embed([]).shape[0] == 0
    llm = StepCacheLLM(
        llm=ScriptedLLM(), step_cache=StepCache(store=MemoryStore(embedder=embedder))
    )
    llm.complete(eq())
    assert llm.complete(eq("k")).additional_kwargs["stepcache"]["decision"] == "reuse"


def test_bad_inputs_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="BaseEmbedding"):
        LlamaIndexEmbedder("text-embedding-3-small")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="BaseEmbedding"):
        LlamaIndexVectorIndex(object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="BasePydanticVectorStore"):
        LlamaIndexVectorIndex(MockEmbedding(embed_dim=4), {})  # type: ignore[arg-type]


def test_a_failing_store_costs_a_bypass_never_the_request() -> None:
    class Broken(SimpleVectorStore):
        def query(self, query: VectorStoreQuery, **kwargs: Any) -> VectorStoreQueryResult:
            raise ConnectionError("store down")

    cache = StepCache(index=LlamaIndexVectorIndex(StructuralEmbedding(), Broken()))
    llm = StepCacheLLM(llm=ScriptedLLM(), step_cache=cache)
    llm.complete(eq())
    answer = llm.complete(eq("y"))
    record = answer.additional_kwargs["stepcache"]
    assert record["decision"] == "bypass"
    assert "cache unavailable" in record["reason"] and "store down" in record["reason"]
    assert "y = 5" in answer.text
