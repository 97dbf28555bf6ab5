"""Tests of the LlamaIndex vector store over FaissIndex."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from llama_index.core import Document, MockEmbedding, Settings, StorageContext, VectorStoreIndex
from llama_index.core.llms import MockLLM
from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
)

from stepcache_integrations.core.faiss_index import FaissIndex
from stepcache_integrations.llama_index.vector_store import (
    StepCacheFaissVectorStore,
    compile_filters,
)


def _node(id_: str, embedding: list[float], doc: str, **metadata: object) -> TextNode:
    return TextNode(
        id_=id_,
        text=f"text of {id_}",
        embedding=embedding,
        metadata=metadata,
        relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=doc)},
    )


@pytest.fixture
def store() -> StepCacheFaissVectorStore:
    vs = StepCacheFaissVectorStore()
    vs.add(
        [
            _node("a", [1.0, 0.0, 0.0], "doc1", ns="x", n=1, tags="red"),
            _node("b", [1.0, 1.0, 0.0], "doc1", ns="y", n=2),
            _node("c", [0.0, 1.0, 0.0], "doc2", ns="x", n=3),
            _node("d", [0.0, 0.0, 1.0], "doc2", ns="y", n="four"),
        ]
    )
    return vs


def _query(
    store: StepCacheFaissVectorStore,
    embedding: list[float] | None = None,
    k: int = 4,
    **kwargs: object,
) -> list[str]:
    result = store.query(
        VectorStoreQuery(query_embedding=embedding or [1.0, 0.0, 0.0], similarity_top_k=k, **kwargs)  # type: ignore[arg-type]
    )
    assert result.ids is not None
    return result.ids


def _filters(
    *filters: MetadataFilter | MetadataFilters, condition: FilterCondition = FilterCondition.AND
) -> MetadataFilters:
    return MetadataFilters(filters=list(filters), condition=condition)


# -- adding and querying -------------------------------------------------------------------


def test_query_returns_nodes_ids_and_cosine_similarities(
    store: StepCacheFaissVectorStore,
) -> None:
    result = store.query(VectorStoreQuery(query_embedding=[2.0, 0.0, 0.0], similarity_top_k=3))
    assert result.ids is not None
    assert result.ids[:2] == ["a", "b"]
    assert result.ids[2] in {"c", "d"}  # "c" and "d" tie at 0
    assert result.similarities == pytest.approx([1.0, 2**-0.5, 0.0], abs=1e-6)
    assert result.nodes is not None
    assert [node.node_id for node in result.nodes] == result.ids
    assert result.nodes[0].get_content() == "text of a"
    assert result.nodes[0].metadata["ns"] == "x"


def test_stores_text_and_keeps_no_duplicate_embedding(store: StepCacheFaissVectorStore) -> None:
    assert store.stores_text is True
    assert isinstance(store.client, FaissIndex)
    assert len(store.client) == 4
    assert len(store.get_nodes()) == 4
    assert all(node.embedding is None for node in store.get_nodes())


def test_empty_store_is_truthy() -> None:
    # StorageContext.from_defaults does ``if vector_store:``; a falsy empty store would be
    # replaced by a SimpleVectorStore without a word.
    store = StepCacheFaissVectorStore()
    assert bool(store)
    assert StorageContext.from_defaults(vector_store=store).vector_store is store


def test_results_are_copies(store: StepCacheFaissVectorStore) -> None:
    node = store.get_nodes(["a"])[0]
    node.metadata["ns"] = "mutated"
    assert store.get_nodes(["a"])[0].metadata["ns"] == "x"


def test_adding_an_existing_id_replaces_it(store: StepCacheFaissVectorStore) -> None:
    store.add([_node("a", [0.0, 0.0, 1.0], "doc3", ns="z")])
    assert len(store.get_nodes()) == 4
    assert set(_query(store, [0.0, 0.0, 1.0], k=2)) == {"a", "d"}
    assert store.get_nodes(["a"])[0].metadata == {"ns": "z"}
    assert _query(store, [1.0, 0.0, 0.0], k=1) == ["b"]


def test_node_without_embedding_is_rejected() -> None:
    vs = StepCacheFaissVectorStore()
    with pytest.raises(ValueError, match="'n1' has no embedding"):
        vs.add([TextNode(id_="n1", text="no vector")])
    assert vs.get_nodes() == []


def test_ragged_embeddings_are_rejected() -> None:
    vs = StepCacheFaissVectorStore()
    with pytest.raises(ValueError, match="different lengths"):
        vs.add([_node("a", [1.0, 0.0], "d"), _node("b", [1.0], "d")])
    assert vs.client is None


def test_dimension_mismatch_is_rejected(store: StepCacheFaissVectorStore) -> None:
    with pytest.raises(ValueError, match="dimension"):
        store.add([_node("e", [1.0, 0.0], "doc1")])
    with pytest.raises(ValueError, match="dimension"):
        _query(store, [1.0, 0.0])


def test_empty_store_query_returns_nothing() -> None:
    result = StepCacheFaissVectorStore().query(VectorStoreQuery(query_embedding=[1.0, 0.0]))
    assert result.ids == []
    assert result.nodes == []


def test_bad_queries_raise(store: StepCacheFaissVectorStore) -> None:
    with pytest.raises(ValueError, match="query_embedding"):
        store.query(VectorStoreQuery(query_str="text only"))
    with pytest.raises(ValueError, match="similarity_top_k"):
        _query(store, k=0)
    with pytest.raises(NotImplementedError, match="mmr"):
        store.query(
            VectorStoreQuery(query_embedding=[1.0, 0.0, 0.0], mode=VectorStoreQueryMode.MMR)
        )


def test_doc_ids_and_node_ids_restrict_the_query(store: StepCacheFaissVectorStore) -> None:
    assert _query(store, [0.0, 1.0, 0.5], doc_ids=["doc2"]) == ["c", "d"]
    assert _query(store, node_ids=["d", "b"]) == ["b", "d"]
    # Empty lists restrict nothing (VectorStoreIndex passes node_ids=[] for such stores).
    assert len(_query(store, node_ids=[], doc_ids=[])) == 4


# -- filters -------------------------------------------------------------------------------


def test_eq_filters_combine_with_and(store: StepCacheFaissVectorStore) -> None:
    filters = _filters(MetadataFilter(key="ns", value="x"), MetadataFilter(key="n", value=3))
    assert _query(store, filters=filters) == ["c"]
    assert _query(store, filters=_filters(MetadataFilter(key="ns", value="y"))) == ["b", "d"]


def test_or_not_and_nested_filters(store: StepCacheFaissVectorStore) -> None:
    either = _filters(
        MetadataFilter(key="n", value=1),
        MetadataFilter(key="n", value=3),
        condition=FilterCondition.OR,
    )
    assert _query(store, filters=either) == ["a", "c"]
    neither = _filters(MetadataFilter(key="ns", value="y"), condition=FilterCondition.NOT)
    assert _query(store, filters=neither) == ["a", "c"]
    nested = _filters(either, MetadataFilter(key="tags", value="red"))
    assert _query(store, filters=nested) == ["a"]


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (MetadataFilter(key="n", value=2, operator=FilterOperator.NE), {"a", "c", "d"}),
        (MetadataFilter(key="n", value=2, operator=FilterOperator.GT), {"c"}),
        (MetadataFilter(key="n", value=2, operator=FilterOperator.GTE), {"b", "c"}),
        (MetadataFilter(key="n", value=2, operator=FilterOperator.LT), {"a"}),
        (MetadataFilter(key="n", value=2, operator=FilterOperator.LTE), {"a", "b"}),
        (MetadataFilter(key="n", value=[1, 3], operator=FilterOperator.IN), {"a", "c"}),
        (MetadataFilter(key="n", value=[1, 3], operator=FilterOperator.NIN), {"b", "d"}),
        # A missing key matches only the negative operators.
        (MetadataFilter(key="tags", value="red", operator=FilterOperator.NE), {"b", "c", "d"}),
        (MetadataFilter(key="tags", value="blue"), set()),
    ],
)
def test_comparison_operators(
    store: StepCacheFaissVectorStore, flt: MetadataFilter, expected: set[str]
) -> None:
    assert set(_query(store, filters=_filters(flt))) == expected


def test_unsupported_operator_raises_not_implemented(store: StepCacheFaissVectorStore) -> None:
    flt = MetadataFilter(key="ns", value="x", operator=FilterOperator.TEXT_MATCH)
    with pytest.raises(NotImplementedError, match=r"TEXT_MATCH.*'ns'"):
        _query(store, filters=_filters(flt))
    with pytest.raises(NotImplementedError, match="ANY"):
        compile_filters(_filters(MetadataFilter(key="k", value=["a"], operator=FilterOperator.ANY)))


def test_in_filter_needs_a_list() -> None:
    with pytest.raises(ValueError, match="list value"):
        compile_filters(_filters(MetadataFilter(key="k", value="a", operator=FilterOperator.IN)))


# -- reading and deleting ------------------------------------------------------------------


def test_get_nodes_by_ids_and_filters(store: StepCacheFaissVectorStore) -> None:
    assert [n.node_id for n in store.get_nodes(["c", "missing", "a"])] == ["c", "a"]
    by_filter = store.get_nodes(filters=_filters(MetadataFilter(key="ns", value="x")))
    assert sorted(n.node_id for n in by_filter) == ["a", "c"]
    both = store.get_nodes(["a", "b"], filters=_filters(MetadataFilter(key="ns", value="y")))
    assert [n.node_id for n in both] == ["b"]


def test_delete_by_ref_doc_id(store: StepCacheFaissVectorStore) -> None:
    store.delete("doc1")
    assert sorted(n.node_id for n in store.get_nodes()) == ["c", "d"]
    assert set(_query(store, k=4)) == {"c", "d"}
    store.delete("no-such-doc")
    assert len(store.get_nodes()) == 2


def test_delete_nodes_by_ids_and_filters(store: StepCacheFaissVectorStore) -> None:
    store.delete_nodes(["a", "missing"])
    assert "a" not in _query(store)
    store.delete_nodes(filters=_filters(MetadataFilter(key="ns", value="y")))
    assert [n.node_id for n in store.get_nodes()] == ["c"]
    store.delete_nodes()
    assert len(store.get_nodes()) == 0


def test_clear(store: StepCacheFaissVectorStore) -> None:
    store.clear()
    assert store.get_nodes() == []
    assert _query(store) == []


async def test_async_methods(store: StepCacheFaissVectorStore) -> None:
    await store.async_add([_node("e", [1.0, 0.0, 0.1], "doc3")])
    result = await store.aquery(VectorStoreQuery(query_embedding=[1.0, 0.0, 0.0]))
    assert result.ids == ["a"]
    await store.adelete("doc3")
    assert len(store.get_nodes()) == 4


# -- inside a VectorStoreIndex -------------------------------------------------------------


@pytest.fixture
def mock_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # Record the private values so teardown restores them exactly: the public getters
    # would resolve (and require) the OpenAI defaults.
    monkeypatch.setattr(Settings, "_llm", Settings._llm)
    monkeypatch.setattr(Settings, "_embed_model", Settings._embed_model)
    Settings.llm = MockLLM()
    Settings.embed_model = MockEmbedding(embed_dim=8)
    yield


@pytest.mark.usefixtures("mock_settings")
def test_vector_store_index_round_trip() -> None:
    store = StepCacheFaissVectorStore()
    docs = [
        Document(text="Solve 2x + 3 = 7.", doc_id="eq", metadata={"task": "math"}),
        Document(text="Return JSON with keys a and b.", doc_id="js", metadata={"task": "json"}),
    ]
    index = VectorStoreIndex.from_documents(
        docs,
        storage_context=StorageContext.from_defaults(vector_store=store),
        embed_model=MockEmbedding(embed_dim=8),
    )
    assert len(store.get_nodes()) == 2
    assert store.client is not None
    assert store.client.dim == 8

    hits = index.as_retriever(similarity_top_k=2).retrieve("solve an equation")
    assert sorted(hit.node.ref_doc_id or "" for hit in hits) == ["eq", "js"]
    # MockEmbedding gives every text the same vector: cosine 1 everywhere.
    assert [hit.score for hit in hits] == pytest.approx([1.0, 1.0])

    filtered = index.as_retriever(
        similarity_top_k=2, filters=_filters(MetadataFilter(key="task", value="json"))
    ).retrieve("anything")
    assert [hit.node.ref_doc_id for hit in filtered] == ["js"]
    assert filtered[0].node.get_content() == "Return JSON with keys a and b."

    response = index.as_query_engine(similarity_top_k=1).query("what is x?")
    assert len(response.source_nodes) == 1
    assert response.source_nodes[0].node.ref_doc_id in {"eq", "js"}

    index.delete_ref_doc("eq")
    assert [n.ref_doc_id for n in store.get_nodes()] == ["js"]
    index.insert(Document(text="Solve 5y - 1 = 9.", doc_id="eq2"))
    assert sorted(n.ref_doc_id or "" for n in store.get_nodes()) == ["eq2", "js"]


@pytest.mark.usefixtures("mock_settings")
async def test_vector_store_index_async_retrieve() -> None:
    store = StepCacheFaissVectorStore()
    index = VectorStoreIndex.from_documents(
        [Document(text="Solve 2x + 3 = 7.", doc_id="eq")],
        storage_context=StorageContext.from_defaults(vector_store=store),
    )
    hits = await index.as_retriever(similarity_top_k=3).aretrieve("solve")
    assert [hit.node.ref_doc_id for hit in hits] == ["eq"]
