"""A StepCache index over any LangChain ``VectorStore`` (how a fleet of servers shares one
cache: point every server's ``StepCache`` at the same store)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.vectorstores import VectorStore

__all__ = ["VectorStoreIndex"]

NAMESPACE_KEY = "stepcache_namespace"


def _dict_filter(namespace: str) -> dict[str, str]:
    return {NAMESPACE_KEY: namespace}


class VectorStoreIndex:
    """Cached request texts in a LangChain vector store, one metadata namespace per entry.

    Search filters on the namespace (by default ``filter={"stepcache_namespace": ns}``, the
    form most stores accept; ``filter_for`` builds another form, or ``None`` for no filter)
    and drops anything else the store returns, so a store that ignores the filter can cost
    recall but never isolation. ``similarity_search_with_score`` must return
    a similarity where higher is closer (the package's ``FAISSVectorStore`` returns cosine);
    for a store that returns distances, pass ``score_to_similarity``.

    Example:
        >>> from stepcache_integrations import StepCache
        >>> from stepcache_integrations.langchain import FAISSVectorStore, StructuralEmbeddings
        >>> index = VectorStoreIndex(FAISSVectorStore(StructuralEmbeddings()))
        >>> cache = StepCache(index=index)
    """

    def __init__(
        self,
        vectorstore: VectorStore,
        *,
        score_to_similarity: Callable[[float], float] | None = None,
        filter_for: Callable[[str], Any] | None = _dict_filter,
    ) -> None:
        if not isinstance(vectorstore, VectorStore):
            raise ValueError(f"expected a LangChain VectorStore, got {type(vectorstore).__name__}")
        self.vectorstore = vectorstore
        self.score_to_similarity = score_to_similarity or (lambda score: score)
        self.filter_for = filter_for
        self._lock = threading.Lock()
        self._ids: set[str] = set()

    def add(self, entry_id: str, text: str, namespace: str) -> None:
        self.vectorstore.add_texts([text], metadatas=[{NAMESPACE_KEY: namespace}], ids=[entry_id])
        with self._lock:
            self._ids.add(entry_id)

    def search(self, text: str, namespace: str, k: int = 1) -> list[tuple[str, float]]:
        if self.filter_for is None:
            # Without a filter the store ranks every namespace: ask for more, keep ours.
            hits = self.vectorstore.similarity_search_with_score(text, k=k * 8)
        else:
            hits = self.vectorstore.similarity_search_with_score(
                text, k=k, filter=self.filter_for(namespace)
            )
        return [
            (doc.id, self.score_to_similarity(float(score)))
            for doc, score in hits
            if doc.id is not None and doc.metadata.get(NAMESPACE_KEY) == namespace
        ][:k]

    def remove(self, entry_ids: Sequence[str]) -> None:
        if entry_ids:
            self.vectorstore.delete(ids=list(entry_ids))
            with self._lock:
                self._ids.difference_update(entry_ids)

    def clear(self) -> None:
        """Remove the entries this index added (a shared store keeps everyone else's)."""
        with self._lock:
            ids = list(self._ids)
            self._ids.clear()
        if ids:
            self.vectorstore.delete(ids=ids)
