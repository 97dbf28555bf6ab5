"""The tool-call family: requests with tools bound, whose answer may call them.

What it reuses:

- the same request (tools, earlier turns and tool results included, up to meaning-neutral
  edits): the cached answer, calls or text, as it is;
- a request that differs only in values the cached calls copied verbatim from it ("weather
  in Paris" -> "weather in Berlin", a date string, a quantity, an id): the calls are
  re-instantiated, every changed value rewritten, then checked like a fresh answer (each call
  valid for its tool's JSON Schema) and, more, every argument value must be spelled out in
  the new request, and nothing else in the call may depend on a rebound value: not the
  choice of the tool, not another argument, not the text beside the calls. The family cannot
  read meaning, so that is decided structurally (see
  :mod:`~stepcache_integrations.core.tasks.tool_call.dependence`): tools declared pure are
  taken at their word; a tool that is not pure is re-instantiated only as the one tool bound,
  with no turn before the request, a spec and a request that say nothing it cannot account
  for.

Anything else calls the model: a change that no copied value explains ("book a flight" ->
"cancel the flight"), an argument the model derived rather than copied (a capitalised city,
a number written in words, a boolean), a value that may choose the tool or another argument,
a plain answer to a changed request, or any change in a turn that answers a tool result.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from stepcache_integrations.core.steps import ParagraphSegmenter, Step, join_steps
from stepcache_integrations.core.tasks.base import Adaptation, TaskFamily
from stepcache_integrations.core.tasks.tool_call.dependence import dependent_part
from stepcache_integrations.core.tasks.tool_call.document import (
    DocumentCall,
    DocumentError,
    ToolCallDocument,
    is_document,
    read_answer,
    write_document,
)
from stepcache_integrations.core.tasks.tool_call.literals import (
    changed_leaves,
    leaves,
    occurrences,
    rewrite,
)
from stepcache_integrations.core.tasks.tool_call.tools import AFTER_TOOL_RESULT, has_tools
from stepcache_integrations.core.tasks.tool_call.verifier import NAME, ToolCallVerifier
from stepcache_integrations.core.text import Edit, compare
from stepcache_integrations.core.text.slots import same_kind, value_kind
from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext

__all__ = ["ToolCallFamily", "ToolCallSegmenter"]


class ToolCallSegmenter:
    """One step per call of a tool-call document (the header and the turn's text go with the
    first call); a plain answer is split into paragraphs and list items.

    Example:
        >>> text = ('<<stepcache:tool_calls:v1>>\\n{"name": "a", "arguments": {}}\\n'
        ...         '{"name": "b", "arguments": {}}')
        >>> [step.text.splitlines()[-1] for step in ToolCallSegmenter().split(text)]
        ['{"name": "a", "arguments": {}}', '{"name": "b", "arguments": {}}']
    """

    name = "tool_call"

    def __init__(self) -> None:
        self._plain = ParagraphSegmenter()

    def split(self, text: str) -> list[Step]:
        if not is_document(text):
            return self._plain.split(text)
        lines = text.split("\n")
        first_call = 1
        if len(lines) > 2:
            try:
                second = json.loads(lines[1])
            except ValueError:
                second = None
            if isinstance(second, dict) and set(second) == {"content"}:
                first_call = 2
        groups = ["\n".join(lines[: first_call + 1]), *lines[first_call + 1 :]]
        return [
            Step(group, "\n" if position < len(groups) - 1 else "")
            for position, group in enumerate(groups)
        ]


def _span(text: str, tokens: Sequence[Any]) -> str:
    """The text the tokens of one side of an edit cover (a lone quoted string: its inside)."""
    if len(tokens) == 1 and tokens[0].kind == "quoted":
        return str(tokens[0].bare)
    return text[tokens[0].start : tokens[-1].end]


def _replacement(edit: Edit, cached: str, request: str) -> tuple[str, str] | str:
    """``(old, new)`` for an edit argument rewrites can carry, else why not."""
    if not edit.removed or not edit.added:
        words = edit.removed or edit.added
        what = "removed" if edit.removed else "added"
        return f"{_span(cached if edit.removed else request, words)!r} was {what}"
    old, new = _span(cached, edit.removed), _span(request, edit.added)
    if occurrences(old, cached) != 1:
        return f"{old!r} occurs more than once in the cached request: which one was copied?"
    if occurrences(old, request):
        return f"{old!r} is still in the request"
    if occurrences(new, request) > 1:
        # "weather in Paris and Berlin" -> "... Paris and Paris": one call or two?
        return f"{new!r} occurs more than once in the new request: which one would be copied?"
    if not same_kind(old, new):
        # "Paris" -> "the capital of Germany": a description the model must resolve, not a
        # city; "3" -> "3 + 4", "Paris" -> "Germany", an address -> a name: another kind.
        return f"{new!r} is a {value_kind(new)}, not a {value_kind(old)} like {old!r}"
    return old, new


def _as_text(value: Any) -> str:
    """A scalar argument as the request would write it (a number as JSON writes it)."""
    return value if isinstance(value, str) else json.dumps(value)


def _copies(value: Any, old: str) -> bool:
    """Whether some scalar of ``value`` holds ``old`` verbatim."""
    for leaf in leaves(value):
        if isinstance(leaf, str) and occurrences(old, leaf):
            return True
        if isinstance(leaf, int | float) and not isinstance(leaf, bool) and json.dumps(leaf) == old:
            return True
    return False


class ToolCallFamily(TaskFamily):
    """Requests with tools bound (``options["tools"]``, filled in by the framework adapters).

    The family is exclusive: when tools are bound it alone segments and verifies the answer
    (another family's checks or deterministic answer must never replace a tool call).

    Example:
        >>> family = ToolCallFamily()
        >>> family.recognises("Weather in Paris?", {"tools": [{"name": "get_weather"}]})
        True
        >>> family.recognises("Weather in Paris?", {})
        False
    """

    name = NAME
    priority = 0
    exclusive = True

    def __init__(self) -> None:
        super().__init__(ToolCallVerifier(), ToolCallSegmenter())

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        return has_tools(options)

    def account(self, edit: Edit, ctx: VerifyContext) -> ChangeAccount | None:
        """A change argument rewrites can carry: a one-for-one replacement of a value the
        cached request states once and the new request no longer has, in a turn that is not
        a tool result. Whether the cached calls really copied it is decided by
        :meth:`adapt_answer` (when they did not, nothing is reused)."""
        if not has_tools(ctx.options) or ctx.options.get(AFTER_TOOL_RESULT):
            return None
        if ctx.cached_request is None:
            return None
        if not isinstance(_replacement(edit, ctx.cached_request, ctx.request), tuple):
            return None
        return ChangeAccount(edit, self.name, "value", "a value the calls copied")

    def unchecked_part(
        self,
        ctx: VerifyContext,
        accounts: Sequence[ChangeAccount],
        step: Step,
        index: int,
        steps: Sequence[Step],
    ) -> str | None:
        """What of a re-instantiated answer may depend on its rebound values and was not
        rewritten: the choice of the tool, another argument, the text beside the calls (see
        :func:`~stepcache_integrations.core.tasks.tool_call.dependence.dependent_part`: a
        structural rule, since nothing here reads meaning).
        The rebound values themselves are rewritten, and every argument is checked against
        the new request by the verifier. Anything the family cannot read (a plain answer, a
        malformed document, a change that is not a copied value) is not vouched for."""
        if ctx.cached_request is None or not any(a.kind == "value" for a in accounts):
            return None
        changes: dict[str, str] = {}
        for account in accounts:
            if account.kind != "value":
                continue
            found = _replacement(account.edit, ctx.cached_request, ctx.request)
            if isinstance(found, str):
                return f"{account.shown} is not a value the calls copied: {found}"
            changes[found[0]] = found[1]
        whole = list(steps)
        if 0 <= index < len(whole):
            whole[index] = step  # the step under test may be a rewrite of the stored one
        try:
            answer = read_answer(join_steps(whole))
        except DocumentError as error:
            return f"malformed tool-call document: {error}"
        if not answer.is_tool_call:
            return f"a plain answer may depend on {accounts[0].shown}"
        return dependent_part(ctx, answer.calls, answer.content, changes)

    def answer_key(self, request: str, answer: str, options: Mapping[str, Any]) -> Any:
        """The tool calls the answer makes, names and arguments in order (an audit's answer
        key; call ids are never part of it); ``None`` for a plain answer.

        Example:
            >>> from stepcache_integrations.core.tasks.tool_call.document import (
            ...     DocumentCall, ToolCallDocument, write_document)
            >>> call = DocumentCall("weather", {"city": "Faro"})
            >>> text = write_document(ToolCallDocument((call,)))
            >>> ToolCallFamily().answer_key("Weather in Faro?", text, {})
            [('weather', {'city': 'Faro'})]
        """
        try:
            calls = read_answer(answer).calls if isinstance(answer, str) else ()
        except DocumentError:
            return None
        return [(call.name, call.arguments) for call in calls] or None

    def adapt_answer(self, ctx: VerifyContext, steps: Sequence[Step]) -> Adaptation | None:
        """Re-instantiate cached calls for a request whose changes are all values they copied
        (``valid=0``, with the reason, when any change is not)."""
        cached = ctx.cached_request
        if cached is None:
            return None
        try:
            answer = read_answer(join_steps(steps))
        except DocumentError as error:
            return Adaptation(tuple(steps), 0, f"malformed tool-call document: {error}")
        if not answer.is_tool_call:
            return None  # a plain answer: the verifier allows only the same request
        delta = compare(cached, ctx.request)
        if delta.same:
            return None
        if ctx.options.get(AFTER_TOOL_RESULT):
            return Adaptation(tuple(steps), 0, "a tool result changed")
        replacements: dict[str, str] = {}
        for edit in delta.edits:
            found = _replacement(edit, cached, ctx.request)
            if isinstance(found, str):
                return Adaptation(tuple(steps), 0, f"not a copied value: {found}")
            old, new = found
            if replacements.setdefault(old, new) != new:
                return Adaptation(tuple(steps), 0, f"{old!r} became two different values")
        arguments = [call.arguments for call in answer.calls]
        for old, new in replacements.items():
            if not _copies(arguments, old):
                return Adaptation(
                    tuple(steps), 0, f"{old!r} -> {new!r}: no cached call copied {old!r}"
                )
        calls = tuple(
            DocumentCall(call.name, rewrite(call.arguments, replacements)[0])
            for call in answer.calls
        )
        for before, after in zip(answer.calls, calls, strict=True):
            for old_value, new_value in changed_leaves(before.arguments, after.arguments):
                # The whole argument keeps its kind, not only the part an edit replaced:
                # "New York" -> "New England", "2025-07-01" -> "2025-7-9".
                if not same_kind(_as_text(old_value), _as_text(new_value)):
                    reason = f"{new_value!r} is not of the kind of {old_value!r}"
                    return Adaptation(tuple(steps), 0, reason)
        content = rewrite(answer.content, replacements)[0] if answer.content else ""
        text = write_document(ToolCallDocument(calls, content))
        new_steps = self.segmenter.split(text)
        return Adaptation(tuple(new_steps), len(new_steps))
