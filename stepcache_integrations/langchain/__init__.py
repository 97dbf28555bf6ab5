"""LangChain adapter: the ``StepCacheLLM`` chat model, ``StepCacheLangChainCache`` (StepCache
as LangChain's ``set_llm_cache`` cache), a FAISS ``VectorStore``, and the pieces that let the
cache use LangChain embeddings and vector stores."""

from stepcache_integrations.langchain.cache import StepCacheLangChainCache, llm_cache_tenant
from stepcache_integrations.langchain.chat_model import STEPCACHE_EVENT, StepCacheLLM
from stepcache_integrations.langchain.embeddings import LangChainEmbedder, StructuralEmbeddings
from stepcache_integrations.langchain.index import VectorStoreIndex
from stepcache_integrations.langchain.request import PURE_TOOL_METADATA_KEY
from stepcache_integrations.langchain.vectorstore import FAISSVectorStore

__all__ = [
    "PURE_TOOL_METADATA_KEY",
    "STEPCACHE_EVENT",
    "FAISSVectorStore",
    "LangChainEmbedder",
    "StepCacheLLM",
    "StepCacheLangChainCache",
    "StructuralEmbeddings",
    "VectorStoreIndex",
    "llm_cache_tenant",
]
