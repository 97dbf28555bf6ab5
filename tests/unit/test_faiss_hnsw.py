"""Tests of the approximate HNSW search path of :class:`FaissIndex` (above ``hnsw_threshold``).

A small threshold (500) keeps graphs small and the tests fast; the behaviour at 100,000 vectors
is measured by a script, not asserted here.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import numpy as np
import pytest

from stepcache_integrations import StructuralEmbedder
from stepcache_integrations.core.faiss_index import FaissIndex, sidecar_path
from stepcache_integrations.core.hnsw import HnswGraph

THRESHOLD = 500
DIM = 64


def _clustered(n: int, seed: int, clusters: int = 40, spread: float = 0.5) -> np.ndarray:
    """``n`` unit vectors scattered around ``clusters`` random centres (realistic embeddings
    are clustered; uniform random vectors would make every neighbour equally far)."""
    # The centres are fixed, so queries (another seed) come from the same distribution as the
    # data: a query far from every cluster has no meaningful nearest neighbour to recall.
    centres = np.random.default_rng(12345).standard_normal((clusters, DIM))
    rng = np.random.default_rng(seed)
    points = centres[rng.integers(0, clusters, n)] + spread * rng.standard_normal((n, DIM))
    unit: np.ndarray = (points / np.linalg.norm(points, axis=1, keepdims=True)).astype(np.float32)
    return unit


def _build(
    n: int, seed: int = 0, threshold: int | None = THRESHOLD, spread: float = 0.5
) -> FaissIndex:
    index = FaissIndex(DIM, hnsw_threshold=threshold)
    index.add([f"v{i}" for i in range(n)], _clustered(n, seed, spread=spread))
    return index


def _graph(index: FaissIndex) -> HnswGraph:
    graph = index._graph
    assert graph is not None, "expected the index to hold an HNSW graph"
    return graph


def _exact_top(index: FaissIndex, query: np.ndarray, k: int) -> list[tuple[str, float]]:
    """Brute-force reference from the stored vectors themselves (not FAISS)."""
    ids = index.ids()
    matrix = np.stack([index.vector(id_) for id_ in ids])  # type: ignore[misc]
    scores = matrix @ (query / np.linalg.norm(query))
    order = np.argsort(-scores, kind="stable")[:k]
    return [(ids[i], float(scores[i])) for i in order]


def _assert_well_formed(
    hits: list[tuple[str, float]], index: FaissIndex, query: np.ndarray
) -> None:
    """Sorted highest first, live ids only, each score the cosine of that id's vector."""
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True)
    unit = query / np.linalg.norm(query)
    for id_, score in hits:
        stored = index.vector(id_)
        assert stored is not None, f"{id_} returned but not stored"
        assert score == pytest.approx(float(stored @ unit), abs=1e-5)
        assert -1.0 <= score <= 1.0


# -- construction ---------------------------------------------------------------------------


@pytest.mark.parametrize("threshold", [0, -5, 2.5, True, "100"])
def test_rejects_bad_threshold(threshold: object) -> None:
    with pytest.raises(ValueError, match="hnsw_threshold"):
        FaissIndex(DIM, hnsw_threshold=threshold)  # type: ignore[arg-type]


def test_default_threshold_is_twenty_thousand() -> None:
    assert FaissIndex(DIM).hnsw_threshold == 20_000


def test_below_threshold_stays_exact() -> None:
    index = _build(THRESHOLD - 1)
    assert not index.approximate
    assert index._graph is None
    reference = _build(THRESHOLD - 1, threshold=None)
    for query in _clustered(20, seed=9):
        assert index.search(query, k=5) == reference.search(query, k=5)


def test_reaching_threshold_builds_the_graph_on_the_mutation() -> None:
    index = _build(THRESHOLD - 1)
    index.add(["last"], _clustered(1, seed=5))
    assert index.approximate
    graph = _graph(index)
    assert graph.nodes == THRESHOLD
    assert graph.tombstones == 0
    # Searching does not rebuild it.
    index.search(_clustered(1, seed=6)[0], k=3)
    assert index._graph is graph


def test_threshold_none_is_always_exact() -> None:
    index = _build(2000, threshold=None)
    assert not index.approximate
    assert index._graph is None
    for query in _clustered(30, seed=3):
        hits = index.search(query, k=4)
        expected = _exact_top(index, query, 4)
        assert [id_ for id_, _ in hits] == [id_ for id_, _ in expected]
        np.testing.assert_allclose([s for _, s in hits], [s for _, s in expected], atol=1e-5)


