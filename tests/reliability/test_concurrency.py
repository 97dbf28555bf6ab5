"""Concurrency: one StepCache shared by wrappers, threads and asyncio tasks; two processes on
one directory."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage

from stepcache_integrations import StepCacheLLM
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.stores.directory import DB_NAME, INDEX_DIR, MANIFEST_NAME
from stepcache_integrations.core.stores.directory_store import SqliteStore
from stepcache_integrations.core.vector_index import EmbeddingIndex
from tests.conftest import ScriptedChatModel, solve_steps
from tests.reliability.support import (
    ROOT,
    Model,
    ask,
    child_command,
    child_env,
    eq,
    key,
    local_store,
    run_child,
    served_by_a_new_process,
    solution_text,
)

ASYNC_REQUESTS = 64
THREADS = 8
PER_THREAD = 16
PROMPTS = [(i, var) for i in range(12) for var in ("x", "y")]


def responder(messages: list[BaseMessage]) -> str:
    prompt = next(
        str(m.content) for m in messages if isinstance(m, HumanMessage) and "Solve" in m.content
    )
    return solve_steps(prompt)


def index_ids(cache: StepCache) -> set[str]:
    assert isinstance(local_store(cache).index, EmbeddingIndex)
    return set(local_store(cache).index.ids())


@pytest.mark.timeout(240)
@pytest.mark.parametrize("kind", ["memory", "sqlite", "sqlite-bounded"])
async def test_stress_async_and_threads_on_one_shared_cache(tmp_path: Path, kind: str) -> None:
    bound = 10 if kind.endswith("bounded") else None
    cache = (
        StepCache(store=SqliteStore(tmp_path, max_entries=bound))
        if kind != "memory"
        else StepCache()
    )
    model = ScriptedChatModel(responder=responder)
    wrappers = [StepCacheLLM(llm=model, step_cache=cache) for _ in range(4)]
    records: list[dict[str, Any]] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def check(index: int, var: str, message: Any) -> None:
        assert solution_text(index, var) in str(message.content), message.content
        with lock:
            records.append(message.response_metadata["stepcache"])

    def worker(t: int) -> None:
        try:
            for n in range(PER_THREAD):
                index, var = PROMPTS[(t * 5 + n) % len(PROMPTS)]
                check(index, var, wrappers[t % 4].invoke(eq(index, var)))
        except BaseException as error:
            errors.append(error)

    async def one(j: int) -> None:
        index, var = PROMPTS[j % len(PROMPTS)]
        check(index, var, await wrappers[j % 4].ainvoke(eq(index, var)))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    await asyncio.gather(*(one(j) for j in range(ASYNC_REQUESTS)))
    for thread in threads:
        await asyncio.to_thread(thread.join)

    assert errors == []
    total = ASYNC_REQUESTS + THREADS * PER_THREAD
    assert len(records) == total
    stats = cache.stats()
    assert stats["requests"] == total
    assert sum(stats["decisions"].values()) == total
    assert stats["tokens_used"] == sum(r["tokens_used"] for r in records)
    assert stats["tokens_saved"] == sum(r["tokens_saved"] for r in records)

    entries = list(cache.store)
    keys = [e.key for e in entries]
    assert len(keys) == len(set(keys)) == len(cache)  # no duplicated entry
    namespace = records[0]["namespace"]
    expected = {key(eq(i, v), namespace) for i, v in PROMPTS}
    if bound is None:
        assert set(keys) == expected  # no lost entry: every prompt asked is stored
    else:
        assert len(cache) == bound and set(keys) <= expected
    for entry in entries:  # and every stored answer is the right one for its prompt
        assert entry.answer == solve_steps(entry.prompt)
    assert index_ids(cache) == {e.id for e in entries}
    assert len(model.calls) <= total
    if kind != "memory":
        cache.close()
        conn = sqlite3.connect(tmp_path / DB_NAME)
        count, distinct = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT key) FROM entries"
        ).fetchone()
        conn.close()
        assert count == distinct == len(entries)
        assert StepCache(path=tmp_path).check()["ok"]


@pytest.mark.parametrize("persistent", [False, True])
def test_store_and_index_stay_consistent_while_other_threads_clear_and_delete(
    tmp_path: Path, persistent: bool
) -> None:
    cache = (
        StepCache(store=SqliteStore(tmp_path, durability="normal")) if persistent else StepCache()
    )
    errors: list[BaseException] = []
    stop = threading.Event()

    def writer(offset: int) -> None:
        try:
            for i in range(60):
                ask(cache, eq(offset + i), tenant="acme" if i % 2 else None)
        except BaseException as error:
            errors.append(error)

    def deleter() -> None:
        try:
            while not stop.is_set():
                cache.delete_tenant("acme")
                cache.clear()
        except BaseException as error:
            errors.append(error)

    writers = [threading.Thread(target=writer, args=(k * 100,)) for k in range(4)]
    cleaner = threading.Thread(target=deleter)
    cleaner.start()
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    cleaner.join()
    assert errors == []
    assert index_ids(cache) == {e.id for e in cache.store}
    cache.close()


def test_caches_of_one_process_on_one_directory_share_one_store(tmp_path: Path) -> None:
    writer = StepCache(path=tmp_path)
    reader = StepCache(path=tmp_path)  # opened before anything was stored
    assert local_store(reader).entries is local_store(writer).entries  # one connection set
    assert local_store(reader).index is local_store(writer).index  # one index
    ask(writer, eq(0))
    model = Model()
    assert ask(reader, eq(0), model).record.decision == "exact"
    near = ask(reader, eq(0, "y"), model)
    assert near.record.decision != "miss"
    assert near.record.entry_id == key(eq(0))[:32]
    assert model.calls == []

    deleted = key(eq(0))[:32]
    writer.delete_namespace(next(iter(writer.store)).namespace)
    assert deleted not in index_ids(reader)  # one index: gone for both at once
    assert ask(reader, eq(0, "z")).record.entry_id != deleted
    writer.clear()
    assert len(reader) == 0 and index_ids(reader) == set()
    assert reader.reload() == (0, 0)  # nothing to prune: there is nothing else to disagree

    writer.close()  # the reader's handle keeps the store open...
    assert ask(reader, eq(3)).record.stored
    assert ask(reader, eq(3)).record.decision == "exact"
    with pytest.raises(RuntimeError, match="closed"):
        local_store(writer).get_by_key(key(eq(3)))  # ...but a closed handle refuses work
    reader.close()  # the last handle: the database is closed, the index saved
    assert (tmp_path / INDEX_DIR / MANIFEST_NAME).exists()
    with pytest.raises(RuntimeError, match="closed"):
        len(reader)


@pytest.mark.timeout(180)
def test_another_process_sees_stores_live_and_never_serves_deleted_entries(
    tmp_path: Path,
) -> None:
    reader = StepCache(path=tmp_path)  # opened before anything was stored
    assert "ACK 0" in run_child("store", str(tmp_path), "0", "1")
    model = Model()
    assert ask(reader, eq(0), model).record.decision == "exact"  # live: exact path is SQLite
    near = ask(reader, eq(0, "y"), model)
    assert near.record.decision != "miss"  # live: the index syncs on the next lookup
    assert near.record.entry_id == key(eq(0))[:32]

    deleted = key(eq(0))[:32]
    namespace = next(iter(reader.store)).namespace
    # eq(0) and the reader's own answer to eq(0, "y"), stored from the reused steps
    assert "DELETED 2" in run_child("delete-namespace", str(tmp_path), namespace)
    later = ask(reader, eq(0, "z"))
    assert later.record.entry_id != deleted  # a deleted entry is never served
    assert deleted not in index_ids(reader)  # and its stale vector is dropped on sight

    assert "CLEARED" in run_child("clear", str(tmp_path))
    # reload() prunes what the reader still indexes (its own eq(0, "z")) and adds nothing.
    assert reader.reload() == (0, 1)
    assert index_ids(reader) == set() and len(reader) == 0
    reader.close()


@pytest.mark.timeout(180)
def test_two_processes_on_one_directory(tmp_path: Path) -> None:
    parent = StepCache(path=tmp_path)
    child = subprocess.Popen(
        child_command("store", str(tmp_path), "1000", "40", "--save-every", "7"),
        cwd=ROOT,
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    for i in range(40):  # the parent writes while the child writes
        assert ask(parent, eq(i)).record.stored
    parent.save_index()
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    child_acks = [int(line.split()[1]) for line in out.splitlines() if line.startswith("ACK")]
    assert child_acks == list(range(1000, 1040))

    # Live, without reload: the child's entries are served by the parent.
    model = Model()
    for i in child_acks:
        assert ask(parent, eq(i), model).record.decision == "exact"
    assert model.calls == []
    assert parent.check()["ok"]
    parent.close()

    # And the parent's entries by a new process.
    served = served_by_a_new_process(tmp_path, range(40))
    assert [s["decision"] for s in served] == ["exact"] * 40
    assert sum(s["calls"] for s in served) == 0

    with StepCache(store=SqliteStore(tmp_path, on_corrupt_index="error")) as final:
        report = final.check()
        assert report["ok"], report
        assert report["store"]["integrity"] == "ok"
        assert len(final) == 80


def test_index_search_runs_single_threaded_and_restores_the_callers_setting() -> None:
    import faiss

    index = EmbeddingIndex()
    index.add("e1", eq(0), "ns")
    previous = faiss.omp_get_max_threads()
    try:
        faiss.omp_set_num_threads(2)
        assert index.search(eq(1), "ns", 1)[0][0] == "e1"
        assert faiss.omp_get_max_threads() == 2  # this thread's setting is left as it was
    finally:
        faiss.omp_set_num_threads(previous)
