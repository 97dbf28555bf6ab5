"""A LangChain ``VectorStore`` over :class:`~stepcache_integrations.core.faiss_index.FaissIndex`.

Scores are cosine similarities (higher is closer). Documents live in memory next to the FAISS
index; the index is created on the first add, with the dimension of the first embedding.
"""

from __future__ import annotations

import copy
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Self

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import VectorStore
from langchain_core.vectorstores.utils import maximal_marginal_relevance

from stepcache_integrations.core.faiss_index import FaissIndex

__all__ = ["DocumentFilter", "FAISSVectorStore"]

DocumentFilter = Mapping[str, Any] | Callable[[Document], bool]
"""Exact-match metadata key/values, or a predicate on the stored ``Document``."""


def _copy(doc: Document) -> Document:
    # Callers get their own copy: mutating a search result must not change the store.
    return Document(id=doc.id, page_content=doc.page_content, metadata=copy.deepcopy(doc.metadata))


def _reject_kwargs(method: str, kwargs: Mapping[str, Any]) -> None:
    if kwargs:
        raise TypeError(f"{method}() got unexpected keyword arguments: {sorted(kwargs)}")


def _cosine_to_relevance(score: float) -> float:
    """Map a cosine similarity in [-1, 1] to a relevance in [0, 1]."""
    return min(1.0, max(0.0, (score + 1.0) / 2.0))


