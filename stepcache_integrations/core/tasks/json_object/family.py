"""The JSON-object family: "return a JSON object with the keys ...", or any call with a schema."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from stepcache_integrations.core.steps import JsonSegmenter, Step
from stepcache_integrations.core.tasks.base import Adaptation, Span, TaskFamily
from stepcache_integrations.core.tasks.json_object.answer import (
    locate_object,
    object_span,
    replace_object,
)
from stepcache_integrations.core.tasks.json_object.changes import (
    FAMILY,
    FIXED_VALUE,
    MENTION,
    STATED,
    Reading,
    classify_edit,
    outside_text,
    unchecked_text,
    untraced_change,
)
from stepcache_integrations.core.tasks.json_object.request import prompt_layout
from stepcache_integrations.core.tasks.json_object.tracing import (
    Change,
    may_be_stated_value,
    retarget,
    rewrite_mentions,
    stated_spellings,
)
from stepcache_integrations.core.tasks.json_object.verifier import JsonVerifier, SchemaLike
from stepcache_integrations.core.text import Edit
from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext

__all__ = ["JsonObjectFamily"]


class JsonObjectFamily(TaskFamily):
    """Requests whose answer is one JSON object.

    The object is one step (text around it is kept losslessly); required keys, closed key
    lists and fixed values come from the prompt, and from a JSON Schema or Pydantic model given
    here or per call (``options["json_schema"]``). Changed fixed values and removed keys are
    rewritten deterministically. After a change of what the request asks of the object (a
    changed fixed value, a key added, removed or reordered, a value mentioned in the prose),
    every value the new request does not state may depend on it and is asked of the model
    again with the added keys, never kept: beside an added ``surname``, ``name`` is the first
    name only (see :mod:`~stepcache_integrations.core.tasks.json_object.changes`).

    Example:
        >>> family = JsonObjectFamily()
        >>> family.recognises('Return only a JSON object with the keys "a" and "b".', {})
        True
        >>> family.recognises("Describe a cat.", {"json_schema": {"type": "object"}})
        True
    """

    name = FAMILY
    priority = 10
    # "Create / Generate / Write ... a JSON object / record ... with exactly the keys ...,
    # where ...": which keys and values hold is what the verifier checks on every answer.
    instruction_words = frozenset(
        [
            "create",
            "generate",
            "produce",
            "make",
            "write",
            "build",
            "return",
            "respond",
            "give",
            "need",
            "want",
            "json",
            "object",
            "record",
            "describing",
            "describes",
            "describe",
            "representing",
            "represents",
            "represent",
            "for",
            "a",
            "an",
            "as",
            "that",
            "with",
            "has",
            "have",
            "the",
            "only",
            "exactly",
            "keys",
            "key",
            "fields",
            "field",
            "where",
            "and",
            "is",
            "i",
            "me",
            "please",
        ]
    )

    def __init__(self, schema: SchemaLike | None = None) -> None:
        self.json = JsonVerifier(schema)
        super().__init__(self.json, JsonSegmenter())

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        return self.json.applies_to(request, options)

    def account(self, edit: Edit, ctx: VerifyContext) -> ChangeAccount | None:
        """As the default, and a change inside what the request asks of the object is a
        ``"value"`` change saying which part it touched (``what``: a key of the key list, a
        fixed value, or a mention of either in the prose), even where its words would only
        name the task elsewhere (see ``json_object.changes.classify_edit``). Any other
        replacement of value tokens ("31" -> "32", "Lissabon" -> "Porto", "sim" -> "não")
        may be a value the answer took from the request, in whatever phrasing: a
        ``"value"`` change of :data:`STATED`, which :meth:`adapt_answer` carries over only
        where the cached object holds that very value (else nothing is reused)."""
        found = super().account(edit, ctx)
        if found is None and ctx.cached_request is not None:
            if may_be_stated_value(edit, ctx.cached_request, ctx.request):
                return ChangeAccount(edit, self.name, "value", STATED)
            return None
        if found is None or found.kind == "case" or ctx.cached_request is None:
            return found
        old = self._reading(ctx.cached_request, ctx.options)
        new = self._reading(ctx.request, ctx.options)
        if old is None or new is None:
            return found
        what = classify_edit(edit, old, new)
        if what is None:
            return found
        return replace(found, kind="value", what=what)

    def _reading(self, request: str, options: Mapping[str, Any]) -> Reading | None:
        parsed = self.json.parse_request(request, options)
        if parsed is None:
            return None
        return Reading(parsed, prompt_layout(request), self.verified_spans(request, options))

    def adapt_answer(self, ctx: VerifyContext, steps: Sequence[Step]) -> Adaptation | None:
        """Carry the values the request states over to the new request: each changed value
        of the cached object that the cached request stated (in any phrasing) is rewritten,
        and so is its spelling in the text around the object; the rest of the answer (its
        keys, layout, fence, lead-in) is kept, since the rest of the request asks what it
        asked before. A :data:`STATED` change the object does not carry, or one of another
        kind than the old value, reuses nothing (``valid=0``). Changes of fixed values and
        prose mentions are carried too where the object traces them, else left to the
        verifier's rewrites (see :mod:`~stepcache_integrations.core.tasks.json_object.tracing`).
        """
        if ctx.cached_request is None:
            return None
        ours = [a for a in ctx.accounts if a.family == self.name and a.kind == "value"]
        stated = [a for a in ours if a.what == STATED]
        traceable = [a for a in ours if a.what in (STATED, FIXED_VALUE, MENTION)]
        if not traceable:
            return None
        index = next((i for i, step in enumerate(steps) if object_span(step.text)), None)
        located = None if index is None else locate_object(steps[index].text, whole_answer=False)
        if index is None or located is None or located.obj is None:
            if stated:
                return Adaptation(tuple(steps), 0, f"{stated[0].shown}: no JSON object holds it")
            return None
        edits = [a.edit for a in stated]
        # A fixed value or a mention is carried over with the stated values where the object
        # traces it; where it does not, the verifier's own rewrite and checks answer for it.
        extra = [a.edit for a in traceable if a.what != STATED]
        if extra and not isinstance(
            retarget(ctx.cached_request, ctx.request, [*edits, *extra], located.obj), str
        ):
            edits.extend(extra)
        if not edits:
            return None
        result = retarget(ctx.cached_request, ctx.request, edits, located.obj)
        if isinstance(result, str):
            return Adaptation(tuple(steps), 0, result)
        rewritten = replace_object(steps[index], located, result.obj)
        if rewritten is None:
            return Adaptation(tuple(steps), 0, "the object could not be written back")
        new_steps = [_rewrite_around(step, result.changes) for step in steps]
        # The object is written by replace_object; the prose beside it in its step is
        # rewritten here (the object itself never: its values are set, not searched).
        start = located.start
        end = len(rewritten.text) - (len(steps[index].text) - located.end)
        changes = result.changes
        new_steps[index] = Step(
            rewrite_mentions(rewritten.text[:start], changes)
            + rewritten.text[start:end]
            + rewrite_mentions(rewritten.text[end:], changes),
            rewrite_mentions(rewritten.separator, changes),
        )
        return Adaptation(tuple(new_steps), len(new_steps))

    def unchecked_part(
        self,
        ctx: VerifyContext,
        accounts: Sequence[ChangeAccount],
        step: Step,
        index: int,
        steps: Sequence[Step],
    ) -> str | None:
        """What of a reused step may depend on a change and was not checked: text around the
        object that is more than presentation, and (after any change of what the request
        asks of the object, the key list included) every value the new request does not
        state. The keys and the stated values are checked against the new request by the
        verifier."""
        located = locate_object(step.text, whole_answer=False)
        span = (located.start, located.end) if located.obj is not None else None
        around = outside_text(step.text, span, step.separator)
        found = self.json.change_dependence(ctx)
        obj = located.obj if located.obj is not None else _object_of(steps, index)
        if located.obj is not None:
            untraced = untraced_change(ctx, located.obj)
            if untraced is not None:
                return untraced
        values = stated_spellings(ctx.request, obj) if obj is not None else ()
        text = unchecked_text(around, ctx.request, ctx.cached_request or "", found, values)
        if text is not None:
            return text
        if found is None or located.obj is None:
            return None
        dependents = self.json.dependent_keys(ctx, located.obj)
        if dependents:
            keys = ", ".join(repr(key) for key in dependents[:5])
            return (
                f"the values of {keys} are not stated by the request and may depend on "
                f"{found.shown}"
            )
        return None

    def verified_spans(self, request: str, options: Mapping[str, Any]) -> Sequence[Span]:
        """Every mention of a required key or of a fixed value (its JSON spelling, with or
        without quotes): the family takes on a change there (the verifier checks the keys and
        the fixed values of the reused object; :meth:`unchecked_part` answers for the rest)."""
        parsed = self.json.parse_request(request, options)
        if parsed is None:
            return ()
        literals = set(parsed.required_keys)
        for value in parsed.fixed_values.values():
            literals.add(value if isinstance(value, str) else json.dumps(value))
        spans: list[Span] = []
        for literal in literals:
            if not literal:
                continue
            pattern = rf"(?<![\w.]){re.escape(literal)}(?![\w])"
            for match in re.finditer(pattern, request):
                start, end = match.span()
                # A quoted mention is one token with its quotes: the span covers them.
                quoted = start > 0 and end < len(request) and request[end] in "\"'`"
                if quoted and request[start - 1] == request[end]:
                    start, end = start - 1, end + 1
                spans.append((start, end))
        return spans


def _object_of(steps: Sequence[Step], skip: int) -> dict[str, Any] | None:
    """The JSON object of the answer's steps (not looking at step ``skip``), if one holds it."""
    for position, step in enumerate(steps):
        if position != skip and object_span(step.text) is not None:
            return locate_object(step.text, whole_answer=False).obj
    return None


def _rewrite_around(step: Step, changes: Sequence[Change]) -> Step:
    """A step without the object (a lead-in) with the changed values' spellings rewritten."""
    if object_span(step.text) is not None:
        return step
    return Step(rewrite_mentions(step.text, changes), rewrite_mentions(step.separator, changes))
