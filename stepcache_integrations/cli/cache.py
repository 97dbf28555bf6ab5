"""``stepcache cache``: inspect and manage a cache by path (SQLite) or URL (Postgres).

Five actions: ``stats`` (entries per namespace and tenant, size, the fleet's hit rate where the
store keeps one), ``purge`` (one tenant's entries, the entries without a tenant, or one
namespace's), ``expire`` (entries older than a time to live, now), ``check`` (the store's
full health check) and ``salvage`` (a damaged SQLite database: every readable entry copied into
a new one, the damaged file kept). Deleting or salvaging asks for ``--yes``; without it the
command says what would happen and changes nothing. Every problem ends in one line on stderr
and exit code 2; a Postgres password is never printed.

The work itself is in ``cache_targets`` (SQLite), ``cache_postgres`` (imported only with
``--url``, once the ``postgres`` extra is known to be installed) and ``cache_report``.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from stepcache_integrations.cli.command import Command
from stepcache_integrations.cli.extras import install_hint, require

__all__ = ["ACTIONS", "COMMAND", "add_arguments", "parse_duration", "run"]

ACTIONS = ("stats", "audit", "purge", "expire", "check", "salvage")
DEFAULT_SCHEMA = "stepcache"

DESCRIPTION = """\
Inspect and manage a StepCache by its location: a cache directory of StepCache(path=DIR) or
SqliteStore(DIR) (--path DIR), or the Postgres database of StepCache(url=URL) or
PostgresStore(URL, schema=...) (--url URL, with --schema for another schema than stepcache).
Only the entries are read and deleted: the command needs no embedder and never re-embeds
anything. stats and check never write; a directory or a database that holds no cache is
refused, never initialised."""

EPILOG = f"""\
examples:
  stepcache cache stats --path .stepcache                 entries per tenant and namespace, size
  stepcache cache stats --url postgresql://app@db/app --json
  stepcache cache purge --tenant acme --path .stepcache --yes
  stepcache cache purge --no-tenant --url postgresql://app@db/app --yes
  stepcache cache expire --ttl 7d --path .stepcache --yes  entries stored more than 7 days ago
  stepcache cache audit --url postgresql://app@db/app     wrong-answer rate per kind of reuse
  stepcache cache audit --path .stepcache --resume json/value --yes
  stepcache cache check --path .stepcache                 exit code 1 when a problem is found
  stepcache cache salvage --path .stepcache --yes         a damaged database: keep what reads

