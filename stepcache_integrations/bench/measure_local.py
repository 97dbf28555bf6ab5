"""Measure the embedded local backend: server start-up and the base prompts on the real model.

Run: ``python -m stepcache_integrations.bench.measure_local --out bench-out/local``.
``--python PATH`` serves the model with another environment's llama-cpp-python (only
llama-cpp-python[server] needs to be installed there), to compare two builds on one machine.

Prints and writes ``local_backend.json``: start-up time of the llama.cpp server, and per base
prompt (the 20 warm-up prompts of the workload) the latency, input/output tokens, decode speed
and whether the answer passes the task check and the integrity check. A second pass over the
first prompts checks that answers repeat (temperature 0, fixed seed).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from stepcache_integrations.bench.backends import DEFAULT_MAX_TOKENS
from stepcache_integrations.bench.local_server import LocalLlamaServer
from stepcache_integrations.bench.workload import build_workload, integrity_ok, task_correct

__all__ = ["main", "measure"]


def measure(
    out_dir: Path, max_tokens: int, repeat_check: int = 5, python: str = sys.executable
) -> dict[str, Any]:
    """Start the server (with ``python``'s llama-cpp-python), serve the base prompts once
    (+ a repeat pass), return the numbers."""
    requests = build_workload(42).warmup
    # Other work on the same cores slows llama.cpp a lot: record the load so readers can tell.
    load_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    with LocalLlamaServer(out_dir=out_dir, python=python) as server:
        model = server.chat_model(max_tokens=max_tokens)
        for request in requests:
            started = time.perf_counter()
            message = model.invoke(request.prompt)
            seconds = time.perf_counter() - started
            usage = message.usage_metadata or {"input_tokens": 0, "output_tokens": 0}
            answer = str(message.content)
            rows.append(
                {
                    "id": request.id,
                    "family": request.family,
                    "latency_s": seconds,
                    "input_tokens": usage["input_tokens"],
                    "output_tokens": usage["output_tokens"],
                    "finish_reason": message.response_metadata.get("finish_reason"),
                    "task_correct": task_correct(request, answer),
                    "integrity_ok": integrity_ok(request, answer),
                    "answer": answer,
                }
            )
        repeats = [str(model.invoke(r.prompt).content) for r in requests[:repeat_check]]
        startup_s = server.startup_s
        gguf = str(server.model_path)
    latencies = [row["latency_s"] for row in rows]
    outputs = [row["output_tokens"] for row in rows]
    return {
        "backend": "local",
        "gguf": gguf,
        "machine": f"{platform.machine()} {platform.system()}, threads=2",
        "server_python": python,
        "max_tokens": max_tokens,
        "startup_s": startup_s,
        "base_prompts": len(rows),
        "latency_mean_s": statistics.fmean(latencies),
        "latency_median_s": statistics.median(latencies),
        "latency_max_s": max(latencies),
        "input_tokens_mean": statistics.fmean(row["input_tokens"] for row in rows),
        "output_tokens_mean": statistics.fmean(outputs),
        "output_tokens_per_s": sum(outputs) / sum(latencies),
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "hit_max_tokens": sum(row["finish_reason"] == "length" for row in rows),
        "task_correct": {
            family: statistics.fmean(r["task_correct"] for r in rows if r["family"] == family)
            for family in ("equation", "json")
        },
        "integrity_ok": {
            family: statistics.fmean(r["integrity_ok"] for r in rows if r["family"] == family)
            for family in ("equation", "json")
        },
        "repeatable": all(
            again == row["answer"] for again, row in zip(repeats, rows, strict=False)
        ),
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("bench-out/local"))
    parser.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS)
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the interpreter whose llama-cpp-python serves the model (default: this one)",
    )
    args = parser.parse_args(argv)
    result = measure(args.out, args.max_tokens, python=args.python)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "local_backend.json").write_text(json.dumps(result, indent=2))
    summary = {k: v for k, v in result.items() if k != "rows"}
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
