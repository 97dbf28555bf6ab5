"""Checks of tool-calling answers: every call valid for its tool, every value from the request.

An answer passes when each of its calls names a bound tool and its arguments validate against
that tool's JSON Schema (the whole-answer check: a fresh reply is judged by it alone). A cached
step served for a request that differs in meaning from the cached one must also have every
argument value spelled out in the new request (see
:mod:`~stepcache_integrations.core.tasks.tool_call.literals`); a plain answer, or any answer
after a tool result, is served only for the same request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stepcache_integrations.core.steps import Step, join_steps
from stepcache_integrations.core.tasks.tool_call.document import (
    HEADER,
    DocumentError,
    ReadAnswer,
    read_answer,
)
from stepcache_integrations.core.tasks.tool_call.literals import unfound
from stepcache_integrations.core.tasks.tool_call.tools import AFTER_TOOL_RESULT, ToolSchemas
from stepcache_integrations.core.text import same_request
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext

__all__ = ["NAME", "ToolCallVerifier", "request_changed"]

NAME = "tool_call"


def request_changed(ctx: VerifyContext) -> bool:
    """Whether a cached answer is checked against a request that means something else (a
    fresh answer, or the same request up to neutral edits, is not)."""
    return ctx.cached_request is not None and not same_request(ctx.cached_request, ctx.request)


@dataclass(frozen=True)
class _Judged:
    reason: str | None  # None: the answer holds
    vouched: str = ""


def _shown(values: Sequence[object]) -> str:
    return ", ".join(repr(value) for value in values[:5])


def judge(ctx: VerifyContext, text: str, *, cached: bool) -> _Judged:
    """Whether ``text``, a whole answer, may be given for ``ctx.request``. ``cached``: the
    text is (made from) a cached answer, so it must also hold for the changed request."""
    try:
        answer: ReadAnswer = read_answer(text)
    except DocumentError as error:
        return _Judged(f"malformed tool-call document: {error}")
    if "\n" + HEADER in answer.content:
        # Only a patched answer (text, then a model's tool calls) looks like this.
        return _Judged("a tool-call document inside the text of an answer")
    changed = cached and request_changed(ctx)
    if changed and ctx.options.get(AFTER_TOOL_RESULT):
        return _Judged("after a tool result only the same request (tool results included) reuses")
    if not answer.is_tool_call:
        if changed:
            return _Judged(
                "a plain answer to a tool-calling request is reused only for the same request"
            )
        return _Judged(None, "plain answer")
    schemas = ToolSchemas.of(ctx.options)
    for call in answer.calls:
        problem = schemas.problem(call.name, call.arguments)
        if problem is not None:
            return _Judged(problem)
        if changed:
            missing = unfound(call.arguments, ctx.request)
            if missing:
                return _Judged(
                    f"{call.name}: argument values not found in the request: {_shown(missing)}"
                )
    return _Judged(None, f"{len(answer.calls)} tool call(s) valid for their tools")


class ToolCallVerifier(Verifier):
    """Verifies tool-call documents (see the module docstring).

    Every step of a document is judged with the whole document: calls are made together, so
    a document is served whole or not at all (never patched call by call).

    Example:
        >>> from stepcache_integrations.core.tasks.tool_call.document import (
        ...     DocumentCall, ToolCallDocument, write_document)
        >>> options = {"tools": [{"name": "get_weather", "parameters": {"type": "object",
        ...     "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}
        >>> answer = write_document(ToolCallDocument((DocumentCall("get_weather", {}),)))
        >>> ToolCallVerifier().check_answer(VerifyContext("Weather?", options=options),
        ...                                 answer).reason
        "get_weather: arguments at $: 'city' is a required property"
    """

    name = NAME

    def checks_answer(self, request: str) -> bool:
        # A tool call must be checked before anyone acts on it: replies are never streamed
        # through unchecked.
        return True

    def _verdict(self, ctx: VerifyContext, text: str, index: int | None) -> Verdict:
        # Steps are cached (or rewritten) answers; a whole answer may be a fresh reply, judged
        # on its own (a reused answer's steps have all been checked before it is put together).
        judged = judge(ctx, text, cached=index is not None)
        if judged.reason is not None:
            return Verdict.fail(self.name, judged.reason, index)
        return Verdict.ok(self.name, judged.vouched, index)

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        whole = list(steps)
        if 0 <= index < len(whole):
            whole[index] = step  # the step under test may be a rewrite of the stored one
        return self._verdict(ctx, join_steps(whole), index)

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        return self._verdict(ctx, answer, None)

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        return (
            f"Your tool call was not valid: {failure.reason}. Call the tool again with "
            "arguments that match its parameter schema, or answer in plain text."
        )
