"""A cache directory: entries in SQLite, the FAISS index as a file set rebuilt from them.

Layout of ``StepCache(path="dir")``::

    dir/stepcache.json            marker: this directory holds a cache (format, version)
    dir/entries.sqlite (+ -wal)   the entries: the only source of truth (see sqlite_store)
    dir/index/manifest.json       which index generation is current, and for which embedder
    dir/index/g<time>-<id>/       one FAISS file + JSON sidecar per namespace

The index files are derived data: they only save re-embedding every prompt at start-up. A
generation directory is written in full and then published by replacing ``manifest.json``
atomically, so a reader never sees a half-written set, and processes need no lock of ours.
Whatever the index files say, :meth:`CacheDirectory.reconcile` makes the in-memory index
agree with SQLite (ids missing from the files are embedded, ids no longer stored are dropped).

A corrupt index file raises :class:`IndexFileError` naming it, unless the cache was opened
with ``on_corrupt_index="rebuild"``: then the index is rebuilt from SQLite, losing nothing.

A directory opened with ``read_only=True`` is never written (also on a read-only filesystem):
the index is loaded and kept in memory, never saved. A directory this process cannot write,
opened without ``read_only``, is refused with :class:`CacheReadOnlyError` naming that fix.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import sqlite3
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from stepcache_integrations.core.configuration import (
    ConfigurationError,
    check_choice,
    check_path,
)
from stepcache_integrations.core.embeddings import Embedder, normalise_rows
from stepcache_integrations.core.entries import EntryDecodeError
from stepcache_integrations.core.faiss_index import FaissIndex, sidecar_path
from stepcache_integrations.core.stores.errors import (
    READ_ONLY_ADVICE,
    CacheCorruptError,
    CacheFileError,
    CacheReadOnlyError,
    create_directory,
    read_only_reason,
)
from stepcache_integrations.core.stores.sqlite import Durability, SqliteEntryStore, decode_row
from stepcache_integrations.core.stores.sqlite_files import is_open_in_this_process
from stepcache_integrations.core.vector_index import EmbeddingIndex

__all__ = [
    "DB_NAME",
    "INDEX_DIR",
    "MANIFEST_NAME",
    "MARKER_NAME",
    "CacheDirectory",
    "IndexFileError",
    "OnCorruptIndex",
    "SalvageReport",
    "salvage_database",
    "same_embedder",
]

logger = logging.getLogger(__name__)

DB_NAME = "entries.sqlite"
MARKER_NAME = "stepcache.json"
INDEX_DIR = "index"
MANIFEST_NAME = "manifest.json"

_MARKER_FORMAT = "stepcache-directory"
_MARKER_VERSION = 1
_MANIFEST_FORMAT = "stepcache-index"
_MANIFEST_VERSION = 1
_GENERATION = re.compile(r"g[0-9a-f]{1,20}-[0-9a-f]{8}")
_INDEX_FILE = re.compile(r"[0-9a-f]{32}\.faiss")
_GC_AGE = 60.0  # seconds an old generation stays for readers that are still loading it
_BATCH = 512  # prompts embedded per call when (re)building
_SAME_EMBEDDER = 0.999  # cosine of the probe vectors above which the embedder is the same
# Embedded with every save; a different vector at load time means another embedder.
_PROBE = "Solve for x: 3x + 5 = 20. Return a JSON object with keys name and age."

OnCorruptIndex = Literal["error", "rebuild"]
FloatArray = npt.NDArray[np.float32]


class IndexFileError(CacheFileError):
    """An index file (manifest, FAISS file or sidecar) is corrupt, truncated or foreign.

    The entries are safe in SQLite: open with ``on_corrupt_index="rebuild"`` (or call
    ``rebuild_index()``) to rebuild the index from them.

    Example:
        >>> isinstance(IndexFileError("idx.faiss", "corrupt"), ValueError)
        True
    """

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        super().__init__(
            path,
            f"{problem}; the entries are intact: open the cache with "
            "on_corrupt_index='rebuild' to rebuild the index from them",
        )


def _fsync_dir(path: Path) -> None:
    # Makes renames inside ``path`` durable; not supported everywhere (e.g. Windows).
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=True, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        _fsync_dir(path.parent)
    finally:
        tmp.unlink(missing_ok=True)


def _probe_vector(embedder: Embedder) -> FloatArray:
    vector: FloatArray = normalise_rows(embedder.embed([_PROBE]))[0]
    return vector


def same_embedder(first: Embedder, second: Embedder) -> bool:
    """Whether two embedders are interchangeable for one index: the same object, or the same
    type giving the same vector for a probe text (the test index files are checked with).

    Example:
        >>> from stepcache_integrations.core.embeddings import StructuralEmbedder
        >>> same_embedder(StructuralEmbedder(), StructuralEmbedder())
        True
        >>> same_embedder(StructuralEmbedder(), StructuralEmbedder(dim=256))
        False
    """
    if first is second:
        return True
    if type(first) is not type(second):
        return False
    a, b = _probe_vector(first), _probe_vector(second)
    return a.shape == b.shape and float(a @ b) >= _SAME_EMBEDDER


def _file_name(namespace: str) -> str:
    digest = hashlib.sha256(namespace.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{digest[:32]}.faiss"


def _link_pair(source: Path, target: Path) -> bool:
    """Hard-link an unchanged FAISS file and its sidecar into a new generation."""
    try:
        os.link(source, target)
        os.link(sidecar_path(source), sidecar_path(target))
    except OSError:
        target.unlink(missing_ok=True)
        sidecar_path(target).unlink(missing_ok=True)
        return False
    return True


def _index_error(error: Exception, path: Path) -> IndexFileError:
    """FaissIndex errors start with the path of the bad file (index or sidecar)."""
    message = str(error)
    for candidate in (sidecar_path(path), path):
        prefix = f"{candidate}: "
        if message.startswith(prefix):
            return IndexFileError(candidate, message[len(prefix) :])
    return IndexFileError(path, message)


@dataclass
class _Manifest:
    generation: str
    dim: int
    probe: FloatArray
    namespaces: dict[str, str]


class CacheDirectory:
    """Opens (or creates) a cache directory; owns its SQLite store and index files.

    :class:`~stepcache_integrations.core.cache.StepCache` uses it when given ``path``; use it
    directly only to inspect or repair a directory.

    Example:
        >>> import tempfile
        >>> from stepcache_integrations.core.embeddings import StructuralEmbedder
        >>> directory = CacheDirectory(tempfile.mkdtemp())
        >>> index = directory.open_index(StructuralEmbedder())
        >>> len(index), len(directory.store)
        (0, 0)
        >>> directory.close(index)
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_entries: int | None = None,
        durability: Durability = "full",
        read_only: bool = False,
    ) -> None:
        self.path = check_path("path", path)
        self.read_only = bool(read_only)
        if self.path.exists() and not self.path.is_dir():
            raise ConfigurationError(
                "path", f"{self.path} is a file; a cache path names a directory"
            )
        self.db_path = self.path / DB_NAME
        self.marker_path = self.path / MARKER_NAME
        self.index_dir = self.path / INDEX_DIR
        self.manifest_path = self.index_dir / MANIFEST_NAME
        if read_only:
            if not self.path.is_dir():
                raise CacheFileError(
                    self.path, "does not exist (read_only=True opens an existing cache)"
                )
        else:
            self._make_writable_directory()
        initialised = self._read_marker()
        if read_only and not initialised:
            raise CacheFileError(
                self.path,
                f"holds no cache ({MARKER_NAME} is missing): read_only=True opens an existing "
                "cache",
            )
        if initialised and (not self.db_path.exists() or self.db_path.stat().st_size == 0):
            # A deleted or zeroed database would otherwise be silently replaced by an empty one.
            raise CacheFileError(
                self.db_path,
                f"is missing or empty although {self.marker_path} says this directory holds a "
                "cache; restore the file from a backup, or delete the directory to start empty",
            )
        self.store = SqliteEntryStore(
            self.db_path, max_entries=max_entries, durability=durability, read_only=read_only
        )
        if not initialised:
            try:
                _write_json_atomic(
                    self.marker_path,
                    {"format": _MARKER_FORMAT, "version": _MARKER_VERSION, "database": DB_NAME},
                )
            except BaseException:
                self.store.close()
                raise
        self._save_lock = threading.Lock()
        self._seen_seq = 0
        self._seen_version: int | None = None
        self._saved: dict[str, tuple[int, Path]] = {}
        self._saved_version = -1
        self._probes: dict[int, FloatArray] = {}

    def _make_writable_directory(self) -> None:
        """Create the directory (a :class:`ConfigurationError` when it cannot be), or refuse an
        existing one this process cannot write, naming the fix (``read_only=True``)."""
        if not self.path.is_dir():
            create_directory("path", self.path)
            return
        reason = read_only_reason(self.path)
        if reason is not None:
            raise CacheReadOnlyError(self.path, f"cannot be written: {reason}; {READ_ONLY_ADVICE}")

    # -- marker and manifest -------------------------------------------------------------------

    def _read_marker(self) -> bool:
        try:
            data = json.loads(self.marker_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return False
        except (OSError, ValueError) as error:
            raise CacheFileError(self.marker_path, f"corrupt cache marker ({error})") from error
        if not isinstance(data, dict) or data.get("format") != _MARKER_FORMAT:
            raise CacheFileError(self.marker_path, "not a stepcache directory marker (foreign)")
        version = data.get("version")
        if not isinstance(version, int) or version > _MARKER_VERSION:
            raise CacheFileError(
                self.marker_path,
                f"directory layout version {version!r} is newer than this stepcache-integrations "
                f"reads ({_MARKER_VERSION}); upgrade the package or use another path",
            )
        return True

    def _read_manifest(self) -> _Manifest | None:
        path = self.manifest_path
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise IndexFileError(path, f"cannot be read ({error})") from error
        try:
            data = json.loads(text)
        except ValueError as error:
            raise IndexFileError(path, f"corrupt index manifest ({error})") from error
        if not isinstance(data, dict) or data.get("format") != _MANIFEST_FORMAT:
            raise IndexFileError(path, "not a stepcache index manifest (foreign file)")
        if data.get("version") != _MANIFEST_VERSION:
            # Derived data in another layout: rebuilding it loses nothing.
            logger.warning(
                "%s: index layout version %r is not %d; the index is rebuilt from %s",
                path,
                data.get("version"),
                _MANIFEST_VERSION,
                self.db_path,
            )
            return None
        try:
            return self._parse_manifest(data)
        except (KeyError, TypeError, ValueError, binascii.Error) as error:
            raise IndexFileError(path, f"malformed index manifest ({error!r})") from error

    @staticmethod
    def _parse_manifest(data: dict[str, Any]) -> _Manifest:
        generation, embedder, namespaces = data["generation"], data["embedder"], data["namespaces"]
        # Names are checked so a tampered manifest cannot point outside the index directory.
        if not isinstance(generation, str) or not _GENERATION.fullmatch(generation):
            raise ValueError(f"bad generation {generation!r}")
        if not isinstance(namespaces, dict) or not all(
            isinstance(ns, str) and isinstance(name, str) and _INDEX_FILE.fullmatch(name)
            for ns, name in namespaces.items()
        ):
            raise ValueError("bad namespace table")
        dim = embedder["dim"]
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
            raise ValueError(f"bad dimension {dim!r}")
        probe = np.frombuffer(base64.b64decode(embedder["probe"], validate=True), np.float32)
        if probe.shape != (dim,) or not np.all(np.isfinite(probe)):
            raise ValueError("bad probe vector")
        return _Manifest(generation, dim, probe, dict(namespaces))

    def _probe(self, embedder: Embedder) -> FloatArray:
        cached = self._probes.get(id(embedder))
        if cached is None:
            cached = _probe_vector(embedder)
            self._probes[id(embedder)] = cached
        return cached

    # -- loading, reconciling, syncing ---------------------------------------------------------

    def open_index(
        self, embedder: Embedder, on_corrupt_index: OnCorruptIndex = "error"
    ) -> EmbeddingIndex:
        """The in-memory index: loaded from the index files, then made to agree with SQLite."""
        check_choice("on_corrupt_index", on_corrupt_index, ("error", "rebuild"))
        index = EmbeddingIndex(embedder)
        if self.store.damage is not None:
            return index  # nothing is served from a damaged database: no index to build
        try:
            self._load(index)
        except IndexFileError as error:
            if on_corrupt_index == "error":
                raise
            logger.warning("%s; rebuilding the index from %s", error, self.db_path)
            self.rebuild_index(index)
            return index
        try:
            self.reconcile(index)
        except CacheCorruptError:
            # Reading the entries met a damaged page: the store now refuses every request
            # (answered by the model), and the index files are kept as they are for later.
            index.clear()
        return index

    def _load(self, index: EmbeddingIndex) -> None:
        for attempt in range(3):
            manifest = self._read_manifest()
            if manifest is None:
                return
            probe = self._probe(index.embedder)
            if probe.shape != manifest.probe.shape or (
                float(probe @ manifest.probe) < _SAME_EMBEDDER
            ):
                logger.info("%s: written for another embedder; re-embedding", self.manifest_path)
                return
            folder = self.index_dir / manifest.generation
            loaded: dict[str, tuple[FaissIndex, Path]] = {}
            failure: tuple[Exception, Path] | None = None
            for namespace, name in manifest.namespaces.items():
                try:
                    loaded[namespace] = (FaissIndex.load(folder / name), folder / name)
                except (FileNotFoundError, ValueError) as error:
                    failure = (error, folder / name)
                    break
            if failure is not None:
                # Another process may have published a newer generation and removed this one
                # while we read it: only an error that persists is a corrupt file.
                again = self._read_manifest()
                if attempt < 2 and again is not None and again.generation != manifest.generation:
                    continue
                cause, file = failure
                if isinstance(cause, FileNotFoundError):
                    raise IndexFileError(
                        file, "listed in the index manifest but missing"
                    ) from cause
                raise _index_error(cause, file) from cause
            for namespace, (faiss_index, file) in loaded.items():
                if faiss_index.dim != manifest.dim:
                    raise IndexFileError(file, f"dimension {faiss_index.dim} != {manifest.dim}")
                self._saved[namespace] = (index.install(namespace, faiss_index), file)
            self._saved_version = index.version
            return

    def reconcile(self, index: EmbeddingIndex) -> tuple[int, int]:
        """Make ``index`` hold exactly the decodable entries of SQLite; returns
        ``(added, removed)``. Cost: one id scan, plus embedding what is missing."""
        version = self.store.data_version()
        seq = self.store.last_seq()  # read before the ids: later stores are found by sync()
        stored = self.store.id_namespaces()
        indexed = index.ids()
        extra = [i for i, ns in indexed.items() if stored.get(i) != ns]
        index.remove(extra)
        missing = {i for i, ns in stored.items() if indexed.get(i) != ns}
        added = 0
        if missing:
            if len(missing) > 1000:
                source = (entry for entry, _ in self.store.entries_since(0))
                wanted = (entry for entry in source if entry.id in missing)
            else:
                wanted = (e for e in map(self.store.get, sorted(missing)) if e is not None)
            batch: list[tuple[str, str, str]] = []
            for entry in wanted:
                batch.append((entry.id, entry.prompt, entry.namespace))
                if len(batch) == _BATCH:
                    index.add_many(batch)
                    added, batch = added + len(batch), []
            index.add_many(batch)
            added += len(batch)
        self._seen_seq, self._seen_version = seq, version
        return added, len(extra)

    def sync(self, index: EmbeddingIndex) -> int:
        """Index what other processes stored since the last sync (cheap when nothing
        changed: one ``PRAGMA data_version``). Returns how many entries were added."""
        version = self.store.data_version()
        if version == self._seen_version:
            return 0
        self._seen_version = version
        batch: list[tuple[str, str, str]] = []
        last = self._seen_seq
        for entry, seq in self.store.entries_since(self._seen_seq):
            last = seq
            if entry.id not in index:
                batch.append((entry.id, entry.prompt, entry.namespace))
        index.add_many(batch)
        self._seen_seq = last
        return len(batch)

    def rebuild_index(self, index: EmbeddingIndex) -> int:
        """Drop the index and re-embed every decodable entry, then save it (kept in memory
        only, when read-only); returns the count."""
        index.clear()
        self._saved.clear()
        self.reconcile(index)
        if not self.read_only:
            self.save_index(index)
        return len(index)

    # -- saving --------------------------------------------------------------------------------

    def dirty(self, index: EmbeddingIndex) -> bool:
        """Whether ``index`` changed since it was loaded or saved."""
        return index.version != self._saved_version

    def save_index(self, index: EmbeddingIndex) -> Path:
        """Write the index as a new generation and publish it; returns the manifest path.

        Unchanged namespaces are hard-linked from the previous generation, so a save costs
        about what changed. Safe against a crash at any point (the old manifest stays valid)
        and against other processes saving at the same time (the last manifest wins; each
        generation is complete).
        """
        if self.read_only:
            raise CacheReadOnlyError(
                self.path, "this cache was opened with read_only=True: the index is not saved"
            )
        if self.store.damage is not None:
            # The index of a damaged database is not loaded: saving it would drop the files.
            raise CacheCorruptError(self.db_path, self.store.damage)
        with self._save_lock:
            total = index.version
            partitions = index.partitions()
            probe = self._probe(index.embedder)
            generation = f"g{time.time_ns():x}-{uuid.uuid4().hex[:8]}"
            self.index_dir.mkdir(exist_ok=True)
            staging = self.index_dir / f".tmp-{generation}"
            staging.mkdir()
            names: dict[str, str] = {}
            saved: dict[str, tuple[int, Path]] = {}
            try:
                for namespace, (faiss_index, version) in partitions.items():
                    if len(faiss_index) == 0:
                        continue
                    name = _file_name(namespace)
                    previous = self._saved.get(namespace)
                    unchanged = previous is not None and previous[0] == version
                    if not (unchanged and previous and _link_pair(previous[1], staging / name)):
                        faiss_index.save(staging / name)
                    names[namespace] = name
                    saved[namespace] = (version, self.index_dir / generation / name)
                _fsync_dir(staging)
                os.rename(staging, self.index_dir / generation)
                _fsync_dir(self.index_dir)
                _write_json_atomic(
                    self.manifest_path,
                    {
                        "format": _MANIFEST_FORMAT,
                        "version": _MANIFEST_VERSION,
                        "generation": generation,
                        "embedder": {
                            "type": type(index.embedder).__qualname__,
                            "dim": int(probe.shape[0]),
                            "probe": base64.b64encode(probe.astype(np.float32).tobytes()).decode(),
                        },
                        "namespaces": names,
                        "entries": sum(len(part) for part, _ in partitions.values()),
                    },
                )
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
            self._saved, self._saved_version = saved, total
            self._collect_garbage(keep=generation)
            return self.manifest_path

    def _collect_garbage(self, keep: str) -> None:
        """Remove generations (and crashed staging folders) older than a minute."""
        horizon = time.time() - _GC_AGE
        for child in self.index_dir.iterdir():
            is_generation = _GENERATION.fullmatch(child.name) or child.name.startswith(".tmp-g")
            if not child.is_dir() or not is_generation or child.name == keep:
                continue
            with contextlib.suppress(OSError):
                if child.stat().st_mtime < horizon:
                    shutil.rmtree(child, ignore_errors=True)

    def close(self, index: EmbeddingIndex | None = None) -> None:
        """Save ``index`` if it changed, then close the store. The index is derived data: a
        failed save is logged and costs re-embedding at the next open, nothing else."""
        try:
            sound = self.store.damage is None
            if index is not None and not self.read_only and sound and self.dirty(index):
                self.save_index(index)
        except Exception as error:
            logger.warning("%s: index not saved at close (rebuilt next time): %r", self.path, error)
        finally:
            self.store.close()


# -- salvage -------------------------------------------------------------------------------------


@dataclass
class SalvageReport:
    """What :func:`salvage_database` recovered.

    ``moved_to`` is where the damaged file now is (never deleted); ``recovered`` rows were
    copied to a fresh database at ``path``; ``decodable`` of them decode as entries (the
    others are kept, reported as unreadable); ``unreadable_rowids`` could not be read at all.

    Example:
        >>> report = SalvageReport(path="c/entries.sqlite", moved_to="c/entries.sqlite.corrupt")
        >>> report.recovered, report.unreadable_rowids
        (0, [])
    """

    path: str
    moved_to: str
    recovered: int = 0
    decodable: int = 0
    unreadable_rowids: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _rowid_bound(conn: sqlite3.Connection, errors: list[str]) -> int:
    bounds = [0]
    for query in (
        "SELECT MAX(rowid) FROM entries",
        "SELECT value FROM stepcache_meta WHERE key='seq'",
    ):
        try:
            row = conn.execute(query).fetchone()
            if row and row[0] is not None:
                bounds.append(int(row[0]))
        except (sqlite3.Error, ValueError) as error:
            errors.append(f"{query}: {error}")
    return max(bounds)


def salvage_database(path: str | os.PathLike[str]) -> SalvageReport:
    """Copy every row still readable from a damaged entry database into a new one.

    ``path`` is a cache directory or its ``entries.sqlite``. The damaged file (with its WAL)
    is first renamed to ``entries.sqlite.corrupt-<time>`` and never modified or deleted; rows
    are read one by one from a temporary copy, so a damaged page loses only the rows on it.

    Close every cache on the path first, in this process (enforced: copying a database file
    this process has open would release its connections' locks) and in every other process.

    Example:
        >>> import tempfile, pathlib
        >>> from stepcache_integrations.core.steps import Step
        >>> from stepcache_integrations.core.entries import CacheEntry
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> store = SqliteEntryStore(folder / "entries.sqlite")
        >>> _ = store.put(CacheEntry.create("ns", None, "q", [Step("a")], "paragraph"))
        >>> store.close()
        >>> salvage_database(folder).recovered
        1
    """
    source = Path(path)
    if source.is_dir():
        source = source / DB_NAME
    if not source.is_file():
        raise FileNotFoundError(f"no entry database at {source}")
    if is_open_in_this_process(source):
        raise RuntimeError(
            f"{source} is open in this process: close every StepCache (and store) on it "
            "before salvaging, and stop other processes using it"
        )
    moved = source.with_name(f"{source.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            os.replace(f"{source}{suffix}", f"{moved}{suffix}")
    report = SalvageReport(path=str(source), moved_to=str(moved))
    rows: list[tuple[Any, ...]] = []
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch) / "copy.sqlite"
        for suffix in ("", "-wal"):
            if Path(f"{moved}{suffix}").exists():
                shutil.copyfile(f"{moved}{suffix}", f"{work}{suffix}")
        try:
            conn = sqlite3.connect(str(work), isolation_level=None)
        except sqlite3.Error as error:
            report.errors.append(f"open: {error}")
            conn = None
        if conn is not None:
            try:
                bound = _rowid_bound(conn, report.errors)
                for rowid in range(1, bound + 1):
                    try:
                        row = conn.execute(
                            "SELECT id, key, namespace, tenant, created_at, last_used_at, payload"
                            " FROM entries WHERE rowid = ?",
                            (rowid,),
                        ).fetchone()
                    except sqlite3.Error:
                        report.unreadable_rowids.append(rowid)
                        continue
                    if row is not None:
                        rows.append(tuple(row))
            finally:
                conn.close()
    store = SqliteEntryStore(source)
    try:
        entries, raw = [], []
        for row in rows:
            try:
                entries.append(decode_row(row))
            except EntryDecodeError:
                raw.append(row)
        with store.maintenance():
            store.put_many(entries)
            report.decodable = len(entries)
            report.recovered = len(entries) + store.import_raw_rows(raw)
    finally:
        store.close()
    logger.info(  # the caller has the report
        "salvaged %s: %d rows recovered, %d unreadable; the damaged file is kept at %s",
        source,
        report.recovered,
        len(report.unreadable_rowids),
        moved,
    )
    return report
