"""LlamaIndex adapter: ``StepCacheLLM``, instrumentation events, vector-store index, embedder.

Example:
    >>> from llama_index.core.llms import MockLLM
    >>> from stepcache_integrations.llama_index import StepCacheLLM
    >>> llm = StepCacheLLM(llm=MockLLM())
    >>> llm.complete("Hello").additional_kwargs["stepcache"]["decision"]
    'miss'
"""

from stepcache_integrations.llama_index.events import StepCacheEvent
from stepcache_integrations.llama_index.index import (
    NAMESPACE_METADATA_KEY,
    LlamaIndexEmbedder,
    LlamaIndexVectorIndex,
)
from stepcache_integrations.llama_index.llm import StepCacheFunctionCallingLLM, StepCacheLLM
from stepcache_integrations.llama_index.request import TENANT_KWARG, LlamaIndexParserVerifier
from stepcache_integrations.llama_index.vector_store import StepCacheFaissVectorStore

__all__ = [
    "NAMESPACE_METADATA_KEY",
    "TENANT_KWARG",
    "LlamaIndexEmbedder",
    "LlamaIndexParserVerifier",
    "LlamaIndexVectorIndex",
    "StepCacheEvent",
    "StepCacheFaissVectorStore",
    "StepCacheFunctionCallingLLM",
    "StepCacheLLM",
]
