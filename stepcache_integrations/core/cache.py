"""The :class:`StepCache` object: a store, task families, verifiers and a policy, shared by
any number of wrappers (LangChain's and LlamaIndex's alike)."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any, overload

from stepcache_integrations.core.audit import (
    AnswerKeys,
    AuditAsk,
    AuditConfig,
    AuditLedger,
    AuditLedgerProvider,
    AuditListener,
    Auditor,
    FreshAnswer,
    MemoryAuditLedger,
    audit_config,
    audit_report,
    read_keys,
)
from stepcache_integrations.core.configuration import ConfigurationError, check_seconds
from stepcache_integrations.core.engine import EngineSettings, RequestRun
from stepcache_integrations.core.entries import CacheEntry, prompt_key
from stepcache_integrations.core.frozen import evolve
from stepcache_integrations.core.namespace import tenant_namespace
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.core.protocol import (
    CacheRequest,
    ModelCall,
    ModelReply,
    ServeGenerator,
    ServeResult,
)
from stepcache_integrations.core.records import StatsCollector, StepCacheRecord
from stepcache_integrations.core.steps import Segmenter
from stepcache_integrations.core.stores.base import (
    ANY,
    CacheStore,
    RequestCounter,
    StoreUnavailable,
)
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.entry_store import EntryStore
from stepcache_integrations.core.stores.errors import CacheCorruptError, CacheStorageError
from stepcache_integrations.core.stores.guard import StoreGuard
from stepcache_integrations.core.stores.local import LocalStore, MemoryStore
from stepcache_integrations.core.stores.memory import MemoryEntryStore
from stepcache_integrations.core.tasks import TaskRegistry, default_registry
from stepcache_integrations.core.vector_index import VectorIndex
from stepcache_integrations.core.verifiers.base import Verifier
from stepcache_integrations.core.verifiers.callable import CallableVerifier
from stepcache_integrations.core.verifiers.parser import OutputParserVerifier, ParsesText

__all__ = ["StepCache", "as_verifier", "tenant_namespace"]  # tenant_namespace: from core.namespace

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

    Where entries live is one choice, made with at most one of ``store``, ``path``, ``url``
    or ``index`` (default: in memory). Each store takes its own options:
    ``StepCache(store=SqliteStore(path, durability="normal"))``,
    ``StepCache(store=PostgresStore(url, schema="app"))``,
    ``StepCache(store=MemoryStore(max_entries=10_000))``; ``path``, ``url`` and ``index`` are
    shortcuts for the store with its defaults.

    Args:
        store: where entries live: a :class:`~stepcache_integrations.core.stores.local.
            MemoryStore` (the default: in this process, unbounded), a
            :class:`~stepcache_integrations.core.stores.directory_store.SqliteStore`, a
            :class:`~stepcache_integrations.core.stores.postgres.PostgresStore`, a
            :class:`~stepcache_integrations.core.stores.local.LocalStore` pairing your entry
            store with a vector index, or any other
            :class:`~stepcache_integrations.core.stores.base.CacheStore`.
        path: shortcut for ``store=SqliteStore(path)``: a directory to persist to (entries in
            SQLite, the FAISS index as files rebuilt from them; see ``docs/reliability.md``).
        url: shortcut for ``store=PostgresStore(url)``: a Postgres database to share with a
            whole fleet of processes (entries and their vectors in one database, pgvector;
            needs the ``postgres`` extra; see ``docs/deployment.md``). A database that is down
            answers every request with the model until it is back; the cache reconnects by
            itself.
        index: shortcut for ``store=LocalStore(MemoryEntryStore(), index)``: entries in
            memory, nearest requests searched through this vector index (adapters offer
            indexes over LangChain and LlamaIndex vector stores).
        verifiers: extra verifiers (``Verifier`` objects, output parsers with ``parse(text)``,
            or callables ``(request, answer) -> bool | Verdict``) every answer must pass.
        json_schema: a JSON Schema dict or Pydantic model every JSON answer must meet.
        tasks: the task families the cache understands (default: JSON objects, linear
            equations, arithmetic word problems and tool calls, see
            :func:`~stepcache_integrations.core.tasks.default_registry`); register your own
            family on it.
        builtin_verifiers: set ``False`` to start without the built-in task families (the
            staleness check and your verifiers still run).
        segmenter: how answers are split into steps (default: each task family's own;
            paragraphs and list items otherwise).
        policy: thresholds of the request path; ``similarity_threshold`` overrides its field.
        similarity_threshold: shortcut for ``Policy.similarity_threshold``.
        ttl: seconds after which an entry is stale and never served. An answer made from
            reused steps is as old as the answer they came from.
        audit: off by default. A rate such as ``0.02`` (or an
            :class:`~stepcache_integrations.core.audit.AuditConfig`) asks that share of the
            answers served without the model (exact, reuse, patch) of the model again, off the
            request path, and compares them by the task's answer key; a kind of reuse that
            disagrees is suspended in its namespace until audits of it agree again. See
            :meth:`audit_report` and ``docs/audit.md``.

    A store that fails is never allowed to fail a request: the model answers (decision
    ``bypass``). A lookup slower than the store's budget (the Postgres store enforces it:
    ``PoolSettings.lookup_budget``) is reported in the log.

    Raises:
        ConfigurationError: (a ``ValueError``) an argument that cannot work, named with what is
            wrong: a ``url`` libpq cannot parse or of another scheme, a ``path`` that is a file
            or cannot be created, a non-positive ``ttl``, two of ``store``, ``path``, ``url``
            and ``index``... The stores check their own options the same way. A database
            that is down, or a damaged page in a SQLite file, is not one: the cache opens, and
            the model answers until the database is back or the file is salvaged.

    Example:
        >>> cache = StepCache(similarity_threshold=0.8)
        >>> cache.stats()["requests"]
        0

        Persistent, shared by processes (close it, or use ``with``, to save the index):

        >>> import tempfile
        >>> with StepCache(path=tempfile.mkdtemp()) as cache:
        ...     len(cache)
        0

        With a store's own options:

        >>> from stepcache_integrations.core.stores import SqliteStore
        >>> store = SqliteStore(tempfile.mkdtemp(), max_entries=100_000, durability="normal")
        >>> with StepCache(store=store, ttl=7 * 86400) as cache:
        ...     cache.store.capabilities.name
        'sqlite'

        Shared by a fleet (every process, on every machine, with the same URL):

        >>> cache = StepCache(url="postgresql://app:secret@db/cache")  # doctest: +SKIP
    """

    # One overload per way of saying where entries live: a type checker refuses two at once.
    @overload
    def __init__(
        self,
        *,
        store: CacheStore | None = None,
        verifiers: Sequence[object] = (),
        json_schema: Any = None,
        tasks: TaskRegistry | None = None,
        builtin_verifiers: bool = True,
        segmenter: Segmenter | None = None,
        policy: Policy | None = None,
        similarity_threshold: float | None = None,
        ttl: float | None = None,
        audit: float | AuditConfig | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        *,
        path: str | os.PathLike[str],
        verifiers: Sequence[object] = (),
        json_schema: Any = None,
        tasks: TaskRegistry | None = None,
        builtin_verifiers: bool = True,
        segmenter: Segmenter | None = None,
        policy: Policy | None = None,
        similarity_threshold: float | None = None,
        ttl: float | None = None,
        audit: float | AuditConfig | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        *,
        url: str,
        verifiers: Sequence[object] = (),
        json_schema: Any = None,
        tasks: TaskRegistry | None = None,
        builtin_verifiers: bool = True,
        segmenter: Segmenter | None = None,
        policy: Policy | None = None,
        similarity_threshold: float | None = None,
        ttl: float | None = None,
        audit: float | AuditConfig | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self,
        *,
        index: VectorIndex,
        verifiers: Sequence[object] = (),
        json_schema: Any = None,
        tasks: TaskRegistry | None = None,
        builtin_verifiers: bool = True,
        segmenter: Segmenter | None = None,
        policy: Policy | None = None,
        similarity_threshold: float | None = None,
        ttl: float | None = None,
        audit: float | AuditConfig | None = None,
    ) -> None: ...

    def __init__(
        self,
        *,
        store: CacheStore | None = None,
        path: str | os.PathLike[str] | None = None,
        url: str | None = None,
        index: VectorIndex | None = None,
        verifiers: Sequence[object] = (),
        json_schema: Any = None,
        tasks: TaskRegistry | None = None,
        builtin_verifiers: bool = True,
        segmenter: Segmenter | None = None,
        policy: Policy | None = None,
        similarity_threshold: float | None = None,
        ttl: float | None = None,
        audit: float | AuditConfig | None = None,
    ) -> None:
        audit_settings = audit_config(audit)
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
        self.store: CacheStore = _store_of(store=store, path=path, url=url, index=index)
        self._access = _CacheAccess(self, StoreGuard(self.store))
        self._auditor: Auditor | None = None
        if audit_settings is not None:
            self._auditor = Auditor(audit_settings, _ledger_of(self.store), _AuditTarget(self))
        self._settings = EngineSettings(
            policy=policy,
            registry=tasks,
            verifiers=tuple(as_verifier(v) for v in verifiers),
            segmenter=segmenter,
            suspended=self._auditor.suspended if self._auditor is not None else None,
        )
        capabilities = self.store.capabilities
        if capabilities.request_counts and isinstance(self.store, RequestCounter):
            # A fleet's store counts every process's decisions: a fleet-wide hit rate.
            self.add_listener(self.store.record_request)
        if self.ttl is not None and capabilities.persistent and not _read_only(self.store):
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

    def serve(self, request: CacheRequest, *, audit: AuditAsk | None = None) -> ServeGenerator:
        """The request path as a generator of model calls (see ``core.protocol``).

        The request's namespace is bound to its tenant first
        (:func:`~stepcache_integrations.core.namespace.tenant_namespace`): every store keeps
        each tenant's entries under namespaces of their own.

        ``audit`` asks the wrapped model the request's own conversation again (its public
        API, tagged as an audit): with ``StepCache(audit=...)`` a sampled answer served from
        the cache is asked again with it on the auditor's thread, after the request finished
        (the adapters pass one; without it a sampled answer is counted as ``unaskable``).
        """
        scoped = evolve(request, namespace=tenant_namespace(request.namespace, request.tenant))
        return self._serve(scoped, audit)

    def _serve(self, request: CacheRequest, audit: AuditAsk | None = None) -> ServeGenerator:
        # ``request`` is a fresh copy, so its id names this one run while it is in flight.
        self._access.begin(request)
        try:
            run = RequestRun(self._settings, self._access, request)
            result = yield from run.run()
        finally:
            self._access.end(request)
        auditor = self._auditor
        if auditor is not None:
            # After the request path, before the caller has the result: a draw and a
            # non-blocking put, nothing more (the audit itself runs on the auditor's thread).
            auditor.consider(request, result.record, result.text, audit, run.shadow)
        return result

    # -- audits ---------------------------------------------------------------------------------

    @property
    def audit(self) -> AuditConfig | None:
        """The audit's configuration (``None``: audits are off)."""
        return self._auditor.config if self._auditor is not None else None

    def audit_report(self) -> dict[str, Any]:
        """Per task family and kind of reuse, over every namespace of the store (a fleet's,
        for a shared store): answers audited, agreements, disagreements, not comparable,
        shadow audits, the tokens audits spent, and the one-sided 95% Clopper-Pearson upper
        bound of the wrong-answer rate (``upper_95``); and the kinds suspended now. Works
        with audits off too (it reads what the store holds).

        Example:
            >>> StepCache().audit_report()["kinds"]
            []
        """
        ledger = self._auditor.ledger if self._auditor is not None else _ledger_of(self.store)
        return audit_report(ledger.counts(), ledger.suspensions())

    def resume_reuse(self, kind: str, namespace: str | None = None) -> int:
        """Lift the suspension of ``kind`` of reuse (``"linear_equation/value"``) in every
        namespace, or in one, now; returns how many were lifted."""
        if self._auditor is not None:
            return self._auditor.resume(kind, namespace)
        return _ledger_of(self.store).resume(kind, namespace)

    def add_audit_listener(self, listener: AuditListener) -> None:
        """Call ``listener(audit_record)`` after every audit (on the auditor's thread)."""
        if self._auditor is not None:
            self._auditor.listeners.append(listener)

    def drain_audits(self, timeout: float = 30.0) -> bool:
        """Wait until every queued audit has finished; ``False`` if ``timeout`` passed first
        (for tests, benchmarks and scripts: serving never waits for audits)."""
        return self._auditor.drain(timeout) if self._auditor is not None else True

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
        audit = self.audit_stats()
        if audit is not None:
            # Apart from the requests' figures: audit tokens are never a request's tokens.
            snapshot["audit"] = audit
        return snapshot

    def audit_stats(self) -> dict[str, Any] | None:
        """This process's audit counters (``None``: audits are off): the rate, answers
        sampled, queued, dropped (queue full) and unaskable (no way to ask the model), shadow
        audits, outcomes, suspensions and resumptions, the audits' model calls and tokens,
        the queue's length and the kinds suspended now. Memory only: free to call often."""
        return dict(self._auditor.snapshot()) if self._auditor is not None else None

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
        self._settings.analyses.clear()

    def analyse(self, entries: Iterable[CacheEntry]) -> None:
        """Read the cached side of ``entries`` now (what the task families named by each
        entry's task read of its request), as the request path does for the entries it
        stores: for entries put into the store directly (a bulk load). An entry not analysed
        is read the first time a hit meets it, once; this changes no decision."""
        registry, analyses = self.tasks, self._settings.analyses
        for entry in entries:
            names = entry.task.split("+") if entry.task else ()
            families = [family for name in names if (family := registry.get(name)) is not None]
            analyses.analyse(entry, families)

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
        """The cache directory of a :class:`~stepcache_integrations.core.stores.
        directory_store.SqliteStore` (``StepCache(path=...)``), or ``None``."""
        return self.store.path if isinstance(self.store, LocalStore) else None

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
                "with path=... (or url=..., or a persistent store=...) to persist"
            )

    def check(self) -> dict[str, Any]:
        """A full consistency check: store integrity, unreadable entries, index agreement."""
        return self.store.check()

    def close(self) -> None:
        """Finish queued audits (for at most the audit's ``close_seconds``), save what needs
        saving and close the store (idempotent)."""
        if self._auditor is not None:
            self._auditor.close()
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


