"""Generic staleness: what keeps a step cache from the semantic-cache mistake.

For every task, with or without a dedicated verifier: a cached step that mentions a
meaningful token the new prompt no longer has (a word, any case; a number, identifier, quoted
string or name) is stale. (What else a changed request's steps need, a family vouching for
every part that may depend on the change, is the soundness rule:
:mod:`stepcache_integrations.core.tasks.soundness`.)

A number this rule finds is not stale when a verifier that traces numbers passed the step:
every number of it then follows from the new prompt's quantities ("30 - 6 = 24" may mention 24
although the prompt now says 30 where it said 24).
"""

from __future__ import annotations

from collections.abc import Sequence

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.text import mentions
from stepcache_integrations.core.text.quantities import read_number
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext

__all__ = ["NAME", "StalenessVerifier", "accept_traced_numbers"]

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


def accept_traced_numbers(ctx: VerifyContext, step: Step, verdict: Verdict) -> Verdict:
    """Rule 1 for a step whose every number a verifier traced (see
    :attr:`Verifier.traces_numbers`): only tokens other than numbers can make it stale."""
    if not verdict.failed or verdict.verifier != NAME or ctx.diff is None:
        return verdict
    stale = _stale(ctx, step.text)
    if not stale or any(read_number(token) is None for token in stale):
        return verdict
    return Verdict.ok(NAME, "its numbers follow from the prompt's quantities", step=verdict.step)
