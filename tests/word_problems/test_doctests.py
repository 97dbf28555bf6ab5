"""The examples in the word-problem family's docstrings hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "stepcache_integrations.core.tasks.base",
    "stepcache_integrations.core.tasks",
    "stepcache_integrations.core.tasks.word_problem.arithmetic",
    "stepcache_integrations.core.tasks.word_problem.chain",
    "stepcache_integrations.core.tasks.word_problem.framing",
    "stepcache_integrations.core.tasks.word_problem.prose",
    "stepcache_integrations.core.tasks.word_problem.request",
    "stepcache_integrations.core.tasks.word_problem.units",
    "stepcache_integrations.core.tasks.word_problem.verifier",
    "stepcache_integrations.core.tasks.word_problem.family",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failures == 0
