"""Verifiers: checks of cached steps and whole answers that apply to any task.

Task-specific verifiers belong to their task family (:mod:`stepcache_integrations.core.tasks`).
"""

from stepcache_integrations.core.verifiers.base import (
    Outcome,
    PartialPatch,
    Verdict,
    Verifier,
    VerifyContext,
)
from stepcache_integrations.core.verifiers.callable import CallableVerifier
from stepcache_integrations.core.verifiers.parser import OutputParserVerifier
from stepcache_integrations.core.verifiers.staleness import StalenessVerifier

__all__ = [
    "CallableVerifier",
    "Outcome",
    "OutputParserVerifier",
    "PartialPatch",
    "StalenessVerifier",
    "Verdict",
    "Verifier",
    "VerifyContext",
]
