"""Run one serving mode over one seed's workload and record every evaluation request.

The protocol, the same for every mode:

1. Build the mode around a *fresh* chat model from the backend (a new, empty cache per mode and
   per seed, so no mode profits from another's work).
2. Warm-up: serve the workload's warm-up requests (the base prompts) in order. They fill the
   caches and are **not** measured.
3. Evaluation: serve each evaluation request once, in the workload's (seeded) order, timing the
   wall clock around ``invoke``. Tokens come from the response's ``usage_metadata`` (what the
   request really spent: zero for a cache hit; every model call including repairs for
   StepCache). Correctness is judged by code (``task_correct`` / ``integrity_ok``), never by
   the model.

``run_interleaved`` (the CLI's default) serves each request through every mode before the
next request, so machine-load drift hits all modes alike; ``run_mode`` serves one mode at a
time.

A *wrong answer served* is an answer that fails the task check and was returned without a
flag. StepCache flags an answer it knows failed its checks (``record["passed"] is False``);
such answers still count against ``correct_task`` but are counted as ``flagged`` rather than
``wrong_served``, because the caller was told.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from stepcache_integrations.bench.backends import DEFAULT_MAX_TOKENS, Backend
from stepcache_integrations.bench.modes import (
    BASELINE_MODES,
    CountingInMemoryCache,
    ModeName,
    PeerResponseCache,
    build_baseline,
    cache_hit_kind,
)
from stepcache_integrations.bench.workload import Request, Workload, integrity_ok, task_correct
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.embeddings import StructuralEmbedder
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.langchain.chat_model import StepCacheLLM

__all__ = [
    "MODES",
    "ModeRun",
    "RequestResult",
    "ServingMode",
    "build_mode",
    "decision_counts",
    "mode_order",
    "prefix_reset",
    "run_interleaved",
    "run_mode",
    "served_by",
]

MODES: tuple[ModeName, ...] = (*BASELINE_MODES, "stepcache")


def mode_order(names: Sequence[str]) -> list[str]:
    """``names`` in ``MODES`` order, any other name (a mode of an older run's ``raw.json``,
    such as ``semantic_cache``) after them in the order given.

    Example:
        >>> mode_order(["stepcache", "semantic_cache", "no_cache"])
        ['no_cache', 'stepcache', 'semantic_cache']
    """
    unique = list(dict.fromkeys(names))
    return [m for m in MODES if m in unique] + [m for m in unique if m not in MODES]


# Called after every served request (warm-up included) so a progress bar can advance, with
# the mode that served it and ``None`` for a warm-up request or the evaluation result.
ProgressHook = Callable[[ModeName, "RequestResult | None"], None]


@dataclass(frozen=True)
class RequestResult:
    """One evaluation request as served by one mode.

    ``family`` is the task the request asks for (what its task check judges), ``base_family``
    the family of the base prompt it was derived from (the first part of ``id``): a semantic
    change of a JSON base asks to solve an equation, one of an equation base asks for JSON.
    """

    id: str
    kind: str
    family: str
    base_family: str
    latency_s: float
    input_tokens: int
    output_tokens: int
    tokens: int
    task_correct: bool
    integrity_ok: bool
    # StepCache said the answer failed its checks (``passed: false``); never set for baselines.
    flagged: bool
    # Who produced the answer: "model" (a model call), "exact" / "semantic" (a baseline cache
    # hit: LangChain's exact cache, or a peer's semantic hit) or StepCache's decision (exact /
    # reuse / patch / skip / miss / bypass).
    served_by: str
    answer: str
    failure: str | None = None
    record: dict[str, Any] | None = None
    # The request's text, so a row shows what was asked (empty in raw.json files of 0.5.0
    # and before).
    prompt: str = ""

    @property
    def wrong_served(self) -> bool:
        """Fails the task check and was returned without a flag."""
        return not self.task_correct and not self.flagged

    @property
    def from_cache(self) -> bool:
        """Produced (at least partly) from a cached answer rather than a fresh generation."""
        return self.served_by in ("exact", "semantic", "reuse", "patch")

    @property
    def called_model(self) -> bool:
        """At least one model call was made for this request (repairs and patches included)."""
        if self.record is not None:
            return int(self.record.get("model_calls", 0) or 0) > 0
        return self.served_by == "model"

    def to_dict(self, with_record: bool = False) -> dict[str, Any]:
        """JSON-serialisable form (the StepCache record only on request: it is large)."""
        data = asdict(self)
        if not with_record:
            data.pop("record")
        data["wrong_served"] = self.wrong_served
        return data


@dataclass
class ModeRun:
    """Everything measured for one mode on one seed."""

    mode: ModeName
    seed: int
    warmup_requests: int
    warmup_s: float
    results: list[RequestResult]
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]
    cache_stats: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Everything, StepCache records included (``raw.json``: reports can be rebuilt)."""
        data = asdict(self)
        data["results"] = [r.to_dict(with_record=True) for r in self.results]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModeRun:
        """The inverse of :meth:`to_dict`."""
        fields = {k for k in RequestResult.__dataclass_fields__}
        results = [
            RequestResult(**{k: v for k, v in row.items() if k in fields})
            for row in data["results"]
        ]
        return cls(
            mode=data["mode"],
            seed=int(data["seed"]),
            warmup_requests=int(data["warmup_requests"]),
            warmup_s=float(data["warmup_s"]),
            results=results,
            load_before=_triple(data["load_before"]),
            load_after=_triple(data["load_after"]),
            cache_stats=dict(data.get("cache_stats") or {}),
        )


