"""The near-miss check: pairs of requests that look alike, served by every cache.

For each pair a fresh cache serves request A (the model answers it and the cache stores the
answer), then request B. For the 48 pairs whose requests mean different things, a cache that
answers B with A's answer served the other request's answer: a wrong answer, whatever the
model would have said. For the 8 pairs that mean the same thing (case, punctuation, spacing,
a polite word), serving A's answer is right, and shows the cache does reuse.

A peer (GPTCache, sulci) serves A's answer when its lookup for B hits; StepCache serves it
when it answers B from the cache, with no model call, with A's very text (an answer it
adapted to B, say an equation re-solved for new constants, is B's answer, not A's). The
model is the SIMULATED one with every answer right (its answers are never what is judged).
Each peer runs at StepCache's threshold (cosine 0.75) and at its own default (GPTCache 0.8,
that is cosine 0.6; sulci cosine 0.85).

The pairs (``NEAR_MISS_PAIRS``) were written for this check; they are not the benchmark's
workload: negations, opposite directions, swapped roles, other numbers, other names and
places, and equations, JSON objects and word problems with one value changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from langchain_core.language_models import BaseChatModel

from stepcache_integrations.bench.equations import LinearEquation
from stepcache_integrations.bench.modes import PEER_MODES, PeerResponseCache, build_baseline
from stepcache_integrations.bench.peers import (
    GPTCACHE_DEFAULT_SIMILARITY,
    SULCI_DEFAULT_THRESHOLD,
    require_peer,
)
from stepcache_integrations.bench.prompts import equation_prompt, json_prompt
from stepcache_integrations.bench.simulated import SIMULATED_LABEL, SimulatedChatModel
from stepcache_integrations.bench.word_problems import WORD_TEMPLATES, word_prompt
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.embeddings import StructuralEmbedder
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.langchain.chat_model import StepCacheLLM

__all__ = ["NEAR_MISS_PAIRS", "NearMissPair", "near_miss_check", "near_miss_configs"]


@dataclass(frozen=True)
class NearMissPair:
    """Two requests that look alike; ``same``: they mean the same thing."""

    id: str
    cls: str
    same: bool
    a: str
    b: str


_TEXT_PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    "negation": (
        ("Should I take ibuprofen with food?", "Should I not take ibuprofen with food?"),
        ("Is it safe to swim right after eating?", "Is it unsafe to swim right after eating?"),
        ("List the planets that have rings.", "List the planets that do not have rings."),
        (
            "Write a Python function that opens a file with a context manager.",
            "Write a Python function that opens a file without a context manager.",
        ),
        (
            "Which of these words are verbs: run, blue, eat, table?",
            "Which of these words are not verbs: run, blue, eat, table?",
        ),
        ("Does the 9:15 train stop at Leeds?", "Does the 9:15 train skip Leeds?"),
    ),
    "direction": (
        ("Convert 30 degrees Celsius to Fahrenheit.", "Convert 30 degrees Fahrenheit to Celsius."),
        (
            "Translate 'thank you very much' from English to German.",
            "Translate 'thank you very much' from German to English.",
        ),
        (
            "What is the largest country in South America?",
            "What is the smallest country in South America?",
        ),
        (
            "Sort these numbers in ascending order: 5, 2, 9, 1.",
            "Sort these numbers in descending order: 5, 2, 9, 1.",
        ),
        (
            "How do I increase the font size in a spreadsheet?",
            "How do I decrease the font size in a spreadsheet?",
        ),
        ("What is the first month of the year?", "What is the last month of the year?"),
    ),
    "roles": (
        (
            "How many goals did Spain score against Italy in the final?",
            "How many goals did Italy score against Spain in the final?",
        ),
        (
            "Write a short email from the tenant to the landlord about a leak.",
            "Write a short email from the landlord to the tenant about a leak.",
        ),
        ("Is Lisbon west of Madrid?", "Is Madrid west of Lisbon?"),
        ("Subtract 7 from 20.", "Subtract 20 from 7."),
        ("Divide 12 by 4.", "Divide 4 by 12."),
        ("Is a square a kind of rectangle?", "Is a rectangle a kind of square?"),
    ),
    "numbers": (
        ("What is 15% of 80?", "What is 25% of 80?"),
        ("Convert 5 miles to kilometres.", "Convert 8 miles to kilometres."),
        ("What is the square root of 144?", "What is the square root of 169?"),
        ("How many seconds are there in 3 hours?", "How many seconds are there in 4 hours?"),
        ("Which year was 25 years before 1990?", "Which year was 35 years before 1990?"),
        ("Round 3.14159 to two decimal places.", "Round 3.14159 to three decimal places."),
    ),
    "names": (
        ("What is the capital of Peru?", "What is the capital of Chile?"),
        ("What is the boiling point of ethanol?", "What is the boiling point of methanol?"),
        ("How do I reverse a list in Python?", "How do I reverse a list in JavaScript?"),
        ("Who wrote Don Quixote?", "Who wrote Hamlet?"),
        ("Which time zone is Tokyo in?", "Which time zone is Sydney in?"),
        ("How many calories are in a banana?", "How many calories are in an avocado?"),
    ),
}

_SAME_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("case", "What is the capital of Peru?", "what is the capital of peru?"),
    ("punctuation", "How many seconds are there in 3 hours?",
     "How many seconds are there in 3 hours"),
    ("filler", "Explain how a rainbow forms.", "Please explain how a rainbow forms."),
    ("contraction", "What's the boiling point of water at sea level?",
     "What is the boiling point of water at sea level?"),
    ("filler", "Give me three tips for sleeping better.",
     "Give me three tips for sleeping better, please."),
    ("punctuation", "List the primary colours.", "List the primary colours"),
    ("whitespace", equation_prompt(LinearEquation(3, 5, 20, "x")),
     equation_prompt(LinearEquation(3, 5, 20, "x")).replace(" for x.", "  for x.")),
    ("case", json_prompt("a library book", ("title", "author", "year"), (("year", 1999),)),
     json_prompt("a library book", ("title", "author", "year"), (("year", 1999),)).replace(
         "Create", "create")),
)  # fmt: skip

# (a, b, c, variable): a*v + b = c, and the changed c of request B.
_EQUATIONS: tuple[tuple[int, int, int, str, int], ...] = (
    (3, 5, 20, "x", 26),
    (2, -7, 9, "y", 15),
    (5, 10, 35, "n", 60),
    (4, 8, 28, "k", 36),
    (2, 7, 19, "m", 25),
    (6, -4, 20, "t", 32),
)
# (topic, keys, fixed values of A, fixed values of B).
_Fixed = tuple[tuple[str, Any], ...]
_JSON: tuple[tuple[str, tuple[str, ...], _Fixed, _Fixed], ...] = (
    ("a library book", ("title", "author", "year"), (("year", 1999),), (("year", 2009),)),
    ("a hotel booking", ("guest", "nights", "room"), (("room", "single"),), (("room", "double"),)),
    ("a train ticket", ("from", "to", "class"), (("class", "first"),), (("class", "second"),)),
    ("a product", ("name", "price", "currency"), (("currency", "EUR"),), (("currency", "USD"),)),
    ("a weather report", ("city", "temperature", "unit"), (("unit", "C"),), (("unit", "F"),)),
    ("a support ticket", ("id", "priority", "status"), (("status", "open"),),
     (("status", "closed"),)),
)  # fmt: skip


def _word_pairs() -> list[tuple[str, str]]:
    """Six word problems, each with its first quantity changed (so the answer changes)."""
    pairs = []
    for template in WORD_TEMPLATES[:6]:
        base = template.base_values()
        first = template.slots[0]
        answer = template.values(base)[template.answer]
        for value in first.pool:
            changed: dict[str, Fraction] = {**base, first.name: value}
            if (
                value != base[first.name]
                and template.valid(changed)
                and template.values(changed)[template.answer] != answer
            ):
                pairs.append((word_prompt(template, base), word_prompt(template, changed)))
                break
    return pairs


def _pairs() -> tuple[NearMissPair, ...]:
    pairs: list[NearMissPair] = []
    for cls, texts in _TEXT_PAIRS.items():
        pairs += [NearMissPair(f"{cls}-{i}", cls, False, a, b) for i, (a, b) in enumerate(texts, 1)]
    for i, (a, b, c, var, changed) in enumerate(_EQUATIONS, 1):
        first, second = LinearEquation(a, b, c, var), LinearEquation(a, b, changed, var)
        pairs.append(
            NearMissPair(f"equation-{i}", "equation", False, equation_prompt(first),
                         equation_prompt(second))
        )  # fmt: skip
    for i, (topic, keys, fixed_a, fixed_b) in enumerate(_JSON, 1):
        pairs.append(
            NearMissPair(f"json-{i}", "json", False, json_prompt(topic, keys, fixed_a),
                         json_prompt(topic, keys, fixed_b))
        )  # fmt: skip
    for i, (first_text, second_text) in enumerate(_word_pairs(), 1):
        pairs.append(NearMissPair(f"word-{i}", "word", False, first_text, second_text))
    for i, (cls, first_text, second_text) in enumerate(_SAME_PAIRS, 1):
        pairs.append(NearMissPair(f"same-{i}", f"same_{cls}", True, first_text, second_text))
    return tuple(pairs)


NEAR_MISS_PAIRS: tuple[NearMissPair, ...] = _pairs()


def _model() -> BaseChatModel:
    return SimulatedChatModel(
        latency_scale=0,
        equation_accuracy=1,
        json_accuracy=1,
        word_accuracy=1,
        continuation_accuracy=1,
        repair_accuracy=1,
    )


@dataclass(frozen=True)
class _Config:
    label: str
    threshold: str
    build: Callable[[], tuple[BaseChatModel, PeerResponseCache | None]]
    mode: str


def near_miss_configs(modes: Sequence[str]) -> list[_Config]:
    """The caches checked: StepCache with its defaults, each peer among ``modes`` at
    StepCache's threshold and at its own default."""
    cosine = Policy().similarity_threshold
    configs: list[_Config] = []
    if "stepcache" in modes:

        def stepcache() -> tuple[BaseChatModel, PeerResponseCache | None]:
            return StepCacheLLM(llm=_model(), step_cache=StepCache()), None

        configs.append(_Config("stepcache", "defaults (cosine 0.75 to find candidates)",
                               stepcache, "stepcache"))  # fmt: skip

    def peer(
        name: str, threshold: float = cosine, **options: Any
    ) -> Callable[[], tuple[BaseChatModel, PeerResponseCache]]:
        def build() -> tuple[BaseChatModel, PeerResponseCache]:
            mode = build_baseline(
                name,  # type: ignore[arg-type]  # a peer mode
                _model(),
                embedder=StructuralEmbedder(),
                threshold=threshold,
                peer_options=dict(options),
            )
            assert isinstance(mode.cache, PeerResponseCache)
            return mode.model, mode.cache

        return build

    for name in PEER_MODES:
        if name not in modes:
            continue
        require_peer(name)
        configs.append(_Config(name, f"StepCache's: cosine {cosine:g}", peer(name), name))
        if name == "gptcache":
            default = peer(name, similarity=GPTCACHE_DEFAULT_SIMILARITY)
            cosine_of = 2 * GPTCACHE_DEFAULT_SIMILARITY - 1
            shown = f"its default: {GPTCACHE_DEFAULT_SIMILARITY:g} (cosine {cosine_of:g})"
        else:
            default = peer(name, threshold=SULCI_DEFAULT_THRESHOLD)
            shown = f"its default: cosine {SULCI_DEFAULT_THRESHOLD:g}"
        configs.append(_Config(f"{name} (default threshold)", shown, default, name))
    return configs


