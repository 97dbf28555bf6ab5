"""The verifiers of one request, each hook called so that a verifier that raises is a failed
check, never a crash: when unsure, regenerate.

:class:`RequestChecks` is what the request path asks of its verifiers (the task families',
the cache's, the request's own and the staleness check, in that order): check a step, check
a whole answer, rewrite a step deterministically, verify a cached answer step by step, and the
hooks that shape model calls (a repair instruction, a response schema) or replace them (the
task's deterministic answer, a solver's continuation). It makes no model call and keeps no
state but the verdicts it reports.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from stepcache_integrations.core.steps import Step, unclosed_fence
from stepcache_integrations.core.tasks.base import TaskFamily
from stepcache_integrations.core.tasks.soundness import unsound_part
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext
from stepcache_integrations.core.verifiers.staleness import NAME as STALENESS
from stepcache_integrations.core.verifiers.staleness import accept_traced_numbers

__all__ = ["GENERIC_REPAIR", "RequestChecks", "Verification", "guarded"]

logger = logging.getLogger(__name__)

GENERIC_REPAIR = "Your answer failed a check: {reason}. Reply with the corrected answer only."


def guarded(verifier: Verifier, what: str, call: Any, *args: Any) -> Any:
    """Run a verifier hook; an exception is returned (and logged), never raised.

    Example:
        >>> from stepcache_integrations.core.verifiers.callable import CallableVerifier
        >>> v = CallableVerifier(lambda request, answer: True, name="any")
        >>> isinstance(guarded(v, "a hook", lambda: 1 / 0), ZeroDivisionError)
        True
    """
    try:
        return call(*args)
    except Exception as error:
        logger.warning("verifier %s raised in %s: %r", verifier.name, what, error)
        return error


@dataclass(frozen=True)
class Verification:
    """The steps of one cached answer that held (some adapted), up to the first failure.

    ``source`` is the whole answer verification ran over (a family may have re-instantiated
    it for the new request first); a patch regenerates ``source[failed_at:]``.
    """

    steps: list[Step]
    failed_at: int | None
    verdicts: list[Verdict]
    adapted: int
    source: tuple[Step, ...]


class RequestChecks:
    """The request's verifiers, called safely; ``keep`` receives every whole-answer verdict
    (the record keeps them). ``families`` are the task families that recognise the request:
    a step reused for a changed request is served only where they vouch for every part of it
    (:func:`~stepcache_integrations.core.tasks.soundness.unsound_part`).

    Example:
        >>> from stepcache_integrations.core.verifiers.callable import CallableVerifier
        >>> short = CallableVerifier(lambda request, answer: len(answer) < 10, name="short")
        >>> checks = RequestChecks((short,), keep=lambda verdicts: None)
        >>> checks.check_answer(VerifyContext("q"), "a long plain answer").verifier
        'short'
        >>> checks.check_answer(VerifyContext("q"), "brief") is None
        True
    """

    def __init__(
        self,
        verifiers: tuple[Verifier, ...],
        keep: Callable[[Sequence[Verdict]], None],
        families: tuple[TaskFamily, ...] = (),
    ) -> None:
        self.verifiers = verifiers
        self._keep = keep
        self.families = families

    def answer_checks(self, prompt: str) -> bool:
        """Whether a verifier checks whole answers to ``prompt`` (a streamed answer then waits
        for its check before it is shown)."""
        return any(
            guarded(v, "checks_answer", v.checks_answer, prompt) is True for v in self.verifiers
        )

    def check_step(
        self,
        ctx: VerifyContext,
        step: Step,
        index: int,
        steps: Sequence[Step],
        regenerated: bool = False,
    ) -> list[Verdict]:
        """Every verifier's verdict on one step, plus a failing one for a part of it that may
        depend on a change and that nobody vouched for (not asked when the step's dependent
        parts were just ``regenerated`` by the model)."""
        verdicts = []
        for verifier in self.verifiers:
            verdict = guarded(verifier, "check_step", verifier.check_step, ctx, step, index, steps)
            if not isinstance(verdict, Verdict):
                verdict = Verdict.fail(verifier.name, f"verifier error: {verdict!r}", step=index)
            verdicts.append(verdict)
        if any(getattr(v, "traces_numbers", False) is True and d.passed
               for v, d in zip(self.verifiers, verdicts, strict=True)):  # fmt: skip
            verdicts = [accept_traced_numbers(ctx, step, verdict) for verdict in verdicts]
        if not regenerated:
            unsound = self._unsound(ctx, step, index, steps, verdicts)
            if unsound is not None:
                verdicts.append(unsound)
        return verdicts

    def _unsound(
        self,
        ctx: VerifyContext,
        step: Step,
        index: int,
        steps: Sequence[Step],
        verdicts: Sequence[Verdict],
    ) -> Verdict | None:
        # A family's hook that raises vouches for nothing: the step is regenerated.
        try:
            return unsound_part(ctx, self.families, step, index, steps, verdicts)
        except Exception as error:
            logger.warning("the soundness check raised: %r", error)
            return Verdict.fail("soundness", f"could not be checked: {error!r}", step=index)

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict | None:
        """The first failing whole-answer verdict, or ``None`` when the answer holds."""
        if not answer.strip():
            return Verdict.fail("integrity", "the answer is empty")
        if unclosed_fence(answer):
            return Verdict.fail("integrity", "the answer opens a code fence it never closes")
        verdicts = []
        for verifier in self.verifiers:
            verdict = guarded(verifier, "check_answer", verifier.check_answer, ctx, answer)
            if not isinstance(verdict, Verdict):
                verdict = Verdict.fail(verifier.name, f"verifier error: {verdict!r}")
            verdicts.append(verdict)
        self._keep(verdicts)
        return next((v for v in verdicts if v.failed), None)

    def adapt(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> tuple[Step, list[Verdict]] | None:
        """Try the verifiers' deterministic rewrites; keep one a task verifier positively passes."""
        for candidate in self._rewrites(ctx, step):
            verdicts = self.check_step(ctx, candidate, index, steps)
            vouched = any(v.passed and v.verifier != STALENESS for v in verdicts)
            if vouched and not any(v.failed for v in verdicts):
                return candidate, verdicts
        return None

    def edited(self, ctx: VerifyContext, steps: list[Step]) -> bool:
        """Apply the first deterministic rewrite each step has (in place); whether any did."""
        changed = False
        for index, step in enumerate(steps):
            rewrite = next(self._rewrites(ctx, step), None)
            if rewrite is not None:
                steps[index] = rewrite
                changed = True
        return changed

    def _rewrites(self, ctx: VerifyContext, step: Step) -> Iterator[Step]:
        # Each verifier's deterministic rewrite of ``step`` that changes it, in order (lazily:
        # a caller that takes the first asks no further verifier).
        for verifier in self.verifiers:
            candidate = guarded(verifier, "adapt_step", verifier.adapt_step, ctx, step)
            if isinstance(candidate, Step) and candidate != step:
                yield candidate

    def verify_steps(
        self,
        ctx: VerifyContext,
        steps: Sequence[Step],
        limit: int | None = None,
        adapted: int = 0,
        stop: Verdict | None = None,
        regenerated: int | None = None,
    ) -> Verification:
        """Verified (possibly adapted) steps up to the first failure, and that failure's index.

        Steps from ``limit`` on count as failing (a family could not carry them over: ``stop``
        says why). The step at ``regenerated`` had every part that may depend on the changes
        written afresh by the model (a partial patch): it is checked, but needs no family to
        vouch for it. Side-effect free: several candidates can be verified and the best one
        kept.
        """
        verified: list[Step] = []
        kept: list[Verdict] = []
        adapted_count = adapted
        for index, step in enumerate(steps):
            if limit is not None and index >= limit:
                kept.extend([stop] if stop is not None else [])
                return Verification(verified, index, kept, adapted_count, tuple(steps))
            # Each step is judged after the steps as they will be served (some rewritten).
            current = [*verified, *steps[index:]]
            verdicts = self.check_step(ctx, step, index, current, index == regenerated)
            if any(v.failed for v in verdicts):
                rewritten = self.adapt(ctx, step, index, current)
                if rewritten is None:
                    kept.extend(verdicts)
                    return Verification(verified, index, kept, adapted_count, tuple(steps))
                step, verdicts = rewritten
                adapted_count += 1
            kept.extend(verdicts)
            verified.append(step)
        return Verification(verified, None, kept, adapted_count, tuple(steps))

    def repair_instruction(self, ctx: VerifyContext, text: str, failure: Verdict) -> str:
        """What to tell the model about ``failure``: the failing verifier's words, else a
        generic instruction naming the reason."""
        for verifier in self.verifiers:
            if verifier.name != failure.verifier:
                continue
            instruction = guarded(
                verifier, "repair_instruction", verifier.repair_instruction, ctx, text, failure
            )
            if isinstance(instruction, str) and instruction:
                return instruction
        return GENERIC_REPAIR.format(reason=failure.reason)

    def response_schema(self, ctx: VerifyContext) -> dict[str, Any] | None:
        """The first JSON Schema a verifier requires of every whole answer, if any."""
        for verifier in self.verifiers:
            schema = guarded(verifier, "response_schema", verifier.response_schema, ctx)
            if isinstance(schema, dict):
                return schema
        return None

    def fallback(self, ctx: VerifyContext) -> str | None:
        """The first deterministic whole answer a verifier writes, if any (unchecked)."""
        for verifier in self.verifiers:
            text = guarded(verifier, "fallback", verifier.fallback, ctx)
            if isinstance(text, str) and text:
                return text
        return None

    def continuation(self, ctx: VerifyContext, prefix: Sequence[Step]) -> str | None:
        """The first deterministic continuation of the verified ``prefix`` (unchecked)."""
        for verifier in self.verifiers:
            text = guarded(verifier, "continue_steps", verifier.continue_steps, ctx, prefix)
            if isinstance(text, str) and text:
                return text
        return None
