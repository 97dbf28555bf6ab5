"""The cached side of a hit, read once: what each task family reads of a cached request.

A nearest hit compares the new request with a cached one, and every family that took on the
changes reads the cached request (its equation, the spans it checks, the numbers it states
elsewhere). The cached request never changes, so that reading is made once per entry: when the
entry is stored through the cache (:meth:`EntryAnalyses.analyse`), or, for an entry loaded
from a store written before, the first time a hit meets it. A hit then reads only the new
request.

The readings are held in one memo bounded by a count of entries and keyed by the entry's id
and :data:`ANALYSIS_VERSION` (a reading of an older version is made again, once). An entry
stored again under the same id (another wording of the same request, another answer) is
re-read: a reading is only used for the very prompt it was made from. A family whose reading
is missing (a custom family, an evicted entry) reads the text as before: a reading saves
time and never changes a decision.

Example:
    >>> from stepcache_integrations.core.entries import CacheEntry
    >>> from stepcache_integrations.core.steps import Step
    >>> class Length:
    ...     name = "length"
    ...     def read_cached(self, request):
    ...         return len(request)
    >>> analyses = EntryAnalyses(max_entries=10)
    >>> entry = CacheEntry.create("ns", None, "Solve 2x = 4", [Step("x = 2")], "paragraph")
    >>> analyses.analyse(entry, [Length()]).reading("length")
    12
    >>> analyses.analyse(entry, [Length()]) is analyses.analyse(entry, [Length()])
    True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from stepcache_integrations.core.entries import CacheEntry

__all__ = [
    "ANALYSIS_VERSION",
    "DEFAULT_MAX_ENTRIES",
    "CachedReader",
    "EntryAnalyses",
    "EntryAnalysis",
]

#: Bumped whenever a family's reading of a cached request changes shape or meaning: readings
#: of an older version are never used (the entry is read again, once).
ANALYSIS_VERSION = 1

#: How many entries' readings one cache holds (a few kilobytes each): the most recently used.
DEFAULT_MAX_ENTRIES = 20_000


class CachedReader(Protocol):
    """A task family that reads a cached request once (see
    :meth:`~stepcache_integrations.core.tasks.base.TaskFamily.read_cached`)."""

    name: str

    def read_cached(self, request: str) -> object | None:
        """What the family reads of ``request`` on every hit that meets it; ``None``: nothing."""
        ...


@dataclass(frozen=True)
class EntryAnalysis:
    """What the task families read of one cached request (``prompt``), by family name."""

    prompt: str
    readings: Mapping[str, object] = field(default_factory=dict)
    version: int = ANALYSIS_VERSION

    def reading(self, family: str) -> object | None:
        """The reading of ``family``, or ``None`` when it has none (it reads the text)."""
        found = self.readings.get(family)
        return None if found is _NOTHING else found

    def holds(self, prompt: str, families: Iterable[CachedReader]) -> bool:
        """Whether this analysis was made of ``prompt``, by this version, for every one of
        ``families``."""
        return (
            self.version == ANALYSIS_VERSION
            and (self.prompt is prompt or self.prompt == prompt)
            and all(family.name in self.readings for family in families)
        )


class EntryAnalyses:
    """The analyses of cached entries, the most recently used ``max_entries`` of them.

    Thread-safe; a reading is made outside the lock (two threads may both make one: the same).
    """

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        if max_entries < 0:
            raise ValueError(f"max_entries must be zero or more, got {max_entries}")
        self.max_entries = max_entries
        self._held: OrderedDict[tuple[str, int], EntryAnalysis] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._held)

    def analyse(self, entry: CacheEntry, families: Iterable[CachedReader]) -> EntryAnalysis:
        """The analysis of ``entry`` for ``families`` (made now if none holds)."""
        readers = tuple(families)
        key = (entry.id, ANALYSIS_VERSION)
        with self._lock:
            found = self._held.get(key)
            if found is not None and found.holds(entry.prompt, readers):
                self._held.move_to_end(key)
                return found
        readings: dict[str, object] = {}
        for family in readers:
            reading = family.read_cached(entry.prompt)
            # A family that reads nothing is still recorded: the analysis holds for it.
            readings[family.name] = _NOTHING if reading is None else reading
        made = EntryAnalysis(entry.prompt, readings)
        if self.max_entries == 0:
            return made
        with self._lock:
            self._held[key] = made
            self._held.move_to_end(key)
            while len(self._held) > self.max_entries:
                self._held.popitem(last=False)
        return made

    def clear(self) -> None:
        with self._lock:
            self._held.clear()


class _Nothing:
    """A family's reading that says nothing (the family reads the text itself)."""

    def __repr__(self) -> str:
        return "nothing"


_NOTHING = _Nothing()
