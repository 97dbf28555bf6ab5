"""The database file as the operating system sees it: header checks that never break SQLite's
locks, and the identity of the file and its write-ahead log.

**Why this module exists.** SQLite coordinates processes with POSIX advisory locks, and POSIX
drops *every* lock a process holds on a file as soon as the process closes *any* descriptor
on that file. Opening the database with ``open()`` to read its header, then closing it, silently
released the locks of the process's own SQLite connections: another process then believed it
was the last user, checkpointed, and deleted the write-ahead log those connections were still
writing to (their later entries were lost). SQLite avoids the trap for its own connections; any
other code must not open the file while a connection to it may be open in the process.

So a database file is opened outside SQLite in exactly one place, :func:`inspect_sqlite_file`,
and only through :func:`claim`, which runs it when *no* store of this process has the file open
(the header is checked once per file per process, before the first connection).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from stepcache_integrations.core.stores.errors import CacheFileError

__all__ = [
    "FileId",
    "FileIdentity",
    "claim",
    "file_id",
    "inspect_sqlite_file",
    "is_open_in_this_process",
    "release",
]

_SQLITE_MAGIC = b"SQLite format 3\x00"

FileId = tuple[int, int]  # (device, inode)


def file_id(path: Path | str) -> FileId | None:
    """``(device, inode)`` of ``path``, or ``None`` if it does not exist (a ``stat``: no
    descriptor is opened)."""
    try:
        stats = os.stat(path)
    except OSError:
        return None
    return stats.st_dev, stats.st_ino


def inspect_sqlite_file(path: Path) -> None:
    """Cheap checks of a database file's header; raise :class:`CacheFileError` if it is
    not a SQLite file or is shorter than its header says (truncated).

    An empty file is accepted (SQLite treats it as an empty database). This opens the file
    outside SQLite: call it only through :func:`claim`.
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as error:
        raise CacheFileError(path, f"cannot be read ({error})") from error
    if size == 0:
        return
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise CacheFileError(
            path,
            "not a SQLite database (corrupt, truncated or foreign file); restore it from a "
            "backup or move it away to start an empty cache",
        )
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise CacheFileError(path, f"corrupt SQLite header (page size {page_size})")
    pages = int.from_bytes(header[28:32], "big")
    # The in-header page count is valid only when "version-valid-for" equals the change
    # counter (SQLite file format, section 1.3.7).
    header_count_valid = header[92:96] == header[24:28] and pages > 0
    if size % page_size or (header_count_valid and size < pages * page_size):
        raise CacheFileError(
            path,
            f"truncated SQLite database ({size} bytes, header says {pages} pages of "
            f"{page_size} bytes); restore it from a backup or salvage it with "
            "stepcache_integrations.core.stores.directory.salvage_database",
        )


# -- which database files this process has open ---------------------------------------------------

_lock = threading.Lock()
_open: dict[FileId, int] = {}


def claim(path: Path, *, check_header: bool = True) -> FileId | None:
    """Declare that a store of this process connects (or is about to connect) to ``path``.

    With ``check_header``, when no store of this process has the file open yet, its header is
    checked first (raising :class:`CacheFileError` for a damaged file, and claiming nothing).
    Returns the file's identity to pass to :func:`release`; ``None`` when the file does not
    exist yet (SQLite creates it on connecting: claim it then, without the header check).
    """
    with _lock:
        identity = file_id(path)
        if identity is None:
            return None
        if check_header and _open.get(identity, 0) == 0:
            inspect_sqlite_file(path)
        _open[identity] = _open.get(identity, 0) + 1
        return identity


def release(identity: FileId | None) -> None:
    """Undo one :func:`claim` (idempotence is the caller's business)."""
    if identity is None:
        return
    with _lock:
        left = _open.get(identity, 0) - 1
        if left > 0:
            _open[identity] = left
        else:
            _open.pop(identity, None)


def is_open_in_this_process(path: Path) -> bool:
    """Whether a store of this process has the database at ``path`` open."""
    identity = file_id(path)
    with _lock:
        return identity is not None and _open.get(identity, 0) > 0


@dataclass(frozen=True)
class FileIdentity:
    """The database file and write-ahead log a connection uses, as ``(device, inode)``.

    While a connection is open its ``-wal`` file is never deleted or replaced by SQLite (only
    the last connection to close removes it), so a change means something outside this
    process's connections removed it; writing on would go to a file nobody else sees. Inode
    numbers are a sound identity here: a file this process still holds open keeps its inode,
    so no new file can be given the same number meanwhile.

    Example:
        >>> import tempfile
        >>> db = Path(tempfile.mkdtemp()) / "x.sqlite"
        >>> _ = db.write_bytes(b"")
        >>> FileIdentity.of(db).changed(db) is None
        True
        >>> before = FileIdentity.of(db)
        >>> _ = db.with_name("new").write_bytes(b"")
        >>> _ = db.with_name("new").replace(db)  # the file is replaced by another one
        >>> before.changed(db)
        'the database file was deleted or replaced while this process had it open'
    """

    database: FileId | None
    wal: FileId | None

    @classmethod
    def of(cls, path: Path, *, with_wal: bool = True) -> FileIdentity:
        """The identity now (``with_wal=False``: the log is not watched, e.g. an immutable
        read-only database has none)."""
        return cls(file_id(path), file_id(f"{path}-wal") if with_wal else None)

    def changed(self, path: Path | str) -> str | None:
        """What changed since this identity was taken (``None``: nothing). Two ``stat`` calls
        (pass ``path`` as a string on hot paths: no conversion)."""
        if file_id(path) != self.database:
            return "the database file was deleted or replaced while this process had it open"
        if self.wal is not None and file_id(f"{path}-wal") != self.wal:
            return (
                "its write-ahead log (-wal) was deleted or replaced while this process had it "
                "open (another process closed it as if it were the last user, or it was "
                "removed by hand)"
            )
        return None
