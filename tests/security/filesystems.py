"""Real filesystems for the storage attacks: a small tmpfs that fills up (the kernel answers
ENOSPC, exactly as a full disk does) and read-only mounts (EROFS). Mounting needs root: without
it these tests are skipped, saying why."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest


def _run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise OSError(f"{' '.join(command)}: {done.stderr.strip()}")


@contextmanager
def small_tmpfs(where: Path, size: str = "4m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` (skips the test when this cannot mount)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small tmpfs (a real full or read-only filesystem)")
    where.mkdir(parents=True, exist_ok=True)
    try:
        _run("mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where))
    except OSError as error:
        pytest.skip(f"cannot mount a tmpfs here: {error}")
    try:
        yield where
    finally:
        _run("umount", "-l", str(where))  # lazy: a test's open files must not block cleanup


def remount_read_only(where: Path) -> None:
    _run("mount", "-o", "remount,ro", str(where))


@contextmanager
def read_only_bind(file: Path) -> Iterator[Path]:
    """``file`` made read-only by a read-only bind mount of itself (for root too)."""
    _run("mount", "--bind", str(file), str(file))
    try:
        _run("mount", "-o", "remount,ro,bind", str(file))
        yield file
    finally:
        _run("umount", "-l", str(file))


def fill(disk: Path) -> Path:
    """Write a file until the kernel says the disk is full; returns it (delete it to free)."""
    filler = disk / "filler"
    chunk = b"\0" * 65536
    with filler.open("wb", buffering=0) as handle:
        with suppress(OSError):
            while True:
                handle.write(chunk)
        with suppress(OSError):
            while True:
                handle.write(b"\0" * 512)
    return filler
