"""The framework-agnostic core: request path, steps, verifiers, policy, records, storage.

Nothing in this package imports LangChain or LlamaIndex.
"""

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder
from stepcache_integrations.core.entries import CacheEntry, EntryStore, MemoryEntryStore
from stepcache_integrations.core.persistence import IndexFileError, salvage_database
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.core.protocol import CacheRequest, ServeResult
from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.core.sqlite_store import CacheFileError, SqliteEntryStore
from stepcache_integrations.core.steps import JsonSegmenter, ParagraphSegmenter, Segmenter, Step
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex

__all__ = [
    "CacheEntry",
    "CacheFileError",
    "CacheRequest",
    "Embedder",
    "EmbeddingIndex",
    "EntryStore",
    "IndexFileError",
    "JsonSegmenter",
    "MemoryEntryStore",
    "ParagraphSegmenter",
    "Policy",
    "Segmenter",
    "ServeResult",
    "SqliteEntryStore",
    "Step",
    "StepCache",
    "StepCacheRecord",
    "StructuralEmbedder",
    "VectorIndex",
    "salvage_database",
]
