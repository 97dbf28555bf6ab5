"""What a subcommand of ``stepcache`` is: a name, its help, its arguments and what it runs.

A new subcommand is one module that defines a :class:`Command` and one line in
``stepcache_integrations.cli.app.COMMANDS``. A command's module imports optional
dependencies only inside ``run`` (after ``extras.require``), so ``stepcache --help`` and every
``--help`` work on a plain install.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Command"]


@dataclass(frozen=True)
class Command:
    """One subcommand: ``stepcache NAME ...``.

    ``run`` gets the parsed arguments and the subcommand's parser (for ``parser.error``) and
    returns the exit code.

    Example:
        >>> hello = Command(
        ...     name="hello",
        ...     help="say hello",
        ...     description="Say hello.",
        ...     add_arguments=lambda parser: parser.add_argument("--name", default="world"),
        ...     run=lambda args, parser: print(f"hello {args.name}") or 0,
        ... )
        >>> hello.name
        'hello'
    """

    name: str
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], object]
    run: Callable[[argparse.Namespace, argparse.ArgumentParser], int]
    epilog: str = ""
