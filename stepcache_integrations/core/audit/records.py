"""What one audit found (:class:`AuditRecord`), and this process's audit counters
(:class:`AuditStats`): kept apart from the requests' records and stats, so the tokens an audit
spends are never counted as a request's."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Literal

__all__ = ["AUDIT_OUTCOMES", "AuditOutcome", "AuditRecord", "AuditStats"]

AuditOutcome = Literal["agree", "disagree", "not_comparable", "error"]
AUDIT_OUTCOMES: tuple[AuditOutcome, ...] = ("agree", "disagree", "not_comparable", "error")


@dataclass(frozen=True)
class AuditRecord:
    """The outcome of one audit of an answer the cache served (or, with ``shadow``, would
    have served while its kind of reuse was suspended).

    ``kind`` is the kind of reuse (``"linear_equation/value"``, ``"json/exact"``: the task,
    then ``exact`` or the strongest change the families accounted for); ``outcome`` is
    ``agree``, ``disagree`` (the model, asked again, answers otherwise by the task's answer
    key), ``not_comparable`` (no family reads a key from the answer, the model's answer
    failed its checks, or the model disagrees with itself: ``reason`` says which) or
    ``error`` (the model call failed). ``suspended``: this audit suspended ``kind`` in the
    namespace; ``resumed``: it lifted the suspension. Tokens are the audit's own model calls.

    Example:
        >>> AuditRecord("agree", "json/exact", "ns", decision="exact").to_dict()["outcome"]
        'agree'
    """

    outcome: AuditOutcome
    kind: str
    namespace: str
    tenant: str | None = None
    decision: str = ""
    entry_id: str | None = None
    shadow: bool = False
    reason: str = ""
    served_key: str | None = None
    model_key: str | None = None
    model_calls: int = 0
    tokens_input: int = 0
    tokens_output: int = 0
    suspended: bool = False
    resumed: bool = False

    @property
    def family(self) -> str:
        """The task part of ``kind`` (``"linear_equation"``)."""
        return self.kind.split("/", 1)[0]

    @property
    def tokens_used(self) -> int:
        return self.tokens_input + self.tokens_output

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class AuditStats:
    """This process's audit counters (thread-safe): what was sampled, queued, dropped,
    audited and found, and the tokens audits spent.

    Example:
        >>> stats = AuditStats()
        >>> stats.add(AuditRecord("disagree", "json/value", "ns", model_calls=2, tokens_input=9))
        >>> stats.snapshot()["outcomes"]["disagree"], stats.snapshot()["tokens_used"]
        (1, 9)
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: Counter[str] = Counter()
        self._outcomes: Counter[str] = Counter()
        self._tokens_input = 0
        self._tokens_output = 0
        self._model_calls = 0

    def count(self, event: str, by: int = 1) -> None:
        """Count one event: ``sampled``, ``queued``, ``dropped``, ``unaskable``, ``shadow``..."""
        with self._lock:
            self._events[event] += by

    def add(self, record: AuditRecord) -> None:
        with self._lock:
            self._outcomes[record.outcome] += 1
            if record.shadow:
                self._events["shadow"] += 1
            if record.suspended:
                self._events["suspensions"] += 1
            if record.resumed:
                self._events["resumptions"] += 1
            self._model_calls += record.model_calls
            self._tokens_input += record.tokens_input
            self._tokens_output += record.tokens_output

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            events = dict(self._events)
            return {
                "sampled": events.get("sampled", 0),
                "queued": events.get("queued", 0),
                "dropped": events.get("dropped", 0),
                "unaskable": events.get("unaskable", 0),
                "shadow": events.get("shadow", 0),
                "suspensions": events.get("suspensions", 0),
                "resumptions": events.get("resumptions", 0),
                "outcomes": {name: self._outcomes.get(name, 0) for name in AUDIT_OUTCOMES},
                "model_calls": self._model_calls,
                "tokens_input": self._tokens_input,
                "tokens_output": self._tokens_output,
                "tokens_used": self._tokens_input + self._tokens_output,
            }
