"""The word-problem verifier: every equation holds, every comparison and rounding written in
words holds, every number is traced."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from stepcache_integrations.core.steps import ParagraphSegmenter, Step
from stepcache_integrations.core.tasks.word_problem.arithmetic import Leaf, read_step
from stepcache_integrations.core.tasks.word_problem.chain import StepTrace, trace
from stepcache_integrations.core.tasks.word_problem.languages import (
    language_of,
    reads_numbers_otherwise,
)
from stepcache_integrations.core.tasks.word_problem.prose import false_claim
from stepcache_integrations.core.tasks.word_problem.request import (
    gone_values,
    is_word_problem,
    request_quantities,
)
from stepcache_integrations.core.text.memo import text_memo
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext

__all__ = ["TASK", "WordProblemVerifier"]

TASK = "word_problem"
_SEGMENTER = ParagraphSegmenter()
# 'end with the line "#### <answer>"': the prompt fixes how the answer ends.
_FORMAT_ASKS_MARKER = re.compile(r"####[ \t]*[<\[{]")
_ENDS_WITH_MARKER = re.compile(
    r"(?m)^[ \t*]*####[ \t]*\**[ \t]*-?[$€£]?\d[\d,]*(?:\.\d+)?\**\.?\s*\Z"
)


@text_memo(max_chars=1_000_000)
def _trace(texts: tuple[str, ...], request: str, cached: str | None) -> tuple[StepTrace, ...]:
    quantities = request_quantities(request)
    return tuple(trace(texts, quantities, None, gone_values(cached, request), request))


class WordProblemVerifier(Verifier):
    """Checks the arithmetic of answers to word problems, step by step.

    A step passes when every equation in it holds exactly, every comparison or rounding it
    writes between its own numbers holds ("10 guests, which is more than 8", "3.75, rounded
    up to 4"), and every number in it is traced: to a quantity of the request, to a value an
    equation of this or an earlier step computed, or to a conversion constant. A step with a
    wrong equation or a false comparison fails; a step with an untraced number is not vouched
    for (not applicable). The whole answer fails when an equation, a comparison or a rounding
    is wrong; it is not vouched for (not applicable) when its final number is not traced.

    Example:
        >>> v = WordProblemVerifier()
        >>> ctx = VerifyContext("A baker makes 24 rolls and sells three quarters of them. "
        ...                     "How many rolls are left?")
        >>> v.check_step(ctx, Step("Sold: 24 * 3/4 = 18."), 0, []).passed
        True
        >>> v.check_answer(ctx, "Sold: 24 * 3/4 = 18.\\nLeft: 24 - 18 = 7.").reason
        "'24 - 18 = 7' does not hold: it is 6"
    """

    name = TASK
    traces_numbers = True

    def applies_to(self, request: str, options: dict[str, object] | None = None) -> bool:
        """Whether ``request`` is a word problem (see :func:`is_word_problem`)."""
        return isinstance(request, str) and is_word_problem(request, options or {})

    def checks_answer(self, request: str) -> bool:
        return self.applies_to(request)

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        if not self.applies_to(ctx.request, ctx.options) or not isinstance(step.text, str):
            return Verdict.not_applicable(self.name, index)
        if language_of(ctx.request) != "en" and reads_numbers_otherwise(step.text):
            return Verdict.not_applicable(self.name, index)
        texts = (*(s.text for s in steps[:index]), step.text)
        found = _trace(texts, ctx.request, ctx.cached_request)[-1]
        if found.wrong:
            return Verdict.fail(self.name, found.wrong[0], step=index)
        claim = false_claim(step.text)
        if claim is not None:
            return Verdict.fail(self.name, claim, step=index)
        if found.problem is not None or found.mentions == 0:
            return Verdict.not_applicable(self.name, index)
        return Verdict.ok(self.name, "every equation holds and every number is traced", step=index)

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        if not self.applies_to(ctx.request, ctx.options):
            return Verdict.not_applicable(self.name)
        if not isinstance(answer, str):
            return Verdict.fail(self.name, "the answer is not text")
        if language_of(ctx.request) != "en":
            # The family reads another language's numbers and calculations, not its words: a
            # failure may be its misreading ("2,5", a rounding in words), so it vouches for
            # no whole answer there and asks for no repair.
            return Verdict.not_applicable(self.name)
        texts = tuple(step.text for step in _SEGMENTER.split(answer))
        traced = _trace(texts, ctx.request, None)
        for found, text in zip(traced, texts, strict=True):
            if found.wrong:
                return Verdict.fail(self.name, found.wrong[0])
            claim = false_claim(text)
            if claim is not None:
                return Verdict.fail(self.name, claim)
        with_numbers = [found for found in traced if found.mentions]
        if not with_numbers:
            return Verdict.fail(self.name, "the answer states no number")
        if _FORMAT_ASKS_MARKER.search(ctx.request) and not _ENDS_WITH_MARKER.search(answer):
            return Verdict.fail(
                self.name,
                "the answer must end with the line '#### <answer>' as the prompt asks",
            )
        final = with_numbers[-1].final
        if final is None and (_computed_somewhere(texts) or not _calculates(texts)):
            # The final number restates a result the answer computes from numbers the
            # family cannot trace (a constant it does not know, algebra), or the answer
            # calculates nothing the family reads: no mistake it can name, so no repair
            # (which paid for a second answer to right answers), and nothing it vouches for.
            return Verdict.not_applicable(self.name)
        if final is None:
            # A final no calculation writes: made up, or rounded or chosen in words the
            # family cannot read ("6.25 ... so 6 boxes"): never stored as passed.
            return Verdict.fail(
                self.name,
                "the final number does not follow from the request's quantities or from a "
                "calculation in the answer",
            )
        return Verdict.ok(self.name, f"every equation holds; the answer is {_show(final)}")

    def answer_key(self, request: str, answer: str, options: Mapping[str, Any]) -> Any:
        """The answer's final number, traced to the request (an audit's answer key);
        ``None`` when it states none or the last number is not traced.

        Example:
            >>> WordProblemVerifier().answer_key(
            ...     "Ana has 3 apples and buys 4 more. How many apples does she have?",
            ...     "3 + 4 = 7\\n#### 7", {})
            Fraction(7, 1)
        """
        if not isinstance(answer, str) or not self.applies_to(request, dict(options)):
            return None
        texts = tuple(step.text for step in _SEGMENTER.split(answer))
        with_numbers = [found for found in _trace(texts, request, None) if found.mentions]
        return with_numbers[-1].final if with_numbers else None

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        if not self.applies_to(ctx.request, ctx.options):
            return None
        reason = failure.reason.rstrip(". ") if isinstance(failure, Verdict) else ""
        what = f": {reason}" if reason else ""
        return (
            f"Your answer has a mistake{what}. Solve the problem again step by step: write "
            "every calculation as an equation '<calculation> = <result>', check each one, and "
            "end with the final answer."
        )


def _calculates(texts: Sequence[str]) -> bool:
    """Whether the answer writes an equation the family reads."""
    return any(read_step(text).equations for text in texts)


def _computed_somewhere(texts: Sequence[str]) -> bool:
    """Whether the answer's last number is a result one of its equations writes."""
    last = next((read_step(t).mentions[-1] for t in reversed(texts) if read_step(t).mentions), None)
    if last is None:
        return False
    for text in texts:
        math = read_step(text)
        for equation in math.equations:
            side = equation.sides[-1]
            if isinstance(side, Leaf) and math.mentions[side.index].value == last.value:
                return True
    return False


def _show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"
