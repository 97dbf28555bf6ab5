from __future__ import annotations

import json

import numpy as np
import pytest

from stepcache_integrations.core.embeddings import StructuralEmbedder, normalise_rows
from stepcache_integrations.core.entries import CacheEntry, EntryDecodeError, prompt_key
from stepcache_integrations.core.namespace import make_namespace, tenant_namespace
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.stores.memory import MemoryEntryStore
from stepcache_integrations.core.vector_index import EmbeddingIndex


def entry(prompt: str, namespace: str = "ns") -> CacheEntry:
    return CacheEntry.create(namespace, None, prompt, [Step("a", "\n"), Step("b")], "paragraph")


def test_entry_round_trips_through_json() -> None:
    original = entry("Solve 2x = 4")
    decoded = CacheEntry.from_dict(json.loads(json.dumps(original.to_dict())))
    assert decoded == original


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format=99), "format"),
        (lambda d: d.pop("prompt"), "prompt"),
        (lambda d: d.update(steps=[["only text"]]), "step"),
        (lambda d: d.update(tenant=3), "tenant"),
        (lambda d: d.update(tokens_input="many"), "tokens_input"),
    ],
)
def test_malformed_entries_raise_a_clear_error(mutate, message) -> None:  # type: ignore[no-untyped-def]
    data = entry("x").to_dict()
    mutate(data)
    with pytest.raises(EntryDecodeError, match=message):
        CacheEntry.from_dict(data)


def test_non_object_entry_is_rejected() -> None:
    with pytest.raises(EntryDecodeError):
        CacheEntry.from_dict([1, 2])


def test_memory_store_evicts_least_recently_used() -> None:
    store = MemoryEntryStore(max_entries=2)
    a, b, c = entry("a"), entry("b"), entry("c")
    store.put(a)
    store.put(b)
    store.touch(a.id, 1.0)
    assert store.put(c) == [b.id]
    assert store.get(b.id) is None and store.get_by_key(a.key) is not None
    assert len(store) == 2


def test_prompt_key_depends_on_namespace_and_normalised_prompt() -> None:
    assert prompt_key("ns", "a  b") == prompt_key("ns", " a b ")
    assert prompt_key("ns", "a b") != prompt_key("other", "a b")


def test_structural_embedder_is_deterministic_and_masks_constants() -> None:
    embedder = StructuralEmbedder()
    a, b, c = embedder.embed(
        [
            "Solve for x: 3x + 5 = 20",
            "Solve for q: 7q + 1 = 9",
            "Return a JSON object with keys name and age for Alice.",
        ]
    )
    # Same structure, other constants: above the default similarity threshold (0.75).
    assert float(a @ b) > 0.75
    assert float(a @ c) < 0.5
    # Among same-structure prompts, the one with the same constants ranks first.
    same, other = embedder.embed(["Find x when 3x + 5 = 20", "Find x when 7x + 1 = 9"])
    assert float(a @ same) > float(a @ other)
    assert np.array_equal(embedder.embed(["same"]), embedder.embed(["same"]))
    assert np.allclose(np.linalg.norm(embedder.embed(["x", ""]), axis=1), [1.0, 0.0])


def test_normalise_rows_handles_zero_rows() -> None:
    rows = normalise_rows(np.zeros((2, 4)))
    assert not np.isnan(rows).any()


def test_embedding_index_never_crosses_namespaces() -> None:
    index = EmbeddingIndex()
    index.add("e1", "Solve for x: 3x + 5 = 20", "tenant-a")
    assert index.search("Solve for x: 3x + 5 = 20", "tenant-b") == []
    assert index.search("Solve for x: 3x + 5 = 20", "tenant-a")[0][0] == "e1"
    index.remove(["e1"])
    assert index.search("Solve for x: 3x + 5 = 20", "tenant-a") == []


def test_namespace_changes_with_each_part() -> None:
    base = {"model": "m", "history": [], "call": {}}
    ids = {
        make_namespace(base),
        make_namespace({**base, "model": "n"}),
        make_namespace({**base, "history": [{"type": "system", "text": "terse"}]}),
        make_namespace({**base, "call": {"temperature": 1}}),
        tenant_namespace(make_namespace(base), "acme"),  # the tenant is bound by the cache
    }
    assert len(ids) == 5
