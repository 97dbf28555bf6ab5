"""Helpers shared by the corpus builders: one case row, tools, calls and number formats."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

# The paths of the harness (``paths.py``): ``ALL`` those every case runs on, ``WRAPPERS``
# those with a ``json_schema=`` argument (both wrappers and LangChain's global cache; the
# middleware has none), ``STREAMED`` all of them and ``StepCacheLLM.stream`` as well.
ALL = ("langchain", "llama_index", "middleware", "langchain_cache")
WRAPPERS = ("langchain", "llama_index", "langchain_cache")
STREAMED = (*ALL, "langchain_stream")


def case(
    id: str,
    cls: str,
    cached: str | dict[str, Any],
    cached_answer: Any,
    new: str | dict[str, Any],
    new_answer: Any,
    *,
    paths: tuple[str, ...] = ALL,
    note: str = "",
    **options: Any,
) -> dict[str, Any]:
    """One corpus row. ``cached`` / ``new`` are a prompt or a dict with ``messages`` (and
    ``tool_results``); answers are text or ``{"tool_calls": [...], "content": ...}``."""

    def side(request: str | dict[str, Any], answer: Any) -> dict[str, Any]:
        body = {"prompt": request} if isinstance(request, str) else dict(request)
        return {**body, "answer": answer}

    row: dict[str, Any] = {
        "id": id,
        "class": cls,
        "paths": list(paths),
        "cached": side(cached, cached_answer),
        "new": side(new, new_answer),
    }
    if options:
        row["options"] = {k: v for k, v in options.items() if v is not None}
    if note:
        row["note"] = note
    return row


def tool(
    name: str,
    description: str,
    params: dict[str, Any],
    required: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """An OpenAI tool dict; each parameter is a type name or a JSON Schema property dict."""
    properties = {
        key: ({"type": value} if isinstance(value, str) else dict(value))
        for key, value in params.items()
    }
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": list(required if required is not None else params),
            },
        },
    }


def call(tool_name: str, /, **args: Any) -> dict[str, Any]:
    """An answer that is one tool call."""
    return {"tool_calls": [{"name": tool_name, "args": args}]}


def calls(*pairs: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "args": args} for name, args in pairs]}


def js(obj: Any) -> str:
    """A JSON answer as a model writes it (one line, spaces after separators)."""
    return json.dumps(obj, ensure_ascii=False)


def num(value: float | int | Fraction | Decimal) -> str:
    """A number as a person writes it: no trailing zeros, at most two decimals."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    d = Decimal(str(float(value))) if not isinstance(value, Decimal) else value
    d = d.quantize(Decimal("0.01")) if d != d.to_integral_value() else d.to_integral_value()
    text = format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def money(value: float | int | Fraction | Decimal) -> str:
    """Dollars with cents when there are any: $12, $4.80."""
    d = Decimal(str(float(value))).quantize(Decimal("0.01"))
    if d == d.to_integral_value():
        return f"${int(d)}"
    return f"${d}"
