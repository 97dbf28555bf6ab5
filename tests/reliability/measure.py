"""Measure the figures of docs/reliability.md (a script, not a test: nothing here asserts time).

    .venv/bin/python -m tests.reliability.measure            # everything (about 3 minutes)
    .venv/bin/python -m tests.reliability.measure --quick    # 10,000 instead of 100,000 entries

Each scenario runs in a fresh subprocess so resident-memory deltas are not polluted by the
previous one. Prints one JSON object per scenario and a Markdown summary at the end.
"""

from __future__ import annotations

import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import faiss

from stepcache_integrations.adapter import drive
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply
from stepcache_integrations.core.steps import ParagraphSegmenter
from stepcache_integrations.core.stores.directory import INDEX_DIR
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.local import MemoryStore
from stepcache_integrations.core.stores.memory import MemoryEntryStore
from stepcache_integrations.core.stores.sqlite import SqliteEntryStore
from stepcache_integrations.core.vector_index import EmbeddingIndex
from tests.conftest import solve_steps
from tests.reliability.support import local_store

ROOT = Path(__file__).resolve().parents[2]
NS = "d69c077a41aeeeb7ab30bc63"
VARS = "xyzabcmnpqrstuvw"


def prompt(i: int) -> str:
    """A distinct equation prompt per ``i`` (about 60 characters; the answer about 150)."""
    var = VARS[i % len(VARS)]
    a, b = 2 + i % 9, 1 + (i // 9) % 50
    c = a * (1 + i // 450) + b
    return f"Solve for {var}: {a}{var} + {b} = {c}. Show each step as 'Step N:'."


def namespace_of(i: int, namespaces: int) -> str:
    return NS if namespaces == 1 else f"{NS}-{i % namespaces}"


def entry(i: int, namespaces: int = 1) -> CacheEntry:
    text = prompt(i)
    # Fresh string objects per entry, as the adapters produce them (no sharing flatters RSS).
    namespace = "".join([namespace_of(i, namespaces), ""])
    task = "".join(["linear", "_equation"])
    steps = ParagraphSegmenter().split(solve_steps(text))
    return CacheEntry.create(
        namespace, None, text, steps, "paragraph", task=task, tokens_input=40, tokens_output=40
    )


def rss_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def model(action: ModelCall) -> ModelReply:
    raise AssertionError("a lookup must not call the model")


def serve(cache: StepCache, text: str, namespace: str = NS) -> str:
    result = drive(cache.serve(CacheRequest(prompt=text, namespace=namespace)), model)
    return result.record.decision


def timed(fn: Callable[[int], object], picks: list[int]) -> dict[str, float]:
    samples = []
    for i in picks:
        start = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return {
        "median_ms": round(statistics.median(samples), 4),
        "p95_ms": round(samples[int(0.95 * (len(samples) - 1))], 4),
    }


def rate(count: int, seconds: float) -> int:
    return round(count / seconds) if seconds > 0 else 0


def batches(items: list[CacheEntry], size: int = 1000) -> Iterator[list[CacheEntry]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# -- scenarios ------------------------------------------------------------------------------------


def throughput(count: int) -> dict[str, Any]:
    """Entries per second written and read, store level and request level."""
    out: dict[str, Any] = {"entries": count}
    items = [entry(i) for i in range(count)]
    keys = [e.key for e in items]
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as scratch:
        stores: dict[str, Any] = {
            "memory": MemoryEntryStore(),
            "sqlite_full": SqliteEntryStore(Path(scratch) / "full.sqlite"),
            "sqlite_normal": SqliteEntryStore(Path(scratch) / "normal.sqlite", durability="normal"),
        }
        for name, store in stores.items():
            start = time.perf_counter()
            for item in items:
                store.put(item)
            out[f"{name}_put_per_s"] = rate(count, time.perf_counter() - start)
            sample = [rng.choice(keys) for _ in range(count)]
            start = time.perf_counter()
            for key in sample:
                store.get_by_key(key)
            out[f"{name}_get_per_s"] = rate(count, time.perf_counter() - start)
        batch_store = SqliteEntryStore(Path(scratch) / "batch.sqlite")
        start = time.perf_counter()
        for chunk in batches(items):
            batch_store.put_many(chunk)
        out["sqlite_put_many_1000_per_s"] = rate(count, time.perf_counter() - start)
        for store in [*stores.values(), batch_store]:
            if isinstance(store, SqliteEntryStore):
                store.close()

        # The whole request path: a miss stored (instant model), then exact hits.
        def answer(text: str) -> Callable[[ModelCall], ModelReply]:
            return lambda action: ModelReply(solve_steps(text), 40, 40)

        requests = min(count, 2000)
        for name, make_store in {
            "memory": lambda: MemoryStore(),
            "sqlite_full": lambda: SqliteStore(Path(scratch) / "c-full"),
            "sqlite_normal": lambda: SqliteStore(Path(scratch) / "c-normal", durability="normal"),
        }.items():
            cache = StepCache(store=make_store())
            start = time.perf_counter()
            for i in range(requests):  # one namespace per request: every request is a miss
                flow = cache.serve(CacheRequest(prompt=prompt(i), namespace=f"n{i}"))
                drive(flow, answer(prompt(i)))
            out[f"request_{name}_miss_stored_per_s"] = rate(requests, time.perf_counter() - start)
            start = time.perf_counter()
            for i in range(requests):
                serve(cache, prompt(i), f"n{i}")
            out[f"request_{name}_exact_per_s"] = rate(requests, time.perf_counter() - start)
            cache.close()
    return out


def build_directory(path: Path, count: int) -> None:
    cache = StepCache(store=SqliteStore(path, durability="normal"))
    store = local_store(cache)
    assert isinstance(store.entries, SqliteEntryStore) and isinstance(store.index, EmbeddingIndex)
    for chunk in batches([entry(i) for i in range(count)]):
        store.entries.put_many(chunk)
        local_store(cache).index.add_many([(e.id, e.prompt, e.namespace) for e in chunk])
    cache.close()


def reopen(count: int) -> dict[str, Any]:
    """Time to open a directory: with its index files, and rebuilding them from SQLite."""
    out: dict[str, Any] = {"entries": count}
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "cache"
        start = time.perf_counter()
        build_directory(path, count)
        out["build_s"] = round(time.perf_counter() - start, 3)
        start = time.perf_counter()
        cache = StepCache(path=path)
        out["open_with_index_files_s"] = round(time.perf_counter() - start, 3)
        assert len(cache) == count and serve(cache, prompt(1)) == "exact"
        assert isinstance(local_store(cache).entries, SqliteEntryStore)
        local_store(cache).entries.close()  # like a crash: nothing saved at close
        shutil.rmtree(path / INDEX_DIR)
        start = time.perf_counter()
        cache = StepCache(path=path)
        out["open_rebuilding_index_s"] = round(time.perf_counter() - start, 3)
        start = time.perf_counter()
        report = cache.check()
        out["full_check_s"] = round(time.perf_counter() - start, 3)
        assert report["ok"]
        cache.close()
    return out


def scale(count: int, persistent: bool, namespaces: int) -> dict[str, Any]:
    """Resident memory per entry (store and index apart) and lookup latency at ``count``."""
    out: dict[str, Any] = {"entries": count, "persistent": persistent, "namespaces": namespaces}
    scratch = tempfile.mkdtemp()
    cache = (
        StepCache(store=SqliteStore(Path(scratch) / "c", durability="normal"))
        if persistent
        else StepCache()
    )
    assert isinstance(local_store(cache).index, EmbeddingIndex)
    # Entries are made 1,000 at a time and dropped once stored, so the resident-memory growth
    # is what the cache keeps, not the source data.
    gc.collect()
    start_rss = rss_bytes()
    for start in range(0, count, 1000):
        chunk = [entry(i, namespaces) for i in range(start, min(count, start + 1000))]
        if isinstance(local_store(cache).entries, SqliteEntryStore):
            local_store(cache).entries.put_many(chunk)
        else:
            for item in chunk:
                cache.store.put(item)
        del chunk
    gc.collect()
    store_rss = rss_bytes()
    for start in range(0, count, 1000):
        ids = range(start, min(count, start + 1000))
        local_store(cache).index.add_many(
            [(entry(i, namespaces).id, prompt(i), namespace_of(i, namespaces)) for i in ids]
        )
    gc.collect()
    end_rss = rss_bytes()
    out["rss_store_bytes_per_entry"] = round((store_rss - start_rss) / count)
    out["rss_index_bytes_per_entry"] = round((end_rss - store_rss) / count)
    out["rss_bytes_per_entry"] = round((end_rss - start_rss) / count)
    out["rss_delta_mb"] = round((end_rss - start_rss) / 2**20, 1)
    memory = cache.stats()["memory"]
    out["stats_estimate"] = {
        k: memory[k] for k in ("bytes_per_entry", "store_bytes_per_entry", "index_bytes_per_entry")
    }
    if persistent:
        out["disk_bytes_per_entry"] = memory["disk_bytes_per_entry"]
    picks = [random.Random(11).randrange(count) for _ in range(500)]

    def exact_request(i: int) -> None:
        decision = serve(cache, prompt(i), namespace_of(i, namespaces))
        assert decision == "exact", decision

    def nearest(i: int) -> None:
        text = prompt(i).replace("Show each step", "Show every step")  # not stored
        assert cache._nearest(CacheRequest(prompt=text, namespace=namespace_of(i, namespaces)), 3)

    out["exact_lookup"] = timed(exact_request, picks)
    out["nearest_lookup"] = timed(nearest, picks)  # one FAISS thread per query (the default)
    local_store(cache).index.search_threads = None  # FAISS's own OpenMP setting, for comparison
    out["nearest_lookup_faiss_omp_threads"] = timed(nearest, picks)
    out["faiss_omp_threads"] = faiss.omp_get_max_threads()
    cache.close()
    shutil.rmtree(scratch, ignore_errors=True)
    return out


SCENARIOS: dict[str, Callable[[int], dict[str, Any]]] = {
    "throughput": lambda n: throughput(min(n, 5000)),
    "reopen": reopen,
    "memory-1ns": lambda n: scale(n, False, 1),
    "memory-100ns": lambda n: scale(n, False, 100),
    "sqlite-1ns": lambda n: scale(n, True, 1),
    "sqlite-100ns": lambda n: scale(n, True, 100),
}


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--scenario":
        result = SCENARIOS[argv[1]](int(argv[2]))
        print(json.dumps({"scenario": argv[1], **result}))
        return 0
    count = 10_000 if "--quick" in argv else 100_000
    results = []
    for name in SCENARIOS:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        done = subprocess.run(
            [sys.executable, "-m", "tests.reliability.measure", "--scenario", name, str(count)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        line = done.stdout.strip().splitlines()[-1]
        print(line, flush=True)
        results.append(json.loads(line))
    load = os.getloadavg()[0]
    print(f"\nnproc={os.cpu_count()} load={load:.2f} python={sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
