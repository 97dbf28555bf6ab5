"""Embeddings both ways between LangChain and the core."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from langchain_core.embeddings import Embeddings

from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder, Vectors

__all__ = ["LangChainEmbedder", "StructuralEmbeddings"]


class LangChainEmbedder:
    """Any LangChain ``Embeddings`` as the cache's embedder.

    Example:
        >>> from langchain_core.embeddings import DeterministicFakeEmbedding
        >>> from stepcache_integrations import StepCache
        >>> from stepcache_integrations.core.stores import MemoryStore
        >>> embedder = LangChainEmbedder(DeterministicFakeEmbedding(size=16))
        >>> cache = StepCache(store=MemoryStore(embedder=embedder))
    """

    def __init__(self, embeddings: Embeddings) -> None:
        if not isinstance(embeddings, Embeddings):
            raise ValueError(f"expected LangChain Embeddings, got {type(embeddings).__name__}")
        self.embeddings = embeddings

    def embed(self, texts: Sequence[str]) -> Vectors:
        rows = self.embeddings.embed_documents(list(texts))
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), -1)


class StructuralEmbeddings(Embeddings):
    """The cache's offline default embedder as LangChain ``Embeddings`` (for vector stores).

    Example:
        >>> len(StructuralEmbeddings().embed_query("Solve for x: 3x + 5 = 20"))
        512
    """

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder = embedder or StructuralEmbedder()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[float(x) for x in row] for row in self.embedder.embed(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]
