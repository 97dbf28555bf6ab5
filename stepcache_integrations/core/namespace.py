"""Namespaces: only entries whose answers mean the same thing are ever compared."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

__all__ = ["make_namespace"]


def make_namespace(parts: Mapping[str, Any], tenant: str | None = None) -> str:
    """Hash everything that changes the meaning of an answer into one namespace id.

    ``parts`` holds the inner model's identity and generation parameters, the system prompt
    and earlier turns, bound tools, tool choice and response format (the adapter layer fills
    it: :func:`stepcache_integrations.adapter.request.namespace_parts`). The
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
