"""The in-memory entry store, and memory per entry estimated cheaply for ``stats()``.

The estimate adds the deep size of a sample of entries (strings, steps, the objects holding
them) to fixed per-entry overheads of the store and the vector index. The overheads were
calibrated against the resident-memory growth measured with 100,000 entries
(``tests/reliability/measure.py``; figures in ``docs/reliability.md``).
"""

from __future__ import annotations

import itertools
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import fields
from typing import Any

from stepcache_integrations.core.configuration import check_count
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.stores.base import ANY, AnyValue, TenantFilter
from stepcache_integrations.core.stores.entry_store import EntryStore, matches
from stepcache_integrations.core.vector_index import EmbeddingIndex, VectorIndex

__all__ = ["MemoryEntryStore", "entry_bytes", "index_bytes_per_entry", "memory_report"]

# The LRU OrderedDict node and the key -> id dict slot of MemoryEntryStore (150), and its
# (namespace, prompt) -> key slot with the tuple (110, measured with tracemalloc at 100,000).
STORE_OVERHEAD = 260
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


def _json_bytes(value: object) -> int:
    # Deep size of JSON data (an entry's ``kept``): containers and everything in them.
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(
            _value_bytes(key) + _json_bytes(item) for key, item in value.items()
        )
    if isinstance(value, list):
        return sys.getsizeof(value) + sum(_json_bytes(item) for item in value)
    return _value_bytes(value)


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
        if name == "kept":
            size += _json_bytes(entry.kept)
        elif name != "steps":
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


def memory_report(
    store: EntryStore, index: VectorIndex, disk_bytes: int | None = None
) -> dict[str, Any]:
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
    if disk_bytes is not None:
        report["disk_bytes"] = disk_bytes
        report["disk_bytes_per_entry"] = round(disk_bytes / entries) if entries else 0
    return report


class MemoryEntryStore:
    """In-process store with least-recently-used eviction.

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> store = MemoryEntryStore(max_entries=1)
        >>> _ = store.put(CacheEntry.create("ns", None, "a", [Step("1")], "paragraph"))
        >>> store.put(CacheEntry.create("ns", None, "b", [Step("2")], "paragraph")) != []
        True
    """

    def __init__(self, max_entries: int | None = None) -> None:
        if max_entries is not None:
            check_count("max_entries", max_entries)
        self.max_entries = max_entries
        self._lock = threading.RLock()
        self._entries: OrderedDict[str, CacheEntry] = OrderedDict()
        self._by_key: dict[str, str] = {}
        # (namespace, prompt) -> key: an exact lookup of a stored prompt text needs no
        # tokenisation. The tuple refers to the entry's own strings: a slot, not a copy.
        self._keys_by_prompt: dict[tuple[str, str], str] = {}

    def put(self, entry: CacheEntry) -> list[str]:
        with self._lock:
            replaced = self._entries.get(entry.id)
            if replaced is not None:
                self._forget(replaced)
            self._entries[entry.id] = entry
            self._entries.move_to_end(entry.id)
            self._by_key[entry.key] = entry.id
            self._keys_by_prompt[(entry.namespace, entry.prompt)] = entry.key
            evicted: list[str] = []
            while self.max_entries is not None and len(self._entries) > self.max_entries:
                old_id, old = self._entries.popitem(last=False)
                self._forget(old)
                evicted.append(old_id)
            return evicted

    def _forget(self, old: CacheEntry) -> None:
        """Drop what points to ``old`` (already out of ``_entries``, or being replaced); a
        newer entry stored under the same key stays reachable by it."""
        if self._by_key.get(old.key) == old.id:
            del self._by_key[old.key]
        prompt = (old.namespace, old.prompt)
        if self._keys_by_prompt.get(prompt) == old.key and old.key not in self._by_key:
            del self._keys_by_prompt[prompt]

    def get(self, entry_id: str) -> CacheEntry | None:
        with self._lock:
            return self._entries.get(entry_id)

    def get_by_key(self, key: str) -> CacheEntry | None:
        with self._lock:
            entry_id = self._by_key.get(key)
            return None if entry_id is None else self._entries.get(entry_id)

    def key_of(self, namespace: str, prompt: str) -> str | None:
        """The exact-path key of an entry stored with exactly this namespace and prompt.

        Example:
            >>> from stepcache_integrations.core.steps import Step
            >>> store = MemoryEntryStore()
            >>> entry = CacheEntry.create("ns", None, "Solve 2x = 4", [Step("x = 2")], "p")
            >>> _ = store.put(entry)
            >>> store.key_of("ns", "Solve 2x = 4") == entry.key, store.key_of("ns", "Solve 2x=4")
            (True, None)
        """
        with self._lock:
            return self._keys_by_prompt.get((namespace, prompt))

    def touch(self, entry_id: str, now: float) -> None:
        with self._lock:
            entry = self._entries.get(entry_id)
            if entry is not None:
                self._entries[entry_id] = entry.touched(now)
                self._entries.move_to_end(entry_id)

    def delete(self, entry_ids: Sequence[str]) -> int:
        with self._lock:
            removed = 0
            for entry_id in entry_ids:
                entry = self._entries.pop(entry_id, None)
                if entry is not None:
                    self._forget(entry)
                    removed += 1
            return removed

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._by_key.clear()
            self._keys_by_prompt.clear()

    def ids_matching(
        self, *, namespace: str | AnyValue = ANY, tenant: TenantFilter = ANY
    ) -> list[str]:
        """Ids of the entries of a namespace and/or tenant (``tenant=None``: without one)."""
        with self._lock:
            return [e.id for e in self._entries.values() if matches(e, namespace, tenant)]

    def counts(self) -> dict[tuple[str, str | None], int]:
        """Entries per ``(namespace, tenant)``."""
        with self._lock:
            out: dict[tuple[str, str | None], int] = {}
            for entry in self._entries.values():
                pair = (entry.namespace, entry.tenant)
                out[pair] = out.get(pair, 0) + 1
            return out

    def ids_created_before(self, timestamp: float) -> list[str]:
        """Ids of the entries created before ``timestamp`` (for TTL purges)."""
        with self._lock:
            return [e.id for e in self._entries.values() if e.created_at < timestamp]

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __iter__(self) -> Iterator[CacheEntry]:
        with self._lock:
            return iter(list(self._entries.values()))
