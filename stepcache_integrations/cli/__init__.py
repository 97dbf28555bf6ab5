"""The ``stepcache`` command line.

``stepcache bench`` runs the benchmark. Each subcommand is one module of this package
(see :class:`~stepcache_integrations.cli.command.Command`); ``main`` dispatches to it.

Example:
    >>> from stepcache_integrations.cli import build_parser
    >>> build_parser().parse_args(["bench", "--backend", "simulated"]).backend
    'simulated'
"""

from stepcache_integrations.cli.app import build_parser, main

__all__ = ["build_parser", "main"]