# -- recall and result shape ----------------------------------------------------------------


# Overlapping clusters (noise twice the centre's norm): recall@4 is about 0.90 with an
# efSearch of 16 and 0.997 with 64 here, so this fails if the search is made much cheaper.
HARD_SPREAD = 2.0


def test_recall_at_4_vs_exact_on_clustered_data() -> None:
    index = _build(4000, seed=1, spread=HARD_SPREAD)
    exact = _build(4000, seed=1, threshold=None, spread=HARD_SPREAD)
    assert index.approximate
    queries = _clustered(200, seed=2, spread=HARD_SPREAD)
    found = 0
    for query in queries:
        hits = index.search(query, k=4)
        _assert_well_formed(hits, index, query)
        truth = exact.search(query, k=4)
        # By score, not id: equal scores may come back in either order.
        found += sum(score >= truth[-1][1] - 1e-6 for _, score in hits)
    recall = found / (4 * len(queries))
    assert recall >= 0.95, f"recall@4 {recall:.3f}"


def test_stored_vector_finds_itself_inside_a_plateau() -> None:
    # JSON prompts differing only in quoted keys and a number embed into a plateau: hundreds of
    # vectors at nearly the same similarity to one another, where greedy graph search alone
    # misses the query's own vector (227 of these 4,000 times, measured with the exact-match
    # lookup disabled); the lookup must not.
    keys = ["name", "age", "email", "city", "country", "id"]
    keys += ["price", "title", "author", "year", "score", "status"]
    prompts = [
        "Return a JSON object with keys "
        + ", ".join(repr(keys[(j + 7 * s) % len(keys)]) for s in range(1 + j % 4))
        + f" for record {j}"
        for j in range(4000)
    ]
    vectors = StructuralEmbedder(DIM).embed(prompts)
    index = FaissIndex(DIM, hnsw_threshold=THRESHOLD)
    index.add([f"p{j}" for j in range(len(prompts))], vectors)
    assert index.approximate
    misses = [j for j in range(len(prompts)) if index.search(vectors[j], k=1)[0][1] < 1 - 1e-6]
    assert misses == []


def test_every_copy_of_a_duplicated_vector_is_returned() -> None:
    # Plain HNSW strands identical copies (its pruning drops every link to all but one); one
    # node per distinct vector carrying all their ids must return them all.
    index = _build(1500, seed=4)
    copy = _clustered(1, seed=11)
    copies = [f"copy{i}" for i in range(12)]
    for id_ in copies:  # one call each, as the cache adds entries
        index.add([id_], copy)
    assert _graph(index).nodes == 1501
    hits = index.search(copy[0], k=12)
    assert sorted(id_ for id_, _ in hits) == sorted(copies)
    assert all(score == pytest.approx(1.0) for _, score in hits)


def test_zero_vectors_are_safe_above_threshold() -> None:
    index = _build(THRESHOLD)
    index.add(["zero1", "zero2"], np.zeros((2, DIM)))
    hits = dict(index.search(np.zeros(DIM), k=3))
    assert all(score == 0.0 for score in hits.values())
    query = _clustered(1, seed=12)[0]
    assert all(not np.isnan(score) for _, score in index.search(query, k=10))


# -- tombstones, replacement, rebuild -------------------------------------------------------


def test_removed_ids_are_never_returned() -> None:
    index = _build(2000, seed=5)
    vectors = {id_: index.vector(id_) for id_ in index.ids()}
    removed = {f"v{i}" for i in range(0, 2000, 10)}  # 10%: tombstones, no rebuild
    graph = _graph(index)
    assert index.remove(sorted(removed)) == len(removed)
    assert index._graph is graph
    assert graph.tombstones == len(removed)
    for id_ in sorted(removed)[:60]:
        hits = index.search(vectors[id_], k=8)  # type: ignore[arg-type]
        assert len(hits) == 8
        assert not removed & {hit for hit, _ in hits}
        _assert_well_formed(hits, index, vectors[id_])  # type: ignore[arg-type]


