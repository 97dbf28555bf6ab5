"""The real peers StepCache is compared with: GPTCache and sulci, each through its public API.

Both are full-response semantic caches: embed the request, find the nearest stored request
and, when it is similar enough, return that request's whole answer. Each is configured the
way its own documentation recommends, with two changes that keep the comparison about the
reuse rule and not about the embedding:

* **the embedder is StepCache's** (``StructuralEmbedder``: no model, no network), given
  through each peer's embedding hook: GPTCache's ``embedding_func``, sulci's
  ``embedding_model`` (its ``Embedder`` protocol). Neither peer ships an embedder that works
  offline (GPTCache's ONNX model and sulci's sentence-transformers models come from a model
  hub);
* **the similarity threshold is StepCache's** (``Policy().similarity_threshold``, cosine 0.75)
  unless a caller passes another one. sulci takes a cosine threshold as it is; GPTCache takes
  a score in [0, 1] over FAISS's squared L2 distance (see :func:`gptcache_threshold`).

The configurations (``describe()`` says the same at run time, with the installed versions):

* **GPTCache**: ``Cache.init`` as its ``init_similar_cache`` helper does for its ``get`` /
  ``put`` API: ``pre_embedding_func=get_prompt``, a data manager over SQLite + FAISS
  (``manager_factory("sqlite,faiss")``), ``SearchDistanceEvaluation``, ``Config``. GPTCache
  pip-installs SQLAlchemy and faiss-cpu when they are missing; the ``peers`` extra declares
  them, and :func:`require_peer` refuses to start without them, so nothing installs at run
  time.
* **sulci**: ``sulci.Cache(backend=..., embedding_model=..., threshold=..., telemetry=False)``,
  stateless (no ``context_window``), ``get`` / ``set``. The benchmark mode uses its FAISS
  backend (its fastest local one: each lookup searches its entries exactly with NumPy); the
  FAISS backend rewrites its index and a pickle of its entries on every store, which is cheap
  at the benchmark's few hundred entries and quadratic beyond (10,000 stores take minutes).
  Its SQLite backend stores quickly but searches in Python, entry by entry.

Nothing here reaches a network: the embedder is local, sulci's telemetry is off, and the
Hugging Face offline switches are set (:func:`stay_offline`) in case a peer's code path ever
tries a hub.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import importlib.util
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from stepcache_integrations.core.embeddings import Embedder, StructuralEmbedder, normalise_rows

__all__ = [
    "GPTCACHE_DEFAULT_SIMILARITY",
    "PEERS",
    "PEER_MODULES",
    "SULCI_BACKENDS",
    "SULCI_DEFAULT_THRESHOLD",
    "GPTCachePeer",
    "Peer",
    "PeerEmbedding",
    "PeerName",
    "PeerUnavailable",
    "SulciPeer",
    "gptcache_threshold",
    "one_faiss_thread",
    "open_peer",
    "ram_disk",
    "require_peer",
    "stay_offline",
]

PeerName = Literal["gptcache", "sulci"]
PEERS: tuple[PeerName, ...] = ("gptcache", "sulci")
# The modules each peer imports and the distribution that ships each (what a message names).
# GPTCache needs SQLAlchemy and faiss-cpu for its SQLite and FAISS stores but does not declare
# them: without them it runs ``pip install`` at run time.
PEER_MODULES: dict[str, dict[str, str]] = {
    "gptcache": {"gptcache": "gptcache", "sqlalchemy": "SQLAlchemy", "faiss": "faiss-cpu"},
    "sulci": {"sulci": "sulci", "faiss": "faiss-cpu"},
}
SULCI_BACKENDS = ("faiss", "sqlite")
# The peers' own defaults, for the near-miss check at each peer's default threshold:
# GPTCache's ``Config().similarity_threshold`` and sulci's ``DEFAULT_THRESHOLD`` (cosine).
GPTCACHE_DEFAULT_SIMILARITY = 0.8
SULCI_DEFAULT_THRESHOLD = 0.85
# The Hugging Face switches that keep any hub-loading code offline (no peer path here loads a
# model; these make sure one never tries).
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}


class PeerUnavailable(ModuleNotFoundError):
    """A peer (or a module it needs) is not installed; ``str()`` is the one-line fix.

    Example:
        >>> print(PeerUnavailable("sulci", ["sulci"]))
        sulci is not installed; the sulci mode needs the peers extra: pip install -e ".[peers]"
    """

    def __init__(self, peer: str, missing: Sequence[str]) -> None:
        names = [PEER_MODULES.get(peer, {}).get(m, m) for m in missing]
        verb = "is" if len(names) == 1 else "are"
        super().__init__(
            f"{', '.join(names)} {verb} not installed; the {peer} mode needs the peers extra: "
            'pip install -e ".[peers]"',
            name=missing[0] if missing else peer,
        )


def require_peer(name: str) -> None:
    """Raise :class:`PeerUnavailable` unless ``name`` and every module it needs import here."""
    if name not in PEER_MODULES:
        raise ValueError(f"unknown peer {name!r}; choose from {', '.join(PEERS)}")
    missing = [m for m in PEER_MODULES[name] if not _installed(m)]
    if missing:
        raise PeerUnavailable(name, missing)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def stay_offline() -> None:
    """Set the Hugging Face offline switches (unless the caller set them already)."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)


