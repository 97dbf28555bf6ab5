"""The baseline serving modes StepCache is compared with: no cache, exact cache, semantic cache.

* ``no_cache``: the backend's chat model as is.
* ``exact_cache``: LangChain's own ``InMemoryCache`` on the chat model's ``cache=`` field: an
  identical prompt (same model parameters) is served from memory.
* ``semantic_cache``: a full-response semantic cache, the GPTCache / RedisSemanticCache
  behaviour: embed the prompt, and if the nearest earlier prompt is at least ``threshold``
  similar, return that prompt's whole answer. Nothing is verified, every answer is stored.

Both caches are LangChain ``BaseCache`` implementations, so they plug into the chat model
exactly as a user would plug them in. A served hit is marked in the message's
``response_metadata["cache_hit"]`` (``"exact"`` or ``"semantic"``) and its ``usage_metadata``
is zero, because a hit spends no model tokens; the tokens of the original call are kept in
``response_metadata["cached_usage"]``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from langchain_core.caches import RETURN_VAL_TYPE, BaseCache, InMemoryCache
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, Generation

from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder, normalise_rows

__all__ = [
    "BASELINE_MODES",
    "DEFAULT_SEMANTIC_THRESHOLD",
    "BaselineMode",
    "CountingInMemoryCache",
    "ModeName",
    "SemanticResponseCache",
    "build_baseline",
    "cache_hit_kind",
    "prompt_text",
]

ModeName = Literal["no_cache", "exact_cache", "semantic_cache", "stepcache"]
BASELINE_MODES: tuple[ModeName, ...] = ("no_cache", "exact_cache", "semantic_cache")
# The StepCache policy's default similarity threshold; the runner passes the one StepCache
# actually uses so both caches retrieve with the same embedder and threshold.
DEFAULT_SEMANTIC_THRESHOLD = 0.75


def _served_copy(
    generations: RETURN_VAL_TYPE, kind: str, similarity: float | None = None
) -> list[Generation]:
    """Fresh copies of cached generations, marked as a hit and with zero usage.

    Copies, because LangChain rewrites the returned message in place and the stored entry
    must stay as it was.
    """
    served: list[Generation] = []
    for gen in generations:
        if isinstance(gen, ChatGeneration) and isinstance(gen.message, AIMessage):
            original = gen.message
            metadata: dict[str, Any] = {
                **original.response_metadata,
                "cache_hit": kind,
                "cached_usage": dict(original.usage_metadata or {}),
            }
            if similarity is not None:
                metadata["similarity"] = similarity
            message = original.model_copy(
                update={
                    "response_metadata": metadata,
                    "usage_metadata": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0},
                }
            )
            served.append(ChatGeneration(message=message, generation_info=gen.generation_info))
        else:
            served.append(gen.model_copy())
    return served


def cache_hit_kind(message: BaseMessage) -> str | None:
    """``"exact"`` / ``"semantic"`` when a baseline cache served ``message``, else ``None``."""
    kind = message.response_metadata.get("cache_hit")
    return kind if isinstance(kind, str) else None


class CountingInMemoryCache(InMemoryCache):
    """LangChain's ``InMemoryCache``, with hit/miss counts and hits marked on the message."""

    def __init__(self, *, maxsize: int | None = None) -> None:
        super().__init__(maxsize=maxsize)
        self.hits = 0
        self.misses = 0

    def lookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        found = super().lookup(prompt, llm_string)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        return _served_copy(found, "exact")


def prompt_text(prompt: str) -> str:
    """The message text inside LangChain's serialised chat prompt (the cache key string).

    Chat models hand caches ``dumps(messages)``; embedding that JSON would make every prompt
    look alike, so embed the contents instead. Anything else is used as it is.
    """
    try:
        data = json.loads(prompt)
    except ValueError:
        return prompt
    if not isinstance(data, list):
        return prompt
    parts: list[str] = []
    for item in data:
        content = item.get("kwargs", {}).get("content") if isinstance(item, dict) else None
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(
                block["text"] if isinstance(block, dict) and "text" in block else str(block)
                for block in content
            )
    return "\n".join(parts) if parts else prompt