def _triple(values: Any) -> tuple[float, float, float]:
    a, b, c = (float(v) for v in values)
    return a, b, c


@dataclass
class ServingMode:
    """A mode ready to serve: the model to invoke and, for reports, the cache behind it."""

    name: ModeName
    model: BaseChatModel
    step_cache: StepCache | None = None
    baseline_cache: CountingInMemoryCache | PeerResponseCache | None = None

    def cache_stats(self) -> dict[str, Any]:
        """Hit / miss counts of the cache (StepCache's own aggregate for StepCache); for a
        peer also its configuration (``config``: version, embedder, threshold, store)."""
        if self.step_cache is not None:
            full = self.step_cache.stats()
            return {k: full[k] for k in ("requests", "decisions", "hit_rate", "entries")}
        if self.baseline_cache is not None:
            stats: dict[str, Any] = {
                "hits": self.baseline_cache.hits,
                "misses": self.baseline_cache.misses,
            }
            if isinstance(self.baseline_cache, PeerResponseCache):
                stats["config"] = self.baseline_cache.describe()
            return stats
        return {}

    def close(self) -> None:
        """Release a peer's files and connections (the other caches live in memory)."""
        if isinstance(self.baseline_cache, PeerResponseCache):
            self.baseline_cache.close()


def build_mode(
    name: ModeName, backend: Backend, max_tokens: int = DEFAULT_MAX_TOKENS
) -> ServingMode:
    """Mode ``name`` around a fresh chat model of ``backend``, with a fresh, empty cache.

    StepCache runs with its defaults (the engine's policy is not tuned for the benchmark) and
    holds the model to a task's JSON Schema where the backend supports it; the peers (GPTCache,
    sulci) use the same embedder and the StepCache policy's similarity threshold, so every
    cache retrieves the same neighbours and they differ only in what they do with them.
    """
    chat_model = backend.chat_model(max_tokens)
    if name == "stepcache":
        step_cache = StepCache()
        llm = StepCacheLLM(
            llm=chat_model, step_cache=step_cache, constrain_json=backend.constrain_json
        )
        return ServingMode(name, llm, step_cache)
    baseline = build_baseline(
        name,
        chat_model,
        embedder=StructuralEmbedder(),
        threshold=Policy().similarity_threshold,
    )
    return ServingMode(name, baseline.model, baseline_cache=baseline.cache)


def served_by(mode: ModeName, message: BaseMessage) -> str:
    """Who produced ``message``: a model call, a baseline cache hit, or StepCache's decision."""
    if mode == "stepcache":
        record = message.response_metadata.get("stepcache") or {}
        return str(record.get("decision", "unknown"))
    return cache_hit_kind(message) or "model"


def _usage(message: BaseMessage) -> tuple[int, int, int]:
    usage = getattr(message, "usage_metadata", None) or {}
    input_tokens = int(usage.get("input_tokens", 0) or 0)
    output_tokens = int(usage.get("output_tokens", 0) or 0)
    total = usage.get("total_tokens")
    return input_tokens, output_tokens, int(total) if total else input_tokens + output_tokens


def _serve(mode: ServingMode, request: Request) -> RequestResult:
    started = time.perf_counter()
    message = mode.model.invoke(request.prompt)
    latency = time.perf_counter() - started
    answer = message.text if isinstance(message.content, list) else str(message.content)
    input_tokens, output_tokens, tokens = _usage(message)
    record = message.response_metadata.get("stepcache") if mode.name == "stepcache" else None
    flagged = bool(record is not None and record.get("passed") is False)
    return RequestResult(
        id=request.id,
        kind=request.kind,
        family=request.family,
        base_family=request.base_family,
        latency_s=latency,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        tokens=tokens,
        task_correct=task_correct(request, answer),
        integrity_ok=integrity_ok(request, answer),
        flagged=flagged,
        served_by=served_by(mode.name, message),
        answer=answer,
        failure=record.get("failure") if record is not None else None,
        record=dict(record) if record is not None else None,
        prompt=request.prompt,
    )


