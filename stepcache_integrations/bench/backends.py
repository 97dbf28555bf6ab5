"""The benchmark's model backends, chosen by name: ``local``, ``openai`` and ``simulated``.

* ``local``: SmolLM2-135M-Instruct on llama.cpp, started and stopped by the benchmark
  (``LocalLlamaServer``), reached through ``ChatOpenAI``.
* ``openai``: any OpenAI-compatible endpoint (OpenAI, vLLM, another llama.cpp server) given by
  ``base_url`` and ``model``; the API key comes from an environment variable.
* ``simulated``: ``SimulatedChatModel``, deterministic, labelled SIMULATED everywhere.

``open_backend`` is a context manager because the local backend owns a server process that
must stop when the benchmark ends, also on error and Ctrl-C.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_openai import ChatOpenAI

from stepcache_integrations.adapter import ConstrainJson
from stepcache_integrations.bench.local_server import DEFAULT_SEED, LocalLlamaServer
from stepcache_integrations.bench.simulated import SIMULATED_LABEL, SimulatedChatModel

__all__ = [
    "BACKENDS",
    "DEFAULT_MAX_TOKENS",
    "Backend",
    "BackendName",
    "open_backend",
]

BackendName = Literal["local", "openai", "simulated"]
BACKENDS: tuple[BackendName, ...] = ("local", "openai", "simulated")
# Enough for a four-step equation answer or a small JSON object; a rambling small model is cut
# here, which bounds the no-cache tail as a real deployment would.
DEFAULT_MAX_TOKENS = 200


@dataclass
class Backend:
    """A ready backend: how to build its chat model and how to describe it in results."""

    name: BackendName
    model: str
    simulated: bool
    factory: Callable[[int], BaseChatModel]
    startup_s: float | None = None
    details: dict[str, Any] = field(default_factory=dict)
    # How StepCache may hold this backend to a task's JSON Schema (constrained decoding);
    # the baselines never get it: they send the caller's request as it is.
    constrain_json: ConstrainJson | None = None

    def chat_model(self, max_tokens: int = DEFAULT_MAX_TOKENS) -> BaseChatModel:
        """A fresh chat model (no cache attached) capped at ``max_tokens`` output tokens."""
        return self.factory(max_tokens)

    @property
    def label(self) -> str:
        """How tables and plots name the backend; a simulated one always says SIMULATED."""
        if self.simulated:
            return f"{SIMULATED_LABEL} ({self.model})"
        return f"{self.name}: {self.model}"


@contextmanager
def open_backend(
    name: BackendName,
    *,
    out_dir: str | Path = ".",
    base_url: str | None = None,
    model: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    seed: int = DEFAULT_SEED,
    latency_scale: float = 1.0,
) -> Iterator[Backend]:
    """Make the backend ``name`` ready for the duration of the ``with`` block."""
    if name == "simulated":
        yield _simulated(seed, latency_scale)
    elif name == "openai":
        yield _openai(base_url, model, api_key_env, seed)
    elif name == "local":
        with LocalLlamaServer(out_dir=out_dir, seed=seed) as server:
            try:
                yield _local(server)
            except Exception as exc:
                # A model call that failed because the server died is reported as the
                # server's end (its signal, log and rebuild command), not as a connection error.
                crashed = server.failure()
                if crashed is None:
                    raise
                raise crashed from exc
    else:
        raise ValueError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")


def _local(server: LocalLlamaServer) -> Backend:
    return Backend(
        "local",
        server.model_alias,
        simulated=False,
        factory=lambda max_tokens: server.chat_model(max_tokens=max_tokens),
        startup_s=server.startup_s,
        constrain_json="llama_cpp",
        details={
            "server": "llama-cpp-python (llama_cpp.server)",
            "gguf": str(server.model_path),
            "n_threads": server.n_threads,
            "seed": server.seed,
            "base_url": server.base_url,
            "log": str(server.log_path),
        },
    )


def _simulated(seed: int, latency_scale: float) -> Backend:
    def factory(max_tokens: int) -> BaseChatModel:
        return SimulatedChatModel(seed=seed, latency_scale=latency_scale, max_tokens=max_tokens)

    probe = SimulatedChatModel(seed=seed, latency_scale=latency_scale)
    return Backend(
        "simulated",
        probe.model_name,
        simulated=True,
        factory=factory,
        details={
            "note": f"{SIMULATED_LABEL}: deterministic model, not a real LLM",
            "equation_accuracy": probe.equation_accuracy,
            "json_accuracy": probe.json_accuracy,
            "continuation_accuracy": probe.continuation_accuracy,
            "repair_accuracy": probe.repair_accuracy,
            "ms_per_output_token": probe.ms_per_output_token,
            "ms_per_input_token": probe.ms_per_input_token,
            "latency_scale": latency_scale,
            "seed": seed,
        },
    )


def _openai(base_url: str | None, model: str | None, api_key_env: str, seed: int) -> Backend:
    if not model:
        raise ValueError("the openai backend needs --model (e.g. gpt-4o-mini)")
    api_key = os.environ.get(api_key_env)
    if api_key is None:
        if base_url is None:
            raise ValueError(f"set {api_key_env} for the OpenAI API, or pass --base-url")
        # Self-hosted OpenAI-compatible servers (vLLM, llama.cpp) accept any key.
        api_key = "not-needed"

    def factory(max_tokens: int) -> BaseChatModel:
        return ChatOpenAI(
            model=model,
            base_url=base_url,
            api_key=api_key,  # type: ignore[arg-type]  # pydantic coerces str to SecretStr
            temperature=0.0,
            seed=seed,
            max_tokens=max_tokens,  # type: ignore[call-arg]  # alias of max_completion_tokens
            max_retries=2,
        )

    return Backend(
        "openai",
        model,
        simulated=False,
        factory=factory,
        constrain_json="openai",
        details={"base_url": base_url or "https://api.openai.com/v1", "seed": seed},
    )
