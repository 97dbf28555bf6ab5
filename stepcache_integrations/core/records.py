"""Records: what happened to each request, as plain JSON-serialisable data."""

from __future__ import annotations

import math
import random
import threading
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any, Literal

__all__ = ["DECISIONS", "Decision", "LatencySummary", "StatsCollector", "StepCacheRecord"]

Decision = Literal["exact", "reuse", "patch", "skip", "miss", "bypass"]
DECISIONS: tuple[Decision, ...] = ("exact", "reuse", "patch", "skip", "miss", "bypass")


@dataclass
class StepCacheRecord:
    """The record of one request, attached to every response.

    ``decision`` is one of ``exact`` (the same request answered from the cache: reason
    ``identical request`` for the very same text, ``same request up to meaning-neutral
    edits`` for another wording of it), ``reuse`` (every cached step verified, no model
    call), ``patch`` (a failing block regenerated), ``skip`` (reuse would not pay: full
    generation), ``miss`` (nothing close enough cached) and
    ``bypass`` (the cache cannot serve this request safely; ``reason`` says why).
    ``task`` names the task families that recognised the request (``"linear_equation"``,
    ``"json+linear_equation"``), ``None`` when none did or the request was not looked at.
    ``reuse_kind`` says how an answer served from the cache was made from it: the task, then
    ``exact`` or the strongest change its families accounted for (``"json/exact"``,
    ``"linear_equation/value"``); on a ``skip`` it names a kind of reuse an audit suspended
    (see ``docs/audit.md``); ``None`` otherwise.
    ``tokens_used`` counts input and output tokens of every model call made for this request
    (repairs included); ``tokens_saved`` is the original cost of the reused answer minus that.
    ``mended`` says how a failing answer was made to pass: ``edit`` (deterministic edits such
    as a value the prompt fixes), ``partial`` (the model asked for only the missing part),
    ``repair`` (the one repair call) or ``fallback`` (the task's deterministic answer);
    ``repaired`` is ``True`` whenever the repair call was made. ``fallback`` is ``True``
    whenever the task's deterministic answer was served: replacing a failing answer, or
    instead of a model call when the model's recent answers to the task kept failing
    (``reason`` then says so and ``model_calls`` is 0).
    ``passed`` is ``False`` (and ``failure`` says why) when the answer returned failed its
    checks even after repair and fallback: such an answer is flagged and never cached.

    Example:
        >>> StepCacheRecord(decision="miss").to_dict()["decision"]
        'miss'
    """

    decision: Decision
    reason: str = ""
    namespace: str = ""
    tenant: str | None = None
    task: str | None = None
    reuse_kind: str | None = None
    similarity: float | None = None
    entry_id: str | None = None
    candidates: int = 0
    steps_total: int = 0
    steps_reused: int = 0
    steps_adapted: int = 0
    steps_regenerated: int = 0
    patched_by: Literal["model", "solver"] | None = None
    model_calls: int = 0
    tokens_input: int = 0
    tokens_output: int = 0
    tokens_used: int = 0
    tokens_saved: int = 0
    tokens_estimated: bool = False
    repaired: bool = False
    fallback: bool = False
    mended: Literal["edit", "partial", "repair", "fallback"] | None = None
    passed: bool = True
    failure: str | None = None
    stored: bool = False
    latency_ms: dict[str, float] = field(default_factory=lambda: {"total": 0.0})
    verdicts: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-serialisable dict (a copy: changing it changes no record).

        Built field by field rather than by ``dataclasses.asdict``, whose deep copy of every
        value was a quarter of a LangChain exact hit's time; the values are JSON data, and
        the dicts and lists among them are copied all the way down.
        """
        return {name: _copied(getattr(self, name)) for name in _RECORD_FIELDS}


_RECORD_FIELDS = tuple(f.name for f in fields(StepCacheRecord))


def _copied(value: Any) -> Any:
    # JSON data: containers are rebuilt, scalars (immutable) are shared.
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


class LatencySummary:
    """Mean and percentiles of request latencies in bounded memory.

    The mean is exact (a running sum); percentiles come from a uniform reservoir sample of at
    most ``size`` latencies (Vitter's algorithm R), so memory and ``stats()`` time stay
    constant however many requests were served. Non-finite values are ignored.

    Example:
        >>> summary = LatencySummary(size=100)
        >>> for ms in range(1, 1001):
        ...     summary.add(float(ms))
        >>> summary.count, summary.mean, len(summary.sample) <= 100
        (1000, 500.5, True)
    """

    def __init__(self, size: int = 4096, seed: int = 0) -> None:
        if size <= 0:
            raise ValueError(f"size must be positive, got {size!r}")
        self.size = size
        self.count = 0
        self.total = 0.0
        self.sample: list[float] = []
        self._random = random.Random(seed)

    def add(self, value: float) -> None:
        # Once per request: the type test comes first because it is the cheap, common case.
        if type(value) is not float and not isinstance(value, int | float):
            return
        if not math.isfinite(value):
            return
        self.count += 1
        self.total += value
        if len(self.sample) < self.size:
            self.sample.append(value)
            return
        # random() is C code where randrange() is Python: a uniform slot in [0, count) either
        # way (the float has 53 bits, far beyond any request count).
        slot = int(self._random.random() * self.count)
        if slot < self.size:
            self.sample[slot] = value

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    def percentile(self, q: float) -> float:
        return _percentile(self.sample, q)


class StatsCollector:
    """Aggregates records into hit rates, tokens and latency percentiles (thread-safe, in
    constant memory: see :class:`LatencySummary`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reset()

    def _reset(self) -> None:
        self._decisions: Counter[str] = Counter()
        self._latency = LatencySummary()
        self._tokens_used = 0
        self._tokens_saved = 0
        self._failed = 0
        self._repaired = 0
        self._fallbacks = 0

    def add(self, record: StepCacheRecord) -> None:
        latency = record.latency_ms.get("total", 0.0)
        used, saved = _count(record.tokens_used), _count(record.tokens_saved)
        with self._lock:
            self._decisions[record.decision] += 1
            self._latency.add(latency)
            self._tokens_used += used
            self._tokens_saved += saved
            if not record.passed:
                self._failed += 1
            if record.repaired:
                self._repaired += 1
            if record.fallback:
                self._fallbacks += 1

    def reset(self) -> None:
        with self._lock:
            self._reset()

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            total = sum(self._decisions.values())
            counts = {d: self._decisions.get(d, 0) for d in DECISIONS}
            served_from_cache = counts["exact"] + counts["reuse"] + counts["patch"]
            latency = self._latency
            return {
                "requests": total,
                "decisions": counts,
                "hit_rate": served_from_cache / total if total else 0.0,
                "tokens_used": self._tokens_used,
                "tokens_saved": self._tokens_saved,
                "failed_checks": self._failed,
                "repaired": self._repaired,
                "fallbacks": self._fallbacks,
                "latency_ms": {
                    "mean": latency.mean,
                    "p50": latency.percentile(0.50),
                    "p95": latency.percentile(0.95),
                    "p99": latency.percentile(0.99),
                    "sampled": len(latency.sample),
                },
            }


def _count(value: object) -> int:
    """A token count as an int; anything else (a string, NaN) counts as 0, so one bad report
    cannot poison the totals."""
    if type(value) is int:  # the common case, first: this runs twice per request
        return value if value > 0 else 0
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if isinstance(value, float) and not math.isfinite(value):
        return 0
    return max(0, int(value))
