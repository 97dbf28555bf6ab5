"""The JSON object inside an answer or a step: find it, and write an edited one back.

An answer must hold exactly one JSON object (bare or in a Markdown fence, prose around it
allowed); :func:`locate_object` finds it or says why there is none. :func:`replace_object`
writes an edited object back in the style of the original (compact or indented, same
separators and escapes).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import dirtyjson

from stepcache_integrations.core.steps import Step, find_json_object

__all__ = [
    "LocatedObject",
    "locate_object",
    "looks_like_object",
    "object_decode_error",
    "object_span",
    "replace_object",
    "salvage_object",
]

# --------------------------------------------------------------------------- locating


@dataclass(frozen=True)
class LocatedObject:
    """The one JSON object of a text, or why there is none."""

    obj: dict[str, Any] | None = None
    start: int = 0
    end: int = 0
    error: str | None = None


_FENCE_OPEN = re.compile(r"^\s*```[A-Za-z0-9_-]*[ \t]*\n?")


# Every JSON object starts like this; text without it cannot hold one. Checking first spares
# find_json_object a decode attempt at every brace of brace-heavy text.
_OBJECT_START = re.compile(r'\{\s*["}]')


def object_span(text: str) -> tuple[int, int] | None:
    """The span of the first JSON object in ``text``, or ``None``."""
    if _OBJECT_START.search(text) is None:
        return None
    try:
        return find_json_object(text)
    except (RecursionError, ValueError):  # find_json_object catches these; stay safe anyway
        return None


def looks_like_object(text: str) -> bool:
    """Whether ``text`` starts like a JSON object (``{``, maybe after a fence opening)."""
    body = _FENCE_OPEN.sub("", text, count=1).lstrip()
    return body.startswith("{")


def object_decode_error(text: str) -> str:
    """Why the first ``{`` of ``text`` does not start a JSON object."""
    brace = text.find("{")
    if brace < 0:
        return "no JSON object found"
    try:
        json.JSONDecoder().raw_decode(text, brace)
    except json.JSONDecodeError as exc:
        return f"not a valid JSON object: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    except RecursionError:
        return "not a valid JSON object: nested too deeply"
    return "no JSON object found"


def locate_object(text: str, whole_answer: bool) -> LocatedObject:
    """The one JSON object of ``text``; ``whole_answer`` also rejects a JSON array answer."""
    span = object_span(text)
    if span is None:
        return LocatedObject(error=object_decode_error(text))
    start, end = span
    if whole_answer:
        body = _FENCE_OPEN.sub("", text, count=1).strip().removesuffix("```").strip()
        if body.startswith("["):
            try:
                value = json.loads(body)
            except (ValueError, RecursionError):
                value = None
            if isinstance(value, list):
                return LocatedObject(error="the answer is a JSON array, not one JSON object")
    if object_span(text[end:]) is not None or object_span(text[:start]) is not None:
        return LocatedObject(error="more than one JSON object")
    try:
        obj = json.loads(text[start:end])
    except (ValueError, RecursionError):
        return LocatedObject(error="the JSON object is nested too deeply to read")
    if not isinstance(obj, dict):  # pragma: no cover - find_json_object only finds objects
        return LocatedObject(error="no JSON object found")
    return LocatedObject(obj, start, end)


def salvage_object(text: str) -> LocatedObject:
    """The object a model meant but wrote with syntax slips (trailing commas, single quotes,
    comments, unquoted keys), read leniently with ``dirtyjson``; its span covers the first
    ``{`` to the last ``}``. An error result when nothing object-like can be read."""
    start, end = text.find("{"), text.rfind("}") + 1
    if start < 0 or end <= start:
        return LocatedObject(error="no JSON object found")
    try:
        value = dirtyjson.loads(text[start:end])
        # dirtyjson's ordered dict subclasses become plain JSON values again.
        obj = json.loads(json.dumps(value))
    except (ValueError, TypeError, RecursionError, dirtyjson.Error):
        return LocatedObject(error="no JSON object found")
    if not isinstance(obj, dict):
        return LocatedObject(error="no JSON object found")
    return LocatedObject(obj, start, end)


# --------------------------------------------------------------------------- re-serialising

_COMPACT_SEPARATORS = ((", ", ": "), (",", ":"), (",", ": "), (", ", ":"))
_INDENTED_SEPARATORS = ((",", ": "), (",", ":"))


def _leading_space(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _dump(
    value: object, indent: str | None, separators: tuple[str, str], ascii_only: bool, base: str
) -> str:
    text = json.dumps(value, indent=indent, separators=separators, ensure_ascii=ascii_only)
    return text.replace("\n", "\n" + base) if base else text


def _serialise_like(value: dict[str, Any], original: str) -> str:
    """Serialise ``value`` in the style of ``original`` (compact or indented, same spacing)."""
    try:
        parsed: object = json.loads(original)
    except ValueError:
        parsed = None  # a salvaged original: keep its layout, no exact style to match
    # Keep escapes if the original used them; otherwise write characters as they are.
    ascii_only = original.isascii() and "\\u" in original
    styles: list[tuple[str | None, tuple[str, str], str]]
    if "\n" not in original:
        styles = [(None, seps, "") for seps in _COMPACT_SEPARATORS]
    else:
        lines = original.split("\n")
        base = _leading_space(lines[-1])
        second = _leading_space(lines[1])
        unit = second[len(base) :] if second.startswith(base) and second != base else "  "
        styles = [(unit, seps, base) for seps in _INDENTED_SEPARATORS]
    for indent, seps, base in styles:
        if _dump(parsed, indent, seps, ascii_only, base) == original:
            return _dump(value, indent, seps, ascii_only, base)
    indent, seps, base = styles[0]
    return _dump(value, indent, seps, ascii_only, base)


def replace_object(step: Step, located: LocatedObject, obj: dict[str, Any]) -> Step | None:
    """``step`` with its JSON object replaced by ``obj``, written in the original style."""
    original = step.text[located.start : located.end]
    try:
        text = _serialise_like(obj, original)
    except (ValueError, TypeError, RecursionError):
        return None
    return Step(step.text[: located.start] + text + step.text[located.end :], step.separator)
