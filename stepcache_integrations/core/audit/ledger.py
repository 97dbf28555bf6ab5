"""Where audit counts and suspensions live: the :class:`AuditLedger` protocol, its in-memory
implementation, and the per-kind report (:func:`audit_report`).

A store that a fleet shares (SQLite, Postgres) keeps its ledger in the same database, so
every process counts into one table and sees one set of suspensions; a store without a
ledger of its own gets a :class:`MemoryAuditLedger` (counts and suspensions of this process).
Every ledger method may raise: the auditor catches and logs it (an audit store that is down
never reaches the request path, which only reads the auditor's in-memory copy).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from stepcache_integrations.core.audit.bounds import upper_bound

__all__ = [
    "COUNTED",
    "AuditCount",
    "AuditLedger",
    "AuditLedgerProvider",
    "MemoryAuditLedger",
    "Suspension",
    "audit_report",
]

COUNTED = ("agree", "disagree", "not_comparable", "error", "shadow_agree", "shadow_disagree")
"""The outcomes a ledger counts per namespace and kind of reuse (``shadow_*``: audits of the
answer a suspended kind would have served, compared with the model's own answer)."""


@dataclass(frozen=True)
class AuditCount:
    """How often audits of one kind of reuse in one namespace had one outcome, and the tokens
    they spent."""

    namespace: str
    kind: str
    outcome: str
    count: int
    tokens: int = 0


@dataclass(frozen=True)
class Suspension:
    """A kind of reuse suspended in a namespace: since when, why, and how many audits agreed
    since (it is lifted when they reach the cache's ``agreements_to_resume``)."""

    namespace: str
    kind: str
    since: float
    reason: str
    agreements: int = 0


@runtime_checkable
class AuditLedger(Protocol):
    """Audit counts and suspensions, shared by every process that uses the same store.

    ``agreement`` counts one agreement towards lifting a suspension and returns ``True`` when
    it lifted it (``needed`` agreements since the suspension); ``suspend`` (re)starts a
    suspension with no agreements; ``resume`` lifts suspensions now (``namespace=None``:
    in every namespace) and returns how many.
    """

    def add(self, namespace: str, kind: str, outcome: str, tokens: int) -> None: ...

    def suspend(self, namespace: str, kind: str, reason: str, now: float) -> None: ...

    def agreement(self, namespace: str, kind: str, needed: int) -> bool: ...

    def resume(self, kind: str, namespace: str | None = None) -> int: ...

    def suspensions(self) -> list[Suspension]: ...

    def counts(self) -> list[AuditCount]: ...


@runtime_checkable
class AuditLedgerProvider(Protocol):
    """Optional for a store: the ledger that lives with its entries (same database)."""

    def audit_ledger(self) -> AuditLedger: ...


class MemoryAuditLedger:
    """An :class:`AuditLedger` in this process's memory (thread-safe).

    Example:
        >>> ledger = MemoryAuditLedger()
        >>> ledger.suspend("ns", "json/value", "answers differ", now=0.0)
        >>> ledger.agreement("ns", "json/value", needed=2), ledger.agreement("ns", "json/value", 2)
        (False, True)
        >>> ledger.suspensions()
        []
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[tuple[str, str, str], tuple[int, int]] = {}
        self._suspended: dict[tuple[str, str], Suspension] = {}

    def add(self, namespace: str, kind: str, outcome: str, tokens: int) -> None:
        with self._lock:
            count, spent = self._counts.get((namespace, kind, outcome), (0, 0))
            self._counts[(namespace, kind, outcome)] = (count + 1, spent + max(0, tokens))

    def suspend(self, namespace: str, kind: str, reason: str, now: float) -> None:
        with self._lock:
            self._suspended[(namespace, kind)] = Suspension(namespace, kind, now, reason)

    def agreement(self, namespace: str, kind: str, needed: int) -> bool:
        with self._lock:
            found = self._suspended.get((namespace, kind))
            if found is None:
                return False
            if found.agreements + 1 >= needed:
                del self._suspended[(namespace, kind)]
                return True
            self._suspended[(namespace, kind)] = Suspension(
                namespace, kind, found.since, found.reason, found.agreements + 1
            )
            return False

    def resume(self, kind: str, namespace: str | None = None) -> int:
        with self._lock:
            lifted = [
                key
                for key in self._suspended
                if key[1] == kind and (namespace is None or key[0] == namespace)
            ]
            for key in lifted:
                del self._suspended[key]
            return len(lifted)

    def suspensions(self) -> list[Suspension]:
        with self._lock:
            return list(self._suspended.values())

    def counts(self) -> list[AuditCount]:
        with self._lock:
            return [
                AuditCount(namespace, kind, outcome, count, tokens)
                for (namespace, kind, outcome), (count, tokens) in sorted(self._counts.items())
            ]


def audit_report(
    counts: Iterable[AuditCount], suspensions: Sequence[Suspension], now: float | None = None
) -> dict[str, Any]:
    """Per family and kind of reuse (over every namespace): answers audited, disagreements,
    not comparable, shadow audits, tokens, and the 95% upper bound of the wrong-answer rate.

    The rate and its bound count only sampled audits of served answers that could be compared
    (agreements and disagreements): a uniform sample of what the cache served. Shadow audits
    (answers a suspended kind would have served) lift suspensions but are not served answers.

    Example:
        >>> report = audit_report(
        ...     [AuditCount("ns", "json/value", "agree", 99, 4000),
        ...      AuditCount("ns", "json/value", "disagree", 1, 40)], [])
        >>> row = report["kinds"][0]
        >>> row["audited"], row["disagreed"], row["wrong_rate"], round(row["upper_95"], 4)
        (100, 1, 0.01, 0.0466)
    """
    rows: dict[str, dict[str, Any]] = {}
    for count in counts:
        row = rows.setdefault(count.kind, _empty_row(count.kind))
        field = {
            "agree": "agreed",
            "disagree": "disagreed",
            "not_comparable": "not_comparable",
            "error": "errors",
            "shadow_agree": "shadow_agreed",
            "shadow_disagree": "shadow_disagreed",
        }.get(count.outcome)
        if field is None:
            continue
        row[field] += count.count
        row["tokens"] += count.tokens
    now = time.time() if now is None else now
    for suspension in suspensions:
        row = rows.setdefault(suspension.kind, _empty_row(suspension.kind))
        row["suspended_in"] += 1
    for row in rows.values():
        compared = row["agreed"] + row["disagreed"]
        row["audited"] = compared + row["not_comparable"]
        row["wrong_rate"] = row["disagreed"] / compared if compared else None
        row["upper_95"] = upper_bound(row["disagreed"], compared)
    kinds = [rows[kind] for kind in sorted(rows)]
    return {
        "kinds": kinds,
        "suspended": [
            {
                "namespace": s.namespace,
                "kind": s.kind,
                "since": s.since,
                "for_seconds": round(max(0.0, now - s.since), 1),
                "reason": s.reason,
                "agreements": s.agreements,
            }
            for s in sorted(suspensions, key=lambda s: (s.kind, s.namespace))
        ],
        "bound": "one-sided 95% Clopper-Pearson upper bound of disagreed / (agreed + disagreed)",
    }


def _empty_row(kind: str) -> dict[str, Any]:
    return {
        "family": kind.split("/", 1)[0],
        "kind": kind,
        "audited": 0,
        "agreed": 0,
        "disagreed": 0,
        "not_comparable": 0,
        "errors": 0,
        "shadow_agreed": 0,
        "shadow_disagreed": 0,
        "tokens": 0,
        "suspended_in": 0,
        "wrong_rate": None,
        "upper_95": None,
    }
