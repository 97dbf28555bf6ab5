"""The cached side of a hit is read once per entry (when stored), and never changes a result."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from stepcache_integrations import Policy, StepCache
from stepcache_integrations.adapter import drive
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.entry_analysis import (
    ANALYSIS_VERSION,
    EntryAnalyses,
    EntryAnalysis,
)
from stepcache_integrations.core.namespace import make_namespace
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks import TaskRegistry
from stepcache_integrations.core.tasks.linear_equation.family import (
    CachedEquation,
    LinearEquationFamily,
)
from stepcache_integrations.core.verifiers.base import VerifyContext
from tests.conftest import solve_steps

NS = make_namespace({"model": "plain"})


def eq(v: str = "x", b: int = 5, c: int = 20) -> str:
    return f"Solve for {v}: 3{v} + {b} = {c}. Show each step as 'Step N:'."


class CountingFamily(LinearEquationFamily):
    """The linear family, counting the requests it reads as a cached request."""

    def __init__(self) -> None:
        super().__init__()
        self.read: list[str] = []

    def read_cached(self, request: str) -> CachedEquation:
        self.read.append(request)
        return super().read_cached(request)


def ask(cache: StepCache, prompt: str, answer: Callable[[ModelCall], str]) -> object:
    request = CacheRequest(prompt=prompt, namespace=NS, input_chars=len(prompt))
    return drive(cache.serve(request), lambda call: ModelReply(answer(call), 10, 5))


def test_a_hit_reads_only_the_new_request_the_cached_one_was_read_when_stored() -> None:
    family = CountingFamily()
    cache = StepCache(tasks=TaskRegistry([family]), policy=Policy(solver_patches=False))
    ask(cache, eq(b=5), lambda call: solve_steps(eq(b=5)))
    assert family.read == [eq(b=5)]  # read once, when the model's answer was stored
    result = ask(cache, eq(b=8), lambda call: "the model must not be called")
    assert result.record.decision == "reuse"  # type: ignore[attr-defined]
    # The hit read the cached request from its analysis; its own answer, stored, is read now.
    assert family.read == [eq(b=5), eq(b=8)]
    ask(cache, eq(b=9), lambda call: "the model must not be called")
    assert eq(b=5) not in family.read[2:] and eq(b=8) not in family.read[2:]


def test_the_same_decisions_and_answers_with_and_without_kept_analyses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def outcomes() -> list[tuple[str, str]]:
        cache = StepCache(policy=Policy(solver_patches=False))
        seen = []
        for b, c in ((5, 20), (8, 20), (5, 21), (5, -1), (7, 20), (5, 20)):
            prompt = eq(b=b, c=c)
            result = ask(cache, prompt, lambda call, prompt=prompt: solve_steps(prompt))
            seen.append((result.record.decision, result.text))  # type: ignore[attr-defined]
        return seen

    kept = outcomes()
    # No analysis ever holds: every hit reads the cached request again, as before.
    monkeypatch.setattr(EntryAnalysis, "holds", lambda self, prompt, families: False)
    assert outcomes() == kept
    assert {decision for decision, _ in kept} >= {"miss", "reuse", "exact"}


def test_an_analysis_is_used_only_for_the_prompt_it_was_made_of() -> None:
    family = CountingFamily()
    analyses = EntryAnalyses(max_entries=8)
    first = CacheEntry.create("ns", None, eq(b=5), [Step("x = 5")], "lines")
    # Another wording stored under the same id (the same request's key): read again.
    second = CacheEntry.create("ns", None, eq(b=5) + " ", [Step("x = 5")], "lines")
    assert first.id == second.id
    made = analyses.analyse(first, [family])
    assert analyses.analyse(first, [family]) is made
    again = analyses.analyse(second, [family])
    assert again is not made and again.prompt == second.prompt
    assert family.read == [first.prompt, second.prompt]
    # A context whose cached request is another text never gets the reading.
    ctx = VerifyContext(eq(b=8), eq(b=6), cached_analysis=made)
    assert ctx.cached_reading(family.name) is None
    ctx = VerifyContext(eq(b=8), eq(b=5), cached_analysis=made)
    assert isinstance(ctx.cached_reading(family.name), CachedEquation)


def test_an_analysis_of_another_version_or_families_does_not_hold() -> None:
    family = LinearEquationFamily()
    reading = family.read_cached(eq())
    assert EntryAnalysis(eq(), {family.name: reading}).holds(eq(), [family])
    old = EntryAnalysis(eq(), {family.name: reading}, version=ANALYSIS_VERSION - 1)
    assert not old.holds(eq(), [family])
    assert not EntryAnalysis(eq(), {}).holds(eq(), [family])


def test_the_memo_keeps_at_most_its_bound() -> None:
    family = CountingFamily()
    analyses = EntryAnalyses(max_entries=2)
    entries = [
        CacheEntry.create("ns", None, eq(b=b), [Step("x = 1")], "lines") for b in range(1, 5)
    ]
    for entry in entries:
        analyses.analyse(entry, [family])
    assert len(analyses) == 2
    analyses.analyse(entries[0], [family])  # evicted: read again
    assert family.read.count(entries[0].prompt) == 2


def test_a_bulk_load_is_analysed_through_the_cache() -> None:
    family = CountingFamily()
    cache = StepCache(tasks=TaskRegistry([family]))
    entry = CacheEntry.create(NS, None, eq(), [Step("x = 5")], "lines", task=family.name)
    untasked = CacheEntry.create(NS, None, "Tell me a joke", [Step("No.")], "paragraph")
    cache.analyse([entry, untasked])
    assert family.read == [eq()]