def _served_from_cache(mode: str, message: Any) -> bool:
    """Answered without a model call: a peer's hit, or StepCache with no model call."""
    if mode == "stepcache":
        record = message.response_metadata.get("stepcache") or {}
        return int(record.get("model_calls", 1) or 0) == 0
    return bool(message.response_metadata.get("cache_hit") == "semantic")


def _serve_pair(config: _Config, pair: NearMissPair) -> tuple[bool, bool]:
    """(B was served from the cache, with A's very answer)."""
    model, cache = config.build()
    try:
        first = model.invoke(pair.a)
        second = model.invoke(pair.b)
    finally:
        if cache is not None:
            cache.close()
    cached = _served_from_cache(config.mode, second)
    return cached, cached and second.text == first.text


def near_miss_check(
    modes: Sequence[str] = ("stepcache", *PEER_MODES),
    pairs: Sequence[NearMissPair] = NEAR_MISS_PAIRS,
) -> dict[str, Any]:
    """Serve every pair through every cache of ``modes`` (a fresh cache per pair); count the
    different-meaning requests that got the other request's answer and the same-meaning ones
    served from the cache."""
    different = [p for p in pairs if not p.same]
    same = [p for p in pairs if p.same]
    caches = []
    for config in near_miss_configs(modes):
        served_other: list[str] = []
        same_cached = 0
        for pair in pairs:
            cached, other = _serve_pair(config, pair)
            if pair.same:
                same_cached += int(cached)
            elif other:
                served_other.append(pair.id)
        examples = [f"{p.a[:60]} -> {p.b[:60]}" for p in different if p.id in served_other]
        caches.append(
            {
                "label": config.label,
                "mode": config.mode,
                "threshold": config.threshold,
                "different_served_other": len(served_other),
                "different_served_other_ids": served_other,
                "different_examples": examples[:10],
                "same_served_cached": same_cached,
            }
        )
    return {
        "what": (
            f"{len(pairs)} pairs of requests that look alike ({len(different)} of different "
            f"meaning, {len(same)} of the same meaning), each through a fresh cache: request "
            "A, then request B. The model is the "
            f"{SIMULATED_LABEL} one, every answer right: a wrong answer here is the cache's."
        ),
        "pairs": len(pairs),
        "different_pairs": len(different),
        "same_pairs": len(same),
        "classes": sorted({p.cls for p in pairs}),
        "caches": caches,
    }
