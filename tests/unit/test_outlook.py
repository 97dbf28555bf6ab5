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


def probe_with_costs(outlook: TaskOutlook, spent: list[float]) -> list[int]:
    """The request numbers (from 1) allowed a call, each request having spent ``spent[i]``."""
    allowed = []
    for number, seconds in enumerate(spent, start=1):
        if outlook.worth_trying("task", spent=seconds):
            allowed.append(number)
            outlook.record("task", succeeded=False)
    return allowed


def test_a_due_probe_waits_for_a_request_that_is_not_already_slow() -> None:
    # Requests 1-9 are skipped, the tenth is due but its model call took 6 s where the others
    # took 3 s: a probe there would make it the slowest request; the eleventh (3 s) probes.
    outlook = stopped(probe_every=10)
    assert probe_with_costs(outlook, [3.0] * 9 + [6.0, 3.0]) == [11]
    # The wait for the next probe counts from the probe made (20 after a failed one).
    assert probe_with_costs(outlook, [3.0] * 20) == [20]


def test_a_probe_stays_due_through_a_run_of_slow_requests() -> None:
    outlook = stopped(probe_every=3)
    assert probe_with_costs(outlook, [1.0, 1.0, 5.0, 5.0, 1.1]) == [5]


def test_timing_noise_never_delays_a_probe() -> None:
    # Far below a model call's duration, "slower" is noise: 0.4 ms against 0.1 ms is no reason.
    outlook = stopped(probe_every=3)
    assert probe_with_costs(outlook, [0.0001, 0.0001, 0.0004]) == [3]


def test_slow_requests_decide_nothing_while_calls_are_made() -> None:
    # Before the stop every call is made, however long the request already took.
    outlook = TaskOutlook(window=20, min_attempts=8, min_success=0.1, probe_every=10)
    assert probe_with_costs(outlook, [1.0, 9.0, 1.0, 9.0]) == [1, 2, 3, 4]


def test_a_due_probe_waits_for_a_promising_request() -> None:
    outlook = stopped(probe_every=3)
    hopes = [False] * 6 + [True, False]
    allowed = [n for n, hope in enumerate(hopes, 1) if outlook.worth_trying("task", promising=hope)]
    assert allowed == [7]  # due since the third request, made on the first promising one


def test_promise_decides_nothing_while_calls_are_made() -> None:
    outlook = TaskOutlook(window=20, min_attempts=8, min_success=0.1, probe_every=10)
    assert all(outlook.worth_trying("task", promising=False) for _ in range(5))


def test_succeeded_lately_looks_at_the_window_only() -> None:
    outlook = TaskOutlook(window=3, min_attempts=1)
    outlook.record("task", succeeded=True)
    assert outlook.succeeded_lately("task")
    for _ in range(3):
        outlook.record("task", succeeded=False)
    assert not outlook.succeeded_lately("task")
    assert not outlook.succeeded_lately("never seen")
