"""Kinds of reuse and answer keys: what an audit compares, and what it suspends.

A *kind of reuse* names how a served answer was made from the cache: the task, then
``exact`` for the same request, or the strongest kind of change the families accounted for
(``wording`` < ``case`` < ``value`` < ``rename``): ``"linear_equation/value"``,
``"json/exact"``, ``"tool_call/value"``. A request no family recognises is ``text``.

An *answer key* is what an answer claims, as its task family reads it
(:meth:`TaskFamily.answer_key <stepcache_integrations.core.tasks.base.TaskFamily.answer_key>`):
the unknown's value, the JSON object, the final number, the tool calls. Two answers to one
request agree when every family that reads a key from both reads the same one; when no family
reads a key from both, they are not comparable (never counted as agreeing).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from stepcache_integrations.core.tasks.base import TaskFamily
from stepcache_integrations.core.verifiers.base import ChangeAccount

__all__ = [
    "EXACT",
    "AnswerKeys",
    "compare_keys",
    "read_keys",
    "reuse_kind",
    "shown_keys",
    "stronger_kind",
]

logger = logging.getLogger(__name__)

EXACT = "exact"
NO_TASK = "text"
_STRENGTH = {EXACT: -2, "same": -1, "wording": 0, "case": 1, "value": 2, "rename": 3}

AnswerKeys = dict[str, Any]
"""An answer's keys by family name (families that read none are left out)."""


def reuse_kind(
    task: str | None, accounts: Iterable[ChangeAccount] = (), exact: bool = False
) -> str:
    """The kind of reuse of an answer served for a request of ``task``.

    Example:
        >>> reuse_kind("json", exact=True)
        'json/exact'
        >>> reuse_kind(None, exact=True)
        'text/exact'
        >>> reuse_kind("linear_equation")
        'linear_equation/same'
    """
    name = task or NO_TASK
    if exact:
        return f"{name}/{EXACT}"
    kinds = {account.kind for account in accounts}
    if not kinds:
        return f"{name}/same"
    return f"{name}/{max(kinds, key=lambda kind: _STRENGTH.get(kind, 0))}"


def stronger_kind(kind: str, made_by: str | None) -> str:
    """The kind of reuse an answer made from a cached answer counts as: its own change, or
    the kind the cached answer was itself made by (``made_by``) when that one is stronger
    (a value re-instantiated earlier, reused now for a wording change, is still as good as
    that re-instantiation).

    Example:
        >>> stronger_kind("json/wording", "json/value"), stronger_kind("json/value", None)
        ('json/value', 'json/value')
    """
    if made_by is None:
        return kind

    def strength(name: str) -> int:
        return _STRENGTH.get(name.rsplit("/", 1)[-1], 0)

    return made_by if strength(made_by) > strength(kind) else kind


def read_keys(
    families: Sequence[TaskFamily], request: str, answer: str, options: Mapping[str, Any]
) -> AnswerKeys:
    """The keys the request's families read from ``answer`` (a family that raises reads
    none: it is logged, and the answer is not comparable by it)."""
    keys: AnswerKeys = {}
    for family in families:
        try:
            key = family.answer_key(request, answer, options)
        except Exception as error:
            logger.warning("answer_key of %s failed: %r", family.name, error)
            continue
        if key is not None:
            keys[family.name] = key
    return keys


def compare_keys(served: AnswerKeys, model: AnswerKeys) -> Literal["agree", "disagree", None]:
    """``"agree"``, ``"disagree"``, or ``None`` when no family read a key from both.

    Example:
        >>> compare_keys({"linear_equation": 5}, {"linear_equation": 5})
        'agree'
        >>> compare_keys({"linear_equation": 5}, {"linear_equation": 6})
        'disagree'
        >>> compare_keys({}, {"json": {"a": 1}}) is None
        True
    """
    common = served.keys() & model.keys()
    if not common:
        return None
    return "agree" if all(served[name] == model[name] for name in common) else "disagree"


def shown_keys(keys: AnswerKeys, limit: int = 200) -> str | None:
    """Keys for a record or a log line (cut to ``limit`` characters)."""
    if not keys:
        return None
    text = "; ".join(f"{name}: {value!r}" for name, value in sorted(keys.items()))
    return text if len(text) <= limit else text[: limit - 3] + "..."
