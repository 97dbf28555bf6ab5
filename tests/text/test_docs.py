"""The user page on "the same request" says what the code does."""

from __future__ import annotations

import re
from pathlib import Path

from stepcache_integrations.core.text import NEUTRAL_WORDS, compare
from stepcache_integrations.core.text.lexicon import CAPITONYMS

PAGE = Path(__file__).parents[2] / "docs" / "same_request.md"


def test_the_python_example_runs_as_written() -> None:
    text = PAGE.read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S)
    assert block is not None
    namespace: dict[str, object] = {}
    exec(compile(block.group(1), str(PAGE), "exec"), namespace)
    delta = namespace["delta"]
    assert getattr(delta, "substitutions", None) == {"x": "y"}


def test_the_counts_on_the_page_are_current() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert f"({len(NEUTRAL_WORDS)} words)" in text
    assert f"about {round(len(CAPITONYMS), -2)} such" in text


def test_every_example_pair_in_the_tables_holds() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for a, b in re.findall(r"`([^`|]+)` = `([^`|]+)`", text):
        assert compare(a, b).same, (a, b)
    for a, b in re.findall(r"`([^`|]+)` ≠ `([^`|]+)`", text):
        assert not compare(a, b).same, (a, b)
