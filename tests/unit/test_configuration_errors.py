"""Every constructor argument that cannot work is the package's own ``ConfigurationError`` (a
``ValueError``) naming the argument and what is wrong, raised before anything deep inside (the
database driver, the filesystem, a comparison) fails on it. No database is contacted: these
are all refused before a connection is tried."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from stepcache_integrations import ConfigurationError, StepCache
from stepcache_integrations.core.stores.postgres import PoolSettings, PostgresStore
from stepcache_integrations.core.stores.sqlite import SqliteEntryStore
from tests.security.filesystems import remount_read_only, small_tmpfs

UNREACHABLE = "postgresql://app:secret@127.0.0.1:1/cache"  # valid, never contacted here

# (keyword arguments of StepCache, the argument named, what the message says)
ARGUMENTS: list[tuple[dict[str, Any], str, str]] = [
    ({"url": "not a url"}, "url", "neither a Postgres URL nor a libpq connection string"),
    ({"url": "mysql://app:secret@db/cache"}, "url", "uses the mysql:// scheme"),
    ({"url": "http://db.example.com"}, "url", "a Postgres URL starts with postgresql://"),
    ({"url": ""}, "url", "is empty"),
    ({"url": "postgresql://app@db:notaport/cache"}, "url", "has the port 'notaport'"),
    ({"url": 5432}, "url", "must be a string"),
    ({"url": UNREACHABLE, "pool_size": 0}, "pool_size", "at least 1, got 0"),
    ({"url": UNREACHABLE, "db_schema": ""}, "db_schema", "schema name is 1 to 63 bytes"),
    ({"path": ""}, "path", "is empty"),
    ({"path": 5}, "path", "must be a str or os.PathLike"),
    ({"path": "/proc/stepcache"}, "path", "/proc/stepcache cannot be created"),
    ({"max_entries": -1}, "max_entries", "whole number of at least 1, got -1"),
    ({"max_entries": 0}, "max_entries", "got 0"),
    ({"max_entries": 2.5}, "max_entries", "got 2.5"),
    ({"max_entries": True}, "max_entries", "got True"),
    ({"ttl": -1}, "ttl", "more than 0, got -1"),
    ({"ttl": "7d"}, "ttl", "must be a number of seconds, got '7d'"),
    ({"ttl": float("nan")}, "ttl", "finite"),
    ({"similarity_threshold": "high"}, "similarity_threshold", "must be a number in [-1, 1]"),
    ({"lookup_budget": 0}, "lookup_budget", "more than 0, got 0"),
    ({"lookup_budget": float("inf")}, "lookup_budget", "finite"),
    ({"read_only": "yes", "path": "/nonexistent/cache"}, "read_only", "must be True or False"),
]


@pytest.mark.parametrize(
    ("kwargs", "argument", "says"), ARGUMENTS, ids=[f"{a}-{k}" for k, a, _ in ARGUMENTS]
)
def test_an_argument_that_cannot_work_is_a_configuration_error_naming_it(
    kwargs: dict[str, Any], argument: str, says: str
) -> None:
    with pytest.raises(ConfigurationError) as raised:
        StepCache(**kwargs)
    error = raised.value
    assert isinstance(error, ValueError)  # `except ValueError` keeps working
    assert error.argument == argument and str(error).startswith(f"{argument}: ")
    assert says in str(error), str(error)
    assert "secret" not in str(error)  # a password never shows


def test_a_mistyped_url_never_shows_its_password() -> None:
    with pytest.raises(ConfigurationError) as raised:
        StepCache(url="postgresql//app:secret@db/cache")  # the colon of the scheme is missing
    assert "secret" not in str(raised.value) and "app:***@db" in str(raised.value)


def test_paths_that_cannot_hold_a_cache_are_refused_and_left_alone(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    for path, says in [
        (a_file, f"{a_file} is a file; a cache path names a directory"),
        (a_file / "cache", f"{a_file / 'cache'} cannot be created: {a_file} is a file"),
    ]:
        with pytest.raises(ConfigurationError, match=r"^path: ") as raised:
            StepCache(path=path)
        assert says in str(raised.value)
    assert a_file.read_text() == "mine" and sorted(os.listdir(tmp_path)) == ["notes.txt"]
    with pytest.raises(ConfigurationError, match="is a directory; a SqliteEntryStore path"):
        SqliteEntryStore(tmp_path)


def test_a_new_cache_on_a_read_only_filesystem_names_the_path(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "mnt") as mounted:
        remount_read_only(mounted)
        with pytest.raises(ConfigurationError) as raised:
            StepCache(path=mounted / "cache")
        message = str(raised.value)
        assert message.startswith(f"path: {mounted / 'cache'} cannot be created: ")
        assert "read-only filesystem" in message
        assert "read_only=True" not in message  # nothing to read: that advice would mislead


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"durability": "fast"}, "durability"),
        ({"on_corrupt_index": "ignore"}, "on_corrupt_index"),
    ],
)
def test_options_of_a_cache_directory_are_checked(
    tmp_path: Path, kwargs: dict[str, Any], argument: str
) -> None:
    with pytest.raises(ConfigurationError, match=rf"^{argument}: must be one of "):
        StepCache(path=tmp_path / "cache", **kwargs)


def test_the_stores_check_their_own_arguments() -> None:
    with pytest.raises(ConfigurationError, match=r"^url: "):
        PostgresStore("not a url")
    with pytest.raises(ConfigurationError, match=r"^min_size: must be at most max_size"):
        PoolSettings(min_size=5, max_size=2)
    with pytest.raises(ConfigurationError, match=r"^write_timeout: "):
        PoolSettings(write_timeout=float("inf"))
    with pytest.raises(ConfigurationError, match=r"^read_timeout: "):
        SqliteEntryStore("unused.sqlite", read_timeout=-1)
