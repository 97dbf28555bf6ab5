"""The outlook of a kind of model call: when calls stop, and how probes space out."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.outlook import TaskOutlook


def probes(outlook: TaskOutlook, key: str, requests: int, succeed: bool = False) -> list[int]:
    """The request numbers (from 1) that were allowed a call; each call's outcome is recorded."""
    allowed = []
    for number in range(1, requests + 1):
        if outlook.worth_trying(key):
            allowed.append(number)
            outlook.record(key, succeeded=succeed)
    return allowed


def stopped(**settings: int) -> TaskOutlook:
    outlook = TaskOutlook(window=20, min_attempts=8, min_success=0.1, **settings)
    for _ in range(8):
        outlook.record("task", succeeded=False)
    return outlook


def test_each_failed_probe_doubles_the_wait_up_to_the_cap() -> None:
    outlook = stopped(probe_every=10, max_probe_every=40)
    allowed = probes(outlook, "task", 200)
    gaps = [b - a for a, b in zip([0, *allowed], allowed, strict=False)]
    assert gaps[:5] == [10, 20, 40, 40, 40]
    assert outlook.probe_interval("task") == 40
    assert outlook.probe_interval("other") == 10  # per key


def test_a_probe_that_succeeds_brings_the_wait_back() -> None:
    outlook = stopped(probe_every=10)
    assert probes(outlook, "task", 30) == [10, 30]  # two failed probes: the wait is now 40
    assert outlook.probe_interval("task") == 40
    outlook.record("task", succeeded=True)
    assert outlook.probe_interval("task") == 10


def test_calls_before_the_stop_do_not_lengthen_the_wait() -> None:
    outlook = TaskOutlook(window=20, min_attempts=8, min_success=0.1, probe_every=10)
    assert probes(outlook, "task", 8) == list(range(1, 9))  # not stopped yet: every call made
    assert outlook.probe_interval("task") == 10
    assert probes(outlook, "task", 10) == [10]


def test_a_cap_below_the_first_wait_is_refused() -> None:
    with pytest.raises(ValueError, match="max_probe_every"):
        TaskOutlook(probe_every=10, max_probe_every=5)
