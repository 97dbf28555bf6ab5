"""Corrupt, truncated and foreign files; older and newer format versions; salvage.

Every failure names the file, never modifies it, and never loses an entry that can still be
read: the index is rebuilt from SQLite on request, unreadable rows are reported and kept, and a
damaged database is salvaged row by row into a new one while the damaged file is kept.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from stepcache_integrations.cli import app
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores import sqlite as sqlite_store
from stepcache_integrations.core.stores.directory import (
    DB_NAME,
    INDEX_DIR,
    MANIFEST_NAME,
    MARKER_NAME,
    IndexFileError,
)
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.stores.errors import CacheCorruptError
from stepcache_integrations.core.stores.sqlite import CacheFileError, SqliteEntryStore
from tests.reliability.support import (
    Model,
    ask,
    eq,
    key,
    local_store,
    read_raw,
    snapshot,
    solution_text,
    write_raw,
)


def build(directory: Path, count: int = 12) -> list[dict[str, object]]:
    with StepCache(path=directory) as cache:
        for i in range(count):
            assert ask(cache, eq(i)).record.stored
        return snapshot(cache)


def index_files(directory: Path) -> tuple[Path, Path]:
    manifest = json.loads((directory / INDEX_DIR / MANIFEST_NAME).read_text())
    folder = directory / INDEX_DIR / manifest["generation"]
    faiss_file = next(folder.glob("*.faiss"))
    return faiss_file, faiss_file.with_name(faiss_file.name + ".ids.json")


def assert_serves_everything(directory: Path, count: int) -> None:
    with StepCache(path=directory) as cache:
        model = Model()
        for i in range(count):
            assert ask(cache, eq(i), model).record.decision == "exact"
        assert model.calls == []
        assert ask(cache, eq(2, "w"), model).record.decision != "miss"  # the index works
        assert cache.check()["ok"]


# -- the SQLite database -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: b"this is not a database at all" * 200, "not a SQLite database"),
        (lambda b: b[: len(b) // 2], "truncated"),
        (lambda b: b[:1000], "truncated"),
        (lambda b: b[:60], "not a SQLite database"),
        (lambda b: b[:16] + b"\x00\x03" + b[18:], "corrupt SQLite header"),
    ],
    ids=["garbage", "half", "1000-bytes", "60-bytes", "bad-page-size"],
)
def test_a_damaged_database_is_a_clear_error_naming_it_and_left_untouched(
    tmp_path: Path, damage: object, message: str
) -> None:
    build(tmp_path, 40)
    db = tmp_path / DB_NAME
    assert callable(damage)
    write_raw(db, damage(read_raw(db)))
    before = read_raw(db)
    with pytest.raises(CacheFileError, match=message) as error:
        StepCache(path=tmp_path)
    assert error.value.path == db
    assert str(db) in str(error.value)
    assert read_raw(db) == before


def test_an_emptied_or_deleted_database_is_refused_not_silently_restarted(tmp_path: Path) -> None:
    build(tmp_path)
    db = tmp_path / DB_NAME
    write_raw(db, b"")
    with pytest.raises(CacheFileError, match="missing or empty") as error:
        StepCache(path=tmp_path)
    assert error.value.path == db
    db.unlink()
    with pytest.raises(CacheFileError, match="missing or empty"):
        StepCache(path=tmp_path)


def test_a_foreign_sqlite_database_is_refused_and_not_modified(tmp_path: Path) -> None:
    db = tmp_path / DB_NAME
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE users (name TEXT)")
    conn.execute("INSERT INTO users VALUES ('ada')")
    conn.commit()
    conn.close()
    before = read_raw(db)
    with pytest.raises(CacheFileError, match="another application") as error:
        StepCache(path=tmp_path)
    assert error.value.path == db
    assert read_raw(db) == before  # not even switched to WAL


def test_a_foreign_or_newer_directory_marker_is_refused(tmp_path: Path) -> None:
    build(tmp_path)
    marker = tmp_path / MARKER_NAME
    marker.write_text('{"format": "something-else", "version": 1}')
    with pytest.raises(CacheFileError, match="foreign") as error:
        StepCache(path=tmp_path)
    assert error.value.path == marker
    marker.write_text('{"format": "stepcache-directory", "version": 99}')
    with pytest.raises(CacheFileError, match="newer"):
        StepCache(path=tmp_path)
    marker.write_text("{not json")
    with pytest.raises(CacheFileError, match="corrupt cache marker"):
        StepCache(path=tmp_path)


def _set_schema_version(db: Path, version: str) -> None:
    conn = sqlite3.connect(db)
    conn.execute("UPDATE stepcache_meta SET value = ? WHERE key = 'schema_version'", (version,))
    conn.commit()
    conn.close()


def test_a_newer_schema_fails_with_a_clear_message(tmp_path: Path) -> None:
    build(tmp_path)
    _set_schema_version(tmp_path / DB_NAME, "7")
    with pytest.raises(CacheFileError, match=r"newer stepcache-integrations \(schema 7"):
        StepCache(path=tmp_path)


def test_an_older_schema_without_migration_fails_with_a_clear_message(tmp_path: Path) -> None:
    build(tmp_path)
    _set_schema_version(tmp_path / DB_NAME, "0")
    with pytest.raises(CacheFileError, match="schema 0, which this version"):
        StepCache(path=tmp_path)


def test_an_older_schema_is_migrated_and_keeps_every_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = build(tmp_path)
    # Pretend this package reads the next schema and knows how to migrate to it.
    calls: list[int] = []
    current = sqlite_store.SCHEMA_VERSION

    def migrate(conn: sqlite3.Connection) -> None:
        calls.append(1)
        conn.execute("CREATE TABLE notes (text TEXT)")

    monkeypatch.setattr(sqlite_store, "SCHEMA_VERSION", current + 1)
    monkeypatch.setitem(sqlite_store.MIGRATIONS, current, migrate)
    with StepCache(path=tmp_path) as cache:
        assert local_store(cache).entries.schema_version == current + 1  # type: ignore[attr-defined]
        assert snapshot(cache) == before
    with StepCache(path=tmp_path) as cache:  # already migrated: nothing runs again
        assert len(cache) == len(before)
    assert calls == [1]


def test_an_unsupported_schema_value_is_a_clear_error(tmp_path: Path) -> None:
    build(tmp_path)
    _set_schema_version(tmp_path / DB_NAME, "one")
    with pytest.raises(CacheFileError, match="corrupt schema version"):
        StepCache(path=tmp_path)


# -- rows that do not decode ----------------------------------------------------------------------


def _rewrite_payload(db: Path, entry_id: str, payload: str) -> None:
    conn = sqlite3.connect(db)
    conn.execute("UPDATE entries SET payload = ? WHERE id = ?", (payload, entry_id))
    conn.commit()
    conn.close()


def test_unreadable_rows_are_reported_skipped_and_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    build(tmp_path, 6)
    db = tmp_path / DB_NAME
    garbled, newer = key(eq(1))[:32], key(eq(2))[:32]
    _rewrite_payload(db, garbled, "{truncated")
    conn = sqlite3.connect(db)
    (payload,) = conn.execute("SELECT payload FROM entries WHERE id = ?", (newer,)).fetchone()
    conn.close()
    _rewrite_payload(db, newer, payload.replace('"format":1', '"format":2'))

    with caplog.at_level(logging.WARNING), StepCache(path=tmp_path) as cache:
        report = cache.check()
        assert not report["ok"]
        assert set(report["store"]["unreadable"]) == {garbled, newer}
        assert "not supported" in report["store"]["unreadable"][newer]
        assert report["store"]["rows"] == 6 and report["store"]["readable"] == 4
        assert len(cache) == 6  # counted as stored, never dropped
        model = Model()
        for i in (0, 3, 4, 5):
            assert ask(cache, eq(i), model).record.decision == "exact"
        assert model.calls == []
    assert garbled in caplog.text and "kept in the file" in caplog.text
    conn = sqlite3.connect(db)
    kept = {row[0] for row in conn.execute("SELECT id FROM entries")}
    conn.close()
    assert {garbled, newer} <= kept  # reading, checking and closing deleted nothing


def test_deleting_a_tenant_also_deletes_its_unreadable_rows(tmp_path: Path) -> None:
    with StepCache(path=tmp_path) as cache:
        ask(cache, eq(0), tenant="acme")
        ask(cache, eq(1), tenant="acme")
        ask(cache, eq(0), tenant="globex")
    with closing(SqliteEntryStore(tmp_path / DB_NAME)) as store:
        entry_id = next(e.id for e in store if e.tenant == "acme")
    _rewrite_payload(tmp_path / DB_NAME, entry_id, "garbage")
    with StepCache(path=tmp_path) as cache:
        assert cache.delete_tenant("acme") == 2
        assert len(cache) == 1
        assert [e.tenant for e in cache.store] == ["globex"]


# -- index files ----------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["faiss", "sidecar"])
@pytest.mark.parametrize("how", ["garbage", "truncated"])
def test_a_damaged_index_file_names_the_file_and_rebuild_loses_nothing(
    tmp_path: Path, which: str, how: str
) -> None:
    build(tmp_path)
    faiss_file, sidecar = index_files(tmp_path)
    target = faiss_file if which == "faiss" else sidecar
    data = target.read_bytes()
    target.write_bytes(b"\x00garbage\xff" * 50 if how == "garbage" else data[: len(data) // 2])
    with pytest.raises(IndexFileError) as error:
        StepCache(path=tmp_path)
    assert str(target) in str(error.value) or str(faiss_file) in str(error.value)
    assert "on_corrupt_index='rebuild'" in str(error.value)
    with StepCache(store=SqliteStore(tmp_path, on_corrupt_index="rebuild")) as cache:
        assert cache.check()["ok"]
        assert len(cache) == 12
    assert_serves_everything(tmp_path, 12)  # the rebuilt index files open strictly


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "corrupt index manifest"),
        ('{"format": "other"}', "foreign"),
        (
            '{"format": "stepcache-index", "version": 1, "generation": "../../etc",'
            ' "embedder": {"dim": 4, "probe": ""}, "namespaces": {}}',
            "malformed",
        ),
        ("MISSING-GENERATION", "missing"),
    ],
    ids=["not-json", "foreign", "path-traversal", "missing-generation"],
)
def test_a_bad_manifest_names_the_file_and_rebuild_recovers(
    tmp_path: Path, content: str, message: str
) -> None:
    build(tmp_path)
    manifest = tmp_path / INDEX_DIR / MANIFEST_NAME
    if content == "MISSING-GENERATION":  # a valid manifest whose files are gone
        data = json.loads(manifest.read_text())
        data["generation"] = "g1-0000abcd"
        content = json.dumps(data)
    manifest.write_text(content)
    with pytest.raises(IndexFileError, match=message) as error:
        StepCache(path=tmp_path)
    assert error.value.path.name == MANIFEST_NAME or error.value.path.suffix == ".faiss"
    with StepCache(store=SqliteStore(tmp_path, on_corrupt_index="rebuild")) as cache:
        assert cache.check()["ok"] and len(cache) == 12
    assert_serves_everything(tmp_path, 12)


def test_an_index_of_another_layout_version_is_rebuilt_without_error(tmp_path: Path) -> None:
    build(tmp_path)
    manifest = tmp_path / INDEX_DIR / MANIFEST_NAME
    data = json.loads(manifest.read_text())
    data["version"] = 0
    manifest.write_text(json.dumps(data))
    assert_serves_everything(tmp_path, 12)


def test_rebuild_index_on_demand(tmp_path: Path) -> None:
    build(tmp_path)
    with StepCache(path=tmp_path) as cache:
        assert cache.rebuild_index() == 12
        assert cache.check()["index"] == {"entries": 12, "missing": 0, "extra": 0}


# -- a damaged page: found, answered by the model, never written into, salvaged ----------------


def _page_size(data: bytes) -> int:
    size = int.from_bytes(data[16:18], "big")
    return 65536 if size == 1 else size


def middle_leaf(db: Path, btree: str) -> int:
    """The number (from 1) of the leaf page of ``btree`` (a table or an index) nearest to the
    middle of the file, as SQLite's ``dbstat`` lists it."""
    with closing(sqlite3.connect(db)) as conn:
        leaves = [
            int(page)
            for (page,) in conn.execute(
                "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf'", (btree,)
            )
        ]
    pages = len(read_raw(db)) // _page_size(read_raw(db))
    assert len(leaves) >= 2, leaves  # a page of the b-tree's own, not its root
    return min(leaves, key=lambda page: abs(page - pages / 2))


