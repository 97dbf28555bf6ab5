"""What a tool's parameter schema says about the values of its arguments.

A re-instantiated call keeps everything but the rebound value, so the family asks of the
tools' JSON Schemas:

- :func:`parameter_at`: the schema of the parameter an argument value sits in;
- :func:`constraint`: whether that schema narrows the parameter's values (an enum, a pattern,
  a minimum, a format...): then values differ in what they mean to the tool, and a new value
  may call for another tool or another argument;
- :func:`takes`: whether some parameter of a tool could hold a value (another tool that takes
  the value may be the one the model calls for it);
- :func:`descriptions`: every description inside a parameter schema.

Local ``$ref`` references (``#/$defs/...``, as Pydantic writes them) are followed; anything
the functions cannot read counts as narrowing, or as taking the value.

Example:
    >>> schema = {"type": "object", "properties": {
    ...     "city": {"type": "string"},
    ...     "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}}
    >>> constraint(parameter_at(schema, ("city",)), schema) is None
    True
    >>> constraint(parameter_at(schema, ("unit",)), schema)
    'enum'
    >>> takes(schema, "Berlin"), takes({"type": "object", "properties": {}}, "Berlin")
    (True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from jsonschema import Draft202012Validator

__all__ = ["constraint", "descriptions", "parameter_at", "takes"]

_MAX_DEPTH = 32
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
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


def parameter_at(parameters: Any, path: Sequence[str | int]) -> Any:
    """The schema of the argument at ``path`` (object keys, list positions) of a tool with
    ``parameters``, or ``None`` when the schema does not say."""
    schema = _resolve(parameters, parameters)
    for part in path:
        if not isinstance(schema, Mapping):
            return None
        if isinstance(part, str):
            properties = schema.get("properties")
            found = properties.get(part) if isinstance(properties, Mapping) else None
            if found is None and isinstance(schema.get("additionalProperties"), Mapping):
                found = schema["additionalProperties"]
        else:
            found = schema.get("items")
        if found is None:
            return None
        schema = _resolve(found, parameters)
    return schema


def constraint(schema: Any, root: Any, depth: int = 0) -> str | None:
    """The first keyword of ``schema`` (and of its branches) that narrows the values it
    allows, or ``None`` when it only gives their type. A schema that cannot be read is a
    constraint (``"unreadable schema"``)."""
    schema = _resolve(schema, root)
    if depth > _MAX_DEPTH or not isinstance(schema, Mapping):
        return "unreadable schema"
    for key in schema:
        if key not in _SHAPE:
            return str(key)
    for key in _BRANCHES:
        for branch in schema.get(key) or ():
            found = constraint(branch, root, depth + 1)
            if found is not None:
                return found
    return None


def descriptions(
    schema: Any, root: Any | None = None, depth: int = 0, name: str = ""
) -> Iterator[str]:
    """Every text a parameter schema shows the model about values (nested parameters
    included): descriptions, titles (but the one Pydantic makes of a parameter's name, "Zip
    Code" for ``zip_code``), string examples and defaults, and the names of the parameters."""
    root = schema if root is None else root
    schema = _resolve(schema, root)
    if depth > _MAX_DEPTH or not isinstance(schema, Mapping):
        return
    if isinstance(schema.get("description"), str):
        yield schema["description"]
    title = schema.get("title")
    if isinstance(title, str) and title != name.replace("_", " ").title():
        yield title
    examples = schema.get("examples")
    if isinstance(examples, list):
        yield from (example for example in examples if isinstance(example, str))
    if isinstance(schema.get("default"), str):
        yield schema["default"]
    children: list[tuple[str, Any]] = []
    if isinstance(schema.get("properties"), Mapping):
        for key, child in schema["properties"].items():
            yield str(key)
            children.append((str(key), child))
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), Mapping):
            children.append((name, schema[key]))
    for key in _BRANCHES:
        children.extend((name, branch) for branch in schema.get(key) or ())
    for child_name, child in children:
        yield from descriptions(child, root, depth + 1, child_name)


def _candidates(text: str, types: Any) -> list[Any]:
    """The JSON values ``text`` could be for a parameter of ``types`` (``None``: any)."""
    allowed = {types} if isinstance(types, str) else set(types) if types else None
    found: list[Any] = []
    if allowed is None or "string" in allowed:
        found.append(text)
    if _NUMBER.fullmatch(text) and (allowed is None or {"integer", "number"} & allowed):
        number = float(text)
        found.append(int(number) if number.is_integer() else number)
    return found


def _leaf_takes(schema: Mapping[str, Any], text: str, root: Any) -> bool:
    values = _candidates(text, schema.get("type"))
    if not values:
        return False
    # The root's definitions come along, so that a reference inside the parameter resolves.
    defined = {
        k: root[k] for k in ("$defs", "definitions") if isinstance(root, Mapping) and k in root
    }
    try:
        validator = Draft202012Validator(
            {**schema, **defined}, format_checker=Draft202012Validator.FORMAT_CHECKER
        )
        return any(validator.is_valid(value) for value in values)
    except Exception:  # a schema the validator cannot apply: it may take anything
        return True


def takes(parameters: Any, text: str, root: Any | None = None, depth: int = 0) -> bool:
    """Whether some parameter of a tool with ``parameters`` could hold the value ``text``
    (a string, or the number it spells). By type and by the parameter's own constraints:
    the cache cannot tell from a name what a parameter means. A free-form object (no
    ``properties``, or other properties allowed by a schema) takes every value."""
    root = parameters if root is None else root
    schema = _resolve(parameters, root)
    if depth > _MAX_DEPTH or not isinstance(schema, Mapping):
        return True
    if any(schema.get(key) for key in _BRANCHES):
        return any(takes(branch, text, root, depth + 1) for key in _BRANCHES
                   for branch in schema.get(key) or ())  # fmt: skip
    types = schema.get("type")
    kinds = {types} if isinstance(types, str) else set(types or ())
    if "object" in kinds or "properties" in schema:
        properties = schema.get("properties")
        extra = schema.get("additionalProperties")
        if not isinstance(properties, Mapping) or isinstance(extra, Mapping) or extra is True:
            return True
        return any(takes(child, text, root, depth + 1) for child in properties.values())
    if "array" in kinds or "items" in schema:
        items = schema.get("items")
        return True if not isinstance(items, Mapping) else takes(items, text, root, depth + 1)
    return _leaf_takes(schema, text, root)
