"""Namespaces: only entries whose answers mean the same thing are ever compared."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["make_namespace", "neutral_parts"]

# Role names differ between frameworks; the namespace must not (see ``neutral_parts``).
_ROLE_ALIASES = {"human": "user", "ai": "assistant", "chatbot": "assistant", "model": "assistant"}


def make_namespace(parts: Mapping[str, Any], tenant: str | None = None) -> str:
    """Hash everything that changes the meaning of an answer into one namespace id.

    ``parts`` holds the inner model's identity and generation parameters, the system prompt
    and earlier turns, bound tools, tool choice and response format (adapters fill it). The
    tenant is part of the hash: two tenants never share a namespace.

    Example:
        >>> make_namespace({"model": "m"}, "acme") != make_namespace({"model": "m"}, "globex")
        True
    """
    payload = json.dumps(
        {"parts": parts, "tenant": tenant}, sort_keys=True, default=repr, ensure_ascii=False
    )
    digest = hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    return f"{tenant}:{digest}" if tenant else digest


def neutral_parts(
    model: Mapping[str, Any],
    history: Sequence[tuple[str, str | None, str | None]],
    *,
    stop: Sequence[str] | None = None,
    call: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Namespace parts every adapter builds the same way, so wrappers of two frameworks
    around the same model (same ``model`` identity, e.g. ``{"id": model_id}``) share entries.

    ``history`` holds the turns before the prompt as ``(role, name, text)``; framework role
    names are mapped to one vocabulary ("human" and "user" are the same turn).

    Example:
        >>> a = neutral_parts({"id": "gpt-4o-mini"}, [("system", None, "Be terse.")])
        >>> b = neutral_parts({"id": "gpt-4o-mini"}, [("system", None, "Be terse.")])
        >>> make_namespace(a) == make_namespace(b)
        True
        >>> neutral_parts({"id": "m"}, [("human", None, "hi")])["history"][0]["role"]
        'user'
    """
    return {
        "model": dict(model),
        "stop": list(stop) if stop else None,
        "call": dict(call or {}),
        "history": [
            {"role": _ROLE_ALIASES.get(role, role), "name": name, "text": text}
            for role, name, text in history
        ],
        "options": dict(options or {}),
    }
