"""Which tenant a call belongs to.

Entries are isolated per tenant. A call's own tenant wins over the wrapper's default; a
tenant that cannot be known on some path must never be replaced by another tenant: the
call then skips the cache (see :data:`TENANT_UNKNOWN`).
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["TENANT_UNKNOWN", "TENANT_UNKNOWN_REASON", "check_tenant", "resolve_tenant"]


class _Unknown:
    """The per-call tenant could not be read on this path."""

    def __repr__(self) -> str:
        return "TENANT_UNKNOWN"


TENANT_UNKNOWN: Final = _Unknown()
"""Pass as the per-call tenant when the call's configuration cannot be read."""

TENANT_UNKNOWN_REASON = (
    "the per-call tenant cannot be known on this call path: the cache is not used"
)


def check_tenant(value: Any, what: str = "tenant") -> str | None:
    """A valid tenant id (a non-empty string) or ``None``; anything else is a clear error.

    Example:
        >>> check_tenant("acme")
        'acme'
        >>> check_tenant(None) is None
        True
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, got {type(value).__name__}")
    if not value:
        raise ValueError(f"{what} must not be empty (use None for no tenant)")
    return value


def resolve_tenant(
    per_call: Any, default: str | None, *, what: str = "the per-call tenant"
) -> tuple[str | None, str | None]:
    """``(tenant, bypass_reason)`` of one call.

    The per-call tenant wins; ``None`` means "not given" and selects ``default``;
    :data:`TENANT_UNKNOWN` gives a bypass reason instead of a tenant. ``what`` names the
    per-call setting in errors.

    Example:
        >>> resolve_tenant("globex", "acme")
        ('globex', None)
        >>> resolve_tenant(None, "acme")
        ('acme', None)
        >>> resolve_tenant(TENANT_UNKNOWN, "acme")[0] is None
        True
    """
    if per_call is TENANT_UNKNOWN:
        return None, TENANT_UNKNOWN_REASON
    tenant = check_tenant(per_call, what)
    return (tenant if tenant is not None else default), None
