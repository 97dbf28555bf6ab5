"""Helpers of the reliability tests: requests, scripted model functions, cache factories."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stepcache_integrations.adapter import drive
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.entries import prompt_key
from stepcache_integrations.core.namespace import make_namespace
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply, ServeResult
from stepcache_integrations.core.stores.local import LocalStore
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


def local_store(cache: StepCache) -> LocalStore:
    """The built-in store behind ``StepCache()`` / ``StepCache(path=...)``."""
    store = cache.store
    assert isinstance(store, LocalStore)
    return store
