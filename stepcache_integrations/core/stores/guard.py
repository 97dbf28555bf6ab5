"""Fail open: a store that is down, slow or failing never takes the application down.

:class:`StoreGuard` is how the request path calls a store. A failing lookup becomes
:class:`~stepcache_integrations.core.stores.base.StoreUnavailable` (the request is answered by
the model, decision ``bypass``); a failing write or last-use update is logged and dropped (the
answer is served uncached). One warning is logged per outage, and one line when the store
answers again; the store itself reconnects (a pool, a reopened file), the guard only observes.
An error already warned about by the other kind of call (a damaged file refuses lookups and
writes alike, with the same error) is not warned about twice.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from stepcache_integrations.core.configuration import check_seconds
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.stores.base import CacheStore, PromptLookup, StoreUnavailable

__all__ = ["DEFAULT_LOOKUP_BUDGET", "StoreGuard"]

logger = logging.getLogger(__name__)

DEFAULT_LOOKUP_BUDGET = 0.05
"""Seconds a lookup of a store that declares no budget may take before it is reported slow."""

T = TypeVar("T")


class StoreGuard:
    """Calls ``store`` on behalf of the request path; never lets a store error escape a write,
    and turns a failed lookup into :class:`StoreUnavailable`.

    ``lookup_budget`` (seconds) is what a lookup may take before it counts as slow: a store
    that takes longer is reported (once per episode) so an operator sees it. By default it is
    the budget the store declares and enforces (``capabilities.lookup_budget``: a statement
    timeout, a lock timeout), else :data:`DEFAULT_LOOKUP_BUDGET`.

    Example:
        >>> from stepcache_integrations.core.stores.local import MemoryStore
        >>> guard = StoreGuard(MemoryStore())
        >>> guard.exact("no-such-key") is None
        True
        >>> guard.outage is None
        True
    """

    def __init__(self, store: CacheStore, *, lookup_budget: float | None = None) -> None:
        if lookup_budget is None:
            lookup_budget = store.capabilities.lookup_budget or DEFAULT_LOOKUP_BUDGET
        lookup_budget = check_seconds("lookup_budget", lookup_budget)
        self.store = store
        # Declared in the capabilities: a store without a prompt index costs no call per request.
        self._prompt_lookup: PromptLookup | None = None
        if store.capabilities.prompt_lookup and isinstance(store, PromptLookup):
            self._prompt_lookup = store
        self.lookup_budget = lookup_budget
        self._lock = threading.Lock()
        self._outage: str | None = None
        self._slow = False
        self._write_failure: str | None = None
        self._warned: str | None = None  # the error of the episodes under way, once warned
        self.failures = 0

    @property
    def outage(self) -> str | None:
        """Why the store failed its last lookup, or ``None`` when it answers."""
        return self._outage

    def _name(self) -> str:
        return self.store.capabilities.name

    def _first_warning(self, error: Exception) -> bool:
        """Whether a new episode's ``error`` is worth a warning: not when the other kind of
        call's episode already warned about the very same error (under the lock)."""
        described = f"{type(error).__name__}: {error}"
        if described == self._warned:
            return False
        self._warned = described
        return True

    def _forget_warning(self) -> None:
        """Once neither kind of call fails, a later error is news again (under the lock)."""
        if self._outage is None and self._write_failure is None:
            self._warned = None

    # -- lookups: an error means "answer with the model" ------------------------------------------

    def _lookup(self, what: str, call: Callable[[], T], *, proves_recovery: bool = True) -> T:
        started = time.perf_counter()
        try:
            result = call()
        except Exception as error:
            reason = f"{self._name()} store {what} failed: {type(error).__name__}: {error}"
            with self._lock:
                self.failures += 1
                first = self._outage is None and self._first_warning(error)
                self._outage = reason
            if first:
                logger.warning("%s; requests are answered by the model until it recovers", reason)
            raise StoreUnavailable(reason) from error
        elapsed = time.perf_counter() - started
        slow_now = elapsed > self.lookup_budget
        # The common case changes nothing (no outage to end, no slowness to report or clear):
        # no lock. A race here can only delay clearing a state to the next lookup.
        if slow_now is self._slow and (not proves_recovery or self._outage is None):
            return result
        with self._lock:
            recovered = None
            if proves_recovery:
                recovered, self._outage = self._outage, None
                self._forget_warning()
            report_slow = slow_now and not self._slow
            self._slow = slow_now
        if recovered is not None:
            logger.warning("%s store answers again (after: %s)", self._name(), recovered)
        if report_slow:
            logger.warning(
                "%s store %s took %.0f ms (lookup budget %.0f ms)",
                self._name(),
                what,
                elapsed * 1000,
                self.lookup_budget * 1000,
            )
        return result

    def exact(self, key: str) -> CacheEntry | None:
        """The entry stored under ``key`` (raises :class:`StoreUnavailable`)."""
        return self._lookup("exact lookup", lambda: self.store.get_by_key(key))

    def exact_prompt(self, namespace: str, prompt: str) -> CacheEntry | None:
        """The entry stored for exactly this prompt text, where the store declares it finds one
        by its text (``capabilities.prompt_lookup``); ``None`` otherwise (raises
        :class:`StoreUnavailable`)."""
        lookup = self._prompt_lookup
        if lookup is None:
            return None
        # A store may answer this from memory while its files or server are gone: only the
        # lookups that read them say the store is back (no warning flapping per request).
        return self._lookup(
            "exact lookup",
            lambda: lookup.get_by_prompt(namespace, prompt),
            proves_recovery=False,
        )

    def nearest(self, text: str, namespace: str, k: int) -> list[tuple[CacheEntry, float]]:
        """Up to ``k`` nearest entries (raises :class:`StoreUnavailable`)."""
        return self._lookup("nearest lookup", lambda: self.store.nearest(text, namespace, k))

    # -- writes: an error means "serve uncached" ---------------------------------------------------

    def write(self, what: str, call: Callable[[], object], *, proves_recovery: bool = True) -> bool:
        """Run a write; ``False`` (logged once per episode) when it fails. A success ends the
        episode only with ``proves_recovery`` (a buffered write succeeds without the disk)."""
        try:
            call()
        except Exception as error:
            reason = f"{type(error).__name__}: {error}"
            with self._lock:
                self.failures += 1
                first = self._write_failure is None and self._first_warning(error)
                self._write_failure = reason
            if first:
                logger.warning(
                    "%s store: %s failed (%s); answers are served uncached until it works",
                    self._name(),
                    what,
                    reason,
                )
            return False
        if not proves_recovery:
            return True
        with self._lock:
            recovered, self._write_failure = self._write_failure, None
            self._forget_warning()
        if recovered is not None:
            logger.warning("%s store: writes work again (after: %s)", self._name(), recovered)
        return True

    def put(self, entry: CacheEntry) -> bool:
        return self.write("storing an entry", lambda: self.store.put(entry))

    def touch(self, entry_id: str, now: float) -> None:
        # A lost last-use time only ages an entry's LRU rank: never worth a failed request.
        # Stores buffer uses, so a use recorded while writes fail says nothing about the disk.
        self.write(
            "recording a use", lambda: self.store.touch(entry_id, now), proves_recovery=False
        )

    def delete(self, entry_ids: list[str]) -> None:
        self.write("deleting an expired entry", lambda: self.store.delete(entry_ids))
