"""What the hit-path benchmarks store and probe: distinct linear equations, their verified
answers, and the renamed-variable requests that are near an entry but not identical to one.

Shared by StepCache's overhead benchmark (:mod:`.overhead`) and the peers'
(:mod:`.overhead_peers`), so every cache is filled with the same entries and probed with the
same requests.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator, Sequence

from stepcache_integrations.bench.equations import EquationForm, LinearEquation
from stepcache_integrations.bench.prompts import VARIABLE_POOL
from stepcache_integrations.bench.simulated_answers import Rates, respond

__all__ = [
    "EquationKey",
    "checkpoints",
    "equation_key",
    "median_and_p95",
    "renamed_equation",
    "synthetic_equations",
    "verified_answer",
]


def checkpoints(entries: int) -> list[int]:
    """Store sizes to measure at: powers of ten from 1,000 below ``entries``, then ``entries``."""
    sizes = []
    size = 1_000
    while size < entries:
        sizes.append(size)
        size *= 10
    return [*sizes, entries]


def synthetic_equations(seed: int = 0) -> Iterator[LinearEquation]:
    """Distinct linear equations with integer solutions, in a seeded order (endless)."""
    rng = random.Random(seed)
    seen: set[tuple[int, int, int, str, EquationForm]] = set()
    while True:
        a = rng.choice([n for n in range(-9, 10) if n != 0])
        b = rng.choice([n for n in range(-40, 41) if n != 0])
        solution = rng.randint(-20, 20)
        var = rng.choice(VARIABLE_POOL)
        form: EquationForm = rng.choice(("standard", "swapped", "const_first"))
        key = (a, b, a * solution + b, var, form)
        if key not in seen:
            seen.add(key)
            yield LinearEquation(a, b, a * solution + b, var, form)


def _always_right(purpose: str) -> float:
    # The simulated model's answer generator, asked for the correct answer every time.
    return 0.0


def verified_answer(prompt: str) -> str:
    """The right step-by-step answer to an equation ``prompt`` (what every cache stores)."""
    return respond(prompt, _always_right, Rates())


EquationKey = tuple[int, int, int, str, str]


def equation_key(eq: LinearEquation) -> EquationKey:
    """What makes two equations the same prompt."""
    return eq.a, eq.b, eq.c, eq.var, eq.form


def renamed_equation(
    eq: LinearEquation, taken: set[EquationKey], rng: random.Random
) -> LinearEquation:
    """``eq`` with another variable, not among ``taken`` (so no exact path can hit it)."""
    for name in rng.sample(VARIABLE_POOL, len(VARIABLE_POOL)):
        new = eq.with_var(name)
        if name != eq.var and equation_key(new) not in taken:
            return new
    raise ValueError(f"every renaming of {eq.render()} is stored")


def median_and_p95(times: Sequence[float]) -> tuple[float | None, float | None]:
    """The median and the 95th percentile (nearest rank) of ``times``; ``None`` for none.

    Example:
        >>> median_and_p95([0.003, 0.001, 0.002])
        (0.002, 0.003)
    """
    if not times:
        return None, None
    ordered = sorted(times)
    return statistics.median(ordered), ordered[
        min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))
    ]
