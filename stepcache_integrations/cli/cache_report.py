"""What ``stepcache cache stats`` and ``stepcache cache check`` print (plain text; ``--json``
prints the same data as JSON)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stepcache_integrations.cli.cache_targets import CacheStats, iter_cells
from stepcache_integrations.core.records import DECISIONS

__all__ = ["human_bytes", "render_check", "render_stats"]

_NO_TENANT = "(no tenant)"


def human_bytes(size: int) -> str:
    """``1536`` -> ``'1.5 KiB'``.

    Example:
        >>> human_bytes(512), human_bytes(1536), human_bytes(3 * 1024**3)
        ('512 B', '1.5 KiB', '3.0 GiB')
    """
    value = float(size)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")  # pragma: no cover


def _count(value: object) -> str:
    """A count, or ``?`` when the store could not read it (a damaged database)."""
    return f"{value:,}" if isinstance(value, int) else "?"


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]], names: int) -> list[str]:
    """Columns padded to their widths: the first ``names`` left-aligned, numbers right."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]

    def line(cells: tuple[str, ...]) -> str:
        parts = [
            cell.ljust(width) if i < names else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return [line(header), *(line(row) for row in rows)]


def _requests(stats: CacheStats) -> list[str]:
    fleet = stats.requests
    if fleet is None:
        return [f"hit rate: {stats.requests_note}"]
    decisions = fleet.get("decisions", {})
    shares = ", ".join(f"{name} {decisions.get(name, 0):,}" for name in DECISIONS)
    return [
        f"requests: {fleet.get('requests', 0):,} ({stats.requests_note})",
        f"hit rate: {fleet.get('hit_rate', 0.0):.1%} ({shares})",
        f"tokens: {fleet.get('tokens_used', 0):,} used, {fleet.get('tokens_saved', 0):,} "
        f"saved; {fleet.get('stored', 0):,} answers stored",
    ]


def render_stats(stats: CacheStats) -> str:
    """The summary of a cache, then its entries per tenant and per namespace and tenant."""
    where = stats.location
    if "schema" in stats.details:
        where += f", schema {stats.details['schema']}"
    version = "" if stats.schema_version is None else f" (schema version {stats.schema_version})"
    tenants = stats.by_tenant()
    named = sum(1 for tenant, _, _ in tenants if tenant is not None)
    anonymous = any(tenant is None for tenant, _, _ in tenants)
    spread = f"{len(stats.cells)} namespace(s), {named} tenant(s)" + (
        " and entries without a tenant" if anonymous else ""
    )
    parts = ", ".join(f"{name} {human_bytes(size)}" for name, size in stats.size_parts.items())
    lines = [
        f"{stats.store} cache at {where}{version}",
        f"entries: {stats.entries:,}" + (f" in {spread}" if stats.cells else ""),
        f"size: {human_bytes(stats.size_bytes)}" + (f" ({parts})" if parts else ""),
        *_requests(stats),
    ]
    if stats.cells:
        tenant_rows = [
            (_NO_TENANT if tenant is None else tenant, f"{entries:,}", f"{namespaces:,}")
            for tenant, entries, namespaces in tenants
        ]
        lines += ["", *_table(("tenant", "entries", "namespaces"), tenant_rows, names=1)]
        cell_rows = [
            (namespace, _NO_TENANT if tenant is None else tenant, f"{count:,}")
            for namespace, tenant, count in iter_cells(stats.cells)
        ]
        lines += ["", *_table(("namespace", "tenant", "entries"), cell_rows, names=2)]
    return "\n".join(lines)


def render_check(location: str, report: dict[str, Any]) -> str:
    """The verdict first, then what was checked: rows, unreadable rows, index or vectors."""
    verdict = "ok" if report.get("ok") else "PROBLEMS FOUND"
    store = report.get("store", {})
    lines = [f"{verdict}: {location}"]
    integrity = store.get("integrity")
    rows = f"rows: {_count(store.get('rows', 0))}, readable {_count(store.get('readable', 0))}"
    if integrity is not None:
        rows += f"; SQLite integrity: {integrity}"
    lines.append(rows)
    damage = store.get("damage")
    if damage:
        lines.append(f"damaged: {damage}")
    unreadable: dict[str, str] = store.get("unreadable") or {}
    if unreadable:
        lines.append(f"unreadable rows: {len(unreadable):,} (kept, never served)")
        lines += [f"  {entry_id}: {reason}" for entry_id, reason in list(unreadable.items())[:10]]
    index = report.get("index")
    if index is not None:
        if "error" in index:
            lines.append(f"index: {index['error']}")
        else:
            lines.append(
                f"index: {index['entries']:,} entries, {index['missing']:,} missing, "
                f"{index['extra']:,} extra"
            )
    vectors = report.get("vectors")
    if vectors is not None:
        if not vectors.get("column"):
            lines.append("vectors: none in this table (entries paired with another vector store)")
        else:
            made_by = vectors.get("embedder")
            maker = (
                "unknown embedder"
                if made_by is None
                else f"{made_by['type']}, dim {made_by['dim']}"
            )
            lines.append(f"vectors: {vectors['missing']:,} rows without one; made by {maker}")
    return "\n".join(lines)


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def render_audit(report: dict[str, Any]) -> str:
    """``stepcache cache audit`` as text: one row per kind of reuse, then the suspensions.

    Example:
        >>> from stepcache_integrations.core.audit import AuditCount, audit_report
        >>> print(render_audit(audit_report([AuditCount("ns", "json/value", "agree", 50)], [])))
        ... # doctest: +NORMALIZE_WHITESPACE
        kind of reuse  audited  agreed  disagreed  not comparable  wrong  95% upper  shadow
        json/value          50      50          0               0   0.0%       5.8%     0/0
        audits tokens: 0; bound: one-sided 95% Clopper-Pearson upper bound of disagreed /
        (agreed + disagreed)
        suspended now: none
    """
    kinds = report["kinds"]
    if not kinds and not report["suspended"]:
        return "no audits recorded (StepCache(audit=...) audits a share of the cache's hits)"
    header = (
        "kind of reuse",
        "audited",
        "agreed",
        "disagreed",
        "not comparable",
        "wrong",
        "95% upper",
        "shadow",
    )
    rows = [header]
    for row in kinds:
        rows.append(
            (
                row["kind"],
                f"{row['audited']:,}",
                f"{row['agreed']:,}",
                f"{row['disagreed']:,}",
                f"{row['not_comparable']:,}",
                _share(row["wrong_rate"]),
                _share(row["upper_95"]),
                f"{row['shadow_agreed']}/{row['shadow_disagreed']}",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
    tokens = sum(int(row["tokens"]) for row in kinds)
    lines.append(f"audits tokens: {tokens:,}; bound: {report['bound']}")
    suspended = report["suspended"]
    if not suspended:
        lines.append("suspended now: none")
    for item in suspended:
        lines.append(
            f"suspended: {item['kind']} in namespace {item['namespace']} for "
            f"{item['for_seconds']:.0f} s ({item['agreements']} agreeing audits since): "
            f"{item['reason']}"
        )
    return "\n".join(lines)
