"""The audit's OpenTelemetry metrics: audits by outcome and kind of reuse, their tokens apart
from the requests', suspensions (the traffic is simulated: :mod:`tests.audit.squares`)."""

from __future__ import annotations

from tests.audit.squares import OracleModel
from tests.audit.test_audit_core import serve, squares_cache
from tests.unit.test_telemetry import Telemetry


def test_audits_disagreements_and_suspensions_are_metrics() -> None:
    telemetry = Telemetry()
    cache = squares_cache()
    telemetry.telemetry.instrument(cache)
    model = OracleModel()
    serve(cache, "Square 4.", model)
    serve(cache, "Square 4.", model)  # exact: audited, agrees
    serve(cache, "Square 7.", model)  # a wrong re-instantiation: disagrees, suspended
    assert cache.drain_audits(10)
    total = telemetry.total
    assert (
        total("stepcache.audits", **{"audit.outcome": "agree", "reuse_kind": "square/exact"}) == 1
    )
    assert (
        total("stepcache.audits", **{"audit.outcome": "disagree", "reuse_kind": "square/value"})
        == 1
    )
    assert total("stepcache.audit.suspensions", reuse_kind="square/value") == 1
    audit_tokens = total("stepcache.audit.tokens")
    stats = cache.audit_stats()
    assert stats is not None and audit_tokens == stats["tokens_used"] > 0
    # The requests' tokens are the miss's alone (the audits' are never among them).
    assert total("stepcache.tokens.used") == cache.stats()["tokens_used"] == 22
    assert total("stepcache.audits.dropped") == 0
    cache.close()
