"""The linear-equation family: "solve a*v + b = c for v", in the usual written forms."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stepcache_integrations.core.tasks.base import TaskFamily
from stepcache_integrations.core.tasks.linear_equation.verifier import TASK, LinearEquationVerifier

__all__ = ["LinearEquationFamily"]


class LinearEquationFamily(TaskFamily):
    """Requests to solve a linear equation in one variable.

    Steps are paragraphs and list items; every equation in a step must have the request's
    solution; a changed constant or a renamed variable is carried over deterministically, and
    the canonical solution is the deterministic answer.

    Example:
        >>> family = LinearEquationFamily()
        >>> family.recognises("Solve for x: 3x + 5 = 20.", {})
        True
        >>> family.recognises("Write 3x + 5 = 20 as JSON instead of solving it.", {})
        False
    """

    name = TASK
    priority = 20

    def __init__(self) -> None:
        self.linear = LinearEquationVerifier()
        super().__init__(self.linear)

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        return self.linear.applies_to(request)
