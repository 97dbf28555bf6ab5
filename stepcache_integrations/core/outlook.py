"""Whether a model call is worth its latency, judged by how the same calls for the task went.

Two calls have an outlook: the repair (one more call after an answer failed its check) and,
for a task with a deterministic answer (linear equations), the full generation itself. With a
model that cannot do a task (a small model and multi-step arithmetic), those calls keep
failing, and each one costs latency and tokens for an answer that ends flagged, or replaced
by the deterministic one, either way. The outlook keeps the last outcomes per key (the engine
uses the namespace and the task: one model's failures say nothing of another's); when
enough of them failed it advises against the call, except for a probe now and then, so a
better model (or a fixed prompt) is noticed and the calls resume. The first probe comes after
``probe_every`` requests; each probe that fails doubles the wait for the next (up to
``max_probe_every``), and one that succeeds brings it back to ``probe_every``: a model that
never does the task costs fewer and fewer calls, one that does it is heard again soon.

A probe can also be told to wait for a sign that the task has become doable (``promising``):
the engine's repair probes wait until one of the model's own first answers to the task passed
its check lately (:meth:`TaskOutlook.succeeded_lately` of the answer outlook). A model whose
first answers and repairs all fail would otherwise pay a repair call on every probe, for
nothing: with a model that solves none of a task's requests, the probes alone put the cache
above no cache in latency and tokens.

A probe doubles its request's model time, so it waits for a request that has room: told what
a request has already spent (``spent``, seconds of model time), a due probe passes over a
request that took clearly longer than the recent ones (more than 1.25 times their median and
by more than 50 ms) and goes to the next one that did not. A slow model call (an overloaded
server) plus a probe would otherwise be the slowest request of all: the tail latency.

Example:
    >>> outlook = TaskOutlook(window=10, min_attempts=4, min_success=0.25, probe_every=3)
    >>> for _ in range(4):
    ...     outlook.record("word_problem", succeeded=False)
    >>> [outlook.worth_trying("word_problem") for _ in range(3)]
    [False, False, True]
    >>> outlook.record("word_problem", succeeded=False)  # the probe failed: wait twice as long
    >>> [outlook.worth_trying("word_problem") for _ in range(6)]
    [False, False, False, False, False, True]
    >>> outlook.worth_trying("json")  # another task: no history yet
    True
"""

from __future__ import annotations

import statistics
import threading
from collections import deque

__all__ = ["TaskOutlook"]

# A request is "already slow" for a probe when its model time so far exceeds the recent median
# by both this factor and this many seconds (the second keeps timing noise from deciding).
_SLOW_FACTOR = 1.25
_SLOW_MARGIN_S = 0.05


class TaskOutlook:
    """Recent outcomes of one kind of model call per key, and whether the next is worth it.

    Thread-safe; one per cache and kind of call. ``window``: outcomes remembered per key.
    ``min_attempts``: below this many, always try. ``min_success``: the success rate below
    which calls stop. ``probe_every``: while stopped, the requests before a probe (one call
    that still tries; its outcome counts); doubled by each failed probe up to
    ``max_probe_every``, back to ``probe_every`` after a success. A due probe waits for a
    request that is not already slow (see ``spent`` in :meth:`worth_trying`).
    """

    def __init__(
        self,
        window: int = 20,
        min_attempts: int = 8,
        min_success: float = 0.1,
        probe_every: int = 10,
        max_probe_every: int = 160,
    ) -> None:
        if not 1 <= min_attempts <= window:
            raise ValueError(f"min_attempts must be in [1, window], got {min_attempts!r}")
        if probe_every < 1:
            raise ValueError(f"probe_every must be at least 1, got {probe_every!r}")
        if max_probe_every < probe_every:
            raise ValueError(
                f"max_probe_every ({max_probe_every!r}) must be at least probe_every "
                f"({probe_every!r})"
            )
        self.window = window
        self.min_attempts = min_attempts
        self.min_success = min_success
        self.probe_every = probe_every
        self.max_probe_every = max_probe_every
        self._lock = threading.Lock()
        self._outcomes: dict[str, deque[bool]] = {}
        self._skipped: dict[str, int] = {}
        self._interval: dict[str, int] = {}
        self._spent: dict[str, deque[float]] = {}

    def _stopped(self, outcomes: deque[bool] | None) -> bool:
        # Calls stop once enough outcomes are known and too few of them succeeded.
        if outcomes is None or len(outcomes) < self.min_attempts:
            return False
        return sum(outcomes) / len(outcomes) < self.min_success

    def worth_trying(self, key: str, spent: float | None = None, promising: bool = True) -> bool:
        """Whether to make the call for ``key`` now (counts a skip when not).

        ``spent``: the model time (seconds) the request has already taken. The last
        ``window`` of them are kept per key; a due probe is not made on a request that spent
        clearly more than their median, and stays due for the next request. ``promising``:
        whether there is a sign the call may work now; a due probe stays due while there is
        none.
        """
        with self._lock:
            typical = None
            if spent is not None:
                recent = self._spent.setdefault(key, deque(maxlen=self.window))
                typical = statistics.median(recent) if recent else None
                recent.append(spent)
            if not self._stopped(self._outcomes.get(key)):
                return True
            skipped = self._skipped.get(key, 0) + 1
            due = skipped >= self._interval.get(key, self.probe_every)
            if due and promising and not _already_slow(spent, typical):
                self._skipped[key] = 0
                return True
            self._skipped[key] = skipped
            return False

    def probe_interval(self, key: str) -> int:
        """The requests between two probes of ``key`` while its calls are stopped."""
        with self._lock:
            return self._interval.get(key, self.probe_every)

    def succeeded_lately(self, key: str) -> bool:
        """Whether one of the last ``window`` calls for ``key`` succeeded.

        Example:
            >>> outlook = TaskOutlook()
            >>> outlook.record("json", succeeded=False)
            >>> outlook.succeeded_lately("json"), outlook.succeeded_lately("word_problem")
            (False, False)
            >>> outlook.record("json", succeeded=True)
            >>> outlook.succeeded_lately("json")
            True
        """
        with self._lock:
            return any(self._outcomes.get(key, ()))

    def record(self, key: str, succeeded: bool) -> None:
        """Remember how a call for ``key`` went."""
        with self._lock:
            outcomes = self._outcomes.setdefault(key, deque(maxlen=self.window))
            # While calls are stopped, every call made is a probe.
            probe = self._stopped(outcomes)
            outcomes.append(bool(succeeded))
            if succeeded:
                self._interval.pop(key, None)
            elif probe:
                interval = self._interval.get(key, self.probe_every)
                self._interval[key] = min(2 * interval, self.max_probe_every)


def _already_slow(spent: float | None, typical: float | None) -> bool:
    if spent is None or typical is None:
        return False
    return spent > typical * _SLOW_FACTOR and spent - typical > _SLOW_MARGIN_S
