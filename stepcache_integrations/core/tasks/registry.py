"""The task-family registry: the one place the request path learns what a request is."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from stepcache_integrations.core.tasks.base import TaskFamily

__all__ = ["Recognition", "TaskRegistry"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Recognition:
    """The families that recognise one request, primary first.

    ``key`` names the combination ("json", "json+linear_equation"; ``None`` for a request no
    family recognises); it is stored with each entry, and an entry is only reused for a request
    with the same key.
    """

    families: tuple[TaskFamily, ...]

    @property
    def key(self) -> str | None:
        return "+".join(sorted(family.name for family in self.families)) or None

    @property
    def primary(self) -> TaskFamily | None:
        return self.families[0] if self.families else None

    def __bool__(self) -> bool:
        return bool(self.families)


class TaskRegistry:
    """Task families, by name. Thread-safe; a family raising in ``recognises`` is logged and
    treated as not recognising the request (when unsure, the cache calls the model).

    Example:
        >>> from stepcache_integrations.core.tasks import default_registry
        >>> registry = default_registry()
        >>> registry.recognise("Solve 3x + 5 = 20 for x.", {}).key
        'linear_equation'
        >>> registry.recognise("Tell me a joke", {}).key is None
        True
    """

    def __init__(self, families: Iterable[TaskFamily] = ()) -> None:
        self._lock = threading.Lock()
        self._families: dict[str, TaskFamily] = {}
        for family in families:
            self.register(family)

    def register(self, family: TaskFamily) -> None:
        """Add ``family``; a name already registered raises ``ValueError``."""
        if not isinstance(family, TaskFamily):
            raise TypeError(f"expected a TaskFamily, got {type(family).__name__}")
        if not isinstance(family.name, str) or not family.name or "+" in family.name:
            raise ValueError(f"a family name must be a non-empty string without '+': {family!r}")
        with self._lock:
            if family.name in self._families:
                raise ValueError(f"a task family named {family.name!r} is already registered")
            self._families[family.name] = family

    def unregister(self, name: str) -> TaskFamily:
        """Remove and return the family named ``name`` (``KeyError`` if there is none)."""
        with self._lock:
            return self._families.pop(name)

    def __iter__(self) -> Iterator[TaskFamily]:
        with self._lock:
            return iter(sorted(self._families.values(), key=lambda f: (f.priority, f.name)))

    def __len__(self) -> int:
        with self._lock:
            return len(self._families)

    def __contains__(self, name: object) -> bool:
        with self._lock:
            return name in self._families

    def get(self, name: str) -> TaskFamily | None:
        with self._lock:
            return self._families.get(name)

    def recognise(self, request: str, options: Mapping[str, Any]) -> Recognition:
        """Every family that recognises ``request``, primary (lowest priority) first; an
        exclusive family that recognises it is the only one."""
        found = []
        for family in self:
            try:
                if family.recognises(request, options) is True:
                    found.append(family)
            except Exception as error:
                logger.warning("task family %s raised in recognises: %r", family.name, error)
        exclusive = [family for family in found if family.exclusive]
        return Recognition(tuple(exclusive[:1] or found))
