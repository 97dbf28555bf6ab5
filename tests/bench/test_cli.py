"""``stepcache bench`` end to end: the --quick SIMULATED run through the CLI, in a tmp dir."""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from stepcache_integrations.bench.cli import main
from stepcache_integrations.bench.runner import MODES
from stepcache_integrations.core.records import DECISIONS

SCHEMA_FIELDS = (
    "mode",
    "requests",
    "latency_mean_s",
    "latency_median_s",
    "latency_p95_s",
    "latency_p99_s",
    "tokens_total",
    "tokens_per_request",
    "correct_task",
    "correct_integrity",
    "wrong_served",
    "decisions",
)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    out = tmp_path_factory.mktemp("quick")
    # capsys is function-scoped: capture the one shared run's output by hand.
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(
            [
                "bench",
                "--backend",
                "simulated",
                "--quick",
                "--out",
                str(out),
                "--latency-scale",
                "0",
            ]
        )
    assert code == 0
    return out, json.loads((out / "results.json").read_text()), buffer.getvalue()


def test_results_json_has_the_schema(quick_run: tuple[Path, dict[str, Any], str]) -> None:
    _, results, _ = quick_run
    for key in ("backend", "model", "simulated", "seeds", "command", "machine", "modes"):
        assert key in results
    assert results["backend"] == "simulated" and results["simulated"] is True
    assert results["seeds"] == [42, 43, 44]
    assert results["command"].startswith("stepcache bench --backend simulated --quick")
    machine = results["machine"]
    assert machine["cpu_count"] >= 1 and len(machine["load_average"]) == 3 and machine["python"]
    assert [m["mode"] for m in results["modes"]] == list(MODES)
    workload = results["workload"]
    assert workload["warmup"]["counted"] is False and workload["warmup"]["rule"]
    assert (
        sum(sum(kinds.values()) for kinds in workload["composition"].values())
        == (workload["evaluation_requests"])
    )
    for mode in results["modes"]:
        for field in SCHEMA_FIELDS:
            assert field in mode, (mode["mode"], field)
        assert [s["seed"] for s in mode["per_seed"]] == [42, 43, 44]
        assert mode["requests"] == workload["evaluation_requests"]


def test_results_have_sane_values(quick_run: tuple[Path, dict[str, Any], str]) -> None:
    _, results, _ = quick_run
    modes = {m["mode"]: m for m in results["modes"]}
    for mode in modes.values():
        assert 0 <= mode["correct_task"] <= 1 and 0 <= mode["correct_integrity"] <= 1
        assert 0 <= mode["latency_median_s"] <= mode["latency_p95_s"] <= mode["latency_p99_s"]
        assert mode["wrong_served"] >= 0 and mode["tokens_total"] >= 0
        assert math.isclose(sum(mode["decisions"].values()), 1.0)
        # Means over the seeds are the means of the per-seed values.
        per_seed = [s["tokens_total"] for s in mode["per_seed"]]
        assert math.isclose(mode["tokens_total"], sum(per_seed) / len(per_seed))
    assert set(DECISIONS) <= set(modes["stepcache"]["decisions"])
    assert modes["no_cache"]["decisions"]["miss"] == 1.0
    # Caches spend fewer tokens than no cache on the same workload.
    assert modes["exact_cache"]["tokens_total"] < modes["no_cache"]["tokens_total"]
    assert modes["stepcache"]["tokens_total"] < modes["no_cache"]["tokens_total"]
    # StepCache never serves a wrong answer unflagged; the semantic cache does.
    assert modes["stepcache"]["wrong_served"] == 0
    assert modes["semantic_cache"]["wrong_served"] > 0
    ratios = results["ratios"]
    assert math.isclose(
        ratios["tokens_total"],
        modes["stepcache"]["tokens_total"] / modes["no_cache"]["tokens_total"],
    )
    targets = results["targets"]
    assert targets["apply"] is False  # stated for the local model, not SIMULATED
    assert {t["name"] for t in targets["items"]} >= {"mean latency", "total tokens"}
    assert all(t["met"] in (True, False, None) and t["by"] for t in targets["items"])


def test_table_plots_and_simulated_labels(quick_run: tuple[Path, dict[str, Any], str]) -> None:
    out, results, stdout = quick_run
    assert "SIMULATED" in results["backend_label"]
    markdown = (out / "results.md").read_text()
    assert markdown.startswith("# SIMULATED ")
    assert "## All modes" in markdown and "## Targets" in markdown
    for mode in MODES:
        assert mode in markdown
    for name in ("latency.png", "tokens.png"):
        data = (out / name).read_bytes()
        assert data.startswith(b"\x89PNG") and b"SIMULATED" in data  # title in the metadata
    rows = [json.loads(line) for line in (out / "requests.jsonl").read_text().splitlines()]
    assert len(rows) == 3 * len(MODES) * results["workload"]["evaluation_requests"]
    assert all(row["simulated"] is True for row in rows)
    # The table printed at the end says SIMULATED too.
    assert "SIMULATED" in stdout and "stepcache" in stdout


def test_rebuild_reproduces_the_results(quick_run: tuple[Path, dict[str, Any], str]) -> None:
    out, results, _ = quick_run
    assert main(["bench", "--rebuild", "--out", str(out)]) == 0
    again = json.loads((out / "results.json").read_text())
    assert again["modes"] == results["modes"]


def test_only_the_chosen_modes_run(tmp_path: Path) -> None:
    code = main(
        [
            "bench", "--backend", "simulated", "--quick", "--seeds", "42",
            "--modes", "stepcache,no_cache", "--out", str(tmp_path), "--latency-scale", "0",
            "--order", "sequential",
        ]
    )  # fmt: skip
    assert code == 0
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["workload"]["order"] == "sequential"
    assert [m["mode"] for m in results["modes"]] == ["no_cache", "stepcache"]
    assert results["seeds"] == [42]
    assert results["ratios"]["tokens_total"] is not None


def test_overhead_is_written_and_picked_up_by_the_report(tmp_path: Path) -> None:
    assert (
        main(["bench", "--overhead", "--entries", "300", "--probes", "5", "--out", str(tmp_path)])
        == 0
    )
    overhead = json.loads((tmp_path / "overhead.json").read_text())
    assert overhead["entries"] == 300 and overhead["sizes"][0]["exact_hits"] == 5
    code = main(
        [
            "bench", "--backend", "simulated", "--quick", "--seeds", "42",
            "--out", str(tmp_path), "--latency-scale", "0",
        ]
    )  # fmt: skip
    assert code == 0
    results = json.loads((tmp_path / "results.json").read_text())
    names = [t["name"] for t in results["targets"]["items"]]
    assert "cache hit path median, exact (300 entries)" in names
    assert results["overhead"]["entries"] == 300


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "--modes", "bogus"],
        ["bench", "--seeds", "x,y"],
        ["bench", "--backend", "nowhere"],
        ["bench", "--max-tokens", "0"],
        [],
    ],
)
def test_bad_arguments_exit_with_usage_errors(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2


def test_openai_backend_without_a_model_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["bench", "--backend", "openai", "--quick", "--out", str(tmp_path)])
    assert code == 2
    assert "--model" in capsys.readouterr().out
