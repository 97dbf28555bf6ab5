"""Memory per entry, estimated cheaply for ``StepCache.stats()``.

The estimate adds the deep size of a sample of entries (strings, steps, the objects holding
them) to fixed per-entry overheads of the store and the vector index. The overheads were
calibrated against the resident-memory growth measured with 100,000 entries
(``tests/reliability/measure.py``; figures in ``docs/reliability.md``).
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import fields
from typing import Any

from stepcache_integrations.core.entries import CacheEntry, EntryStore, MemoryEntryStore
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex

__all__ = ["entry_bytes", "index_bytes_per_entry", "memory_report"]

# The LRU OrderedDict node and the key -> id dict slot of MemoryEntryStore.
STORE_OVERHEAD = 150
# FAISS id maps (int64 id, reverse map), FaissIndex's two Python dicts and the id string,
# and EmbeddingIndex's id -> namespace slot (the vector itself is counted apart).
INDEX_OVERHEAD = 400
_SAMPLE = 200


def _object_bytes(obj: object, fields: int) -> int:
    # Python 3.11+ keeps instance attributes inline (about a pointer each); vars() would
    # materialise a dict and overstate (and grow) the entry.
    return sys.getsizeof(obj) + 8 * fields + 32


def _value_bytes(value: object) -> int:
    # One-character strings and small ints are interpreter-wide singletons: free per entry.
    if isinstance(value, str) and len(value) <= 1:
        return 0
    if isinstance(value, int) and -5 <= value <= 256:
        return 0
    return sys.getsizeof(value)


def entry_bytes(entry: CacheEntry) -> int:
    """Deep size in bytes of one entry object.

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> entry = CacheEntry.create("ns", None, "Solve 2x = 4", [Step("x = 2")], "paragraph")
        >>> entry_bytes(entry) > len("Solve 2x = 4")
        True
    """
    names = [f.name for f in fields(entry)]
    size = _object_bytes(entry, len(names)) + sys.getsizeof(entry.steps)
    for name in names:
        if name != "steps":
            size += _value_bytes(getattr(entry, name))
    for step in entry.steps:
        size += _object_bytes(step, 2) + _value_bytes(step.text) + _value_bytes(step.separator)
    return size


def index_bytes_per_entry(dim: int) -> int:
    """Bytes one vector of dimension ``dim`` costs in the built-in FAISS index."""
    return 4 * dim + INDEX_OVERHEAD


def _index_dim(index: VectorIndex) -> int | None:
    if not isinstance(index, EmbeddingIndex):
        return None
    for faiss_index, _version in index.partitions().values():
        return faiss_index.dim
    return getattr(index.embedder, "dim", None)


def memory_report(store: EntryStore, index: VectorIndex) -> dict[str, Any]:
    """Estimated bytes per entry in this process, and on disk for a persistent store.

    Example:
        >>> report = memory_report(MemoryEntryStore(), EmbeddingIndex())
        >>> report["entries"], report["bytes_per_entry"]
        (0, 0)
    """
    entries = len(store)
    store_per_entry = 0
    if isinstance(store, MemoryEntryStore) and entries:
        sample = list(itertools.islice(iter(store), _SAMPLE))
        if sample:
            mean = sum(entry_bytes(entry) for entry in sample) / len(sample)
            store_per_entry = round(mean) + STORE_OVERHEAD
    dim = _index_dim(index)
    index_per_entry = index_bytes_per_entry(dim) if dim and entries else 0
    per_entry = store_per_entry + index_per_entry
    report: dict[str, Any] = {
        "entries": entries,
        "bytes_per_entry": per_entry,
        "bytes_total": per_entry * entries,
        "store_bytes_per_entry": store_per_entry,
        "index_bytes_per_entry": index_per_entry,
        "method": "estimate",
    }
    disk_bytes = getattr(store, "disk_bytes", None)
    if callable(disk_bytes):
        on_disk = int(disk_bytes())
        report["disk_bytes"] = on_disk
        report["disk_bytes_per_entry"] = round(on_disk / entries) if entries else 0
    return report
