"""LangChain adapter: the ``StepCacheLLM`` chat model and a FAISS ``VectorStore``."""

from stepcache_integrations.langchain.chat_model import STEPCACHE_EVENT, StepCacheLLM

__all__ = ["STEPCACHE_EVENT", "StepCacheLLM"]
