"""Helpers of the reliability tests: requests, scripted model functions, cache factories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from stepcache_integrations.adapter import drive
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.entries import prompt_key
from stepcache_integrations.core.namespace import make_namespace
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply, ServeResult
from stepcache_integrations.core.stores.local import LocalStore
from stepcache_integrations.core.stores.sqlite_files import is_open_in_this_process
from tests.conftest import solve_steps

ROOT = Path(__file__).resolve().parents[2]
NS = make_namespace({"model": {"type": "scripted", "params": {"temperature": 0}}})

Answer = Callable[[str, ModelCall], str]


def eq(i: int, var: str = "x") -> str:
    """The i-th distinct linear-equation prompt; its solution is ``1 + i // 7``."""
    a, b = 2 + i % 7, 5
    c = a * (1 + i // 7) + b
    return f"Solve for {var}: {a}{var} + {b} = {c}. Show each step as 'Step N:'."


def solution_text(i: int, var: str = "x") -> str:
    """What the correct final step states for ``eq(i, var)``."""
    return solve_steps(eq(i, var)).rsplit(": ", 1)[1]


def solver(prompt: str, call: ModelCall) -> str:
    return solve_steps(prompt)


class Model:
    """A model function: answers with ``answer(prompt, call)`` and counts calls."""

    def __init__(self, answer: Answer = solver) -> None:
        self.answer = answer
        self.calls: list[ModelCall] = []

    def for_prompt(self, prompt: str) -> Callable[[ModelCall], ModelReply]:
        def call(action: ModelCall) -> ModelReply:
            self.calls.append(action)
            text = self.answer(prompt, action)
            return ModelReply(text, 40, max(1, len(text) // 4))

        return call


def request(prompt: str, *, namespace: str = NS, tenant: str | None = None) -> CacheRequest:
    return CacheRequest(prompt=prompt, namespace=namespace, tenant=tenant, input_chars=len(prompt))


def ask(
    cache: StepCache,
    prompt: str,
    model: Model | None = None,
    *,
    namespace: str = NS,
    tenant: str | None = None,
) -> ServeResult:
    model = model or Model()
    flow = cache.serve(request(prompt, namespace=namespace, tenant=tenant))
    return drive(flow, model.for_prompt(prompt))


def key(prompt: str, namespace: str = NS) -> str:
    return prompt_key(namespace, prompt)


def snapshot(cache: StepCache) -> list[dict[str, Any]]:
    """Every stored entry as its stored JSON form, sorted (compares whole cache states)."""
    return sorted((entry.to_dict() for entry in cache.store), key=lambda d: str(d["id"]))


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def child_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "tests.reliability.child", *args]


def run_child(*args: str, timeout: float = 120) -> str:
    """Run ``python -m tests.reliability.child ARGS`` to its normal end; its output."""
    command = child_command(*args)
    done = subprocess.run(
        command, cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def acks_of(output: str) -> list[int]:
    """The indexes a child acknowledged (its ``ACK <i>`` lines)."""
    return [int(line.split()[1]) for line in output.splitlines() if line.startswith("ACK ")]


def served_by_a_new_process(directory: Path, indexes: Sequence[int]) -> list[dict[str, Any]]:
    """What a new process answers for ``eq(i)`` of each index: decision and model calls."""
    out = run_child("serve", str(directory), *map(str, indexes), timeout=300)
    return [json.loads(line) for line in out.splitlines()]


def local_store(cache: StepCache) -> LocalStore:
    """The built-in store behind ``StepCache()`` / ``StepCache(path=...)``."""
    store = cache.store
    assert isinstance(store, LocalStore)
    return store


def read_raw(db: Path) -> bytes:
    """The bytes of a database file, read with ``open()``: allowed only while no connection
    of this process has it open (closing any descriptor on a file releases the process's
    POSIX locks on it, SQLite's included)."""
    assert not is_open_in_this_process(db), f"{db} is open in this process"
    return db.read_bytes()


def write_raw(db: Path, data: bytes) -> None:
    """Overwrite a database file with ``open()`` (to damage it): same rule as :func:`read_raw`."""
    assert not is_open_in_this_process(db), f"{db} is open in this process"
    db.write_bytes(data)
