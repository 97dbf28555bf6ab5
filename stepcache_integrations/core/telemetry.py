"""OpenTelemetry metrics and spans of a StepCache's requests (the ``otel`` extra).

:class:`StepCacheTelemetry` is one record listener (:meth:`StepCache.add_listener
<stepcache_integrations.core.cache.StepCache.add_listener>`) made from the OpenTelemetry
API. Every adapter serves its requests through a ``StepCache`` (the LangChain and LlamaIndex
wrappers, the LangChain ``BaseCache``), so an instrumented cache measures all of them with
this one piece of code. Only ``opentelemetry-api`` is used: the application's own SDK set-up
(its meter and tracer providers, readers and exporters) decides where the data goes, and
without one the API's no-op providers make every call free of work.

Nothing here runs unless a cache is instrumented; this module imports OpenTelemetry only when
a :class:`StepCacheTelemetry` is created.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from stepcache_integrations._version import __version__
from stepcache_integrations.core.audit.records import AuditRecord
from stepcache_integrations.core.engine import CACHE_UNAVAILABLE
from stepcache_integrations.core.records import StepCacheRecord

if TYPE_CHECKING:
    from opentelemetry.metrics import CallbackOptions, Histogram, Meter, MeterProvider, Observation
    from opentelemetry.trace import TracerProvider

    from stepcache_integrations.core.cache import StepCache

__all__ = ["INSTRUMENTATION_NAME", "SPAN_NAME", "StepCacheTelemetry"]

INSTRUMENTATION_NAME = "stepcache_integrations"
"""The name of the meter and of the tracer (the instrumentation scope)."""

SPAN_NAME = "stepcache.request"
"""The name of the span of one request."""

# Durations in seconds, as OpenTelemetry's conventions have them: from a hit (well under a
# millisecond) to a slow model call (tens of seconds).
_DURATION_BUCKETS = (
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
    30.0,
    60.0,
)

_NO_FAMILY = "none"


class StepCacheTelemetry:
    """OpenTelemetry metrics and a span for every request of the caches it instruments.

    Metrics (the meter ``stepcache_integrations``), with the attributes ``stepcache.decision``,
    ``stepcache.family`` (the task families that recognised the request, or ``none``) and
    ``stepcache.namespace`` (the namespace's hash, never its tenant):

    - ``stepcache.requests``: requests, by decision.
    - ``stepcache.tokens.used`` (with ``stepcache.token.type``: ``input`` or ``output``) and
      ``stepcache.tokens.saved``: tokens the requests spent and the cached answers saved.
    - ``stepcache.model_calls`` and ``stepcache.model_calls.avoided``: model calls made, and
      requests answered with none.
    - ``stepcache.request.duration`` and ``stepcache.lookup.duration`` (histograms, seconds):
      from the record's ``latency_ms`` (``total`` and ``lookup``).
    - ``stepcache.bypasses`` (with ``stepcache.bypass.cause``: ``store_unavailable`` or
      ``not_cacheable``) and ``stepcache.checks.failed``: requests that skipped the cache, and
      answers returned flagged because they failed their checks.
    - ``stepcache.store.errors`` (observable): store lookups and writes that failed, by store
      kind (``stepcache.store``).
    - With ``StepCache(audit=...)``: ``stepcache.audits`` (with ``stepcache.audit.outcome``:
      ``agree``, ``disagree``, ``not_comparable`` or ``error``; ``stepcache.reuse_kind``;
      ``stepcache.audit.shadow``), ``stepcache.audit.tokens`` (by ``stepcache.token.type``:
      audit tokens, never counted in ``stepcache.tokens.used``),
      ``stepcache.audit.suspensions`` (kinds of reuse an audit suspended) and
      ``stepcache.audits.dropped`` (observable: sampled audits dropped on a full queue).

    Spans: one ``stepcache.request`` span per request, child of the span that is current when
    the request finishes (the framework's span, when the application runs OpenTelemetry
    instrumentation), with the decision, the reason and the record's counts as attributes,
    and the request's duration.

    Args:
        meter_provider: where the metrics go (default: the global meter provider).
        tracer_provider: where the spans go (default: the global tracer provider).
        namespaces: ``False`` leaves ``stepcache.namespace`` out of the metrics (a namespace
            covers the earlier turns of a conversation: one per turn in a chat application).
        tenants: ``True`` adds ``stepcache.tenant`` to metrics and spans (off by default:
            tenant ids are often customer names).
        reasons: ``False`` leaves the decision's reason and the check's failure out of the
            spans (they may quote words of the request that changed).
        spans: ``False`` records metrics only.

    Example:
        >>> from opentelemetry.sdk.metrics import MeterProvider
        >>> from opentelemetry.sdk.metrics.export import InMemoryMetricReader
        >>> from stepcache_integrations import StepCache
        >>> reader = InMemoryMetricReader()
        >>> cache = StepCache()
        >>> telemetry = StepCacheTelemetry(meter_provider=MeterProvider([reader])).instrument(cache)
    """

    def __init__(
        self,
        *,
        meter_provider: MeterProvider | None = None,
        tracer_provider: TracerProvider | None = None,
        namespaces: bool = True,
        tenants: bool = False,
        reasons: bool = True,
        spans: bool = True,
    ) -> None:
        try:
            from opentelemetry import metrics, trace
        except ImportError as error:  # pragma: no cover - the extra is installed in tests
            raise ImportError(
                "StepCacheTelemetry needs OpenTelemetry's API: "
                f"pip install 'stepcache-integrations[otel]' ({error})"
            ) from error
        for name, value in (
            ("namespaces", namespaces),
            ("tenants", tenants),
            ("reasons", reasons),
            ("spans", spans),
        ):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be True or False, got {value!r}")
        self.namespaces = namespaces
        self.tenants = tenants
        self.reasons = reasons
        self._caches: weakref.WeakSet[StepCache] = weakref.WeakSet()
        self._trace = trace
        self._tracer = (
            trace.get_tracer(INSTRUMENTATION_NAME, __version__, tracer_provider=tracer_provider)
            if spans
            else None
        )
        meter = metrics.get_meter(INSTRUMENTATION_NAME, __version__, meter_provider=meter_provider)
        self._requests = meter.create_counter(
            "stepcache.requests", unit="{request}", description="Requests, by decision."
        )
        self._tokens_used = meter.create_counter(
            "stepcache.tokens.used",
            unit="{token}",
            description="Tokens the requests spent, over every model call.",
        )
        self._tokens_saved = meter.create_counter(
            "stepcache.tokens.saved",
            unit="{token}",
            description="Tokens the cached answers saved (their original cost minus the spend).",
        )
        self._model_calls = meter.create_counter(
            "stepcache.model_calls", unit="{call}", description="Model calls the requests made."
        )
        self._avoided = meter.create_counter(
            "stepcache.model_calls.avoided",
            unit="{call}",
            description="Requests answered without a model call.",
        )
        self._duration = _seconds(
            meter, "stepcache.request.duration", "Duration of a request, model calls included."
        )
        self._lookup = _seconds(
            meter, "stepcache.lookup.duration", "Duration of a request's store lookup."
        )
        self._bypasses = meter.create_counter(
            "stepcache.bypasses",
            unit="{request}",
            description="Requests that went straight to the model.",
        )
        self._failed = meter.create_counter(
            "stepcache.checks.failed",
            unit="{request}",
            description="Answers returned flagged: they failed their checks (never stored).",
        )
        self._audits = meter.create_counter(
            "stepcache.audits",
            unit="{audit}",
            description="Audits of answers served from the cache, by outcome and kind of reuse.",
        )
        self._audit_tokens = meter.create_counter(
            "stepcache.audit.tokens",
            unit="{token}",
            description="Tokens the audits spent (apart from the requests' tokens).",
        )
        self._suspensions = meter.create_counter(
            "stepcache.audit.suspensions",
            unit="{suspension}",
            description="Kinds of reuse suspended in a namespace by a disagreeing audit.",
        )
        meter.create_observable_counter(
            "stepcache.audits.dropped",
            callbacks=[self._dropped_audits],
            unit="{audit}",
            description="Sampled audits dropped because the audit queue was full.",
        )
        meter.create_observable_counter(
            "stepcache.store.errors",
            callbacks=[self._store_errors],
            unit="{error}",
            description="Store lookups and writes that failed (answered by the model, or "
            "served uncached).",
        )

    def instrument(self, cache: StepCache) -> StepCacheTelemetry:
        """Measure every request of ``cache`` from now on (any number of caches); returns
        ``self``. Instrumenting a cache twice measures it once."""
        if cache not in self._caches:
            self._caches.add(cache)
            cache.add_listener(self.observe)
            cache.add_audit_listener(self.observe_audit)
        return self

    def observe_audit(self, record: AuditRecord) -> None:
        """Measure one audit (the listener a cache with ``audit=`` calls after each)."""
        attributes = {
            "stepcache.audit.outcome": record.outcome,
            "stepcache.reuse_kind": record.kind,
            "stepcache.family": record.family,
            "stepcache.audit.shadow": "true" if record.shadow else "false",
        }
        if self.namespaces:
            attributes["stepcache.namespace"] = _without_tenant(record.namespace, record.tenant)
        self._audits.add(1, attributes)
        for kind, tokens in (("input", record.tokens_input), ("output", record.tokens_output)):
            if tokens > 0:
                self._audit_tokens.add(tokens, {**attributes, "stepcache.token.type": kind})
        if record.suspended:
            self._suspensions.add(1, {"stepcache.reuse_kind": record.kind})

    def _dropped_audits(self, options: CallbackOptions) -> Iterable[Observation]:
        from opentelemetry.metrics import Observation

        dropped = 0
        for cache in list(self._caches):
            audit = cache.audit_stats()
            if audit is not None:
                dropped += int(audit["dropped"])
        return [Observation(dropped)]

    # -- one request --------------------------------------------------------------------------

    def _attributes(self, record: StepCacheRecord) -> dict[str, str]:
        attributes = {
            "stepcache.decision": record.decision,
            "stepcache.family": record.task or _NO_FAMILY,
        }
        if self.namespaces:
            attributes["stepcache.namespace"] = _namespace_hash(record)
        if self.tenants and record.tenant is not None:
            attributes["stepcache.tenant"] = record.tenant
        return attributes

    def observe(self, record: StepCacheRecord) -> None:
        """Measure one finished request (the listener a cache calls with each record)."""
        attributes = self._attributes(record)
        self._requests.add(1, attributes)
        for kind, tokens in (("input", record.tokens_input), ("output", record.tokens_output)):
            if tokens > 0:
                self._tokens_used.add(tokens, {**attributes, "stepcache.token.type": kind})
        if record.tokens_saved > 0:
            self._tokens_saved.add(record.tokens_saved, attributes)
        if record.model_calls > 0:
            self._model_calls.add(record.model_calls, attributes)
        elif record.decision != "bypass":
            self._avoided.add(1, attributes)
        latency = record.latency_ms
        total = latency.get("total")
        if total is not None:
            self._duration.record(total / 1000.0, attributes)
        lookup = latency.get("lookup")
        if lookup is not None:
            self._lookup.record(lookup / 1000.0, attributes)
        if record.decision == "bypass":
            cause = (
                "store_unavailable"
                if record.reason.startswith(CACHE_UNAVAILABLE)
                else "not_cacheable"
            )
            self._bypasses.add(1, {**attributes, "stepcache.bypass.cause": cause})
        if not record.passed:
            self._failed.add(1, attributes)
        if self._tracer is not None:
            self._span(record, attributes, total)

    def _span(self, record: StepCacheRecord, attributes: dict[str, str], total: Any) -> None:
        # The span is written when the request has finished, back-dated to its start: no
        # context is held across the request path's model calls (which the framework traces
        # itself), and a request that never finishes leaves no open span.
        assert self._tracer is not None
        end = time.time_ns()
        duration = int(total * 1_000_000) if isinstance(total, int | float) and total > 0 else 0
        span = self._tracer.start_span(
            SPAN_NAME,
            kind=self._trace.SpanKind.INTERNAL,
            start_time=end - duration,
            attributes=_span_attributes(record, attributes, reasons=self.reasons),
        )
        span.end(end_time=end)

    def _store_errors(self, options: CallbackOptions) -> Iterable[Observation]:
        from opentelemetry.metrics import Observation

        counts: dict[str, int] = {}
        for cache in list(self._caches):
            kind = cache.store.capabilities.name
            counts[kind] = counts.get(kind, 0) + cache.store_errors
        return [Observation(count, {"stepcache.store": kind}) for kind, count in counts.items()]


def _seconds(meter: Meter, name: str, description: str) -> Histogram:
    """A histogram of durations in seconds, with buckets from a hit to a slow model call."""
    return meter.create_histogram(
        name,
        unit="s",
        description=description,
        explicit_bucket_boundaries_advisory=list(_DURATION_BUCKETS),
    )


def _namespace_hash(record: StepCacheRecord) -> str:
    """The namespace without its tenant prefix (``"<tenant>:<hash>"`` -> ``"<hash>"``)."""
    return _without_tenant(record.namespace, record.tenant)


def _without_tenant(namespace: str, tenant: str | None) -> str:
    if tenant is not None and namespace.startswith(f"{tenant}:"):
        return namespace[len(tenant) + 1 :]
    return namespace


def _span_attributes(
    record: StepCacheRecord, attributes: dict[str, str], *, reasons: bool
) -> dict[str, Any]:
    values: dict[str, Any] = {
        **attributes,
        "stepcache.namespace": _namespace_hash(record),
        "stepcache.model_calls": record.model_calls,
        "stepcache.tokens.used": record.tokens_used,
        "stepcache.tokens.saved": record.tokens_saved,
        "stepcache.steps.reused": record.steps_reused,
        "stepcache.steps.regenerated": record.steps_regenerated,
        "stepcache.passed": record.passed,
        "stepcache.stored": record.stored,
    }
    if reasons:
        values["stepcache.reason"] = record.reason
        if record.failure:
            values["stepcache.failure"] = record.failure
    if record.similarity is not None:
        values["stepcache.similarity"] = record.similarity
    if record.patched_by is not None:
        values["stepcache.patched_by"] = record.patched_by
    if record.mended is not None:
        values["stepcache.mended"] = record.mended
    # The span's own duration is the total; the lookup is the phase a cache operator watches.
    lookup = record.latency_ms.get("lookup")
    if lookup is not None:
        values["stepcache.lookup_ms"] = lookup
    return values
