"""The simulated family, model and stream of the audit tests (they live in the benchmark,
which measures the same thing: :mod:`stepcache_integrations.bench.audit_family`)."""

from stepcache_integrations.bench.audit_family import (
    NAME,
    OracleModel,
    Simulated,
    SquareFamily,
    answer,
    final_number,
    number_of,
    simulated_stream,
)

__all__ = [
    "NAME",
    "OracleModel",
    "Simulated",
    "SquareFamily",
    "answer",
    "final_number",
    "number_of",
    "simulated_stream",
]
