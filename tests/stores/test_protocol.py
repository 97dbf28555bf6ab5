"""The store protocol itself, on every store: what a third-party store must also do
(``docs/stores.md``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.stores.base import ANY, CacheStore, PromptLookup
from stepcache_integrations.core.stores.entry_store import matches
from stepcache_integrations.core.text import request_form
from tests.reliability.support import eq
from tests.stores.conftest import MakeStore


def entry(namespace: str, tenant: str | None, prompt: str, answer: str = "x = 1") -> CacheEntry:
    return CacheEntry.create(namespace, tenant, prompt, [Step(answer)], "paragraph")


def test_put_get_replace_delete(make_store: MakeStore) -> None:
    store = make_store()
    assert isinstance(store, CacheStore)
    first = entry("ns", "acme", eq(0))
    store.put(first)
    assert store.get(first.id) == first
    assert store.get_by_key(first.key) == first
    assert store.get("no-such-id") is None and store.get_by_key("no-such-key") is None
    store.put(entry("ns", "acme", eq(0), "x = 2"))  # the same prompt: replaced, not added
    assert len(store) == 1
    replaced = store.get(first.id)
    assert replaced is not None and replaced.answer == "x = 2"
    assert store.delete([first.id, first.id, "unknown"]) == 1
    assert len(store) == 0 and store.get(first.id) is None


def test_a_prompt_lookup_finds_only_what_the_key_finds(
    make_store: MakeStore, store_kind: str
) -> None:
    """Where a store finds entries by their prompt text, it answers exactly like
    ``get_by_key`` for that text, and forgets a wording replaced or deleted."""
    store = make_store()
    offered = isinstance(store, PromptLookup)
    assert offered == (store_kind != "postgres")  # Postgres looks requests up by key only
    if not offered:
        return
    plain = eq(0)
    reworded = plain.replace("Show each step", "Show  each  step")  # layout only
    assert request_form(plain) == request_form(reworded) and plain != reworded
    first = entry("ns", None, plain)
    store.put(first)
    expected = first if store_kind == "memory" else None  # SQLite has no prompt index
    assert store.get_by_prompt("ns", plain) == expected
    assert store.get_by_prompt("other-ns", plain) is None
    assert store.get_by_prompt("ns", eq(1)) is None
    # The same request reworded replaces the entry (same key and id): the old text is
    # forgotten, never left pointing at an answer stored for it.
    second = entry("ns", None, reworded, "x = 2")
    store.put(second)
    assert second.key == first.key and len(store) == 1
    assert store.get_by_prompt("ns", plain) is None
    assert store.get_by_prompt("ns", reworded) == (second if store_kind == "memory" else None)
    store.delete([second.id])
    assert store.get_by_prompt("ns", reworded) is None


def test_nearest_only_returns_the_namespace_nearest_first(make_store: MakeStore) -> None:
    store = make_store()
    for i in range(6):
        store.put(entry("ns-a", None, eq(i)))
        store.put(entry("ns-b", None, eq(i, "y")))
    store.put(entry("ns-a", None, "Write a haiku about autumn leaves."))
    found = store.nearest(eq(3, "z"), "ns-a", 4)
    assert len(found) == 4
    assert {e.namespace for e, _ in found} == {"ns-a"}
    scores = [score for _, score in found]
    assert scores == sorted(scores, reverse=True)
    assert all(-1.0 - 1e-6 <= s <= 1.0 + 1e-6 for s in scores)
    assert store.nearest(eq(3), "ns-a", 1)[0][0].prompt == eq(3)  # the same text is nearest
    assert store.nearest(eq(3), "ns-none", 3) == []
    assert len(store.nearest(eq(3), "ns-a", 100)) == 7


def test_touch_and_eviction_by_least_recent_use(make_store: MakeStore) -> None:
    store = make_store(max_entries=2)
    a, b, c = (entry("ns", None, eq(i)) for i in range(3))
    store.put(a)
    store.put(b)
    store.touch(a.id, b.last_used_at + 10)  # a is now the most recently used
    store.put(c)
    assert {e.id for e in store} == {a.id, c.id}


def test_summary_check_sync_and_maintenance_calls(make_store: MakeStore) -> None:
    store = make_store()
    for tenant in ("acme", None):
        store.put(entry(f"ns-{tenant}", tenant, eq(0)))
    summary = store.summary()
    assert summary["entries"] == 2
    assert sorted(summary["by_namespace_and_tenant"], key=str) == sorted(
        [
            {"namespace": "ns-acme", "tenant": "acme", "entries": 1},
            {"namespace": "ns-None", "tenant": None, "entries": 1},
        ],
        key=str,
    )
    assert store.check()["ok"]
    added, removed = store.sync()
    assert (added, removed) == (0, 0)
    assert store.rebuild_index() == 2
    assert store.check()["ok"]
    assert store.nearest(eq(0), "ns-acme", 5)  # still searchable after the rebuild
    assert store.delete_created_before(0.0) == 0
    assert store.clear() == 2 and len(store) == 0


names = st.text(max_size=6)
tenants = st.one_of(st.none(), st.text(max_size=6))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(st.tuples(names, tenants), min_size=1, max_size=8),
    namespace=st.one_of(st.just(ANY), names),
    tenant=st.one_of(st.just(ANY), tenants),
)
def test_delete_matching_deletes_exactly_what_matches(
    make_store: MakeStore, rows: list[tuple[str, str | None]], namespace: object, tenant: object
) -> None:
    store = make_store()
    store.clear()
    entries = {e.id: e for e in (entry(ns, t, eq(i)) for i, (ns, t) in enumerate(rows))}
    for item in entries.values():
        store.put(item)
    doomed = {i for i, e in entries.items() if matches(e, namespace, tenant)}  # type: ignore[arg-type]
    assert store.delete_matching(namespace=namespace, tenant=tenant) == len(doomed)  # type: ignore[arg-type]
    assert {e.id for e in store} == set(entries) - doomed
    store.close()