@dataclass
class _Entry:
    llm_string: str
    text: str
    generations: list[Generation]


class SemanticResponseCache(BaseCache):
    """Full-response semantic cache (GPTCache style): nearest prompt above ``threshold`` wins.

    Example:
        >>> cache = SemanticResponseCache(threshold=0.9)
        >>> cache.update("Solve 3x + 5 = 20 for x.", "m", [Generation(text="x = 5")])
        >>> cache.lookup("Solve 4x + 1 = 9 for x.", "m")[0].text  # the wrong old answer
        'x = 5'
    """

    def __init__(
        self, embedder: Embedder | None = None, threshold: float = DEFAULT_SEMANTIC_THRESHOLD
    ) -> None:
        self.embedder: Embedder = embedder or StructuralEmbedder()
        self.threshold = threshold
        self._entries: list[_Entry] = []
        self._vectors: npt.NDArray[np.float32] | None = None
        self.hits = 0
        self.misses = 0
        self.last_similarity: float | None = None

    def _embed(self, text: str) -> npt.NDArray[np.float32]:
        vector: npt.NDArray[np.float32] = normalise_rows(self.embedder.embed([text]))[0]
        return vector

    def nearest(self, text: str, llm_string: str) -> tuple[int, float] | None:
        """Index and cosine similarity of the closest stored prompt for the same model."""
        if self._vectors is None:
            return None
        scores = self._vectors @ self._embed(text)
        same_model = np.array([e.llm_string == llm_string for e in self._entries])
        if not same_model.any():
            return None
        scores = np.where(same_model, scores, -np.inf)
        best = int(np.argmax(scores))
        return best, float(scores[best])

    def lookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        found = self.nearest(prompt_text(prompt), llm_string)
        self.last_similarity = found[1] if found else None
        if found is None or found[1] < self.threshold:
            self.misses += 1
            return None
        self.hits += 1
        return _served_copy(self._entries[found[0]].generations, "semantic", found[1])

    def update(self, prompt: str, llm_string: str, return_val: RETURN_VAL_TYPE) -> None:
        text = prompt_text(prompt)
        self._entries.append(_Entry(llm_string, text, list(return_val)))
        row = self._embed(text).reshape(1, -1)
        self._vectors = row if self._vectors is None else np.vstack([self._vectors, row])

    def clear(self, **kwargs: Any) -> None:
        self._entries.clear()
        self._vectors = None

    def __len__(self) -> int:
        return len(self._entries)


@dataclass
class BaselineMode:
    """A serving mode: the chat model to call and the cache behind it (``None``: no cache)."""

    name: ModeName
    model: BaseChatModel
    cache: CountingInMemoryCache | SemanticResponseCache | None


def build_baseline(
    name: ModeName,
    chat_model: BaseChatModel,
    *,
    embedder: Embedder | None = None,
    threshold: float = DEFAULT_SEMANTIC_THRESHOLD,
) -> BaselineMode:
    """The mode ``name`` around a fresh ``chat_model`` (which must have no cache of its own)."""
    cache: CountingInMemoryCache | SemanticResponseCache | None
    if name == "no_cache":
        # False, not None: None would fall back to a global LangChain cache if one is set.
        return BaselineMode(name, chat_model.model_copy(update={"cache": False}), None)
    if name == "exact_cache":
        cache = CountingInMemoryCache()
    elif name == "semantic_cache":
        cache = SemanticResponseCache(embedder, threshold)
    else:
        raise ValueError(f"{name!r} is not a baseline mode (StepCache is built by the runner)")
    return BaselineMode(name, chat_model.model_copy(update={"cache": cache}), cache)
