"""Task families and their registry (see :mod:`~stepcache_integrations.core.tasks.base`)."""

from __future__ import annotations

from typing import Any

from stepcache_integrations.core.tasks.base import Adaptation, TaskFamily
from stepcache_integrations.core.tasks.json_object import JsonObjectFamily, JsonVerifier
from stepcache_integrations.core.tasks.linear_equation import (
    LinearEquationFamily,
    LinearEquationVerifier,
)
from stepcache_integrations.core.tasks.registry import Recognition, TaskRegistry
from stepcache_integrations.core.tasks.tool_call import ToolCallFamily, ToolCallVerifier
from stepcache_integrations.core.tasks.word_problem import WordProblemFamily, WordProblemVerifier

__all__ = [
    "Adaptation",
    "JsonObjectFamily",
    "JsonVerifier",
    "LinearEquationFamily",
    "LinearEquationVerifier",
    "Recognition",
    "TaskFamily",
    "TaskRegistry",
    "ToolCallFamily",
    "ToolCallVerifier",
    "WordProblemFamily",
    "WordProblemVerifier",
    "default_registry",
]


def default_registry(json_schema: Any = None) -> TaskRegistry:
    """A registry with the built-in families: JSON objects (with ``json_schema``, a JSON Schema
    dict or Pydantic model every JSON answer must meet), linear equations, arithmetic word
    problems and tool calls.

    Example:
        >>> sorted(family.name for family in default_registry())
        ['json', 'linear_equation', 'tool_call', 'word_problem']
    """
    return TaskRegistry(
        [
            JsonObjectFamily(json_schema),
            LinearEquationFamily(),
            WordProblemFamily(),
            ToolCallFamily(),
        ]
    )