class FAISSVectorStore(VectorStore):
    """In-memory FAISS vector store with cosine scores, ids and metadata filters.

    Example:
        >>> from langchain_core.embeddings import DeterministicFakeEmbedding
        >>> store = FAISSVectorStore(DeterministicFakeEmbedding(size=8))
        >>> store.add_texts(["x = 5", "y = 7"], [{"ns": "a"}, {"ns": "b"}], ids=["1", "2"])
        ['1', '2']
        >>> [doc.id for doc in store.similarity_search("x = 5", k=1, filter={"ns": "b"})]
        ['2']
    """

    def __init__(self, embedding: Embeddings) -> None:
        self._embedding = embedding
        self._index: FaissIndex | None = None
        self._docs: dict[str, Document] = {}
        # Guards ``_index`` and ``_docs`` together so they never disagree; always taken
        # before the index's own lock.
        self._lock = threading.RLock()

    # Deliberately no ``__len__``: frameworks test stores for truth (``if store:``), and an
    # empty store must not read as "no store".

    @property
    def embeddings(self) -> Embeddings:
        """The embedding model used for documents and queries."""
        return self._embedding

    # -- writing ---------------------------------------------------------------------------

    def add_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[str, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        """Embed and upsert ``texts``; a missing id gets a uuid4; returns the ids used."""
        _reject_kwargs("add_texts", kwargs)
        texts_ = list(texts)
        if metadatas is not None and len(metadatas) != len(texts_):
            raise ValueError(f"got {len(metadatas)} metadatas for {len(texts_)} texts")
        if ids is not None and len(ids) != len(texts_):
            raise ValueError(f"got {len(ids)} ids for {len(texts_)} texts")
        docs = [
            Document(
                id=ids[i] if ids is not None and ids[i] else str(uuid.uuid4()),
                page_content=text,
                metadata=copy.deepcopy(metadatas[i]) if metadatas is not None else {},
            )
            for i, text in enumerate(texts_)
        ]
        return self._upsert(docs)

    def add_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
        """Upsert ``documents``; ids come from ``ids=``, else ``Document.id``, else uuid4."""
        ids: Sequence[str | None] | None = kwargs.pop("ids", None)
        _reject_kwargs("add_documents", kwargs)
        if ids is not None and len(ids) != len(documents):
            raise ValueError(f"got {len(ids)} ids for {len(documents)} documents")
        docs = [
            Document(
                id=(ids[i] if ids is not None else None) or doc.id or str(uuid.uuid4()),
                page_content=doc.page_content,
                metadata=copy.deepcopy(doc.metadata),
            )
            for i, doc in enumerate(documents)
        ]
        return self._upsert(docs)

    def _upsert(self, docs: list[Document]) -> list[str]:
        ids = [str(doc.id) for doc in docs]
        if not docs:
            return ids
        # Embed outside the lock: it is the slow part and touches no shared state.
        vectors = self._embedding.embed_documents([doc.page_content for doc in docs])
        if len(vectors) != len(docs):
            raise ValueError(f"embedding returned {len(vectors)} vectors for {len(docs)} texts")
        try:
            matrix = np.asarray(vectors, dtype=np.float32)
        except ValueError as exc:  # numpy's message for ragged input is cryptic
            raise ValueError("embedding returned vectors of different lengths") from exc
        if matrix.ndim != 2:
            raise ValueError("embedding returned vectors of different lengths")
        # The same id twice in one call: the later document wins, as sequential adds would.
        last = {id_: pos for pos, id_ in enumerate(ids)}
        unique_ids, positions = list(last), list(last.values())
        with self._lock:
            if self._index is None:
                self._index = FaissIndex(matrix.shape[1])
            self._index.add(unique_ids, matrix[positions])
            for id_, pos in last.items():
                self._docs[id_] = docs[pos]
        return ids

    def delete(self, ids: list[str] | None = None, **kwargs: Any) -> bool | None:
        """Delete ``ids`` (unknown ids are ignored); ``ids=None`` deletes everything."""
        _reject_kwargs("delete", kwargs)
        if isinstance(ids, str):
            raise TypeError("ids must be a list of str, not a single str")
        with self._lock:
            if ids is None:
                self._docs.clear()
                if self._index is not None:
                    self._index.clear()
                return True
            if self._index is not None:
                self._index.remove(ids)
            for id_ in ids:
                self._docs.pop(id_, None)
        return True

    # -- reading ---------------------------------------------------------------------------

    def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
        """The stored documents with these ids, in request order; missing ids are skipped."""
        with self._lock:
            found = (self._docs.get(id_) for id_ in dict.fromkeys(ids))
            return [_copy(doc) for doc in found if doc is not None]

    def _allowed(self, filter: DocumentFilter | None) -> Callable[[str], bool] | None:
        if filter is None:
            return None
        if callable(filter):
            predicate = filter
            return lambda id_: bool(predicate(self._docs[id_]))
        if isinstance(filter, Mapping):
            wanted = dict(filter)

            def matches(id_: str) -> bool:
                metadata = self._docs[id_].metadata
                return all(key in metadata and metadata[key] == v for key, v in wanted.items())

            return matches
        raise TypeError(
            f"filter must be a mapping of metadata values or a callable, got {type(filter)}"
        )

    def _search(
        self,
        embedding: Sequence[float],
        k: int,
        filter: DocumentFilter | None,
        *,
        with_vectors: bool = False,
    ) -> list[tuple[Document, float, list[float]]]:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a positive int, got {k!r}")
        with self._lock:
            if self._index is None:
                return []
            hits = self._index.search(np.asarray(embedding), k, self._allowed(filter))
            results = []
            for id_, score in hits:
                vector = self._index.vector(id_) if with_vectors else None
                stored = [] if vector is None else vector.tolist()
                results.append((_copy(self._docs[id_]), score, stored))
            return results

    def similarity_search_with_score_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        *,
        filter: DocumentFilter | None = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """The ``k`` closest documents to ``embedding`` with cosine similarity, highest first."""
        _reject_kwargs("similarity_search_with_score_by_vector", kwargs)
        return [(doc, score) for doc, score, _ in self._search(embedding, k, filter)]

    def similarity_search_with_score(
        self,
        query: str,
        k: int = 4,
        *,
        filter: DocumentFilter | None = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """The ``k`` closest documents to ``query`` with cosine similarity, highest first."""
        _reject_kwargs("similarity_search_with_score", kwargs)
        embedding = self._embedding.embed_query(query)
        return self.similarity_search_with_score_by_vector(embedding, k, filter=filter)

    def similarity_search_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        *,
        filter: DocumentFilter | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        """The ``k`` closest documents to ``embedding``."""
        _reject_kwargs("similarity_search_by_vector", kwargs)
        pairs = self.similarity_search_with_score_by_vector(embedding, k, filter=filter)
        return [doc for doc, _ in pairs]

    def similarity_search(
        self,
        query: str,
        k: int = 4,
        *,
        filter: DocumentFilter | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        """The ``k`` closest documents to ``query`` (no score threshold)."""
        _reject_kwargs("similarity_search", kwargs)
        return [doc for doc, _ in self.similarity_search_with_score(query, k, filter=filter)]

    def _select_relevance_score_fn(self) -> Callable[[float], float]:
        # Our scores are similarities, not distances: the base class's cosine function
        # (1 - distance) would invert them.
        return _cosine_to_relevance

    def max_marginal_relevance_search_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        *,
        filter: DocumentFilter | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        """``k`` documents among the ``fetch_k`` closest, chosen for relevance and diversity."""
        _reject_kwargs("max_marginal_relevance_search_by_vector", kwargs)
        candidates = self._search(embedding, max(k, fetch_k), filter, with_vectors=True)
        if not candidates:
            return []
        chosen = maximal_marginal_relevance(
            np.asarray(embedding, dtype=np.float32),
            [vector for _, _, vector in candidates],
            lambda_mult=lambda_mult,
            k=k,
        )
        return [candidates[i][0] for i in chosen]

    def max_marginal_relevance_search(
        self,
        query: str,
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        *,
        filter: DocumentFilter | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        """MMR search for ``query``; see :meth:`max_marginal_relevance_search_by_vector`."""
        _reject_kwargs("max_marginal_relevance_search", kwargs)
        embedding = self._embedding.embed_query(query)
        return self.max_marginal_relevance_search_by_vector(
            embedding, k, fetch_k, lambda_mult, filter=filter
        )

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def from_texts(
        cls,
        texts: list[str],
        embedding: Embeddings,
        metadatas: list[dict[str, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> Self:
        """A new store holding ``texts``."""
        _reject_kwargs("from_texts", kwargs)
        store = cls(embedding)
        store.add_texts(texts, metadatas, ids=ids)
        return store
