"""The word-problem family: multi-step arithmetic in prose, re-instantiated for new quantities."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.base import Adaptation, Span, TaskFamily
from stepcache_integrations.core.tasks.word_problem.chain import trace
from stepcache_integrations.core.tasks.word_problem.request import (
    pair_quantities,
    request_quantities,
)
from stepcache_integrations.core.tasks.word_problem.verifier import TASK, WordProblemVerifier
from stepcache_integrations.core.text import compare
from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext

__all__ = ["WordProblemFamily"]

logger = logging.getLogger(__name__)


class WordProblemFamily(TaskFamily):
    """Multi-step arithmetic word problems ("A baker makes 24 rolls... How many are left?").

    Steps are paragraphs and list items. A cached answer is re-instantiated for a request that
    differs only in its quantities (digits or words, fractions, multipliers, percentages):
    each number of each step is traced to a request quantity or to an earlier calculation,
    every calculation is redone exactly for the new quantities, and the numbers are rewritten
    in the text. Re-instantiation stops at the first step it cannot carry over (an untraced or
    ambiguous number, a count that would become fractional or negative, a division by zero):
    from there the model writes the rest, or answers afresh. There is no deterministic answer:
    reading what a problem asks is the model's job.

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext
        >>> family = WordProblemFamily()
        >>> cached = "Ana has 12 apples and eats three of them. How many apples are left?"
        >>> new = "Ana has 20 apples and eats five of them. How many apples are left?"
        >>> family.recognises(new, {})
        True
        >>> done = family.adapt_answer(VerifyContext(new, cached), [Step("12 - 3 = 9")])
        >>> done.steps[0].text, done.complete
        ('20 - 5 = 15', True)
    """

    name = TASK
    priority = 30
    # Framing around the problem ("Here is a word problem for you.", "Please help me with
    # this question:") and the wording of the answer-format instruction ("Write each step
    # on its own line"; what is quoted in it must not change): the problem itself is the
    # rest of the text, and every quantity is traced.
    instruction_words = frozenset(
        """solve this problem help me with question here is a word for
        you work out answer the following it step could can would write
        each on its own line as in form per by finish end and""".split()  # noqa: SIM905
    )

    def __init__(self) -> None:
        self.word_problems = WordProblemVerifier()
        super().__init__(self.word_problems)

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        return self.word_problems.applies_to(request, dict(options))

    def _only_framing(self, ctx: VerifyContext) -> bool:
        cached = ctx.cached_request or ""
        delta = compare(cached, ctx.request)
        return delta.same or (
            not delta.polarity_changed
            and all(self.account(edit, ctx) is not None for edit in delta.edits)
        )

    def verified_spans(self, request: str, options: Mapping[str, Any]) -> Sequence[Span]:
        """The quantities (their units are not part of them: a changed unit is meaning)."""
        return [(quantity.start, quantity.end) for quantity in request_quantities(request)]

    def unchecked_part(
        self,
        ctx: VerifyContext,
        accounts: Sequence[ChangeAccount],
        step: Step,
        index: int,
        steps: Sequence[Step],
    ) -> str | None:
        """Every number of a reused step is traced and every calculation redone."""
        return None

    def adapt_answer(self, ctx: VerifyContext, steps: Sequence[Step]) -> Adaptation | None:
        """The cached answer rewritten for the new quantities, up to the first step that
        cannot be carried over (all of it when every step can)."""
        if ctx.cached_request is None or not steps:
            return None
        if _same_quantities(ctx.cached_request, ctx.request) and self._only_framing(ctx):
            # The same problem with other framing ("Here is a word problem for you."): the
            # steps are verified as they are.
            return Adaptation(tuple(steps), len(steps))
        try:
            return _reinstantiate(ctx.cached_request, ctx.request, steps)
        except Exception as error:  # never fall back to the unadapted steps
            logger.warning("word-problem re-instantiation failed: %r", error)
            return Adaptation(tuple(steps), 0, f"re-instantiation failed: {error!r}")


def _same_quantities(cached: str, request: str) -> bool:
    old, new = request_quantities(cached), request_quantities(request)
    return [(q.value, q.kind, q.unit) for q in old] == [(q.value, q.kind, q.unit) for q in new]


def _reinstantiate(cached: str, request: str, steps: Sequence[Step]) -> Adaptation:
    paired = pair_quantities(cached, request)
    if isinstance(paired, str):
        return Adaptation(tuple(steps), 0, paired)
    old, new = paired
    if all(a.value == b.value for a, b in zip(old, new, strict=True)):
        return Adaptation(tuple(steps), len(steps))  # only how the numbers are written changed
    rewritten: list[Step] = []
    used: set[int] = set()
    for found in trace([step.text for step in steps], old, new, request=cached):
        if found.wrong or found.problem is not None or found.text is None:
            reason = found.wrong[0] if found.wrong else found.problem or "not carried over"
            kept = (*rewritten, *steps[len(rewritten) :])
            return Adaptation(kept, found.index, f"step {found.index}: {reason}")
        rewritten.append(Step(found.text, steps[found.index].separator))
        used |= found.used
    # A changed quantity that no calculation uses changes the answer in a way the family does
    # not see ("name 3 fruits" becoming "name 5 fruits"): decline from the first step.
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if a.value != b.value and i not in used:
            return Adaptation(tuple(steps), 0, f"no calculation uses '{a.text}', which changed")
    return Adaptation(tuple(rewritten), len(rewritten))
