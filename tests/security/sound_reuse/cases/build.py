"""The corpus as its builders write it: rows per class, and the benign rows."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tests.security.sound_reuse.cases import (
    benign_cases,
    equation_cases,
    json_cases,
    text_cases,
    tool_cases,
    word_problem_cases,
)

Row = dict[str, Any]


def build() -> tuple[dict[str, list[Row]], list[Row]]:
    """The attack rows grouped by class (one JSONL file each) and the benign rows."""
    by_class: dict[str, list[Row]] = defaultdict(list)
    for module in (json_cases, word_problem_cases, equation_cases, tool_cases, text_cases):
        for row in module.all_cases():
            by_class[row["class"]].append(row)
    return dict(sorted(by_class.items())), list(benign_cases.all_cases())
