"""The benchmark's prompts reach the family they are written for, and the benchmark's word
module's examples hold (the benchmark's own data; the family's tests use data of their own)."""

from __future__ import annotations

import doctest

from stepcache_integrations.bench import word_problems
from stepcache_integrations.bench.workload import build_workload
from stepcache_integrations.core.tasks import default_registry


def test_the_three_families_stay_apart_on_every_benchmark_prompt() -> None:
    registry = default_registry()
    for seed in (42, 43):
        for request in build_workload(seed):
            key = registry.recognise(request.prompt, {}).key
            expected = {"equation": "linear_equation", "json": "json", "word": "word_problem"}
            assert key == expected[request.family], (request.id, request.prompt, key)


def test_the_benchmark_word_module_examples_hold() -> None:
    failures, tried = doctest.testmod(word_problems, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failures == 0
