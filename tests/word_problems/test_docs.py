"""docs/task_families.md: the example family runs as written and prints what the page says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from stepcache_integrations import default_registry

PAGE = Path(__file__).parents[2] / "docs" / "task_families.md"


def test_the_example_family_runs_and_prints_what_the_page_says() -> None:
    text = PAGE.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    printed = re.search(r"It prints:\n\n```text\n(.*?)```", text, re.S)
    assert code is not None and printed is not None
    namespace: dict[str, object] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), str(PAGE), "exec"), namespace)
    assert out.getvalue() == printed.group(1)
    # The decline is on the record, with the family's reason.
    llm = namespace["llm"]
    reply = llm.invoke("Convert 5 degrees Celsius to Fahrenheit.")  # type: ignore[attr-defined]
    assert reply.response_metadata["stepcache"]["decision"] == "exact"


def test_the_example_declines_with_its_reason_on_the_record() -> None:
    text = PAGE.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    body = code.group(1).split("registry = default_registry()")[0]
    namespace: dict[str, object] = {}
    exec(compile(body, str(PAGE), "exec"), namespace)
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    from stepcache_integrations import StepCache, StepCacheLLM

    registry = default_registry()
    registry.register(namespace["CelsiusFamily"]())  # type: ignore[operator]
    model = FakeListChatModel(
        responses=[
            "F = C * 9 / 5 + 32\n5 * 9 / 5 + 32 = 41\nAnswer: 41",
            "F = C * 9 / 5 + 32\n40 * 9 / 5 + 32 = 100\nAnswer: 100",  # wrong: 104
        ]
    )
    llm = StepCacheLLM(llm=model, step_cache=StepCache(tasks=registry))
    llm.invoke("Convert 5 degrees Celsius to Fahrenheit.")
    reply = llm.invoke("Convert 40 degrees Celsius to Fahrenheit.")
    record = reply.response_metadata["stepcache"]
    reasons = [v["reason"] for v in record["verdicts"] if v["outcome"] == "fail"]
    assert "a value coincides with a constant" in reasons
    # The wrong model answer is caught; after the repair call the deterministic answer is served.
    assert reply.content.endswith("Answer: 104") and record["mended"] == "fallback"


def test_the_page_lists_the_built_in_families() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for family in default_registry():
        assert f"| `{family.name}` |" in text
