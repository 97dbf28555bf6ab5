"""Baseline modes: no cache, LangChain's exact cache, the full-response semantic cache."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from langchain_core.load import dumps
from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.outputs import Generation

from stepcache_integrations.bench.modes import (
    SemanticResponseCache,
    build_baseline,
    cache_hit_kind,
    prompt_text,
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


def test_semantic_cache_serves_the_old_answer_to_changed_constants() -> None:
    """The failure mode StepCache exists to fix: a near prompt gets the old, wrong answer."""
    mode = build_baseline("semantic_cache", model(), threshold=0.75)
    base_answer = mode.model.invoke(BASE.prompt)
    assert task_correct(BASE, str(base_answer.content))
    served = mode.model.invoke(CHANGED.prompt)
    assert cache_hit_kind(served) == "semantic"
    assert served.content == base_answer.content
    assert served.response_metadata["similarity"] >= 0.75
    assert not task_correct(CHANGED, str(served.content))


class AxisEmbedder:
    """Each distinct first word is its own axis: similarity is 1 or 0."""

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        out = np.zeros((len(texts), 8), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row, sum(map(ord, text.split()[0])) % 8] = 1.0
        return out


def test_semantic_cache_threshold_and_model_separation() -> None:
    cache = SemanticResponseCache(AxisEmbedder(), threshold=0.5)
    cache.update("alpha one", "model-a", [Generation(text="A")])
    hit = cache.lookup("alpha two", "model-a")
    assert hit is not None and hit[0].text == "A"
    assert cache.lookup("beta one", "model-a") is None  # dissimilar
    assert cache.lookup("alpha one", "model-b") is None  # another model never shares
    assert (cache.hits, cache.misses, len(cache)) == (1, 2, 1)
    cache.clear()
    assert len(cache) == 0 and cache.lookup("alpha one", "model-a") is None


def test_stored_entry_is_not_changed_by_serving_it() -> None:
    mode = build_baseline("semantic_cache", model())
    first = mode.model.invoke(BASE.prompt)
    for _ in range(2):
        usage = mode.model.invoke(BASE.prompt).usage_metadata
        assert usage is not None and usage["total_tokens"] == usage["output_tokens"] == 0
    assert isinstance(mode.cache, SemanticResponseCache)
    stored = mode.cache._entries[0].generations[0]
    assert getattr(stored, "message").usage_metadata == first.usage_metadata  # noqa: B009


def test_prompt_text_reads_langchain_serialised_messages() -> None:
    serialised = dumps([SystemMessage("Be brief."), HumanMessage("Solve 2x = 4 for x.")])
    assert prompt_text(serialised) == "Be brief.\nSolve 2x = 4 for x."
    assert prompt_text("plain text") == "plain text"
