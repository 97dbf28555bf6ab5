"""LangChain's standard VectorStore suite run against FAISSVectorStore."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import VectorStore
from langchain_tests.integration_tests import VectorStoreIntegrationTests

from stepcache_integrations.langchain.vectorstore import FAISSVectorStore


class TestFAISSVectorStoreStandard(VectorStoreIntegrationTests):
    """Every sync and async test of the suite; ``get_by_ids`` is supported."""

    @pytest.fixture
    def vectorstore(self) -> Iterator[VectorStore]:
        store = FAISSVectorStore(self.get_embeddings())
        try:
            yield store
        finally:
            store.delete()


# -- behaviour beyond the standard suite --------------------------------------------------


class AxisEmbeddings(Embeddings):
    """Maps a few known words to fixed 3-d vectors, so cosine scores are known exactly."""

    VECTORS: ClassVar[dict[str, list[float]]] = {
        "x": [1.0, 0.0, 0.0],
        "y": [0.0, 1.0, 0.0],
        "z": [0.0, 0.0, 1.0],
        "xy": [1.0, 1.0, 0.0],
        "-x": [-1.0, 0.0, 0.0],
    }

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.VECTORS[text]


@pytest.fixture
def store() -> FAISSVectorStore:
    return FAISSVectorStore.from_texts(
        ["x", "y", "z", "xy"],
        AxisEmbeddings(),
        metadatas=[{"ns": "a", "n": 1}, {"ns": "b", "n": 2}, {"ns": "a", "n": 3}, {"ns": "b"}],
        ids=["1", "2", "3", "4"],
    )


def test_scores_are_cosine_similarities(store: FAISSVectorStore) -> None:
    pairs = store.similarity_search_with_score("x", k=4)
    # "y" and "z" tie at 0, so only the first two positions are ordered.
    assert [doc.id for doc, _ in pairs][:2] == ["1", "4"]
    assert {doc.id for doc, _ in pairs[2:]} == {"2", "3"}
    assert [score for _, score in pairs] == pytest.approx([1.0, 2**-0.5, 0.0, 0.0], abs=1e-6)


def test_relevance_scores_are_in_unit_interval(store: FAISSVectorStore) -> None:
    store.add_texts(["-x"], ids=["5"])
    pairs = store.similarity_search_with_relevance_scores("x", k=5)
    scores = {doc.id: score for doc, score in pairs}
    assert scores["1"] == pytest.approx(1.0)
    assert scores["5"] == pytest.approx(0.0, abs=1e-6)
    assert scores["2"] == pytest.approx(0.5)
    thresholded = store.similarity_search_with_relevance_scores("x", k=5, score_threshold=0.8)
    assert [doc.id for doc, _ in thresholded] == ["1", "4"]


def test_dict_filter_is_exact_match(store: FAISSVectorStore) -> None:
    docs = store.similarity_search("x", k=4, filter={"ns": "b"})
    assert [doc.id for doc in docs] == ["4", "2"]
    assert store.similarity_search("x", k=4, filter={"ns": "a", "n": 3}) == [
        Document(id="3", page_content="z", metadata={"ns": "a", "n": 3})
    ]
    assert store.similarity_search("x", k=4, filter={"missing": None}) == []


def test_callable_filter(store: FAISSVectorStore) -> None:
    docs = store.similarity_search("x", k=4, filter=lambda doc: doc.metadata.get("n", 0) >= 2)
    assert sorted(doc.id or "" for doc in docs) == ["2", "3"]


def test_bad_filter_and_unknown_kwargs_raise(store: FAISSVectorStore) -> None:
    with pytest.raises(TypeError, match="filter must be"):
        store.similarity_search("x", filter=["ns"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="fliter"):
        store.similarity_search("x", fliter={"ns": "a"})
    with pytest.raises(ValueError, match="k must be"):
        store.similarity_search("x", k=0)


def test_results_are_copies(store: FAISSVectorStore) -> None:
    doc = store.similarity_search("x", k=1)[0]
    doc.metadata["ns"] = "mutated"
    assert store.get_by_ids(["1"])[0].metadata["ns"] == "a"


def test_search_by_vector_and_mmr(store: FAISSVectorStore) -> None:
    assert [doc.id for doc in store.similarity_search_by_vector([0.0, 2.0, 0.0], k=1)] == ["2"]
    # Plain similarity picks x then xy; MMR trades xy (too close to x) for a diverse doc.
    mmr = store.max_marginal_relevance_search("x", k=2, fetch_k=4, lambda_mult=0.3)
    assert mmr[0].id == "1"
    assert mmr[1].id != "4"
    assert store.as_retriever(search_type="mmr", search_kwargs={"k": 1}).invoke("y")[0].id == "2"


def test_duplicate_ids_in_one_call_keep_the_last(store: FAISSVectorStore) -> None:
    assert store.add_texts(["y", "z"], ids=["9", "9"]) == ["9", "9"]
    assert store.get_by_ids(["9"]) == [Document(id="9", page_content="z", metadata={})]
    assert len(store.similarity_search("x", k=10)) == 5


def test_dimension_mismatch_raises(store: FAISSVectorStore) -> None:
    class Wide(AxisEmbeddings):
        def embed_query(self, text: str) -> list[float]:
            return [*super().embed_query(text), 0.0]

    store._embedding = Wide()  # as if the store were reused with another model
    with pytest.raises(ValueError, match="dimension"):
        store.add_texts(["x"], ids=["new"])
    assert store.get_by_ids(["new"]) == []
    with pytest.raises(ValueError, match="dimension"):
        store.similarity_search("x")


def test_length_mismatches_raise(store: FAISSVectorStore) -> None:
    with pytest.raises(ValueError, match="metadatas"):
        store.add_texts(["x", "y"], [{}])
    with pytest.raises(ValueError, match="ids"):
        store.add_texts(["x", "y"], ids=["a"])
    with pytest.raises(ValueError, match="ids"):
        store.add_documents([Document(page_content="x")], ids=["a", "b"])


def test_delete_none_clears_everything(store: FAISSVectorStore) -> None:
    assert store.delete() is True
    assert store.get_by_ids(["1", "2", "3", "4"]) == []
    assert bool(store)  # an empty store is still a store
    assert store.similarity_search("x") == []
    with pytest.raises(TypeError, match="single str"):
        store.delete("1")  # type: ignore[arg-type]


async def test_async_from_texts_and_search() -> None:
    store = await FAISSVectorStore.afrom_texts(["x", "y"], AxisEmbeddings(), ids=["a", "b"])
    docs = await store.asimilarity_search("y", k=1)
    assert docs == [Document(id="b", page_content="y", metadata={})]
