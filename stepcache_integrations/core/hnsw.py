"""The approximate search graph behind large :class:`~.faiss_index.FaissIndex` instances.

A ``faiss.IndexHNSWFlat`` over inner products, holding one node per *distinct* vector, each node
carrying the int64 ids stored with that vector. It is a derived structure: the exact flat index
of :class:`~.faiss_index.FaissIndex` remains the source of truth, and this graph can always be
rebuilt from it.

Why one node per distinct vector, and why an exact-match lookup beside the graph: embedders
used for caching produce many bitwise-identical vectors (the default ``StructuralEmbedder``
gives 62,000 distinct vectors for 100,000 equation and JSON prompts, with up to 16 copies of
one). HNSW's neighbour-selection heuristic prunes a link to a node when an already chosen
neighbour is at least as close to it, and an identical copy is always that close: measured on
those 100,000 prompts, 36% of the nodes ended up with no incoming link at all, unreachable by
any search, and a repeated prompt found itself (or a copy) only 62-69% of the time for an
efSearch from 64 to 512. Collapsing copies into one node leaves every copy reachable; the
lookup then makes a query that *equals* a stored vector find it even inside a plateau of
thousands of vectors at nearly the same similarity (0.9968 to one another), where greedy graph
search has no gradient to follow. Together they take that data from a recall@4 of about 0.68
to 0.97 and a top-1 of 0.62 to 0.99, with every repeated prompt finding itself; the top-1
misses sampled were near-ties (the best score missed by less than 0.001).

Removals leave tombstones: a node whose id set is empty stays in the graph (FAISS cannot delete
HNSW nodes) and is skipped at search time; the same vector added again revives it. The owner
rebuilds the graph when tombstones grow past a fraction of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

__all__ = ["EF_CONSTRUCTION", "EF_SEARCH", "HNSW_M", "HnswGraph", "vector_key"]

FloatArray = npt.NDArray[np.float32]

# M = 32 links per node (64 on the bottom layer), common for dimensions in the hundreds. On
# 100,000 clustered 512-d vectors M = 16 lost 2 points of recall@4 at the same efSearch; on
# embedder data M = 64 (efConstruction 200) took 9x as long to build and still missed the
# plateaus described above.
HNSW_M = 32
# FAISS's default. Doubling it doubled the build time (11 s -> 23 s for 100,000 x 512 on two
# cores) for 2 points of recall@4 at efSearch 64; the build is paid by mutations and loads
# under the index lock, so it is kept cheap.
EF_CONSTRUCTION = 40
# Candidate-list size per search. On 100,000 clustered 512-d unit vectors (M = 32,
# efConstruction = 40), recall@4 against exact search and median latency on one thread:
# 0.940 / 0.09 ms at 32, 0.985 / 0.11 ms at 64, 0.994 / 0.21 ms at 128, 0.995 / 0.41 ms at
# 256. 64 clears the 0.95 target with a margin at nearly the cost of 32. A search for more
# than ``EF_SEARCH`` results uses that count instead (FAISS takes the larger of the two).
EF_SEARCH = 64


def vector_key(vector: FloatArray) -> bytes:
    """A 128-bit digest of a float32 vector's bytes, identifying bitwise-identical vectors.

    A digest rather than the 2 KB of raw bytes keeps the key map small; at 128 bits an
    accidental collision among even billions of vectors has negligible probability.
    """
    return hashlib.blake2b(np.ascontiguousarray(vector).tobytes(), digest_size=16).digest()


class HnswGraph:
    """HNSW inner-product search over distinct vectors, each node carrying a set of int ids.

    Not thread-safe on its own: :class:`~.faiss_index.FaissIndex` calls it under its lock.
    Vectors are expected L2-normalised, so inner products are cosine similarities.
    """

    def __init__(self, dim: int) -> None:
        self._dim = dim
        self._graph: Any = faiss.IndexHNSWFlat(dim, HNSW_M, faiss.METRIC_INNER_PRODUCT)
        self._graph.hnsw.efConstruction = EF_CONSTRUCTION
        self._graph.hnsw.efSearch = EF_SEARCH
        self._node_of_key: dict[bytes, int] = {}
        # Dicts used as insertion-ordered sets: removing one id from a node that carries
        # thousands of copies (e.g. every empty prompt) stays O(1).
        self._members: list[dict[int, None]] = []
        self._node_of: dict[int, int] = {}
        self._live = 0  # nodes with at least one id

    @classmethod
    def build(cls, dim: int, chunks: Iterable[tuple[FloatArray, Sequence[int]]]) -> HnswGraph:
        """A graph over every ``(vectors, int_ids)`` chunk, e.g. read from a flat index.

        Chunked so that building from a large flat index never holds a second full copy of
        its vectors in memory besides the graph's own.
        """
        graph = cls(dim)
        for vectors, int_ids in chunks:
            graph.add(vectors, int_ids)
        return graph

    @property
    def nodes(self) -> int:
        """Nodes in the graph, tombstones included."""
        return len(self._members)

    @property
    def tombstones(self) -> int:
        """Nodes no id refers to any more (skipped at search time until a rebuild)."""
        return len(self._members) - self._live

    def add(self, vectors: FloatArray, int_ids: Sequence[int]) -> None:
        """Attach each id to the node of its vector, inserting nodes for unseen vectors.

        Ids must not be attached already (:meth:`discard` them first when replacing).
        """
        fresh: list[int] = []
        for row, int_id in enumerate(int_ids):
            key = vector_key(vectors[row])
            node = self._node_of_key.get(key)
            if node is None:
                # Registered before the FAISS add below so that copies within this batch
                # share the node; labels are assigned by FAISS in insertion order.
                node = self._node_of_key[key] = len(self._members)
                self._members.append({})
                fresh.append(row)
            self._attach(int(int_id), node)
        if fresh:
            self._graph.add(np.ascontiguousarray(vectors[fresh], dtype=np.float32))
        if self._graph.ntotal != len(self._members):  # a failed add must not go unnoticed
            raise RuntimeError("HNSW graph and its node table disagree")

    def discard(self, int_ids: Iterable[int]) -> None:
        """Detach ids from their nodes (unknown ids are ignored); emptied nodes become
        tombstones."""
        for int_id in int_ids:
            node = self._node_of.pop(int(int_id), None)
            if node is None:
                continue
            members = self._members[node]
            del members[int(int_id)]
            if not members:
                self._live -= 1

    def _attach(self, int_id: int, node: int) -> None:
        members = self._members[node]
        if not members:
            self._live += 1  # a new node, or a tombstone revived by its vector coming back
        members[int_id] = None
        self._node_of[int_id] = node

    def candidates(self, query: FloatArray, fetch: int) -> list[tuple[float, list[int]]]:
        """Up to ``fetch`` live nodes nearest to ``query`` (shape ``(1, dim)``), best first, as
        ``(inner product, ids of that node)``.

        A node whose vector equals the query is always included (looked up, not searched).
        Tombstones are dropped, so fewer than ``fetch`` may come back: widen and ask again.
        """
        scores, labels = self._graph.search(query, fetch)
        found: list[tuple[float, int]] = [
            (float(score), int(label))
            for score, label in zip(scores[0], labels[0], strict=True)
            if label >= 0
        ]
        exact = self._node_of_key.get(vector_key(query[0]))
        if exact is not None and all(label != exact for _, label in found):
            score = float(np.dot(query[0].astype(np.float64), query[0].astype(np.float64)))
            found.append((score, exact))
            # Stable sort: the graph's own order is kept among equal scores.
            found.sort(key=lambda item: -item[0])
        return [(score, list(self._members[node])) for score, node in found if self._members[node]]
