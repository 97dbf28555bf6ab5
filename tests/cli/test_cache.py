"""``stepcache cache`` on real caches: a SQLite directory and a Postgres database (started by the
tests), each filled through ``StepCacheLLM`` with the scripted model. Every test runs against
both stores."""

from __future__ import annotations

import sqlite3
import time
from collections import Counter
from pathlib import Path

import pytest

from stepcache_integrations import StepCache
from stepcache_integrations.core.stores.postgres import PostgresStore
from stepcache_integrations.core.stores.sqlite import SCHEMA_VERSION as SQLITE_SCHEMA
from tests.cli.cache_support import TENANTS, Location, run
from tests.postgres.fixtures import postgres_url, schema

__all__ = ["postgres_url", "schema"]


@pytest.fixture(params=["sqlite", "postgres"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Location:
    if request.param == "sqlite":
        path = tmp_path / "cache"
        return Location("sqlite", ["--path", str(path)], lambda: StepCache(path=path))
    url = request.getfixturevalue("postgres_url")
    name = request.getfixturevalue("schema")
    return Location(
        "postgres",
        ["--url", url, "--schema", name],
        lambda: StepCache(store=PostgresStore(url, schema=name)),
    )


def test_stats_lists_entries_per_tenant_and_namespace(
    where: Location, capsys: pytest.CaptureFixture[str]
) -> None:
    where.fill()
    cells = where.cells()
    assert len(cells) == 3 and sum(cells.values()) == 6
    done = run(capsys, "cache", "stats", *where.args, "--json")
    assert done.code == 0, done.err
    stats = done.json()
    assert stats["store"] == where.kind and stats["entries"] == 6
    shown = {
        (row["namespace"], row["tenant"]): row["entries"]
        for row in stats["by_namespace_and_tenant"]
    }
    assert shown == cells
    assert [(row["tenant"], row["entries"]) for row in stats["by_tenant"]] == [
        ("acme", 2), ("globex", 2), (None, 2)
    ]  # fmt: skip
    assert stats["size_bytes"] > 0 and stats["schema_version"] == SQLITE_SCHEMA
    text = run(capsys, "cache", "stats", *where.args)
    assert text.code == 0 and text.err == ""
    assert "entries: 6 in 3 namespace(s), 2 tenant(s) and entries without a tenant" in text.out
    for namespace, tenant in cells:
        row = next(line for line in text.out.splitlines() if line.startswith(namespace))
        assert row.split()[1:] == [tenant or "(no", *(["tenant)"] if tenant is None else []), "2"]


def test_the_hit_rate_is_the_fleets_on_postgres_and_not_invented_on_sqlite(
    where: Location, capsys: pytest.CaptureFixture[str]
) -> None:
    where.fill()  # 6 misses
    assert where.model_calls("acme") == 0  # served by the cache
    stats = run(capsys, "cache", "stats", *where.args, "--json").json()
    text = run(capsys, "cache", "stats", *where.args).out
    if where.kind == "postgres":
        served = Counter(where.decisions)  # what the processes saw, request by request
        fleet = stats["requests"]
        assert fleet["requests"] == len(where.decisions) == 8
        assert fleet["decisions"] == {d: served[d] for d in fleet["decisions"]}
        hits = served["exact"] + served["reuse"] + served["patch"]
        assert served["exact"] >= 1 and served["miss"] >= 3
        assert fleet["hit_rate"] == pytest.approx(hits / 8)
        assert f"hit rate: {hits / 8:.1%} (exact {served['exact']}," in text
        assert "requests: 8 (every process" in text
    else:
        assert stats["requests"] is None
        assert "not recorded" in stats["requests_note"] and "hit rate: not recorded" in text


def test_purge_asks_for_yes_and_deletes_nothing_without_it(
    where: Location, capsys: pytest.CaptureFixture[str]
) -> None:
    where.fill()
    before = where.cells()
    line = run(capsys, "cache", "purge", "--tenant", "acme", *where.args).error_line()
    assert line.startswith("stepcache cache purge: error: 2 entries of tenant 'acme' in ")
    assert line.endswith("would be deleted; nothing was deleted: add --yes to delete them")
    assert where.cells() == before


def test_purge_by_tenant_leaves_every_other_tenant_untouched(
    where: Location, capsys: pytest.CaptureFixture[str]
) -> None:
    where.fill()
    before = where.cells()
    done = run(capsys, "cache", "purge", "--tenant", "acme", *where.args, "--yes")
    assert done.code == 0, done.err
    assert done.out.startswith("deleted 2 entries of tenant 'acme' from ")
    after = where.cells()
    assert after == {cell: n for cell, n in before.items() if cell[1] != "acme"}
    assert where.model_calls("acme") > 0  # gone: the model answers again
    assert where.model_calls("globex") == 0 and where.model_calls(None) == 0  # still served


def test_no_tenant_deletes_only_the_entries_without_a_tenant(
    where: Location, capsys: pytest.CaptureFixture[str]
) -> None:
    where.fill()
    done = run(capsys, "cache", "purge", "--no-tenant", *where.args, "--yes", "--json")
    assert done.code == 0, done.err
    assert done.json()["deleted"] == 2 and done.json()["what"] == "entries without a tenant"
    assert where.per_tenant() == {"acme": 2, "globex": 2}
    again = run(capsys, "cache", "purge", "--no-tenant", *where.args)
    assert again.code == 0 and again.out.startswith("deleted 0 entries without a tenant")


def test_purge_by_namespace_with_and_without_its_tenant(
    where: Location, capsys: pytest.CaptureFixture[str]
) -> None:
    where.fill()
    cells = where.cells()
    (globex_ns,) = [ns for ns, tenant in cells if tenant == "globex"]
    # The namespace belongs to globex: asking for it with another tenant deletes nothing.
    wrong = run(capsys, "cache", "purge", "--namespace", globex_ns, "--tenant", "acme",
                *where.args, "--yes")  # fmt: skip
    assert wrong.code == 0 and wrong.out.startswith("deleted 0 entries")
    done = run(capsys, "cache", "purge", "--namespace", globex_ns, *where.args, "--yes")
    assert done.code == 0 and done.out.startswith(f"deleted 2 entries in namespace '{globex_ns}'")
    assert where.per_tenant() == {"acme": 2, None: 2}


def test_expire_deletes_exactly_the_entries_older_than_the_ttl(
    where: Location, capsys: pytest.CaptureFixture[str]
) -> None:
    where.fill(tenants=["acme", None])  # the old entries
    time.sleep(1.0)
    middle = time.time()
    time.sleep(1.0)
    where.fill(tenants=["globex"])  # the new ones
    ttl = f"{time.time() - middle:.3f}"  # older than this: stored before ``middle``
    asked = run(capsys, "cache", "expire", "--ttl", ttl, *where.args).error_line()
    assert f"4 entries stored more than {ttl} ago" in asked and "add --yes" in asked
    assert sum(where.per_tenant().values()) == 6
    done = run(capsys, "cache", "expire", "--ttl", ttl, *where.args, "--yes")
    assert done.code == 0 and done.out.startswith(f"deleted 4 entries stored more than {ttl} ago")
    assert where.per_tenant() == {"globex": 2}
    none = run(capsys, "cache", "expire", "--ttl", "1d", *where.args, "--yes")
    assert none.code == 0 and none.out.startswith("deleted 0 entries stored more than 1d ago")


def test_check_passes_on_a_healthy_cache_and_finds_a_corrupt_row(
    where: Location, capsys: pytest.CaptureFixture[str]
) -> None:
    where.fill()
    done = run(capsys, "cache", "check", *where.args)
    assert done.code == 0, done.out + done.err
    assert done.out.startswith("ok: ") and "rows: 6, readable 6" in done.out
    report = run(capsys, "cache", "check", *where.args, "--json").json()
    assert report["ok"] is True and report["entries"] == 6
    _corrupt_one_row(where)
    bad = run(capsys, "cache", "check", *where.args)
    assert bad.code == 1
    assert bad.out.startswith("PROBLEMS FOUND: ") and "unreadable rows: 1 (kept" in bad.out
    assert "rows: 6, readable 5" in bad.out


def _corrupt_one_row(where: Location) -> None:
    """Make one of acme's rows undecodable, behind the cache's back."""
    update = (
        "UPDATE {entries} SET payload = '{{' WHERE id = "
        "(SELECT id FROM {entries} WHERE tenant = {mark} ORDER BY id LIMIT 1)"
    )
    if where.kind == "sqlite":
        with sqlite3.connect(Path(where.args[1]) / "entries.sqlite") as conn:
            conn.execute(update.format(entries="entries", mark="?"), (b"acme",))
        return
    import psycopg

    url, name = where.args[1], where.args[3]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(update.format(entries=f'"{name}".entries', mark="%s"), (b"acme",))


@pytest.mark.parametrize("action", ["stats", "check"])
def test_stats_and_check_never_write_a_sqlite_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    path = tmp_path / "cache"
    where = Location("sqlite", ["--path", str(path)], lambda: StepCache(path=path))
    where.fill(TENANTS)

    def state() -> dict[str, bytes]:
        files = [
            path / "entries.sqlite",
            path / "stepcache.json",
            *sorted((path / "index").rglob("*")),
        ]
        return {str(f.relative_to(path)): f.read_bytes() for f in files if f.is_file()}

    before = state()
    done = run(capsys, "cache", action, *where.args)
    assert done.code == 0, done.err
    assert state() == before  # SQLite's own -shm file of a reader aside, nothing changed


def test_check_reports_a_corrupt_index_file_and_stats_still_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cache"
    where = Location("sqlite", ["--path", str(path)], lambda: StepCache(path=path))
    where.fill()
    (path / "index" / "manifest.json").write_text("{ not json")
    bad = run(capsys, "cache", "check", *where.args)
    assert bad.code == 1 and bad.out.startswith("PROBLEMS FOUND: ")
    assert "rows: 6, readable 6; SQLite integrity: ok" in bad.out
    assert "index: " in bad.out and "corrupt index manifest" in bad.out
    assert "on_corrupt_index='rebuild'" in bad.out  # what to do about it
    stats = run(capsys, "cache", "stats", *where.args, "--json")
    assert stats.code == 0 and stats.json()["entries"] == 6
    assert (path / "index" / "manifest.json").read_text() == "{ not json"  # left as found
