"""How long compare() takes on typical prompts (measured and printed, never asserted).

compare() runs on the hit path for up to four candidates per request; the budget for all of
them is under a millisecond. A cached prompt's analysis is usually cached already (it was
compared before); the new prompt is analysed once per request and shared by all candidates.
Times are CPU time of this process, so that other work on a shared machine does not count.
"""

from __future__ import annotations

import time

import pytest

from stepcache_integrations.core.text import clear_caches, compare, meaningful_tokens

CACHED = [
    'Solve 3x + 5 = 20 for x. Show your work step by step, one line per step in the form "Step '
    'N: <equation>", and end with the line "x = <value>". Use only integers and fractions, '
    "never decimals, and check the result by substitution.",
    "Create a JSON object for a user profile. Return only a JSON object with exactly the keys "
    '"name", "age" and "city", where "city" is "Lisbon". Do not add any other keys, comments or '
    "code fences around the object.",
    "Hi! Could you please summarise the main causes of the French Revolution for a class of "
    "fifteen-year-olds. Keep it under two hundred words, use plain English, avoid dates where "
    "you can, and end with one question they could discuss in groups. Thanks!",
    "I'm planning a three-day trip to Lisbon in June with two children aged 6 and 9. Suggest an "
    "itinerary that avoids long walks in the afternoon heat, includes one beach day, and lists "
    "a budget-friendly restaurant for each evening.",
]
NEW = [
    'Solve 3y + 7 = 20 for y. Show your work step by step, one line per step in the form "Step '
    'N: <equation>", and end with the line "y = <value>". Use only integers and fractions, '
    "never decimals, and check the result by substitution.",
    "Create a JSON object for a user profile. Return only a JSON object with exactly the keys "
    '"name", "age" and "city", where "city" is "Porto". Do not add any other keys, comments or '
    "code fences around the object.",
    "Summarise the main causes of the French Revolution for a class of fifteen-year-olds. Keep "
    "it under two hundred words, use plain English, avoid dates where you can, and end with "
    "one question they could discuss in groups.",
    "I'm planning a three-day trip to Lisbon in July with two children aged 6 and 9. Suggest an "
    "itinerary that avoids long walks in the afternoon heat, includes one beach day, and lists "
    "a budget-friendly restaurant for each evening.",
]
ROUNDS = 200


def _hit_path(warm_cached: bool) -> float:
    """CPU seconds to compare one new prompt with four cached ones (the new one uncached)."""
    elapsed = 0.0
    for round_index in range(ROUNDS):
        clear_caches()
        if warm_cached:
            for cached in CACHED:
                meaningful_tokens(cached)
        new = NEW[round_index % len(NEW)]
        start = time.process_time()
        for cached in CACHED:
            compare(cached, new)
        elapsed += time.process_time() - start
    return elapsed / ROUNDS


def _near_duplicate() -> float:
    """CPU seconds of one compare() of a prompt with its near-duplicate, both analysed."""
    pairs = list(zip(CACHED, NEW, strict=True))
    start = time.process_time()
    for round_index in range(ROUNDS):
        cached, new = pairs[round_index % len(pairs)]
        compare(cached, new)
    return (time.process_time() - start) / ROUNDS


def test_typical_prompts_are_200_to_500_characters() -> None:
    assert all(200 <= len(text) <= 500 for text in CACHED + NEW)


def test_compare_timing_is_measured(capsys: pytest.CaptureFixture[str]) -> None:
    expected = [compare(a, b).same for a, b in zip(CACHED, NEW, strict=True)]
    assert expected == [False, False, True, False]
    warm = _hit_path(warm_cached=True)
    cold = _hit_path(warm_cached=False)
    near = _near_duplicate()
    with capsys.disabled():
        print(
            f"\ncompare() on prompts of 200-500 chars (CPU time): one request against 4 cached "
            f"prompts {warm * 1e3:.3f} ms (cached prompts analysed before), {cold * 1e3:.3f} ms "
            f"(nothing analysed); one near-duplicate pair {near * 1e3:.3f} ms"
        )
    clear_caches()
