"""Forked worker processes for the crash and torture tests.

Workers are forked from a server process that has already imported the package and the test
helpers (a fresh interpreter that never opened a cache, so no SQLite connection ever crosses a
fork): starting one costs milliseconds instead of an interpreter start-up, so a test can kill
dozens of them. A worker reports ``(word, index)`` pairs through a pipe; ``send`` returns once
the pair is in the pipe, so every report sent before a ``SIGKILL`` is received.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

__all__ = ["Worker"]

_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["tests.reliability.child"])


class Worker:
    """A process running ``target(pipe, *args)``, and what it reported so far.

    ``acked`` lists the indexes reported as ``ACK`` (acknowledged: stored and returned),
    ``other`` every other report.
    """

    def __init__(self, target: Callable[..., None], *args: Any) -> None:
        receiving, sending = _CONTEXT.Pipe(duplex=False)
        self.process = _CONTEXT.Process(target=target, args=(sending, *args))
        self.process.start()
        sending.close()
        self.acked: list[int] = []
        self.other: list[tuple[str, int]] = []
        self._receiving = receiving
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                word, index = self._receiving.recv()
            except (EOFError, OSError):
                return
            if word == "ACK":
                self.acked.append(index)
            else:
                self.other.append((word, index))

    def wait_for_acks(self, wanted: int, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.acked) < wanted:
            assert self.process.is_alive(), f"worker died early (exit {self.process.exitcode})"
            assert time.monotonic() < deadline, "worker acknowledged too little in time"
            time.sleep(0.002)

    def kill(self) -> None:
        """``SIGKILL``, then collect every report sent before it landed."""
        assert self.process.pid is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.finish(expected_exit=-signal.SIGKILL)

    def finish(self, expected_exit: int = 0, timeout: float = 120.0) -> None:
        self.process.join(timeout=timeout)
        self._reader.join(timeout=30)
        self._receiving.close()
        assert self.process.exitcode == expected_exit
