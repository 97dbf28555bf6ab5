"""``stepcache bench`` at work: the progress bar, the summary table and the reports.

Imported by ``cli.bench`` once the ``bench`` extra (rich, matplotlib) is known to be installed.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import openai
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
from rich.text import Text

from stepcache_integrations.bench.backends import Backend, BackendName, open_backend
from stepcache_integrations.bench.local_server import LOG_NAME, LocalServerError
from stepcache_integrations.bench.modes import ModeName, peer_names
from stepcache_integrations.bench.overhead import (
    measure_overhead,
    overhead_location,
    render_overhead,
    write_overhead,
)
from stepcache_integrations.bench.peers import PeerName
from stepcache_integrations.bench.plots import PLOT_FILES
from stepcache_integrations.bench.report import (
    SMOKE_NOTE,
    RunInfo,
    load_raw,
    machine_info,
    run_title,
    save_raw,
    table_rows,
    write_reports,
)
from stepcache_integrations.bench.runner import (
    ModeRun,
    RequestResult,
    prefix_reset,
    run_interleaved,
    run_mode,
)
from stepcache_integrations.bench.workload import Workload, build_workload

__all__ = ["WrongSoFar", "execute", "print_summary"]

# What a model call that times out most often means on the local backend. Seen here: while a
# test suite ran beside the benchmark, one 78-token prompt got no answer within the client's
# 300 s (llama.cpp's threads wait on each other when other processes take their cores). A
# server that died is reported by the backend itself (``LocalServerError``: signal, log, fix).
SLOW_SERVER_HINT = (
    "the llama.cpp server is still running but did not answer in time: run the benchmark on "
    "an otherwise idle machine (llama.cpp slows down sharply when other processes use its "
    "cores)"
)


def execute(args: argparse.Namespace, modes: tuple[ModeName, ...]) -> int:
    """Run what ``args`` ask for (benchmark, ``--overhead`` or ``--rebuild``); the exit code."""
    # Wide enough for the summary table when the output is a file or a pipe (nohup, CI).
    console = Console() if sys.stdout.isatty() else Console(width=140)
    out: Path = args.out or Path("bench-results") / ("overhead" if args.overhead else args.backend)
    command = shlex.join(["stepcache", *args.argv])
    run_started = time.time()
    try:
        if args.overhead:
            _overhead(args, out, console, peer_names(modes))
        elif args.rebuild:
            info, runs = load_raw(out)
            results = write_reports(info, runs, out, overhead=_existing_overhead(out))
            print_summary(results, console)
        else:
            _bench(args, modes, out, command, console)
    except KeyboardInterrupt:
        print("stepcache bench: interrupted: the unfinished run wrote nothing", file=sys.stderr)
        return 130
    except (LocalServerError, ValueError, OSError) as exc:
        print(f"stepcache bench: error: {exc}{_kept(out, run_started)}", file=sys.stderr)
        return 2
    except openai.APIError as exc:  # the model's endpoint: a timeout, a refused connection
        line = _model_failure_line(exc, args.backend, out, run_started)
        print(f"stepcache bench: error: {line}", file=sys.stderr)
        return 2
    return 0


def _kept(out: Path, run_started: float) -> str:
    """What a run that stopped kept: the checkpoint it wrote, if it wrote one (never a
    ``raw.json`` left in the folder by an earlier run)."""
    raw = out / "raw.json"
    if raw.is_file() and raw.stat().st_mtime >= run_started:
        return f"; the seeds finished before it are in {raw}"
    return ""


def _model_failure_line(exc: openai.APIError, backend: str, out: Path, run_started: float) -> str:
    line = f"the model call failed ({exc})"
    line += _kept(out, run_started) or "; no seed had finished, so the run wrote nothing"
    log = out / LOG_NAME
    if backend == "local" and isinstance(exc, openai.APITimeoutError):
        line += f"; {SLOW_SERVER_HINT}"
    if backend == "local" and log.is_file():
        line += f"; the server's log: {log}"
    return line


def _overhead(
    args: argparse.Namespace, out: Path, console: Console, peers: tuple[PeerName, ...]
) -> None:
    with Progress(
        TextColumn("inserting entries: {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("StepCache", total=args.entries)
        with overhead_location(args.store, args.url) as location:
            result = measure_overhead(
                args.entries,
                probes=args.probes,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
                store=args.store,
                location=location,
                peers=peers,
                stage=lambda text: progress.update(task, description=text, completed=0),
            )
    modes = ",".join(("stepcache", *peers))
    result["command"] = shlex.join(["stepcache", "bench", "--overhead", "--store", args.store,
                                    "--entries", str(args.entries), "--modes", modes,
                                    "--out", str(out)])  # fmt: skip
    path = write_overhead(result, out)
    console.print(render_overhead(result), markup=False, highlight=False)
    console.print(f"wrote {path}", markup=False)


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
    if args.quick:
        console.print(Text(SMOKE_NOTE, style="yellow"))
    load_start = os.getloadavg()
    started = time.perf_counter()
    with open_backend(
        backend_name,
        out_dir=out,
        base_url=args.base_url,
        model=args.model,
        api_key_env=args.api_key_env,
        latency_scale=args.latency_scale,
    ) as backend:
        if backend.startup_s is not None:
            ready = f"{backend.label}: server ready in {backend.startup_s:.2f} s"
            console.print(ready, markup=False)
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
    print_summary(results, console)
    written = ", ".join(["results.json", "results.md", "requests.jsonl", "raw.json", *PLOT_FILES])
    console.print(f"wrote {out}/: {written}", markup=False)


class WrongSoFar:
    """Per mode, the answers that failed the task check so far (and how many of those the
    mode flagged itself): what the progress bar shows while the benchmark runs.

    Example:
        >>> wrong = WrongSoFar(("no_cache", "stepcache"))
        >>> wrong.text()
        'wrong so far: no_cache 0, stepcache 0'
    """

    def __init__(self, modes: tuple[ModeName, ...]) -> None:
        self.wrong = dict.fromkeys(modes, 0)
        self.flagged = dict.fromkeys(modes, 0)

    def add(self, mode: ModeName, result: RequestResult | None) -> None:
        """Count one served request (``None``: a warm-up request, never judged)."""
        if result is None or result.task_correct:
            return
        self.wrong[mode] = self.wrong.get(mode, 0) + 1
        if result.flagged:
            self.flagged[mode] = self.flagged.get(mode, 0) + 1

    def text(self) -> str:
        """``wrong so far: MODE N, ...``; flagged answers are named beside their mode."""
        parts = []
        for mode, wrong in self.wrong.items():
            flagged = self.flagged.get(mode, 0)
            parts.append(f"{mode} {wrong}" + (f" ({flagged} flagged)" if flagged else ""))
        return "wrong so far: " + ", ".join(parts)


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
    wrong = WrongSoFar(modes)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(bar_width=24),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[wrong]}"),
        console=console,
    ) as progress:
        task = progress.add_task("starting", total=total, wrong=wrong.text())

        def advance(mode: ModeName, result: RequestResult | None) -> None:
            wrong.add(mode, result)
            progress.update(task, advance=1, wrong=wrong.text())

        between = prefix_reset(backend) if reset else None
        for workload in workloads:
            if order == "interleaved":
                progress.update(task, description=f"seed {workload.seed}")
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
                progress.update(task, description=f"seed {workload.seed} {mode}")
                runs.append(
                    run_mode(mode, backend, workload, max_tokens=max_tokens, progress=advance)
                )
                save_raw(out, runs)
    return runs


def print_summary(results: dict[str, Any], console: Console) -> None:
    """The all-modes table, then the targets with limit and measured value (a smoke run: the
    smoke-test note instead of verdicts)."""
    seeds = ", ".join(map(str, results["seeds"]))
    table = Table(title=f"{run_title(results)}: means over seeds {seeds} (± std)")
    table.add_column("Metric")
    for mode in results["modes"]:
        table.add_column(mode["mode"], justify="right")
    for label, cells in table_rows(results["modes"]):
        table.add_row(label, *cells)
    console.print(table)
    targets = results["targets"]
    if results.get("quick"):
        console.print(Text(SMOKE_NOTE, style="yellow"))
        return
    console.print(Text(f"Targets (StepCache vs no cache): {targets['note']}"))
    for t in targets["items"]:
        state = {True: ("met", "green"), False: ("MISSED", "red"), None: ("n/a", "dim")}[t["met"]]
        line = Text("  ")
        line.append(f"{state[0]:<6}", style=state[1])
        line.append(f"  {t['line']}")
        console.print(line)