def run_mode(
    name: ModeName,
    backend: Backend,
    workload: Workload,
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    progress: ProgressHook | None = None,
) -> ModeRun:
    """Serve ``workload`` through mode ``name``: warm-up unmeasured, then every evaluation
    request timed and judged."""
    mode = build_mode(name, backend, max_tokens)
    try:
        return _run_one(mode, workload, progress)
    finally:
        mode.close()


def _run_one(mode: ServingMode, workload: Workload, progress: ProgressHook | None) -> ModeRun:
    name = mode.name
    load_before = os.getloadavg()
    started = time.perf_counter()
    for request in workload.warmup:
        mode.model.invoke(request.prompt)
        if progress is not None:
            progress(name, None)
    warmup_s = time.perf_counter() - started
    results: list[RequestResult] = []
    for request in workload.evaluation:
        result = _serve(mode, request)
        results.append(result)
        if progress is not None:
            progress(name, result)
    return ModeRun(
        mode=name,
        seed=workload.seed,
        warmup_requests=len(workload.warmup),
        warmup_s=warmup_s,
        results=results,
        load_before=load_before,
        load_after=os.getloadavg(),
        cache_stats=mode.cache_stats(),
    )


def _rotated(modes: list[ServingMode], index: int) -> list[ServingMode]:
    shift = index % len(modes)
    return modes[shift:] + modes[:shift]


def run_interleaved(
    names: Sequence[ModeName],
    backend: Backend,
    workload: Workload,
    *,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    progress: ProgressHook | None = None,
    between: Callable[[], None] | None = None,
) -> list[ModeRun]:
    """Serve ``workload`` through every mode, request by request.

    Each request (warm-up first, then evaluation) is served by every mode before the next
    one, so a change of machine load hits all modes alike; on a shared 2-core machine the
    decode speed of a small model varies several-fold within minutes, and serving one mode
    after the other would turn that drift into a difference between modes. The order of the
    modes rotates from one request to the next so none is always first. ``between`` runs
    before each mode's turn, unmeasured (the local backend uses it to clear llama.cpp's
    prompt-prefix reuse, so no mode's call starts from the previous mode's identical prompt).
    """
    modes: list[ServingMode] = []
    try:
        for name in names:
            modes.append(build_mode(name, backend, max_tokens))
        return _interleave(modes, workload, progress, between)
    finally:
        for mode in modes:
            mode.close()


def _interleave(
    modes: list[ServingMode],
    workload: Workload,
    progress: ProgressHook | None,
    between: Callable[[], None] | None,
) -> list[ModeRun]:
    load_before = os.getloadavg()
    warmup_s = {mode.name: 0.0 for mode in modes}
    for index, request in enumerate(workload.warmup):
        for mode in _rotated(modes, index):
            if between is not None:
                between()
            started = time.perf_counter()
            mode.model.invoke(request.prompt)
            warmup_s[mode.name] += time.perf_counter() - started
            if progress is not None:
                progress(mode.name, None)
    results: dict[str, list[RequestResult]] = {mode.name: [] for mode in modes}
    for index, request in enumerate(workload.evaluation):
        for mode in _rotated(modes, index):
            if between is not None:
                between()
            result = _serve(mode, request)
            results[mode.name].append(result)
            if progress is not None:
                progress(mode.name, result)
    load_after = os.getloadavg()
    return [
        ModeRun(
            mode=mode.name,
            seed=workload.seed,
            warmup_requests=len(workload.warmup),
            warmup_s=warmup_s[mode.name],
            results=results[mode.name],
            load_before=load_before,
            load_after=load_after,
            cache_stats=mode.cache_stats(),
        )
        for mode in modes
    ]


def prefix_reset(backend: Backend) -> Callable[[], None]:
    """A one-token request with an unrelated prompt: afterwards the server's cached prompt
    prefix is only the chat template, as it is between two different requests."""
    model = backend.chat_model(1)

    def reset() -> None:
        model.invoke("Reply with OK.")

    return reset


def decision_counts(run: ModeRun) -> Counter[str]:
    """How many evaluation requests each source (``served_by``) answered."""
    return Counter(result.served_by for result in run.results)
