"""The cookbook examples run offline, show the decisions they promise, and import only what the
project's dependencies provide."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.harness import USER_EXTRAS, imported_modules, owned_files, provider

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
    # b=8: every step re-instantiated (reuse); b=23: "3x = -3" changes sign, so the solver
    # redoes the steps from there (patch).
    assert decisions == ["miss", "exact", "reuse", "reuse", "patch"]
    assert "x = 4" in out and "y = 5" in out and "x = -1" in out
    assert "'patch': 1" in out and "'reuse': 2" in out
    assert "SIMULATED" in out


def test_llama_index_example_shows_every_decision_and_counts_real_tokens() -> None:
    out = run("llama_index_query_engine.py")
    decisions = [line.split("->")[1].split()[0] for line in out.splitlines() if "->" in line]
    # A changed constant behind retrieved context is re-instantiated (reuse; before: the
    # model answered, a skip): the text around the equation is the same request.
    assert decisions == ["miss", "exact", "reuse", "reuse", "miss", "reuse"]
    assert "x = 5." in out and "y = 5." in out and "x = 4." in out and "z = 3." in out
    assert "SIMULATED model calls: 2;" in out


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "cookbook").glob("*.py")))
def test_examples_import_only_what_the_dependencies_provide(script: str) -> None:
    owned = owned_files(USER_EXTRAS)
    code = (ROOT / "cookbook" / script).read_text()
    for module in imported_modules(code):
        assert provider(module, owned), f"cookbook/{script} imports {module}"


def test_audit_example_audits_hits_off_the_request_path() -> None:
    out = run("audit_example.py")
    decisions = [line.split("->")[1].split()[0] for line in out.splitlines() if "->" in line]
    assert decisions == ["miss", "exact", "patch"]
    assert out.count("trace: audit run 'stepcache_audit'") == 2
    assert "audits: 2 agreed, 0 disagreed" in out and "suspended: none" in out
    assert "linear_equation/exact" in out and "SIMULATED" in out
