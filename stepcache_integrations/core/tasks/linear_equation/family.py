"""The linear-equation family: "solve a*v + b = c for v", in the usual written forms."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.base import Adaptation, Span, TaskFamily
from stepcache_integrations.core.tasks.linear_equation.asking import (
    CachedEquation,
    equation_spans,
    mentions_of,
    stated_outside,
)
from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    parse_equation,
    scan_equations,
)
from stepcache_integrations.core.tasks.linear_equation.lines import EQUATION_SEGMENTER
from stepcache_integrations.core.tasks.linear_equation.numerals import reading
from stepcache_integrations.core.tasks.linear_equation.prose import prose_words, unchecked_prose
from stepcache_integrations.core.tasks.linear_equation.rewrite import reinstantiate_steps
from stepcache_integrations.core.tasks.linear_equation.verifier import TASK, LinearEquationVerifier
from stepcache_integrations.core.text import Edit
from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext

__all__ = ["CachedEquation", "LinearEquationFamily"]


class LinearEquationFamily(TaskFamily):
    """Requests to solve a linear equation in one variable.

    Steps are paragraphs, list items and the lines of an answer written line by line
    (:mod:`~stepcache_integrations.core.tasks.linear_equation.lines`); every equation in a
    step must have the request's solution; a changed constant or a renamed variable is
    carried over deterministically, and the canonical solution is the deterministic answer.

    Example:
        >>> family = LinearEquationFamily()
        >>> family.recognises("Solve for x: 3x + 5 = 20.", {})
        True
        >>> family.recognises("Write 3x + 5 = 20 as JSON instead of solving it.", {})
        False
    """

    name = TASK
    priority = 20
    # "Solve ... for x" / "Find the value of x in ..." / "What is x if ...?": the verifier
    # checks every step against the request's equation, so these words change nothing.
    instruction_words = frozenset(
        [
            "solve",
            "find",
            "the",
            "value",
            "of",
            "in",
            "what",
            "is",
            "if",
            "work",
            "out",
            "from",
            "equation",
            "this",
            "determine",
            "given",
            "that",
            "for",
            "compute",
            "calculate",
            "get",
            "unknown",
        ]
    )

    def __init__(self) -> None:
        self.linear = LinearEquationVerifier()
        super().__init__(self.linear, EQUATION_SEGMENTER)
        # Steps the rewriter re-instantiated (every number traced, every word independent),
        # per request: vouched for by the rewrite itself.
        self._vouched: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._lock = threading.Lock()

    def adapt_answer(self, ctx: VerifyContext, steps: Sequence[Step]) -> Adaptation | None:
        """The cached answer re-instantiated for the new equation in its own layout, when the
        requests differ only in what this family took on (the equation's slots): every number
        traced to what it counts and written anew, every equation checked again
        (:func:`~stepcache_integrations.core.tasks.linear_equation.rewrite.reinstantiate_steps`).
        The cached answer also shows what the request asks (the same words ask the same): the
        engine hands it to the solver's continuation as ``ctx.answer``."""
        if ctx.cached_request is None or not ctx.changed or not ctx.accounts:
            return None
        if any(account.family != self.name for account in ctx.accounts):
            return None
        cached = self._cached(ctx)
        old, new = cached.equation, parse_equation(ctx.request)
        if old is None or new is None:
            return None
        if (old.a, old.b, old.c) == (new.a, new.b, new.c):
            # The variable renamed alone: every value and every claim about it is the same,
            # so each step is renamed as it stands (adapt_step) and its words need no vouching.
            return None
        kept = cached.stated | stated_outside(ctx.request)
        texts, valid = reinstantiate_steps([step.text for step in steps], old, new, kept)
        if valid == 0:
            return None
        with self._lock:
            for text in texts[:valid]:
                self._vouched[(ctx.request, text)] = None
            while len(self._vouched) > 4096:
                self._vouched.popitem(last=False)
        rewritten = tuple(
            Step(text, step.separator) for text, step in zip(texts, steps, strict=True)
        )
        reason = "" if valid == len(steps) else f"step {valid} could not be re-instantiated"
        return Adaptation(rewritten, valid, reason)

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        return self.linear.applies_to(request)

    def verified_spans(self, request: str, options: Mapping[str, Any]) -> Sequence[Span]:
        """The equation (every run of numbers, one-letter names and operators around an "="
        that is itself the request's equation) and each mention of its variable."""
        # The spans depend on the text alone; the same-request gate asks for both requests'
        # spans once per edit, and every candidate shares the new request.
        return equation_spans(request)

    def read_cached(self, request: str) -> CachedEquation:
        """The cached request's equation, its spans and the numbers it states outside it:
        what every hit that meets the entry reads of it."""
        return CachedEquation.of(request)

    def cached_spans(self, ctx: VerifyContext) -> Sequence[Span]:
        return self._cached(ctx).spans

    def _cached(self, ctx: VerifyContext) -> CachedEquation:
        """The reading of ``ctx.cached_request`` made when its entry was stored, else now."""
        return CachedEquation.in_context(ctx, self.name)

    def account(self, edit: Edit, ctx: VerifyContext) -> ChangeAccount | None:
        """Also a renamed variable inside a quoted format ('end with "x = <value>"' ->
        '"y = <value>"'): the quoted text with the old name replaced is the new one."""
        found = super().account(edit, ctx)
        if found is not None:
            return found
        old_eq, new_eq = self._cached(ctx).equation, parse_equation(ctx.request)
        if old_eq is None or new_eq is None or not edit.is_substitution:
            return None
        if old_eq.variable == new_eq.variable:
            return None
        rename = mentions_of(old_eq.variable)
        renamed = [
            rename.sub(new_eq.variable, old.text) == new.text
            for old, new in zip(edit.removed, edit.added, strict=True)
        ]
        if not all(renamed):
            return None
        return ChangeAccount(edit, self.name, "value", "the variable, renamed in a quoted format")

    def unchecked_part(
        self,
        ctx: VerifyContext,
        accounts: Sequence[ChangeAccount],
        step: Step,
        index: int,
        steps: Sequence[Step],
    ) -> str | None:
        """Every equation of a reused step is checked against the new equation; its words
        must be true of every equation, and its stated moves must lead to the equation it
        writes (:func:`~stepcache_integrations.core.tasks.linear_equation.prose.unchecked_prose`).
        A renamed variable alone changes no value: its mentions are rewritten and checked."""
        if all(account.kind != "value" for account in accounts):
            return None
        with self._lock:
            if (ctx.request, step.text) in self._vouched:
                return None
        target = parse_equation(ctx.request)
        if target is None:
            return "the request's equation could not be read"
        cached = self._cached(ctx).equation
        if cached is not None and (cached.a, cached.b, cached.c) == (target.a, target.b, target.c):
            return None
        # Read as the request writes its numbers ("0,5x" where its language writes a comma).
        earlier = [reading(before.text, target.answer_language) for before in steps[:index]]
        text = reading(step.text, target.answer_language)
        unchecked = unchecked_prose(text, earlier, target)
        if unchecked is None and _unsaid_move(text, earlier, target):
            # "We start from 1x - 1 = -1" holds for 1x + 1 = 1 (the same solution) and is one
            # move from it, but its words say it is the equation it starts from. Only the
            # rewriter, which compares each equation's relation to the one before with the
            # cached answer's, vouches for a step whose words come with a move.
            return "an equation of the step is neither the one before it nor the solution"
        return unchecked


def _unsaid_move(text: str, earlier: Sequence[str], target: LinearEquation) -> bool:
    """Whether step ``text`` has words and an equation in the variable that is neither the
    equation reached before it (the request's, or the last of the ``earlier`` steps') nor the
    solution."""
    if not prose_words(text):
        return False
    var = target.variable
    state = (target.a, target.b, target.c)
    for earlier_text in earlier:
        for eq in scan_equations(earlier_text)[1]:
            if eq.names == {var} and eq.normal_form(var)[0] != 0:
                state = eq.normal_form(var)
    solved = (Fraction(1), Fraction(0), target.solution)
    for eq in scan_equations(text)[1]:
        if eq.names != {var}:
            continue
        form = eq.normal_form(var)
        if form not in (state, solved):
            return True
        state = form
    return False
