"""Auditing a cache on its own traffic: a sampled share of the answers served without the
model is asked of the model again off the request path and compared by the task's answer key;
a kind of reuse that disagrees is suspended until audits of it agree again.

``StepCache(audit=0.02)`` turns it on; ``StepCache.audit_report()`` and ``stepcache cache
audit`` report the measured wrong-answer rate with its 95% upper bound, per task family and
kind of reuse. See ``docs/audit.md``.
"""

from stepcache_integrations.core.audit.auditor import (
    SERVED,
    AuditAsk,
    AuditListener,
    Auditor,
    AuditTarget,
    AuditUnavailable,
    FreshAnswer,
)
from stepcache_integrations.core.audit.bounds import upper_bound
from stepcache_integrations.core.audit.config import AuditConfig, audit_config
from stepcache_integrations.core.audit.keys import (
    AnswerKeys,
    compare_keys,
    read_keys,
    reuse_kind,
    shown_keys,
)
from stepcache_integrations.core.audit.ledger import (
    COUNTED,
    AuditCount,
    AuditLedger,
    AuditLedgerProvider,
    MemoryAuditLedger,
    Suspension,
    audit_report,
)
from stepcache_integrations.core.audit.records import (
    AUDIT_OUTCOMES,
    AuditOutcome,
    AuditRecord,
    AuditStats,
)

__all__ = [
    "AUDIT_OUTCOMES",
    "COUNTED",
    "SERVED",
    "AnswerKeys",
    "AuditAsk",
    "AuditConfig",
    "AuditCount",
    "AuditLedger",
    "AuditLedgerProvider",
    "AuditListener",
    "AuditOutcome",
    "AuditRecord",
    "AuditStats",
    "AuditTarget",
    "AuditUnavailable",
    "Auditor",
    "FreshAnswer",
    "MemoryAuditLedger",
    "Suspension",
    "audit_config",
    "audit_report",
    "compare_keys",
    "read_keys",
    "reuse_kind",
    "shown_keys",
    "upper_bound",
]