def gptcache_threshold(cosine: float) -> float:
    """GPTCache's ``similarity_threshold`` that serves exactly the neighbours at ``cosine``.

    GPTCache scores a FAISS neighbour as ``4 - d`` (``SearchDistanceEvaluation``, ``d`` the
    squared L2 distance, capped at 4) and serves it when the score is at least
    ``4 * similarity_threshold``. For unit vectors ``d = 2 - 2 cos``, so the rule is
    ``cos >= 2 * similarity_threshold - 1``: its default 0.8 serves neighbours down to cosine
    0.6.

    Example:
        >>> gptcache_threshold(0.75)
        0.875
    """
    if not -1.0 <= cosine <= 1.0:
        raise ValueError(f"cosine must be in [-1, 1], got {cosine!r}")
    return (1.0 + cosine) / 2.0


@contextmanager
def one_faiss_thread() -> Iterator[None]:
    """FAISS on one OpenMP thread inside the block, as StepCache's own index searches.

    OpenMP's default (a thread per core) is what the peers get out of the box; on a small
    shared machine its threads wait on each other and a search of a few thousand vectors
    takes milliseconds instead of microseconds. Every cache in the benchmark searches on one
    thread, so none is slowed by that and the comparison is of the caches themselves.
    """
    import faiss

    previous = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(previous)


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


