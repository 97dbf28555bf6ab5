"""The audit ledger of a Postgres cache: one fleet, one set of audit counts and suspensions
(schema 2: ``audit_counts`` and ``audit_suspensions``).

Written by each process's auditor thread through the store's pool (never on the request
path), each write one short transaction with the store's write timeout. A database that is
down raises, and the auditor logs it and carries on: serving is never touched.
"""

from __future__ import annotations

from stepcache_integrations.core.audit.ledger import AuditCount, Suspension
from stepcache_integrations.core.stores.postgres.connection import ReadyPool
from stepcache_integrations.core.stores.postgres.schema import Tables

__all__ = ["PostgresAuditLedger"]


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _text(value: object) -> str:
    if isinstance(value, memoryview):
        value = value.tobytes()
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else str(value)


class PostgresAuditLedger:
    """An :class:`~stepcache_integrations.core.audit.AuditLedger` in a Postgres schema,
    shared by every process of a fleet (``PostgresStore.audit_ledger()``)."""

    def __init__(self, ready: ReadyPool, tables: Tables) -> None:
        self.ready = ready
        self.tables = tables

    def add(self, namespace: str, kind: str, outcome: str, tokens: int) -> None:
        with self.ready.write() as conn:
            conn.execute(
                self.tables.q(
                    "INSERT INTO {audit_counts} AS c (namespace, kind, outcome, count, tokens) "
                    "VALUES (%s, %s, %s, 1, %s) ON CONFLICT (namespace, kind, outcome) "
                    "DO UPDATE SET count = c.count + 1, tokens = c.tokens + excluded.tokens"
                ),
                (_bytes(namespace), kind, outcome, max(0, int(tokens))),
            )

    def suspend(self, namespace: str, kind: str, reason: str, now: float) -> None:
        with self.ready.write() as conn:
            conn.execute(
                self.tables.q(
                    "INSERT INTO {audit_suspensions} (namespace, kind, since, reason, agreements)"
                    " VALUES (%s, %s, %s, %s, 0) ON CONFLICT (namespace, kind) DO UPDATE SET "
                    "since = excluded.since, reason = excluded.reason, agreements = 0"
                ),
                (_bytes(namespace), kind, now, reason),
            )

    def agreement(self, namespace: str, kind: str, needed: int) -> bool:
        key = (_bytes(namespace), kind)
        with self.ready.write() as conn:
            row = conn.execute(
                self.tables.q(
                    "UPDATE {audit_suspensions} SET agreements = agreements + 1 "
                    "WHERE namespace = %s AND kind = %s RETURNING agreements"
                ),
                key,
            ).fetchone()
            if row is None or int(row[0]) < needed:
                return False
            conn.execute(
                self.tables.q("DELETE FROM {audit_suspensions} WHERE namespace = %s AND kind = %s"),
                key,
            )
            return True

    def resume(self, kind: str, namespace: str | None = None) -> int:
        with self.ready.write() as conn:
            if namespace is None:
                cursor = conn.execute(
                    self.tables.q("DELETE FROM {audit_suspensions} WHERE kind = %s"), (kind,)
                )
            else:
                cursor = conn.execute(
                    self.tables.q(
                        "DELETE FROM {audit_suspensions} WHERE namespace = %s AND kind = %s"
                    ),
                    (_bytes(namespace), kind),
                )
            return int(cursor.rowcount)

    def suspensions(self) -> list[Suspension]:
        with self.ready.write() as conn:
            rows = conn.execute(
                self.tables.q(
                    "SELECT namespace, kind, since, reason, agreements FROM {audit_suspensions}"
                )
            ).fetchall()
        return [Suspension(_text(ns), str(k), float(s), str(r), int(a)) for ns, k, s, r, a in rows]

    def counts(self) -> list[AuditCount]:
        with self.ready.write() as conn:
            rows = conn.execute(
                self.tables.q(
                    "SELECT namespace, kind, outcome, count, tokens FROM {audit_counts} "
                    "ORDER BY kind, outcome"
                )
            ).fetchall()
        return [AuditCount(_text(ns), str(k), str(o), int(c), int(t)) for ns, k, o, c, t in rows]
