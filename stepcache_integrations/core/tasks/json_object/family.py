"""The JSON-object family: "return a JSON object with the keys ...", or any call with a schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from stepcache_integrations.core.steps import JsonSegmenter
from stepcache_integrations.core.tasks.base import TaskFamily
from stepcache_integrations.core.tasks.json_object.verifier import JsonVerifier, SchemaLike

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

    def __init__(self, schema: SchemaLike | None = None) -> None:
        self.json = JsonVerifier(schema)
        super().__init__(self.json, JsonSegmenter())

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        return self.json.applies_to(request, options)
