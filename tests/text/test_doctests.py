"""The examples in the docstrings of the text package run and hold."""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

MODULES = [
    "stepcache_integrations.core.text",
    "stepcache_integrations.core.text.layout",
    "stepcache_integrations.core.text.lexicon",
    "stepcache_integrations.core.text.lexing",
    "stepcache_integrations.core.text.memo",
    "stepcache_integrations.core.text.neutral",
    "stepcache_integrations.core.text.polarity",
    "stepcache_integrations.core.text.self_reference",
    "stepcache_integrations.core.text.sameness",
    "stepcache_integrations.core.text.tokens",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_public_names_are_exported_and_documented() -> None:
    package = importlib.import_module("stepcache_integrations.core.text")
    assert len(package.__all__) == len(set(package.__all__))
    for name in package.__all__:
        obj = getattr(package, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert obj.__doc__, f"{name} has no docstring"
    for cls in (package.Token, package.Edit, package.RequestDelta):
        assert "Example" in (cls.__doc__ or "")
