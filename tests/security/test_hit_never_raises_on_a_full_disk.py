"""Promise: a full disk never fails a request. Exact hits are served (their last-use updates
stay buffered), a new answer is served uncached, an expired entry that cannot be deleted is
still never served (the model answers), and the error says the disk is full, not that the
file may be corrupt. One warning per episode; writes resume once space is freed.

The attack: the disk holding the cache fills up. Simulated honestly with a 4 MiB tmpfs filled
to the last byte, so the kernel itself answers ``ENOSPC`` (SQLite: ``SQLITE_FULL``), as on a
real full disk. (``PRAGMA max_page_count`` would only refuse growing the database, not the
write-ahead-log appends every update and deletion needs.) Before, about every fifth exact hit
raised ``CacheFileError`` ("the file may be corrupt"), and deleting an expired entry made the
whole request raise without calling the model.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.stores import sqlite as sqlite_store
from stepcache_integrations.core.stores.errors import CacheDiskFullError, CacheFileError
from tests.reliability.support import NS, Model, ask, eq, key, local_store, solution_text
from tests.security.filesystems import fill, small_tmpfs


@pytest.fixture
def disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    # Every hit's buffered last-use update is due at once, so every hit tries to write it.
    monkeypatch.setattr(sqlite_store, "_TOUCH_DELAY", 0.0)
    with small_tmpfs(tmp_path / "disk") as mounted:
        yield mounted


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_exact_hits_and_new_answers_never_raise_on_a_full_disk(
    disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = StepCache(path=disk / "cache")
    for i in range(5):
        assert ask(cache, eq(i)).record.stored
    filler = fill(disk)
    model = Model()
    with caplog.at_level(logging.WARNING):
        for _ in range(6):
            for i in range(5):
                result = ask(cache, eq(i), model)
                assert result.record.decision == "exact"
                assert solution_text(i) in result.text
        assert model.calls == []
        for i in (40, 41, 42):  # new answers: served, not stored
            result = ask(cache, eq(i))
            assert result.passed and solution_text(i) in result.text
            assert result.record.stored is False
    warnings = warnings_of(caplog)
    assert len(warnings) == 1, warnings  # one episode, one warning
    assert "disk is full" in warnings[0] and "not damaged" in warnings[0]
    assert "corrupt" not in warnings[0]

    # The error itself has its own type and the right advice.
    entry = CacheEntry.create(NS, None, eq(43), [Step("x = 1")], "paragraph")
    with pytest.raises(CacheDiskFullError, match="disk is full") as error:
        local_store(cache).entries.put(entry)
    assert not isinstance(error.value, CacheFileError)
    assert "corrupt" not in str(error.value)

    filler.unlink()  # space is back: the file was never damaged
    with caplog.at_level(logging.WARNING):
        assert ask(cache, eq(40)).record.stored
    assert any("writes work again" in w for w in warnings_of(caplog))
    assert cache.check()["ok"]
    cache.close()
    with StepCache(path=disk / "cache") as reopened:
        assert ask(reopened, eq(40), Model()).record.decision == "exact"


def test_an_expired_entry_on_a_full_disk_is_answered_by_the_model(
    disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = StepCache(path=disk / "cache", ttl=60)
    assert ask(cache, eq(0)).record.stored
    entries = local_store(cache).entries
    stored = entries.get_by_key(key(eq(0)))
    assert stored is not None
    entries.put(replace(stored, created_at=stored.created_at - 3600))  # generated an hour ago
    filler = fill(disk)
    model = Model()
    with caplog.at_level(logging.WARNING):
        result = ask(cache, eq(0), model)  # deleting the expired entry fails: disk full
        assert result.passed and solution_text(0) in result.text
        assert result.record.decision not in ("exact", "reuse", "patch")  # never served stale
        assert len(model.calls) == 1
        # Opening another cache with a ttl purges expired entries: on a full disk it logs.
        with StepCache(path=disk / "cache", ttl=60) as another:
            assert another.store is not cache.store
    assert entries.get_by_key(key(eq(0))) is not None  # still there: the deletion failed
    assert all("corrupt" not in w for w in warnings_of(caplog))
    filler.unlink()
    assert cache.purge_expired() == 1
    cache.close()
