"""The corpus as its builders write it: rows per class, and the benign rows."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tests.security.sound_reuse.cases import (
    benign_cases,
    constant_cases,
    context_tool_cases,
    equation_cases,
    json_cases,
    json_split_cases,
    kind_bound_cases,
    outcome_event_cases,
    self_reference_cases,
    solver_form_cases,
    text_cases,
    tool_cases,
    who_question_cases,
    word_problem_cases,
    wrapping_scale_cases,
)

Row = dict[str, Any]


def build() -> tuple[dict[str, list[Row]], list[Row]]:
    """The attack rows grouped by class (one JSONL file each) and the benign rows."""
    by_class: dict[str, list[Row]] = defaultdict(list)
    modules = (
        json_cases,
        word_problem_cases,
        equation_cases,
        tool_cases,
        text_cases,
        # The second outside attack (an oracle model, the docs and the public API):
        json_split_cases,
        constant_cases,
        solver_form_cases,
        context_tool_cases,
        self_reference_cases,
        # The third outside attack:
        outcome_event_cases,
        who_question_cases,
        # The fourth:
        wrapping_scale_cases,
        # Issue 34: kinds, bounds and renames; other languages.
        kind_bound_cases,
    )
    for module in modules:
        for row in module.all_cases():
            by_class[row["class"]].append(row)
    return dict(sorted(by_class.items())), list(benign_cases.all_cases())
