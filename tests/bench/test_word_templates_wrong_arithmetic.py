"""The benchmark's word templates with a model that gets some arithmetic wrong: no wrong
final answer is stored or served when its steps do not hold (the same check on the family's
own corpus: ``tests/word_problems/templated/test_wrong_arithmetic.py``)."""

from __future__ import annotations

from collections import Counter

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.bench.word_problems import (
    equations_hold,
    final_answer,
    read_prompt,
    word_prompt,
)
from tests.bench.word_templates import TEMPLATES, model, sloppy, truth, variants


@pytest.mark.parametrize("rate", [0.3, 0.7])
def test_wrong_arithmetic_is_never_stored_or_served_unflagged(rate: float) -> None:
    cache = StepCache()
    llm = StepCacheLLM(llm=model(sloppy(rate)), step_cache=cache)
    outcomes: Counter[str] = Counter()
    for template in TEMPLATES:
        base = template.base_values()
        for prompt, values in [(word_prompt(template, base), base), *variants(template, 5, 3)]:
            message = llm.invoke(prompt)
            record = message.response_metadata["stepcache"]
            answer = str(message.content)
            right = final_answer(answer) == truth(template, values)
            if not equations_hold(answer):
                # An answer whose steps do not hold is flagged and never stored.
                assert record["passed"] is False and not record["stored"], (prompt, answer)
                outcomes["flagged"] += 1
            elif right:
                outcomes["right"] += 1
            assert right or record["passed"] is False, (prompt, answer, record)
    # Every stored answer holds and is right for its own prompt.
    stored = list(cache.store)
    assert stored
    for entry in stored:
        found = read_prompt(entry.prompt)
        assert found is not None
        template, values, twist = found
        assert equations_hold(entry.answer), entry.answer
        assert final_answer(entry.answer) == truth(template, values, twist), entry.answer
    assert outcomes["flagged"] > 0  # the model did slip, and the slips were caught
    assert outcomes["right"] > 0
