"""The :class:`StepCache` object: store, index, verifiers and policy, shared by wrappers."""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any

from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder
from stepcache_integrations.core.engine import RequestRun
from stepcache_integrations.core.entries import CacheEntry, EntryStore, MemoryEntryStore
from stepcache_integrations.core.memory import memory_report
from stepcache_integrations.core.persistence import CacheDirectory, OnCorruptIndex
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.core.protocol import CacheRequest, ServeGenerator
from stepcache_integrations.core.records import StatsCollector, StepCacheRecord
from stepcache_integrations.core.sqlite_store import Durability
from stepcache_integrations.core.steps import JsonSegmenter, ParagraphSegmenter, Segmenter
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex
from stepcache_integrations.core.verifiers.base import Verifier
from stepcache_integrations.core.verifiers.callable import CallableVerifier
from stepcache_integrations.core.verifiers.json_object import JsonVerifier
from stepcache_integrations.core.verifiers.linear import LinearEquationVerifier
from stepcache_integrations.core.verifiers.parser import OutputParserVerifier, ParsesText
from stepcache_integrations.core.verifiers.staleness import StalenessVerifier

__all__ = ["StepCache", "as_verifier", "tenant_namespace"]

logger = logging.getLogger(__name__)

RecordListener = Callable[[StepCacheRecord], None]

_HEX24 = re.compile(r"[0-9a-f]{24}")
_TENANT_SHAPED = re.compile(r".*:[0-9a-f]{24}", re.DOTALL)


def _digest(*parts: str) -> str:
    payload = "\x00".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()[:24]


