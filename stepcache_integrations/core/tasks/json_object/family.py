"""The JSON-object family: "return a JSON object with the keys ...", or any call with a schema."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from stepcache_integrations.core.steps import JsonSegmenter, Step
from stepcache_integrations.core.tasks.base import Span, TaskFamily
from stepcache_integrations.core.tasks.json_object.answer import locate_object
from stepcache_integrations.core.tasks.json_object.changes import (
    FAMILY,
    Reading,
    classify_edit,
    outside_text,
    unchecked_text,
)
from stepcache_integrations.core.tasks.json_object.request import prompt_layout
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
        name the task elsewhere (see ``json_object.changes.classify_edit``)."""
        found = super().account(edit, ctx)
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
        text = unchecked_text(around, ctx.request, ctx.cached_request or "", found)
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

    def answer_key(self, request: str, answer: str, options: Mapping[str, Any]) -> Any:
        """The answer's JSON object, parsed (an audit's answer key); ``None`` without one.

        Example:
            >>> JsonObjectFamily().answer_key("JSON with keys a", '```json\\n{"a": 1}\\n```', {})
            {'a': 1}
        """
        return locate_object(answer, whole_answer=True).obj if isinstance(answer, str) else None

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
