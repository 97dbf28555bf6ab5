"""The peers' hit path (GPTCache, sulci), timed in the same process as StepCache's.

Each peer is filled, through its own API, with the same verified equation answers StepCache's
overhead benchmark stores (same seed, same order), and at 10,000 and 100,000 entries (or at
``entries`` when that is smaller) two kinds of lookup are timed through its public ``get``:

* ``exact``: the prompt of a stored equation (a peer has no exact path: it embeds and searches
  like any other lookup);
* ``nearest``: that equation with its variable renamed (the same probes StepCache's nearest
  hit gets), a hit when the peer serves the neighbour's answer.

Every cache searches FAISS on one OpenMP thread (:func:`~.peers.one_faiss_thread`), the
peers' files live on a RAM disk where there is one (``/dev/shm``), so neither the disk nor
OpenMP's waiting threads slow a peer down. What cannot be measured in reasonable time is
skipped and said so: sulci's FAISS backend rewrites its whole index and a pickle of every
entry on each store (the number of bytes written grows with every entry, so filling it grows
with the square of the entries), so it is measured up to :data:`SULCI_FAISS_MAX_ENTRIES`; its
SQLite backend reads and scores every row in Python on each lookup, so its lookups are timed
for at most ``budget_s`` per kind and size (at least :data:`MIN_PROBES` of each).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stepcache_integrations.bench.equations import LinearEquation
from stepcache_integrations.bench.hit_probes import (
    EquationKey,
    equation_key,
    median_and_p95,
    renamed_equation,
    synthetic_equations,
    verified_answer,
)
from stepcache_integrations.bench.peers import Peer, PeerName, open_peer, require_peer
from stepcache_integrations.bench.prompts import equation_prompt
from stepcache_integrations.core.embeddings import StructuralEmbedder
from stepcache_integrations.core.policy import Policy

__all__ = [
    "MIN_PROBES",
    "PEER_SIZES",
    "SULCI_FAISS_MAX_ENTRIES",
    "PeerVariant",
    "measure_peers",
    "peer_sizes",
    "peer_variants",
]

PEER_SIZES = (10_000, 100_000)
# 10,000 single stores into sulci's FAISS backend took about 3 minutes on 2 cores (each
# rewrites every file); 100,000 would take about a hundred times as long.
SULCI_FAISS_MAX_ENTRIES = 10_000
MIN_PROBES = 5
BUDGET_S = 60.0
_BATCH = 2_000


@dataclass(frozen=True)
class PeerVariant:
    """One peer configuration measured: the peer, a label, options and an entry limit."""

    peer: PeerName
    label: str
    options: dict[str, Any] = field(default_factory=dict)
    max_entries: int | None = None
    limit_reason: str = ""


def peer_variants(peers: Sequence[PeerName]) -> list[PeerVariant]:
    """The configurations measured for ``peers``: GPTCache on SQLite + FAISS, sulci on each of
    its two local backends (FAISS, the benchmark mode's, and SQLite)."""
    variants = []
    if "gptcache" in peers:
        variants.append(PeerVariant("gptcache", "gptcache (SQLite + FAISS)"))
    if "sulci" in peers:
        variants.append(
            PeerVariant(
                "sulci",
                "sulci (FAISS)",
                {"backend": "faiss"},
                SULCI_FAISS_MAX_ENTRIES,
                "every store rewrites the whole index and a pickle of every entry, so filling "
                "grows with the square of the entries",
            )
        )
        variants.append(PeerVariant("sulci", "sulci (SQLite)", {"backend": "sqlite"}))
    return variants


def peer_sizes(entries: int) -> list[int]:
    """Where the peers are measured: 10,000 and 100,000 entries (``entries`` if smaller).

    Example:
        >>> peer_sizes(100_000), peer_sizes(30_000), peer_sizes(300)
        ([10000, 100000], [10000, 30000], [300])
    """
    return [size for size in PEER_SIZES if size < entries] + [entries]


def _timed_lookups(
    peer: Peer, prompts: Sequence[str], budget_s: float
) -> tuple[list[float], int, int]:
    """Time ``peer.lookup`` on ``prompts`` until they are done or ``budget_s`` is spent (after
    at least ``MIN_PROBES``): the times of the hits, the hits and the lookups made."""
    hits: list[float] = []
    made = 0
    spent = 0.0
    for prompt in prompts:
        if made >= MIN_PROBES and spent > budget_s:
            break
        started = time.perf_counter()
        answer = peer.lookup(prompt)
        seconds = time.perf_counter() - started
        spent += seconds
        made += 1
        if answer is not None:
            hits.append(seconds)
    return hits, len(hits), made


def _probe_peer(
    peer: Peer,
    stored: list[LinearEquation],
    keys: set[EquationKey],
    probes: int,
    rng: random.Random,
    budget_s: float,
) -> dict[str, Any]:
    chosen = rng.sample(stored, min(probes, len(stored)))
    exact = [equation_prompt(eq) for eq in chosen]
    nearest = [equation_prompt(renamed_equation(eq, keys, rng)) for eq in chosen]
    out: dict[str, Any] = {}
    for name, prompts in (("exact", exact), ("nearest", nearest)):
        times, hits, made = _timed_lookups(peer, prompts, budget_s)
        median, p95 = median_and_p95(times)
        out.update(
            {
                f"{name}_median_s": median,
                f"{name}_p95_s": p95,
                f"{name}_hits": hits,
                f"{name}_probes": made,
            }
        )
    return out


def _measure_variant(
    variant: PeerVariant,
    entries: int,
    probes: int,
    seed: int,
    budget_s: float,
    progress: Callable[[int, int], None] | None,
) -> dict[str, Any]:
    peer_options = dict(variant.options)
    if variant.peer == "gptcache":
        peer_options["max_size"] = max(entries, 1_000)  # its LRU must hold every entry
    peer = open_peer(
        variant.peer,
        embedder=StructuralEmbedder(),
        threshold=Policy().similarity_threshold,
        **peer_options,
    )
    try:
        config = peer.describe()
        source = synthetic_equations(seed)
        rng = random.Random(seed)
        stored: list[LinearEquation] = []
        keys: set[EquationKey] = set()
        sizes: list[dict[str, Any]] = []
        skipped: list[dict[str, Any]] = []
        fill_s = 0.0
        how = "one by one" if variant.peer == "sulci" else "Cache.import_data, in batches"
        for size in peer_sizes(entries):
            if variant.max_entries is not None and size > variant.max_entries:
                # Filling grows with the square of the entries (see the module docstring).
                estimate = fill_s * (size / max(len(stored), 1)) ** 2
                skipped.append(
                    {
                        "size": size,
                        "reason": f"{variant.limit_reason}; {len(stored):,} entries took "
                        f"{fill_s:.0f} s here, {size:,} would take about {estimate / 60:,.0f} "
                        "minutes",
                    }
                )
                continue
            started = time.perf_counter()
            while len(stored) < size:
                batch = [next(source) for _ in range(min(_BATCH, size - len(stored)))]
                prompts = [equation_prompt(eq) for eq in batch]
                peer.store_many(prompts, [verified_answer(p) for p in prompts])
                stored.extend(batch)
                keys.update(equation_key(eq) for eq in batch)
                if progress is not None:
                    progress(len(stored), entries)
            fill_s += time.perf_counter() - started
            row = {"size": size, "entries": len(stored), "fill_s": fill_s, "fill_how": how}
            row.update(_probe_peer(peer, stored, keys, probes, rng, budget_s))
            sizes.append(row)
    finally:
        peer.close()
    return {
        "peer": variant.peer,
        "label": variant.label,
        "config": config,
        "sizes": sizes,
        "skipped": skipped,
    }


def measure_peers(
    peers: Sequence[PeerName],
    entries: int,
    probes: int = 200,
    seed: int = 0,
    *,
    budget_s: float = BUDGET_S,
    progress: Callable[[int, int], None] | None = None,
    stage: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Fill each peer configuration with ``entries`` verified equation answers and time its
    exact and nearest lookups at :func:`peer_sizes`; ``stage`` is told which one is filling."""
    for peer in peers:
        require_peer(peer)
    runs = []
    for variant in peer_variants(peers):
        if stage is not None:
            stage(variant.label)
        runs.append(_measure_variant(variant, entries, probes, seed, budget_s, progress))
    return {
        "what": (
            "Lookups through each peer's public get (GPTCache: gptcache.adapter.api.get; "
            "sulci: Cache.get), the same entries and probes as StepCache's, StepCache's "
            "embedder and threshold; medians (p95) over the lookups that hit. StepCache's "
            "nearest hit includes verifying the candidate's steps, adapting them, checking "
            "the answer and storing it; a peer's nearest lookup only embeds, searches and "
            "returns the neighbour's answer. Every FAISS search on one OpenMP thread; the "
            "peers' files on a RAM disk where there is one."
        ),
        "probes": probes,
        "min_probes": MIN_PROBES,
        "budget_s": budget_s,
        "runs": runs,
        "measured_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "load_average": list(os.getloadavg()),
    }
