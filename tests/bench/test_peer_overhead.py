"""The peers' hit path (``stepcache bench --overhead``): filled with the same entries as
StepCache's cache, probed with the same requests, through each peer's own ``get``; and the
targets that compare StepCache's hits with the peers' nearest lookups."""

from __future__ import annotations

import pytest

from stepcache_integrations.bench import overhead_peers
from stepcache_integrations.bench.overhead_peers import MIN_PROBES, measure_peers, peer_sizes
from stepcache_integrations.bench.peer_tables import peer_hit_path_lines
from stepcache_integrations.bench.targets import hit_path_targets


def test_every_peer_is_filled_and_probed_through_its_own_api() -> None:
    figures = measure_peers(("gptcache", "sulci"), entries=300, probes=6)
    runs = {run["label"]: run for run in figures["runs"]}
    assert list(runs) == ["gptcache (SQLite + FAISS)", "sulci (FAISS)", "sulci (SQLite)"]
    for run in runs.values():
        (row,) = run["sizes"]
        assert row["size"] == row["entries"] == 300 and row["fill_s"] > 0
        # An identical prompt is always found (cosine 1), so every exact lookup hits.
        assert row["exact_hits"] == row["exact_probes"] == 6
        assert row["exact_median_s"] > 0 and row["exact_p95_s"] >= row["exact_median_s"]
        # A renamed variable is a near prompt: the peer serves the neighbour's answer.
        assert row["nearest_probes"] == 6 and row["nearest_hits"] > 0
        assert run["config"]["version"] and run["skipped"] == []
    assert "Cache.import_data" in runs["gptcache (SQLite + FAISS)"]["sizes"][0]["fill_how"]
    assert "LRU eviction at 1,000 entries" in runs["gptcache (SQLite + FAISS)"]["config"]["store"]


def test_what_takes_too_long_is_skipped_and_said_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(overhead_peers, "PEER_SIZES", (100, 200))
    monkeypatch.setattr(overhead_peers, "SULCI_FAISS_MAX_ENTRIES", 150)
    assert peer_sizes(300) == [100, 200, 300]
    figures = measure_peers(("sulci",), entries=300, probes=20, budget_s=0.0)
    faiss, sqlite = figures["runs"]
    assert [row["size"] for row in faiss["sizes"]] == [100]
    assert [s["size"] for s in faiss["skipped"]] == [200, 300]
    reason = faiss["skipped"][0]["reason"]
    assert "rewrites the whole index" in reason and "100 entries took" in reason
    assert "200 would take about" in reason
    # With no time budget, each kind of lookup stops after the minimum number of probes.
    assert [row["size"] for row in sqlite["sizes"]] == [100, 200, 300]
    assert all(row["exact_probes"] == MIN_PROBES for row in sqlite["sizes"])
    lines = "\n".join(peer_hit_path_lines({"sizes": [], "peers": figures}))
    assert "sulci (FAISS) at 200 entries: not measured: every store rewrites" in lines


def test_peer_sizes_are_ten_and_a_hundred_thousand() -> None:
    assert peer_sizes(100_000) == [10_000, 100_000]
    assert peer_sizes(10_000) == [10_000]
    assert peer_sizes(500) == [500]


def _overhead(wrapper_exact: float, wrapper_nearest: float) -> dict[str, object]:
    return {
        "measured_at": "now",
        "sizes": [
            {"size": 10_000, "entries": 10_186, "exact_median_s": 0.00002,
             "nearest_median_s": 0.003, "exact_p95_s": 0.00003, "nearest_p95_s": 0.004,
             "wrapper_exact_median_s": wrapper_exact, "wrapper_exact_p95_s": wrapper_exact,
             "wrapper_nearest_median_s": wrapper_nearest,
             "wrapper_nearest_p95_s": wrapper_nearest},
        ],
        "peers": {
            "what": "lookups",
            "runs": [
                {"label": "gptcache (SQLite + FAISS)", "skipped": [],
                 "sizes": [{"size": 10_000, "nearest_median_s": 0.005, "nearest_p95_s": 0.006,
                            "nearest_hits": 5, "nearest_probes": 5, "exact_median_s": 0.005,
                            "exact_p95_s": 0.006, "exact_hits": 5, "exact_probes": 5,
                            "fill_s": 1.0, "fill_how": "in batches"}]},
                {"label": "sulci (FAISS)", "skipped": [],
                 "sizes": [{"size": 10_000, "nearest_median_s": 0.003, "nearest_p95_s": 0.004,
                            "nearest_hits": 5, "nearest_probes": 5, "exact_median_s": 0.003,
                            "exact_p95_s": 0.004, "exact_hits": 5, "exact_probes": 5,
                            "fill_s": 60.0, "fill_how": "one by one"}]},
            ],
        },
    }  # fmt: skip


def test_stepcache_hits_must_beat_the_fastest_peer_nearest_lookup() -> None:
    targets = {t.name: t for t in hit_path_targets(_overhead(0.0002, 0.0045))}
    exact = targets[
        "hit path at 10,000 entries: StepCache exact hit faster than every peer's nearest lookup"
    ]
    nearest = targets[
        "hit path at 10,000 entries: StepCache nearest hit faster than every peer's nearest lookup"
    ]
    assert exact.limit == 0.003 and exact.measured == 0.0002 and exact.met is True
    assert nearest.measured == 0.0045 and nearest.met is False  # sulci's 3 ms is faster
    assert "fastest peer (sulci (FAISS))" in nearest.note and "gptcache" in nearest.note
    assert nearest.by.startswith("missed by 1.50 ms")
    faster = {t.name: t.met for t in hit_path_targets(_overhead(0.0002, 0.0025))}
    assert faster[nearest.name] is True
    lines = peer_hit_path_lines(_overhead(0.0002, 0.0045))
    assert "| 10,000 | sulci (FAISS) | 3.000 ms (p95 4.000 ms), 5/5 hits | " in "\n".join(lines)
    assert any(line.startswith("| 10,000 | StepCache, `StepCacheLLM.invoke` |") for line in lines)