_WHERE = ("store", "path", "url", "index")


def _store_of(
    *,
    store: CacheStore | None,
    path: str | os.PathLike[str] | None,
    url: str | None,
    index: VectorIndex | None,
) -> CacheStore:
    """The store the constructor's one choice of where entries live names."""
    given = {name: value for name, value in zip(_WHERE, (store, path, url, index), strict=True)}
    chosen = [name for name, value in given.items() if value is not None]
    if len(chosen) > 1:
        raise ConfigurationError(
            chosen[-1],
            f"give one of store=, path=, url= or index= (where entries live), not "
            f"{' and '.join(f'{name}=' for name in chosen)}; a store takes its own options: "
            "StepCache(store=SqliteStore(path, ...)), StepCache(store=PostgresStore(url, ...))",
        )
    if path is not None:
        return SqliteStore(path)
    if url is not None:
        return _postgres_store(url)
    if index is not None:
        return LocalStore(MemoryEntryStore(), index)
    if store is None:
        return MemoryStore()
    if isinstance(store, EntryStore) and not isinstance(store, CacheStore):
        raise ConfigurationError(
            "store",
            f"{type(store).__name__} is an entry store: pair it with a vector index, "
            "StepCache(store=LocalStore(entries)) (FAISS per namespace) or "
            "StepCache(store=LocalStore(entries, index))",
        )
    if not isinstance(store, CacheStore):
        raise ConfigurationError(
            "store",
            "must be a CacheStore (MemoryStore, SqliteStore, PostgresStore, LocalStore or your "
            f"own), got {type(store).__name__}",
        )
    return store


