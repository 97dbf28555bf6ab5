"""What LangChain's ``llm_string`` says of a model call, as far as it can be read.

A ``BaseCache`` sees a call only as a prompt and an ``llm_string``. LangChain writes the
latter in one of two forms: a serializable chat model's JSON followed by ``---`` and the call
parameters, or the parameters alone (other chat models, completion models), each parameter
list written as ``str(sorted(params.items()))``: a Python repr. The repr of a value is a
literal for plain data (tools in a provider's dict format, stop sequences, a tool choice)
and is not for objects (a Pydantic class given as ``response_format``).

The whole ``llm_string`` always goes into the namespace (every parameter, whatever its form);
this module only reads the parameters the request path needs to know about: bound tools,
tool choice and response format. A value that cannot be read is kept as :class:`Unreadable`.
"""

from __future__ import annotations

import ast
import functools
import io
import json
import tokenize
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ModelString", "Unreadable", "read_llm_string"]

_SEPARATOR = "---"
_TOOL_KEYS = ("tools", "functions")


@dataclass(frozen=True)
class Unreadable:
    """A parameter value whose repr is no Python literal (its source text is kept)."""

    source: str


@dataclass(frozen=True)
class ModelString:
    """An ``llm_string`` as far as it can be read.

    ``model`` is a serializable model's JSON (``None`` otherwise); ``params`` the call
    parameters by name (a value that cannot be read is :class:`Unreadable`); ``readable`` is
    ``False`` when the parameter list itself could not be split, in which case ``params`` is
    empty and ``mentions_tools`` says whether the string may bind tools. Read it, never change
    it: one object serves every call with the same ``llm_string``.
    """

    text: str
    model: dict[str, Any] | None = None
    params: dict[str, Any] = field(default_factory=dict)
    readable: bool = True
    mentions_tools: bool = False


@functools.lru_cache(maxsize=256)  # an application has a few model strings, asked per call
def read_llm_string(llm_string: str) -> ModelString:
    """Read an ``llm_string`` as LangChain writes it.

    Example:
        >>> read_llm_string("[('_type', 'scripted'), ('stop', None)]").params
        {'_type': 'scripted', 'stop': None}
        >>> read_llm_string('{"name": "ChatX"}---[(\\'stop\\', [\\'\\\\n\\'])]').params["stop"]
        ['\\n']
        >>> read_llm_string("[('response_format', <class 'app.Person'>)]").params
        {'response_format': Unreadable(source="<class 'app.Person'>")}
    """
    model: dict[str, Any] | None = None
    rest = llm_string
    if llm_string.startswith("{"):
        try:
            decoded, end = json.JSONDecoder().raw_decode(llm_string)
        except ValueError:
            decoded, end = None, 0
        if isinstance(decoded, dict) and llm_string.startswith(_SEPARATOR, end):
            model, rest = decoded, llm_string[end + len(_SEPARATOR) :]
    params = _read_params(rest)
    if params is None:
        mentions = any(repr(key) in llm_string for key in _TOOL_KEYS)
        return ModelString(llm_string, model, {}, readable=False, mentions_tools=mentions)
    return ModelString(llm_string, model, params)


def _read_params(source: str) -> dict[str, Any] | None:
    """``str(sorted(params.items()))`` back as a dict, or ``None`` when it is not one."""
    try:
        items = ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        items = _split_items(source)
        if items is None:
            return None
    if not isinstance(items, list):
        return None
    params: dict[str, Any] = {}
    for item in items:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
            return None
        params[item[0]] = item[1]
    return params


def _split_items(source: str) -> list[tuple[Any, Any]] | None:
    """The ``(key, value)`` pairs of a repr'd list whose values are not all literals: split at
    the brackets and commas Python's tokenizer sees (strings are single tokens, so a bracket
    inside one never counts); each value is read as a literal or kept as its source."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source.strip()).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    lines = source.strip().splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(position: tuple[int, int]) -> int:
        return starts[position[0] - 1] + position[1]

    text = source.strip()
    depth = 0
    pairs: list[tuple[Any, Any]] = []
    piece_start: int | None = None
    comma: int | None = None
    for token in tokens:
        if token.type != tokenize.OP:
            continue
        if token.string in "([{":
            depth += 1
            if depth == 2 and token.string == "(":
                piece_start, comma = offset(token.end), None
        elif token.string in ")]}":
            if depth == 2 and token.string == ")" and piece_start is not None:
                if comma is None:
                    return None
                key_source = text[piece_start:comma]
                value_source = text[comma + 1 : offset(token.start)].strip()
                try:
                    key = ast.literal_eval(key_source.strip())
                except (ValueError, SyntaxError):
                    return None
                pairs.append((key, _literal_or_source(value_source)))
                piece_start = None
            depth -= 1
        elif token.string == "," and depth == 2 and comma is None:
            comma = offset(token.start)
    return pairs if depth == 0 else None


def _literal_or_source(source: str) -> Any:
    try:
        return ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return Unreadable(source)
