"""Namespaces: only entries whose answers mean the same thing are ever compared, and never
across tenants.

Where tenants are kept apart, in one place: the cache binds every request's namespace to its
tenant (:func:`tenant_namespace`, in ``StepCache.serve``), so each store keeps every tenant's
entries under namespaces of their own, and the cache checks the namespace and tenant of every
entry a store hands back (``core.cache``). Adapters build the namespace of what a request
means (:func:`make_namespace`) and pass the tenant beside it, never inside it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["make_namespace", "tenant_namespace"]

_HEX24 = re.compile(r"[0-9a-f]{24}")
_TENANT_SHAPED = re.compile(r".*:[0-9a-f]{24}", re.DOTALL)


def _digest(*parts: str) -> str:
    payload = "\x00".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha256(payload).hexdigest()[:24]


def make_namespace(parts: Mapping[str, Any]) -> str:
    """Hash everything that changes the meaning of an answer into one namespace id.

    ``parts`` holds the inner model's identity and generation parameters, the system prompt
    and earlier turns, bound tools, tool choice and response format (the adapter layer fills
    it: :func:`stepcache_integrations.adapter.request.namespace_parts`). The tenant is not
    part of it: the cache binds every namespace to the request's tenant
    (:func:`tenant_namespace`).

    Example:
        >>> make_namespace({"model": "m"}) != make_namespace({"model": "n"})
        True
        >>> len(make_namespace({"model": "m"}))
        24
    """
    # "tenant": None keeps the ids of earlier versions' namespaces without a tenant.
    payload = json.dumps(
        {"parts": parts, "tenant": None}, sort_keys=True, default=repr, ensure_ascii=False
    )
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def tenant_namespace(namespace: str, tenant: str | None) -> str:
    """The namespace a request really uses: always bound to its tenant.

    A tenant's namespaces are ``"<tenant>:<24 hex>"``: two different tenants never share one
    (hence an entry, or an exact key), however a caller builds its requests. Bound namespaces
    pass unchanged (binding twice is binding once); without a tenant, a namespace that looks
    bound to one is re-hashed, so it can never be another tenant's.

    Example:
        >>> tenant_namespace("shared", "acme") != tenant_namespace("shared", "globex")
        True
        >>> bound = tenant_namespace("shared", "acme")
        >>> bound.startswith("acme:"), tenant_namespace(bound, "acme") == bound
        (True, True)
    """
    if tenant is None:
        # Without a tenant, a namespace must not look like another tenant's.
        return _digest("no-tenant", namespace) if _TENANT_SHAPED.fullmatch(namespace) else namespace
    prefix = f"{tenant}:"
    if namespace.startswith(prefix) and _HEX24.fullmatch(namespace[len(prefix) :]):
        return namespace
    return f"{tenant}:{_digest('tenant', tenant, namespace)}"
