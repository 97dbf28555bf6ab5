"""Tools and tool calls between the frameworks and the cache, in one place for both.

- :func:`tool_spec` reads a bound tool in any of the common dict formats (OpenAI chat and
  Responses, Anthropic, a flat ``{"name", "parameters"}``) as the neutral spec the cache
  keeps: ``{"name", "description", "parameters"}``. Framework adapters turn their own tool
  objects into one of these dicts first.
- :func:`reply_text` turns a model's reply (its text and tool calls) into the text the cache
  stores; :func:`read_reply` turns a stored text back into text and tool calls. A tool-calling
  reply becomes a tool-call document (see
  :mod:`stepcache_integrations.core.tasks.tool_call.document`); a plain reply stays plain.
- :func:`fresh_call_id` gives every served call a new id: ids are handles a framework pairs
  calls and results with, never meaning, so they are not cached.
- :func:`declare_pure` marks the specs of the tools a caller declared *pure* (``"pure":
  True``, read by the tool-call family); :func:`namespace_spec` is a spec as the namespace
  holds it (without the mark: a declaration changes what may be re-instantiated, never what
  the model answers, so entries are shared with callers who declare nothing);
  :func:`pure_tool_names` checks a wrapper's ``pure_tools=`` argument.

Example:
    >>> text = reply_text("", [ToolCall("get_weather", {"city": "Paris"}, id="call_1")])
    >>> reply = read_reply(text)
    >>> reply.calls[0].name, dict(reply.calls[0].arguments), reply.calls[0].id == "call_1"
    ('get_weather', {'city': 'Paris'}, False)
    >>> read_reply(reply_text("Hello", [])).text
    'Hello'
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stepcache_integrations.adapter.conversation import ToolCall
from stepcache_integrations.core.tasks.tool_call import (
    PURE,
    DocumentCall,
    DocumentError,
    ToolCallDocument,
    escape_plain,
    read_answer,
    write_document,
)

__all__ = [
    "EMPTY_PARAMETERS",
    "Reply",
    "declare_pure",
    "fresh_call_id",
    "namespace_spec",
    "parsed_arguments",
    "pure_tool_names",
    "read_reply",
    "reply_text",
    "tool_spec",
]

EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}
"""The parameter schema of a tool that takes no arguments."""


def _plain_json(value: Any) -> Any:
    """A JSON-clean copy (tuples to lists, no NaN); raises ``ValueError`` if impossible."""
    return json.loads(json.dumps(value, allow_nan=False))


def tool_spec(tool: Any) -> dict[str, Any] | None:
    """The neutral spec of a bound tool given as a dict, or ``None`` when it cannot be read
    (a provider's built-in tool without a schema, an object).

    Example:
        >>> tool_spec({"type": "function", "function": {"name": "f", "parameters": {
        ...     "type": "object", "properties": {"x": {"type": "integer"}}}}})["name"]
        'f'
        >>> tool_spec({"name": "g", "input_schema": {"type": "object"}})["parameters"]
        {'type': 'object'}
        >>> tool_spec({"type": "web_search"}) is None
        True
    """
    if not isinstance(tool, Mapping):
        return None
    source: Mapping[str, Any] = tool
    if isinstance(tool.get("function"), Mapping):
        source = tool["function"]
    name = source.get("name")
    if not isinstance(name, str) or not name:
        return None
    parameters = source.get("parameters", source.get("input_schema"))
    if parameters is None:
        parameters = EMPTY_PARAMETERS
    if not isinstance(parameters, Mapping):
        return None
    description = source.get("description")
    try:
        return {
            "name": name,
            "description": description if isinstance(description, str) else "",
            "parameters": _plain_json(parameters),
        }
    except (TypeError, ValueError):
        return None


def declare_pure(
    specs: Sequence[Mapping[str, Any]], names: Collection[str]
) -> list[dict[str, Any]]:
    """``specs`` with the tools named in ``names`` marked pure (a spec already marked stays
    marked; names of tools that are not bound are ignored).

    Example:
        >>> [spec.get("pure") for spec in declare_pure([{"name": "f"}, {"name": "g"}], {"g"})]
        [None, True]
    """
    return [{**spec, PURE: True} if spec.get("name") in names else dict(spec) for spec in specs]


def namespace_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """A tool spec as the namespace holds it: without the pure mark.

    Example:
        >>> namespace_spec({"name": "f", "pure": True})
        {'name': 'f'}
    """
    return {key: value for key, value in spec.items() if key != PURE}


def pure_tool_names(value: Any, what: str = "pure_tools") -> tuple[str, ...]:
    """The tool names of a ``pure_tools=`` argument (names, or tools that have a ``name``);
    ``ValueError`` naming ``what`` for anything else.

    Example:
        >>> pure_tool_names(["get_weather"])
        ('get_weather',)
        >>> pure_tool_names("get_weather")
        Traceback (most recent call last):
        ...
        ValueError: pure_tools must be a list of tool names, got the string 'get_weather'
    """
    if value is None:
        return ()
    if isinstance(value, str):
        raise ValueError(f"{what} must be a list of tool names, got the string {value!r}")
    if not isinstance(value, Iterable):
        raise ValueError(f"{what} must be a list of tool names, got {type(value).__name__}")
    names: list[str] = []
    for item in value:
        name = item if isinstance(item, str) else _tool_name(item)
        if not isinstance(name, str) or not name:
            raise ValueError(
                f"{what} must hold tool names (non-empty strings) or tools, got {item!r}"
            )
        names.append(name)
    return tuple(names)


def _tool_name(tool: Any) -> Any:
    # A LangChain tool has ``name``; a LlamaIndex tool has ``metadata.name``.
    metadata = getattr(tool, "metadata", None)
    name = getattr(metadata, "name", None)
    return name if isinstance(name, str) else getattr(tool, "name", None)


def parsed_arguments(arguments: Any) -> Any:
    """Call arguments as a JSON object when they are one, or a JSON text of one; anything
    else is returned unchanged (and fails the tool's schema check).

    Example:
        >>> parsed_arguments('{"city": "Paris"}'), parsed_arguments("{oops")
        ({'city': 'Paris'}, '{oops')
    """
    if isinstance(arguments, str):
        try:
            loaded = json.loads(arguments)
        except ValueError:
            return arguments
        return loaded if isinstance(loaded, dict) else arguments
    if isinstance(arguments, Mapping):
        try:
            return _plain_json(dict(arguments))
        except (TypeError, ValueError):
            return {key: repr(value) for key, value in arguments.items()}
    return arguments


def fresh_call_id() -> str:
    """A new tool-call id for a served call (in the common ``call_...`` form)."""
    return f"call_{uuid.uuid4().hex[:24]}"


@dataclass(frozen=True)
class Reply:
    """A stored answer as a framework shows it: the text, and the calls to make (each with a
    fresh id)."""

    text: str
    calls: tuple[ToolCall, ...] = ()


def reply_text(text: str, calls: Sequence[ToolCall]) -> str:
    """The text the cache stores for a reply with ``text`` and ``calls``."""
    if not calls:
        return escape_plain(text)
    document = ToolCallDocument(
        tuple(DocumentCall(call.name, parsed_arguments(call.arguments)) for call in calls),
        text,
    )
    try:
        return write_document(document)
    except ValueError:  # arguments that are not plain JSON: stored as their repr, then fail
        return write_document(
            ToolCallDocument(
                tuple(DocumentCall(call.name, repr(call.arguments)) for call in calls), text
            )
        )


def read_reply(text: str) -> Reply:
    """A stored answer back as text and calls with fresh ids (see :func:`reply_text`).

    A text that is not a well-formed document (only an answer that failed its checks can be
    one) is shown as the plain text it is.
    """
    try:
        answer = read_answer(text)
    except DocumentError:
        return Reply(text)
    calls = tuple(
        ToolCall(call.name, _arguments(call.arguments), fresh_call_id()) for call in answer.calls
    )
    return Reply(answer.content, calls)


def _arguments(arguments: Any) -> dict[str, Any]:
    return dict(arguments) if isinstance(arguments, Mapping) else {}
