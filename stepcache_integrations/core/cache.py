"""The :class:`StepCache` object: store, index, verifiers and policy, shared by wrappers."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from stepcache_integrations.core.embeddings import Embedder
from stepcache_integrations.core.engine import RequestRun
from stepcache_integrations.core.entries import CacheEntry, EntryStore, MemoryEntryStore
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.core.protocol import CacheRequest, ServeGenerator
from stepcache_integrations.core.records import StatsCollector, StepCacheRecord
from stepcache_integrations.core.steps import JsonSegmenter, ParagraphSegmenter, Segmenter
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex
from stepcache_integrations.core.verifiers.base import Verifier
from stepcache_integrations.core.verifiers.callable import CallableVerifier
from stepcache_integrations.core.verifiers.json_object import JsonVerifier
from stepcache_integrations.core.verifiers.linear import LinearEquationVerifier
from stepcache_integrations.core.verifiers.parser import OutputParserVerifier, ParsesText
from stepcache_integrations.core.verifiers.staleness import StalenessVerifier

__all__ = ["StepCache", "as_verifier"]

logger = logging.getLogger(__name__)

RecordListener = Callable[[StepCacheRecord], None]


def as_verifier(item: object) -> Verifier:
    """Accept a :class:`Verifier`, an output parser (``parse(text)``) or a plain callable."""
    if isinstance(item, Verifier):
        return item
    if isinstance(item, ParsesText):
        return OutputParserVerifier(item)
    if callable(item):
        return CallableVerifier(item)
    raise ValueError(
        f"cannot use {type(item).__name__} as a verifier: pass a Verifier, an output parser "
        "or a callable (request, answer) -> bool | Verdict"
    )


class StepCache:
    """A step-level answer cache: one object, shared by any number of wrappers.

    Args:
        verifiers: extra verifiers (``Verifier`` objects, output parsers with ``parse(text)``,
            or callables ``(request, answer) -> bool | Verdict``), added to the built-in
            linear-equation, JSON and staleness verifiers.
        json_schema: a JSON Schema dict or Pydantic model class every JSON answer must meet.
        embedder: turns prompts into vectors (default: :class:`StructuralEmbedder`, offline).
        index: where nearest requests are searched (default: FAISS per namespace); adapters
            offer indexes over LangChain and LlamaIndex vector stores.
        store: where entries live (default: in memory, LRU-bounded by ``max_entries``).
        segmenter: how answers are split into steps (default: JSON answers as one object,
            everything else by paragraphs and list items).
        policy: thresholds of the request path; ``similarity_threshold`` overrides its field.
        max_entries: bound of the default store (least recently used entries are evicted).
        ttl: seconds after which an entry is stale and never served.
        builtin_verifiers: set ``False`` to keep only the staleness check and your verifiers.

    Example:
        >>> cache = StepCache(similarity_threshold=0.8, max_entries=10_000)
        >>> cache.stats()["requests"]
        0
    """

    def __init__(
        self,
        *,
        verifiers: Sequence[object] = (),
        json_schema: Any = None,
        embedder: Embedder | None = None,
        index: VectorIndex | None = None,
        store: EntryStore | None = None,
        segmenter: Segmenter | None = None,
        policy: Policy | None = None,
        similarity_threshold: float | None = None,
        max_entries: int | None = None,
        ttl: float | None = None,
        builtin_verifiers: bool = True,
    ) -> None:
        if ttl is not None and ttl <= 0:
            raise ValueError(f"ttl must be positive seconds, got {ttl!r}")
        if index is not None and embedder is not None:
            raise ValueError("pass either an index (which embeds) or an embedder, not both")
        if store is not None and max_entries is not None:
            raise ValueError("max_entries bounds the default store; bound your own store instead")
        policy = policy or Policy()
        if similarity_threshold is not None:
            policy = Policy(**{**policy.__dict__, "similarity_threshold": similarity_threshold})
        self.policy = policy
        self.ttl = ttl
        builtins: list[Verifier] = (
            [LinearEquationVerifier(), JsonVerifier(json_schema)] if builtin_verifiers else []
        )
        self.verifiers: tuple[Verifier, ...] = (
            *builtins,
            *(as_verifier(v) for v in verifiers),
            StalenessVerifier(),
        )
        self.segmenter = segmenter
        self.store: EntryStore = store if store is not None else MemoryEntryStore(max_entries)
        self.index: VectorIndex = index if index is not None else EmbeddingIndex(embedder)
        self._lock = threading.RLock()
        self._stats = StatsCollector()
        self._listeners: list[RecordListener] = []

    # -- public API ---------------------------------------------------------------------------

    def serve(self, request: CacheRequest) -> ServeGenerator:
        """The request path as a generator of model calls (see ``core.protocol``)."""
        return RequestRun(self, request).run()

    def stats(self) -> dict[str, Any]:
        """Aggregated records: decisions, hit rate, tokens used and saved, latency percentiles."""
        snapshot = self._stats.snapshot()
        snapshot["entries"] = len(self)
        return snapshot

    def add_listener(self, listener: RecordListener) -> None:
        """Call ``listener(record)`` after every request (for metrics exporters)."""
        self._listeners.append(listener)

    def clear(self) -> None:
        """Remove every entry (stats are kept)."""
        with self._lock:
            self.store.clear()
            self.index.clear()

    def delete_namespace(self, namespace: str) -> int:
        """Remove every entry of one namespace; returns how many."""
        return self._delete_where(lambda entry: entry.namespace == namespace)

    def delete_tenant(self, tenant: str) -> int:
        """Remove every entry of one tenant; returns how many."""
        return self._delete_where(lambda entry: entry.tenant == tenant)

    def __len__(self) -> int:
        return len(self.store)

    # -- used by the request path -------------------------------------------------------------

    def segmenter_for(self, task: str | None) -> Segmenter:
        if self.segmenter is not None:
            return self.segmenter
        tasks = (task or "").split("+")
        return JsonSegmenter() if "json" in tasks else ParagraphSegmenter()

    def _fresh_entry(self, entry: CacheEntry | None) -> CacheEntry | None:
        if entry is None:
            return None
        if self.ttl is not None and time.time() - entry.created_at > self.ttl:
            with self._lock:
                self.store.delete([entry.id])
                self.index.remove([entry.id])
            return None
        return entry

    def _nearest(self, request: CacheRequest) -> tuple[CacheEntry, float] | None:
        try:
            hits = self.index.search(request.prompt, request.namespace, 3)
        except Exception as error:  # a broken index costs a miss, never the request
            logger.warning("vector index search failed, treating as a miss: %r", error)
            return None
        for entry_id, score in hits:
            entry = self._fresh_entry(self.store.get(entry_id))
            # The namespace check is redundant with per-namespace indexes, but a foreign
            # vector store may ignore filters: never trust it for isolation.
            if entry is not None and entry.namespace == request.namespace:
                return entry, float(score)
        return None

    def _touch(self, entry: CacheEntry) -> None:
        self.store.touch(entry.id, time.time())

    def _store_answer(
        self,
        request: CacheRequest,
        text: str,
        task: str | None,
        cost: tuple[int, int],
    ) -> bool:
        segmenter = self.segmenter_for(task)
        try:
            steps = segmenter.split(text)
        except Exception as error:
            logger.warning("segmenter %s failed; answer not cached: %r", segmenter.name, error)
            return False
        if not steps:
            return False
        entry = CacheEntry.create(
            request.namespace,
            request.tenant,
            request.prompt,
            steps,
            segmenter.name,
            task=task,
            tokens_input=cost[0],
            tokens_output=cost[1],
        )
        try:
            with self._lock:
                evicted = self.store.put(entry)
                if evicted:
                    self.index.remove(evicted)
                self.index.add(entry.id, entry.prompt, entry.namespace)
        except Exception as error:
            logger.warning("storing a cache entry failed; answer served uncached: %r", error)
            return False
        return True

    def _observe(self, record: StepCacheRecord) -> None:
        self._stats.add(record)
        for listener in self._listeners:
            try:
                listener(record)
            except Exception as error:  # a metrics hook must not break serving
                logger.warning("record listener failed: %r", error)

    def _delete_where(self, predicate: Callable[[CacheEntry], bool]) -> int:
        with self._lock:
            doomed = [entry.id for entry in self.store if predicate(entry)]
            self.store.delete(doomed)
            self.index.remove(doomed)
            return len(doomed)
