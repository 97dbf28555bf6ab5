"""Several caches on one directory: in one process they share one store; across processes no
exit, crash or second cache loses an acknowledged entry.

The data-loss report this defends: a process with two ``StepCache`` objects on one directory
lost every entry it stored after another process exited normally. Opening the second cache
read the database header with ``open()`` and closed it, which (POSIX) released all of the
process's locks on the file, SQLite's included; the other process, seeing no other user,
checkpointed and deleted the write-ahead log the first process was still writing to.
"""

from __future__ import annotations

import gc
import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.embeddings import StructuralEmbedder, Vectors
from stepcache_integrations.core.stores import directory_registry, sqlite_files
from stepcache_integrations.core.stores.directory import (
    DB_NAME,
    INDEX_DIR,
    MANIFEST_NAME,
    salvage_database,
)
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.sqlite import SqliteEntryStore
from tests.reliability.support import (
    Model,
    acks_of,
    ask,
    eq,
    key,
    local_store,
    run_child,
    served_by_a_new_process,
)


def quick_check(db: Path) -> list[str]:
    conn = sqlite3.connect(db)  # through SQLite: safe next to this process's connections
    try:
        return [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]
    finally:
        conn.close()


def posix_locks_on(db: Path) -> int:
    """POSIX locks this process holds on ``db`` (Linux ``/proc/locks``)."""
    inode = os.stat(db).st_ino
    count = 0
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "POSIX" in fields and str(os.getpid()) in fields:
            device_inode = next(f for f in fields if f.count(":") == 2)
            count += device_inode.endswith(f":{inode}")
    return count


# -- the reported sequence ------------------------------------------------------------------------


def test_a_second_cache_then_another_process_exiting_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / DB_NAME
    # 1. Process A (this one) opens a cache and serves some requests.
    first = StepCache(path=tmp_path)
    for i in range(5):
        assert ask(first, eq(i)).record.stored
    # 2. Process A opens a second cache on the same directory.
    second = StepCache(path=tmp_path)
    # 3. Process B opens the directory, stores entries and exits normally.
    assert acks_of(run_child("store", str(tmp_path), "1000", "5")) == list(range(1000, 1005))
    # 4. Process A keeps serving through its first cache, and stores.
    for i in range(5, 10):
        assert ask(first, eq(i)).record.stored
    everything = [*range(10), *range(1000, 1005)]
    model = Model()
    assert [ask(first, eq(i), model).record.decision for i in everything] == ["exact"] * 15
    assert model.calls == []

    # Every entry, A's later ones included, is in the file other processes read...
    served = served_by_a_new_process(tmp_path, everything)
    assert [s["decision"] for s in served] == ["exact"] * 15
    assert sum(s["calls"] for s in served) == 0
    # ...a fresh connection in A sees a sound database, and the log A uses was not deleted.
    assert quick_check(db) == ["ok"]
    assert (tmp_path / f"{DB_NAME}-wal").exists()
    second.close()
    first.close()
    with StepCache(store=SqliteStore(tmp_path, on_corrupt_index="error")) as reopened:
        assert len(reopened) == 15
        assert reopened.check()["ok"]


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="reads Linux's /proc/locks")
def test_opening_a_second_cache_keeps_the_process_locks(tmp_path: Path) -> None:
    db = tmp_path / DB_NAME
    first = StepCache(path=tmp_path)
    ask(first, eq(0))
    held = posix_locks_on(db)
    assert held >= 1  # SQLite's shared lock of the open connections
    second = StepCache(path=tmp_path)
    direct = SqliteEntryStore(db)  # even a store opened by hand, next to the caches
    assert direct.get_by_key(key(eq(0))) is not None
    assert posix_locks_on(db) >= held
    direct.close()
    second.close()
    assert posix_locks_on(db) >= held  # the first cache still holds its lock
    first.close()


def test_the_header_is_read_outside_sqlite_only_before_the_first_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / DB_NAME
    with StepCache(path=tmp_path) as cache:
        ask(cache, eq(0))
    reads: list[Path] = []
    real = sqlite_files.inspect_sqlite_file

    def counting(path: Path) -> None:
        reads.append(path)
        real(path)

    monkeypatch.setattr(sqlite_files, "inspect_sqlite_file", counting)
    first = StepCache(path=tmp_path)
    assert reads == [db]  # checked once, before any connection of this process
    second = StepCache(path=tmp_path)
    direct = SqliteEntryStore(db)
    assert reads == [db]  # never again while a connection is open
    assert sqlite_files.is_open_in_this_process(db)
    for opened in (direct, second, first):
        opened.close()
    assert not sqlite_files.is_open_in_this_process(db)
    StepCache(path=tmp_path).close()
    assert reads == [db, db]  # no connection was open: checked again


# -- one store per directory per process ------------------------------------------------------


def test_caches_on_one_directory_share_one_store_whatever_the_spelling(tmp_path: Path) -> None:
    real = tmp_path / "cache"
    link = tmp_path / "link"
    first = StepCache(path=real)
    link.symlink_to(real)
    others = [StepCache(path=link), StepCache(path=str(real) + "/"), StepCache(path=real / ".")]
    for other in others:
        assert local_store(other).entries is local_store(first).entries
        assert local_store(other).index is local_store(first).index
    ask(others[0], eq(0))
    assert ask(first, eq(0)).record.decision == "exact"
    for cache in (first, *others):
        cache.close()


