"""The serving modes StepCache is compared with: no cache, exact cache, and two real peers.

* ``no_cache``: the backend's chat model as is.
* ``exact_cache``: LangChain's own ``InMemoryCache`` on the chat model's ``cache=`` field: an
  identical prompt (same model parameters) is served from memory.
* ``gptcache`` and ``sulci``: the two semantic caches users pick instead of StepCache, each
  through its own public API (:mod:`~stepcache_integrations.bench.peers`), with StepCache's
  embedder and similarity threshold: embed the prompt and, when the nearest earlier prompt is
  similar enough, return that prompt's whole answer. Nothing is verified, every answer is
  stored.

Every cache is a LangChain ``BaseCache`` on the chat model's ``cache=`` field, so it plugs
into the chat model exactly as a user would plug it in (a peer's cache is a thin adapter that
calls the peer's ``get`` and ``put`` / ``set``). A served hit is marked in the message's
``response_metadata["cache_hit"]`` (``"exact"``, or ``"semantic"`` for a peer, with
``"peer"`` naming it) and its ``usage_metadata`` is zero, because a hit spends no model
tokens; the exact cache keeps the original call's tokens in
``response_metadata["cached_usage"]`` (the peers store the answer's text only).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.caches import RETURN_VAL_TYPE, BaseCache, InMemoryCache
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, Generation

from stepcache_integrations.bench.peers import Peer, PeerName, open_peer, require_peer
from stepcache_integrations.core.embeddings import Embedder

__all__ = [
    "BASELINE_MODES",
    "DEFAULT_SEMANTIC_THRESHOLD",
    "PEER_MODES",
    "BaselineMode",
    "CountingInMemoryCache",
    "ModeName",
    "PeerResponseCache",
    "build_baseline",
    "cache_hit_kind",
    "peer_names",
    "prompt_text",
]

ModeName = Literal["no_cache", "exact_cache", "gptcache", "sulci", "stepcache"]
PEER_MODES: tuple[PeerName, ...] = ("gptcache", "sulci")
BASELINE_MODES: tuple[ModeName, ...] = ("no_cache", "exact_cache", *PEER_MODES)
# The StepCache policy's default similarity threshold; the runner passes the one StepCache
# actually uses so every cache retrieves with the same embedder and threshold.
DEFAULT_SEMANTIC_THRESHOLD = 0.75


def _served_copy(generations: RETURN_VAL_TYPE, kind: str) -> list[Generation]:
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


class PeerResponseCache(BaseCache):
    """A peer semantic cache (GPTCache, sulci) as a LangChain cache, through the peer's API.

    ``open_peer`` makes one peer cache per model configuration (``llm_string``), so one model's
    answers are never served for another's, as sulci's own LangChain cache does. The peer sees
    the messages' text (not LangChain's serialised prompt, whose JSON wrapping would make every
    prompt look alike to an embedder), stores the first generation's text after a model call,
    and answers a lookup with the stored text of the nearest similar prompt.

    Example:
        >>> from stepcache_integrations.bench.peers import SulciPeer
        >>> cache = PeerResponseCache("sulci", lambda: SulciPeer(threshold=0.75))
        >>> cache.update("Solve 3x + 5 = 20 for x.", "m", [Generation(text="x = 5")])
        >>> cache.lookup("Solve 4x + 1 = 9 for x.", "m")[0].text  # the wrong old answer
        'x = 5'
        >>> cache.close()
    """

    def __init__(self, name: PeerName, open_peer: Callable[[], Peer]) -> None:
        self.name = name
        self._open = open_peer
        self._peers: dict[str, Peer] = {}
        self.hits = 0
        self.misses = 0

    def peer_for(self, llm_string: str) -> Peer:
        """The peer cache of one model configuration (opened on first use)."""
        peer = self._peers.get(llm_string)
        if peer is None:
            peer = self._peers[llm_string] = self._open()
        return peer

    def llm_strings(self) -> list[str]:
        """The model configurations that have a peer cache so far."""
        return list(self._peers)

    def lookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        answer = self.peer_for(llm_string).lookup(prompt_text(prompt))
        if answer is None:
            self.misses += 1
            return None
        self.hits += 1
        message = AIMessage(
            content=answer,
            response_metadata={"cache_hit": "semantic", "peer": self.name},
            usage_metadata={"input_tokens": 0, "output_tokens": 0, "total_tokens": 0},
        )
        return [ChatGeneration(message=message)]

    def update(self, prompt: str, llm_string: str, return_val: RETURN_VAL_TYPE) -> None:
        if return_val:
            self.peer_for(llm_string).store(prompt_text(prompt), return_val[0].text)

    def describe(self) -> dict[str, Any]:
        """The peer's configuration (a peer is opened for it if none is yet)."""
        peers = list(self._peers.values())
        if peers:
            return peers[0].describe()
        peer = self._open()
        try:
            return peer.describe()
        finally:
            peer.close()

    def close(self) -> None:
        """Release every peer's files and connections."""
        for peer in self._peers.values():
            peer.close()
        self._peers.clear()

    def clear(self, **kwargs: Any) -> None:
        self.close()


@dataclass
class BaselineMode:
    """A serving mode: the chat model to call and the cache behind it (``None``: no cache)."""

    name: ModeName
    model: BaseChatModel
    cache: CountingInMemoryCache | PeerResponseCache | None


def build_baseline(
    name: ModeName,
    chat_model: BaseChatModel,
    *,
    embedder: Embedder | None = None,
    threshold: float = DEFAULT_SEMANTIC_THRESHOLD,
    peer_options: dict[str, Any] | None = None,
) -> BaselineMode:
    """The mode ``name`` around a fresh ``chat_model`` (which must have no cache of its own).

    A peer mode needs its peer installed (:class:`~.peers.PeerUnavailable` otherwise, before
    anything runs); ``embedder`` and ``threshold`` are StepCache's, and
    ``peer_options`` go to the peer (``backend=`` for sulci).
    """
    cache: CountingInMemoryCache | PeerResponseCache | None
    if name == "no_cache":
        # False, not None: None would fall back to a global LangChain cache if one is set.
        return BaselineMode(name, chat_model.model_copy(update={"cache": False}), None)
    if name == "exact_cache":
        cache = CountingInMemoryCache()
    elif name in PEER_MODES:
        peer: PeerName = name
        require_peer(peer)
        options = dict(peer_options or {})

        def opener() -> Peer:
            return open_peer(peer, embedder=embedder, threshold=threshold, **options)

        cache = PeerResponseCache(peer, opener)
    else:
        raise ValueError(f"{name!r} is not a baseline mode (StepCache is built by the runner)")
    return BaselineMode(name, chat_model.model_copy(update={"cache": cache}), cache)


def peer_names(names: Sequence[str]) -> tuple[PeerName, ...]:
    """The peers among ``names``, in ``PEER_MODES`` order.

    Example:
        >>> peer_names(["stepcache", "sulci", "gptcache"])
        ('gptcache', 'sulci')
    """
    return tuple(peer for peer in PEER_MODES if peer in names)
