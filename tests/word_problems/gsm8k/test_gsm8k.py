"""GSM8K training stories and their variants through the cache (issue 34): never a wrong
answer, never a cached answer for a change of the computation. The measure of the family is
the harness's report (``python -m tests.word_problems.gsm8k.harness``); this test runs a
smaller draw of the committed sample and prints its report (``pytest -s``)."""

from __future__ import annotations

import functools
from fractions import Fraction

import pytest

from tests.word_problems.gsm8k.harness import Outcome, report, run
from tests.word_problems.gsm8k.program import read_problem
from tests.word_problems.gsm8k.variants import CHANGED, SAME, Story, layout, load_sample, stories

STORIES = 40


@functools.cache
def _stories() -> tuple[Story, ...]:
    return tuple(stories(load_sample(), seed=34, count=STORIES))


@functools.cache
def _outcomes(wrapper: str) -> tuple[Outcome, ...]:
    return tuple(run(_stories(), wrapper))


def test_a_solution_is_a_program_that_gives_its_own_answer() -> None:
    problem = read_problem(
        "Natalia sold clips to 48 of her friends in April, and then she sold half as many "
        "clips in May. How many clips did Natalia sell altogether in April and May?",
        "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\n"
        "Natalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.\n#### 72",
    )
    assert not isinstance(problem, str)
    assert problem.run({}) == [24, 72]
    results = problem.run({0: Fraction(60)})
    assert results == [30, 90]
    written = problem.rewrite({0: Fraction(60)}, results, {})
    assert written is not None
    assert "60 of her friends" in written[0]
    assert written[1].endswith("60+30 = <<60+30=90>>90 clips altogether in April and May.\n#### 90")


def test_a_number_with_two_sources_or_no_annotation_is_refused() -> None:
    two = read_problem("Ana has 3 pens and 3 pencils. How many?", "3+3 = <<3+3=6>>6\n#### 6")
    assert isinstance(two, str) and "sources" in two
    hidden = read_problem(
        "Bo has 684 people and 25% more come. How many?",
        "684*.25 = 171 more\n684+171 = <<684+171=855>>855\n#### 855",
    )
    assert isinstance(hidden, str) and "without an annotation" in hidden


def test_every_variant_has_its_own_answer_in_the_story_layout() -> None:
    kinds = {v.kind for story in _stories() for v in story.requests}
    assert {"numbers", "names", "distractor", "added_step", "reversed"} <= kinds
    for story in _stories():
        prompts = [v.prompt for v in story.requests]
        assert len(prompts) == len(set(prompts)), story.index
        base = story.requests[0]
        assert base.kind == "base"
        for variant in story.requests[1:]:
            if variant.truth is not None:
                assert variant.oracle.rstrip(".").endswith(_shown(variant.truth)), variant
    assert layout("a = <<1+1=2>>2\n#### 2", "plain") == "a = 2\n#### 2"


def _shown(value: Fraction) -> str:
    from tests.word_problems.gsm8k.program import fmt

    return fmt(value)


@pytest.mark.parametrize("wrapper", ["langchain", "llama_index"])
def test_no_wrong_answer_and_no_cached_answer_for_a_changed_computation(wrapper: str) -> None:
    outcomes = _outcomes(wrapper)
    print(report(outcomes))
    wrong = [o for o in outcomes if o.wrong]
    assert not wrong, [(o.variant.kind, o.decision, o.served[:120]) for o in wrong[:5]]
    changed = [o for o in outcomes if o.variant.kind in CHANGED]
    assert changed and not [o for o in changed if o.decision in ("exact", "reuse")]
    same = [o for o in outcomes if o.variant.kind in SAME]
    assert any(o.from_cache for o in same)  # the family re-instantiates real stories at all
