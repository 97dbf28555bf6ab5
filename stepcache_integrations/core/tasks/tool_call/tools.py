"""The tools bound to a request, as the cache receives them: names and JSON Schemas.

Framework adapters put the bound tools into ``CacheRequest.options["tools"]`` as plain
dicts, ``{"name": ..., "description": ..., "parameters": <JSON Schema>}``, with ``"pure":
True`` for a tool the caller declared pure (see :data:`PURE`); a turn that answers a tool
result is marked ``options["after_tool_result"] = True``, and the texts of the turns before the
prompt (a system prompt, earlier messages and tool results; ``""`` for a turn without text) are
in ``options["earlier_turns"]``.

Example:
    >>> options = {"tools": [{"name": "get_weather", "parameters": {
    ...     "type": "object", "properties": {"city": {"type": "string"}},
    ...     "required": ["city"]}}]}
    >>> schemas = ToolSchemas.of(options)
    >>> schemas.problem("get_weather", {"city": "Paris"}) is None
    True
    >>> schemas.problem("get_weather", {})
    "get_weather: arguments at $: 'city' is a required property"
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from stepcache_integrations.core.tasks.base import EARLIER_TURNS

__all__ = [
    "AFTER_TOOL_RESULT",
    "EARLIER_TURNS",
    "PURE",
    "TOOLS",
    "BoundTool",
    "ToolSchemas",
    "bound_tools",
    "has_tools",
]

TOOLS = "tools"
"""Options key of the bound tools."""

AFTER_TOOL_RESULT = "after_tool_result"
"""Options key marking a request whose last turn is a tool result."""


PURE = "pure"
"""Key of a tool spec that is ``True`` when the caller declared the tool *pure*: whether the
model calls it, and with which other arguments, does not depend on the values it copies from
the request into its arguments, whatever its spec and the other pure tools say (the
conditions the request and the earlier turns state are still read: see ``docs/agents.md``)."""

_CACHE_SIZE = 256
_validators: OrderedDict[str, Validator | str] = OrderedDict()
_lock = threading.Lock()


def has_tools(options: Mapping[str, Any] | None) -> bool:
    """Whether the request binds tools."""
    return bool(options) and bool(options.get(TOOLS))  # type: ignore[union-attr]


@dataclass(frozen=True)
class BoundTool:
    """One bound tool as the tool-call family reads it: its name, description, parameter
    JSON Schema (``None`` when it has none) and whether the caller declared it pure."""

    name: str
    description: str = ""
    parameters: Any = None
    pure: bool = False


def bound_tools(options: Mapping[str, Any] | None) -> tuple[BoundTool, ...]:
    """The bound tools of a request, in order (entries without a name are left out).

    Example:
        >>> bound_tools({"tools": [{"name": "f", "description": "F.", "pure": True}]})
        (BoundTool(name='f', description='F.', parameters=None, pure=True),)
    """
    found: list[BoundTool] = []
    for tool in (options or {}).get(TOOLS) or ():
        if not isinstance(tool, Mapping) or not isinstance(tool.get("name"), str):
            continue
        description = tool.get("description")
        found.append(
            BoundTool(
                tool["name"],
                description if isinstance(description, str) else "",
                tool.get("parameters"),
                tool.get(PURE) is True,
            )
        )
    return tuple(found)


def _shorten(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _build(schema: Any) -> Validator | str:
    """A validator for ``schema``, or why there is none."""
    if not isinstance(schema, Mapping):
        return "its parameters are not a JSON Schema object"
    try:
        cls = validator_for(schema, default=Draft202012Validator)
        cls.check_schema(dict(schema))
    except SchemaError as error:
        return f"its parameters are not a valid JSON Schema: {_shorten(error.message)}"
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _validator(schema: Any) -> Validator | str:
    """Validators are built once per distinct schema (checking a schema is not free)."""
    try:
        key = json.dumps(schema, sort_keys=True, default=repr)
    except (TypeError, ValueError):
        return _build(schema)
    with _lock:
        found = _validators.get(key)
        if found is not None:
            _validators.move_to_end(key)
            return found
    built = _build(schema)
    with _lock:
        _validators[key] = built
        while len(_validators) > _CACHE_SIZE:
            _validators.popitem(last=False)
    return built


@dataclass(frozen=True)
class ToolSchemas:
    """The bound tools of one request, by name."""

    parameters: Mapping[str, Any]

    @classmethod
    def of(cls, options: Mapping[str, Any] | None) -> ToolSchemas:
        tools = (options or {}).get(TOOLS) or ()
        found: dict[str, Any] = {}
        for tool in tools:
            if isinstance(tool, Mapping) and isinstance(tool.get("name"), str):
                found[tool["name"]] = tool.get("parameters")
        return cls(found)

    def problem(self, name: str, arguments: Any) -> str | None:
        """Why a call of ``name`` with ``arguments`` is not valid, or ``None`` when it is."""
        if name not in self.parameters:
            return f"{name}: no tool of that name is bound"
        if not isinstance(arguments, Mapping):
            return f"{name}: the arguments are not a JSON object"
        schema = self.parameters[name]
        if schema is None:
            return f"{name}: the tool has no parameter schema to check the call against"
        validator = _validator(schema)
        if isinstance(validator, str):
            return f"{name}: {validator}"
        try:
            error = next(iter(validator.iter_errors(dict(arguments))), None)
        except RecursionError:
            return f"{name}: the arguments are too deeply nested to validate"
        except Exception as exc:  # an unresolvable $ref, a bad format: cannot be checked
            return f"{name}: the schema could not be applied: {_shorten(str(exc))}"
        if error is None:
            return None
        return f"{name}: arguments at {error.json_path}: {_shorten(error.message)}"