--url needs the postgres extra ({install_hint("postgres")}). Requests already running in
other processes may still store entries after a purge: stop serving a tenant before purging it."""

# A command-line duration ("90s", "12h", "1.5d"): the option's own grammar, not prose.
_DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*")
_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


class UsageError(Exception):
    """A command line that cannot be run as given; ``str()`` is the one-line message."""


def parse_duration(text: str) -> float:
    """Seconds of a time to live: ``"3600"``, ``"90s"``, ``"30m"``, ``"12h"`` or ``"7d"``.

    Example:
        >>> parse_duration("7d"), parse_duration("90"), parse_duration("1.5h")
        (604800.0, 90.0, 5400.0)
    """
    match = _DURATION.fullmatch(text)
    if match is None:
        raise UsageError(
            f"--ttl takes seconds or a duration like 90s, 30m, 12h or 7d, got {text!r}"
        )
    seconds = float(match.group(1)) * _UNITS[match.group(2)]
    if not seconds > 0:
        raise UsageError(f"--ttl must be more than 0 seconds, got {text!r}")
    return seconds


def _location_arguments(
    parser: argparse.ArgumentParser, *, deletes: bool = False, confirm: str = ""
) -> None:
    """--path/--url/--schema and --json (and --yes, for an action that deletes or changes
    files: ``confirm`` is its help)."""
    if deletes or confirm:
        parser.add_argument(
            "--yes", action="store_true", help=confirm or "delete them (required to delete)"
        )
    where = parser.add_argument_group("the cache (give one)")
    where.add_argument("--path", metavar="DIR", help="the directory of StepCache(path=DIR)")
    where.add_argument("--url", metavar="URL", help="the Postgres database of StepCache(url=URL)")
    where.add_argument(
        "--schema",
        metavar="NAME",
        help=f"with --url: the schema of the cache's PostgresStore (default {DEFAULT_SCHEMA})",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def add_arguments(cache: argparse.ArgumentParser) -> None:
    """The actions of ``stepcache cache`` and their options."""
    actions = cache.add_subparsers(dest="action", metavar="ACTION", required=True)
    stats = actions.add_parser(
        "stats",
        help="entries per namespace and tenant, size, hit rate (never writes)",
        description="Entries per tenant and per namespace and tenant, the size of the cache, "
        "and the request counters the store keeps (a Postgres cache counts the decisions of "
        "every process of the fleet: requests, hit rate, tokens used and saved). Never writes.",
    )
    _location_arguments(stats)
    audit = actions.add_parser(
        "audit",
        help="what StepCache(audit=...) found: wrong-answer rate per kind of reuse",
        description="Per task family and kind of reuse (exact, wording, value, rename...), "
        "over every process that audits into this cache: answers audited, agreements, "
        "disagreements, not comparable, shadow audits of suspended kinds, the tokens audits "
        "spent, and the one-sided 95%% Clopper-Pearson upper bound of the wrong-answer rate; "
        "then the kinds of reuse suspended now. --resume KIND --yes lifts a suspension in "
        "every namespace (--namespace: in one). Reads only, without --resume.",
    )
    audit.add_argument("--resume", metavar="KIND", help="lift this kind's suspension (--yes)")
    audit.add_argument("--namespace", metavar="NS", help="with --resume: in this namespace only")
    _location_arguments(audit, confirm="with --resume: lift it (required to change it)")
    purge = actions.add_parser(
        "purge",
        help="delete one tenant's entries (or those without a tenant, or one namespace's)",
        description="Delete the entries of one tenant (--tenant), the entries stored without "
        "a tenant (--no-tenant: never those of any tenant), or those of one namespace as "
        "'stepcache cache stats' lists it (--namespace; with a tenant option: both must "
        "match). Without --yes, says how many entries would be deleted and deletes nothing.",
    )
    who = purge.add_argument_group("which entries")
    who.add_argument("--tenant", metavar="TENANT", help="the entries of this tenant")
    who.add_argument("--no-tenant", action="store_true", help="the entries stored without a tenant")
    who.add_argument("--namespace", metavar="NS", help="the entries of this namespace")
    _location_arguments(purge, deletes=True)
    expire = actions.add_parser(
        "expire",
        help="delete the entries older than a time to live, now",
        description="Delete every entry stored more than --ttl ago, now (a StepCache with "
        "ttl= never serves them and deletes them when met). Without --yes, says how many "
        "entries would be deleted and deletes nothing.",
    )
    expire.add_argument(
        "--ttl", required=True, metavar="DURATION", help="seconds, or 90s, 30m, 12h, 7d"
    )
    _location_arguments(expire, deletes=True)
    check = actions.add_parser(
        "check",
        help="the store's full health check (exit code 1 when a problem is found)",
        description="SQLite: the database's integrity check, every row decoded, the index "
        "files loaded and compared with the entries; a damaged database is reported with how "
        "to recover it (stepcache cache salvage). Postgres: every row decoded, rows "
        "without a vector, the embedder that made the vectors. Never writes. Exit code 0 "
        "when every check passes, 1 when a problem is found.",
    )
    _location_arguments(check)
    salvage = actions.add_parser(
        "salvage",
        help="a damaged SQLite cache: copy every readable entry into a new database",
        description="For a cache whose entry database is damaged (stepcache cache check says "
        "'damaged'): move entries.sqlite aside (kept byte for byte as "
        "entries.sqlite.corrupt-<time>) and copy every row SQLite can still read, one by one, "
        "into a new database; only the rows on damaged pages are lost. The index is rebuilt "
        "from the entries at the next open. Stop every process using the cache first. "
        "Without --yes, says what it would do and changes nothing.",
    )
    _location_arguments(salvage, confirm="salvage it (required)")


def _check_location(args: argparse.Namespace) -> None:
    if args.path is not None and args.url is not None:
        raise UsageError("give either --path (a SQLite cache) or --url (Postgres), not both")
    if args.path is None and args.url is None:
        raise UsageError(
            "name the cache: --path DIR (StepCache(path=DIR)) or --url URL (StepCache(url=URL))"
        )
    if args.path is not None and args.schema is not None:
        raise UsageError("--schema applies to a Postgres cache (--url), not to --path")
    if args.path == "" or args.url == "":
        raise UsageError("--path and --url need a value")


def _selection(args: argparse.Namespace) -> Any:
    from stepcache_integrations.cli.cache_targets import EntryFilter
    from stepcache_integrations.core.stores.base import ANY

    if args.tenant is not None and args.no_tenant:
        raise UsageError("give either --tenant or --no-tenant, not both")
    if args.tenant == "":
        raise UsageError(
            "--tenant needs a name; --no-tenant selects the entries stored without a tenant"
        )
    if args.namespace == "":
        raise UsageError("--namespace needs a name (as 'stepcache cache stats' lists it)")
    if args.tenant is None and not args.no_tenant and args.namespace is None:
        raise UsageError(
            "say which entries to delete: --tenant TENANT, --no-tenant or --namespace NS"
        )
    tenant = None if args.no_tenant else (ANY if args.tenant is None else args.tenant)
    namespace = ANY if args.namespace is None else args.namespace
    return EntryFilter(namespace=namespace, tenant=tenant)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Check the command line, open the cache, do the action; the exit code."""
    name = f"stepcache cache {args.action}"
    try:
        _check_location(args)
        selection = _selection(args) if args.action == "purge" else None
        ttl = parse_duration(args.ttl) if args.action == "expire" else None
    except UsageError as problem:
        return _fail(name, str(problem))
    if args.action == "salvage":
        if args.url is not None:
            return _fail(
                name,
                "salvage repairs a SQLite cache (--path); a Postgres database is restored from "
                "its own backups",
            )
        return _Run(args, name).salvage()
    if args.url is not None:
        require("postgres")
    return _Run(args, name).execute(selection, ttl)


