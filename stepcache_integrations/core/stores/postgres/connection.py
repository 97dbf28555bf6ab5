"""Connections to a cache database: one pool per store, time budgets enforced by the server,
and a database that is down at start-up prepared later, in the background.

Three kinds of work, three time limits:

- lookups run on the pool's connections as they are, whose ``statement_timeout`` is the lookup
  budget (the server cancels a slow lookup), and wait at most the budget for a connection;
- writes (storing an entry, last-use times, counters) run in a transaction with
  ``SET LOCAL statement_timeout`` to the write timeout; the best-effort ones of the request path
  (last-use times, counters) wait at most the lookup budget for a connection;
- maintenance (deletions, clear, checks, re-embedding) runs without a statement time limit.

When the database cannot be reached, every call fails at once with
:class:`~stepcache_integrations.core.stores.base.StoreUnavailable` (the request path then asks
the model: fail open) and the store keeps trying to reach it in a background thread.

**Reconnecting never runs on a request.** A request never tests or opens a connection itself:
it takes an idle one, or waits at most its budget for one. After a database restart every
pooled connection is broken; the first call that meets one fails at once (the request is
answered by the model), and a background thread then tests every idle connection and has the
pool replace the broken ones, so later calls do not meet them one by one. (Testing each
connection before use, psycopg_pool's ``check``, costs a round trip per lookup, and after a
restart it met the broken connections one after another, with a back-off sleep between them:
the first requests after a restart took 0.6 to 1.2 s against a 50 ms budget.) TCP keepalives
and ``tcp_user_timeout`` make a connection whose server vanished without closing it (a host
crash, a network cut) fail within seconds instead of the system's minutes.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool

from stepcache_integrations.core.configuration import (
    ConfigurationError,
    check_count,
    check_seconds,
)
from stepcache_integrations.core.stores.base import StoreUnavailable

__all__ = ["PoolSettings", "ReadyPool", "check_url", "redact_url"]

logger = logging.getLogger(__name__)

Connection = psycopg.Connection[Any]


def redact_url(url: str) -> str:
    """The URL without its password (for logs, ``stats()`` and errors).

    Example:
        >>> redact_url("postgresql://app:secret@db:5432/cache")
        'postgresql://app:***@db:5432/cache'
        >>> redact_url("host=db password=secret dbname=cache")
        'host=db password=*** dbname=cache'
        >>> redact_url("postgresql://app@db/cache?sslmode=require&password=secret")
        'postgresql://app@db/cache?sslmode=require&password=***'
    """
    if "://" not in url:
        return " ".join(
            "password=***" if part.startswith("password=") else part for part in url.split()
        )
    parts = urlsplit(url)
    if parts.password is not None:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        parts = parts._replace(netloc=netloc)
    if parts.query:
        # libpq also takes the password as a query parameter.
        query = "&".join(
            "password=***" if item.split("=", 1)[0].lower() == "password" else item
            for item in parts.query.split("&")
        )
        parts = parts._replace(query=query)
    return urlunsplit(parts)


_URL_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_POSTGRES_SCHEMES = ("postgresql", "postgres")
_URL_EXAMPLE = "postgresql://user:password@host:5432/dbname"
# A password typed in a string libpq cannot parse is still a password: never echo it.
_SECRET_IN_TEXT = re.compile(r"(:)[^:@/\s]+(@)|(password\s*=\s*)\S+", re.IGNORECASE)


def _mask(text: str) -> str:
    return _SECRET_IN_TEXT.sub(
        lambda m: f"{m.group(3)}***" if m.group(3) else f"{m.group(1)}***{m.group(2)}", text
    )


def check_url(url: object) -> str:
    """``url`` if libpq can use it to connect: a ``postgresql://`` (or ``postgres://``) URL or a
    ``key=value`` connection string; a :class:`ConfigurationError` naming ``url`` otherwise.

    A database that cannot be reached is not checked here: it is an outage (requests are
    answered by the model until it answers), not a configuration error. The password never
    appears in an error.

    Example:
        >>> check_url("postgresql://app:secret@db/cache")
        'postgresql://app:secret@db/cache'
        >>> check_url("mysql://app:secret@db/cache")
        Traceback (most recent call last):
        ...
        stepcache_integrations.core.configuration.ConfigurationError: url: 'mysql://app:***@db/\
cache' uses the mysql:// scheme; a Postgres URL starts with postgresql:// or postgres://, \
like postgresql://user:password@host:5432/dbname
    """
    if not isinstance(url, str):
        raise ConfigurationError(
            "url",
            f"must be a string (a Postgres URL like {_URL_EXAMPLE}), got {type(url).__name__}",
        )
    if not url.strip():
        raise ConfigurationError(
            "url",
            f"is empty (an unset variable?); give a Postgres URL like {_URL_EXAMPLE}",
        )
    shown = _mask(url)
    scheme = _URL_SCHEME.match(url.strip())
    if scheme is not None and scheme.group(1).lower() not in _POSTGRES_SCHEMES:
        raise ConfigurationError(
            "url",
            f"{shown!r} uses the {scheme.group(1)}:// scheme; a Postgres URL starts with "
            f"postgresql:// or postgres://, like {_URL_EXAMPLE}",
        )
    try:
        params = conninfo_to_dict(url)
    except psycopg.ProgrammingError as error:
        problem = _mask(str(error).strip()).replace(url, shown)
        raise ConfigurationError(
            "url",
            f"{shown!r} is neither a Postgres URL nor a libpq connection string ({problem}); "
            f"give a URL like {_URL_EXAMPLE}",
        ) from None
    for port in str(params.get("port") or "").split(","):
        if port and not (port.isdigit() and 0 < int(port) < 65536):
            raise ConfigurationError(
                "url", f"{shown!r} has the port {port!r}; a port is a number from 1 to 65535"
            )
    return url


@dataclass(frozen=True)
class PoolSettings:
    """How a store connects.

    Attributes:
        min_size: connections kept open per process (``None``: ``max_size``, so a burst of
            requests never waits for a connection to be opened).
        max_size: connections at most per process (size it to the threads that serve requests
            at once; see ``docs/deployment.md``).
        lookup_budget: seconds a lookup may take, waiting for a connection included.
        write_timeout: seconds a write may take on the server.
        connect_timeout: seconds to open one connection (libpq's minimum is 2); also how long
            sent data may stay unacknowledged before a connection counts as broken
            (``tcp_user_timeout``).
        check_connections: once a call meets a broken connection (a database restart), test
            every idle connection in the background and replace the broken ones. Calls never
            test a connection themselves (a round trip per lookup; after a restart, a wait).
        retry_interval: seconds between attempts to reach a database that was down at start.

    Example:
        >>> settings = PoolSettings(max_size=8)
        >>> settings.kept_open, settings.lookup_budget
        (8, 0.05)
    """

    min_size: int | None = None
    max_size: int = 4
    lookup_budget: float = 0.05
    write_timeout: float = 2.0
    connect_timeout: float = 5.0
    check_connections: bool = True
    retry_interval: float = 1.0

    def __post_init__(self) -> None:
        check_count("max_size", self.max_size)
        if self.min_size is not None:
            check_count("min_size", self.min_size, least=0)
        if self.kept_open > self.max_size:
            raise ConfigurationError(
                "min_size", f"must be at most max_size ({self.max_size}), got {self.min_size}"
            )
        for name in ("lookup_budget", "write_timeout", "connect_timeout", "retry_interval"):
            # Milliseconds of a Postgres setting are a 32-bit integer.
            check_seconds(name, getattr(self, name), most=_MAX_SECONDS)

    @property
    def kept_open(self) -> int:
        """Connections kept open per process: ``min_size``, or ``max_size`` when it is unset."""
        return self.max_size if self.min_size is None else self.min_size


_MAX_SECONDS = 2_000_000.0


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


class ReadyPool:
    """A connection pool that exists once the database has been prepared.

    ``prepare(conn)`` runs on a fresh connection (autocommit) before the pool opens: it creates
    or checks the tables. It may raise :class:`~.schema.PostgresSchemaError` (a configuration
    error, raised to the caller at start-up) or a connection error (an outage: retried in the
    background). ``configure(conn)`` adapts each new pooled connection.
    """

    def __init__(
        self,
        url: str,
        settings: PoolSettings,
        *,
        prepare: Callable[[Connection], None],
        configure: Callable[[Connection], None] | None = None,
        name: str = "stepcache",
    ) -> None:
        self.url = check_url(url)
        self.location = redact_url(url)
        self.settings = settings
        self.name = name
        self._prepare_hook = prepare
        self._configure_hook = configure
        self._lock = threading.Lock()
        self._pool: ConnectionPool[Connection] | None = None
        self._problem: str | None = None
        self._retrying: threading.Thread | None = None
        self._purging = False
        self._closed = threading.Event()

    # -- readiness -----------------------------------------------------------------------------

    def start(self) -> None:
        """Prepare the database and open the pool; a database that cannot be reached is
        logged and tried again in the background (every call fails open until then)."""
        try:
            self._prepare()
        except psycopg.OperationalError as error:
            self._down(error)

    def _connection_options(self) -> dict[str, Any]:
        """What every connection is opened with. The TCP options bound how long a connection
        whose server vanished without closing it (host crash, network cut) looks alive; libpq
        ignores them on a Unix socket."""
        seconds = max(2, round(self.settings.connect_timeout))
        return {
            "autocommit": True,
            "connect_timeout": seconds,
            "keepalives": 1,
            "keepalives_idle": seconds,
            "keepalives_interval": 1,
            "keepalives_count": 3,
            "tcp_user_timeout": seconds * 1000,
        }

    def _connect(self) -> Connection:
        return psycopg.connect(self.url, **self._connection_options())

    def _prepare(self) -> None:
        with self._connect() as conn:
            self._prepare_hook(conn)
        pool: ConnectionPool[Connection] = ConnectionPool(
            self.url,
            min_size=self.settings.kept_open,
            max_size=self.settings.max_size,
            kwargs=self._connection_options(),
            configure=self._configure,
            # No test on each use: it runs on the request and, after a restart, meets the
            # broken connections one by one (see the module docstring).
            check=None,
            name=self.name,
            open=False,
            reconnect_timeout=60.0,
            reconnect_failed=self._reconnect_failed,
        )
        try:
            # The first connections are ready before the store is used: a lookup never waits
            # for a connection being made (it would exceed its budget and bypass).
            pool.open(wait=True, timeout=self.settings.connect_timeout)
        except BaseException:
            pool.close()
            raise
        with self._lock:
            self._pool, self._problem = pool, None

    def _configure(self, conn: Connection) -> None:
        conn.execute(f"SET statement_timeout = {_ms(self.settings.lookup_budget)}")
        if self._configure_hook is not None:
            self._configure_hook(conn)

    def _reconnect_failed(self, pool: ConnectionPool[Connection]) -> None:
        logger.info("%s: cannot reconnect to %s; still trying", pool.name, self.location)

    def _down(self, error: Exception) -> None:
        problem = f"{self.location} is unreachable: {type(error).__name__}: {error}".strip()
        with self._lock:
            self._problem = problem
            if self._retrying is None and not self._closed.is_set():
                # INFO: the request path's guard already warns once per outage.
                logger.info("%s; retrying in the background", problem)
                self._retrying = threading.Thread(
                    target=self._retry, name=f"{self.name}-connect", daemon=True
                )
                self._retrying.start()

    def _retry(self) -> None:
        delay = self.settings.retry_interval
        while not self._closed.wait(delay):
            try:
                self._prepare()
            except psycopg.OperationalError as error:
                with self._lock:
                    self._problem = f"{self.location} is unreachable: {error}".strip()
                delay = min(delay * 2, 30.0)
                continue
            except Exception as error:  # a schema problem: nothing to retry
                with self._lock:
                    self._problem = f"{self.location} cannot be used: {error}"
                logger.error("%s", self._problem)
                break
            logger.info("%s answers: the cache is in use again", self.location)
            break
        with self._lock:
            self._retrying = None

    @property
    def ready(self) -> bool:
        return self._pool is not None

    @property
    def problem(self) -> str | None:
        """Why the store cannot be used yet, or ``None``."""
        return self._problem

    def pool(self) -> ConnectionPool[Connection]:
        if self._closed.is_set():
            raise RuntimeError(f"the Postgres store at {self.location} is closed")
        pool = self._pool
        if pool is None:
            raise StoreUnavailable(self._problem or f"{self.location} is not ready")
        return pool

    def wait_ready(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the database to be prepared (for tools)."""
        deadline = time.monotonic() + timeout
        while self._pool is None and time.monotonic() < deadline and not self._closed.is_set():
            time.sleep(0.05)
        return self._pool is not None

    # -- connections -----------------------------------------------------------------------------

    @contextmanager
    def _connection(self, wait: float) -> Iterator[Connection]:
        """An idle pooled connection, waited for at most ``wait`` seconds. A connection found
        broken goes back to the pool (which drops it) and has every idle one tested in the
        background."""
        pool = self.pool()
        with pool.connection(timeout=wait) as conn:
            try:
                yield conn
            except BaseException:
                if conn.broken:
                    self._replace_broken(pool)
                raise

    def _replace_broken(self, pool: ConnectionPool[Connection]) -> None:
        if not self.settings.check_connections:
            return
        with self._lock:
            if self._purging or self._closed.is_set():
                return
            self._purging = True
        threading.Thread(
            target=self._purge, args=(pool,), name=f"{self.name}-check", daemon=True
        ).start()

    def _purge(self, pool: ConnectionPool[Connection]) -> None:
        try:
            # Takes the idle connections out while it tests them: meanwhile a call waits
            # (at most its budget) for a connection the pool opens in its own threads.
            pool.check()
        except Exception as error:  # a pool closed meanwhile: nothing left to replace
            logger.info("%s: testing idle connections failed: %r", self.location, error)
        finally:
            with self._lock:
                self._purging = False

    @contextmanager
    def lookup(self) -> Iterator[Connection]:
        """A connection for one lookup: waits at most the budget; statements past the budget
        are cancelled by the server."""
        with self._connection(self.settings.lookup_budget) as conn:
            yield conn

    @contextmanager
    def write(self, *, best_effort: bool = False) -> Iterator[Connection]:
        """A transaction with the write timeout (committed when the block ends). A
        ``best_effort`` write of the request path (last-use times, counters: kept for later
        when it fails) waits at most the lookup budget for a connection, not the write
        timeout."""
        wait = self.settings.lookup_budget if best_effort else self.settings.write_timeout
        with self._connection(wait) as conn, conn.transaction():
            conn.execute(f"SET LOCAL statement_timeout = {_ms(self.settings.write_timeout)}")
            yield conn

    @contextmanager
    def maintenance(self) -> Iterator[Connection]:
        """A transaction without statement time limit (deletions, checks, re-embedding)."""
        with self._connection(self.settings.connect_timeout) as conn, conn.transaction():
            conn.execute("SET LOCAL statement_timeout = 0")
            yield conn

    def stats(self) -> dict[str, Any]:
        pool = self._pool
        if pool is None:
            return {"ready": False, "problem": self._problem}
        raw = pool.get_stats()
        keep = ("pool_min", "pool_max", "pool_size", "pool_available", "requests_waiting")
        # ``replacing_broken``: idle connections are being tested after one was found broken.
        kept = {key: raw[key] for key in keep if key in raw}
        return {"ready": True, **kept, "replacing_broken": self._purging}

    def close(self) -> None:
        """Close the pool and stop trying to connect (idempotent)."""
        self._closed.set()
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()
