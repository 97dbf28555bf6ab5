"""Promise: a healthy cache that cannot be written is reported as read-only (never as "corrupt
or foreign"), with the fix named; ``SqliteStore(path, read_only=True)`` serves its hits and
never writes: new answers are served uncached (logged once), the index is not saved.

The attack: the cache directory is on a filesystem mounted read-only (a tmpfs remounted
``ro``: the kernel answers ``EROFS``), or the database file alone is read-only (a read-only
bind mount of the file, which binds root too). Before, opening it raised
``CacheFileError: not a readable SQLite database ... corrupt or foreign file``.
"""

from __future__ import annotations

import hashlib
import logging
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.directory import DB_NAME
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.errors import CacheFileError, CacheReadOnlyError
from tests.reliability.support import (
    ROOT,
    Model,
    ask,
    child_command,
    child_env,
    eq,
    read_raw,
    solution_text,
)
from tests.security.filesystems import read_only_bind, remount_read_only, small_tmpfs

COUNT = 6


def build(directory: Path) -> None:
    with StepCache(path=directory) as cache:
        for i in range(COUNT):
            assert ask(cache, eq(i)).record.stored


def files_of(directory: Path) -> dict[str, tuple[int, int, str]]:
    """Every file's size, modification time and content hash (read while nothing is open)."""
    return {
        str(path.relative_to(directory)): (
            path.stat().st_size,
            path.stat().st_mtime_ns,
            hashlib.sha256(read_raw(path)).hexdigest(),
        )
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def read_only_fs(tmp_path: Path) -> Iterator[Path]:
    with small_tmpfs(tmp_path / "mnt", size="16m") as mounted:
        build(mounted / "cache")
        remount_read_only(mounted)
        yield mounted / "cache"


def test_a_cache_on_a_read_only_filesystem_is_reported_read_only_with_the_fix(
    read_only_fs: Path,
) -> None:
    with pytest.raises(CacheReadOnlyError) as error:
        StepCache(path=read_only_fs)
    message = str(error.value)
    assert "read-only filesystem" in message
    assert "read_only=True" in message  # the fix, named
    assert "corrupt" not in message and "foreign" not in message
    assert not isinstance(error.value, CacheFileError)


def serves_read_only(directory: Path, caplog: pytest.LogCaptureFixture) -> None:
    with (
        caplog.at_level(logging.WARNING),
        StepCache(store=SqliteStore(directory, read_only=True)) as cache,
    ):
        model = Model()
        for _ in range(3):
            for i in range(COUNT):
                result = ask(cache, eq(i), model)
                assert result.record.decision == "exact"
                assert solution_text(i) in result.text
        assert model.calls == []
        near = ask(cache, eq(2, "w"))  # the index was loaded from the files
        assert near.record.decision in ("reuse", "patch") and near.record.stored is False
        for i in (40, 41, 42):  # new answers: served, refused by the store
            result = ask(cache, eq(i))
            assert result.passed and result.record.stored is False
        assert len(cache) == COUNT
        assert cache.check()["ok"]
        with pytest.raises(CacheReadOnlyError, match="read_only=True"):
            cache.save_index()
        with pytest.raises(CacheReadOnlyError, match="read_only=True"):
            cache.clear()
        assert len(cache) == COUNT
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, warnings  # stores refused: logged once
    assert "read_only=True" in warnings[0] and "corrupt" not in warnings[0]


def test_read_only_use_serves_hits_on_a_read_only_filesystem(
    read_only_fs: Path, caplog: pytest.LogCaptureFixture
) -> None:
    before = files_of(read_only_fs)
    serves_read_only(read_only_fs, caplog)
    assert files_of(read_only_fs) == before


def test_read_only_use_never_writes_the_cache_even_where_it_could(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    build(tmp_path)
    before = files_of(tmp_path)
    serves_read_only(tmp_path, caplog)
    after = files_of(tmp_path)
    # SQLite's shared-memory index (-shm) and an empty log (-wal) are how a reader of a WAL
    # database coordinates with writers: created empty, never holding data of ours.
    scratch = {f"{DB_NAME}-shm", f"{DB_NAME}-wal"}
    assert {name: v for name, v in after.items() if name not in scratch} == before
    assert after.get(f"{DB_NAME}-wal", (0,))[0] == 0


def test_a_read_only_database_file_is_reported_read_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with small_tmpfs(tmp_path / "mnt", size="16m") as mounted:
        directory = mounted / "cache"
        build(directory)
        with read_only_bind(directory / DB_NAME):
            with pytest.raises(CacheReadOnlyError, match="read_only=True") as error:
                StepCache(path=directory)
            assert "corrupt" not in str(error.value)
            serves_read_only(directory, caplog)


def test_read_only_needs_an_existing_cache(tmp_path: Path) -> None:
    with pytest.raises(CacheFileError, match="read_only=True opens an existing cache"):
        SqliteStore(tmp_path / "nothing-here", read_only=True)
    with pytest.raises(CacheFileError, match="read_only=True opens an existing cache"):
        SqliteStore(tmp_path, read_only=True)  # a directory without a cache
    with pytest.raises(TypeError, match="read_only"):  # an option of the store alone
        StepCache(read_only=True)  # type: ignore[call-overload]


def test_read_only_use_after_a_crash_serves_what_the_write_ahead_log_holds(
    tmp_path: Path,
) -> None:
    with small_tmpfs(tmp_path / "mnt", size="16m") as mounted:
        directory = mounted / "cache"
        # A writer acknowledges four entries and dies: they are in the log, not the file.
        writer = subprocess.run(
            child_command("store", str(directory), "0", "4", "--no-close"),
            cwd=ROOT,
            env=child_env(),
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        assert writer.stdout.count("ACK") == 4
        assert (directory / f"{DB_NAME}-wal").stat().st_size > 0
        remount_read_only(mounted)
        with StepCache(store=SqliteStore(directory, read_only=True)) as cache:
            model = Model()
            assert [ask(cache, eq(i), model).record.decision for i in range(4)] == ["exact"] * 4
            assert model.calls == []