def _postgres_store(url: str) -> CacheStore:
    try:
        from stepcache_integrations.core.stores.postgres import PostgresStore
    except ImportError as error:
        raise ImportError(
            "StepCache(url=...) needs the postgres extra: "
            f"pip install 'stepcache-integrations[postgres]' ({error})"
        ) from error
    return PostgresStore(url)


def _ledger_of(store: CacheStore) -> AuditLedger:
    """The store's own audit ledger (shared by a fleet), or one in this process's memory."""
    if isinstance(store, AuditLedgerProvider):
        return store.audit_ledger()
    return MemoryAuditLedger()


class _AuditTarget:
    """What the auditor may do to its cache: check the model's answer as a request's answer
    is checked, read answer keys, evict entries, store a checked answer."""

    def __init__(self, cache: StepCache) -> None:
        self._cache = cache

    def check_fresh(self, request: CacheRequest, reply: ModelReply) -> FreshAnswer:
        # The request path itself checks the model's answer ("answered": no lookup, no
        # mending), with an access that keeps what it would store instead of storing it.
        capture = _CapturingAccess()
        answered = evolve(request, model_access="answered", bypass_reason=None)
        flow = RequestRun(self._cache._settings, capture, answered).run()
        result = _answer(flow, reply)
        if not result.passed:
            return FreshAnswer(result.text, None, result.record.failure or "failed")
        return FreshAnswer(result.text, capture.entry)

    def answer_keys(self, request: CacheRequest, text: str) -> AnswerKeys:
        families = self._cache.tasks.recognise(request.prompt, request.options).families
        return read_keys(families, request.prompt, text, request.options)

    def evict(self, request: CacheRequest, entry_ids: list[str]) -> None:
        with self._cache._access.deleting():
            self._cache._access.guard.delete(entry_ids)

    def keep(self, entry: CacheEntry, request: CacheRequest) -> None:
        self._cache._access.guard.put(entry)


