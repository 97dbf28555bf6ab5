"""The JSON-object family: "return a JSON object with the keys ...", or any call with a schema."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from stepcache_integrations.core.steps import JsonSegmenter, Step
from stepcache_integrations.core.tasks.base import Span, TaskFamily
from stepcache_integrations.core.tasks.json_object.verifier import JsonVerifier, SchemaLike
from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext

__all__ = ["JsonObjectFamily"]


class JsonObjectFamily(TaskFamily):
    """Requests whose answer is one JSON object.

    The object is one step (text around it is kept losslessly); required keys, closed key
    lists and fixed values come from the prompt, and from a JSON Schema or Pydantic model given
    here or per call (``options["json_schema"]``). Changed fixed values and removed keys are
    rewritten deterministically; an added key is asked of the model alone.

    Example:
        >>> family = JsonObjectFamily()
        >>> family.recognises('Return only a JSON object with the keys "a" and "b".', {})
        True
        >>> family.recognises("Describe a cat.", {"json_schema": {"type": "object"}})
        True
    """

    name = "json"
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

    def unchecked_part(
        self,
        ctx: VerifyContext,
        accounts: Sequence[ChangeAccount],
        step: Step,
        index: int,
        steps: Sequence[Step],
    ) -> str | None:
        """The object's keys and fixed values are checked against the new request."""
        return None

    def verified_spans(self, request: str, options: Mapping[str, Any]) -> Sequence[Span]:
        """Every mention of a required key or of a fixed value (its JSON spelling, with or
        without quotes): the verifier checks each of them on the reused object."""
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
