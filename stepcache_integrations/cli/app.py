"""``stepcache``: the command line. ``main`` parses the arguments and dispatches to a subcommand.

Every failure a user can fix ends in one line on stderr that says what to do, with exit code
2: a missing optional dependency names the extra that installs it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from stepcache_integrations.cli import bench, cache
from stepcache_integrations.cli.command import Command
from stepcache_integrations.cli.extras import EXTRAS, MissingExtra

__all__ = ["COMMANDS", "build_parser", "main"]

# The subcommands, in the order ``stepcache --help`` lists them.
COMMANDS: tuple[Command, ...] = (bench.COMMAND, cache.COMMAND)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``stepcache`` with every subcommand of ``COMMANDS``."""
    parser = argparse.ArgumentParser(
        prog="stepcache",
        description="StepCache tools: a step-level answer cache for LangChain and LlamaIndex.",
        epilog="Run 'stepcache COMMAND --help' for the options of a command.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.description,
            epilog=command.epilog or None,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.add_arguments(sub)
        sub.set_defaults(_command=command, _parser=sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``stepcache`` script; returns the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(arguments)
    args.argv = arguments  # the command line as given, for reports that record it
    command: Command = args._command
    try:
        return command.run(args, args._parser)
    except MissingExtra as exc:
        return _fail(command, str(exc))
    except ModuleNotFoundError as exc:
        # An optional module imported on a path no ``require`` call foresaw: still one line.
        return _fail(command, _missing_module(exc.name or str(exc)))


def _fail(command: Command, message: str) -> int:
    print(f"stepcache {command.name}: error: {message}", file=sys.stderr)
    return 2


def _missing_module(name: str) -> str:
    top = name.split(".")[0]
    for extra, modules in EXTRAS.items():
        if top in modules:
            return str(MissingExtra(extra, [top]))
    return f"the module {top} is not installed, though the package needs it: pip install -e ."
