"""OpenTelemetry metrics and spans (StepCacheTelemetry), read back with the SDK's in-memory
metric reader and span exporter, for a scripted run of every decision; the same code serves
the LangChain wrapper, the LlamaIndex wrapper and the LangChain cache."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.globals import set_llm_cache
from langchain_core.messages import BaseMessage, HumanMessage
from llama_index.core.base.llms.types import ChatMessage
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from stepcache_integrations import (
    Policy,
    StepCache,
    StepCacheLangChainCache,
    StepCacheLLM,
    StepCacheRecord,
    StepCacheTelemetry,
)
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import (
    ScriptedChatModel,
    ScriptedLLM,
    eq,
    last_user_text,
    solve_conversation,
    solve_steps,
)

IMAGE = HumanMessage(content=[{"type": "image_url", "image_url": {"url": "https://x/y.png"}}])


def answer(messages: list[BaseMessage]) -> str:
    prompt = last_user_text(messages)
    for country, city in (("Portugal", "Lisbon"), ("Spain", "Madrid")):
        if country in prompt:
            return f"The capital of {country} is {city}."
    return solve_conversation(messages)


# The scripted run: one request of every decision (two misses), in this order.
SCRIPT: list[tuple[Any, str]] = [
    (eq(), "miss"),
    (eq(), "exact"),
    (eq(v="y"), "reuse"),
    # By the model: steps 1-2 are re-instantiated (3x = 16), but the cached "x = 5" does not
    # show that an exact 16/3 is asked (3x + 8 = 20 would be re-instantiated in full: a reuse).
    (eq(c=21), "patch"),
    ("What is the capital of Portugal?", "miss"),
    ("What is the capital of Spain?", "skip"),  # a changed word no family accounts for
    ([IMAGE], "bypass"),
]


class Telemetry:
    """An SDK meter provider and tracer provider reading into memory."""

    def __init__(self, **options: Any) -> None:
        self.reader = InMemoryMetricReader()
        self.spans = InMemorySpanExporter()
        self.tracer_provider = TracerProvider()
        self.tracer_provider.add_span_processor(SimpleSpanProcessor(self.spans))
        self.telemetry = StepCacheTelemetry(
            meter_provider=MeterProvider(metric_readers=[self.reader]),
            tracer_provider=self.tracer_provider,
            **options,
        )

    def points(self, name: str) -> list[tuple[dict[str, Any], Any]]:
        data = self.reader.get_metrics_data()
        found = []
        for resource in data.resource_metrics if data else []:
            for scope in resource.scope_metrics:
                assert scope.scope.name == "stepcache_integrations"
                for metric in scope.metrics:
                    if metric.name == name:
                        found.extend((dict(p.attributes or {}), p) for p in metric.data.data_points)
        return found

    def total(self, name: str, **where: str) -> float:
        return sum(
            point.value
            for attributes, point in self.points(name)
            if all(attributes.get(f"stepcache.{k}") == v for k, v in where.items())
        )

    def finished(self) -> list[ReadableSpan]:
        return list(self.spans.get_finished_spans())


def scripted_cache() -> tuple[StepCache, list[StepCacheRecord]]:
    cache = StepCache(policy=Policy(solver_patches=False, max_regenerate_fraction=0.9))
    records: list[StepCacheRecord] = []
    cache.add_listener(records.append)
    return cache, records


def run_script(cache: StepCache, **llm: Any) -> None:
    wrapper = StepCacheLLM(llm=ScriptedChatModel(responder=answer), step_cache=cache, **llm)
    for prompt, decision in SCRIPT:
        record = wrapper.invoke(prompt).response_metadata["stepcache"]
        assert record["decision"] == decision, record["reason"]


@pytest.fixture
def otel() -> Telemetry:
    return Telemetry()


def test_requests_are_counted_by_decision_and_family(otel: Telemetry) -> None:
    cache, _ = scripted_cache()
    otel.telemetry.instrument(cache)
    run_script(cache)
    by_decision = {d: otel.total("stepcache.requests", decision=d) for d in ("exact", "reuse")}
    assert by_decision == {"exact": 1, "reuse": 1}
    for decision, count in {"miss": 2, "patch": 1, "skip": 1, "bypass": 1}.items():
        assert otel.total("stepcache.requests", decision=decision) == count
    assert otel.total("stepcache.requests") == 7
    assert otel.total("stepcache.requests", family="linear_equation") == 4
    assert otel.total("stepcache.requests", family="none") == 3
    namespaces = {a["stepcache.namespace"] for a, _ in otel.points("stepcache.requests")}
    assert len(namespaces) == 1  # one model, no earlier turns: one namespace


def test_tokens_model_calls_and_latency_agree_with_the_records(otel: Telemetry) -> None:
    cache, records = scripted_cache()
    otel.telemetry.instrument(cache)
    run_script(cache)
    assert otel.total("stepcache.tokens.used") == sum(r.tokens_used for r in records) > 0
    assert otel.total("stepcache.tokens.used", **{"token.type": "input"}) == sum(
        r.tokens_input for r in records
    )
    # A counter only grows: a patch that cost more than the answer it reused saves 0, as in
    # stats().
    saved = sum(max(0, r.tokens_saved) for r in records)
    assert otel.total("stepcache.tokens.saved") == saved == cache.stats()["tokens_saved"] > 0
    assert otel.total("stepcache.tokens.saved", decision="exact") == records[1].tokens_saved
    # miss, patch, miss, skip and bypass called the model once each; exact and reuse never.
    assert otel.total("stepcache.model_calls") == 5
    assert otel.total("stepcache.model_calls.avoided") == 2
    assert otel.total("stepcache.model_calls.avoided", decision="reuse") == 1
    durations = otel.points("stepcache.request.duration")
    assert sum(p.count for _, p in durations) == 7
    assert sum(p.sum for _, p in durations) == pytest.approx(
        sum(r.latency_ms["total"] for r in records) / 1000
    )
    lookups = otel.points("stepcache.lookup.duration")
    assert sum(p.count for _, p in lookups) == 6  # the bypass never looked up
    assert otel.total("stepcache.bypasses", **{"bypass.cause": "not_cacheable"}) == 1
    assert otel.total("stepcache.checks.failed") == 0
    assert otel.total("stepcache.store.errors") == 0


def test_one_span_per_request_under_the_current_span(otel: Telemetry) -> None:
    cache, records = scripted_cache()
    otel.telemetry.instrument(cache)
    tracer = otel.tracer_provider.get_tracer("app")
    with tracer.start_as_current_span("app request") as parent:
        run_script(cache)
    spans = [s for s in otel.finished() if s.name == "stepcache.request"]
    assert [s.attributes["stepcache.decision"] for s in spans] == [d for _, d in SCRIPT]
    assert all(s.parent is not None for s in spans)
    assert {s.parent.span_id for s in spans} == {parent.get_span_context().span_id}
    for span, record in zip(spans, records, strict=True):
        assert span.attributes["stepcache.reason"] == record.reason
        assert span.attributes["stepcache.model_calls"] == record.model_calls
        assert span.end_time - span.start_time == int(record.latency_ms["total"] * 1_000_000)
    skip = spans[5].attributes
    assert "Portugal" in str(skip["stepcache.reason"])
    quiet = Telemetry(reasons=False)
    other, _ = scripted_cache()
    quiet.telemetry.instrument(other)
    run_script(other)
    assert all("stepcache.reason" not in s.attributes for s in quiet.finished())


def test_no_tenant_unless_configured() -> None:
    plain, named = Telemetry(), Telemetry(tenants=True)
    for otel in (plain, named):
        cache, records = scripted_cache()
        otel.telemetry.instrument(cache)
        run_script(cache, tenant="acme")
        assert records[0].namespace.startswith("acme:")
        for attributes, _ in otel.points("stepcache.requests"):
            assert "acme" not in attributes["stepcache.namespace"]
    assert all("stepcache.tenant" not in a for a, _ in plain.points("stepcache.requests"))
    assert all("stepcache.tenant" not in (s.attributes or {}) for s in plain.finished())
    assert {a["stepcache.tenant"] for a, _ in named.points("stepcache.requests")} == {"acme"}
    assert all(s.attributes["stepcache.tenant"] == "acme" for s in named.finished())


def test_namespaces_and_spans_can_be_left_out() -> None:
    otel = Telemetry(namespaces=False, spans=False)
    cache, _ = scripted_cache()
    otel.telemetry.instrument(cache).instrument(cache)  # twice: measured once
    run_script(cache)
    assert otel.total("stepcache.requests") == 7
    assert all("stepcache.namespace" not in a for a, _ in otel.points("stepcache.requests"))
    assert otel.finished() == []


def test_store_errors_and_the_bypasses_they_cause(otel: Telemetry) -> None:
    cache = StepCache()
    otel.telemetry.instrument(cache)

    def down(*args: Any) -> Any:
        raise ConnectionError("store down")

    cache.store.get_by_key = down  # type: ignore[method-assign]
    cache.store.get_by_prompt = down  # type: ignore[attr-defined]
    message = StepCacheLLM(llm=ScriptedChatModel(responder=answer), step_cache=cache).invoke(eq())
    assert message.response_metadata["stepcache"]["decision"] == "bypass"
    assert otel.total("stepcache.bypasses", **{"bypass.cause": "store_unavailable"}) == 1
    assert otel.total("stepcache.store.errors") == cache.store_errors >= 1
    assert {a["stepcache.store"] for a, _ in otel.points("stepcache.store.errors")} == {
        cache.store.capabilities.name
    }


def test_a_failing_answer_is_counted(otel: Telemetry) -> None:
    cache = StepCache()
    otel.telemetry.instrument(cache)
    wrong = ScriptedChatModel(responder=lambda m: solve_steps(last_user_text(m), wrong=True))
    policy_off = StepCache(policy=Policy(deterministic_fallback=False, repair=False))
    otel.telemetry.instrument(policy_off)
    StepCacheLLM(llm=wrong, step_cache=policy_off).invoke(eq())
    assert otel.total("stepcache.checks.failed") == 1


@pytest.fixture
def global_cache() -> Iterator[None]:
    yield
    set_llm_cache(None)


def test_every_adapter_is_measured_by_the_same_code(otel: Telemetry, global_cache: None) -> None:
    cache = StepCache()
    otel.telemetry.instrument(cache)
    # The wrapper's own model must not answer through the global cache too.
    inner = ScriptedChatModel(responder=answer, cache=False)
    langchain = StepCacheLLM(llm=inner, step_cache=cache)
    llama = LlamaStepCacheLLM(llm=ScriptedLLM(chat_model=True), step_cache=cache)
    set_llm_cache(StepCacheLangChainCache(cache))
    unwrapped = ScriptedChatModel(responder=answer)
    for _ in range(2):
        langchain.invoke(eq())
        llama.chat([ChatMessage(role="user", content=eq())])
        unwrapped.invoke(eq())
    assert otel.total("stepcache.requests", decision="miss") == 3
    assert otel.total("stepcache.requests", decision="exact") == 3
    assert otel.total("stepcache.model_calls") == 3
    assert otel.total("stepcache.model_calls.avoided") == 3
    # three namespaces: each adapter names the model its own way
    assert len({a["stepcache.namespace"] for a, _ in otel.points("stepcache.requests")}) == 3
    assert len([s for s in otel.finished() if s.name == "stepcache.request"]) == 6


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="tenants"):
        StepCacheTelemetry(tenants="yes")  # type: ignore[arg-type]


def test_without_opentelemetry_the_cache_works_and_telemetry_says_what_to_install() -> None:
    code = """
import importlib.abc, importlib.util, sys, types

class NoOpenTelemetry(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "opentelemetry" or name.startswith("opentelemetry."):
            raise ImportError(f"No module named {name!r} (blocked)")
        return None

sys.meta_path.insert(0, NoOpenTelemetry())
spec = importlib.util.find_spec("stepcache_integrations")
package = types.ModuleType("stepcache_integrations")
package.__path__ = list(spec.submodule_search_locations)
sys.modules["stepcache_integrations"] = package
from stepcache_integrations.core import StepCache, StepCacheTelemetry
from stepcache_integrations.adapter import drive
from stepcache_integrations.core.protocol import CacheRequest, ModelReply
cache = StepCache()
request = CacheRequest("Tell me about Faro.", "ns")
print(drive(cache.serve(request), lambda call: ModelReply("Faro is in the south.")).record.decision)
print(drive(cache.serve(request), lambda call: ModelReply("unused")).record.decision)
try:
    StepCacheTelemetry()
except ImportError as error:
    print("ImportError", "stepcache-integrations[otel]" in str(error))
print(any(m.startswith("opentelemetry") for m in sys.modules))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split("\n")[:4] == ["miss", "exact", "ImportError True", "False"]
