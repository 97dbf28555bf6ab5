"""How an audit samples, queues and lifts suspensions: :class:`AuditConfig`, and the one
function that reads ``StepCache(audit=...)`` (:func:`audit_config`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from stepcache_integrations.core.configuration import ConfigurationError

__all__ = ["AuditConfig", "audit_config"]


@dataclass(frozen=True)
class AuditConfig:
    """What ``StepCache(audit=...)`` does: a share of the answers served without the model is
    asked of the model again, off the request path, and compared by the task's answer key.

    Attributes:
        rate: the share of answers served from the cache (exact, reuse, patch) that are
            audited, in (0, 1].
        queue_size: audits waiting for the background worker at most; a sampled answer that
            finds the queue full is dropped and counted (``stats()["audit"]["dropped"]``),
            never waited for.
        agreements_to_resume: a kind of reuse suspended by a disagreement is served from the
            cache again after this many audits of it agree (while it is suspended, each
            request of that kind is answered by the model, and its answer compared with what
            the cache would have served: a shadow audit that costs no extra call).
        confirm: on a disagreement the model is asked once more; the disagreement counts only
            when the model agrees with itself (a model whose answers to the request differ
            from call to call, such as a JSON object with made-up values, is *not comparable*
            there, not a wrong answer of the cache).
        refresh_seconds: how often the worker reads the store's suspensions (a fleet shares
            them through the store: another process's suspension is seen within this time).
        close_seconds: how long closing the cache waits for queued audits to finish.
        seed: the seed of the sampling (``None``: random); set it in tests.

    Example:
        >>> AuditConfig(rate=0.02).agreements_to_resume
        20
        >>> audit_config(0.05).rate
        0.05
        >>> audit_config(None) is None
        True
    """

    rate: float = 0.02
    queue_size: int = 256
    agreements_to_resume: int = 20
    confirm: bool = True
    refresh_seconds: float = 5.0
    close_seconds: float = 5.0
    seed: int | None = None

    def __post_init__(self) -> None:
        rate = self.rate
        if isinstance(rate, bool) or not isinstance(rate, int | float) or not math.isfinite(rate):
            raise ConfigurationError("audit", f"rate must be a number in (0, 1], got {rate!r}")
        if not 0 < rate <= 1:
            raise ConfigurationError(
                "audit", f"rate must be in (0, 1] (0.02 audits 2% of the hits), got {rate!r}"
            )
        for name in ("queue_size", "agreements_to_resume"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigurationError(
                    "audit", f"{name} must be a whole number >= 1, got {value!r}"
                )
        for name in ("refresh_seconds", "close_seconds"):
            value = getattr(self, name)
            valid = isinstance(value, int | float) and not isinstance(value, bool)
            if not valid or not math.isfinite(value) or value <= 0:
                raise ConfigurationError("audit", f"{name} must be positive seconds, got {value!r}")
        if not isinstance(self.confirm, bool):
            raise ConfigurationError(
                "audit", f"confirm must be True or False, got {self.confirm!r}"
            )
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, int)
        ):
            raise ConfigurationError("audit", f"seed must be an int or None, got {self.seed!r}")


def audit_config(value: object) -> AuditConfig | None:
    """``StepCache(audit=...)`` read: ``None`` or ``False`` (off, the default), a rate in
    (0, 1], or an :class:`AuditConfig`.

    Example:
        >>> audit_config(AuditConfig(rate=1.0, seed=7)).seed
        7
        >>> audit_config("2%")
        Traceback (most recent call last):
        ...
        stepcache_integrations.core.configuration.ConfigurationError: audit: must be None, a \
rate in (0, 1] such as 0.02, or an AuditConfig, got '2%' (str)
    """
    if value is None or value is False:
        return None
    if isinstance(value, AuditConfig):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return AuditConfig(rate=float(value))
    raise ConfigurationError(
        "audit",
        "must be None, a rate in (0, 1] such as 0.02, or an AuditConfig, "
        f"got {value!r} ({type(value).__name__})",
    )
