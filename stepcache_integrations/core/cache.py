"""The :class:`StepCache` object: a store, task families, verifiers and a policy, shared by
any number of wrappers (LangChain's and LlamaIndex's alike)."""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any

from stepcache_integrations.core.configuration import (
    ConfigurationError,
    check_count,
    check_seconds,
)
from stepcache_integrations.core.embeddings import Embedder
from stepcache_integrations.core.engine import EngineSettings, RequestRun
from stepcache_integrations.core.entries import CacheEntry, prompt_key
from stepcache_integrations.core.frozen import evolve
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.core.protocol import CacheRequest, ServeGenerator
from stepcache_integrations.core.records import StatsCollector, StepCacheRecord
from stepcache_integrations.core.steps import Segmenter
from stepcache_integrations.core.stores.base import ANY, CacheStore, StoreUnavailable
from stepcache_integrations.core.stores.directory import OnCorruptIndex
from stepcache_integrations.core.stores.entry_store import EntryStore
from stepcache_integrations.core.stores.errors import CacheCorruptError, CacheStorageError
from stepcache_integrations.core.stores.guard import StoreGuard
from stepcache_integrations.core.stores.local import LocalStore
from stepcache_integrations.core.stores.memory import MemoryEntryStore
from stepcache_integrations.core.stores.sqlite import Durability
from stepcache_integrations.core.tasks import TaskRegistry, default_registry
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex
from stepcache_integrations.core.verifiers.base import Verifier
from stepcache_integrations.core.verifiers.callable import CallableVerifier
from stepcache_integrations.core.verifiers.parser import OutputParserVerifier, ParsesText

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
            or callables ``(request, answer) -> bool | Verdict``) every answer must pass.
        json_schema: a JSON Schema dict or Pydantic model every JSON answer must meet.
        tasks: the task families the cache understands (default: JSON objects and linear
            equations, see :func:`~stepcache_integrations.core.tasks.default_registry`);
            register your own family on it.
        embedder: turns prompts into vectors (default: :class:`StructuralEmbedder`, offline).
        store: where entries live: any :class:`~stepcache_integrations.core.stores.base.
            CacheStore`, or an entry store to pair with ``index`` (default: in memory,
            LRU-bounded by ``max_entries``).
        index: with an entry store, where nearest requests are searched (default: FAISS per
            namespace); adapters offer indexes over LangChain and LlamaIndex vector stores.
        segmenter: how answers are split into steps (default: each task family's own;
            paragraphs and list items otherwise).
        policy: thresholds of the request path; ``similarity_threshold`` overrides its field.
        max_entries: bound of the built-in stores (least recently used entries are evicted).
        ttl: seconds after which an entry is stale and never served. An answer made from
            reused steps is as old as the answer they came from.
        builtin_verifiers: set ``False`` to start without the built-in task families (the
            staleness check and your verifiers still run).
        path: a directory to persist to (entries in SQLite, the FAISS index as files rebuilt
            from them; see ``docs/reliability.md``). Without it the cache lives in memory.
        on_corrupt_index: with ``path``, what a corrupt index file does: ``"error"`` raises
            :class:`~stepcache_integrations.core.stores.directory.IndexFileError` naming the
            file; ``"rebuild"`` rebuilds the index from the entries.
        durability: with ``path``, ``"full"`` (fsync per stored entry: survives power loss)
            or ``"normal"`` (survives a killed process; much faster writes).
        read_only: with ``path``, serve an existing cache without ever writing to it (also on
            a read-only filesystem): hits are served, new answers are not stored (logged once),
            the index is not saved. A directory this process cannot write must be opened so.
        lookup_budget: seconds a store lookup may take before it is reported as slow; a store
            that fails is never allowed to fail a request (the model answers, decision
            ``bypass``). The Postgres store enforces it: the server cancels a slower lookup,
            and a lookup waits no longer for a pooled connection.
        url: a Postgres database to share with a whole fleet of processes (entries and
            their vectors in one database, pgvector; needs the ``postgres`` extra; see
            ``docs/deployment.md``). A database that is down answers every request with the
            model until it is back; the cache reconnects by itself.
        pool_size: with ``url``, connections at most per process.
        db_schema: with ``url``, the Postgres schema holding this cache's tables (several
            caches can share one database).

    Raises:
        ConfigurationError: (a ``ValueError``) an argument that cannot work, named with what is
            wrong: a ``url`` libpq cannot parse or of another scheme, a ``path`` that is a file
            or cannot be created, a negative size or time... A database that is down, or a
            damaged page in a SQLite file, is not one: the cache opens, and the model answers
            until the database is back or the file is salvaged.

    Example:
        >>> cache = StepCache(similarity_threshold=0.8, max_entries=10_000)
        >>> cache.stats()["requests"]
        0

        Persistent, shared by processes (close it, or use ``with``, to save the index):

        >>> import tempfile
        >>> with StepCache(path=tempfile.mkdtemp(), max_entries=100_000) as cache:
        ...     len(cache)
        0

        Shared by a fleet (every process, on every machine, with the same URL):

        >>> cache = StepCache(url="postgresql://app:secret@db/cache")  # doctest: +SKIP
    """

    def __init__(
        self,
        *,
        verifiers: Sequence[object] = (),
        json_schema: Any = None,
        tasks: TaskRegistry | None = None,
        embedder: Embedder | None = None,
        index: VectorIndex | None = None,
        store: CacheStore | EntryStore | None = None,
        segmenter: Segmenter | None = None,
        policy: Policy | None = None,
        similarity_threshold: float | None = None,
        max_entries: int | None = None,
        ttl: float | None = None,
        builtin_verifiers: bool = True,
        path: str | os.PathLike[str] | None = None,
        on_corrupt_index: OnCorruptIndex = "error",
        durability: Durability = "full",
        lookup_budget: float = 0.05,
        url: str | None = None,
        pool_size: int = 4,
        db_schema: str = "stepcache",
        read_only: bool = False,
    ) -> None:
        if ttl is not None:
            ttl = check_seconds("ttl", ttl)
        if similarity_threshold is not None and (
            isinstance(similarity_threshold, bool)
            or not isinstance(similarity_threshold, int | float)
        ):
            raise ConfigurationError(
                "similarity_threshold",
                f"must be a number in [-1, 1], got {similarity_threshold!r}",
            )
        if max_entries is not None:
            check_count("max_entries", max_entries)
        check_seconds("lookup_budget", lookup_budget)
        if not isinstance(read_only, bool):
            raise ConfigurationError("read_only", f"must be True or False, got {read_only!r}")
        if index is not None and embedder is not None:
            raise ValueError("pass either an index (which embeds) or an embedder, not both")
        if store is not None and max_entries is not None:
            raise ValueError("max_entries bounds the built-in stores; bound your own store instead")
        if path is not None and (store is not None or index is not None):
            raise ValueError(
                "path persists the built-in SQLite store and FAISS index: pass an embedder, "
                "not a store or an index"
            )
        if url is not None and (path is not None or store is not None or index is not None):
            raise ValueError(
                "url keeps entries and vectors in Postgres: pass an embedder, not a path, a "
                "store or an index"
            )
        if read_only and path is None:
            raise ValueError("read_only applies to a persistent cache: pass path=... too")
        if tasks is not None and (json_schema is not None or not builtin_verifiers):
            raise ValueError(
                "tasks replaces the built-in families: configure json_schema on your "
                "JsonObjectFamily instead"
            )
        policy = policy or Policy()
        if similarity_threshold is not None:
            policy = replace(policy, similarity_threshold=similarity_threshold)
        self.policy = policy
        self.ttl = ttl
        if tasks is None:
            tasks = default_registry(json_schema) if builtin_verifiers else TaskRegistry()
        self.tasks = tasks
        self.segmenter = segmenter
        self.store: CacheStore
        request_listener: RecordListener | None = None
        if url is not None:
            options = _PostgresOptions(pool_size, db_schema, lookup_budget)
            self.store, request_listener = _open_postgres(url, embedder, max_entries, options)
        else:
            self.store = _open_store(
                store=store,
                index=index,
                embedder=embedder,
                max_entries=max_entries,
                path=path,
                on_corrupt_index=on_corrupt_index,
                durability=durability,
                read_only=read_only,
            )
        self._path = None if path is None else Path(path)
        self._settings = EngineSettings(
            policy=policy,
            registry=tasks,
            verifiers=tuple(as_verifier(v) for v in verifiers),
            segmenter=segmenter,
        )
        self._access = _CacheAccess(self, StoreGuard(self.store, lookup_budget=lookup_budget))
        if request_listener is not None:
            self.add_listener(request_listener)
        if self.ttl is not None and self.store.capabilities.persistent and not read_only:
            try:
                self.purge_expired()
            except StoreUnavailable as unavailable:  # a database that is down must not stop us
                logger.warning("expired entries not purged at start: %s", unavailable)
            except CacheCorruptError as error:  # nor a damaged file (the first request warns)
                logger.info("expired entries not purged at open: %s", error)
            except CacheStorageError as error:  # a full or busy disk must not stop the app
                logger.warning("expired entries not purged at open (never served): %s", error)

    # -- public API ---------------------------------------------------------------------------

    @property
    def verifiers(self) -> tuple[Verifier, ...]:
        """The cache's own verifiers (beyond its task families' and the staleness check)."""
        return self._settings.verifiers

    def serve(self, request: CacheRequest) -> ServeGenerator:
        """The request path as a generator of model calls (see ``core.protocol``).

        The request's namespace is bound to its tenant first (:func:`tenant_namespace`).
        """
        scoped = evolve(request, namespace=tenant_namespace(request.namespace, request.tenant))
        return self._serve(scoped)

    def _serve(self, request: CacheRequest) -> ServeGenerator:
        # ``request`` is a fresh copy, so its id names this one run while it is in flight.
        self._access.begin(request)
        try:
            return (yield from RequestRun(self._settings, self._access, request).run())
        finally:
            self._access.end(request)

    def stats(self) -> dict[str, Any]:
        """Aggregated records: decisions, hit rate, tokens used and saved, latency percentiles,
        entries stored, the store's summary and the estimated memory per entry (``memory``)."""
        snapshot = self._stats_snapshot()
        try:
            summary = self.store.summary()
        except Exception as error:  # stats must work while the store is down
            summary = {"error": f"{type(error).__name__}: {error}"}
        snapshot["entries"] = summary.get("entries")
        snapshot["store"] = {k: v for k, v in summary.items() if k != "memory"}
        if "memory" in summary:
            snapshot["memory"] = summary["memory"]
        return snapshot

    def _stats_snapshot(self) -> dict[str, Any]:
        return self._access.stats.snapshot()

    def add_listener(self, listener: RecordListener) -> None:
        """Call ``listener(record)`` after every request (for metrics exporters; see
        :class:`~stepcache_integrations.core.telemetry.StepCacheTelemetry` for OpenTelemetry)."""
        self._access.listeners.append(listener)

    @property
    def store_errors(self) -> int:
        """Store lookups and writes that failed since this cache was opened (each request
        was answered by the model or served uncached meanwhile: the cache fails open)."""
        return self._access.guard.failures

    def clear(self) -> None:
        """Remove every entry (stats are kept). Requests already running store nothing."""
        with self._access.deleting():
            self.store.clear()

    def delete_namespace(self, namespace: str) -> int:
        """Remove every entry of one namespace; returns how many. Requests already running
        store nothing."""
        if not isinstance(namespace, str):
            raise TypeError(f"namespace must be a string, got {type(namespace).__name__}")
        with self._access.deleting():
            return self.store.delete_matching(namespace=namespace)

    def delete_tenant(self, tenant: str | None) -> int:
        """Remove every entry of one tenant (unreadable rows included, for a persistent
        cache); returns how many. ``None`` removes the entries stored *without* a tenant,
        never those of other tenants (:meth:`clear` removes everything). Requests already
        running store nothing."""
        if tenant is not None and not isinstance(tenant, str):
            raise TypeError(f"tenant must be a string or None, got {type(tenant).__name__}")
        with self._access.deleting():
            return self.store.delete_matching(namespace=ANY, tenant=tenant)

    def purge_expired(self) -> int:
        """Delete every entry older than ``ttl`` now (expired entries are otherwise deleted
        when a lookup meets them); returns how many."""
        if self.ttl is None:
            return 0
        with self._access.deleting():
            return self.store.delete_created_before(time.time() - self.ttl)

    def __len__(self) -> int:
        return len(self.store)

    # -- maintenance --------------------------------------------------------------------------

    @property
    def path(self) -> Path | None:
        """The cache directory of ``StepCache(path=...)``, or ``None``."""
        return self._path

    def reload(self) -> tuple[int, int]:
        """Make the index agree with the stored entries now (entries other processes stored
        or deleted). Returns ``(added, removed)``.

        Not needed for correctness: stores by other processes are found on the next lookup
        anyway, and an entry another process deleted is never served (every hit is re-read
        from the entries). ``reload`` only prunes the index and re-syncs eagerly.
        """
        self._require_persistent("reload")
        return self.store.sync()

    def rebuild_index(self) -> int:
        """Re-embed every readable entry into a fresh index (and save it); returns the count."""
        return self.store.rebuild_index()

    def save_index(self) -> Path | None:
        """Write the index files now (``close()`` does it when the index changed)."""
        self._require_persistent("save_index")
        return self.store.save_index()

    def _require_persistent(self, what: str) -> None:
        if not self.store.capabilities.persistent:
            raise RuntimeError(
                f"{what}() needs a persistent store; this StepCache lives in memory: create it "
                "with path=... (or url=...) to persist"
            )

    def check(self) -> dict[str, Any]:
        """A full consistency check: store integrity, unreadable entries, index agreement."""
        return self.store.check()

    def close(self) -> None:
        """Save what needs saving and close the store (idempotent)."""
        self.store.close()

    def __enter__(self) -> StepCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        families = ", ".join(family.name for family in self.tasks)
        return f"StepCache(store={self.store!r}, tasks=[{families}])"


