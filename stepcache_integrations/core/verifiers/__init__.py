"""Verifiers: task-aware checks of cached steps and whole answers."""

from stepcache_integrations.core.verifiers.base import (
    Outcome,
    PartialPatch,
    Verdict,
    Verifier,
    VerifyContext,
)
from stepcache_integrations.core.verifiers.callable import CallableVerifier
from stepcache_integrations.core.verifiers.json_object import JsonVerifier
from stepcache_integrations.core.verifiers.linear import LinearEquationVerifier
from stepcache_integrations.core.verifiers.parser import OutputParserVerifier
from stepcache_integrations.core.verifiers.staleness import StalenessVerifier

__all__ = [
    "CallableVerifier",
    "JsonVerifier",
    "LinearEquationVerifier",
    "Outcome",
    "OutputParserVerifier",
    "PartialPatch",
    "StalenessVerifier",
    "Verdict",
    "Verifier",
    "VerifyContext",
]
