"""What a tool's parameter schema says about the values of its arguments.

A re-instantiated call keeps everything but the rebound value, so the family asks of the
JSON Schema of a tool that is not pure:

- :func:`constraint`: whether the schema narrows some parameter's values (an enum, a pattern,
  a minimum, a format...): then values differ in what they mean to the tool, and a new value
  may call for another argument ("family" rooms for 4 guests) or a refusal;
- :func:`parameter_names` and :func:`descriptions`: the names of its parameters and every
  text it shows the model about them (read closed-world, see :mod:`.vocabulary`).

Local ``$ref`` references (``#/$defs/...``, as Pydantic writes them) are followed; a schema the
functions cannot read counts as a constraint.

Example:
    >>> schema = {"type": "object", "properties": {
    ...     "city": {"type": "string", "description": "A city."},
    ...     "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}}
    >>> constraint(schema), constraint({"type": "object", "properties": {"city": {}}})
    ('enum', None)
    >>> list(parameter_names(schema)), list(descriptions(schema))
    (['city', 'unit'], ['A city.'])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["constraint", "descriptions", "parameter_names"]

_MAX_DEPTH = 32
# Keywords that only describe a parameter or give its shape: they narrow no value.
_SHAPE = frozenset(
    {"type", "title", "description", "default", "examples", "$comment", "items", "properties",
     "required", "additionalProperties", "anyOf", "oneOf", "allOf", "$ref", "$defs",
     "definitions", "nullable", "deprecated", "readOnly", "writeOnly"}
)  # fmt: skip
_BRANCHES = ("anyOf", "oneOf", "allOf")


def _resolve(schema: Any, root: Any, depth: int = 0) -> Any:
    """``schema`` with a local ``$ref`` followed (``None`` when it cannot be)."""
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
        if depth > _MAX_DEPTH or not schema["$ref"].startswith("#/"):
            return None
        target: Any = root
        for part in schema["$ref"][2:].split("/"):
            target = target.get(part) if isinstance(target, Mapping) else None
        if target is None:
            return None
        extra = {key: value for key, value in schema.items() if key != "$ref"}
        schema = {**target, **extra} if extra and isinstance(target, Mapping) else target
        depth += 1
    return schema


def _children(schema: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """The schemas inside ``schema``, with the parameter name each belongs to ("" for the
    items of a list, the branches of an ``anyOf``...)."""
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        yield from ((str(key), child) for key, child in properties.items())
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), Mapping):
            yield "", schema[key]
    for key in _BRANCHES:
        branches = schema.get(key)
        if isinstance(branches, list):
            yield from (("", branch) for branch in branches)


def _schemas(
    schema: Any, root: Any = None, depth: int = 0, name: str = ""
) -> Iterator[tuple[str, Any]]:
    """Every schema of a parameter tree, resolved, with its parameter's name; ``None`` for
    a schema that cannot be read."""
    root = schema if root is None else root
    resolved = _resolve(schema, root)
    if depth > _MAX_DEPTH or not isinstance(resolved, Mapping):
        yield name, None
        return
    yield name, resolved
    for child_name, child in _children(resolved):
        yield from _schemas(child, root, depth + 1, child_name or name)


def constraint(parameters: Any) -> str | None:
    """The first keyword of a tool's parameter schema (at any depth) that narrows the values
    it allows, or ``None`` when it only gives their types and shapes. A schema that cannot
    be read is a constraint (``"unreadable schema"``)."""
    if parameters is None:
        return None
    for _, schema in _schemas(parameters):
        if schema is None:
            return "unreadable schema"
        for key in schema:
            if key not in _SHAPE and not key.startswith("$"):
                return str(key)
    return None


def parameter_names(parameters: Any) -> Iterator[str]:
    """The name of every parameter of a tool, nested parameters included, in order."""
    if parameters is None:
        return
    for _, schema in _schemas(parameters):
        properties = schema.get("properties") if isinstance(schema, Mapping) else None
        if isinstance(properties, Mapping):
            yield from (str(key) for key in properties)


def descriptions(parameters: Any) -> Iterator[str]:
    """Every text a parameter schema shows the model about values (nested parameters
    included): descriptions, titles (but the one Pydantic makes of a parameter's name, "Zip
    Code" for ``zip_code``), string examples and defaults."""
    if parameters is None:
        return
    for name, schema in _schemas(parameters):
        if not isinstance(schema, Mapping):
            continue
        if isinstance(schema.get("description"), str):
            yield schema["description"]
        title = schema.get("title")
        if isinstance(title, str) and title != name.replace("_", " ").title():
            yield title
        examples = schema.get("examples")
        if isinstance(examples, list):
            yield from (example for example in examples if isinstance(example, str))
        if schema.get("default") is not None:  # a number too: it may be a threshold
            yield str(schema["default"])