@dataclass(frozen=True)
class _PostgresOptions:
    pool_size: int
    schema: str
    lookup_budget: float


def _open_postgres(
    url: str, embedder: Embedder | None, max_entries: int | None, options: _PostgresOptions
) -> tuple[CacheStore, RecordListener]:
    try:
        from stepcache_integrations.core.stores.postgres import PoolSettings, PostgresStore
    except ImportError as error:
        raise ImportError(
            "StepCache(url=...) needs the postgres extra: "
            f"pip install 'stepcache-integrations[postgres]' ({error})"
        ) from error
    size = check_count("pool_size", options.pool_size)
    settings = PoolSettings(min_size=size, max_size=size, lookup_budget=options.lookup_budget)
    try:
        store = PostgresStore(
            url, embedder=embedder, schema=options.schema, max_entries=max_entries, pool=settings
        )
    except ConfigurationError as error:
        if error.argument != "schema":
            raise
        raise ConfigurationError("db_schema", error.problem) from None
    # Every process adds its decisions to the database: a fleet-wide hit rate.
    return store, store.record_request


def _open_store(
    *,
    store: CacheStore | EntryStore | None,
    index: VectorIndex | None,
    embedder: Embedder | None,
    max_entries: int | None,
    path: str | os.PathLike[str] | None,
    on_corrupt_index: OnCorruptIndex,
    durability: Durability,
    read_only: bool = False,
) -> CacheStore:
    """The store a constructor's arguments describe (``url`` aside: see ``_open_postgres``)."""
    if path is not None:
        return LocalStore.open_directory(
            path,
            embedder=embedder,
            max_entries=max_entries,
            durability=durability,
            on_corrupt_index=on_corrupt_index,
            read_only=read_only,
        )
    if isinstance(store, CacheStore):
        if index is not None or embedder is not None:
            raise ValueError(
                f"{type(store).__name__} finds entries itself: configure its embedder or index "
                "on the store, not on StepCache"
            )
        return store
    if store is None and index is None:
        return LocalStore.in_memory(max_entries=max_entries, embedder=embedder)
    if store is not None and not isinstance(store, EntryStore):
        raise TypeError(f"store must be a CacheStore or an EntryStore, got {type(store).__name__}")
    entries = store if store is not None else MemoryEntryStore(max_entries)
    return LocalStore(entries, index if index is not None else EmbeddingIndex(embedder))


