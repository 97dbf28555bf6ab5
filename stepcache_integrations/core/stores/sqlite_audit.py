"""The audit ledger of a SQLite cache: counts and suspensions in the entry database itself
(schema 2), so every process on the machine shares them.

The ledger has its own connection (audits are written by the auditor's thread, never on the
request path) and waits at most ``timeout`` seconds for the write lock; any error propagates
to the auditor, which logs it and carries on (fail open).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from stepcache_integrations.core.audit.ledger import AuditCount, Suspension
from stepcache_integrations.core.stores.sqlite import AUDIT_TABLES, encode_text, immediate

__all__ = ["AUDIT_TABLES", "SqliteAuditLedger"]


def _text(value: object) -> str:
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else str(value)


class SqliteAuditLedger:
    """An :class:`~stepcache_integrations.core.audit.AuditLedger` in a SQLite entry database.

    Example:
        >>> import tempfile, pathlib
        >>> from stepcache_integrations.core.stores.sqlite import SqliteEntryStore
        >>> db = pathlib.Path(tempfile.mkdtemp()) / "entries.sqlite"
        >>> SqliteEntryStore(db).close()  # creates the database (schema 2)
        >>> ledger = SqliteAuditLedger(db)
        >>> ledger.add("ns", "json/value", "agree", 30)
        >>> [(c.kind, c.outcome, c.count) for c in ledger.counts()]
        [('json/value', 'agree', 1)]
        >>> ledger.close()
    """

    def __init__(self, path: str | Path, timeout: float = 1.0) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(
            str(self.path), timeout=timeout, isolation_level=None, check_same_thread=False
        )

    def add(self, namespace: str, kind: str, outcome: str, tokens: int) -> None:
        with self._lock, immediate(self._conn) as conn:
            conn.execute(
                "INSERT INTO audit_counts (namespace, kind, outcome, count, tokens) "
                "VALUES (?, ?, ?, 1, ?) ON CONFLICT (namespace, kind, outcome) DO UPDATE SET "
                "count = count + 1, tokens = tokens + excluded.tokens",
                (encode_text(namespace), kind, outcome, max(0, int(tokens))),
            )

    def suspend(self, namespace: str, kind: str, reason: str, now: float) -> None:
        with self._lock, immediate(self._conn) as conn:
            conn.execute(
                "INSERT INTO audit_suspensions (namespace, kind, since, reason, agreements) "
                "VALUES (?, ?, ?, ?, 0) ON CONFLICT (namespace, kind) DO UPDATE SET "
                "since = excluded.since, reason = excluded.reason, agreements = 0",
                (encode_text(namespace), kind, now, reason),
            )

    def agreement(self, namespace: str, kind: str, needed: int) -> bool:
        key = (encode_text(namespace), kind)
        with self._lock, immediate(self._conn) as conn:
            row = conn.execute(
                "SELECT agreements FROM audit_suspensions WHERE namespace = ? AND kind = ?", key
            ).fetchone()
            if row is None:
                return False
            if int(row[0]) + 1 >= needed:
                conn.execute("DELETE FROM audit_suspensions WHERE namespace = ? AND kind = ?", key)
                return True
            conn.execute(
                "UPDATE audit_suspensions SET agreements = agreements + 1 "
                "WHERE namespace = ? AND kind = ?",
                key,
            )
            return False

    def resume(self, kind: str, namespace: str | None = None) -> int:
        with self._lock, immediate(self._conn) as conn:
            if namespace is None:
                cursor = conn.execute("DELETE FROM audit_suspensions WHERE kind = ?", (kind,))
            else:
                cursor = conn.execute(
                    "DELETE FROM audit_suspensions WHERE namespace = ? AND kind = ?",
                    (encode_text(namespace), kind),
                )
            return int(cursor.rowcount)

    def suspensions(self) -> list[Suspension]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT namespace, kind, since, reason, agreements FROM audit_suspensions"
            ).fetchall()
        return [Suspension(_text(ns), str(k), float(s), str(r), int(a)) for ns, k, s, r, a in rows]

    def counts(self) -> list[AuditCount]:
        with self._lock:
            rows = self._conn.execute(
                "SELECT namespace, kind, outcome, count, tokens FROM audit_counts "
                "ORDER BY kind, outcome"
            ).fetchall()
        return [AuditCount(_text(ns), str(k), str(o), int(c), int(t)) for ns, k, o, c, t in rows]

    def close(self) -> None:
        with self._lock:
            self._conn.close()
