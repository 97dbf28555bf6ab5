"""Audit counts and suspensions live in the store: two caches on one SQLite directory or one
Postgres database (a fleet) share one suspension; upgrading a database keeps every entry;
``stepcache cache audit`` reports what every process found."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from stepcache_integrations import StepCache
from stepcache_integrations.core.audit import AuditConfig
from stepcache_integrations.core.stores.postgres import PostgresStore
from stepcache_integrations.core.tasks import TaskRegistry
from tests.audit.squares import OracleModel, SquareFamily
from tests.audit.test_audit_core import serve
from tests.cli.cache_support import run
from tests.postgres.fixtures import postgres_url, schema

__all__ = ["postgres_url", "schema"]

CONFIG = AuditConfig(rate=1.0, seed=0, refresh_seconds=0.1)


@pytest.fixture(params=["sqlite", "postgres"])
def place(
    request: pytest.FixtureRequest, tmp_path: Path
) -> tuple[list[str], Callable[[], StepCache]]:
    """The command-line arguments of a store, and how to open a cache with audits on it."""
    registry = lambda: TaskRegistry([SquareFamily()])  # noqa: E731 - one per cache
    if request.param == "sqlite":
        path = tmp_path / "cache"
        return ["--path", str(path)], lambda: StepCache(path=path, tasks=registry(), audit=CONFIG)
    url = request.getfixturevalue("postgres_url")
    name = request.getfixturevalue("schema")
    return ["--url", url, "--schema", name], lambda: StepCache(
        store=PostgresStore(url, schema=name), tasks=registry(), audit=CONFIG
    )


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_two_caches_on_one_store_share_one_suspension(
    place: tuple[list[str], Callable[[], StepCache]], capsys: pytest.CaptureFixture[str]
) -> None:
    args, open_cache = place
    model = OracleModel()
    first, second = open_cache(), open_cache()
    try:
        serve(first, "Square 4.", model)
        assert serve(second, "Square 6.", model).record.decision == "reuse"  # type: ignore[attr-defined]
        serve(first, "Square 7.", model)  # wrong re-instantiation, audited by the first cache
        assert first.drain_audits(10)
        # The other cache (another process of the fleet) reads the suspension from the store.
        assert wait_for(lambda: "square/value" in second.audit_stats()["suspended"])  # type: ignore[index]
        assert serve(second, "Square 9.", model).record.decision == "skip"  # type: ignore[attr-defined]
        assert serve(second, "Square 4.", model).record.decision == "exact"  # other kinds go on
        report = {row["kind"]: row for row in second.audit_report()["kinds"]}
        assert report["square/value"]["disagreed"] == 1
    finally:
        first.close()
        second.close()
    done = run(capsys, "cache", "audit", *args, "--json")
    assert done.code == 0, done.err
    shown = done.json()
    assert [s["kind"] for s in shown["suspended"]] == ["square/value"]
    assert {row["kind"]: row["disagreed"] for row in shown["kinds"]}["square/value"] == 1
    text = run(capsys, "cache", "audit", *args)
    assert "square/value" in text.out and "Clopper-Pearson" in text.out
    refused = run(capsys, "cache", "audit", *args, "--resume", "square/value")
    assert refused.code == 2 and "nothing was changed" in refused.err
    lifted = run(capsys, "cache", "audit", *args, "--resume", "square/value", "--yes")
    assert lifted.code == 0 and "lifted 1 suspension" in lifted.out
    after = open_cache()
    try:
        assert after.audit_stats()["suspended"] == []  # type: ignore[index]
    finally:
        after.close()


def _fill(cache: StepCache) -> int:
    model = OracleModel()
    for n in range(2, 12):
        serve(cache, f"Square {n}.", model)
    return len(cache)


def test_a_sqlite_cache_of_schema_1_is_migrated_and_keeps_every_entry(tmp_path: Path) -> None:
    path = tmp_path / "cache"
    with StepCache(path=path, tasks=TaskRegistry([SquareFamily()])) as cache:
        before = _fill(cache)
    db = sqlite3.connect(path / "entries.sqlite")
    db.execute("DROP TABLE audit_counts")
    db.execute("DROP TABLE audit_suspensions")
    db.execute("UPDATE stepcache_meta SET value = '1' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    with StepCache(path=path, tasks=TaskRegistry([SquareFamily()]), audit=CONFIG) as cache:
        assert len(cache) == before
        serve(cache, "Square 2.", OracleModel())  # exact: audited, counted in the new tables
        assert cache.drain_audits(10)
        assert cache.audit_report()["kinds"][0]["agreed"] == 1
    db = sqlite3.connect(path / "entries.sqlite")
    (version,) = db.execute(
        "SELECT value FROM stepcache_meta WHERE key = 'schema_version'"
    ).fetchone()
    db.close()
    assert version == "2"


def test_a_postgres_cache_of_schema_1_is_migrated_and_keeps_every_entry(
    postgres_url: str, schema: str
) -> None:
    def open_cache(**audit: object) -> StepCache:
        return StepCache(
            store=PostgresStore(postgres_url, schema=schema),
            tasks=TaskRegistry([SquareFamily()]),
            **audit,  # type: ignore[arg-type]
        )

    with open_cache() as cache:
        before = _fill(cache)
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for table in ("audit_counts", "audit_suspensions"):
            conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(schema, table)))
        conn.execute(
            sql.SQL("UPDATE {} SET value = '1' WHERE key = 'schema_version'").format(
                sql.Identifier(schema, "meta")
            )
        )
    with open_cache(audit=CONFIG) as cache:
        assert len(cache) == before
        serve(cache, "Square 2.", OracleModel())
        assert cache.drain_audits(10)
        assert cache.audit_report()["kinds"][0]["agreed"] == 1
        assert cache.store.schema_version == 2  # type: ignore[attr-defined]
