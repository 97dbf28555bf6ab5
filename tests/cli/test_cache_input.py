"""``stepcache cache`` with bad input: one clear line on stderr, exit code 2, nothing created or
deleted; and a Postgres password never printed, whatever happens."""

from __future__ import annotations

import tempfile
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from stepcache_integrations import StepCache
from stepcache_integrations.cli.cache_postgres import Redactor
from stepcache_integrations.core.stores.postgres import PostgresStore
from tests.cli.cache_support import Location, run
from tests.postgres.fixtures import postgres_url, schema
from tests.security.test_postgres_password_never_shows import with_password

__all__ = ["postgres_url", "schema"]


@pytest.fixture
def sqlite_cache(tmp_path: Path) -> Location:
    path = tmp_path / "cache"
    where = Location("sqlite", ["--path", str(path)], lambda: StepCache(path=path))
    where.fill()
    return where


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["stats"], "name the cache: --path DIR (StepCache(path=DIR)) or --url URL"),
        (["stats", "--path", "{path}", "--url", "postgresql://x@/y"],
         "give either --path (a SQLite cache) or --url (Postgres), not both"),
        (["check", "--path", "{path}", "--schema", "s"], "--schema applies to a Postgres cache"),
        (["purge", "--path", "{path}", "--yes"],
         "say which entries to delete: --tenant TENANT, --no-tenant or --namespace NS"),
        (["purge", "--tenant", "acme", "--no-tenant", "--path", "{path}", "--yes"],
         "give either --tenant or --no-tenant, not both"),
        (["purge", "--tenant", "", "--path", "{path}", "--yes"], "--tenant needs a name"),
        (["expire", "--ttl", "soon", "--path", "{path}", "--yes"],
         "--ttl takes seconds or a duration like 90s, 30m, 12h or 7d, got 'soon'"),
        (["expire", "--ttl", "0s", "--path", "{path}", "--yes"], "--ttl must be more than 0"),
        (["salvage", "--path", "{path}"],
         "salvaging {path} moves its entry database aside (kept as entries.sqlite.corrupt-<time>)"
         " and copies every readable entry into a new one; nothing was changed: stop every "
         "process using the cache, then add --yes"),
        (["salvage", "--url", "postgresql://x@/y", "--yes"],
         "salvage repairs a SQLite cache (--path); a Postgres database is restored from its own "
         "backups"),
    ],
)  # fmt: skip
def test_a_command_line_that_cannot_run_is_one_line_and_deletes_nothing(
    sqlite_cache: Location, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    before = sqlite_cache.cells()
    path = sqlite_cache.args[1]
    files = sorted(p.name for p in Path(path).iterdir())
    line = run(capsys, "cache", *(arg.format(path=path) for arg in argv)).error_line()
    message = message.format(path=path)
    assert line == f"stepcache cache {argv[0]}: error: {message}" or (
        line.startswith(f"stepcache cache {argv[0]}: error: {message}")
    )
    assert sqlite_cache.cells() == before
    assert sorted(p.name for p in Path(path).iterdir()) == files  # nothing moved aside


@pytest.mark.parametrize(
    "action", [["stats"], ["check"], ["purge", "--no-tenant", "--yes"], ["salvage", "--yes"]]
)
def test_a_directory_that_holds_no_cache_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: list[str]
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("mine")
    line = run(capsys, "cache", *action, "--path", str(empty)).error_line()
    assert f"{empty} holds no stepcache cache (stepcache.json is missing)" in line
    assert sorted(p.name for p in empty.iterdir()) == ["notes.txt"]  # nothing created
    missing = run(capsys, "cache", *action, "--path", str(tmp_path / "nope")).error_line()
    assert missing.endswith(f"{tmp_path / 'nope'} does not exist (--path names a cache directory)")
    assert not (tmp_path / "nope").exists()
    a_file = run(capsys, "cache", *action, "--path", str(empty / "notes.txt")).error_line()
    assert "is a file; --path names a cache directory" in a_file


def test_a_corrupt_cache_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cache"
    StepCache(path=path).close()
    (path / "entries.sqlite").write_bytes(b"this is not a database" * 10)
    line = run(capsys, "cache", "stats", "--path", str(path)).error_line()
    assert line.startswith("stepcache cache stats: error: ") and "entries.sqlite" in line


def test_a_schema_without_a_cache_is_refused_and_not_created(
    postgres_url: str, schema: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for action in (["stats"], ["purge", "--tenant", "acme", "--yes"]):
        line = run(capsys, "cache", *action, "--url", postgres_url, "--schema", schema).error_line()
        assert f"holds no stepcache cache in schema '{schema}'" in line
    with psycopg.connect(postgres_url) as conn:
        found = conn.execute(
            "SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (schema,)
        ).fetchone()
    assert found is None


def test_a_schema_of_another_application_is_refused(
    postgres_url: str, schema: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        for table in ("meta", "entries"):
            conn.execute(sql.SQL("CREATE TABLE {} (x int)").format(sql.Identifier(schema, table)))
    line = run(capsys, "cache", "stats", "--url", postgres_url, "--schema", schema).error_line()
    assert f"schema '{schema}' of " in line and "holds tables of another application" in line


SECRET = "s3cret-Pa55"
NOWHERE = tempfile.gettempdir() + "/sc-no-such-pg-socket-dir"


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://app:{SECRET}@/app?host={NOWHERE}",  # nothing listens there
        f"postgresql://app:{SECRET}@localhost:1/app",  # a port nothing listens on
        f"host={NOWHERE} user=app password={SECRET} dbname=app",  # the keyword form
        f"postgresql://app@/app?host={NOWHERE}&password={SECRET}",  # password as a parameter
        f"postgresql://app:{SECRET}@/app?host={NOWHERE}&bogus=1",  # libpq echoes bad options
    ],
)
def test_an_unreachable_database_is_one_line_without_the_password(
    capsys: pytest.CaptureFixture[str], url: str
) -> None:
    for action in (["stats"], ["check"], ["purge", "--tenant", "acme", "--yes"]):
        done = run(capsys, "cache", *action, "--url", url)
        line = done.error_line()
        assert SECRET not in done.err + done.out
        assert line.startswith(
            f"stepcache cache {action[0]}: error: cannot connect to the database "
        )


def test_the_password_never_shows_in_any_output(
    postgres_url: str, schema: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url, secret = with_password(postgres_url)
    where = Location(
        "postgres",
        ["--url", url, "--schema", schema],
        lambda: StepCache(store=PostgresStore(url, schema=schema)),
    )
    where.fill()
    outputs = []
    for argv in (
        ["stats"], ["stats", "--json"], ["check"], ["check", "--json"],
        ["purge", "--tenant", "acme"], ["purge", "--tenant", "acme", "--yes"],
        ["expire", "--ttl", "1d"], ["expire", "--ttl", "1d", "--yes", "--json"],
    ):  # fmt: skip
        done = run(capsys, "cache", *argv, *where.args)
        assert done.code in (0, 2), done.err
        outputs.append(done.out + done.err)
    shown = "\n".join(outputs)
    assert secret not in shown
    assert "***" in shown  # the location is shown, redacted


def test_the_redactor_removes_every_spelling_of_the_password() -> None:
    redact = Redactor("postgresql://app:p%40ss@db/app?sslpassword=x")
    assert redact("auth failed for postgresql://app:p%40ss@db/app?sslpassword=x") == (
        "auth failed for postgresql://app:***@db/app?sslpassword=x"
    )
    assert redact("password p@ss and p%40ss") == "password *** and ***"
    keyword = Redactor("host=db password='a b' dbname=app")
    assert "a b" not in keyword("conninfo host=db password='a b' dbname=app")
