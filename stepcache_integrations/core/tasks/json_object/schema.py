"""The JSON Schema of the object a request asks for, for models that can be held to one.

A backend with constrained decoding (OpenAI's JSON-schema response format, a llama.cpp
grammar) then cannot answer with prose, a missing key or another value for a key the request
fixes; the verifier still checks every answer as usual.

Example:
    >>> from stepcache_integrations.core.tasks.json_object.request import parse_json_request
    >>> request = parse_json_request('Return only a JSON object with exactly the keys "a" '
    ...                              'and "b", where "a" is 1.')
    >>> schema = object_schema(request, None)
    >>> schema["required"], schema["properties"]["a"], schema["additionalProperties"]
    (['a', 'b'], {'const': 1}, False)
    >>> wants_only_json('Return only a JSON object with the keys "a" and "b".')
    True
    >>> wants_only_json("Explain the idea, then give a JSON object with the key a.")
    False
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from stepcache_integrations.core.tasks.json_object.request import JsonRequest

__all__ = ["object_schema", "partial_schema", "wants_only_json"]

# "Return only a JSON object", "Respond with only JSON", "JSON only", "and nothing else".
_ONLY_JSON = re.compile(
    r"(?i)\b(?:only|just)\s+(?:(?:a|an|the|one|valid)\s+)*json\b"
    r"|\bjson\b(?:\s+\w+){0,2}\s+only\b"
    r"|\bjson\b[^.\n]{0,80}\b(?:and\s+)?nothing\s+else\b"
)


def wants_only_json(request: str) -> bool:
    """Whether the request asks for a JSON object and nothing around it."""
    return bool(_ONLY_JSON.search(request[:20_000]))


# A key the request only names takes a plain value or a list of them: an object nested under
# it is the usual slip of a small model ({"name": {"age": 25}}), not what "the keys name and
# age" asks for. A caller's schema that wants objects there says so, and wins.
_PLAIN_VALUE: dict[str, Any] = {
    "anyOf": [
        {"type": "string"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "null"},
        {"type": "array", "items": {"type": ["string", "number", "boolean", "null"]}},
    ]
}


def object_schema(request: JsonRequest, base: Mapping[str, Any] | None) -> dict[str, Any]:
    """An object schema with ``request``'s required keys (plain values unless ``base`` says
    otherwise), its fixed values as ``const`` and, for a closed key list,
    ``additionalProperties: false``; built on ``base`` (a caller's schema) when given."""
    schema: dict[str, Any] = copy.deepcopy(dict(base)) if base is not None else {}
    schema.setdefault("type", "object")
    properties: dict[str, Any] = dict(schema.get("properties") or {})
    for key in request.required_keys:
        properties.setdefault(key, copy.deepcopy(_PLAIN_VALUE))
    for key, value in request.fixed_values.items():
        properties[key] = {"const": value}
    schema["properties"] = properties
    required = list(schema.get("required") or [])
    required.extend(key for key in request.required_keys if key not in required)
    if required:
        schema["required"] = required
    if request.exact_keys:
        schema["additionalProperties"] = False
    return schema


# Where a caller's schema keeps the definitions its properties refer to ("$ref").
_DEFINITIONS = ("$defs", "definitions")
_PLAIN_TYPES = (str, int, float, bool, type(None))


def _plain(value: object) -> bool:
    if isinstance(value, list):
        return all(isinstance(item, _PLAIN_TYPES) for item in value)
    return isinstance(value, _PLAIN_TYPES)


def partial_schema(
    keys: Sequence[str], base: Mapping[str, Any] | None, current: Mapping[str, Any]
) -> dict[str, Any]:
    """The schema of a reply that gives only ``keys``: exactly those, each held to the
    caller's schema for it (``base``, with the definitions it refers to) or, without one, to
    a plain value, or any JSON value where the cached object had a nested one (``current``).

    Example:
        >>> partial_schema(["moons"], None, {"planet": "Mars", "moons": 2})["required"]
        ['moons']
    """
    given = (base or {}).get("properties")
    given = given if isinstance(given, Mapping) else {}
    properties: dict[str, Any] = {}
    for key in keys:
        if isinstance(given.get(key), Mapping):
            properties[key] = copy.deepcopy(dict(given[key]))
        elif key not in current or _plain(current[key]):
            properties[key] = copy.deepcopy(_PLAIN_VALUE)
        else:
            properties[key] = {}
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": list(keys),
        "additionalProperties": False,
    }
    for name in _DEFINITIONS:
        if base is not None and isinstance(base.get(name), Mapping):
            schema[name] = copy.deepcopy(dict(base[name]))
    return schema
