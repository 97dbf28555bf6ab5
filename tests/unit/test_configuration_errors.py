"""Every constructor argument that cannot work is the package's own ``ConfigurationError`` (a
``ValueError``) naming the argument and what is wrong, raised before anything deep inside (the
database driver, the filesystem, a comparison) fails on it. No database is contacted: these
are all refused before a connection is tried."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from stepcache_integrations import ConfigurationError, StepCache
from stepcache_integrations.core.stores import MemoryStore, SqliteStore
from stepcache_integrations.core.stores.postgres import PoolSettings, PostgresStore
from stepcache_integrations.core.stores.sqlite import SqliteEntryStore
from tests.security.filesystems import remount_read_only, small_tmpfs

UNREACHABLE = "postgresql://app:secret@127.0.0.1:1/cache"  # valid, never contacted here

# (how the cache or a store is built, the argument named, what the message says)
ARGUMENTS: list[tuple[str, Callable[[], object], str, str]] = [
    ("url-text", lambda: StepCache(url="not a url"), "url", "neither a Postgres URL nor a libpq"),
    (
        "url-scheme",
        lambda: StepCache(url="mysql://app:secret@db/cache"),
        "url",
        "uses the mysql://",
    ),
    (
        "url-http",
        lambda: StepCache(url="http://db.example.com"),
        "url",
        "starts with postgresql://",
    ),
    ("url-empty", lambda: StepCache(url=""), "url", "is empty"),
    (
        "url-port",
        lambda: StepCache(url="postgresql://app@db:notaport/cache"),
        "url",
        "has the port 'notaport'",
    ),
    ("url-type", lambda: StepCache(url=5432), "url", "must be a string"),  # type: ignore[call-overload]
    ("path-empty", lambda: StepCache(path=""), "path", "is empty"),
    ("path-type", lambda: StepCache(path=5), "path", "must be a str or os.PathLike"),  # type: ignore[call-overload]
    ("path-proc", lambda: StepCache(path="/proc/stepcache"), "path", "/proc/stepcache cannot be"),
    ("ttl-negative", lambda: StepCache(ttl=-1), "ttl", "more than 0, got -1"),
    ("ttl-text", lambda: StepCache(ttl="7d"), "ttl", "must be a number of seconds, got '7d'"),  # type: ignore[call-overload]
    ("ttl-nan", lambda: StepCache(ttl=float("nan")), "ttl", "finite"),
    (
        "similarity_threshold",
        lambda: StepCache(similarity_threshold="high"),  # type: ignore[call-overload]
        "similarity_threshold",
        "must be a number in [-1, 1]",
    ),
    (
        "two-places",
        lambda: StepCache(path="/nonexistent/cache", url=UNREACHABLE),  # type: ignore[call-overload]
        "url",
        "give one of store=, path=, url= or index=",
    ),
    ("store-type", lambda: StepCache(store="memory"), "store", "must be a CacheStore"),  # type: ignore[arg-type]
    # The stores check their own options.
    (
        "max_entries-negative",
        lambda: MemoryStore(max_entries=-1),
        "max_entries",
        "at least 1, got -1",
    ),
    ("max_entries-zero", lambda: MemoryStore(max_entries=0), "max_entries", "got 0"),
    ("max_entries-fraction", lambda: MemoryStore(max_entries=2.5), "max_entries", "got 2.5"),  # type: ignore[arg-type]
    ("max_entries-bool", lambda: MemoryStore(max_entries=True), "max_entries", "got True"),
    (
        "read_only",
        lambda: SqliteStore("/nonexistent/stepcache", read_only="yes"),  # type: ignore[arg-type]
        "read_only",
        "must be True or False",
    ),
    (
        "sqlite-max_entries",
        lambda: SqliteStore("/nonexistent/stepcache", max_entries=0),
        "max_entries",
        "at least 1, got 0",
    ),
    (
        "schema",
        lambda: PostgresStore(UNREACHABLE, schema=""),
        "schema",
        "schema name is 1 to 63 bytes",
    ),
    (
        "max_size",
        lambda: PostgresStore(UNREACHABLE, pool=PoolSettings(max_size=0)),
        "max_size",
        "at least 1, got 0",
    ),
    ("lookup_budget-zero", lambda: PoolSettings(lookup_budget=0), "lookup_budget", "more than 0"),
    (
        "lookup_budget-inf",
        lambda: PoolSettings(lookup_budget=float("inf")),
        "lookup_budget",
        "finite",
    ),
]


@pytest.mark.parametrize(
    ("build", "argument", "says"),
    [case[1:] for case in ARGUMENTS],
    ids=[case[0] for case in ARGUMENTS],
)
def test_an_argument_that_cannot_work_is_a_configuration_error_naming_it(
    build: Callable[[], object], argument: str, says: str
) -> None:
    with pytest.raises(ConfigurationError) as raised:
        build()
    error = raised.value
    assert isinstance(error, ValueError)  # `except ValueError` keeps working
    assert error.argument == argument and str(error).startswith(f"{argument}: ")
    assert says in str(error), str(error)
    assert "secret" not in str(error)  # a password never shows


def test_bad_options_are_refused_before_anything_is_created(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="not path= and url="):
        StepCache(path=tmp_path / "cache", url=UNREACHABLE)  # type: ignore[call-overload]
    for options in ({"max_entries": 0}, {"durability": "fast"}, {"read_only": "yes"}):
        with pytest.raises(ConfigurationError):
            SqliteStore(tmp_path / "cache", **options)  # type: ignore[arg-type]
    assert os.listdir(tmp_path) == []


def test_store_options_are_no_longer_arguments_of_the_cache() -> None:
    """Every option of a store is the store's: the cache does not take them at all."""
    for option in ("max_entries", "embedder", "durability", "read_only", "on_corrupt_index"):
        with pytest.raises(TypeError, match=option):
            StepCache(**{option: None})
    for option in ("pool_size", "db_schema", "lookup_budget"):
        with pytest.raises(TypeError, match=option):
            StepCache(url=UNREACHABLE, **{option: None})


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
        SqliteStore(tmp_path / "cache", **kwargs)


def test_the_stores_check_their_own_arguments() -> None:
    with pytest.raises(ConfigurationError, match=r"^url: "):
        PostgresStore("not a url")
    with pytest.raises(ConfigurationError, match=r"^min_size: must be at most max_size"):
        PoolSettings(min_size=5, max_size=2)
    with pytest.raises(ConfigurationError, match=r"^write_timeout: "):
        PoolSettings(write_timeout=float("inf"))
    with pytest.raises(ConfigurationError, match=r"^read_timeout: "):
        SqliteEntryStore("unused.sqlite", read_timeout=-1)
