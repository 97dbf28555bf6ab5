"""What can go wrong with a cache's files, each with its own type and advice.

Two families, because they call for opposite actions:

- :class:`CacheFileError`: the *content* is wrong (corrupt, truncated, foreign, a version this
  package cannot read). Restore, salvage or move the file away. :class:`CacheCorruptError` is
  the one met while serving: SQLite found a damaged page; the store stops using the file.
- :class:`CacheStorageError`: the content is fine, the *storage* refuses an operation now (the
  disk is full, another process holds the lock, the files are read-only, or they were removed
  underneath). Nothing needs repair; free space, wait, open read-only, or reopen.

:func:`classify_sqlite_error` turns a :class:`sqlite3.Error` into the right one, by SQLite's
result code (not by parsing messages).
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from stepcache_integrations.core.configuration import ConfigurationError

__all__ = [
    "CacheCorruptError",
    "CacheDiskFullError",
    "CacheFileError",
    "CacheFileLostError",
    "CacheLockedError",
    "CacheReadOnlyError",
    "CacheStorageError",
    "classify_sqlite_error",
    "create_directory",
    "on_read_only_filesystem",
    "read_only_reason",
    "recovery_advice",
]

# SQLite primary result codes (https://www.sqlite.org/rescode.html).
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = (
    3,
    5,
    6,
    8,
    10,
    11,
    13,
    14,
    26,
)
_READONLY_DBMOVED = _READONLY | (4 << 8)  # the database file was renamed or deleted under us
_LOW_SPACE = 64 * 1024  # bytes free below which an I/O error is blamed on a full disk

READ_ONLY_ADVICE = (
    "nothing is damaged: open it with StepCache(store=SqliteStore(path, read_only=True)) to "
    "serve its entries without writing, or make it writable"
)


class CacheFileError(ValueError):
    """A cache file is corrupt, truncated, foreign or of an unsupported version.

    ``path`` names the file; the message says what is wrong and what to do.

    Example:
        >>> str(CacheFileError("/tmp/c/entries.sqlite", "not a SQLite database"))
        '/tmp/c/entries.sqlite: not a SQLite database'
    """

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def recovery_advice(database: str | os.PathLike[str]) -> str:
    """How to recover the cache whose entry database is ``database``.

    Example:
        >>> recovery_advice("c/entries.sqlite").startswith("close every cache on c, then run")
        True
    """
    folder = Path(database).parent
    return (
        f"close every cache on {folder}, then run `stepcache cache check --path {folder}` "
        f"(what is damaged) and `stepcache cache salvage --path {folder} --yes` (keeps the "
        "damaged file, copies every readable entry into a new database)"
    )


class CacheCorruptError(CacheFileError):
    """SQLite reports the database damaged (a malformed page, SQLITE_CORRUPT). The store stops
    using the file: no lookup is served from it and nothing more is written into it, so a
    damaged page never spreads; requests are answered by the model. The message says how to
    recover (:func:`~stepcache_integrations.core.stores.directory.salvage_database`, or
    ``stepcache cache salvage``).

    Example:
        >>> error = CacheCorruptError("c/entries.sqlite", "a damaged page")
        >>> isinstance(error, CacheFileError), error.path.name
        (True, 'entries.sqlite')
    """


class CacheStorageError(RuntimeError):
    """The cache's files are intact, but the storage refuses an operation now.

    The subclasses say why: :class:`CacheDiskFullError`, :class:`CacheLockedError`,
    :class:`CacheReadOnlyError`, :class:`CacheFileLostError`. On the request path these never
    fail a request: the hit is served, or the model answers and nothing is stored.

    Example:
        >>> error = CacheDiskFullError("/tmp/c/entries.sqlite", "the disk is full")
        >>> isinstance(error, CacheStorageError), error.path.name
        (True, 'entries.sqlite')
    """

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class CacheDiskFullError(CacheStorageError):
    """No space left for a write. The file is not damaged; writes work again once space is
    freed.

    Example:
        >>> isinstance(CacheDiskFullError("c/entries.sqlite", "the disk is full"), CacheFileError)
        False
    """


class CacheLockedError(CacheStorageError):
    """Another connection held the database's write lock for longer than the operation may
    wait. Nothing is damaged; the operation was given up.

    Example:
        >>> CacheLockedError("c/entries.sqlite", "locked for more than 1 s").problem
        'locked for more than 1 s'
    """


class CacheReadOnlyError(CacheStorageError):
    """The cache cannot be written: a read-only filesystem or file, or a cache opened with
    ``SqliteStore(path, read_only=True)``.

    Example:
        >>> str(CacheReadOnlyError("c", "cannot be written; " + READ_ONLY_ADVICE))[:40]
        'c: cannot be written; nothing is damaged'
    """


class CacheFileLostError(CacheStorageError):
    """The database file or its write-ahead log was deleted or replaced while this process
    had it open. The store stops using it (writing on would lose entries): close every
    ``StepCache`` on the path and open it again.

    Example:
        >>> issubclass(CacheFileLostError, CacheStorageError)
        True
    """


def on_read_only_filesystem(path: Path) -> bool:
    """Whether ``path`` (a file or a directory; the directory of a file not created yet) is on
    a filesystem mounted read-only (a read-only bind mount of a single file included)."""
    try:
        return bool(os.statvfs(path if path.exists() else path.parent).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def read_only_reason(path: Path) -> str | None:
    """Why ``path`` (a file or a directory) cannot be written by this process, or ``None``.

    Example:
        >>> import tempfile
        >>> read_only_reason(Path(tempfile.mkdtemp())) is None
        True
    """
    folder = path if path.is_dir() else path.parent
    if on_read_only_filesystem(path):
        return "it is on a read-only filesystem"
    if not folder.exists():
        return None  # created later, where the parent allows it
    if not os.access(folder, os.W_OK):
        return f"this process may not write in {folder}"
    if path.is_file() and not os.access(path, os.W_OK):
        return "this process may not write the file"
    return None


# Why a directory cannot be created that lies in the path given, not in the storage.
_BAD_PATH = {errno.ENOENT, errno.ENOTDIR, errno.EACCES, errno.EPERM, errno.EROFS, errno.EEXIST}
_BAD_PATH |= {errno.ENAMETOOLONG, errno.ELOOP, errno.EINVAL}


def create_directory(argument: str, folder: Path) -> None:
    """Create ``folder`` (and its parents) for a cache; a
    :class:`~stepcache_integrations.core.configuration.ConfigurationError` naming ``argument``
    when the path given cannot hold one. An existing directory is left as it is.

    Example:
        >>> import tempfile
        >>> base = Path(tempfile.mkdtemp())
        >>> create_directory("path", base / "a" / "b")
        >>> (base / "a" / "b").is_dir()
        True
        >>> _ = (base / "file").write_text("x")
        >>> create_directory("path", base / "file" / "c")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        stepcache_integrations.core.configuration.ConfigurationError: path: ... is a file
    """
    if folder.is_dir():
        return
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        what = "is a file" if existing == folder else f"cannot be created: {existing} is a file"
        raise ConfigurationError(argument, f"{folder} {what}")
    reason = read_only_reason(existing)
    if reason is not None:
        raise ConfigurationError(
            argument,
            f"{folder} cannot be created: {reason}; give a directory this process can write",
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        why = error.strerror or str(error)
        if error.errno not in _BAD_PATH:
            raise CacheStorageError(folder, f"cannot be created ({why})") from error
        raise ConfigurationError(
            argument,
            f"{folder} cannot be created ({why}); give a directory this process can create "
            "and write",
        ) from None


def _disk_is_full(path: Path) -> bool:
    try:
        stats = os.statvfs(path.parent)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < _LOW_SPACE


def classify_sqlite_error(path: Path, error: sqlite3.Error, *, waited: float) -> Exception:
    """The error to raise for ``error`` met on the database at ``path``.

    ``waited`` is how long the operation was allowed to wait for a lock (for the message).
    Programming errors (:class:`sqlite3.ProgrammingError`, :class:`sqlite3.InterfaceError`)
    are returned unchanged: they are bugs, not facts about the file.

    Example:
        >>> busy = sqlite3.OperationalError("database is locked")
        >>> busy.sqlite_errorcode = 5
        >>> type(classify_sqlite_error(Path("c.sqlite"), busy, waited=1.0)).__name__
        'CacheLockedError'
    """
    if isinstance(error, sqlite3.ProgrammingError | sqlite3.InterfaceError):
        return error
    message = str(error)
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in (_BUSY, _LOCKED):
        return CacheLockedError(
            path,
            f"locked by another connection for more than {waited:g} s (SQLite: {message}); "
            "nothing is damaged: the operation was given up, retry later",
        )
    if primary == _FULL or (primary == _IOERR and _disk_is_full(path)):
        return CacheDiskFullError(
            path,
            f"the disk is full (SQLite: {message}); the file is not damaged: entries are still "
            "served, new answers are stored again once space is freed",
        )
    if code == _READONLY_DBMOVED:
        return CacheFileLostError(
            path,
            f"the database file was renamed or deleted while open (SQLite: {message}); "
            "close every StepCache on this path and open it again",
        )
    if primary in (_READONLY, _CANTOPEN, _PERM, _IOERR):
        reason = read_only_reason(path)
        if reason is not None or primary == _READONLY:
            why = reason or "the file or its directory is read-only"
            return CacheReadOnlyError(
                path, f"cannot be written: {why} (SQLite: {message}); {READ_ONLY_ADVICE}"
            )
    if primary in (_CANTOPEN, _PERM):
        return CacheStorageError(
            path,
            f"cannot be opened (SQLite: {message}); check that the directory and its -wal and "
            "-shm files exist and are accessible to this process",
        )
    if primary in (_CORRUPT, _NOTADB):
        return CacheCorruptError(
            path,
            f"the database is damaged (SQLite: {message}); this cache stopped using it: "
            "requests are answered by the model and nothing more is written into it. "
            f"To recover: {recovery_advice(path)}",
        )
    if primary == _IOERR:
        return CacheStorageError(
            path,
            f"I/O error (SQLite: {message}): the disk failed, or a file was removed underneath; "
            "run check() once the cause is fixed",
        )
    return CacheFileError(
        path,
        f"SQLite error ({message}); the file may be corrupt: run check() or "
        "stepcache_integrations.core.stores.directory.salvage_database",
    )
