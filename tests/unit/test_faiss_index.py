"""Tests of the framework-free FAISS cosine index."""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

import faiss
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from stepcache_integrations.core.faiss_index import FaissIndex, sidecar_path


def _unit(*values: float) -> np.ndarray:
    vector = np.asarray(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


@pytest.fixture
def index() -> FaissIndex:
    idx = FaissIndex(3)
    idx.add(["x", "y", "z"], np.eye(3, dtype=np.float32))
    return idx


# -- construction and validation ----------------------------------------------------------


@pytest.mark.parametrize("dim", [0, -1, 2.0, True, "3"])
def test_rejects_bad_dim(dim: object) -> None:
    with pytest.raises(ValueError, match="dim"):
        FaissIndex(dim)  # type: ignore[arg-type]


def test_add_rejects_dimension_mismatch(index: FaissIndex) -> None:
    with pytest.raises(ValueError, match="dimension mismatch"):
        index.add(["w"], np.ones((1, 4)))
    assert "w" not in index


def test_search_rejects_dimension_mismatch(index: FaissIndex) -> None:
    with pytest.raises(ValueError, match="dimension"):
        index.search(np.ones(4), k=1)


def test_add_rejects_count_mismatch(index: FaissIndex) -> None:
    with pytest.raises(ValueError, match="2 ids but 1 vectors"):
        index.add(["a", "b"], np.ones((1, 3)))


def test_add_rejects_duplicate_ids_in_one_call(index: FaissIndex) -> None:
    with pytest.raises(ValueError, match="duplicates"):
        index.add(["a", "a"], np.ones((2, 3)))
    assert len(index) == 3


def test_add_rejects_non_string_ids(index: FaissIndex) -> None:
    with pytest.raises(TypeError, match="str"):
        index.add([1], np.ones((1, 3)))  # type: ignore[list-item]
    with pytest.raises(TypeError, match="single str"):
        index.add("a", np.ones((1, 3)))


def test_add_rejects_non_finite(index: FaissIndex) -> None:
    with pytest.raises(ValueError, match="NaN"):
        index.add(["n"], np.array([[np.nan, 0.0, 1.0]]))
    assert "n" not in index


def test_add_rejects_non_numeric(index: FaissIndex) -> None:
    with pytest.raises(ValueError, match="numeric"):
        index.add(["n"], [["a", "b", "c"]])


@pytest.mark.parametrize("k", [0, -2, 1.5, True])
def test_search_rejects_bad_k(index: FaissIndex, k: object) -> None:
    with pytest.raises(ValueError, match="k must be a positive int"):
        index.search(np.ones(3), k=k)  # type: ignore[arg-type]


def test_add_nothing_is_a_no_op(index: FaissIndex) -> None:
    index.add([], np.empty((0, 3)))
    assert len(index) == 3


# -- search --------------------------------------------------------------------------------


def test_search_returns_cosine_highest_first(index: FaissIndex) -> None:
    hits = index.search(np.array([3.0, 4.0, 0.0]), k=3)
    assert [id_ for id_, _ in hits] == ["y", "x", "z"]
    assert [score for _, score in hits] == pytest.approx([0.8, 0.6, 0.0], abs=1e-6)


def test_scale_does_not_change_scores() -> None:
    idx = FaissIndex(2)
    idx.add(["small", "large"], np.array([[1.0, 1.0], [100.0, 0.0]]))
    hits = dict(idx.search(np.array([1000.0, 1000.0]), k=2))
    assert hits["small"] == pytest.approx(1.0)
    assert hits["large"] == pytest.approx(2**-0.5)


def test_scores_stay_within_cosine_range() -> None:
    idx = FaissIndex(3)
    vector = np.array([[0.1, 0.7, 0.3]], dtype=np.float32)
    idx.add(["a"], vector)
    idx.add(["b"], -vector)
    hits = dict(idx.search(vector[0], k=2))
    assert hits["a"] <= 1.0
    assert hits["b"] >= -1.0
    assert hits["a"] == pytest.approx(1.0)


def test_k_larger_than_size_returns_everything(index: FaissIndex) -> None:
    assert sorted(id_ for id_, _ in index.search(np.ones(3), k=10)) == ["x", "y", "z"]


def test_empty_index_search_returns_nothing() -> None:
    assert FaissIndex(3).search(np.ones(3), k=5) == []


def test_query_may_be_a_row_matrix(index: FaissIndex) -> None:
    assert index.search(np.array([[0.0, 0.0, 2.0]]), k=1)[0][0] == "z"


def test_zero_vectors_are_safe() -> None:
    idx = FaissIndex(2)
    idx.add(["zero", "one"], np.array([[0.0, 0.0], [1.0, 0.0]]))
    hits = dict(idx.search(np.array([1.0, 0.0]), k=2))
    assert hits == {"one": pytest.approx(1.0), "zero": 0.0}
    zero_query = idx.search(np.zeros(2), k=2)
    assert all(score == 0.0 for _, score in zero_query)
    stored = idx.vector("zero")
    assert stored is not None
    assert not np.isnan(stored).any()


# -- filtering -----------------------------------------------------------------------------


def _fan(n: int) -> FaissIndex:
    """``n`` unit vectors at increasing angles from (1, 0): id i is the i-th closest."""
    idx = FaissIndex(2)
    angles = np.linspace(0.0, np.pi, n)
    idx.add([f"id{i}" for i in range(n)], np.stack([np.cos(angles), np.sin(angles)], axis=1))
    return idx


def test_allowed_filters_ids() -> None:
    idx = _fan(10)
    hits = idx.search(np.array([1.0, 0.0]), k=2, allowed=lambda id_: id_ in {"id3", "id7"})
    assert [id_ for id_, _ in hits] == ["id3", "id7"]


def test_allowed_widens_until_k_hits_are_found() -> None:
    # Only the 3 farthest of 200 vectors are allowed: the first 4*k candidates hold none.
    idx = _fan(200)
    calls: list[str] = []

    def allowed(id_: str) -> bool:
        calls.append(id_)
        return int(id_[2:]) >= 197

    hits = idx.search(np.array([1.0, 0.0]), k=3, allowed=allowed)
    assert [id_ for id_, _ in hits] == ["id197", "id198", "id199"]
    # The predicate runs once per id however many times the search is widened.
    assert len(calls) == len(set(calls))


def test_allowed_stops_early_when_k_hits_are_near() -> None:
    idx = _fan(1000)
    calls: list[str] = []

    def allowed(id_: str) -> bool:
        calls.append(id_)
        return True

    assert len(idx.search(np.array([1.0, 0.0]), k=2, allowed=allowed)) == 2
    assert len(calls) <= 2 * 4


def test_allowed_returns_fewer_when_exhausted() -> None:
    idx = _fan(20)
    hits = idx.search(np.array([1.0, 0.0]), k=5, allowed=lambda id_: id_ == "id4")
    assert [id_ for id_, _ in hits] == ["id4"]
    assert idx.search(np.array([1.0, 0.0]), k=5, allowed=lambda _: False) == []


# -- mutation ------------------------------------------------------------------------------


def test_readding_an_id_replaces_it(index: FaissIndex) -> None:
    index.add(["x"], np.array([[0.0, 1.0, 1.0]]))
    assert len(index) == 3
    assert index.search(np.array([1.0, 0.0, 0.0]), k=3)[0][1] == pytest.approx(0.0, abs=1e-6)
    stored = index.vector("x")
    assert stored is not None
    np.testing.assert_allclose(stored, _unit(0.0, 1.0, 1.0), rtol=1e-6)


def test_remove_counts_and_ignores_unknown(index: FaissIndex) -> None:
    assert index.remove(["x", "nope", "x"]) == 1
    assert "x" not in index
    assert len(index) == 2
    assert all(id_ != "x" for id_, _ in index.search(np.array([1.0, 0.0, 0.0]), k=3))
    assert index.remove([]) == 0
    with pytest.raises(TypeError, match="single str"):
        index.remove("y")


def test_removed_id_can_be_added_again(index: FaissIndex) -> None:
    index.remove(["x"])
    index.add(["x"], np.array([[1.0, 0.0, 0.0]]))
    [(id_, score)] = index.search(np.array([1.0, 0.0, 0.0]), k=1)
    assert id_ == "x"
    assert score == pytest.approx(1.0)


def test_ids_contains_vector_and_clear(index: FaissIndex) -> None:
    assert index.ids() == ["x", "y", "z"]
    assert "y" in index
    assert 3 not in index
    assert index.vector("missing") is None
    index.clear()
    assert len(index) == 0
    assert index.ids() == []
    assert index.search(np.ones(3), k=1) == []
    index.add(["a"], np.ones((1, 3)))
    assert index.ids() == ["a"]


def test_vector_is_a_normalised_copy(index: FaissIndex) -> None:
    index.add(["w"], np.array([[2.0, 0.0, 0.0]]))
    stored = index.vector("w")
    assert stored is not None
    np.testing.assert_allclose(stored, [1.0, 0.0, 0.0])
    stored[0] = 42.0
    assert index.vector("w")[0] == pytest.approx(1.0)  # type: ignore[index]


def test_concurrent_adds_and_searches_are_consistent() -> None:
    idx = FaissIndex(4)
    rng = np.random.default_rng(0)
    errors: list[BaseException] = []

    def writer(worker: int) -> None:
        try:
            for i in range(50):
                idx.add([f"{worker}-{i}"], rng.random((1, 4)))
                idx.search(rng.random(4), k=3, allowed=lambda id_: id_.startswith(f"{worker}-"))
        except BaseException as exc:  # collected so the assertion below can report it
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(idx) == 300
    assert sorted(idx.ids()) == sorted(f"{w}-{i}" for w in range(6) for i in range(50))


@settings(max_examples=40, deadline=None)
@given(
    arrays(np.float32, (12, 5), elements=st.floats(-10, 10, width=32)),
    arrays(np.float32, (5,), elements=st.floats(-10, 10, width=32)),
    st.integers(1, 12),
)
def test_search_matches_brute_force_cosine(data: np.ndarray, query: np.ndarray, k: int) -> None:
    idx = FaissIndex(5)
    idx.add([str(i) for i in range(12)], data)

    def unit(m: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(m.astype(np.float64), axis=-1, keepdims=True)
        return np.asarray(np.divide(m, norms, out=np.zeros(m.shape), where=norms > 0))

    expected = np.sort(unit(data) @ unit(query))[::-1][:k]
    got = [score for _, score in idx.search(query, k=k)]
    np.testing.assert_allclose(got, expected, atol=1e-5)


# -- persistence ---------------------------------------------------------------------------


def test_save_load_round_trip(index: FaissIndex, tmp_path: Path) -> None:
    path = tmp_path / "nested" / "cache.faiss"
    index.save(path)
    assert path.is_file()
    assert sidecar_path(path).is_file()
    loaded = FaissIndex.load(path)
    assert loaded.dim == 3
    assert loaded.ids() == ["x", "y", "z"]
    query = np.array([3.0, 4.0, 1.0])
    assert loaded.search(query, k=3) == index.search(query, k=3)
    np.testing.assert_allclose(loaded.vector("y"), [0.0, 1.0, 0.0])  # type: ignore[arg-type]
    # New ids after a load must not collide with the loaded ones.
    loaded.add(["new"], np.array([[1.0, 1.0, 0.0]]))
    assert loaded.search(np.array([1.0, 0.0, 0.0]), k=1)[0][0] == "x"
    assert len(loaded) == 4
    assert sorted(tmp_path.joinpath("nested").iterdir()) == sorted([path, sidecar_path(path)])


def test_save_after_removals_round_trips(index: FaissIndex, tmp_path: Path) -> None:
    index.remove(["y"])
    index.add(["y2"], np.array([[0.0, 1.0, 0.0]]))
    index.save(tmp_path / "i.faiss")
    loaded = FaissIndex.load(tmp_path / "i.faiss")
    assert sorted(loaded.ids()) == ["x", "y2", "z"]
    assert loaded.search(np.array([0.0, 1.0, 0.0]), k=1)[0][0] == "y2"


def test_sidecar_is_plain_json(index: FaissIndex, tmp_path: Path) -> None:
    path = tmp_path / "i.faiss"
    index.save(path)
    meta = json.loads(sidecar_path(path).read_text(encoding="utf-8"))
    assert meta["format"] == "stepcache-faiss-index"
    assert set(meta["ids"]) == {"x", "y", "z"}


def test_load_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"absent\.faiss"):
        FaissIndex.load(tmp_path / "absent.faiss")


def test_load_missing_sidecar(index: FaissIndex, tmp_path: Path) -> None:
    path = tmp_path / "i.faiss"
    index.save(path)
    sidecar_path(path).unlink()
    with pytest.raises(ValueError, match=r"i\.faiss\.ids\.json"):
        FaissIndex.load(path)


def test_load_corrupt_index_file(index: FaissIndex, tmp_path: Path) -> None:
    path = tmp_path / "i.faiss"
    index.save(path)
    path.write_bytes(b"not a faiss index at all")
    with pytest.raises(ValueError, match=r"i\.faiss"):
        FaissIndex.load(path)


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe garbage",
        b"{not json",
        b"[1, 2, 3]",
        b'{"format": "something-else"}',
        b'{"format": "stepcache-faiss-index", "version": 99}',
        b'{"format": "stepcache-faiss-index", "version": 1, "dim": 3, "next_id": 1,'
        b' "ids": {"a": 5}, "index_sha256": "x"}',
        b'{"format": "stepcache-faiss-index", "version": 1, "dim": true, "next_id": 1,'
        b' "ids": {}, "index_sha256": "x"}',
    ],
)
def test_load_corrupt_or_foreign_sidecar(index: FaissIndex, tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "i.faiss"
    index.save(path)
    sidecar_path(path).write_bytes(content)
    with pytest.raises(ValueError, match=r"i\.faiss\.ids\.json"):
        FaissIndex.load(path)


def test_load_detects_mismatched_pair(index: FaissIndex, tmp_path: Path) -> None:
    # As if a crash happened between the two renames of a save: new index, old sidecar.
    path = tmp_path / "i.faiss"
    index.save(path)
    old_sidecar = sidecar_path(path).read_bytes()
    index.add(["w"], np.ones((1, 3)))
    index.save(path)
    sidecar_path(path).write_bytes(old_sidecar)
    with pytest.raises(ValueError, match="does not match its sidecar"):
        FaissIndex.load(path)


def test_load_rejects_foreign_faiss_index(tmp_path: Path) -> None:
    path = tmp_path / "foreign.faiss"
    foreign = faiss.IndexFlatL2(3)
    foreign.add(np.ones((1, 3), dtype=np.float32))
    faiss.write_index(foreign, str(path))
    meta = {
        "format": "stepcache-faiss-index",
        "version": 1,
        "dim": 3,
        "next_id": 1,
        "ids": {"a": 0},
        "index_sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }
    sidecar_path(path).write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ValueError, match=r"foreign\.faiss.*IndexIDMap2"):
        FaissIndex.load(path)


def test_load_rejects_sidecar_disagreeing_with_contents(index: FaissIndex, tmp_path: Path) -> None:
    path = tmp_path / "i.faiss"
    index.save(path)
    meta = json.loads(sidecar_path(path).read_text(encoding="utf-8"))
    meta["ids"] = {"x": 0, "y": 1}  # one id short of what FAISS holds
    sidecar_path(path).write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ValueError, match="disagree"):
        FaissIndex.load(path)


def test_failed_save_keeps_previous_files(
    index: FaissIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "i.faiss"
    index.save(path)
    index.add(["w"], np.ones((1, 3)))

    def broken_dump(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(json, "dump", broken_dump)
    with pytest.raises(OSError, match="disk full"):
        index.save(path)
    monkeypatch.undo()
    loaded = FaissIndex.load(path)
    assert sorted(loaded.ids()) == ["x", "y", "z"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["i.faiss", "i.faiss.ids.json"]