def test_replaced_id_returns_its_new_vector() -> None:
    index = _build(1500, seed=6)
    old = index.vector("v7")
    assert old is not None
    new = _clustered(1, seed=13)[0]
    index.add(["v7"], new[None, :])
    assert len(index) == 1500
    assert _graph(index).tombstones == 1  # the old vector's node, unless shared
    [(id_, score)] = index.search(new, k=1)
    assert id_ == "v7"
    assert score == pytest.approx(1.0)
    for hit, score in index.search(old, k=10):
        if hit == "v7":
            assert score == pytest.approx(float(old @ new), abs=1e-5)
    np.testing.assert_allclose(index.vector("v7"), new, rtol=1e-6)  # type: ignore[arg-type]


def test_readding_a_removed_vector_revives_its_node() -> None:
    index = _build(1000, seed=7)
    vector = _clustered(1000, seed=7)[3]  # the same input, normalised to the same bits
    index.remove(["v3"])
    assert _graph(index).tombstones == 1
    index.add(["v3-again"], vector[None, :])
    assert _graph(index).tombstones == 0
    assert _graph(index).nodes == 1000
    [(id_, score)] = index.search(vector, k=1)
    assert id_ == "v3-again"
    assert score == pytest.approx(1.0)


def test_many_removals_rebuild_the_graph_on_the_mutation() -> None:
    index = _build(2000, seed=8)
    first = _graph(index)
    index.remove([f"v{i}" for i in range(400)])  # 20%: kept with tombstones
    assert index._graph is first
    assert first.tombstones == 400
    index.remove([f"v{i}" for i in range(400, 600)])  # 30% dead: rebuilt by this call
    rebuilt = _graph(index)
    assert rebuilt is not first
    assert rebuilt.nodes == 1400
    assert rebuilt.tombstones == 0
    assert index.approximate
    live = set(index.ids())
    for query in _clustered(40, seed=14):
        hits = index.search(query, k=4)
        assert {id_ for id_, _ in hits} <= live
        _assert_well_formed(hits, index, query)


def test_replacements_count_as_tombstones_for_rebuilding() -> None:
    index = _build(1000, seed=9)
    first = _graph(index)
    index.add([f"v{i}" for i in range(200)], _clustered(200, seed=15))  # 200 of 1200 dead
    assert index._graph is first
    index.add([f"v{i}" for i in range(200, 400)], _clustered(200, seed=16))  # 400 of 1400
    assert index._graph is not first
    assert _graph(index).nodes == 1000


