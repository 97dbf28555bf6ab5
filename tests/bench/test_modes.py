"""Baseline modes: no cache, LangChain's exact cache, and the real peers GPTCache and sulci,
each serving through its own public API."""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pytest
from langchain_core.load import dumps
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.outputs import Generation

from stepcache_integrations.bench.modes import (
    PEER_MODES,
    PeerResponseCache,
    build_baseline,
    cache_hit_kind,
    prompt_text,
)
from stepcache_integrations.bench.peers import (
    GPTCachePeer,
    PeerUnavailable,
    SulciPeer,
    gptcache_threshold,
    open_peer,
    require_peer,
)
from stepcache_integrations.bench.simulated import SimulatedChatModel
from stepcache_integrations.bench.workload import build_workload, task_correct

WORKLOAD = build_workload(42)
BASE = WORKLOAD.warmup[0]  # an equation base prompt
CHANGED = next(
    r for r in WORKLOAD.evaluation if r.base_id == BASE.base_id and r.kind == "changed_constants"
)


def model() -> SimulatedChatModel:
    return SimulatedChatModel(latency_scale=0, equation_accuracy=1, json_accuracy=1)


def test_no_cache_calls_the_model_every_time() -> None:
    mode = build_baseline("no_cache", model())
    assert mode.cache is None and mode.model.cache is False
    first, second = mode.model.invoke(BASE.prompt), mode.model.invoke(BASE.prompt)
    assert cache_hit_kind(first) is None and cache_hit_kind(second) is None
    assert second.usage_metadata and second.usage_metadata["output_tokens"] > 0


def test_exact_cache_serves_identical_prompts_for_free() -> None:
    mode = build_baseline("exact_cache", model())
    first = mode.model.invoke(BASE.prompt)
    second = mode.model.invoke(BASE.prompt)
    third = mode.model.invoke(BASE.prompt)
    assert cache_hit_kind(first) is None
    assert cache_hit_kind(second) == cache_hit_kind(third) == "exact"
    assert second.content == first.content
    assert second.usage_metadata is not None and second.usage_metadata["total_tokens"] == 0
    assert second.response_metadata["cached_usage"] == dict(first.usage_metadata or {})
    other = mode.model.invoke(CHANGED.prompt)
    assert cache_hit_kind(other) is None
    assert mode.cache is not None and (mode.cache.hits, mode.cache.misses) == (2, 2)


@pytest.mark.parametrize("peer", PEER_MODES)
def test_a_peer_serves_the_old_answer_to_changed_constants(peer: str) -> None:
    """The failure mode StepCache exists to fix, in the real peers: a near prompt gets the
    old, wrong answer, for free."""
    mode = build_baseline(peer, model(), threshold=0.75)  # type: ignore[arg-type]
    assert isinstance(mode.cache, PeerResponseCache)
    try:
        base_answer = mode.model.invoke(BASE.prompt)
        assert cache_hit_kind(base_answer) is None and task_correct(BASE, base_answer.text)
        served = mode.model.invoke(CHANGED.prompt)
        assert cache_hit_kind(served) == "semantic"
        assert served.response_metadata["peer"] == peer
        assert served.content == base_answer.content
        assert not task_correct(CHANGED, served.text)
        assert served.usage_metadata is not None and served.usage_metadata["total_tokens"] == 0
        assert (mode.cache.hits, mode.cache.misses) == (1, 1)
    finally:
        mode.cache.close()


def _peer_get(peer: Any, text: str) -> str | None:
    """Ask the peer library itself, not the benchmark's adapter."""
    if isinstance(peer, GPTCachePeer):
        from gptcache.adapter.api import get

        return get(text, cache_obj=peer.cache)  # type: ignore[no-any-return]
    answer, _, _ = peer.cache.get(text)
    return answer  # type: ignore[no-any-return]