def _fail(name: str, message: str) -> int:
    print(f"{name}: error: {message}", file=sys.stderr)
    return 2


class _Run:
    """One action on one cache: opening, the action, its output, and every error as one
    line (through the password redaction, for a Postgres cache)."""

    def __init__(self, args: argparse.Namespace, name: str) -> None:
        self.args = args
        self.name = name
        self.redact: Callable[[str], str] = lambda text: text
        self.errors: tuple[type[BaseException], ...] = ()

    def emit(self, text: str) -> None:
        print(self.redact(text))

    def fail(self, message: str) -> int:
        return _fail(self.name, self.redact(" ".join(message.split())))

    def execute(self, selection: Any, ttl: float | None) -> int:
        from stepcache_integrations.cli.cache_targets import CacheCommandError
        from stepcache_integrations.core.configuration import ConfigurationError
        from stepcache_integrations.core.stores.base import StoreUnavailable
        from stepcache_integrations.core.stores.errors import CacheFileError, CacheStorageError

        known: tuple[type[BaseException], ...] = (
            CacheCommandError,
            ConfigurationError,
            CacheFileError,
            CacheStorageError,
            StoreUnavailable,
            OSError,
        )
        with self._logging():
            try:
                target = self._open()
            except known + self.errors as error:
                return self.fail(str(error))
            try:
                return self._act(target, selection, ttl)
            except known + self.errors as error:
                return self.fail(str(error))
            finally:
                target.close()

    def salvage(self) -> int:
        """``salvage``: never opens the cache (salvaging a file this process has open would
        release its locks)."""
        from dataclasses import asdict

        from stepcache_integrations.cli.cache_targets import (
            CacheCommandError,
            cache_folder,
            salvage_directory,
        )

        with self._logging():
            try:
                folder = cache_folder(self.args.path)
                if not self.args.yes:
                    return self.fail(
                        f"salvaging {folder} moves its entry database aside (kept as "
                        "entries.sqlite.corrupt-<time>) and copies every readable entry into a "
                        "new one; nothing was changed: stop every process using the cache, then "
                        "add --yes"
                    )
                report = salvage_directory(folder)
            except CacheCommandError as error:
                return self.fail(str(error))
        if self.args.json:
            self.emit(_json(asdict(report)))
        else:
            lost = len(report.unreadable_rowids)
            self.emit(
                f"salvaged {report.path}: {report.recovered:,} rows recovered "
                f"({report.decodable:,} readable entries), {lost:,} rows on damaged pages lost; "
                f"the damaged file is kept at {report.moved_to}"
            )
        return 0

    def _open(self) -> Any:
        args = self.args
        writes = args.action in ("purge", "expire", "audit") and args.yes
        if args.url is not None:
            from stepcache_integrations.cli import cache_postgres

            self.redact = cache_postgres.Redactor(args.url)
            self.errors = cache_postgres.DATABASE_ERRORS
            return cache_postgres.open_database(args.url, args.schema or DEFAULT_SCHEMA)
        from stepcache_integrations.cli.cache_targets import open_directory

        return open_directory(args.path, writable=writes)

    def _act(self, target: Any, selection: Any, ttl: float | None) -> int:
        from stepcache_integrations.cli import cache_report
        from stepcache_integrations.cli.cache_targets import cutoff

        args = self.args
        if args.action == "audit":
            return self._audit(target)
        if args.action == "stats":
            stats = target.stats()
            self.emit(_json(stats.to_dict()) if args.json else cache_report.render_stats(stats))
            return 0
        if args.action == "check":
            report = target.check()
            text = cache_report.render_check(target.location, report)
            self.emit(_json(report) if args.json else text)
            return 0 if report.get("ok") else 1
        if args.action == "purge":
            what = selection.describe()
            count, delete = target.count_matching, target.delete_matching
            chosen: Any = selection
        else:
            assert ttl is not None
            what = f"entries stored more than {args.ttl} ago"
            count, delete = target.count_created_before, target.delete_created_before
            chosen = cutoff(ttl)
        return self._delete(target.location, what, lambda: count(chosen), lambda: delete(chosen))

    def _audit(self, target: Any) -> int:
        from stepcache_integrations.cli import cache_report

        args = self.args
        if args.resume is not None:
            where = f"namespace {args.namespace}" if args.namespace else "every namespace"
            if not args.yes:
                return self.fail(
                    f"would lift the suspension of {args.resume} in {where} of "
                    f"{target.location}; nothing was changed: add --yes"
                )
            lifted = target.resume(args.resume, args.namespace)
            self.emit(f"lifted {lifted} suspension(s) of {args.resume} in {where}")
            return 0
        report = target.audit_report()
        self.emit(_json(report) if args.json else cache_report.render_audit(report))
        return 0

    def _delete(
        self, location: str, what: str, count: Callable[[], int], delete: Callable[[], int]
    ) -> int:
        args = self.args
        if not args.yes:
            found = count()
            if found:
                return self.fail(
                    f"{found:,} {what} in {location} would be deleted; nothing was deleted: "
                    "add --yes to delete them"
                )
            deleted = 0
        else:
            deleted = delete()
        if args.json:
            self.emit(_json({"deleted": deleted, "what": what, "location": location}))
        else:
            self.emit(f"deleted {deleted:,} {what} from {location}")
        return 0

    @contextmanager
    def _logging(self) -> Iterator[None]:
        """Warnings of the stores and of psycopg, one line each on stderr, redacted."""
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.WARNING)
        handler.setFormatter(logging.Formatter(f"{self.name}: warning: %(message)s"))
        handler.addFilter(_RedactingFilter(self))
        loggers = [logging.getLogger(name) for name in ("stepcache_integrations", "psycopg")]
        saved = [logger.propagate for logger in loggers]
        for logger in loggers:
            logger.addHandler(handler)
            logger.propagate = False
        try:
            yield
        finally:
            for logger, propagate in zip(loggers, saved, strict=True):
                logger.removeHandler(handler)
                logger.propagate = propagate


class _RedactingFilter(logging.Filter):
    def __init__(self, run: _Run) -> None:
        super().__init__()
        self.run = run

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = self.run.redact(record.getMessage()), None
        return True


def _json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)


COMMAND = Command(
    name="cache",
    help="inspect and manage a cache: stats, purge a tenant, expire, check",
    description=DESCRIPTION,
    epilog=EPILOG,
    add_arguments=add_arguments,
    run=run,
)