def tenant_namespace(namespace: str, tenant: str | None) -> str:
    """The namespace a request really uses: always bound to its tenant.

    Namespaces made by :func:`~stepcache_integrations.core.namespace.make_namespace` pass
    unchanged (``"<tenant>:<24 hex>"``, or 24 hex without a tenant). Any other namespace is
    re-hashed with the tenant, so two different tenants can never share a namespace (hence an
    entry), however a caller builds its requests.

    Example:
        >>> tenant_namespace("shared", "acme") != tenant_namespace("shared", "globex")
        True
        >>> tenant_namespace("acme:" + "0" * 24, "acme") == "acme:" + "0" * 24
        True
    """
    if tenant is None:
        # Without a tenant, a namespace must not look like another tenant's.
        return _digest("no-tenant", namespace) if _TENANT_SHAPED.fullmatch(namespace) else namespace
    prefix = f"{tenant}:"
    if namespace.startswith(prefix) and _HEX24.fullmatch(namespace[len(prefix) :]):
        return namespace
    return f"{tenant}:{_digest('tenant', tenant, namespace)}"


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
        path: a directory to persist to (entries in SQLite, the FAISS index as files rebuilt
            from them; see ``docs/reliability.md``). Without it the cache lives in memory.
        on_corrupt_index: with ``path``, what a corrupt index file does: ``"error"`` raises
            :class:`~stepcache_integrations.core.persistence.IndexFileError` naming the file;
            ``"rebuild"`` rebuilds the index from the entries.
        durability: with ``path``, ``"full"`` (fsync per stored entry: survives power loss)
            or ``"normal"`` (survives a killed process; much faster writes).

    Example:
        >>> cache = StepCache(similarity_threshold=0.8, max_entries=10_000)
        >>> cache.stats()["requests"]
        0

        Persistent, shared by processes (close it, or use ``with``, to save the index):

        >>> import tempfile
        >>> with StepCache(path=tempfile.mkdtemp(), max_entries=100_000) as cache:
        ...     len(cache)
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
        path: str | os.PathLike[str] | None = None,
        on_corrupt_index: OnCorruptIndex = "error",
        durability: Durability = "full",
    ) -> None:
        if ttl is not None and ttl <= 0:
            raise ValueError(f"ttl must be positive seconds, got {ttl!r}")
        if index is not None and embedder is not None:
            raise ValueError("pass either an index (which embeds) or an embedder, not both")
        if store is not None and max_entries is not None:
            raise ValueError("max_entries bounds the default store; bound your own store instead")
        if path is not None and (store is not None or index is not None):
            raise ValueError(
                "path persists the built-in SQLite store and FAISS index: pass an embedder, "
                "not a store or an index"
            )
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
        self._directory: CacheDirectory | None = None
        self.store: EntryStore
        self.index: VectorIndex
        if path is not None:
            self._directory = CacheDirectory(path, max_entries=max_entries, durability=durability)
            try:
                self.index = self._directory.open_index(
                    embedder or StructuralEmbedder(), on_corrupt_index
                )
            except BaseException:
                self._directory.store.close()
                raise
            self.store = self._directory.store
        else:
            self.store = store if store is not None else MemoryEntryStore(max_entries)
            self.index = index if index is not None else EmbeddingIndex(embedder)
        # One lock keeps the store and the index consistent: every mutation of the pair, and
        # the check-then-store of an answer, happens under it.
        self._lock = threading.RLock()
        self._stats = StatsCollector()
        self._listeners: list[RecordListener] = []
        # Bumped by clear() and deletions: a request that started before one never stores
        # its answer afterwards, so deleted data cannot come back from in-flight requests.
        self._epoch = 0
        self._inflight: dict[int, int] = {}
        if self.ttl is not None and self._directory is not None:
            self.purge_expired()

    # -- public API ---------------------------------------------------------------------------

    def serve(self, request: CacheRequest) -> ServeGenerator:
        """The request path as a generator of model calls (see ``core.protocol``).

        The request's namespace is bound to its tenant first (:func:`tenant_namespace`).
        """
        scoped = replace(request, namespace=tenant_namespace(request.namespace, request.tenant))
        return self._serve(scoped)

    def _serve(self, request: CacheRequest) -> ServeGenerator:
        # ``request`` is a fresh copy, so its id names this one run while it is in flight.
        with self._lock:
            self._inflight[id(request)] = self._epoch
        try:
            return (yield from RequestRun(self, request).run())
        finally:
            with self._lock:
                self._inflight.pop(id(request), None)

    def stats(self) -> dict[str, Any]:
        """Aggregated records: decisions, hit rate, tokens used and saved, latency percentiles,
        entries stored and the estimated memory per entry (``memory``)."""
        snapshot = self._stats.snapshot()
        snapshot["entries"] = len(self)
        snapshot["memory"] = memory_report(self.store, self.index)
        return snapshot

    def add_listener(self, listener: RecordListener) -> None:
        """Call ``listener(record)`` after every request (for metrics exporters)."""
        self._listeners.append(listener)

    def clear(self) -> None:
        """Remove every entry (stats are kept). Requests already running store nothing."""
        with self._lock:
            self._epoch += 1
            self.store.clear()
            self.index.clear()

    def delete_namespace(self, namespace: str) -> int:
        """Remove every entry of one namespace; returns how many. Requests already running
        store nothing."""
        return self._delete_where(
            lambda entry: entry.namespace == namespace, {"namespace": namespace}
        )

    def delete_tenant(self, tenant: str) -> int:
        """Remove every entry of one tenant (unreadable rows included, for a persistent
        cache); returns how many. Requests already running store nothing."""
        return self._delete_where(lambda entry: entry.tenant == tenant, {"tenant": tenant})

    def purge_expired(self) -> int:
        """Delete every entry older than ``ttl`` now (expired entries are otherwise deleted
        when a lookup meets them); returns how many."""
        if self.ttl is None:
            return 0
        find = getattr(self.store, "ids_created_before", None)
        horizon = time.time() - self.ttl
        with self._lock:
            if callable(find):
                doomed = list(find(horizon))
            else:
                doomed = [entry.id for entry in self.store if entry.created_at < horizon]
            removed = self.store.delete(doomed)
            self.index.remove(doomed)
            return int(removed)

    def __len__(self) -> int:
        return len(self.store)

    # -- persistence (StepCache(path=...)) ----------------------------------------------------

    @property
    def path(self) -> Path | None:
        """The cache directory, or ``None`` for an in-memory cache."""
        return None if self._directory is None else self._directory.path

    def _persistent(self) -> CacheDirectory:
        if self._directory is None:
            raise RuntimeError("this StepCache lives in memory: create it with path=... to persist")
        return self._directory

    def reload(self) -> tuple[int, int]:
        """Make the index agree with the directory now: index entries other processes stored,
        drop those they deleted. Returns ``(added, removed)``.

        Not needed for correctness: stores by other processes are found on the next lookup
        anyway, and an entry another process deleted is never served (every hit is re-read
        from SQLite). ``reload`` only prunes the index and re-syncs eagerly.
        """
        directory = self._persistent()
        with self._lock:
            directory.store.flush()
            return directory.reconcile(self._embedding_index())

    def rebuild_index(self) -> int:
        """Re-embed every readable entry into a fresh index and save it; returns the count."""
        directory = self._persistent()
        with self._lock:
            return directory.rebuild_index(self._embedding_index())

    def save_index(self) -> Path:
        """Write the index files now (``close()`` does it when the index changed)."""
        directory = self._persistent()
        with self._lock:
            return directory.save_index(self._embedding_index())

    def check(self) -> dict[str, Any]:
        """A full consistency check: store integrity, unreadable entries, index agreement."""
        with self._lock:
            if self._directory is not None:  # what other processes stored is not a defect
                self._directory.sync(self._embedding_index())
            store_ids = {entry.id for entry in self.store}
            index_ids = set(self.index.ids()) if isinstance(self.index, EmbeddingIndex) else None
            health = getattr(self.store, "check", None)
            store_report = health().to_dict() if callable(health) else {"rows": len(self.store)}
        report: dict[str, Any] = {"store": store_report, "entries": len(store_ids)}
        if index_ids is not None:
            report["index"] = {
                "entries": len(index_ids),
                "missing": len(store_ids - index_ids),
                "extra": len(index_ids - store_ids),
            }
        index_ok = index_ids is None or index_ids == store_ids
        report["ok"] = bool(store_report.get("ok", True)) and index_ok
        return report

    def close(self) -> None:
        """Save the index if it changed and close the database (persistent caches only;
        an in-memory cache has nothing to close). Idempotent."""
        if self._directory is not None:
            with self._lock:
                self._directory.close(self._embedding_index())

    def __enter__(self) -> StepCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _embedding_index(self) -> EmbeddingIndex:
        assert isinstance(self.index, EmbeddingIndex)  # path= always builds one
        return self.index

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

    def _nearest(self, request: CacheRequest, k: int) -> list[tuple[CacheEntry, float]]:
        """Up to ``k`` live entries of the request's namespace, nearest first."""
        if self._directory is not None:
            try:
                with self._lock:  # other processes' new entries become searchable here
                    self._directory.sync(self._embedding_index())
            except Exception as error:  # a failed sync costs recall, never the request
                logger.warning("syncing the index with %s failed: %r", self._directory.path, error)
        try:
            hits = self.index.search(request.prompt, request.namespace, k)
        except Exception as error:  # a broken index costs a miss, never the request
            logger.warning("vector index search failed, treating as a miss: %r", error)
            return []
        found: list[tuple[CacheEntry, float]] = []
        for entry_id, score in hits:
            stored = self.store.get(entry_id)
            if stored is None:
                self._drop_stale(entry_id)
                continue
            entry = self._fresh_entry(stored)
            # The namespace and tenant checks are redundant with per-namespace indexes, but a
            # foreign vector store may ignore filters: never trust it for isolation.
            if (
                entry is not None
                and entry.namespace == request.namespace
                and entry.tenant == request.tenant
            ):
                found.append((entry, float(score)))
        return sorted(found, key=lambda pair: -pair[1])

    def _drop_stale(self, entry_id: str) -> None:
        """An indexed id with no (readable) entry, e.g. deleted by another process."""
        with self._lock:
            if self.store.get(entry_id) is None:  # re-check: it may have been stored since
                self.index.remove([entry_id])

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
                started = self._inflight.get(id(request))
                if started is not None and started != self._epoch:
                    logger.info("entries were deleted while this request ran: not cached")
                    return False
                evicted = self.store.put(entry)
                if evicted:
                    self.index.remove(evicted)
                try:
                    self.index.add(entry.id, entry.prompt, entry.namespace)
                except Exception:
                    # Keep the pair consistent: an entry the index cannot find is not stored.
                    self.store.delete([entry.id])
                    self.index.remove([entry.id])
                    raise
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

    def _delete_where(
        self, predicate: Callable[[CacheEntry], bool], columns: dict[str, str]
    ) -> int:
        matching = getattr(self.store, "ids_matching", None)
        with self._lock:
            self._epoch += 1
            if callable(matching):  # indexed columns: no decoding, unreadable rows included
                doomed = list(matching(**columns))
            else:
                doomed = [entry.id for entry in self.store if predicate(entry)]
            removed = self.store.delete(doomed)
            self.index.remove(doomed)
            return int(removed)
