"""Promise: a request's own verifiers are never skipped because another wrapper, sharing the
cache without them, stored the answer (stale answer served as passing)."""

from __future__ import annotations

from stepcache_integrations.adapter import drive
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.protocol import CacheRequest
from stepcache_integrations.core.verifiers.callable import CallableVerifier
from tests.reliability.support import NS, Model, ask, eq


def test_an_exact_hit_runs_the_requests_own_verifiers() -> None:
    cache = StepCache()
    stored = ask(cache, eq(0))  # a wrapper without extra verifiers stores the answer
    assert stored.record.stored and "Step 3" in stored.text

    def wants_a_conclusion(request: str, answer: str) -> bool:
        return "Therefore" in answer

    strict = CallableVerifier(wants_a_conclusion, name="conclusion")
    model = Model(lambda prompt, call: "Therefore x = 1.")
    request = CacheRequest(eq(0), NS, input_chars=len(eq(0)), extra_verifiers=(strict,))
    result = drive(cache.serve(request), model.for_prompt(eq(0)))

    assert result.record.decision != "exact"
    assert len(model.calls) == 1
    assert result.text == "Therefore x = 1."
    assert any(v["verifier"] == "conclusion" for v in result.record.verdicts)


def test_an_exact_hit_that_passes_the_requests_verifiers_is_served() -> None:
    cache = StepCache()
    ask(cache, eq(0))
    lenient = CallableVerifier(lambda request, answer: "Step" in answer, name="has-steps")
    model = Model()
    request = CacheRequest(eq(0), NS, input_chars=len(eq(0)), extra_verifiers=(lenient,))
    result = drive(cache.serve(request), model.for_prompt(eq(0)))
    assert result.record.decision == "exact"
    assert model.calls == []
