"""The auditor: samples answers served without the model, re-asks the model off the request
path, compares by answer key, and suspends a kind of reuse that disagrees.

The request path only ever touches two things here, both in memory and constant time:
:meth:`Auditor.suspended` (is this kind of reuse suspended in this namespace?) and
:meth:`Auditor.consider` (a sampling draw and, for a sampled answer, a non-blocking put on a
bounded queue: a full queue drops the audit and counts it). Everything else (the model call,
the checks of the model's answer, the comparison, the store's counts and suspensions) runs on
one background thread that never raises into the application.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from stepcache_integrations.core.audit.config import AuditConfig
from stepcache_integrations.core.audit.keys import AnswerKeys, compare_keys, shown_keys
from stepcache_integrations.core.audit.ledger import AuditLedger
from stepcache_integrations.core.audit.records import AuditRecord, AuditStats
from stepcache_integrations.core.entries import CacheEntry, entry_id_for
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply
from stepcache_integrations.core.records import StepCacheRecord

__all__ = [
    "SERVED",
    "AuditAsk",
    "AuditListener",
    "AuditTarget",
    "AuditUnavailable",
    "Auditor",
    "FreshAnswer",
]

logger = logging.getLogger(__name__)

SERVED = frozenset({"exact", "reuse", "patch"})
"""Decisions whose answer was made from the cache: what an audit samples."""

AuditAsk = Callable[[ModelCall], ModelReply]
"""Asks the wrapped model the request's own conversation again (its public API, tagged as an
audit in traces), on the auditor's thread. An adapter passes one to ``StepCache.serve``."""

AuditListener = Callable[[AuditRecord], None]


class AuditUnavailable(LookupError):
    """Raised by an :data:`AuditAsk` that finds no model to ask for this request (a LangChain
    cache given no matching ``audit_models``): the audit is counted ``unaskable``, nothing
    else."""


@dataclass(frozen=True)
class FreshAnswer:
    """The model's answer to an audited request, after the request's usual checks:
    ``entry`` is what would be stored for it (``None`` when it failed them: ``failure``)."""

    text: str
    entry: CacheEntry | None
    failure: str | None = None


class AuditTarget(Protocol):
    """What the auditor needs from its cache."""

    def check_fresh(self, request: CacheRequest, reply: ModelReply) -> FreshAnswer: ...

    def answer_keys(self, request: CacheRequest, text: str) -> AnswerKeys: ...

    def evict(self, request: CacheRequest, entry_ids: list[str]) -> None: ...

    def keep(self, entry: CacheEntry, request: CacheRequest) -> None: ...


@dataclass(frozen=True)
class _Job:
    request: CacheRequest
    record: StepCacheRecord
    kind: str
    served: str
    ask: AuditAsk | None = None  # None: a shadow audit (the model has answered already)
    fresh: str | None = None


_STOP = object()