class _CacheAccess:
    """What the request path may do to its cache (:class:`~.engine.CacheAccess`): guarded
    lookups and writes, time to live, tenant checks, and the statistics of finished requests.
    """

    def __init__(self, cache: StepCache, guard: StoreGuard) -> None:
        self.ttl = cache.ttl
        self.guard = guard
        self.stats = StatsCollector()
        self.listeners: list[RecordListener] = []
        # Bumped by clear() and deletions: a request that started before one never stores
        # its answer afterwards, so deleted data cannot come back from in-flight requests.
        self._lock = threading.Lock()
        self._epoch = 0
        self._inflight: dict[int, int] = {}

    # -- bookkeeping of in-flight requests ------------------------------------------------------

    def begin(self, request: CacheRequest) -> None:
        with self._lock:
            self._inflight[id(request)] = self._epoch

    def end(self, request: CacheRequest) -> None:
        with self._lock:
            self._inflight.pop(id(request), None)

    def deleting(self) -> _Deletion:
        return _Deletion(self)

    def bump_epoch(self) -> None:
        with self._lock:
            self._epoch += 1

    # -- CacheAccess ---------------------------------------------------------------------------

    def _live(self, entry: CacheEntry | None, request: CacheRequest) -> CacheEntry | None:
        if entry is None:
            return None
        # The namespace already covers the tenant; checking both again costs nothing and keeps
        # isolation independent of how a store implements its keys and filters.
        if (entry.namespace, entry.tenant) != (request.namespace, request.tenant):
            return None
        if self.ttl is not None and time.time() - entry.created_at > self.ttl:
            self.guard.delete([entry.id])  # best effort: a failed delete never fails a hit
            return None
        return entry

    def exact(self, request: CacheRequest) -> CacheEntry | None:
        # The prompt's own text first (no tokenisation, where the store indexes texts), then
        # its comparison form: every wording of the same request shares that key.
        found = self._live(self.guard.exact_prompt(request.namespace, request.prompt), request)
        if found is not None:
            return found
        return self._live(self.guard.exact(prompt_key(request.namespace, request.prompt)), request)

    def nearest(self, request: CacheRequest, k: int) -> list[tuple[CacheEntry, float]]:
        found = []
        for entry, score in self.guard.nearest(request.prompt, request.namespace, k):
            live = self._live(entry, request)
            if live is not None:
                found.append((live, score))
        return found

    def touch(self, entry: CacheEntry) -> None:
        self.guard.touch(entry.id, time.time())

    def store(self, entry: CacheEntry, request: CacheRequest) -> bool:
        with self._lock:
            started = self._inflight.get(id(request))
            if started is not None and started != self._epoch:
                logger.info("entries were deleted while this request ran: not cached")
                return False
        return self.guard.put(entry)

    def observe(self, record: StepCacheRecord) -> None:
        self.stats.add(record)
        for listener in self.listeners:
            try:
                listener(record)
            except Exception as error:  # a metrics hook must not break serving
                logger.warning("record listener failed: %r", error)


class _Deletion:
    """Bumps the deletion epoch before and after a deletion, so no request that overlapped
    it stores an answer afterwards."""

    def __init__(self, access: _CacheAccess) -> None:
        self.access = access

    def __enter__(self) -> None:
        self.access.bump_epoch()

    def __exit__(self, *exc: object) -> None:
        self.access.bump_epoch()