@pytest.mark.parametrize("peer", PEER_MODES)
def test_the_answer_is_stored_in_and_looked_up_through_the_peer(
    peer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    mode = build_baseline(peer, model(), threshold=0.75)  # type: ignore[arg-type]
    assert isinstance(mode.cache, PeerResponseCache)
    try:
        answer = mode.model.invoke(BASE.prompt).text
        (llm_string,) = mode.cache.llm_strings()
        stored_in = mode.cache.peer_for(llm_string)
        # The library's own API finds what the benchmark's mode stored, under the prompt text.
        assert _peer_get(stored_in, BASE.prompt) == answer
        calls: list[str] = []
        if peer == "gptcache":
            import gptcache.adapter.api as api

            real = api.get
            monkeypatch.setattr(
                api, "get", lambda text, **kw: calls.append(text) or real(text, **kw)
            )
        else:
            real_get = stored_in.cache.get  # type: ignore[attr-defined]
            monkeypatch.setattr(
                stored_in.cache,
                "get",
                lambda text, **kw: calls.append(text) or real_get(text, **kw),
            )
        mode.model.invoke(CHANGED.prompt)
        assert calls == [CHANGED.prompt]  # one lookup through the peer's get, on the text
    finally:
        mode.cache.close()


class AngleEmbedder:
    """The first word picks a unit vector: "base", "near" (cosine 0.8 with base) and "far"
    (cosine 0.6); anything else is orthogonal to all three."""

    VECTORS: ClassVar[dict[str, tuple[float, float]]] = {
        "base": (1.0, 0.0), "near": (0.8, 0.6), "far": (0.6, 0.8),
    }  # fmt: skip

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        out = np.zeros((len(texts), 16), dtype=np.float32)
        for row, text in enumerate(texts):
            x, y = self.VECTORS.get(text.split()[0], (0.0, 0.0))
            out[row, :2] = (x, y)
            if (x, y) == (0.0, 0.0):
                out[row, 2 + sum(map(ord, text)) % 14] = 1.0
        return out


@pytest.mark.parametrize("peer", PEER_MODES)
def test_each_peer_serves_exactly_the_neighbours_at_the_cosine_threshold(peer: str) -> None:
    """GPTCache's threshold is on its own scale (squared L2 distances); the conversion makes
    it serve the same neighbours as sulci's cosine threshold."""
    at_075 = open_peer(peer, embedder=AngleEmbedder(), threshold=0.75)
    at_085 = open_peer(peer, embedder=AngleEmbedder(), threshold=0.85)
    try:
        for cache in (at_075, at_085):
            cache.store("base question", "the base answer")
        assert at_075.lookup("near question") == "the base answer"  # cosine 0.8 >= 0.75
        assert at_075.lookup("far question") is None  # cosine 0.6 < 0.75
        assert at_085.lookup("near question") is None  # cosine 0.8 < 0.85
        assert at_085.lookup("base question") == "the base answer"
    finally:
        at_075.close()
        at_085.close()
    assert gptcache_threshold(0.75) == 0.875 and gptcache_threshold(0.6) == 0.8


def test_gptcache_at_its_default_threshold_serves_down_to_cosine_0_6() -> None:
    cache = GPTCachePeer(embedding=None, similarity=0.8)
    try:
        assert cache.similarity == 0.8 and "cosine >= 0.6" in cache.describe()["threshold"]
    finally:
        cache.close()


@pytest.mark.parametrize("peer", PEER_MODES)
def test_one_model_never_gets_another_models_answers(peer: str) -> None:
    opened: list[Any] = []

    def opener() -> Any:
        opened.append(open_peer(peer, embedder=AngleEmbedder(), threshold=0.75))
        return opened[-1]

    cache = PeerResponseCache(peer, opener)  # type: ignore[arg-type]
    try:
        cache.update("base one", "model-a", [Generation(text="A")])
        hit = cache.lookup("near two", "model-a")
        assert hit is not None and hit[0].text == "A"
        assert cache.lookup("far one", "model-a") is None
        assert cache.lookup("base one", "model-b") is None  # another model's own peer cache
        assert (cache.hits, cache.misses) == (1, 2) and len(opened) == 2
        assert sorted(cache.llm_strings()) == ["model-a", "model-b"]
    finally:
        cache.close()


@pytest.mark.parametrize("peer", PEER_MODES)
def test_describe_says_version_embedder_threshold_and_store(peer: str) -> None:
    cache = open_peer(peer, threshold=0.75)
    try:
        config = cache.describe()
    finally:
        cache.close()
    for key in ("version", "api", "embedder", "threshold", "store"):
        assert config[key], key
    assert config["version"] != "not installed"
    assert "StructuralEmbedder" in config["embedder"]
    assert "0.75" in config["threshold"]
    if peer == "sulci":
        assert "FAISS" in config["store"] and config["telemetry"].startswith("off")
    else:
        assert "SQLite" in config["store"] and "FAISS" in config["store"]


def test_sulci_runs_on_its_sqlite_backend_too() -> None:
    cache = SulciPeer(embedding=None, threshold=0.75, backend="sqlite")
    try:
        cache.store("Solve 2x = 8 for x.", "x = 4")
        assert cache.lookup("Solve 2x = 8 for x.") == "x = 4"
        assert "SQLite" in cache.describe()["store"]
    finally:
        cache.close()
    with pytest.raises(ValueError, match="backend must be one of faiss, sqlite"):
        SulciPeer(backend="chroma")


def _hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name in modules else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def test_a_missing_peer_is_one_clear_line_before_anything_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _hide(monkeypatch, "sulci")
    with pytest.raises(PeerUnavailable) as raised:
        build_baseline("sulci", model())
    assert str(raised.value) == (
        'sulci is not installed; the sulci mode needs the peers extra: pip install -e ".[peers]"'
    )
    assert isinstance(raised.value, ModuleNotFoundError) and raised.value.name == "sulci"


def test_gptcache_without_sqlalchemy_refuses_instead_of_pip_installing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GPTCache runs ``pip install`` for a store library it misses; the mode refuses first."""
    _hide(monkeypatch, "sqlalchemy")
    import gptcache.utils.dependency_control as control

    installs: list[str] = []
    monkeypatch.setattr(
        control, "prompt_install", lambda package, warn=False: installs.append(package)
    )
    with pytest.raises(PeerUnavailable, match=r"^SQLAlchemy is not installed; the gptcache mode"):
        GPTCachePeer()
    assert installs == []
    require_peer("sulci")  # sulci does not need SQLAlchemy
    with pytest.raises(ValueError, match="unknown peer 'redis'"):
        require_peer("redis")


def test_prompt_text_reads_langchain_serialised_messages() -> None:
    serialised = dumps([SystemMessage("Be brief."), HumanMessage("Solve 2x = 4 for x.")])
    assert prompt_text(serialised) == "Be brief.\nSolve 2x = 4 for x."
    assert prompt_text("plain text") == "plain text"


@pytest.mark.parametrize("peer", PEER_MODES)
def test_a_peer_mode_opens_no_network_connection(
    peer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No hub, no telemetry: every socket connection is refused while a peer mode stores and
    serves, and it works all the same."""
    import socket

    attempts: list[object] = []

    def refuse(self: socket.socket, address: object) -> None:
        attempts.append(address)
        raise OSError("no network in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    for key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(key, raising=False)
    mode = build_baseline(peer, model(), threshold=0.75)  # type: ignore[arg-type]
    assert isinstance(mode.cache, PeerResponseCache)
    try:
        first = mode.model.invoke(BASE.prompt)
        assert mode.model.invoke(CHANGED.prompt).content == first.content
    finally:
        mode.cache.close()
    assert attempts == []
    assert os.environ["HF_HUB_OFFLINE"] == os.environ["TRANSFORMERS_OFFLINE"] == "1"
