"""stepcache-integrations: a step-level answer cache for LangChain and LlamaIndex LLMs.

Example:
    >>> from stepcache_integrations import StepCache, StepCacheLLM
    >>> cache = StepCache()
"""

from stepcache_integrations._version import __version__
from stepcache_integrations.core import (
    CacheCorruptError,
    CacheEntry,
    CacheFileError,
    CacheReadOnlyError,
    CacheStorageError,
    ConfigurationError,
    Embedder,
    JsonSegmenter,
    LineSegmenter,
    ParagraphSegmenter,
    Policy,
    Segmenter,
    Step,
    StepCache,
    StepCacheRecord,
    StepCacheTelemetry,
    StructuralEmbedder,
)
from stepcache_integrations.core.audit import AuditConfig, AuditRecord
from stepcache_integrations.core.tasks import (
    Adaptation,
    JsonObjectFamily,
    JsonVerifier,
    LinearEquationFamily,
    LinearEquationVerifier,
    TaskFamily,
    TaskRegistry,
    WordProblemFamily,
    WordProblemVerifier,
    default_registry,
)
from stepcache_integrations.core.verifiers import (
    CallableVerifier,
    Outcome,
    OutputParserVerifier,
    StalenessVerifier,
    Verdict,
    Verifier,
    VerifyContext,
)
from stepcache_integrations.langchain import StepCacheLangChainCache, StepCacheLLM, llm_cache_tenant

__all__ = [
    "Adaptation",
    "AuditConfig",
    "AuditRecord",
    "CacheCorruptError",
    "CacheEntry",
    "CacheFileError",
    "CacheReadOnlyError",
    "CacheStorageError",
    "CallableVerifier",
    "ConfigurationError",
    "Embedder",
    "JsonObjectFamily",
    "JsonSegmenter",
    "JsonVerifier",
    "LineSegmenter",
    "LinearEquationFamily",
    "LinearEquationVerifier",
    "Outcome",
    "OutputParserVerifier",
    "ParagraphSegmenter",
    "Policy",
    "Segmenter",
    "StalenessVerifier",
    "Step",
    "StepCache",
    "StepCacheLLM",
    "StepCacheLangChainCache",
    "StepCacheRecord",
    "StepCacheTelemetry",
    "StructuralEmbedder",
    "TaskFamily",
    "TaskRegistry",
    "Verdict",
    "Verifier",
    "VerifyContext",
    "WordProblemFamily",
    "WordProblemVerifier",
    "__version__",
    "default_registry",
    "llm_cache_tenant",
]
