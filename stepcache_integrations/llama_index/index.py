"""The cache's retrieval side over LlamaIndex: any vector store, any embedding model.

:class:`LlamaIndexVectorIndex` is a core :class:`~stepcache_integrations.core.vector_index.
VectorIndex` over a LlamaIndex vector store (a shared store is how a fleet of servers shares
one cache); namespaces are kept apart by a metadata filter. :class:`LlamaIndexEmbedder` lets
the default FAISS index embed with any LlamaIndex embedding model instead.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode
from llama_index.core.vector_stores.types import (
    BasePydanticVectorStore,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)

from stepcache_integrations.core.embeddings import Vectors
from stepcache_integrations.llama_index.vector_store import StepCacheFaissVectorStore

__all__ = ["NAMESPACE_METADATA_KEY", "LlamaIndexEmbedder", "LlamaIndexVectorIndex"]

NAMESPACE_METADATA_KEY = "stepcache_namespace"
"""Node metadata key holding the cache namespace of a stored request."""


def _check_embed_model(embed_model: object) -> BaseEmbedding:
    if not isinstance(embed_model, BaseEmbedding):
        raise ValueError(
            f"embed_model must be a LlamaIndex BaseEmbedding, got {type(embed_model).__name__}"
        )
    return embed_model


class LlamaIndexEmbedder:
    """A core ``Embedder`` over any LlamaIndex embedding model.

    Example:
        >>> from llama_index.core import MockEmbedding
        >>> from stepcache_integrations import StepCache
        >>> from stepcache_integrations.core.stores import MemoryStore
        >>> embedder = LlamaIndexEmbedder(MockEmbedding(embed_dim=8))
        >>> embedder.embed(["a", "b"]).shape
        (2, 8)
        >>> cache = StepCache(store=MemoryStore(embedder=embedder))  # FAISS, your embeddings
    """

    def __init__(self, embed_model: BaseEmbedding) -> None:
        self.embed_model = _check_embed_model(embed_model)

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts`` with the model's text embedding (cached prompts and new prompts
        are the same kind of text, so both sides use the same function)."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        vectors = self.embed_model.get_text_embedding_batch(list(texts))
        try:
            array = np.asarray(vectors, dtype=np.float32)
        except ValueError as error:
            raise ValueError("the embedding model returned vectors of different lengths") from error
        if array.ndim != 2 or array.shape[0] != len(texts):
            raise ValueError(
                f"the embedding model returned shape {array.shape} for {len(texts)} texts"
            )
        return array


class LlamaIndexVectorIndex:
    """A cache index over any LlamaIndex vector store and embedding model.

    Each cached request is a ``TextNode`` (id = entry id, text = the prompt) with its
    namespace in ``metadata["stepcache_namespace"]``; searches filter on it, so the store
    must support ``MetadataFilters`` with ``EQ`` and return similarities where higher is
    closer (cosine, as LlamaIndex's ``SimpleVectorStore`` and
    :class:`StepCacheFaissVectorStore` do). The cache re-checks the namespace of every hit,
    so a store that ignores filters costs misses, never isolation.

    Example:
        >>> from llama_index.core import MockEmbedding
        >>> from llama_index.core.vector_stores import SimpleVectorStore
        >>> from stepcache_integrations import StepCache
        >>> index = LlamaIndexVectorIndex(MockEmbedding(embed_dim=8), SimpleVectorStore())
        >>> index.add("e1", "Solve for x: 3x + 5 = 20", "ns")
        >>> [entry for entry, _ in index.search("Solve for y: 2y + 1 = 9", "ns")]
        ['e1']
        >>> index.search("Solve for y: 2y + 1 = 9", "other-ns")
        []
        >>> cache = StepCache(index=index)
    """

    def __init__(
        self,
        embed_model: BaseEmbedding,
        vector_store: BasePydanticVectorStore | None = None,
    ) -> None:
        self.embed_model = _check_embed_model(embed_model)
        if vector_store is not None and not isinstance(vector_store, BasePydanticVectorStore):
            raise ValueError(
                "vector_store must be a LlamaIndex BasePydanticVectorStore, got "
                f"{type(vector_store).__name__}"
            )
        self.vector_store: BasePydanticVectorStore = (
            vector_store if vector_store is not None else StepCacheFaissVectorStore()
        )
        # Ids added through this object: ``clear`` removes these and nothing else.
        self._ids: set[str] = set()
        self._lock = threading.Lock()

    def add(self, entry_id: str, text: str, namespace: str) -> None:
        """Store one cached request (an existing id is replaced)."""
        node = TextNode(
            id_=entry_id,
            text=text,
            embedding=self.embed_model.get_text_embedding(text),
            metadata={NAMESPACE_METADATA_KEY: namespace},
            # The entry is its own source document: ``delete(ref_doc_id)`` then removes it on
            # stores that cannot delete single nodes.
            relationships={NodeRelationship.SOURCE: RelatedNodeInfo(node_id=entry_id)},
            excluded_embed_metadata_keys=[NAMESPACE_METADATA_KEY],
            excluded_llm_metadata_keys=[NAMESPACE_METADATA_KEY],
        )
        self.vector_store.add([node])
        with self._lock:
            self._ids.add(entry_id)

    def search(self, text: str, namespace: str, k: int = 1) -> list[tuple[str, float]]:
        """The ``k`` nearest cached requests of ``namespace``: ``(entry id, similarity)``."""
        if k < 1:
            return []
        query = VectorStoreQuery(
            query_embedding=self.embed_model.get_text_embedding(text),
            query_str=text,
            similarity_top_k=k,
            filters=MetadataFilters(
                filters=[MetadataFilter(key=NAMESPACE_METADATA_KEY, value=namespace)]
            ),
        )
        result = self.vector_store.query(query)
        nodes = result.nodes or []
        ids = result.ids or [node.node_id for node in nodes]
        similarities = result.similarities or []
        hits: list[tuple[str, float]] = []
        for position, (entry_id, score) in enumerate(zip(ids, similarities, strict=False)):
            node = nodes[position] if position < len(nodes) else None
            if node is not None and node.metadata.get(NAMESPACE_METADATA_KEY) != namespace:
                continue  # a store that ignored the filter
            hits.append((entry_id, float(score)))
        return hits

    def remove(self, entry_ids: Sequence[str]) -> None:
        """Delete cached requests by entry id (unknown ids are ignored)."""
        ids = list(entry_ids)
        if not ids:
            return
        try:
            self.vector_store.delete_nodes(node_ids=ids)
        except NotImplementedError:
            for entry_id in ids:
                self.vector_store.delete(entry_id)
        with self._lock:
            self._ids.difference_update(ids)

    def clear(self) -> None:
        """Delete the cached requests this index added (a shared store keeps everyone
        else's nodes, as the LangChain index does)."""
        with self._lock:
            known = list(self._ids)
        self.remove(known)
