"""The verifier contract: what a verifier sees and what it may answer.

A verifier looks at the *new* request, the cached request it was matched to, and either one
cached step or the whole stitched answer, and says pass, fail (with a reason) or
not-applicable. Task verifiers (linear equations, JSON) may also offer a repair instruction, a
deterministic answer, and a deterministic continuation used to patch steps without a model call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from stepcache_integrations.core.entry_analysis import EntryAnalysis
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.text import Edit, RequestDelta

__all__ = [
    "ChangeAccount",
    "Outcome",
    "PartialPatch",
    "Verdict",
    "Verifier",
    "VerifyContext",
]


class Outcome(StrEnum):
    """What a verifier concluded.

    Example:
        >>> Outcome("n/a") is Outcome.NOT_APPLICABLE, str(Outcome.PASS)
        (True, 'pass')
    """

    PASS = "pass"
    FAIL = "fail"
    NOT_APPLICABLE = "n/a"


@dataclass(frozen=True)
class Verdict:
    """One verifier's conclusion about one step (``step`` is its index) or the whole answer.

    Example:
        >>> Verdict.fail("linear", "x = 4 does not solve 2x + 1 = 7", step=2).passed
        False
    """

    outcome: Outcome
    verifier: str
    reason: str = ""
    step: int | None = None

    @property
    def passed(self) -> bool:
        return self.outcome is Outcome.PASS

    @property
    def failed(self) -> bool:
        return self.outcome is Outcome.FAIL

    @classmethod
    def ok(cls, verifier: str, reason: str = "", step: int | None = None) -> Verdict:
        return cls(Outcome.PASS, verifier, reason, step)

    @classmethod
    def fail(cls, verifier: str, reason: str, step: int | None = None) -> Verdict:
        return cls(Outcome.FAIL, verifier, reason, step)

    @classmethod
    def not_applicable(cls, verifier: str, step: int | None = None) -> Verdict:
        return cls(Outcome.NOT_APPLICABLE, verifier, "", step)

    def to_dict(self) -> dict[str, Any]:
        return {
            "verifier": self.verifier,
            "outcome": self.outcome.value,
            "reason": self.reason,
            "step": self.step,
        }


ChangeKind = Literal["wording", "value", "case", "rename"]


@dataclass(frozen=True)
class ChangeAccount:
    """How one task family accounts for one change (an :class:`Edit`) between a cached request
    and a new one.

    ``kind`` is ``"wording"`` when the edit only changes how the task is named ("solve" ->
    "find"): the family declares that no part of an answer depends on it. It is ``"value"``
    when the edit changes a value the family models (an equation's constant, a JSON key or
    fixed value, a quantity, a copied argument): the family then answers for every part of a
    reused step that may depend on it (see :meth:`TaskFamily.unchecked_part
    <stepcache_integrations.core.tasks.base.TaskFamily.unchecked_part>`). It is ``"case"``
    when only the letter case of words changed: a step that mentions them may copy their
    spelling and is never reused. It is ``"rename"`` when names or things were renamed
    consistently and the family rewrites them the same way in the answer: like a value, the
    family answers for every part of a reused step that may depend on it. ``what`` says which
    value, for records and reasons.

    Example:
        >>> from stepcache_integrations.core.text import compare
        >>> edit = compare("Solve 3x + 5 = 20", "Solve 3x + 7 = 20").edits[0]
        >>> ChangeAccount(edit, "linear_equation", "value", "a constant of the equation").shown
        "'5' -> '7'"
    """

    edit: Edit
    family: str
    kind: ChangeKind
    what: str = ""

    @property
    def shown(self) -> str:
        """The edit as ``'old' -> 'new'`` (or the one side it has)."""
        return show_edit(self.edit)


def show_edit(edit: Edit) -> str:
    """One edit for people: ``'old' -> 'new'``, or the removed or added text alone."""

    def side(tokens: Sequence[Any]) -> str:
        return " ".join(token.text for token in tokens)

    if edit.removed and edit.added:
        return f"{side(edit.removed)!r} -> {side(edit.added)!r}"
    return repr(side(edit.removed or edit.added))


@dataclass(frozen=True)
class VerifyContext:
    """Everything a verifier may look at.

    ``request`` is the new prompt text; ``cached_request`` the prompt of the cached entry
    (``None`` when checking a freshly generated answer); ``diff`` what changed between them
    (:func:`~stepcache_integrations.core.text.compare`); ``accounts`` how the recognising task
    families account for each change of ``diff`` (empty for the same request or a fresh
    answer). ``options`` carries per-call settings such as a JSON Schema given by the caller.

    ``answer`` is the answer in hand when the engine asks for a deterministic one, the
    evidence of what was asked: for :meth:`Verifier.fallback`, the model's own answer to
    ``request`` that failed its check (``None`` when there is none yet); for
    :meth:`Verifier.continue_steps`, the cached answer (to ``cached_request``) whose verified
    steps are shown. The other hooks get ``None``.

    Example:
        >>> VerifyContext("Solve 2x = 4").changed  # a fresh answer: nothing changed
        False
        >>> VerifyContext("Solve 2x = 4", answer="2x = 4, so x = 3").answer
        '2x = 4, so x = 3'
    """

    request: str
    cached_request: str | None = None
    diff: RequestDelta | None = None
    options: dict[str, Any] = field(default_factory=dict)
    accounts: tuple[ChangeAccount, ...] = ()
    answer: str | None = None
    # What the task families read of ``cached_request`` when its entry was stored (or first
    # met): a family reads its own part instead of reading the cached text again.
    cached_analysis: EntryAnalysis | None = field(default=None, compare=False, repr=False)

    def cached_reading(self, family: str) -> object | None:
        """What ``family`` read of ``cached_request`` once, or ``None`` (it reads the text)."""
        analysis = self.cached_analysis
        if analysis is None or self.cached_request is None:
            return None
        if analysis.prompt is not self.cached_request and analysis.prompt != self.cached_request:
            return None
        return analysis.reading(family)

    @property
    def changed(self) -> bool:
        """Whether a cached answer is being judged for a request that is not the same request
        (some step may depend on a change)."""
        return self.diff is not None and not self.diff.same


@dataclass(frozen=True)
class PartialPatch:
    """Ask the model for only the missing part of a failing step, then merge it in.

    ``instruction`` is sent to the model (after the conversation); ``merge`` turns the model's
    reply into the repaired step, or ``None`` when the reply is unusable. ``response_schema``:
    the JSON Schema the reply must meet, when there is one (see :meth:`Verifier.response_schema`).
    """

    instruction: str
    merge: Callable[[str], Step | None]
    response_schema: dict[str, Any] | None = None
    #: ``True`` when the call regenerates every part of the step that may depend on the
    #: request's changes (the merged step then needs no family to vouch for its kept parts:
    #: they are the ones the verifier checks against the new request).
    regenerates_dependents: bool = False


class Verifier:
    """Base class of verifiers. Every method has a safe default; override what applies.

    Example:
        >>> class NoLorem(Verifier):
        ...     name = "no-lorem"
        ...     def check_answer(self, ctx, answer):
        ...         if "lorem" in answer:
        ...             return Verdict.fail(self.name, "placeholder text")
        ...         return Verdict.ok(self.name)
    """

    name: str = "verifier"
    #: ``True`` when a pass from :meth:`check_step` means that every number of the step was
    #: traced to the request's quantities or computed from them by equations that hold. The
    #: staleness check then accepts a number the prompt no longer states (an old quantity that
    #: a new calculation gives again), as long as the prompt's other words are still there.
    traces_numbers: bool = False

    def checks_answer(self, request: str) -> bool:
        """Whether :meth:`check_answer` can fail for ``request`` (then streamed output is held
        until it is checked, so a wrong answer is never shown)."""
        return False

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        """Check one cached step against the new request."""
        return Verdict.not_applicable(self.name, index)

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        """Check the whole (stitched or generated) answer against the request."""
        return Verdict.not_applicable(self.name)

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        """A focused instruction for the one repair call (``None``: use the generic one)."""
        return None

    def adapt_step(self, ctx: VerifyContext, step: Step) -> Step | None:
        """Deterministically rewrite a cached step for the new request, or ``None``.

        The rewritten step is verified again like any other step before it is served.
        """
        return None

    def continue_steps(self, ctx: VerifyContext, prefix: Sequence[Step]) -> str | None:
        """Deterministically write the steps that follow a verified prefix, or ``None``.
        ``ctx.answer`` is the cached answer the prefix comes from."""
        return None

    def partial_patch(self, ctx: VerifyContext, step: Step) -> PartialPatch | None:
        """A request for only the missing part of ``step`` (one added JSON key), or ``None``."""
        return None

    def fallback(self, ctx: VerifyContext) -> str | None:
        """A deterministic whole answer for the request, or ``None`` when there is none.
        ``ctx.answer`` is the model's answer being mended, when there is one."""
        return None

    def answer_key(self, request: str, answer: str, options: Mapping[str, Any]) -> Any:
        """What ``answer`` claims as an answer to ``request``, compared with ``==`` by an
        audit (a task family's default :meth:`TaskFamily.answer_key
        <stepcache_integrations.core.tasks.base.TaskFamily.answer_key>`); ``None`` when the
        verifier reads none."""
        return None

    def response_schema(self, ctx: VerifyContext) -> dict[str, Any] | None:
        """A JSON Schema that every whole answer to ``ctx.request`` must be an instance of, or
        ``None``. Given, a model that supports constrained output (an OpenAI JSON schema, a
        llama.cpp grammar) can be held to it when the user enables that. The answer is still
        checked: the schema only narrows what the model may write."""
        return None
