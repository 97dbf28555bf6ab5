"""Templated word problems through both wrappers with an oracle model: issue 24's bar.

Every family of the corpus goes through a fresh default cache of each wrapper (LangChain's
``StepCacheLLM`` and LlamaIndex's): its base request, then its variants (see
:mod:`tests.word_problems.templated.harness`). The oracle (simulated: scripted correct
answers) answers every model call right, so anything wrong that is served was made by the
cache. Run with ``-s`` to see the report per variant kind.

The bars, from issue 24:

- (a) no wrong answer: the final number is the truth and nothing stale is in the text (a
  number written "3.00" for "3" is reported, not counted: every step is still right);
- (b) at least 80% of the same-computation variants served from the cache (exact, reuse or
  patch), every reuse at 0 model tokens;
- (c) a computation-changing variant is never served a cached answer: ``skip`` or ``miss``,
  or a ``patch`` whose regenerated part makes it right;
- (d) tokens at most 0.3 of the oracle without a cache, on the templated traffic (each
  family's base and its same-computation variants). A computation change must be answered
  by the model, so it is measured apart (reported, not held to 0.3): with about 3 of them
  per 15 requests a perfect cache would already spend 0.25 of no cache on them alone.

(b) and (d) count the variants issue 24 describes: names, things and quantities changed, in
every notation (kinds ``rename``, ``things``, ``digits``, ``notation``, ``mixed``). A
``paraphrase`` (the story reworded, the same quantities) is held to (a) and reported per kind,
not counted in (b) and (d): a rewording changes the request's words, and no family can show
that new words leave the meaning (and so every step) as it was, so the sound answer to one is
the model's (0 of 306 served; counted in, they would put the share at 71%).

(b) and (d) fail on 0.5.0 (the word-problem family saves a few percent on this traffic):
they are the acceptance bar of issue 24, not a regression.
"""

from __future__ import annotations

import pytest

from stepcache_integrations.core.records import DECISIONS
from tests.word_problems.templated.build import BASE, CHANGED, SAME, load
from tests.word_problems.templated.harness import Outcome, report, run

CORPUS = load()
REWORDED = "paraphrase"  # a same-computation kind held to (a) only: see the module's text
SERVED_GOAL = 0.80
TOKENS_GOAL = 0.30


@pytest.fixture(scope="module", params=["langchain", "llama_index"])
def outcomes(request: pytest.FixtureRequest) -> list[Outcome]:
    found = run(CORPUS, request.param)
    print()
    print(report(found))
    return found


def _templated(outcome: Outcome) -> bool:
    """A variant of issue 24's templated traffic: same computation, not reworded."""
    return outcome.variant.group == SAME and outcome.variant.kind != REWORDED


def _show(rows: list[Outcome], limit: int = 8) -> str:
    lines = [f"{len(rows)} requests, for example:"]
    for o in rows[:limit]:
        served = [line for line in o.served.splitlines() if line.strip()]
        oracle = [line for line in o.variant.oracle.splitlines() if line.strip()]
        differs = next(
            (
                f"served {a!r} / oracle {b!r}"
                for a, b in zip(served, oracle, strict=False)
                if a != b
            ),
            f"served {served[-1:]!r} / oracle {oracle[-1:]!r}",
        )
        lines.append(f"  {o.variant.id} [{o.decision}: {o.record.get('reason', '')}] {differs}")
    return "\n".join(lines)


def test_every_request_is_answered_and_recorded(outcomes: list[Outcome]) -> None:
    assert len(outcomes) == len(CORPUS)
    assert {o.decision for o in outcomes} <= set(DECISIONS)
    assert all(o.served.strip() for o in outcomes)
    # The first request of each family meets an empty cache.
    assert {o.decision for o in outcomes if o.variant.group == BASE} == {"miss"}


def test_no_wrong_answer_is_served(outcomes: list[Outcome]) -> None:
    """(a) The final number is exact and no part of the text is stale (issue 22's rule: a
    part that depends on a change nothing checked)."""
    wrong = [o for o in outcomes if o.wrong]
    assert not wrong, _show(wrong)


def test_same_computation_variants_are_served_from_the_cache(outcomes: list[Outcome]) -> None:
    """(b) At least 80% of the variants that keep the computation (and the wording) are
    served from the cache, and a reuse costs no model token."""
    costly = [o for o in outcomes if o.decision == "reuse" and o.tokens != 0]
    same = [o for o in outcomes if _templated(o)]
    assert not costly, _show(costly)
    served = sum(o.from_cache for o in same) / len(same)
    assert served >= SERVED_GOAL, (
        f"{served:.1%} of {len(same)} same-computation variants served from the cache "
        f"(goal {SERVED_GOAL:.0%}); not served: " + _show([o for o in same if not o.from_cache])
    )


def test_computation_changes_are_never_served_a_cached_answer(outcomes: list[Outcome]) -> None:
    """(c) A variant that changes the computation is answered by the model: ``skip`` or
    ``miss``, or a ``patch`` whose regenerated part makes the whole answer right."""
    changed = [o for o in outcomes if o.variant.group == CHANGED]
    served = [
        o
        for o in changed
        if o.decision in ("exact", "reuse") or (o.decision == "patch" and o.wrong)
    ]
    assert not served, _show(served)


def test_tokens_of_templated_traffic_are_at_most_three_tenths(outcomes: list[Outcome]) -> None:
    """(d) Tokens spent on each family's base and its same-computation variants (rewordings
    aside), against one oracle call per request without a cache."""
    traffic = [o for o in outcomes if o.variant.group == BASE or _templated(o)]
    ratio = sum(o.tokens for o in traffic) / sum(o.baseline for o in traffic)
    everything = sum(o.tokens for o in outcomes) / sum(o.baseline for o in outcomes)
    assert ratio <= TOKENS_GOAL, (
        f"tokens {ratio:.3f} of no cache on templated traffic (goal {TOKENS_GOAL}); "
        f"{everything:.3f} with the computation changes"
    )
