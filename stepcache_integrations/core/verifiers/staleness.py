"""Generic staleness: what keeps a step cache from the semantic-cache mistake.

Two rules, for every task, with or without a dedicated verifier:

1. A cached step that mentions a meaningful token the new prompt no longer has (a word, any
   case; a number, identifier, quoted string or name) is stale.
2. When the prompt's numbers changed, a step that contains numbers is trusted only if a task
   verifier positively checked it (``PASS``, not merely not-applicable).

A number that rule 1 finds is not stale when a verifier that traces numbers passed the step:
every number of it then follows from the new prompt's quantities ("30 - 6 = 24" may mention 24
although the prompt now says 30 where it said 24).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.text import mentions
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext

__all__ = ["StalenessVerifier", "accept_traced_numbers", "unverified_numbers"]

NAME = "staleness"


def _stale(ctx: VerifyContext, text: str) -> frozenset[str]:
    """The tokens removed from the prompt that ``text`` still mentions ("3x" mentions x)."""
    if ctx.diff is None or not ctx.diff.removed:
        return frozenset()
    return mentions(text, ctx.diff.removed)


class StalenessVerifier(Verifier):
    """Fails cached steps that mention a token removed from the prompt.

    Example:
        >>> from stepcache_integrations.core.text import compare
        >>> diff = compare("Greet Alice", "Greet Bob")
        >>> ctx = VerifyContext("Greet Bob", "Greet Alice", diff)
        >>> StalenessVerifier().check_step(ctx, Step("Hello Alice!"), 0, []).failed
        True
    """

    name = NAME

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        if ctx.diff is None or not ctx.diff.removed:
            return Verdict.not_applicable(self.name, index)
        stale = sorted(_stale(ctx, step.text))
        if stale:
            shown = ", ".join(repr(token) for token in stale[:5])
            return Verdict.fail(self.name, f"mentions {shown}, no longer in the prompt", step=index)
        return Verdict.ok(self.name, step=index)


def unverified_numbers(
    ctx: VerifyContext, step: Step, index: int, verdicts: Sequence[Verdict]
) -> Verdict | None:
    """Rule 2: a failing verdict when the step's numbers cannot be trusted, else ``None``."""
    if ctx.diff is None or not ctx.diff.numbers_changed:
        return None
    if not re.search(r"\d", step.text):
        return None
    if any(v.passed and v.verifier != NAME for v in verdicts):
        return None
    return Verdict.fail(
        NAME,
        "has numbers that no task verifier checked, and the prompt's numbers changed",
        step=index,
    )


def accept_traced_numbers(ctx: VerifyContext, step: Step, verdict: Verdict) -> Verdict:
    """Rule 1 for a step whose every number a verifier traced (see
    :attr:`Verifier.traces_numbers`): only tokens other than numbers can make it stale."""
    if not verdict.failed or verdict.verifier != NAME or ctx.diff is None:
        return verdict
    stale = _stale(ctx, step.text)
    if not stale or any(not _NUMBER.fullmatch(token) for token in stale):
        return verdict
    return Verdict.ok(NAME, "its numbers follow from the prompt's quantities", step=verdict.step)


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
