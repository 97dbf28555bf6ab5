"""The benchmark's word templates: an oracle model over every template x 20 variants through
the default StepCacheLLM serves no wrong answer, and the variants are mostly re-instantiated
at zero tokens (the benchmark's own data; the family's tests use the templated corpus)."""

from __future__ import annotations

from collections import Counter

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.bench.word_problems import final_answer, word_prompt
from tests.bench.word_templates import TEMPLATES, model, oracle, truth, variants

VARIANTS = 20


def test_oracle_over_every_template_serves_no_wrong_answer_for_half_the_tokens() -> None:
    assert len(TEMPLATES) >= 30
    inner = model(oracle)
    llm = StepCacheLLM(llm=inner, step_cache=StepCache())
    plain = model(oracle)  # the same oracle without a cache, for the token baseline
    decisions: Counter[str] = Counter()
    wrong: list[str] = []
    cached_tokens = plain_tokens = 0
    for template in TEMPLATES:
        base = template.base_values()
        requests = [(word_prompt(template, base), base), *variants(template, VARIANTS, seed=7)]
        for prompt, values in requests:
            message = llm.invoke(prompt)
            record = message.response_metadata["stepcache"]
            decisions[record["decision"]] += 1
            cached_tokens += record["tokens_used"]
            usage = plain.invoke(prompt).usage_metadata
            assert usage is not None
            plain_tokens += usage["total_tokens"]
            if final_answer(str(message.content)) != truth(template, values):
                wrong.append(f"{template.id}: {prompt}\n{message.content}")
            assert record["passed"], record
    requests_total = len(TEMPLATES) * (VARIANTS + 1)
    assert sum(decisions.values()) == requests_total
    assert wrong == []
    ratio = cached_tokens / plain_tokens
    print(f"\ndecisions {dict(decisions)}; tokens {cached_tokens} / {plain_tokens} = {ratio:.3f}")
    assert ratio <= 0.5
    # Each template's first request is a miss; its variants are mostly free.
    assert decisions["miss"] <= len(TEMPLATES)
    assert decisions["reuse"] >= 0.8 * len(TEMPLATES) * VARIANTS


def test_identical_repeats_and_the_other_question_never_get_the_base_answer() -> None:
    llm = StepCacheLLM(llm=model(oracle), step_cache=StepCache())
    for template in TEMPLATES:
        base = template.base_values()
        prompt = word_prompt(template, base)
        first = llm.invoke(prompt)
        assert llm.invoke(prompt).response_metadata["stepcache"]["decision"] == "exact"
        twisted = llm.invoke(word_prompt(template, base, twist=True))
        record = twisted.response_metadata["stepcache"]
        # Another question about the same story: the base's steps are not reused.
        assert record["decision"] in ("skip", "miss"), (template.id, record)
        assert final_answer(str(twisted.content)) == truth(template, base, twist=True)
        assert twisted.content != first.content
