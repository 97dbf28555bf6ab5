"""Linear equations in one variable: recognise, verify, re-solve and continue deterministically."""

from stepcache_integrations.core.tasks.linear_equation.family import LinearEquationFamily
from stepcache_integrations.core.tasks.linear_equation.verifier import LinearEquationVerifier

__all__ = ["LinearEquationFamily", "LinearEquationVerifier"]
