"""SIMULATED: a task family that re-instantiates wrongly on one kind of change, a simulated
oracle model and a simulated stream of requests (everything here is simulated: the family, the
model and the traffic). It exists to measure how fast an audit catches a wrong kind of reuse
(``stepcache bench --audit``) and to test it; it is never registered by default.

``SquareFamily`` answers "Square 7." with "7 * 7 = 49" and "#### 49". A changed number is a
``value`` change, which it re-instantiates by rewriting the cached answer for the new number:
wrongly when the new number is odd (one too many), and it vouches for its rewrite. A changed
wording ("Compute the square of 7.") with the same number is a ``wording`` change, reused as
it is: correct. Exact repeats are ``exact``: correct.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stepcache_integrations.core.protocol import ModelCall, ModelReply
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.base import Adaptation, Span, TaskFamily
from stepcache_integrations.core.verifiers.base import (
    ChangeAccount,
    Verdict,
    Verifier,
    VerifyContext,
)

NAME = "square"
_REQUEST = re.compile(r"(?:Square|Compute the square of|What is the square of) (\d+)[.?]")
_FINAL = re.compile(r"####\s*(-?\d+)")


def number_of(request: str) -> int | None:
    found = _REQUEST.search(request)
    return int(found.group(1)) if found else None


def answer(n: int, wrong: bool = False) -> str:
    return f"{n} * {n} = {n * n + int(wrong)}\n#### {n * n + int(wrong)}"


def final_number(text: str) -> int | None:
    """The number after ``####`` (the answer key of the family)."""
    found = _FINAL.search(text)
    return int(found.group(1)) if found else None


class _Trusting(Verifier):
    """Vouches for every answer of the family: the bug goes unchecked (that is the point)."""

    name = NAME

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        return Verdict.ok(self.name, "simulated family: not checked", step=index)

    def check_answer(self, ctx: VerifyContext, text: str) -> Verdict:
        return Verdict.ok(self.name, "simulated family: not checked")


class SquareFamily(TaskFamily):
    """Squares of whole numbers; re-instantiates a changed number wrongly when it is odd."""

    name = NAME
    priority = 5
    exclusive = True
    instruction_words = frozenset({"square", "compute", "the", "of", "what", "is"})

    def __init__(self) -> None:
        super().__init__(_Trusting())

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        return number_of(request) is not None

    def verified_spans(self, request: str, options: Mapping[str, Any]) -> Sequence[Span]:
        found = _REQUEST.search(request)
        return [found.span(1)] if found else []

    def unchecked_part(
        self,
        ctx: VerifyContext,
        accounts: Sequence[ChangeAccount],
        step: Step,
        index: int,
        steps: Sequence[Step],
    ) -> str | None:
        return None  # the family vouches for its rewrite (wrongly, for odd numbers)

    def adapt_answer(self, ctx: VerifyContext, steps: Sequence[Step]) -> Adaptation | None:
        old, new = number_of(ctx.cached_request or ""), number_of(ctx.request)
        if old is None or new is None or old == new:
            return None
        text = answer(new, wrong=new % 2 == 1)
        lines = text.split("\n")
        return Adaptation((Step(lines[0], "\n"), Step(lines[1])), 2)

    def answer_key(self, request: str, text: str, options: Mapping[str, Any]) -> Any:
        return final_number(text)


class OracleModel:
    """A simulated model that always answers correctly, and counts its calls and tokens."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, call: ModelCall, prompt: str) -> ModelReply:
        self.calls += 1
        n = number_of(prompt)
        text = answer(n) if n is not None else "I cannot tell."
        return ModelReply(text, input_tokens=12, output_tokens=10)


_FORMS = ("Square {n}.", "Compute the square of {n}.", "What is the square of {n}?")


@dataclass(frozen=True)
class Simulated:
    """One simulated request: its prompt and the right answer's key."""

    prompt: str
    truth: int


def simulated_stream(seed: int, length: int, numbers: int = 30) -> Iterator[Simulated]:
    """Simulated traffic: a few dozen numbers asked in three wordings, repeated often."""
    rng = random.Random(seed)
    for _ in range(length):
        n = rng.randint(2, 1 + numbers)
        yield Simulated(rng.choice(_FORMS).format(n=n), n * n)