class OtherEmbedder:
    dim = 512

    def embed(self, texts: Sequence[str]) -> Vectors:
        return StructuralEmbedder(dim=512).embed([text[::-1] for text in texts])


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"max_entries": 10}, "max_entries=10 (it is open with max_entries=None)"),
        ({"durability": "normal"}, "durability='normal' (it is open with durability='full')"),
        ({"read_only": True}, "read_only=True (it is open with read_only=False)"),
        ({"embedder": StructuralEmbedder(dim=256)}, "embedder StructuralEmbedder(dim=256)"),
        ({"embedder": OtherEmbedder()}, "embedder OtherEmbedder(dim=512)"),
    ],
    ids=["max_entries", "durability", "read_only", "embedder-dim", "embedder-type"],
)
def test_opening_an_open_directory_with_other_options_names_the_difference(
    tmp_path: Path, options: dict[str, object], named: str
) -> None:
    with StepCache(path=tmp_path) as first:
        with pytest.raises(ValueError, match="already open in this process") as error:
            SqliteStore(tmp_path, **options)  # type: ignore[arg-type]
        assert named in str(error.value)
        assert str(tmp_path) in str(error.value)
        # The same options, however spelled, join the open store.
        with StepCache(
            store=SqliteStore(tmp_path, embedder=StructuralEmbedder(), durability="full")
        ) as same:
            assert local_store(same).entries is local_store(first).entries
            # Options that do not change the store are free: ttl, policy, verifiers...
            with StepCache(
                store=SqliteStore(tmp_path, on_corrupt_index="rebuild"), ttl=60
            ) as other:
                assert local_store(other).entries is local_store(first).entries


def test_the_last_close_really_closes(tmp_path: Path) -> None:
    db = tmp_path / DB_NAME
    first, second = StepCache(path=tmp_path), StepCache(path=tmp_path)
    ask(first, eq(0))
    first.close()
    first.close()  # idempotent: counts once
    assert directory_registry.is_open(tmp_path) and sqlite_files.is_open_in_this_process(db)
    assert ask(second, eq(0)).record.decision == "exact"
    second.close()
    assert not directory_registry.is_open(tmp_path)
    assert not sqlite_files.is_open_in_this_process(db)
    # The last connection of any process checkpoints and removes the write-ahead log.
    assert not (tmp_path / f"{DB_NAME}-wal").exists()
    with StepCache(path=tmp_path) as third:  # a new store, not the closed one
        assert local_store(third).entries is not local_store(second).entries
        assert ask(third, eq(0)).record.decision == "exact"


def test_a_cache_dropped_without_close_releases_the_directory_when_collected(
    tmp_path: Path,
) -> None:
    dropped = StepCache(path=tmp_path)
    ask(dropped, eq(0))
    del dropped
    gc.collect()
    assert not directory_registry.is_open(tmp_path)
    assert not sqlite_files.is_open_in_this_process(tmp_path / DB_NAME)
    assert (tmp_path / INDEX_DIR / MANIFEST_NAME).exists()  # closed properly: index saved
    with StepCache(path=tmp_path) as cache:
        assert ask(cache, eq(0)).record.decision == "exact"


def test_a_forgotten_cache_never_keeps_the_last_close_from_closing(tmp_path: Path) -> None:
    main = StepCache(path=tmp_path)
    StepCache(path=tmp_path)  # e.g. a health check that never closes its cache
    gc.collect()
    ask(main, eq(0))
    main.close()
    assert not directory_registry.is_open(tmp_path)
    assert (tmp_path / INDEX_DIR / MANIFEST_NAME).exists()  # the last close saved the index


# -- a write-ahead log or database removed underneath ---------------------------------------------


@pytest.mark.parametrize("removed", ["wal", "database"])
def test_a_file_removed_underneath_stops_the_store_instead_of_acknowledging_lost_writes(
    tmp_path: Path, removed: str, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / DB_NAME
    cache = StepCache(path=tmp_path)
    assert ask(cache, eq(0)).record.stored
    if removed == "wal":  # what the other process did in the data-loss report
        os.unlink(f"{db}-wal")
        os.unlink(f"{db}-shm")
    else:  # a backup restored over the file, by hand
        copy = tmp_path / "restored.sqlite"
        copy.write_bytes(b"")
        os.replace(copy, db)
    with caplog.at_level(logging.WARNING):
        model = Model()
        results = [ask(cache, eq(i), model) for i in (1, 2, 0)]
    assert [r.record.stored for r in results] == [False, False, False]  # nothing acknowledged
    assert [r.record.decision for r in results] == ["bypass"] * 3  # the model answers
    assert len(model.calls) == 3
    what = "write-ahead log" if removed == "wal" else "database file was deleted or replaced"
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(what in w and "open it again" in w for w in warnings), warnings
    assert len(warnings) <= 2  # one for the lookups, one for the writes: not one per request
    cache.close()
    if removed == "wal":
        # Closing the last connection checkpointed what it had logged (SQLite's own close):
        # the entry acknowledged before the log was removed is in the file.
        with StepCache(path=tmp_path) as reopened:
            assert ask(reopened, eq(0), Model()).record.decision == "exact"
            assert ask(reopened, eq(1)).record.stored
            assert reopened.check()["ok"]


def test_salvage_refuses_a_database_open_in_this_process(tmp_path: Path) -> None:
    with StepCache(path=tmp_path) as cache:
        ask(cache, eq(0))
        with pytest.raises(RuntimeError, match="open in this process"):
            salvage_database(tmp_path)
        assert ask(cache, eq(0)).record.decision == "exact"
    assert salvage_database(tmp_path).recovered == 1
