"""The agent and structured-output cookbook examples run offline and show what they promise."""

from __future__ import annotations

import re

from tests.unit.test_cookbook import run


def test_agent_example_serves_repeated_turns_from_the_cache() -> None:
    out = run("agent_example.py")
    turns = re.findall(r"model turns: ([a-z, ]+); model calls: (\d+); tokens: (\d+)", out)
    runs = [(decisions, int(calls)) for decisions, calls, _ in turns]
    expected = [
        ("miss, miss", 2),  # a new task
        ("exact, exact", 0),  # the same task: every model turn from the cache
        ("reuse, miss", 1),  # another city: the tool call re-instantiated
        ("exact, skip", 1),  # a changed tool result: the model answers it
    ]
    assert runs == expected * 2  # through StepCacheLLM, then through StepCacheMiddleware
    assert [int(tokens) for decisions, _, tokens in turns if decisions == "exact, exact"] == [0, 0]
    assert out.count("-> The weather report says: Paris: 9 C and hail.") == 2
    assert out.count("-> The weather report says: Berlin: 12 C and rain.") == 2
    assert "SIMULATED" in out


def test_structured_output_example_returns_equal_objects() -> None:
    out = run("structured_output_example.py")
    rows = re.findall(r"^  (\w+)\s+model calls: (\d) +(.*)$", out, re.MULTILINE)
    expected = [
        ("miss", "1", "Person(name='Ada' age=36)"),
        ("exact", "0", "Person(name='Ada' age=36)"),
        ("reuse", "0", "Person(name='Grace' age=36)"),
        ("skip", "1", "Person(name='Ada' age=37)"),
    ]
    assert rows == expected * 2  # LangChain, then LlamaIndex
    assert "SIMULATED" in out
