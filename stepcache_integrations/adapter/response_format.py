"""Holding the model to the JSON Schema a task requires, in the backend's own words.

When a task knows the exact shape of the answer (a JSON object with the requested keys and
fixed values), the request path puts that schema on the model call. With
``constrain_json="openai"`` or ``"llama_cpp"`` on a wrapper, the call then carries the
backend's ``response_format``, so a model that supports constrained decoding cannot answer
with prose, a missing key or another value for a fixed one. The answer is still checked.

Example:
    >>> schema = {"type": "object", "required": ["a"], "properties": {"a": {}}}
    >>> response_format_kwargs("llama_cpp", schema)["response_format"]["type"]
    'json_object'
    >>> response_format_kwargs("openai", schema)["response_format"]["type"]
    'json_schema'
    >>> response_format_kwargs(None, schema)
    {}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

__all__ = [
    "CONSTRAIN_JSON_STYLES",
    "ConstrainJson",
    "check_constrain_json",
    "response_format_kwargs",
]

ConstrainJson = Literal["openai", "llama_cpp"]
CONSTRAIN_JSON_STYLES: tuple[str, ...] = get_args(ConstrainJson)


def check_constrain_json(value: object) -> ConstrainJson | None:
    """``value`` if it names a supported style (or is ``None``); else a ``ValueError``."""
    if value is None or value in CONSTRAIN_JSON_STYLES:
        return value  # type: ignore[return-value]
    raise ValueError(
        f"constrain_json must be one of {', '.join(map(repr, CONSTRAIN_JSON_STYLES))} or None, "
        f"got {value!r}"
    )


def response_format_kwargs(
    style: ConstrainJson | None, schema: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The keyword arguments that ask the backend for output matching ``schema``: OpenAI's
    ``json_schema`` response format, or llama.cpp's ``json_object`` with a ``schema`` (its
    server turns it into a grammar). Empty when either is ``None``."""
    if style is None or schema is None:
        return {}
    if style == "llama_cpp":
        return {"response_format": {"type": "json_object", "schema": dict(schema)}}
    return {
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "answer", "schema": dict(schema), "strict": False},
        }
    }
