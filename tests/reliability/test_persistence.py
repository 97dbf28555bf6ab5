"""Persistence: durable once stored, served by a new process, index files derived from SQLite."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.configuration import ConfigurationError
from stepcache_integrations.core.embeddings import StructuralEmbedder, Vectors
from stepcache_integrations.core.stores.directory import DB_NAME, INDEX_DIR, MANIFEST_NAME
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.local import MemoryStore
from stepcache_integrations.core.stores.memory import MemoryEntryStore
from tests.reliability.support import (
    Model,
    acks_of,
    ask,
    eq,
    key,
    read_raw,
    run_child,
    served_by_a_new_process,
    solution_text,
)


class CountingEmbedder:
    """StructuralEmbedder that counts the texts it embeds (proves what was re-embedded)."""

    def __init__(self, dim: int = 512) -> None:
        self.inner = StructuralEmbedder(dim)
        self.texts = 0

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.texts += len(texts)
        return self.inner.embed(texts)


def test_an_entry_is_durable_once_stored_and_a_new_process_serves_it(tmp_path: Path) -> None:
    # The writer exits with os._exit right after its acknowledgements: no close(), no index
    # file, nothing flushed beyond what each store call did before returning.
    acked = acks_of(run_child("store", str(tmp_path), "0", "5", "--no-close"))
    assert acked == [0, 1, 2, 3, 4]
    assert not (tmp_path / INDEX_DIR / MANIFEST_NAME).exists()

    served = served_by_a_new_process(tmp_path, acked)
    assert [s["decision"] for s in served] == ["exact"] * 5
    assert all(s["calls"] == 0 for s in served)


def test_reopen_loads_the_index_files_instead_of_reembedding(tmp_path: Path) -> None:
    with StepCache(store=SqliteStore(tmp_path, embedder=CountingEmbedder())) as cache:
        for i in range(30):
            assert ask(cache, eq(i)).record.stored
    embedder = CountingEmbedder()
    with StepCache(store=SqliteStore(tmp_path, embedder=embedder)) as cache:
        assert len(cache) == 30
        assert embedder.texts == 1  # the probe that identifies the embedder, nothing else
        model = Model()
        assert ask(cache, eq(3), model).record.decision == "exact"
        renamed = ask(cache, eq(3, "k"), model)
        # Every eq(i) embeds alike (numbers are masked): the nearest neighbour found through
        # the loaded file is some cached equation (then reused, patched or skipped), never a miss.
        assert renamed.record.decision != "miss"
        assert renamed.record.similarity is not None and renamed.record.similarity > 0.9
        assert solution_text(3, "k") in renamed.text
        assert cache.check()["ok"]


def test_entries_stored_after_the_last_index_save_are_indexed_at_open(tmp_path: Path) -> None:
    # A writer saves its index after 5 entries, stores 4 more and dies (os._exit, no close):
    # the index files miss entries 5..8.
    writer = run_child("store", str(tmp_path), "0", "9", "--save-every", "5", "--no-close")
    assert acks_of(writer) == list(range(9))
    embedder = CountingEmbedder()
    with StepCache(store=SqliteStore(tmp_path, embedder=embedder)) as reopened:
        assert embedder.texts == 1 + 4  # the probe and the four missing prompts
        report = reopened.check()
        assert report["ok"] and report["index"]["entries"] == 9


def test_a_changed_embedder_reembeds_every_entry(tmp_path: Path) -> None:
    with StepCache(path=tmp_path) as cache:
        for i in range(10):
            ask(cache, eq(i))
    embedder = CountingEmbedder(dim=128)
    with StepCache(store=SqliteStore(tmp_path, embedder=embedder)) as cache:
        assert embedder.texts == 1 + 10
        assert cache.check()["ok"]
        assert ask(cache, eq(4, "q")).record.decision != "miss"


def test_saving_links_unchanged_namespaces_and_collects_old_generations(tmp_path: Path) -> None:
    cache = StepCache(path=tmp_path)
    ask(cache, eq(0))
    ask(cache, eq(0), namespace="other-namespace")
    cache.save_index()
    first = {p.name: p.stat().st_ino for p in (tmp_path / INDEX_DIR).glob("g*/*.faiss")}
    ask(cache, eq(1))  # changes the default namespace only
    cache.save_index()
    generations = sorted((tmp_path / INDEX_DIR).glob("g*"))
    assert len(generations) == 2
    newest = json.loads((tmp_path / INDEX_DIR / MANIFEST_NAME).read_text())["generation"]
    second = {p.name: p.stat().st_ino for p in (tmp_path / INDEX_DIR / newest).glob("*.faiss")}
    assert len(set(first.values()) & set(second.values())) == 1  # one file reused by hard link
    old = next(g for g in generations if g.name != newest)
    os.utime(old, (0, 0))  # older than the grace period readers get
    ask(cache, eq(2))
    cache.save_index()
    assert not old.exists()
    cache.close()


def test_close_is_idempotent_and_a_closed_cache_refuses_work(tmp_path: Path) -> None:
    cache = StepCache(path=tmp_path)
    ask(cache, eq(0))
    cache.close()
    cache.close()
    with pytest.raises(RuntimeError, match="closed"):
        len(cache)


def test_invalid_persistence_arguments_are_clear_errors(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(
        ConfigurationError, match="is a file; a cache path names a directory"
    ) as error:
        StepCache(path=a_file)
    assert error.value.argument == "path" and str(a_file) in str(error.value)
    with pytest.raises(ConfigurationError, match="give one of store=, path=, url= or index="):
        StepCache(path=tmp_path / "c", store=MemoryStore())  # type: ignore[call-overload]
    assert not (tmp_path / "c").exists()  # refused before anything is opened
    with pytest.raises(ConfigurationError, match="entry store: pair it with a vector index"):
        StepCache(store=MemoryEntryStore())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="on_corrupt_index"):
        SqliteStore(tmp_path / "d", on_corrupt_index="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="durability"):
        SqliteStore(tmp_path / "e", durability="fast")  # type: ignore[arg-type]
    memory = StepCache()
    assert memory.path is None
    with pytest.raises(RuntimeError, match="in memory"):
        memory.reload()
    memory.close()  # nothing to close: allowed


def test_no_pickle_files_anywhere(tmp_path: Path) -> None:
    with StepCache(path=tmp_path) as cache:
        ask(cache, eq(0))
    for file in tmp_path.rglob("*"):
        if file.is_file() and file.suffix == ".json":
            json.loads(file.read_text())  # every metadata file is plain JSON
    names = {p.name for p in tmp_path.rglob("*") if p.is_file()}
    assert DB_NAME in names
    assert not any(n.endswith((".pkl", ".pickle")) for n in names)
    db_bytes = read_raw(tmp_path / DB_NAME)
    assert b"\x80\x04\x95" not in db_bytes  # no pickle protocol-4 frame stored as a value


def test_durability_normal_is_accepted_and_persists(tmp_path: Path) -> None:
    with StepCache(store=SqliteStore(tmp_path, durability="normal")) as cache:
        ask(cache, eq(0))
    with StepCache(path=tmp_path) as cache:
        assert cache.store.get_by_key(key(eq(0))) is not None
        assert np.isfinite(cache.stats()["memory"]["bytes_per_entry"])
