"""LocalLlamaServer: process lifecycle (with stand-in servers) and one real-model answer."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import openai
import pytest

from stepcache_integrations.bench.backends import open_backend
from stepcache_integrations.bench.llama_build import NATIVE_CMAKE_ARGS, PORTABLE_CMAKE_ARGS
from stepcache_integrations.bench.local_server import (
    LocalLlamaServer,
    LocalServerError,
    find_gguf,
    free_port,
    local_backend_available,
)
from stepcache_integrations.cli import main

# A stand-in that answers every GET with 200, like /v1/models once the model is loaded, and
# every POST (the start-up completion) with 200.
FAKE_SERVER = textwrap.dedent(
    """
    import sys
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{"data": []}')

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{}')

    print("fake server up", flush=True)
    HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
    """
)


# A stand-in that starts like llama.cpp (GET /v1/models answers 200) and then meets its
# completions as a broken build does: FAULT_AFTER completions are answered, the next one makes
# it kill itself with the signal named in FAULT, or (FAULT = "hang") never answers.
BROKEN_SERVER = textwrap.dedent(
    """
    import json, os, signal, sys, time
    from http.server import BaseHTTPRequestHandler, HTTPServer

    FAULT, FAULT_AFTER = {fault!r}, {after}
    answered = 0

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{{"data": []}}')

        def do_POST(self):
            global answered
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if answered >= FAULT_AFTER:
                print("completion", answered + 1, "meets", FAULT, flush=True)
                if FAULT == "hang":
                    time.sleep(600)
                signum = getattr(signal, FAULT)
                signal.signal(signum, signal.SIG_DFL)
                os.kill(os.getpid(), signum)
            answered += 1
            body = json.dumps({{
                "id": "x", "object": "chat.completion", "created": 0, "model": "m",
                "choices": [{{"index": 0, "finish_reason": "length",
                             "message": {{"role": "assistant", "content": "OK"}}}}],
                "usage": {{"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}},
            }}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    print("model loaded", flush=True)
    HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
    """
)


def broken_server(fault: str, after: int = 0) -> str:
    return BROKEN_SERVER.format(fault=fault, after=after)


class ScriptServer(LocalLlamaServer):
    """Runs ``script`` instead of llama.cpp, to test the lifecycle without a model."""

    def __init__(self, tmp_path: Path, script: str, **kwargs: object) -> None:
        super().__init__(out_dir=tmp_path, model_path=tmp_path / "none.gguf", **kwargs)  # type: ignore[arg-type]
        self.script = tmp_path / "server.py"
        self.script.write_text(script)

    def command(self) -> list[str]:
        if self.port is None:
            self.port = free_port()
        return [sys.executable, str(self.script), str(self.port)]


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie still answers kill(0) until reaped; our wait() reaps it.
    return False


def test_free_port_is_bindable() -> None:
    port = free_port()
    assert 1024 <= port <= 65535


def test_command_line_has_the_settings(tmp_path: Path) -> None:
    server = LocalLlamaServer(out_dir=tmp_path, model_path=tmp_path / "m.gguf", seed=7, n_threads=2)
    command = server.command()
    assert command[1:3] == ["-m", "llama_cpp.server"]
    for flag, value in [
        ("--model", str(tmp_path / "m.gguf")),
        ("--host", "127.0.0.1"),
        ("--n_threads", "2"),
        ("--seed", "7"),
        ("--port", str(server.port)),
    ]:
        assert command[command.index(flag) + 1] == value


def test_starts_waits_and_stops(tmp_path: Path) -> None:
    with ScriptServer(tmp_path, FAKE_SERVER) as server:
        assert server.running and server.startup_s is not None
        assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
        process = server._process
        assert process is not None
    assert not server.running
    assert process.returncode is not None and gone(process.pid)
    assert "fake server up" in (tmp_path / "llama_server.log").read_text()


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_stops_on_error_and_ctrl_c(tmp_path: Path, error: type[BaseException]) -> None:
    server = ScriptServer(tmp_path, FAKE_SERVER)
    with pytest.raises(error), server:
        process = server._process
        raise error("boom")
    assert process is not None and process.returncode is not None and gone(process.pid)


def test_timeout_names_the_log_and_kills_the_process(tmp_path: Path) -> None:
    script = "import time\nprint('loading forever', flush=True)\ntime.sleep(600)\n"
    server = ScriptServer(tmp_path, script, startup_timeout_s=1.0)
    with pytest.raises(LocalServerError, match="did not answer") as info:
        server.start()
    assert "loading forever" in str(info.value)
    assert not server.running


def test_early_exit_reports_the_log_tail(tmp_path: Path) -> None:
    server = ScriptServer(tmp_path, "import sys\nprint('bad model file')\nsys.exit(3)\n")
    with pytest.raises(LocalServerError, match="exited with code 3") as info:
        server.start()
    assert "bad model file" in str(info.value)


def test_sigterm_handler_is_restored(tmp_path: Path) -> None:
    import signal

    before = signal.getsignal(signal.SIGTERM)
    with ScriptServer(tmp_path, FAKE_SERVER):
        assert signal.getsignal(signal.SIGTERM) is not before
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_server_that_crashes_on_its_first_completion_is_one_line(tmp_path: Path) -> None:
    """The case of issue 23: the model loads, /v1/models answers, the first completion dies
    with SIGSEGV. The start-up completion finds it; the line names the signal, the log and
    the exact command that rebuilds llama-cpp-python without pip's cached wheel."""
    server = ScriptServer(tmp_path, broken_server("SIGSEGV"))
    with pytest.raises(LocalServerError) as info:
        server.start()
    message = str(info.value)
    assert "\n" not in message
    assert "was killed by SIGSEGV on its start-up completion" in message
    assert f"log: {server.log_path}" in message and server.log_path.is_file()
    assert "meets SIGSEGV" in server.log_path.read_text()
    assert f'CMAKE_ARGS="{PORTABLE_CMAKE_ARGS}" {sys.executable} -m pip install' in message
    assert "--force-reinstall --no-cache-dir --no-deps" in message
    assert not server.running


def test_an_illegal_instruction_asks_for_a_build_for_this_cpu(tmp_path: Path) -> None:
    server = ScriptServer(tmp_path, broken_server("SIGILL"))
    with pytest.raises(LocalServerError) as info:
        server.start()
    message = str(info.value)
    assert "was killed by SIGILL" in message
    assert f'CMAKE_ARGS="{NATIVE_CMAKE_ARGS}" {sys.executable} -m pip install' in message


def test_a_server_that_never_answers_its_completion_is_one_line(tmp_path: Path) -> None:
    server = ScriptServer(tmp_path, broken_server("hang"), probe_timeout_s=1.0)
    with pytest.raises(LocalServerError) as info:
        server.start()
    message = str(info.value)
    assert "\n" not in message
    assert "did not answer a one-token completion" in message and "within 1 s" in message
    assert f"log: {server.log_path}" in message
    assert "last log line: 'completion 1 meets hang'" in message
    assert f'CMAKE_ARGS="{PORTABLE_CMAKE_ARGS}"' in message
    assert not server.running  # the hung server is stopped, not left behind


def test_failure_says_how_a_running_server_ended(tmp_path: Path) -> None:
    with ScriptServer(tmp_path, broken_server("SIGSEGV", after=1)) as server:
        assert server.failure() is None  # answered its start-up completion; still running
        with pytest.raises(openai.APIConnectionError):
            server.chat_model(max_tokens=4).invoke("Solve 3x + 5 = 20.")
        crashed = server.failure()
    assert crashed is not None
    assert "was killed by SIGSEGV while serving requests" in str(crashed)


@pytest.fixture
def broken_local_backend(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Callable[[str, int], Path]:
    """``stepcache bench``'s local backend runs a broken stand-in instead of llama.cpp."""

    def install(fault: str, after: int) -> Path:
        script = broken_server(fault, after)

        def make(out_dir: Path, **kwargs: object) -> ScriptServer:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
            return ScriptServer(Path(out_dir), script, **kwargs)

        monkeypatch.setattr("stepcache_integrations.bench.backends.LocalLlamaServer", make)
        return tmp_path / "out"

    return install


@pytest.mark.parametrize(
    ("after", "when"), [(0, "on its start-up completion"), (1, "while serving requests")]
)
def test_the_benchmark_ends_with_one_line_naming_the_crash(
    broken_local_backend: Callable[[str, int], Path],
    capsys: pytest.CaptureFixture[str],
    after: int,
    when: str,
) -> None:
    out = broken_local_backend("SIGSEGV", after)
    code = main(["bench", "--quick", "--modes", "no_cache", "--out", str(out)])
    assert code == 2
    (line,) = capsys.readouterr().err.splitlines()
    crash = f"stepcache bench: error: the llama.cpp server was killed by SIGSEGV {when}"
    assert line.startswith(crash)
    assert f"log: {out / 'llama_server.log'}" in line and (out / "llama_server.log").is_file()
    assert f'CMAKE_ARGS="{PORTABLE_CMAKE_ARGS}"' in line
    # Nothing that did not happen, no file that does not exist.
    assert "raw.json" not in line and "idle" not in line and "Connection error" not in line


_UNAVAILABLE = local_backend_available()


@pytest.mark.local_model
@pytest.mark.skipif(_UNAVAILABLE is not None, reason=f"local backend unavailable: {_UNAVAILABLE}")
def test_real_local_model_answers(tmp_path: Path) -> None:
    assert find_gguf().name.endswith(".gguf")
    with open_backend("local", out_dir=tmp_path) as backend:
        assert not backend.simulated and backend.startup_s is not None
        model = backend.chat_model(max_tokens=24)
        first = model.invoke('Return only a JSON object with exactly the key "ok".')
        second = model.invoke('Return only a JSON object with exactly the key "ok".')
        assert isinstance(first.content, str) and first.content.strip()
        assert first.usage_metadata is not None
        assert 0 < first.usage_metadata["output_tokens"] <= 24  # the extra_body cap is honoured
        assert first.content == second.content  # temperature 0 + fixed seed: repeatable
        process_log = Path(backend.details["log"])
    assert process_log.is_file()


DRIVER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from stepcache_integrations.bench.local_server import LocalLlamaServer, free_port

    class Fake(LocalLlamaServer):
        def command(self):
            self.port = self.port or free_port()
            return [sys.executable, sys.argv[2], str(self.port)]

    out = Path(sys.argv[1])
    with Fake(out_dir=out, model_path=out / "none.gguf") as server:
        (out / "pid").write_text(str(server._process.pid))
        time.sleep(600)
    """
)


def test_sigterm_to_the_benchmark_stops_the_server(tmp_path: Path) -> None:
    import signal
    import subprocess

    (tmp_path / "fake.py").write_text(FAKE_SERVER)
    (tmp_path / "driver.py").write_text(DRIVER)
    driver = subprocess.Popen(
        [sys.executable, str(tmp_path / "driver.py"), str(tmp_path), str(tmp_path / "fake.py")]
    )
    pid_file = tmp_path / "pid"
    for _ in range(600):  # wait for the server to be up (bounded by pytest-timeout too)
        if pid_file.exists() and pid_file.read_text():
            break
        assert driver.poll() is None, "driver exited early"
        time.sleep(0.05)
    server_pid = int(pid_file.read_text())
    assert not gone(server_pid)
    driver.send_signal(signal.SIGTERM)
    assert driver.wait(timeout=60) == 128 + signal.SIGTERM
    assert gone(server_pid)


def test_a_slow_but_running_server_is_told_apart_from_a_crash(
    broken_local_backend: Callable[[str, int], Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import httpx

    def time_out(*args: object, **kwargs: object) -> None:
        raise openai.APITimeoutError(request=httpx.Request("POST", "http://127.0.0.1:1/v1"))

    out = broken_local_backend("SIGSEGV", 10**6)  # never faults: a healthy, slow server
    monkeypatch.setattr("stepcache_integrations.cli.bench_run._run_all", time_out)
    code = main(["bench", "--quick", "--modes", "no_cache", "--out", str(out)])
    assert code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("stepcache bench: error: the model call failed (Request timed out.)")
    assert "the llama.cpp server is still running but did not answer in time" in line
    assert line.endswith(f"the server's log: {out / 'llama_server.log'}")
    assert "SIGSEGV" not in line and "raw.json" not in line
