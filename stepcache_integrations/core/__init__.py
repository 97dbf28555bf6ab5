"""The framework-agnostic core: request path, steps, task families, verifiers, policy, records
and stores.

Nothing in this package imports LangChain or LlamaIndex.
"""

from stepcache_integrations.core.audit import AuditConfig, AuditRecord
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.configuration import ConfigurationError
from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.core.protocol import CacheRequest, ServeResult
from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.core.steps import (
    JsonSegmenter,
    LineSegmenter,
    ParagraphSegmenter,
    Segmenter,
    Step,
)
from stepcache_integrations.core.stores import (
    ANY,
    CacheCorruptError,
    CacheDiskFullError,
    CacheFileError,
    CacheFileLostError,
    CacheLockedError,
    CacheReadOnlyError,
    CacheStorageError,
    CacheStore,
    EntryStore,
    IndexFileError,
    LocalStore,
    MemoryEntryStore,
    MemoryStore,
    SqliteEntryStore,
    SqliteStore,
    StoreCapabilities,
    StoreUnavailable,
    salvage_database,
)
from stepcache_integrations.core.tasks import (
    Adaptation,
    JsonObjectFamily,
    LinearEquationFamily,
    TaskFamily,
    TaskRegistry,
    WordProblemFamily,
    default_registry,
)
from stepcache_integrations.core.telemetry import StepCacheTelemetry
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex

__all__ = [
    "ANY",
    "Adaptation",
    "AuditConfig",
    "AuditRecord",
    "CacheCorruptError",
    "CacheDiskFullError",
    "CacheEntry",
    "CacheFileError",
    "CacheFileLostError",
    "CacheLockedError",
    "CacheReadOnlyError",
    "CacheRequest",
    "CacheStorageError",
    "CacheStore",
    "ConfigurationError",
    "Embedder",
    "EmbeddingIndex",
    "EntryStore",
    "IndexFileError",
    "JsonObjectFamily",
    "JsonSegmenter",
    "LineSegmenter",
    "LinearEquationFamily",
    "LocalStore",
    "MemoryEntryStore",
    "MemoryStore",
    "ParagraphSegmenter",
    "Policy",
    "Segmenter",
    "ServeResult",
    "SqliteEntryStore",
    "SqliteStore",
    "Step",
    "StepCache",
    "StepCacheRecord",
    "StepCacheTelemetry",
    "StoreCapabilities",
    "StoreUnavailable",
    "StructuralEmbedder",
    "TaskFamily",
    "TaskRegistry",
    "VectorIndex",
    "WordProblemFamily",
    "default_registry",
    "salvage_database",
]
