"""Cache entries and the entry-store protocol (the payload side of the cache)."""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from stepcache_integrations.core.prompt_diff import normalise_prompt
from stepcache_integrations.core.steps import Step, join_steps

__all__ = [
    "ENTRY_FORMAT_VERSION",
    "CacheEntry",
    "EntryDecodeError",
    "EntryStore",
    "MemoryEntryStore",
    "prompt_key",
]

ENTRY_FORMAT_VERSION = 1


class EntryDecodeError(ValueError):
    """A stored entry could not be decoded (corrupt, truncated or foreign data)."""


def prompt_key(namespace: str, prompt: str) -> str:
    """The exact-path key: namespace plus normalised prompt, hashed."""
    payload = f"{namespace}\x00{normalise_prompt(prompt)}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()


@dataclass(frozen=True)
class CacheEntry:
    """One verified answer, stored as ordered steps.

    Example:
        >>> e = CacheEntry.create("ns", None, "Solve 2x = 4", [Step("x = 2")], "paragraph")
        >>> e.answer
        'x = 2'
    """

    id: str
    namespace: str
    tenant: str | None
    prompt: str
    key: str
    steps: tuple[Step, ...]
    segmenter: str
    task: str | None = None
    tokens_input: int = 0
    tokens_output: int = 0
    created_at: float = field(default_factory=time.time)
    last_used_at: float = field(default_factory=time.time)

    @classmethod
    def create(
        cls,
        namespace: str,
        tenant: str | None,
        prompt: str,
        steps: Sequence[Step],
        segmenter: str,
        *,
        task: str | None = None,
        tokens_input: int = 0,
        tokens_output: int = 0,
    ) -> CacheEntry:
        key = prompt_key(namespace, prompt)
        # The id is the exact key: storing the same prompt again replaces the older answer.
        return cls(
            id=key[:32],
            namespace=namespace,
            tenant=tenant,
            prompt=prompt,
            key=key,
            steps=tuple(steps),
            segmenter=segmenter,
            task=task,
            tokens_input=tokens_input,
            tokens_output=tokens_output,
        )

    @property
    def answer(self) -> str:
        return join_steps(self.steps)

    def touched(self, now: float) -> CacheEntry:
        return replace(self, last_used_at=now)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable form (the stored format, versioned)."""
        return {
            "format": ENTRY_FORMAT_VERSION,
            "id": self.id,
            "namespace": self.namespace,
            "tenant": self.tenant,
            "prompt": self.prompt,
            "key": self.key,
            "steps": [step.to_json() for step in self.steps],
            "segmenter": self.segmenter,
            "task": self.task,
            "tokens_input": self.tokens_input,
            "tokens_output": self.tokens_output,
            "created_at": self.created_at,
            "last_used_at": self.last_used_at,
        }

    @classmethod
    def from_dict(cls, data: object) -> CacheEntry:
        """Decode a stored entry; anything malformed raises :class:`EntryDecodeError`."""
        if not isinstance(data, dict):
            raise EntryDecodeError(f"an entry must be a JSON object, got {type(data).__name__}")
        version = data.get("format")
        if version != ENTRY_FORMAT_VERSION:
            raise EntryDecodeError(
                f"entry format {version!r} is not supported (this version reads "
                f"format {ENTRY_FORMAT_VERSION})"
            )
        try:
            steps_raw = data["steps"]
            if not isinstance(steps_raw, list):
                raise EntryDecodeError("'steps' must be a list")
            steps = []
            for item in steps_raw:
                if (
                    not isinstance(item, list)
                    or len(item) != 2
                    or not all(isinstance(part, str) for part in item)
                ):
                    raise EntryDecodeError("each step must be [text, separator]")
                steps.append(Step(item[0], item[1]))
            strings = {
                name: data[name] for name in ("id", "namespace", "prompt", "key", "segmenter")
            }
            for name, value in strings.items():
                if not isinstance(value, str):
                    raise EntryDecodeError(f"'{name}' must be a string")
            tenant, task = data.get("tenant"), data.get("task")
            if tenant is not None and not isinstance(tenant, str):
                raise EntryDecodeError("'tenant' must be a string or null")
            if task is not None and not isinstance(task, str):
                raise EntryDecodeError("'task' must be a string or null")
            numbers = {
                name: data.get(name, 0)
                for name in ("tokens_input", "tokens_output", "created_at", "last_used_at")
            }
            for name, value in numbers.items():
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise EntryDecodeError(f"'{name}' must be a number")
                # NaN would make an entry never expire; inf cannot become a token count.
                if not math.isfinite(value):
                    raise EntryDecodeError(f"'{name}' must be finite, got {value!r}")
        except KeyError as missing:
            raise EntryDecodeError(f"entry is missing the field {missing}") from None
        return cls(
            id=strings["id"],
            namespace=strings["namespace"],
            tenant=tenant,
            prompt=strings["prompt"],
            key=strings["key"],
            steps=tuple(steps),
            segmenter=strings["segmenter"],
            task=task,
            tokens_input=int(numbers["tokens_input"]),
            tokens_output=int(numbers["tokens_output"]),
            created_at=float(numbers["created_at"]),
            last_used_at=float(numbers["last_used_at"]),
        )


@runtime_checkable
class EntryStore(Protocol):
    """Where entries live. Implementations must be thread-safe.

    ``put`` returns the ids evicted to respect the store's bounds (the cache removes them from
    the vector index too).
    """

    def put(self, entry: CacheEntry) -> list[str]: ...

    def get(self, entry_id: str) -> CacheEntry | None: ...

    def get_by_key(self, key: str) -> CacheEntry | None: ...

    def touch(self, entry_id: str, now: float) -> None: ...

    def delete(self, entry_ids: Sequence[str]) -> int: ...

    def clear(self) -> None: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[CacheEntry]: ...


class MemoryEntryStore:
    """In-process store with least-recently-used eviction.

    Example:
        >>> store = MemoryEntryStore(max_entries=1)
        >>> _ = store.put(CacheEntry.create("ns", None, "a", [Step("1")], "paragraph"))
        >>> store.put(CacheEntry.create("ns", None, "b", [Step("2")], "paragraph")) != []
        True
    """

    def __init__(self, max_entries: int | None = None) -> None:
        if max_entries is not None and max_entries <= 0:
            raise ValueError(f"max_entries must be positive, got {max_entries}")
        self.max_entries = max_entries
        self._lock = threading.RLock()
        self._entries: OrderedDict[str, CacheEntry] = OrderedDict()
        self._by_key: dict[str, str] = {}

    def put(self, entry: CacheEntry) -> list[str]:
        with self._lock:
            self._entries[entry.id] = entry
            self._entries.move_to_end(entry.id)
            self._by_key[entry.key] = entry.id
            evicted: list[str] = []
            while self.max_entries is not None and len(self._entries) > self.max_entries:
                old_id, old = self._entries.popitem(last=False)
                self._by_key.pop(old.key, None)
                evicted.append(old_id)
            return evicted

    def get(self, entry_id: str) -> CacheEntry | None:
        with self._lock:
            return self._entries.get(entry_id)

    def get_by_key(self, key: str) -> CacheEntry | None:
        with self._lock:
            entry_id = self._by_key.get(key)
            return None if entry_id is None else self._entries.get(entry_id)

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
                    self._by_key.pop(entry.key, None)
                    removed += 1
            return removed

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._by_key.clear()

    def ids_matching(self, *, namespace: str | None = None, tenant: str | None = None) -> list[str]:
        """Ids of the entries of a namespace and/or tenant."""
        with self._lock:
            return [
                entry.id
                for entry in self._entries.values()
                if (namespace is None or entry.namespace == namespace)
                and (tenant is None or entry.tenant == tenant)
            ]

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
