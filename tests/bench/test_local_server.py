"""LocalLlamaServer: process lifecycle (with stand-in servers) and one real-model answer."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from stepcache_integrations.bench.backends import open_backend
from stepcache_integrations.bench.local_server import (
    LocalLlamaServer,
    LocalServerError,
    find_gguf,
    free_port,
    local_backend_available,
)

# A stand-in that answers every GET with 200, like /v1/models once the model is loaded.
FAKE_SERVER = textwrap.dedent(
    """
    import sys
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{"data": []}')

    print("fake server up", flush=True)
    HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
    """
)


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
