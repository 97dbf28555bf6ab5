"""The retrieval side of the cache: find the nearest cached request within a namespace.

The cache talks to a :class:`VectorIndex`. The default, :class:`EmbeddingIndex`, embeds with
any :class:`~stepcache_integrations.core.embeddings.Embedder` and searches one FAISS index per
namespace, so entries of two namespaces (or tenants) can never be compared. The LangChain and
LlamaIndex adapters provide indexes over those frameworks' vector stores.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import faiss

from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder, normalise_rows
from stepcache_integrations.core.faiss_index import FaissIndex

__all__ = ["EmbeddingIndex", "VectorIndex"]


@runtime_checkable
class VectorIndex(Protocol):
    """Similarity search over cached request texts, partitioned by namespace.

    Scores are similarities where higher is closer (cosine for the built-in indexes); the
    cache compares them with ``Policy.similarity_threshold``.

    Example:
        >>> index: VectorIndex = EmbeddingIndex()
        >>> index.add("e1", "Solve for x: 3x + 5 = 20", "ns")
        >>> [entry_id for entry_id, _ in index.search("Solve for y: 3y + 5 = 20", "ns")]
        ['e1']
        >>> index.search("Solve for y: 3y + 5 = 20", "another namespace")
        []
    """

    def add(self, entry_id: str, text: str, namespace: str) -> None: ...

    def search(self, text: str, namespace: str, k: int = 1) -> list[tuple[str, float]]: ...

    def remove(self, entry_ids: Sequence[str]) -> None: ...

    def clear(self) -> None: ...


class EmbeddingIndex:
    """One FAISS inner-product index per namespace over normalised embeddings.

    Example:
        >>> index = EmbeddingIndex()
        >>> index.add("e1", "Solve for x: 3x + 5 = 20", "ns")
        >>> index.search("Solve for y: 2y + 1 = 9", "ns")[0][0]
        'e1'
        >>> index.search("Solve for y: 2y + 1 = 9", "other-ns")
        []
    """

    def __init__(self, embedder: Embedder | None = None, search_threads: int | None = 1) -> None:
        self.embedder: Embedder = embedder or StructuralEmbedder()
        # One query vector is searched on one thread by default: an OpenMP thread team costs
        # more than it saves for a single query (docs/reliability.md: 11 ms instead of 58 ms
        # at 100,000 vectors on a busy 2-core machine). ``None`` keeps FAISS's own setting.
        self.search_threads = search_threads
        self._lock = threading.RLock()
        self._indexes: dict[str, FaissIndex] = {}
        self._namespace_of: dict[str, str] = {}
        # Change counters (per namespace and in total) let a persistent cache rewrite only
        # the index files that changed since they were saved.
        self._versions: dict[str, int] = {}
        self.version = 0

    def _changed(self, namespace: str) -> None:
        self._versions[namespace] = self._versions.get(namespace, 0) + 1
        self.version += 1

    def add(self, entry_id: str, text: str, namespace: str) -> None:
        self.add_many([(entry_id, text, namespace)])

    def add_many(self, items: Sequence[tuple[str, str, str]]) -> None:
        """Add ``(entry_id, text, namespace)`` triples, embedding their texts in one batch."""
        if not items:
            return
        vectors = normalise_rows(self.embedder.embed([text for _, text, _ in items]))
        with self._lock:
            for row, (entry_id, _text, namespace) in enumerate(items):
                previous = self._namespace_of.get(entry_id)
                if previous is not None and previous != namespace:
                    self._indexes[previous].remove([entry_id])
                    self._changed(previous)
                index = self._indexes.get(namespace)
                if index is None:
                    index = self._indexes[namespace] = FaissIndex(vectors.shape[1])
                index.add([entry_id], vectors[row : row + 1])
                self._namespace_of[entry_id] = namespace
                self._changed(namespace)

    def search(self, text: str, namespace: str, k: int = 1) -> list[tuple[str, float]]:
        with self._lock:
            index = self._indexes.get(namespace)
            if index is None or len(index) == 0:
                return []
        vector = normalise_rows(self.embedder.embed([text]))[0]
        if self.search_threads is None:
            return index.search(vector, k)
        # OpenMP's thread count is per calling thread: set and restored around this search
        # only, so other FAISS work in the process keeps its own setting.
        previous = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(self.search_threads)
        try:
            return index.search(vector, k)
        finally:
            faiss.omp_set_num_threads(previous)

    def remove(self, entry_ids: Sequence[str]) -> None:
        with self._lock:
            for entry_id in entry_ids:
                namespace = self._namespace_of.pop(entry_id, None)
                if namespace is not None:
                    self._indexes[namespace].remove([entry_id])
                    self._changed(namespace)

    def clear(self) -> None:
        with self._lock:
            for namespace in self._indexes:
                self._changed(namespace)
            self._indexes.clear()
            self._namespace_of.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._namespace_of)

    def __contains__(self, entry_id: object) -> bool:
        with self._lock:
            return entry_id in self._namespace_of

    # -- used by persistence (core.stores.directory) ---------------------------------------

    def ids(self) -> dict[str, str]:
        """Every indexed id and its namespace."""
        with self._lock:
            return dict(self._namespace_of)

    def partitions(self) -> dict[str, tuple[FaissIndex, int]]:
        """Each namespace's FAISS index and change counter (to save them)."""
        with self._lock:
            return {ns: (index, self._versions.get(ns, 0)) for ns, index in self._indexes.items()}

    def install(self, namespace: str, index: FaissIndex) -> int:
        """Adopt a loaded FAISS index as ``namespace``'s; returns its change counter."""
        with self._lock:
            old = self._indexes.get(namespace)
            if old is not None:
                for entry_id in old.ids():
                    self._namespace_of.pop(entry_id, None)
            for entry_id in index.ids():
                previous = self._namespace_of.get(entry_id)
                if previous is not None and previous != namespace:
                    self._indexes[previous].remove([entry_id])
                    self._changed(previous)
                self._namespace_of[entry_id] = namespace
            self._indexes[namespace] = index
            self._changed(namespace)
            return self._versions[namespace]