class _CapturingAccess:
    """A :class:`~.engine.CacheAccess` for checking an answer without storing or counting
    it: the entry it would store is kept here, the record goes nowhere."""

    def __init__(self) -> None:
        self.entry: CacheEntry | None = None

    def exact(self, request: CacheRequest) -> CacheEntry | None:
        return None

    def nearest(self, request: CacheRequest, k: int) -> list[tuple[CacheEntry, float]]:
        return []

    def touch(self, entry: CacheEntry) -> None:
        return None

    def store(self, entry: CacheEntry, request: CacheRequest) -> bool:
        self.entry = entry
        return True

    def observe(self, record: StepCacheRecord) -> None:
        return None


def _answer(flow: ServeGenerator, reply: ModelReply) -> ServeResult:
    """Run an ``answered`` request path, giving ``reply`` to its one model call."""
    action = flow.send(None)
    try:
        while True:
            action = flow.send(reply if isinstance(action, ModelCall) else None)
    except StopIteration as stop:
        result: ServeResult = stop.value
        return result
    finally:
        flow.close()


def _read_only(store: CacheStore) -> bool:
    return bool(store.capabilities.options.get("read_only", False))


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
        # THE tenant guarantee, for every store: no entry of another namespace or tenant ever
        # reaches the request path, whatever a store's keys and filters do (a third party's
        # store, a framework's vector store that ignores its filter, a row written by other
        # code into a shared database). Stores only partition by namespace; this decides.
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
