"""Fleet-wide request counters: every process adds its decisions to one table, so the hit rate
of a whole fleet is one query away (``stepcache cache stats``, ``PostgresStore.summary()``).

Counts are buffered per process and added every few seconds (and at close); a failed write
keeps them for the next attempt, so an outage delays counts but never loses them.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

from stepcache_integrations.core.records import DECISIONS, StepCacheRecord

__all__ = ["FLUSH_EVERY", "FleetCounters", "fleet_summary"]

FLUSH_EVERY = 5.0  # seconds between writes of one process's counters


class FleetCounters:
    """This process's counts not yet written.

    Example:
        >>> counters = FleetCounters()
        >>> counters.add(StepCacheRecord(decision="exact", tokens_saved=30))
        >>> counters.take()["decision:exact"]
        1.0
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: Counter[str] = Counter()
        self._last_flush = time.monotonic()

    def add(self, record: StepCacheRecord) -> None:
        with self._lock:
            self._pending[f"decision:{record.decision}"] += 1
            for name in ("tokens_used", "tokens_saved"):
                value = getattr(record, name)
                if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                    self._pending[name] += value
            if record.stored:
                self._pending["stored"] += 1

    def due(self) -> bool:
        with self._lock:
            return bool(self._pending) and time.monotonic() - self._last_flush >= FLUSH_EVERY

    def take(self) -> dict[str, float]:
        """The pending counts (cleared: :meth:`restore` them if writing fails)."""
        with self._lock:
            taken = {name: float(value) for name, value in self._pending.items()}
            self._pending.clear()
            self._last_flush = time.monotonic()
            return taken

    def restore(self, counts: dict[str, float]) -> None:
        with self._lock:
            for name, value in counts.items():
                self._pending[name] += int(value)


def fleet_summary(counts: dict[str, float]) -> dict[str, Any]:
    """Requests, decisions, hit rate and tokens from the counters table.

    Example:
        >>> fleet_summary({"decision:exact": 3, "decision:miss": 1})["hit_rate"]
        0.75
    """
    decisions = {d: int(counts.get(f"decision:{d}", 0)) for d in DECISIONS}
    total = sum(decisions.values())
    served = decisions["exact"] + decisions["reuse"] + decisions["patch"]
    return {
        "requests": total,
        "decisions": decisions,
        "hit_rate": served / total if total else 0.0,
        "tokens_used": int(counts.get("tokens_used", 0)),
        "tokens_saved": int(counts.get("tokens_saved", 0)),
        "stored": int(counts.get("stored", 0)),
    }
