"""The cookbook examples run offline and show the decisions they promise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(script: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "cookbook" / script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_lcel_example_shows_miss_exact_reuse_patch() -> None:
    out = run("lcel_example.py")
    decisions = [line.split("->")[1].split()[0] for line in out.splitlines() if "->" in line]
    assert decisions == ["miss", "exact", "reuse", "patch"]
    assert "x = 4" in out and "y = 5" in out
    assert "SIMULATED" in out
