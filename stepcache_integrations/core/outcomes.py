"""What each phase of the request path found, and the one function that builds the request's
:class:`~stepcache_integrations.core.records.StepCacheRecord` from it.

The request path (:mod:`stepcache_integrations.core.engine`) never writes a record field: each
phase returns a small outcome (which entry the lookup found, which steps were served from it,
how the answer fared in its checks and repair, whether it was stored), and
:func:`build_record` derives every field from those outcomes once, when the request finishes.
A figure that depends on several phases (``tokens_saved``: the reused answer's cost minus what
this request spent, only for an answer that passed) is worked out in that one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from stepcache_integrations.core.records import Decision, StepCacheRecord

__all__ = [
    "Checked",
    "Match",
    "Mended",
    "Mending",
    "Outcomes",
    "Reused",
    "Stored",
    "Usage",
    "build_record",
]

Mended = Literal["edit", "partial", "repair", "fallback"]


@dataclass
class Usage:
    """The model calls made for one request and their tokens (summed over every call)."""

    model_calls: int = 0
    tokens_input: int = 0
    tokens_output: int = 0
    estimated: bool = False  # some count was estimated: the model reported no usage

    def add(self, input_tokens: int, output_tokens: int, estimated: bool) -> None:
        """Account for one model call."""
        self.model_calls += 1
        self.tokens_input += input_tokens
        self.tokens_output += output_tokens
        self.estimated = self.estimated or estimated

    @property
    def used(self) -> int:
        return self.tokens_input + self.tokens_output


@dataclass(frozen=True)
class Match:
    """The cached entry the lookup (exact path or retrieval) settled on.

    ``similarity`` is ``None`` when it was not compared (an identical request rejected by the
    request's own verifiers); ``candidates`` counts the entries verified before one was chosen
    (0 when none was); ``task`` is the entry's task when the request is the same as the entry's
    (an exact hit), ``None`` when the request's own recognition decides it.
    """

    entry_id: str
    similarity: float | None = None
    candidates: int = 0
    steps_total: int = 0
    steps_adapted: int = 0
    task: str | None = None


@dataclass(frozen=True)
class Reused:
    """The steps of a cached answer the request was served (an exact hit, a reuse, a patch).

    ``original_cost`` is the tokens the cached answer cost when it was generated.
    """

    original_cost: int
    steps_reused: int
    steps_regenerated: int = 0
    patched_by: Literal["model", "solver"] | None = None


@dataclass(frozen=True)
class Mending:
    """What mending a failing answer did: the answer that passes (``None`` when none was
    found), how it was made, whether the repair call was made (even if it did not help), and
    why no repair call was made when it was not."""

    text: str | None = None
    how: Mended | None = None
    repaired: bool = False
    not_repaired: str = ""


@dataclass(frozen=True)
class Checked:
    """How the answer returned fared in the whole-answer check and its mending.

    ``failure`` is why it still fails (it is then flagged and never stored);
    ``instead_of_model``: the task's deterministic answer was served without a model call.
    """

    failure: str | None = None
    mending: Mending = field(default_factory=Mending)
    instead_of_model: bool = False


@dataclass(frozen=True)
class Stored:
    """Whether the answer was stored, and why not when the policy refused it."""

    stored: bool
    refused: str | None = None


@dataclass
class Outcomes:
    """The outcomes of one request's phases so far: each is set by the phase that produced it;
    ``usage`` and ``verdicts`` add up over the whole request."""

    usage: Usage = field(default_factory=Usage)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    match: Match | None = None
    reused: Reused | None = None
    checked: Checked = field(default_factory=Checked)
    stored: Stored = field(default_factory=lambda: Stored(False))
    reuse_kind: str | None = None


def build_record(
    outcomes: Outcomes,
    *,
    decision: Decision,
    reason: str,
    namespace: str,
    tenant: str | None,
    task: str | None,
    latency_ms: dict[str, float],
) -> StepCacheRecord:
    """The record of a finished request (``task``: the request's recognised task, if it was
    recognised; an exact hit's entry says it otherwise).

    Example:
        >>> record = build_record(
        ...     Outcomes(match=Match("e1", 1.0, steps_total=2), reused=Reused(120, 2)),
        ...     decision="exact",
        ...     reason="identical request",
        ...     namespace="ns",
        ...     tenant=None,
        ...     task=None,
        ...     latency_ms={"total": 0.1},
        ... )
        >>> record.tokens_saved, record.steps_reused, record.similarity
        (120, 2, 1.0)
    """
    usage, match, reused = outcomes.usage, outcomes.match, outcomes.reused
    checked = outcomes.checked
    passed = checked.failure is None
    mending = checked.mending
    return StepCacheRecord(
        decision=decision,
        reason=reason,
        namespace=namespace,
        tenant=tenant,
        task=match.task if match is not None and match.task is not None else task,
        reuse_kind=outcomes.reuse_kind,
        similarity=match.similarity if match is not None else None,
        entry_id=match.entry_id if match is not None else None,
        candidates=match.candidates if match is not None else 0,
        steps_total=match.steps_total if match is not None else 0,
        steps_reused=reused.steps_reused if reused is not None else 0,
        steps_adapted=match.steps_adapted if match is not None else 0,
        steps_regenerated=reused.steps_regenerated if reused is not None else 0,
        patched_by=reused.patched_by if reused is not None else None,
        model_calls=usage.model_calls,
        tokens_input=usage.tokens_input,
        tokens_output=usage.tokens_output,
        tokens_used=usage.used,
        # What reusing saved: nothing for an answer that failed its checks (it is not reused).
        tokens_saved=reused.original_cost - usage.used if reused is not None and passed else 0,
        tokens_estimated=usage.estimated,
        repaired=mending.repaired,
        fallback=checked.instead_of_model or mending.how == "fallback",
        mended=mending.how,
        passed=passed,
        failure=checked.failure if checked.failure is not None else outcomes.stored.refused,
        stored=outcomes.stored.stored,
        latency_ms=latency_ms,
        verdicts=outcomes.verdicts,
    )