class _Spend:
    """The model calls of one audit and their tokens (estimated where the model reports
    none, about four characters a token, as the request path does)."""

    def __init__(self) -> None:
        self.calls = 0
        self.tokens_input = 0
        self.tokens_output = 0

    def add(self, request: CacheRequest, reply: ModelReply) -> None:
        self.calls += 1
        inputs, outputs = reply.input_tokens, reply.output_tokens
        self.tokens_input += inputs if inputs is not None else -(-request.input_chars // 4)
        self.tokens_output += outputs if outputs is not None else -(-len(reply.text) // 4)


class Auditor:
    """One cache's audits (see the module docstring). Built by ``StepCache(audit=...)``.

    Example:
        >>> from stepcache_integrations import StepCache
        >>> cache = StepCache(audit=0.5)
        >>> cache.stats()["audit"]["rate"]
        0.5
        >>> cache.close()
    """

    def __init__(self, config: AuditConfig, ledger: AuditLedger, target: AuditTarget) -> None:
        self.config = config
        self.ledger = ledger
        self.target = target
        self.stats = AuditStats()
        self.listeners: list[AuditListener] = []
        # random() of one Random is one C call: safe from any thread under the GIL.
        self._random = random.Random(config.seed)
        self._queue: queue.Queue[object] = queue.Queue(maxsize=config.queue_size)
        # Read by every request without a lock: replaced whole, never changed in place.
        self._suspended: frozenset[tuple[str, str]] = frozenset()
        self._writes = threading.Lock()
        self._closed = False
        self._ledger_down = False  # the last read of the suspensions failed (logged once)
        # Suspensions this process found that the store has not recorded yet (it was down):
        # in force here meanwhile, written again at each refresh.
        self._unrecorded: set[tuple[str, str]] = set()
        self._thread = threading.Thread(target=self._work, name="stepcache-audit", daemon=True)
        self._thread.start()

    # -- the request path's side: memory only -------------------------------------------------

    def suspended(self, namespace: str, kind: str) -> bool:
        """Whether ``kind`` of reuse is suspended in ``namespace`` (this process's copy of the
        store's suspensions, refreshed by the worker)."""
        return (namespace, kind) in self._suspended

    def consider(
        self,
        request: CacheRequest,
        record: StepCacheRecord,
        text: str,
        ask: AuditAsk | None,
        shadow: str | None,
    ) -> None:
        """Maybe audit a finished request: a sampled answer served from the cache, or (with
        ``shadow``, the answer a suspended kind would have served) the model's answer given
        instead. Never blocks, never raises."""
        try:
            if shadow is None:
                # The common case first, in as few steps as possible: a hit not sampled.
                if record.decision not in SERVED or self._random.random() >= self.config.rate:
                    return
                if record.reuse_kind is None or not record.passed or self._closed:
                    return
                self.stats.count("sampled")
                if ask is None:  # no way to ask the model (StepCache.serve called alone)
                    self.stats.count("unaskable")
                    return
                self._put(_Job(request, record, record.reuse_kind, text, ask=ask))
                return
            kind = record.reuse_kind
            served_by_model = record.model_calls > 0 and record.decision not in SERVED
            if kind is not None and record.passed and served_by_model and not self._closed:
                self._put(_Job(request, record, kind, shadow, fresh=text))
        except Exception as error:  # pragma: no cover - an audit never fails a request
            logger.warning("audit not queued: %r", error)

    def _put(self, job: _Job) -> None:
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            self.stats.count("dropped")
            return
        self.stats.count("queued")

    # -- the worker ------------------------------------------------------------------------------

    def _work(self) -> None:
        next_refresh = time.monotonic()  # the store's suspensions first (not at __init__:
        # a store still connecting must not slow the cache's construction down)
        while True:
            wait = max(0.0, next_refresh - time.monotonic())
            try:
                job = self._queue.get(timeout=wait)
            except queue.Empty:
                job = None
            if job is _STOP:
                self._queue.task_done()
                return
            if isinstance(job, _Job):
                try:
                    self._audit(job)
                except Exception as error:
                    logger.warning("audit of %s failed: %r", job.kind, error)
                finally:
                    self._queue.task_done()
            if time.monotonic() >= next_refresh:
                self._refresh()
                next_refresh = time.monotonic() + self.config.refresh_seconds

    def _refresh(self) -> None:
        """This process's copy of the store's suspensions (kept as it was if the store is
        down: a suspension this process knows of stays in force)."""
        for namespace, kind in sorted(self._unrecorded):
            try:
                self.ledger.suspend(
                    namespace, kind, "found while the audit store was down", time.time()
                )
            except Exception:
                break
            self._unrecorded.discard((namespace, kind))
        try:
            found = self.ledger.suspensions()
        except Exception as error:
            # Once per outage: the worker tries again every refresh_seconds.
            log = logger.debug if self._ledger_down else logger.warning
            log("audit suspensions not read (kept as they were): %r", error)
            self._ledger_down = True
            return
        self._ledger_down = False
        with self._writes:
            # What this process found stays until the store has it too (a write may lag).
            read = frozenset((s.namespace, s.kind) for s in found)
            self._suspended = read | self._unrecorded

    def _ledger(self, what: str, call: Callable[[], Any]) -> Any:
        try:
            return call()
        except Exception as error:  # fail open: the store's counts wait, serving goes on
            logger.warning("audit store: %s failed: %r", what, error)
            return None

    # -- one audit ---------------------------------------------------------------------------

    def _audit(self, job: _Job) -> None:
        if job.ask is None:
            self._shadow(job)
            return
        spend = _Spend()
        try:
            record, entry = self._compare(job, job.ask, spend)
        except AuditUnavailable as unavailable:
            self.stats.count("unaskable")
            logger.info("audit of %s not made: %s", job.kind, unavailable)
            return
        record = replace(
            record,
            model_calls=spend.calls,
            tokens_input=spend.tokens_input,
            tokens_output=spend.tokens_output,
        )
        if record.outcome == "disagree":
            record = self._disagreed(job, record, entry)
        self._ledger(
            "count",
            lambda: self.ledger.add(
                job.request.namespace, job.kind, record.outcome, record.tokens_used
            ),
        )
        self._finish(record)

    def _base(self, job: _Job) -> AuditRecord:
        record = job.record
        return AuditRecord(
            "not_comparable",
            job.kind,
            job.request.namespace,
            job.request.tenant,
            decision=record.decision,
            entry_id=record.entry_id,
            shadow=job.ask is None,
        )

    def _ask(self, job: _Job, ask: AuditAsk, spend: _Spend) -> FreshAnswer:
        reply = ask(ModelCall("full"))
        if not isinstance(reply, ModelReply):
            raise TypeError(f"an audit's model call must return a ModelReply, got {reply!r}")
        spend.add(job.request, reply)
        return self.target.check_fresh(job.request, reply)

    def _compare(
        self, job: _Job, ask: AuditAsk, spend: _Spend
    ) -> tuple[AuditRecord, CacheEntry | None]:
        """The audit's outcome, and the model's checked answer to store on a disagreement."""
        base = self._base(job)
        try:
            fresh = self._ask(job, ask, spend)
        except AuditUnavailable:
            raise
        except Exception as error:
            return replace(base, outcome="error", reason=f"the model call failed: {error!r}"), None
        if fresh.failure is not None:
            reason = f"the model's answer failed its checks: {fresh.failure}"
            return replace(base, reason=reason), None
        served = self.target.answer_keys(job.request, job.served)
        model = self.target.answer_keys(job.request, fresh.text)
        shown = replace(base, served_key=shown_keys(served), model_key=shown_keys(model))
        verdict = compare_keys(served, model)
        if verdict is None:
            return replace(shown, reason="no task family reads a key from both answers"), None
        if verdict == "agree":
            return replace(shown, outcome="agree"), None
        if self.config.confirm:
            try:
                again = self._ask(job, ask, spend)
            except Exception as error:
                failed = f"the model call failed: {error!r}"
                return replace(shown, outcome="error", reason=failed), None
            second = self.target.answer_keys(job.request, again.text)
            if again.failure is not None or compare_keys(model, second) != "agree":
                unstable = "the model's own answers to the request differ from call to call"
                return replace(shown, reason=unstable), None
        return replace(shown, outcome="disagree", reason="the model answers otherwise"), fresh.entry

    def _disagreed(self, job: _Job, record: AuditRecord, entry: CacheEntry | None) -> AuditRecord:
        """Evict what was served, keep the model's checked answer, suspend the kind.

        What was served is the entry itself on an exact hit, else the answer made from the
        cached one and stored for this request; the cached answer it was made from (the
        model's own, checked, for its own request) stays: the kind of reuse that went wrong
        is what is suspended."""
        request = job.request
        served = job.record.entry_id if job.record.decision == "exact" else None
        own = entry_id_for(request.namespace, request.prompt)
        ids = sorted({i for i in (served, own) if i is not None})
        self._ledger("evict", lambda: self.target.evict(request, ids))
        if entry is not None:
            self._ledger("keep", lambda: self.target.keep(entry, request))
        self._suspend(request.namespace, job.kind, record)
        logger.warning(
            "audit: %s answer disagrees with the model (served %s, model %s); entries %s "
            "evicted, %s suspended in this namespace",
            job.kind,
            record.served_key,
            record.model_key,
            ", ".join(ids),
            job.kind,
        )
        return replace(record, suspended=True)

    def _suspend(self, namespace: str, kind: str, record: AuditRecord) -> None:
        reason = f"{record.reason}: served {record.served_key}, model {record.model_key}"
        with self._writes:
            self._suspended = self._suspended | {(namespace, kind)}
        try:
            self.ledger.suspend(namespace, kind, reason, time.time())
        except Exception as error:  # fail open: in force here, recorded at a later refresh
            logger.warning("audit store: suspend failed (kept in this process): %r", error)
            with self._writes:
                self._unrecorded.add((namespace, kind))

    def _shadow(self, job: _Job) -> None:
        """A suspended kind's would-be answer against the model's answer the request got."""
        base = self._base(job)
        fresh = job.fresh or ""
        served = self.target.answer_keys(job.request, job.served)
        model = self.target.answer_keys(job.request, fresh)
        record = replace(base, served_key=shown_keys(served), model_key=shown_keys(model))
        verdict = compare_keys(served, model)
        namespace = job.request.namespace
        if verdict is None:
            record = replace(record, reason="no task family reads a key from both answers")
        elif verdict == "agree":
            lifted = self._ledger(
                "agreement",
                lambda: self.ledger.agreement(
                    namespace, job.kind, self.config.agreements_to_resume
                ),
            )
            record = replace(record, outcome="agree", resumed=bool(lifted))
            if lifted:
                with self._writes:
                    self._suspended = self._suspended - {(namespace, job.kind)}
                logger.info("audit: %s resumed in a namespace after agreeing audits", job.kind)
        else:
            record = replace(record, outcome="disagree", reason="the model answers otherwise")
            self._suspend(namespace, job.kind, record)  # agreements start again from zero
        outcome = {"agree": "shadow_agree", "disagree": "shadow_disagree"}.get(record.outcome)
        self._ledger(
            "count",
            lambda: self.ledger.add(namespace, job.kind, outcome or "not_comparable", 0),
        )
        self._finish(record)

    def _finish(self, record: AuditRecord) -> None:
        self.stats.add(record)
        for listener in self.listeners:
            try:
                listener(record)
            except Exception as error:  # a metrics hook must not stop the audits
                logger.warning("audit listener failed: %r", error)

    # -- control -----------------------------------------------------------------------------

    def resume(self, kind: str, namespace: str | None = None) -> int:
        """Lift the suspension of ``kind`` (in every namespace, or one) now."""
        with self._writes:
            self._unrecorded = {
                key
                for key in self._unrecorded
                if not (key[1] == kind and (namespace is None or key[0] == namespace))
            }
        lifted = self.ledger.resume(kind, namespace)
        self._refresh()
        with self._writes:
            self._suspended = frozenset(
                key
                for key in self._suspended
                if not (key[1] == kind and (namespace is None or key[0] == namespace))
            )
        return int(lifted)

    def refresh(self) -> None:
        """Read the store's suspensions now (the worker does it every ``refresh_seconds``)."""
        self._refresh()

    def drain(self, timeout: float) -> bool:
        """Wait until every queued audit has finished (``False``: ``timeout`` passed first)."""
        deadline = time.monotonic() + timeout
        done = self._queue.all_tasks_done
        with done:
            while self._queue.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                done.wait(left)
        return True

    def snapshot(self) -> Mapping[str, Any]:
        return {
            "rate": self.config.rate,
            **self.stats.snapshot(),
            "queue": self._queue.qsize(),
            "suspended": sorted(kind for _, kind in self._suspended),
        }

    def close(self) -> None:
        """Finish the queued audits (for at most ``close_seconds``), then stop the worker;
        audits still queued then are dropped and counted. Idempotent."""
        if self._closed:
            return
        self._closed = True
        deadline = time.monotonic() + self.config.close_seconds
        with contextlib.suppress(queue.Full):  # a full queue: the deadline stops the worker
            self._queue.put(_STOP, timeout=self.config.close_seconds)
        self._thread.join(max(0.0, deadline - time.monotonic()))
        left = 0
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, _Job):
                left += 1
            self._queue.task_done()
        if left:
            self.stats.count("dropped", left)
