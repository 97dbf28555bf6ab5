"""How long compare() takes on typical prompts (measured and printed, never asserted).

compare() runs on the hit path for up to four candidates per request; the budget for all of
them is under a millisecond. A cached prompt's analysis is usually cached already (it was
compared before); the new prompt is analysed once per request and shared by all candidates.
Times are CPU time of this process, so that other work on a shared machine does not count.
"""

from __future__ import annotations

import time
from collections.abc import Callable

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


def _neighbours(text: str) -> list[str]:
    """Four cached prompts close to ``text``, as a similarity search returns them."""
    words = text.split()
    middle = len(words) // 2
    return [
        "Please " + text[0].lower() + text[1:],
        " ".join([*words[:middle], "quickly", *words[middle:]]),
        text.rstrip(".!?") + ". Thanks!",
        " ".join(words[:-3]),
    ]


def _hit_path(candidates_for: Callable[[str], list[str]], warm: bool) -> float:
    """CPU seconds to compare one new prompt (not analysed yet) with its candidates."""
    elapsed = 0.0
    for round_index in range(ROUNDS):
        clear_caches()
        new = NEW[round_index % len(NEW)]
        candidates = candidates_for(new)
        if warm:
            for cached in candidates:
                meaningful_tokens(cached)
        start = time.process_time()
        for cached in candidates:
            compare(cached, new)
        elapsed += time.process_time() - start
    return elapsed / ROUNDS


def test_typical_prompts_are_200_to_500_characters() -> None:
    assert all(200 <= len(text) <= 500 for text in CACHED + NEW)


def test_compare_timing_is_measured(capsys: pytest.CaptureFixture[str]) -> None:
    expected = [compare(a, b).same for a, b in zip(CACHED, NEW, strict=True)]
    assert expected == [False, False, True, False]
    assert [compare(c, NEW[0]).same for c in _neighbours(NEW[0])] == [True, False, True, False]
    near = _hit_path(_neighbours, warm=True)
    mixed = _hit_path(lambda new: CACHED, warm=True)
    cold = _hit_path(lambda new: CACHED, warm=False)
    with capsys.disabled():
        print(
            f"\ncompare() on prompts of 200-500 chars, one new request against 4 candidates "
            f"(CPU ms): {near * 1e3:.3f} near neighbours, {mixed * 1e3:.3f} mostly unrelated "
            f"prompts, {cold * 1e3:.3f} with nothing analysed before"
        )
    clear_caches()
