"""The cache over LangChain vector stores and embeddings."""

from __future__ import annotations

from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.vectorstores import InMemoryVectorStore

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core.stores.local import LocalStore, MemoryStore
from stepcache_integrations.langchain import (
    FAISSVectorStore,
    LangChainEmbedder,
    StructuralEmbeddings,
    VectorStoreIndex,
)
from tests.conftest import ScriptedChatModel, solve_steps


def eq(v: str = "x", b: int = 5) -> str:
    return f"Solve for {v}: 3{v} + {b} = 20. Show each step as 'Step N:'."


def model() -> ScriptedChatModel:
    return ScriptedChatModel(responder=lambda m: solve_steps(str(m[-1].content)))


def test_cache_over_the_faiss_vector_store_reuses_and_isolates() -> None:
    store = FAISSVectorStore(StructuralEmbeddings())
    cache = StepCache(index=VectorStoreIndex(store))
    llm = StepCacheLLM(llm=model(), step_cache=cache)
    llm.invoke(eq())
    assert len(store.get_by_ids(list(store._docs))) == 1
    reused = llm.invoke(eq("y"))
    assert reused.response_metadata["stepcache"]["decision"] == "reuse"
    other = StepCacheLLM(llm=model(), step_cache=cache, tenant="acme").invoke(eq("y"))
    assert other.response_metadata["stepcache"]["decision"] == "miss"


def test_two_caches_sharing_one_store_share_entries() -> None:
    """What a fleet does: every server's StepCache points at the same store."""
    store = FAISSVectorStore(StructuralEmbeddings())
    shared_entries = StepCache(index=VectorStoreIndex(store))
    first = StepCacheLLM(llm=model(), step_cache=shared_entries)
    first.invoke(eq())
    second = StepCacheLLM(llm=model(), step_cache=StepCache(index=VectorStoreIndex(store)))
    # The second server has no entry of its own yet, but finds the first one's in the store;
    # its own entry store does not hold the payload, so the match is a miss there: payloads
    # are shared through a shared entry store (StepCache(path=...) on shared storage).
    namespace = next(iter(first.step_cache.store)).namespace
    second_store = second.step_cache.store
    assert isinstance(second_store, LocalStore)
    hits = second_store.index.search(eq("y"), namespace, 1)
    assert hits and hits[0][1] > 0.75


def test_index_drops_hits_from_other_namespaces_even_without_filter_support() -> None:
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=32))
    index = VectorStoreIndex(store, filter_for=None)
    index.add("e1", "Solve for x: 3x + 5 = 20", "ns-a")
    assert index.search("Solve for x: 3x + 5 = 20", "ns-b", 3) == []
    assert [hit[0] for hit in index.search("Solve for x: 3x + 5 = 20", "ns-a", 3)] == ["e1"]
    index.remove(["e1"])
    assert index.search("Solve for x: 3x + 5 = 20", "ns-a", 3) == []


def test_index_with_a_callable_filter_store() -> None:
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=32))
    index = VectorStoreIndex(
        store, filter_for=lambda ns: lambda doc: doc.metadata.get("stepcache_namespace") == ns
    )
    index.add("e1", "Solve for x: 3x + 5 = 20", "ns-a")
    index.add("e2", "Solve for x: 3x + 5 = 20", "ns-b")
    assert [hit[0] for hit in index.search("Solve for x: 3x + 5 = 20", "ns-b", 3)] == ["e2"]
    index.clear()
    assert store.get_by_ids(["e1", "e2"]) == []


def test_langchain_embeddings_as_the_cache_embedder() -> None:
    cache = StepCache(
        store=MemoryStore(embedder=LangChainEmbedder(DeterministicFakeEmbedding(size=16)))
    )
    llm = StepCacheLLM(llm=model(), step_cache=cache)
    llm.invoke(eq())
    assert llm.invoke(eq()).response_metadata["stepcache"]["decision"] == "exact"
    vectors = LangChainEmbedder(DeterministicFakeEmbedding(size=16)).embed(["a", "b"])
    assert vectors.shape == (2, 16)


def test_structural_embeddings_are_langchain_embeddings() -> None:
    embeddings = StructuralEmbeddings()
    a = embeddings.embed_query("Solve for x: 3x + 5 = 20")
    b = embeddings.embed_documents(["Solve for y: 3y + 5 = 20"])[0]
    assert len(a) == len(b) == 512
    assert sum(x * y for x, y in zip(a, b, strict=True)) > 0.75
