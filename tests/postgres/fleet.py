"""Drive worker processes (``tests.postgres.worker``) from a test."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from tests.reliability.support import child_env


class Worker:
    """One worker process; commands are sent as JSON lines, answers read back."""

    def __init__(self, url: str, schema: str, log: Path) -> None:
        self.log = log
        self._stderr: IO[bytes] = log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.postgres.worker", url, schema],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=child_env(),
            text=True,
        )

    def wait_ready(self) -> None:
        assert self.read() == {"ready": True}, self.log.read_text()

    def send(self, command: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise AssertionError(f"worker exited: {self.log.read_text()[-3000:]}")
        result: dict[str, Any] = json.loads(line)
        return result

    def results(self) -> list[dict[str, Any]]:
        """The lines of one ``serve`` command, up to its ``done``."""
        lines = []
        while (line := self.read()) != {"done": True}:
            lines.append(line)
        return lines

    def warnings(self, text: str) -> int:
        return self.log.read_text().count(text)

    def begin_close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(OSError):
                self.send({"close": True})

    def close(self) -> None:
        self.begin_close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._stderr.close()


def start_fleet(url: str, schema: str, logs: Path, count: int) -> list[Worker]:
    """``count`` workers, started together (each takes seconds to import its frameworks)."""
    workers = [Worker(url, schema, logs / f"worker-{n}.log") for n in range(count)]
    for worker in workers:
        worker.wait_ready()
    return workers


def close_fleet(workers: list[Worker]) -> None:
    for worker in workers:
        worker.begin_close()
    for worker in workers:
        worker.close()


def serve_all(
    workers: list[Worker], requests: list[list[tuple[int, str]]], tenant: str | None = None
) -> list[list[dict[str, Any]]]:
    """Worker ``w`` serves ``requests[w]``; all at once, in parallel."""
    for worker, batch in zip(workers, requests, strict=True):
        worker.send({"serve": [list(r) for r in batch], "tenant": tenant})
    return [worker.results() for worker in workers]
