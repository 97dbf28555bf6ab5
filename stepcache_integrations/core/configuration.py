"""Configuration errors: an argument of :class:`~stepcache_integrations.StepCache` or of a store
that cannot work, reported by the package before anything deep inside fails on it.

Every check here raises :class:`ConfigurationError`, which names the argument and says what is
wrong with it and what would work. It is a :class:`ValueError`, so code that catches
``ValueError`` keeps working.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection
from pathlib import Path

__all__ = [
    "ConfigurationError",
    "check_choice",
    "check_count",
    "check_path",
    "check_seconds",
]


class ConfigurationError(ValueError):
    """An argument cannot be used: ``argument`` names it, ``problem`` says what is wrong and
    what to pass instead. Raised when the cache or a store is built, never by a request.

    Example:
        >>> error = ConfigurationError("ttl", "must be positive seconds, got -1")
        >>> str(error)
        'ttl: must be positive seconds, got -1'
        >>> isinstance(error, ValueError), error.argument
        (True, 'ttl')
    """

    def __init__(self, argument: str, problem: str) -> None:
        self.argument = argument
        self.problem = problem
        super().__init__(f"{argument}: {problem}")


def check_seconds(
    argument: str, value: object, *, zero: bool = False, most: float | None = None
) -> float:
    """``value`` as a finite number of seconds, more than 0 (or 0 too, with ``zero``), and at
    most ``most`` when given.

    Example:
        >>> check_seconds("ttl", 60)
        60.0
        >>> check_seconds("ttl", "7d")
        Traceback (most recent call last):
        ...
        stepcache_integrations.core.configuration.ConfigurationError: ttl: must be a number \
of seconds, got '7d' (str)
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigurationError(
            argument, f"must be a number of seconds, got {value!r} ({type(value).__name__})"
        )
    seconds = float(value)
    if not math.isfinite(seconds) or seconds < 0 or (seconds == 0 and not zero):
        least = "0 or more" if zero else "more than 0"
        raise ConfigurationError(argument, f"must be finite seconds, {least}, got {value!r}")
    if most is not None and seconds > most:
        raise ConfigurationError(argument, f"must be at most {most:g} seconds, got {value!r}")
    return seconds


def check_count(argument: str, value: object, *, least: int = 1) -> int:
    """``value`` as a whole number of at least ``least`` (``True`` is not a number here).

    Example:
        >>> check_count("max_entries", 1000)
        1000
        >>> check_count("max_entries", -1)
        Traceback (most recent call last):
        ...
        stepcache_integrations.core.configuration.ConfigurationError: max_entries: must be a \
whole number of at least 1, got -1
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigurationError(
            argument, f"must be a whole number of at least {least}, got {value!r}"
        )
    return value


def check_choice(argument: str, value: object, choices: Collection[str]) -> str:
    """``value`` if it is one of ``choices``.

    Example:
        >>> check_choice("durability", "fast", ("full", "normal"))
        Traceback (most recent call last):
        ...
        stepcache_integrations.core.configuration.ConfigurationError: durability: must be \
one of 'full', 'normal', got 'fast'
    """
    if not isinstance(value, str) or value not in choices:
        names = ", ".join(repr(choice) for choice in choices)
        raise ConfigurationError(argument, f"must be one of {names}, got {value!r}")
    return value


def check_path(argument: str, value: object) -> Path:
    """``value`` as a path: a non-empty string or ``os.PathLike``.

    An empty string is refused rather than read as the current directory (it is usually an
    unset variable).

    Example:
        >>> check_path("path", "")
        Traceback (most recent call last):
        ...
        stepcache_integrations.core.configuration.ConfigurationError: path: is empty (an unset \
variable?); give a path ('.' for the current directory)
    """
    if not isinstance(value, str | os.PathLike):
        raise ConfigurationError(
            argument, f"must be a str or os.PathLike path, got {type(value).__name__}"
        )
    text = os.fspath(value)
    if not isinstance(text, str):
        raise ConfigurationError(argument, f"must be a text path, got {type(text).__name__}")
    if not text.strip():
        raise ConfigurationError(
            argument, "is empty (an unset variable?); give a path ('.' for the current directory)"
        )
    if "\x00" in text:
        raise ConfigurationError(argument, f"contains a NUL character: {text!r}")
    return Path(text)
