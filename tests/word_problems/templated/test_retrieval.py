"""Retrieval on templated traffic: does a variant find its own template's cached entry?

One default cache holds every family's base request (stored through LangChain's wrapper with
the oracle model, simulated). For each variant the store's nearest entries are looked up as
the request path looks them up (``StepCache.store.nearest``): the variant's own base should
be the nearest candidate, and close enough to be verified at all (similarity over the
policy's threshold). A variant that misses here can never be served from the cache, however
good re-instantiation is.

Issue 24 asks that variants of one template find each other's entries. The bar here, 95% of
the same-computation variants finding their base, is this corpus's acceptance bar for that
(it fails on 0.5.0: paraphrases and requests whose numbers are written in words mostly fall
under the threshold).
"""

from __future__ import annotations

import pytest

from tests.word_problems.templated.build import CHANGED, SAME, load
from tests.word_problems.templated.harness import Retrieval, retrieval, retrieval_report

CORPUS = load()
RECALL_GOAL = 0.95


@pytest.fixture(scope="module")
def found() -> list[Retrieval]:
    items = retrieval(CORPUS)
    print()
    print(retrieval_report(items))
    return items


def test_every_variant_is_looked_up(found: list[Retrieval]) -> None:
    assert len(found) == sum(v.group in (SAME, CHANGED) for v in CORPUS)
    assert all(item.nearest_prompt for item in found)
    # The base itself would be found at similarity 1: the lookup is the request path's.
    assert all(0.0 <= item.similarity <= 1.0 + 1e-6 for item in found)


def test_same_computation_variants_find_their_template(found: list[Retrieval]) -> None:
    same = [item for item in found if item.variant.group == SAME]
    recall = sum(item.found for item in same) / len(same)
    missed = [item for item in same if not item.found][:6]
    assert recall >= RECALL_GOAL, (
        f"{recall:.1%} of {len(same)} same-computation variants have their base as the "
        f"nearest entry over the threshold (goal {RECALL_GOAL:.0%}); for example: "
        + "; ".join(
            f"{m.variant.id} (nearest {m.similarity:.3f}, base {m.base_similarity})" for m in missed
        )
    )