def test_shrinking_below_threshold_is_exact_and_drops_the_graph_at_half() -> None:
    index = _build(THRESHOLD + 10, seed=10)
    graph = _graph(index)
    index.remove([f"v{i}" for i in range(20)])
    assert not index.approximate  # exact below the threshold, as before
    assert index._graph is graph  # but kept, so hovering at the threshold costs no rebuilds
    index.add(["back1", "back2"], _clustered(2, seed=17))
    assert len(index) == THRESHOLD - 8
    index.add([f"more{i}" for i in range(8)], _clustered(8, seed=18))
    assert index.approximate
    assert index._graph is graph
    index.remove(index.ids()[: THRESHOLD // 2 + 1])
    assert index._graph is None


def test_clear_drops_the_graph() -> None:
    index = _build(THRESHOLD)
    index.clear()
    assert index._graph is None
    assert index.search(np.ones(DIM), k=1) == []


# -- the allowed filter -----------------------------------------------------------------------


def test_allowed_filter_above_threshold() -> None:
    index = _build(3000, seed=11, spread=HARD_SPREAD)
    exact = _build(3000, seed=11, threshold=None, spread=HARD_SPREAD)

    def even(id_: str) -> bool:
        return int(id_[1:]) % 2 == 0

    found = 0
    queries = _clustered(50, seed=19, spread=HARD_SPREAD)
    for query in queries:
        hits = index.search(query, k=4, allowed=even)
        assert len(hits) == 4
        assert all(even(id_) for id_, _ in hits)
        _assert_well_formed(hits, index, query)
        truth = exact.search(query, k=4, allowed=even)
        found += sum(score >= truth[-1][1] - 1e-6 for _, score in hits)
    assert found / (4 * len(queries)) >= 0.95


def test_selective_allowed_falls_back_to_exact_and_asks_once_per_id() -> None:
    index = _build(3000, seed=12)
    wanted = {"v17", "v2021", "v2999"}
    calls: list[str] = []

    def allowed(id_: str) -> bool:
        calls.append(id_)
        return id_ in wanted

    query = _clustered(1, seed=20)[0]
    hits = index.search(query, k=5, allowed=allowed)
    assert [id_ for id_, _ in hits] == [id_ for id_, _ in _exact_top_among(index, query, wanted)]
    assert len(calls) == len(set(calls))
    assert index.search(query, k=2, allowed=lambda _: False) == []


def _exact_top_among(
    index: FaissIndex, query: np.ndarray, ids: set[str]
) -> list[tuple[str, float]]:
    unit = query / np.linalg.norm(query)
    scored = [(id_, float(np.asarray(index.vector(id_)) @ unit)) for id_ in ids]
    return sorted(scored, key=lambda item: -item[1])


# -- persistence ----------------------------------------------------------------------------


def test_save_load_round_trip_above_threshold(tmp_path: Path) -> None:
    index = _build(1500, seed=13)
    index.remove([f"v{i}" for i in range(100)])
    index.add(["v100"], _clustered(1, seed=21))  # a replacement: another tombstone
    path = tmp_path / "big.faiss"
    index.save(path)
    assert sorted(tmp_path.iterdir()) == sorted([path, sidecar_path(path)])  # no graph file

    loaded = FaissIndex.load(path, hnsw_threshold=THRESHOLD)
    assert loaded.approximate  # rebuilt by load, not by the first search
    assert _graph(loaded).nodes == 1400
    assert _graph(loaded).tombstones == 0
    assert loaded.ids() == index.ids()
    for query in _clustered(30, seed=22):
        got, want = loaded.search(query, k=4), index.search(query, k=4)
        _assert_well_formed(got, loaded, query)
        np.testing.assert_allclose([s for _, s in got], [s for _, s in want], atol=1e-5)

    exact = FaissIndex.load(path, hnsw_threshold=None)
    assert not exact.approximate
    assert exact._graph is None


def test_load_with_the_default_threshold_stays_exact_for_small_files(tmp_path: Path) -> None:
    index = _build(1500, seed=14)
    index.save(tmp_path / "i.faiss")
    loaded = FaissIndex.load(tmp_path / "i.faiss")
    assert loaded.hnsw_threshold == 20_000
    assert not loaded.approximate


# -- robustness -----------------------------------------------------------------------------


def test_a_failing_graph_update_leaves_exact_search_working(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    index = _build(1000, seed=15)

    def broken(self: HnswGraph, *args: object) -> None:
        raise MemoryError("simulated")

    monkeypatch.setattr(HnswGraph, "add", broken)
    new = _clustered(1, seed=23)
    with caplog.at_level(logging.WARNING):
        index.add(["late"], new)  # the flat index, the source of truth, still takes it
    assert "late" in index
    assert not index.approximate
    assert "HNSW" in caplog.text
    [(id_, score)] = index.search(new[0], k=1)
    assert id_ == "late"
    assert score == pytest.approx(1.0)
    monkeypatch.undo()
    index.add(["later"], _clustered(1, seed=24))  # the next mutation rebuilds it
    assert index.approximate
    assert _graph(index).nodes == 1002


def test_concurrent_mutations_and_searches_above_threshold() -> None:
    index = _build(1200, seed=16)
    errors: list[BaseException] = []
    removed: set[str] = set()
    removed_lock = threading.Lock()

    def writer(worker: int) -> None:
        try:
            rng = np.random.default_rng(worker)
            for i in range(60):
                index.add([f"w{worker}-{i}"], _clustered(1, seed=1000 * worker + i))
                # Two removals per add: enough tombstones to rebuild the graph mid-run.
                victims = [f"v{worker * 300 + 2 * i}", f"v{worker * 300 + 2 * i + 1}"]
                index.remove(victims)
                with removed_lock:
                    removed.update(victims)
                index.search(rng.standard_normal(DIM), k=4)
        except BaseException as exc:  # collected so the assertion below can report it
            errors.append(exc)

    def reader(worker: int) -> None:
        try:
            for query in _clustered(80, seed=500 + worker):
                hits = index.search(query, k=4, allowed=lambda id_: not id_.endswith("7"))
                assert len(hits) == 4
                assert all(not id_.endswith("7") for id_, _ in hits)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    threads += [threading.Thread(target=reader, args=(w,)) for w in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(index) == 1200 + 240 - 480
    assert _graph(index).nodes < 1200 + 240  # rebuilt at least once
    for query in _clustered(40, seed=25):
        hits = index.search(query, k=6)
        assert not removed & {id_ for id_, _ in hits}
        _assert_well_formed(hits, index, query)
