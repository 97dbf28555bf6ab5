"""One open store per cache directory per process, shared by every ``StepCache`` on it.

Two objects of one process on one directory used to open two sets of SQLite connections, two
indexes and two locks, competing for the same files. Now the first opening of a directory
opens it; every later opening (another ``SqliteStore(path)``, another wrapper, a health
check) joins it and gets its own handle on the same connections, index and lock. Handles are
counted: the last one closed really closes (saving the index). A handle garbage-collected
without being closed counts as closed at the next opening or closing of any directory (a
finalizer only queues it: closing files inside the garbage collector could deadlock), so a
forgotten health-check cache never keeps the last real ``close()`` from saving the index.

Directories are keyed by their resolved path (symbolic links lead to one entry). Joining with
options that would change what the store does (``max_entries``, ``durability``,
``read_only``, another embedder) raises :class:`ValueError` naming the difference.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder
from stepcache_integrations.core.stores.directory import CacheDirectory, same_embedder
from stepcache_integrations.core.vector_index import EmbeddingIndex

__all__ = [
    "CollectedFinalizer",
    "DirectoryOptions",
    "SharedDirectory",
    "acquire",
    "is_open",
    "release",
    "release_when_collected",
]


@dataclass(frozen=True)
class DirectoryOptions:
    """The options every opening of one directory in a process must agree on.

    Example:
        >>> DirectoryOptions(max_entries=10).differences(DirectoryOptions(max_entries=20))
        ['max_entries=10 (it is open with max_entries=20)']
    """

    max_entries: int | None = None
    durability: str = "full"
    read_only: bool = False

    def differences(self, current: DirectoryOptions) -> list[str]:
        """What ``self`` (a new opening) asks for that ``current`` (the open one) does not."""
        out = []
        for name in ("max_entries", "durability", "read_only"):
            wanted, actual = getattr(self, name), getattr(current, name)
            if wanted != actual:
                out.append(f"{name}={wanted!r} (it is open with {name}={actual!r})")
        return out


@dataclass(eq=False)
class SharedDirectory:
    """One open cache directory: its store and index, the lock that keeps them consistent,
    and how many handles use it."""

    key: str
    directory: CacheDirectory
    index: EmbeddingIndex
    options: DirectoryOptions
    lock: threading.RLock = field(default_factory=threading.RLock)
    handles: int = 0
    closed: bool = False


CollectedFinalizer: TypeAlias = "weakref.finalize[[SharedDirectory], object]"

_registry_lock = threading.Lock()
_path_locks: dict[str, threading.Lock] = {}
_open: dict[str, SharedDirectory] = {}
# Handles garbage-collected without close(), queued by their finalizers (which take no lock).
_collected: deque[SharedDirectory] = deque()


def _key(path: str | os.PathLike[str]) -> str:
    return os.path.realpath(os.fspath(path))


def _path_lock(key: str) -> threading.Lock:
    with _registry_lock:
        return _path_locks.setdefault(key, threading.Lock())


def _describe(embedder: Embedder) -> str:
    dim = getattr(embedder, "dim", None)
    return type(embedder).__name__ + ("" if dim is None else f"(dim={dim})")


def acquire(
    path: str | os.PathLike[str],
    options: DirectoryOptions,
    embedder: Embedder | None,
    opener: Callable[[], tuple[CacheDirectory, EmbeddingIndex]],
) -> SharedDirectory:
    """The open directory at ``path`` with one more handle, opened with ``opener`` if this
    process has not opened it yet. Raises :class:`ValueError` when it is open with other
    options or another embedder (``embedder=None`` means the default embedder)."""
    _release_collected()
    key = _key(path)
    with _path_lock(key):
        shared = _open.get(key)
        if shared is None or shared.closed:
            directory, index = opener()
            shared = SharedDirectory(key, directory, index, options)
            _open[key] = shared
        else:
            problems = options.differences(shared.options)
            wanted = embedder if embedder is not None else StructuralEmbedder()
            if not same_embedder(wanted, shared.index.embedder):
                problems.append(
                    f"embedder {_describe(wanted)} (it is open with "
                    f"{_describe(shared.index.embedder)})"
                )
            if problems:
                raise ValueError(
                    f"{Path(path)} is already open in this process with other options: "
                    f"{'; '.join(problems)}. Every cache on one directory in a process shares "
                    "one store: open it with the same options, or close the other caches first"
                )
        shared.handles += 1
        return shared


def release(shared: SharedDirectory) -> None:
    """Drop one handle; the last one closes the directory (saving its index)."""
    _release_collected()
    _release(shared)


def _queue(shared: SharedDirectory) -> None:
    _collected.append(shared)


def release_when_collected(handle: object, shared: SharedDirectory) -> CollectedFinalizer:
    """Count ``handle`` as closed once it is garbage-collected without being closed; the
    returned finalizer must be detached when the handle is closed."""
    finalizer = weakref.finalize(handle, _queue, shared)
    finalizer.atexit = False
    return finalizer


def _release_collected() -> None:
    while True:
        try:
            shared = _collected.popleft()
        except IndexError:
            return
        _release(shared)


def _release(shared: SharedDirectory) -> None:
    with _path_lock(shared.key):
        if shared.closed or shared.handles <= 0:
            return
        shared.handles -= 1
        if shared.handles:
            return
        shared.closed = True
        if _open.get(shared.key) is shared:
            del _open[shared.key]
        with shared.lock:
            shared.directory.close(shared.index)


def is_open(path: str | os.PathLike[str]) -> bool:
    """Whether this process has the cache directory at ``path`` open."""
    _release_collected()
    shared = _open.get(_key(path))
    return shared is not None and not shared.closed