class PeerEmbedding:
    """StepCache's embedder in the shape both peers' embedding hooks take.

    GPTCache calls ``to_embeddings(text)`` (one vector, as its ``BaseEmbedding``); sulci calls
    ``embed(text)`` / ``embed_batch(texts)`` and reads ``dimension`` (its ``Embedder``
    protocol). Vectors are L2-normalised, as sulci requires and GPTCache's L2 search assumes.

    Example:
        >>> e = PeerEmbedding()
        >>> e.dimension, round(sum(x * x for x in e.embed("Solve 2x = 4.")), 5)
        (512, 1.0)
    """

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder: Embedder = embedder or StructuralEmbedder()
        self._dimension = int(self.vectors(["probe"]).shape[1])

    def vectors(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Unit vectors of ``texts``, one row each."""
        return normalise_rows(self.embedder.embed(list(texts)))

    @property
    def dimension(self) -> int:
        """The vectors' length."""
        return self._dimension

    def to_embeddings(self, data: Any, **_: Any) -> npt.NDArray[np.float32]:
        """GPTCache's hook: one text to one vector."""
        vector: npt.NDArray[np.float32] = self.vectors([str(data)])[0]
        return vector

    def embed(self, text: str) -> list[float]:
        """sulci's hook: one text to one vector."""
        values: list[float] = self.vectors([text])[0].tolist()
        return values

    def embed_batch(self, texts: list[str]) -> list[list[float]]:
        """sulci's hook: texts to vectors."""
        values: list[list[float]] = self.vectors(texts).tolist()
        return values


class Peer(Protocol):
    """A peer cache reached through its own API: look a text up, store a text's answer."""

    name: PeerName

    def lookup(self, text: str) -> str | None:
        """The stored answer the peer serves for ``text``, or ``None`` (a miss)."""
        ...

    def store(self, text: str, answer: str) -> None:
        """Store ``answer`` for ``text`` (as after a model call)."""
        ...

    def store_many(self, texts: Sequence[str], answers: Sequence[str]) -> None:
        """Store many answers at once (filling a large cache for the overhead benchmark)."""
        ...

    def describe(self) -> dict[str, Any]:
        """How the peer is configured: version, embedder, threshold, store."""
        ...

    def close(self) -> None:
        """Release the peer's files and connections."""
        ...


def ram_disk() -> str | None:
    """``/dev/shm`` where it is a writable directory (Linux), else ``None`` (the system's
    temporary directory): the peers' files live there, so no lookup waits for a disk."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None


def _scratch_dir(prefix: str) -> str:
    """A temporary directory removed when the process exits, after the peers' own exit hooks
    (``atexit`` runs hooks last-registered first, and this one is registered before the peer
    that uses the directory: GPTCache writes its FAISS index there when the process ends)."""
    path = tempfile.mkdtemp(prefix=prefix, dir=ram_disk())
    atexit.register(shutil.rmtree, path, True)
    return path


class GPTCachePeer:
    """GPTCache 0.1.x with a SQLite + FAISS data manager, ``get`` / ``put`` through its API.

    ``threshold`` is a cosine similarity (StepCache's scale), turned into GPTCache's own by
    :func:`gptcache_threshold`; ``similarity`` sets GPTCache's value directly instead.
    ``max_size`` is the data manager's LRU capacity (GPTCache's default: 1,000 entries).

    Example:
        >>> peer = GPTCachePeer(threshold=0.75)
        >>> peer.store("Solve 3x + 5 = 20 for x.", "x = 5")
        >>> peer.lookup("Solve 3x + 5 = 26 for x.")  # a near prompt: the old answer
        'x = 5'
        >>> peer.close()
    """

    name: PeerName = "gptcache"

    def __init__(
        self,
        embedding: PeerEmbedding | None = None,
        threshold: float = 0.75,
        *,
        similarity: float | None = None,
        max_size: int = 1_000,
    ) -> None:
        require_peer("gptcache")
        stay_offline()
        from gptcache import Cache, Config
        from gptcache.manager import manager_factory
        from gptcache.processor.pre import get_prompt
        from gptcache.similarity_evaluation import SearchDistanceEvaluation

        self.embedding = embedding or PeerEmbedding()
        self.similarity = gptcache_threshold(threshold) if similarity is None else similarity
        self.max_size = max_size
        self.directory = _scratch_dir("stepcache-bench-gptcache-")
        with warnings.catch_warnings():
            # GPTCache's SQL store uses an API SQLAlchemy 2 moved (a DeprecationWarning).
            warnings.simplefilter("ignore", DeprecationWarning)
            data_manager = manager_factory(
                "sqlite,faiss",
                data_dir=self.directory,
                vector_params={"dimension": self.embedding.dimension},
                eviction_params={"max_size": max_size},
            )
        self.cache = Cache()
        self.cache.init(
            pre_embedding_func=get_prompt,
            embedding_func=self.embedding.to_embeddings,
            data_manager=data_manager,
            similarity_evaluation=SearchDistanceEvaluation(),
            config=Config(similarity_threshold=self.similarity),
        )
        self._closed = False

    def lookup(self, text: str) -> str | None:
        from gptcache.adapter.api import get

        with one_faiss_thread():
            answer = get(text, cache_obj=self.cache)
        return None if answer is None else str(answer)

    def store(self, text: str, answer: str) -> None:
        from gptcache.adapter.api import put

        with one_faiss_thread():
            put(text, answer, cache_obj=self.cache)

    def store_many(self, texts: Sequence[str], answers: Sequence[str]) -> None:
        with one_faiss_thread():
            self.cache.import_data(list(texts), list(answers))

    def describe(self) -> dict[str, Any]:
        return {
            "peer": "GPTCache",
            "version": _version("gptcache"),
            "api": "gptcache.adapter.api.get / put on a gptcache.Cache (Cache.init)",
            "embedder": f"StepCache's {type(self.embedding.embedder).__name__} through "
            f"embedding_func ({self.embedding.dimension} dimensions, unit vectors)",
            "threshold": f"similarity_threshold {self.similarity:g} with "
            f"SearchDistanceEvaluation: serves neighbours with cosine >= "
            f"{2 * self.similarity - 1:g} (GPTCache's default 0.8 means cosine >= 0.6)",
            "store": f"manager_factory('sqlite,faiss'): SQLite (SQLAlchemy "
            f"{_version('SQLAlchemy')}) + FAISS IndexFlatL2 (faiss-cpu {_version('faiss-cpu')}), "
            f"LRU eviction at {self.max_size:,} entries",
            "pre_embedding_func": "get_prompt",
        }

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.cache.data_manager.close()


class SulciPeer:
    """sulci's ``Cache`` on a local backend (``"faiss"`` or ``"sqlite"``), ``get`` / ``set``.

    Example:
        >>> peer = SulciPeer(threshold=0.75, backend="sqlite")
        >>> peer.store("Solve 3x + 5 = 20 for x.", "x = 5")
        >>> peer.lookup("Solve 3x + 5 = 26 for x.")  # a near prompt: the old answer
        'x = 5'
        >>> peer.close()
    """

    name: PeerName = "sulci"

    def __init__(
        self,
        embedding: PeerEmbedding | None = None,
        threshold: float = 0.75,
        *,
        backend: str = "faiss",
    ) -> None:
        if backend not in SULCI_BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(SULCI_BACKENDS)}, got {backend!r}")
        require_peer("sulci")
        stay_offline()
        from sulci import Cache

        self.embedding = embedding or PeerEmbedding()
        self.threshold = threshold
        self.backend = backend
        self.directory = tempfile.mkdtemp(
            prefix=f"stepcache-bench-sulci-{backend}-", dir=ram_disk()
        )
        self.cache = Cache(
            backend=backend,
            threshold=threshold,
            embedding_model=self.embedding,
            db_path=self.directory,
            telemetry=False,
        )

    def lookup(self, text: str) -> str | None:
        with one_faiss_thread():
            answer, _, _ = self.cache.get(text)
        return None if answer is None else str(answer)

    def store(self, text: str, answer: str) -> None:
        with one_faiss_thread():
            self.cache.set(text, answer)

    def store_many(self, texts: Sequence[str], answers: Sequence[str]) -> None:
        # sulci's API stores one entry at a time (its backends have no batch store).
        with one_faiss_thread():
            for text, answer in zip(texts, answers, strict=True):
                self.cache.set(text, answer)

    def describe(self) -> dict[str, Any]:
        store = {
            "faiss": "FAISS backend: an HNSW index that holds the vectors, each lookup scores "
            "every entry exactly with NumPy; every store rewrites the index file and a pickle "
            "of all entries",
            "sqlite": "SQLite backend: one row per entry, each lookup reads every row and "
            "scores it in Python",
        }[self.backend]
        return {
            "peer": "sulci",
            "version": _version("sulci"),
            "api": "sulci.Cache.get / set (stateless: no context_window, no session_id)",
            "embedder": f"StepCache's {type(self.embedding.embedder).__name__} through "
            f"embedding_model ({self.embedding.dimension} dimensions, unit vectors)",
            "threshold": f"cosine >= {self.threshold:g} (sulci's default 0.85)",
            "store": f"{store} (faiss-cpu {_version('faiss-cpu')})",
            "telemetry": "off (telemetry=False; no API key)",
        }

    def close(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def open_peer(
    name: str,
    *,
    embedder: Embedder | None = None,
    threshold: float = 0.75,
    **options: Any,
) -> Peer:
    """The peer ``name`` with ``embedder`` (StepCache's by default) and a cosine ``threshold``.

    ``options`` go to the peer's class (``backend=`` for sulci, ``max_size=`` or
    ``similarity=`` for GPTCache).
    """
    embedding = PeerEmbedding(embedder)
    if name == "gptcache":
        return GPTCachePeer(embedding, threshold, **options)
    if name == "sulci":
        return SulciPeer(embedding, threshold, **options)
    raise ValueError(f"unknown peer {name!r}; choose from {', '.join(PEERS)}")