def page_bytes(db: Path, page: int) -> bytes:
    data = read_raw(db)
    size = _page_size(data)
    return data[(page - 1) * size : page * size]


def damage(db: Path, page: int) -> bytes:
    """Overwrite one whole page of the file (numbered from 1); the damaged file's bytes."""
    data = bytearray(read_raw(db))
    size = _page_size(data)
    data[(page - 1) * size : page * size] = b"\xa5" * size
    write_raw(db, bytes(data))
    return bytes(data)


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = app.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("btree", ["entries", "entries_key"], ids=["table", "index"])
def test_a_damaged_page_found_at_open_is_answered_by_the_model_and_never_written(
    tmp_path: Path,
    btree: str,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    build(tmp_path, 200)
    db = tmp_path / DB_NAME
    damaged = damage(db, middle_leaf(db, btree))

    # It opens (with a time to live: purging at open meets the damage too).
    with caplog.at_level(logging.WARNING), StepCache(path=tmp_path, ttl=86400) as cache:
        model = Model()
        served = [ask(cache, eq(i), model) for i in range(200)]
        new = ask(cache, eq(3, "y"), model)
        with pytest.raises(CacheCorruptError):
            cache.delete_tenant(None)  # an operator's write is refused too
    for i, result in enumerate(served):
        # Not one hit from the damaged file, although most of its pages are sound.
        assert result.record.decision == "bypass", (i, result.record)
        assert "the database is damaged" in result.record.reason
        assert solution_text(i) in result.text and not result.record.stored
    assert new.record.decision == "bypass" and not new.record.stored
    assert len(model.calls) == 201
    warnings = warnings_of(caplog)
    assert len(warnings) == 1, warnings  # one warning, not one per request or per write
    assert str(db) in warnings[0] and f"stepcache cache salvage --path {tmp_path}" in warnings[0]
    assert read_raw(db) == damaged  # nothing was written into the damaged file
    assert not Path(f"{db}-wal").exists()

    with StepCache(path=tmp_path) as cache:
        report = cache.check()
    assert report["ok"] is False
    assert report["store"]["integrity"] != "ok" and "salvage" in report["store"]["damage"]
    code, out, _err = cli(capsys, "cache", "check", "--path", str(tmp_path))
    assert code == 1 and out.startswith(f"PROBLEMS FOUND: {tmp_path}")
    assert "; SQLite integrity: " in out and "damaged: the database is damaged (SQLite" in out
    assert f"stepcache cache salvage --path {tmp_path} --yes" in out

    code, out, err = cli(capsys, "cache", "salvage", "--path", str(tmp_path), "--yes")
    assert code == 0, err
    [kept] = tmp_path.glob(f"{DB_NAME}.corrupt-*[0-9]")
    assert read_raw(kept) == damaged  # the damaged file is kept as it was
    recovered = int(out.split(" rows recovered")[0].rsplit(" ", 1)[1].replace(",", ""))
    if btree == "entries":
        assert 0 < recovered < 200  # the rows on the damaged page are gone with it
    else:
        assert recovered == 200  # an index page: every row is still readable
    with StepCache(path=tmp_path) as cache:
        assert cache.check()["ok"]
        assert len(cache) == recovered
        model = Model()
        hits = sum(ask(cache, eq(i), model).record.decision == "exact" for i in range(200))
        assert hits == recovered


def test_damage_met_while_serving_stops_the_store_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(tmp_path, 200)
    db = tmp_path / DB_NAME
    page = middle_leaf(db, "entries_key")
    on_page = {i for i in range(200) if key(eq(i)).encode() in page_bytes(db, page)}
    assert 0 < len(on_page) < 200
    # The smallest key lies on the first leaf: far from the damaged page in the middle.
    sound = min((i for i in range(200) if i not in on_page), key=lambda i: key(eq(i)))
    damaged = damage(db, page)
    # As for a file too large to check at open: the damage is met by a lookup.
    monkeypatch.setattr(sqlite_store, "QUICK_CHECK_AT_OPEN", 0)

    with caplog.at_level(logging.WARNING), StepCache(path=tmp_path) as cache:
        model = Model()
        before = ask(cache, eq(sound), model)
        met = ask(cache, eq(min(on_page)), model)
        after = [ask(cache, eq(sound), model), ask(cache, eq(3, "y"), model)]
    assert before.record.decision == "exact"  # a sound page, before the damage is known
    assert met.record.decision == "bypass" and "the database is damaged" in met.record.reason
    assert solution_text(min(on_page)) in met.text  # the model answered
    for result in after:  # from then on the store is not used at all
        assert result.record.decision == "bypass" and not result.record.stored
    assert len(model.calls) == 3
    warnings = warnings_of(caplog)
    assert len(warnings) == 1 and "database disk image is malformed" in warnings[0], warnings
    assert read_raw(db) == damaged  # not even the use of the first hit was written


def test_check_finds_damage_the_open_did_not_look_for_and_stops_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(tmp_path, 200)
    db = tmp_path / DB_NAME
    damage(db, middle_leaf(db, "entries_namespace"))  # an index no lookup reads
    monkeypatch.setattr(sqlite_store, "QUICK_CHECK_AT_OPEN", 0)
    with StepCache(path=tmp_path) as cache:
        assert ask(cache, eq(0)).record.decision == "exact"
        report = cache.check()
        assert report["ok"] is False and "quick_check" in report["store"]["damage"]
        assert report["store"]["readable"] is None  # not decoded from a damaged file
        assert ask(cache, eq(0)).record.decision == "bypass"
        assert not ask(cache, eq(3, "y")).record.stored


def test_a_sound_file_is_checked_at_open_only_up_to_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(tmp_path, 20)
    checks: list[str] = []
    real = sqlite_store._quick_check

    def counted(conn: sqlite3.Connection) -> list[str]:
        checks.append("quick_check")
        return real(conn)

    monkeypatch.setattr(sqlite_store, "_quick_check", counted)
    with StepCache(path=tmp_path) as cache:
        assert ask(cache, eq(1)).record.decision == "exact"
    assert checks == ["quick_check"]
    monkeypatch.setattr(sqlite_store, "QUICK_CHECK_AT_OPEN", 1024)  # smaller than the file
    with StepCache(path=tmp_path) as cache:
        assert ask(cache, eq(1)).record.decision == "exact"
    assert checks == ["quick_check"]  # not checked again at open
