"""Promise: an answer cut off inside a code fence is never served as passing nor stored."""

from __future__ import annotations

from stepcache_integrations.core.cache import StepCache
from tests.reliability.support import Model, ask


def test_an_unclosed_code_fence_fails_the_whole_answer_check() -> None:
    cache = StepCache()
    prompt = "Write a Python function that adds two numbers."
    cut_off = "Here it is:\n```python\ndef add(a, b):\n    return a +"
    result = ask(cache, prompt, Model(lambda p, call: cut_off))
    assert result.record.passed is False
    assert "code fence" in (result.record.failure or "")
    assert result.record.stored is False
    assert len(cache) == 0


def test_a_closed_code_fence_passes() -> None:
    cache = StepCache()
    prompt = "Write a Python function that adds two numbers."
    whole = "Here it is:\n```python\ndef add(a, b):\n    return a + b\n```"
    result = ask(cache, prompt, Model(lambda p, call: whole))
    assert result.record.passed is True
    assert result.record.stored is True
