"""The caller's own verifiers on tool-calling requests, and structured output's own check.

A wrapper's verifiers (an output parser, a callable) are written for text answers. On a
request with tools bound, the answer may be a tool-call document instead: there they do not
apply (the tool-call family checks the calls against their tools' schemas), and they keep
judging the plain answers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from stepcache_integrations.adapter.tools import read_reply
from stepcache_integrations.core.steps import Step, join_steps
from stepcache_integrations.core.tasks.tool_call import read_answer
from stepcache_integrations.core.tasks.tool_call.document import DocumentError, is_document
from stepcache_integrations.core.tasks.tool_call.literals import unfound
from stepcache_integrations.core.text import same_request
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext

__all__ = ["CopiedValuesOnly", "PlainAnswersOnly", "ToolArgumentsVerifier", "plain_answers_only"]


def _plain(text: str) -> str | None:
    """The plain answer ``text`` holds, or ``None`` for a tool-call document."""
    if is_document(text):
        return None
    try:
        return read_answer(text).content
    except DocumentError:  # pragma: no cover - only documents raise
        return None


class PlainAnswersOnly(Verifier):
    """``verifier`` applied to plain answers only; tool-call documents are not applicable.

    Example:
        >>> from stepcache_integrations.core.verifiers.callable import CallableVerifier
        >>> short = plain_answers_only(CallableVerifier(lambda request, answer: len(answer) < 10))
        >>> short.check_answer(VerifyContext("q"), "a long plain answer").failed
        True
        >>> short.check_answer(VerifyContext("q"),
        ...     '<<stepcache:tool_calls:v1>>\\n{"name": "f", "arguments": {}}').outcome.value
        'n/a'
    """

    def __init__(self, verifier: Verifier) -> None:
        self.inner = verifier
        self.name = verifier.name

    def checks_answer(self, request: str) -> bool:
        return self.inner.checks_answer(request)

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        if _plain(join_steps(steps)) is None:
            return Verdict.not_applicable(self.name, index)
        return self.inner.check_step(ctx, step, index, steps)

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        plain = _plain(answer)
        if plain is None:
            return Verdict.not_applicable(self.name)
        return self.inner.check_answer(ctx, plain)

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        return self.inner.repair_instruction(ctx, answer, failure)


def plain_answers_only(verifier: Verifier) -> Verifier:
    """``verifier`` restricted to plain answers (see :class:`PlainAnswersOnly`)."""
    return verifier if isinstance(verifier, PlainAnswersOnly) else PlainAnswersOnly(verifier)


class ToolArgumentsVerifier(Verifier):
    """Structured output asked as a tool call: the first call's arguments must be accepted by
    the output's Pydantic model (its validators too, which a JSON Schema cannot express).

    Example:
        >>> from pydantic import BaseModel, field_validator
        >>> class Age(BaseModel):
        ...     years: int
        ...     @field_validator("years")
        ...     @classmethod
        ...     def plausible(cls, value: int) -> int:
        ...         assert 0 <= value < 150, "not a human age"
        ...         return value
        >>> doc = '<<stepcache:tool_calls:v1>>\\n{"name": "Age", "arguments": {"years": 200}}'
        >>> ToolArgumentsVerifier(Age).check_answer(VerifyContext("How old?"), doc).failed
        True
    """

    name = "structured_output"

    def __init__(self, model: Any) -> None:
        self.model = model

    def checks_answer(self, request: str) -> bool:
        return True

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        calls = read_reply(answer).calls
        if not calls:
            return Verdict.not_applicable(self.name)
        try:
            self.model.model_validate(dict(calls[0].arguments))
        except ValidationError as error:
            problems = "; ".join(
                f"{'.'.join(str(part) for part in item['loc']) or 'value'}: {item['msg']}"
                for item in error.errors()[:5]
            )
            return Verdict.fail(self.name, f"{self._model_name} rejects the call: {problems}")
        except Exception as error:  # a validator that raised something else: still a failure
            message = str(error).splitlines()[0][:300] if str(error) else type(error).__name__
            return Verdict.fail(self.name, f"{self._model_name} rejects the call: {message}")
        return Verdict.ok(self.name)

    @property
    def _model_name(self) -> str:
        return str(getattr(self.model, "__name__", "the output model"))


class CopiedValuesOnly(Verifier):
    """A cached JSON answer (structured output in JSON mode) is reused for a changed request
    only when every value in it is spelled out in the new request: the rule tool-call
    arguments follow (see :mod:`stepcache_integrations.core.tasks.tool_call.literals`). A
    value the model derived, or one the change may have touched, sends the request to the
    model.

    Example:
        >>> check = CopiedValuesOnly()
        >>> ctx = VerifyContext("Ada lives in Paris.", "Ada lives in London.")
        >>> check.check_step(ctx, Step('{"name": "Ada", "city": "London"}'), 0, []).failed
        True
    """

    name = "copied_values"

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        if ctx.cached_request is None or same_request(ctx.cached_request, ctx.request):
            return Verdict.not_applicable(self.name, index)
        try:
            value = json.loads(step.text)
        except ValueError:
            return Verdict.not_applicable(self.name, index)
        if not isinstance(value, dict | list):
            return Verdict.not_applicable(self.name, index)
        missing = unfound(value, ctx.request)
        if missing:
            shown = ", ".join(repr(item) for item in missing[:5])
            return Verdict.fail(self.name, f"values not in the new request: {shown}", index)
        return Verdict.ok(self.name, "every value is in the new request", index)
