"""Models for the tests of the benchmark's word templates: an oracle and a model that slips,
both reading the problem off the prompt (they know the benchmark's templates), and the
variants they are asked. These tests keep the benchmark's own workload answerable through
the family; the family itself is proven on data written apart from the benchmark
(``tests/word_problems``, its templated corpus and its generated stories)."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable
from fractions import Fraction

from langchain_core.messages import BaseMessage

from stepcache_integrations.bench.word_problems import (
    WORD_TEMPLATES,
    WordTemplate,
    read_prompt,
    solution_lines,
    word_prompt,
)
from tests.conftest import ScriptedChatModel

CONTINUE = "Continue the answer"


def steps_done(messages: list[BaseMessage]) -> int:
    """How many "Step k:" lines the verified prefix (the assistant's turn) holds."""
    if len(messages) < 3 or CONTINUE not in str(messages[-1].content):
        return 0
    return len(re.findall(r"(?m)^Step \d+:", str(messages[1].content)))


def oracle(messages: list[BaseMessage]) -> str:
    """Always right: the template's calculation for the values in the prompt (after a verified
    prefix, only the steps that follow it)."""
    found = read_prompt(str(messages[0].content))
    assert found is not None, messages[0].content
    template, values, twist = found
    lines = solution_lines(template, values, twist)
    return "\n".join(lines[steps_done(messages) :])


def _draw(text: str, purpose: str) -> float:
    digest = hashlib.sha256(f"{purpose}\0{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def sloppy(rate: float) -> Callable[[list[BaseMessage]], str]:
    """A model that gets the arithmetic of one step wrong in a share ``rate`` of its calls
    (decided by the whole conversation, so a repair may come out right or wrong), and carries
    the wrong value into the later steps."""

    def respond(messages: list[BaseMessage]) -> str:
        conversation = "\n".join(str(m.content) for m in messages)
        found = read_prompt(str(messages[0].content))
        assert found is not None
        template, values, twist = found
        slip: Callable[[int, Fraction], Fraction] | None = None
        if _draw(conversation, "slip") < rate:
            at = int(_draw(conversation, "step") * len(template.steps))
            delta = 1 + int(_draw(conversation, "delta") * 3)
            slip = lambda k, v: v + delta if k == at else v  # noqa: E731
        lines = solution_lines(template, values, twist, slip=slip)
        return "\n".join(lines[steps_done(messages) :])

    return respond


def model(responder: Callable[[list[BaseMessage]], str]) -> ScriptedChatModel:
    return ScriptedChatModel(responder=responder)


def variants(
    template: WordTemplate, count: int, seed: int
) -> list[tuple[str, dict[str, Fraction]]]:
    """``count`` prompts of ``template`` with other quantities than its base, each slot that
    may be written either way in digits or in words at random."""
    rng = random.Random(f"{seed}/{template.id}")
    seen: list[dict[str, Fraction]] = [template.base_values()]
    out = []
    for _ in range(count):
        values = template.draw(rng, seen)
        seen.append(values)
        words = {s.name: rng.random() < 0.5 for s in template.slots if s.style == "either"}
        out.append((word_prompt(template, values, words), values))
    return out


def truth(template: WordTemplate, values: dict[str, Fraction], twist: bool = False) -> Fraction:
    return template.values(values)[template.twist_answer if twist else template.answer]


TEMPLATES = WORD_TEMPLATES
