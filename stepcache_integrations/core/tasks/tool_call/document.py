"""The canonical text form of a tool-calling answer, written and read in this one place.

The cache stores answers as text. An assistant turn that calls tools is stored as a *tool-call
document*: a header line, then one JSON line for the turn's text (only when it has any), then
one JSON line per call with the tool's name and arguments. Call ids are not stored: they are
random handles, and a served answer gets fresh ones.

A document can never be confused with a plain answer: a plain answer that happens to begin
like a document (or with the escape mark) is stored behind one :data:`ESCAPE` mark, which
:func:`read_answer` removes. Only text written by :func:`write_document` reads back as calls.

Example:
    >>> text = write_document(ToolCallDocument((DocumentCall("get_weather", {"city": "Paris"}),)))
    >>> print(text)
    <<stepcache:tool_calls:v1>>
    {"name": "get_weather", "arguments": {"city": "Paris"}}
    >>> read_answer(text).calls[0].arguments
    {'city': 'Paris'}
    >>> read_answer(escape_plain(text)).calls
    ()
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ESCAPE",
    "HEADER",
    "DocumentCall",
    "DocumentError",
    "ReadAnswer",
    "ToolCallDocument",
    "escape_plain",
    "is_document",
    "read_answer",
    "read_document",
    "write_document",
]

HEADER = "<<stepcache:tool_calls:v1>>"
"""First line of every tool-call document."""

ESCAPE = "\u2060"
"""Put before a plain answer that would otherwise read as a document (an invisible word
joiner; removed again when the answer is read)."""

_CONTENT_KEY = "content"


class DocumentError(ValueError):
    """Text that starts like a tool-call document but is not a well-formed one."""


@dataclass(frozen=True)
class DocumentCall:
    """One tool call of a document: the tool's name and its arguments (a JSON object when
    the model's arguments parsed; anything else is kept to be reported as invalid)."""

    name: str
    arguments: Any

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "arguments": self.arguments}


@dataclass(frozen=True)
class ToolCallDocument:
    """An assistant turn that calls tools: its text (often empty) and its calls, in order."""

    calls: tuple[DocumentCall, ...]
    content: str = ""


@dataclass(frozen=True)
class ReadAnswer:
    """A stored answer read back: the text to show and the calls to make (none for a plain
    answer)."""

    content: str
    calls: tuple[DocumentCall, ...] = ()

    @property
    def is_tool_call(self) -> bool:
        return bool(self.calls)


def _line(value: Mapping[str, Any]) -> str:
    # One JSON value per line: newlines inside strings are escaped by json.dumps.
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def write_document(document: ToolCallDocument) -> str:
    """The document's text. Raises ``ValueError`` for a document without calls or with
    values that are not plain JSON."""
    if not document.calls:
        raise ValueError("a tool-call document needs at least one call")
    lines = [HEADER]
    if document.content:
        lines.append(_line({_CONTENT_KEY: document.content}))
    lines.extend(_line(call.to_json()) for call in document.calls)
    return "\n".join(lines)


def is_document(text: str) -> bool:
    """Whether ``text`` is meant as a tool-call document (it starts with the header line)."""
    return text == HEADER or text.startswith(HEADER + "\n")


def escape_plain(text: str) -> str:
    """A plain answer in the form it is stored in: unchanged, unless it begins like a
    document or with the escape mark (then one :data:`ESCAPE` is put before it)."""
    if text.startswith((HEADER, ESCAPE)):
        return ESCAPE + text
    return text


def _parse_line(line: str, number: int) -> Any:
    try:
        return json.loads(line)
    except ValueError as error:
        raise DocumentError(f"line {number} is not JSON: {error}") from error


def read_document(text: str) -> ToolCallDocument:
    """The document ``text`` holds; :class:`DocumentError` when it is not a well-formed one."""
    if not is_document(text):
        raise DocumentError("the text does not start with the tool-call header")
    lines = text.split("\n")[1:]
    content = ""
    calls: list[DocumentCall] = []
    for number, line in enumerate(lines, start=2):
        value = _parse_line(line, number)
        if not isinstance(value, dict):
            raise DocumentError(f"line {number} is not a JSON object")
        if set(value) == {_CONTENT_KEY} and number == 2:
            if not isinstance(value[_CONTENT_KEY], str):
                raise DocumentError("the content line must hold a string")
            content = value[_CONTENT_KEY]
            continue
        if set(value) != {"name", "arguments"} or not isinstance(value["name"], str):
            raise DocumentError(f"line {number} is not a call (name and arguments)")
        calls.append(DocumentCall(value["name"], value["arguments"]))
    if not calls:
        raise DocumentError("the document has no calls")
    return ToolCallDocument(tuple(calls), content)


def read_answer(text: str) -> ReadAnswer:
    """A stored answer as text and calls: a document gives its calls, an escaped plain
    answer loses its escape mark, any other text is a plain answer.

    A text that starts with the header but is not a well-formed document raises
    :class:`DocumentError` (it was never written by :func:`write_document`).
    """
    if text.startswith(ESCAPE):
        return ReadAnswer(text[len(ESCAPE) :])
    if is_document(text):
        document = read_document(text)
        return ReadAnswer(document.content, document.calls)
    return ReadAnswer(text)
