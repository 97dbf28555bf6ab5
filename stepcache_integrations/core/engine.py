"""The request path: key, exact path, retrieval, step verification, decision,
stitch and check, repair, fallback, store, record.

:class:`RequestRun` is a generator-based state machine with no I/O of its own (see
:mod:`stepcache_integrations.core.protocol`), so one implementation serves sync, async and
streaming callers of both frameworks.
"""

from __future__ import annotations

import functools
import logging
import math
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from stepcache_integrations.core.audit.keys import reuse_kind, stronger_kind
from stepcache_integrations.core.entries import CacheEntry
from stepcache_integrations.core.entry_analysis import EntryAnalyses
from stepcache_integrations.core.outcomes import (
    Checked,
    Match,
    Mending,
    Outcomes,
    Reused,
    Stored,
    build_record,
)
from stepcache_integrations.core.outlook import TaskOutlook
from stepcache_integrations.core.policy import Policy
from stepcache_integrations.core.protocol import (
    Action,
    CacheRequest,
    Emit,
    ModelCall,
    ModelReply,
    ServeResult,
    Turn,
)
from stepcache_integrations.core.records import Decision, StepCacheRecord
from stepcache_integrations.core.request_checks import RequestChecks, Verification, guarded
from stepcache_integrations.core.steps import (
    ParagraphSegmenter,
    Segmenter,
    Step,
    join_steps,
)
from stepcache_integrations.core.stores.base import StoreUnavailable
from stepcache_integrations.core.tasks.base import Adaptation
from stepcache_integrations.core.tasks.registry import Recognition, TaskRegistry
from stepcache_integrations.core.tasks.soundness import NAME as SOUNDNESS
from stepcache_integrations.core.tasks.soundness import account_changes, for_staleness
from stepcache_integrations.core.text import compare, same_request
from stepcache_integrations.core.verifiers.base import (
    PartialPatch,
    Verdict,
    Verifier,
    VerifyContext,
)
from stepcache_integrations.core.verifiers.staleness import (
    StalenessVerifier,
)

__all__ = ["CacheAccess", "Candidate", "EngineSettings", "RequestRun"]

logger = logging.getLogger(__name__)

Flow = Generator[Action, ModelReply | None, ServeResult]
MaybeFlow = Generator[Action, ModelReply | None, ServeResult | None]
CallFlow = Generator[Action, ModelReply | None, ModelReply]
EmitFlow = Generator[Action, ModelReply | None, None]
TextFlow = Generator[Action, ModelReply | None, str]
MendFlow = Generator[Action, ModelReply | None, Mending]
StepMendFlow = Generator[Action, ModelReply | None, Mending | None]
PartialFlow = Generator[Action, ModelReply | None, tuple[Step, bool] | None]

# Every patch call sends it as input, so it is kept short: a patch already pays for the
# verified prefix again, as input instead of output.
CONTINUE_INSTRUCTION = (
    "Continue after the verified steps above, in the same format, without repeating them, "
    "and end with the final answer."
)
DETERMINISTIC_INSTEAD = (
    "served the task's deterministic answer without a model call: the model's recent answers "
    "to this task failed their checks (a probe still asks the model now and then)"
)
CACHE_UNAVAILABLE = "cache unavailable"
"""How the reason of a request that bypassed a failing store begins."""
ANSWERED = "answered by the caller's model: checked and stored without a lookup"
AS_ANSWERED = "the caller returns the model's answer as it is"
IDENTICAL = "identical request"
"""The reason of an exact decision whose cached prompt is this very text, byte for byte."""
SUSPENDED = "reuse suspended by the audit"
"""Part of the reason of a request whose kind of reuse an audit suspended (the model answers)."""
SAME_REQUEST = "same request up to meaning-neutral edits"
"""The reason of an exact decision whose cached prompt is another wording of the request:
only meaning-neutral edits apart (layout, a sentence's capital, politeness, a final mark)."""


class CacheAccess(Protocol):
    """What the request path needs from the cache it serves, and nothing more.

    Lookups raise :class:`~stepcache_integrations.core.stores.base.StoreUnavailable` when the
    store cannot answer (the request is then answered by the model: fail open); writes never
    raise.
    """

    def exact(self, request: CacheRequest) -> CacheEntry | None:
        """The live entry of the same request (same namespace and tenant, same prompt in
        comparison form: :func:`~stepcache_integrations.core.entries.prompt_key`)."""
        ...

    def nearest(self, request: CacheRequest, k: int) -> list[tuple[CacheEntry, float]]:
        """Up to ``k`` live entries of the request's namespace and tenant, nearest first."""
        ...

    def touch(self, entry: CacheEntry) -> None:
        """Record a use of ``entry`` (best effort)."""
        ...

    def store(self, entry: CacheEntry, request: CacheRequest) -> bool:
        """Store ``entry`` for ``request``; ``False`` when it was not stored."""
        ...

    def observe(self, record: StepCacheRecord) -> None:
        """Account for a finished request."""
        ...


@dataclass(frozen=True)
class EngineSettings:
    """The configuration every request of one cache shares.

    ``verifiers`` are the cache's own (beyond its task families); a request adds its
    ``extra_verifiers``; the staleness check always runs last. ``segmenter`` overrides the
    families' segmenters when set.
    """

    policy: Policy
    registry: TaskRegistry
    verifiers: tuple[Verifier, ...] = ()
    segmenter: Segmenter | None = None
    repair_outlook: TaskOutlook = field(default_factory=TaskOutlook)
    # How the model's own answers (full generations) to each task fared in the checks.
    answer_outlook: TaskOutlook = field(default_factory=TaskOutlook)
    # Whether a kind of reuse is suspended in a namespace (an audit found it wrong): such a
    # request is answered by the model. ``None``: no audit, nothing is ever suspended.
    suspended: Callable[[str, str], bool] | None = None
    # What the task families read of each cached request, read once (when stored, or when a
    # hit first meets an entry stored before): a hit reads only the new request.
    analyses: EntryAnalyses = field(default_factory=EntryAnalyses)


_STALENESS = StalenessVerifier()


@dataclass(frozen=True)
class Candidate:
    """A cached entry close to the request; ``verification`` is ``None`` when it was rejected
    before any step was checked (``rejected`` says why)."""

    entry: CacheEntry
    similarity: float
    ctx: VerifyContext
    verification: Verification | None
    rejected: str
    # What a deterministic solver writes after the verified steps, when one can (found while
    # verifying: such a candidate needs no model call, so no later candidate can beat it).
    continuation: str | None = None

    def rank(self) -> tuple[bool, int, bool, float]:
        """Fully verified first, then the longest verified prefix, then one whose failing
        step only lacks what a verifier can check (a missing JSON key) over one with a part
        that may depend on a change (which must be regenerated whole), then similarity."""
        found = self.verification
        assert found is not None
        held = len(found.steps) if found.failed_at is None else found.failed_at
        sound = not any(
            v.failed and v.verifier == SOUNDNESS and v.step == found.failed_at
            for v in found.verdicts
        )
        return (found.failed_at is None, held, sound, self.similarity)


def patch_prefix(verified: Sequence[Step], failed_at: int) -> list[Step]:
    """The verified steps a patch keeps, the last one ending its line (the regenerated block
    starts on a line of its own)."""
    prefix = list(verified[:failed_at])
    if prefix and not prefix[-1].separator:
        prefix[-1] = Step(prefix[-1].text, "\n")
    return prefix


def estimate_tokens(chars: int) -> int:
    """Rough token count for models that report no usage (about 4 characters a token)."""
    return math.ceil(chars / 4) if chars > 0 else 0


class _PhaseTimer:
    """Adds the milliseconds spent in a ``with`` block to ``phases[name]`` (a class rather
    than ``contextlib.contextmanager``, whose generator costs several times more on a hit)."""

    __slots__ = ("name", "phases", "started")

    def __init__(self, phases: dict[str, float], name: str) -> None:
        self.phases = phases
        self.name = name
        self.started = 0.0

    def __enter__(self) -> None:
        self.started = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        elapsed = (time.perf_counter() - self.started) * 1000.0
        self.phases[self.name] = self.phases.get(self.name, 0.0) + elapsed


class RequestRun:
    """One request through the cache. Use :meth:`StepCache.serve` rather than this class."""

    def __init__(
        self, settings: EngineSettings, access: CacheAccess, request: CacheRequest
    ) -> None:
        self.settings = settings
        self.access = access
        self.policy = settings.policy
        self.request = request
        # What each phase found; the record is built from them when the request finishes.
        self.outcomes = Outcomes()
        self.emitted = ""
        # The cached entry an answer is made from: its original cost and age carry over to
        # entries stored from it (a reused step is as old as the answer it came from).
        self.origin: CacheEntry | None = None
        self.full_reply: ModelReply | None = None
        # A patch's output-token budget (None outside a patch).
        self.patch_budget: float | None = None
        self._started = time.perf_counter()
        self._phases: dict[str, float] = {}
        self.kept: dict[str, Any] | None = None  # the ``keep`` data an exact hit gives back
        # What the cache would have served when its kind of reuse was suspended (an audit
        # compares it with the model's answer), and that kind.
        self.shadow: str | None = None
        self.suspended_kind: str | None = None

    # Recognised on first use: an identical request served by the exact path never needs it.
    @functools.cached_property
    def recognition(self) -> Recognition:
        """The task families that recognise the request."""
        return self.settings.registry.recognise(self.request.prompt, self.request.options)

    @functools.cached_property
    def checks(self) -> RequestChecks:
        """The families' verifiers, the cache's, the request's, then the staleness check."""
        verifiers = (
            *(family.verifier for family in self.recognition.families),
            *self.settings.verifiers,
            *self.request.extra_verifiers,
            _STALENESS,
        )
        return RequestChecks(verifiers, self._keep, self.recognition.families)

    # -- bookkeeping -------------------------------------------------------------------------

    def _phase(self, name: str) -> _PhaseTimer:
        return _PhaseTimer(self._phases, name)

    def _call(self, call: ModelCall) -> CallFlow:
        """Yield a model call, account for its tokens, return the reply."""
        with self._phase("generate"):  # the driver's model call happens during the yield
            reply = yield call
        if not isinstance(reply, ModelReply):
            raise TypeError(f"the driver must answer a ModelCall with a ModelReply, got {reply!r}")
        extra_chars = sum(len(turn.content) for turn in call.extra_turns)
        input_tokens = reply.input_tokens
        output_tokens = reply.output_tokens
        estimated = input_tokens is None or output_tokens is None
        if input_tokens is None:
            input_tokens = estimate_tokens(self.request.input_chars + extra_chars)
        if output_tokens is None:
            output_tokens = estimate_tokens(len(reply.text))
        self.outcomes.usage.add(input_tokens, output_tokens, estimated)
        if call.live:
            self.emitted += reply.text
        return reply

    def _emit(self, text: str) -> EmitFlow:
        if text:
            self.emitted += text
            yield Emit(text)

    def _finish(self, decision: Decision, text: str, reason: str = "") -> ServeResult:
        self._phases["total"] = (time.perf_counter() - self._started) * 1000.0
        record = self._record(decision, reason)
        self.access.observe(record)
        full = self.full_reply if self.full_reply and self.full_reply.text == text else None
        return ServeResult(
            text=text, record=record, emitted=self.emitted, full_reply=full, kept=self.kept
        )

    def _record(self, decision: Decision, reason: str) -> StepCacheRecord:
        """The one place the request's record is built: from what its phases found."""
        request = self.request
        # Only if recognised already: no extra cost (an exact hit's entry names its task).
        task = self.recognition.key if "recognition" in self.__dict__ else None
        return build_record(
            self.outcomes,
            decision=decision,
            reason=reason,
            namespace=request.namespace,
            tenant=request.tenant,
            task=task,
            latency_ms={k: round(v, 3) for k, v in self._phases.items()},
        )

    def _keep(self, verdicts: Sequence[Verdict]) -> None:
        self.outcomes.verdicts.extend(v.to_dict() for v in verdicts if v.outcome.value != "n/a")

    # -- verification ------------------------------------------------------------------------

    @property
    def task(self) -> str | None:
        """The task families that recognise the request, joined ("json", "linear_equation",
        "json+linear_equation"), or ``None``."""
        return self.recognition.key

    @property
    def outlook_key(self) -> str:
        """What the outlooks keep outcomes per: the task, for this namespace (the model and its
        settings): one model failing a task says nothing of another model sharing the cache."""
        return f"{self.request.namespace}/{self.task}"

    @functools.cached_property
    def segmenter(self) -> Segmenter:
        """How answers to this request are split: the cache's override, else the primary
        family's segmenter, else paragraphs and list items."""
        if self.settings.segmenter is not None:
            return self.settings.segmenter
        primary = self.recognition.primary
        return primary.segmenter if primary is not None else ParagraphSegmenter()

    def _candidate(self, entry: CacheEntry, similarity: float, task: str | None) -> Candidate:
        request = self.request
        delta = compare(entry.prompt, request.prompt, answer=entry.answer)
        # The same task: the families that recognise the request read the cached one too.
        analysis = (
            self.settings.analyses.analyse(entry, self.recognition.families)
            if entry.task == task
            else None
        )
        ctx = VerifyContext(
            request.prompt, entry.prompt, delta, request.options, cached_analysis=analysis
        )
        if entry.task != task:
            return Candidate(
                entry,
                similarity,
                ctx,
                None,
                f"semantic change: task {entry.task!r} became {task!r}",
            )
        # Never a stale answer: every meaning change must be one a recognised family accounts
        # for (and each reused step is then vouched for by the families that took them on).
        families = self.recognition.families
        accounts = account_changes(ctx, families)
        if isinstance(accounts, str):
            return Candidate(entry, similarity, ctx, None, f"semantic change: {accounts}")
        ctx = replace(ctx, diff=for_staleness(delta, families), accounts=accounts)
        return Candidate(entry, similarity, ctx, self._verify_candidate(ctx, entry), "")

    def _verify_candidate(self, ctx: VerifyContext, entry: CacheEntry) -> Verification:
        """Let the first family that can re-instantiate the whole answer do it, then verify
        every step as usual (re-instantiated steps are checked like any other)."""
        for family in self.recognition.families:
            adaptation = guarded(
                family.verifier, "adapt_answer", family.adapt_answer, ctx, entry.steps
            )
            if isinstance(adaptation, Adaptation) and len(adaptation.steps) > 0:
                changed = sum(
                    1 for old, new in zip(entry.steps, adaptation.steps, strict=False) if old != new
                )
                reason = adaptation.reason or "not carried over to the new request"
                stop = Verdict.fail(family.verifier.name, reason, step=adaptation.valid)
                return self.checks.verify_steps(
                    ctx, adaptation.steps, adaptation.valid, changed, stop
                )
        return self.checks.verify_steps(ctx, entry.steps)

    # -- the request path --------------------------------------------------------------------

    def run(self) -> Flow:
        request, policy = self.request, self.policy
        if request.bypass_reason:
            return (yield from self._bypass(request.bypass_reason))
        if not request.prompt.strip():
            return (yield from self._bypass("the request has no text prompt"))
        if len(request.prompt) > policy.max_prompt_chars:
            return (
                yield from self._bypass(
                    f"prompt of {len(request.prompt)} chars exceeds max_prompt_chars="
                    f"{policy.max_prompt_chars}"
                )
            )
        ctx = VerifyContext(request.prompt, options=request.options)
        if request.model_access == "answered":
            return (yield from self._generate(ctx, "miss", ANSWERED))

        try:
            with self._phase("lookup"):
                exact = self._same_request_entry(self.access.exact(request))
                matches = [] if exact else self.access.nearest(request, policy.candidates)
        except StoreUnavailable as unavailable:
            return (yield from self._bypass(f"{CACHE_UNAVAILABLE}: {unavailable}"))
        if exact is not None:
            return (yield from self._serve_exact(ctx, exact))
        if not matches:
            return (yield from self._generate(ctx, "miss", "no cached request in this namespace"))
        nearest, similarity = matches[0]
        self.outcomes.match = Match(nearest.id, round(similarity, 4))
        if similarity < policy.similarity_threshold:
            return (
                yield from self._generate(
                    ctx,
                    "miss",
                    f"nearest similarity {similarity:.3f} "
                    f"< threshold {policy.similarity_threshold}",
                )
            )

        # Verify the close candidates, nearest first, and keep the one that reuses the most
        # (the nearest by embedding is not always the most reusable); stop at the first that
        # needs no model call: one that reuses everything, or whose failing steps a solver
        # writes (certain and free; verifying more candidates would only cost time).
        with self._phase("verify"):
            task = self.task
            candidates: list[Candidate] = []
            for entry, score in matches:
                if score < policy.similarity_threshold:
                    break
                candidate = self._completed(self._candidate(entry, score, task))
                candidates.append(candidate)
                found = candidate.verification
                if found is not None and (
                    found.failed_at is None or candidate.continuation is not None
                ):
                    break
        usable = [c for c in candidates if c.verification is not None]
        if not usable:
            return (yield from self._generate(candidates[0].ctx, "skip", candidates[0].rejected))
        last = usable[-1]
        best = last if last.continuation is not None else max(usable, key=Candidate.rank)
        entry, ctx, found = best.entry, best.ctx, best.verification
        assert found is not None
        self.origin = entry
        self.outcomes.match = Match(
            entry.id,
            round(best.similarity, 4),
            candidates=len(candidates),
            steps_total=len(entry.steps),
            steps_adapted=found.adapted,
        )
        self._keep(found.verdicts)
        steps = list(found.source)
        if found.failed_at is None:
            return (yield from self._serve_reuse(ctx, entry, found.steps))
        return (
            yield from self._patch_or_skip(
                ctx, entry, steps, found.steps, found.failed_at, best.continuation
            )
        )

    def _completed(self, candidate: Candidate) -> Candidate:
        """``candidate`` with the solver's continuation of its verified steps, if any."""
        found = candidate.verification
        if found is None or found.failed_at is None or not self.policy.solver_patches:
            return candidate
        prefix = patch_prefix(found.steps, found.failed_at)
        # The cached answer whose prefix is shown: what its request asked, in its own form.
        ctx = replace(candidate.ctx, answer=candidate.entry.answer)
        continuation = self.checks.continuation(ctx, prefix)
        return candidate if continuation is None else replace(candidate, continuation=continuation)

    def _bypass(self, reason: str) -> Flow:
        reply = yield from self._call(ModelCall("full", live=True))
        self.full_reply = reply
        return self._finish("bypass", reply.text, reason)

    def _same_request_entry(self, entry: CacheEntry | None) -> CacheEntry | None:
        """``entry`` (found by the exact-path key) when it answers this very request: its
        prompt is this text, or a wording of it whose spelling changes the cached answer does
        not copy. ``None`` otherwise ("Write a slogan for a cafe in Boston" cached with the
        answer "Boston's best brew", asked with "boston"): the request then goes the normal
        way (nearest entries and their verification, or the model). An identical text costs
        no tokenisation."""
        if entry is None or entry.prompt == self.request.prompt:
            return entry
        if same_request(entry.prompt, self.request.prompt, answer=entry.answer):
            return entry
        return None

    def _serve_exact(self, ctx: VerifyContext, entry: CacheEntry) -> Flow:
        """The same request's answer (its identical text, or a wording of it that differs by
        meaning-neutral edits alone), unless this request's own verifiers (not part of
        the namespace: wrappers sharing a cache may carry different ones) reject it."""
        text = entry.answer
        for verifier in self.request.extra_verifiers:
            verdict = guarded(verifier, "check_answer", verifier.check_answer, ctx, text)
            if not isinstance(verdict, Verdict) or verdict.failed:
                reason = verdict.reason if isinstance(verdict, Verdict) else repr(verdict)
                self._keep([verdict] if isinstance(verdict, Verdict) else [])
                self.outcomes.match = Match(entry.id)
                return (
                    yield from self._generate(
                        ctx, "skip", f"the cached answer fails {verifier.name}: {reason}"
                    )
                )
        # An answer the cache made by re-instantiating another counts as that kind of reuse.
        kind = entry.made_by or reuse_kind(entry.task, exact=True)
        if self._suspended(kind):
            return (yield from self._suspended_reuse(ctx, kind, text))
        self.outcomes.reuse_kind = kind
        self.access.touch(entry)
        self.kept = entry.kept
        # The same request: the same task, recognised when it was stored.
        self.outcomes.match = Match(entry.id, 1.0, steps_total=len(entry.steps), task=entry.task)
        self.outcomes.reused = Reused(entry.tokens_input + entry.tokens_output, len(entry.steps))
        yield from self._emit(text)
        return self._finish("exact", text, _exact_reason(entry.prompt, self.request.prompt))

    def _serve_reuse(self, ctx: VerifyContext, entry: CacheEntry, steps: list[Step]) -> Flow:
        text = join_steps(steps)
        with self._phase("check"):
            failure = self.checks.check_answer(ctx, text)
        if failure is not None:
            return (
                yield from self._generate(
                    ctx, "skip", f"every step held but the whole answer failed: {failure.reason}"
                )
            )
        kind = stronger_kind(reuse_kind(self.task, ctx.accounts), entry.made_by)
        if self._suspended(kind):
            return (yield from self._suspended_reuse(ctx, kind, text))
        self.outcomes.reuse_kind = kind
        self.access.touch(entry)
        self.outcomes.reused = Reused(entry.tokens_input + entry.tokens_output, len(steps))
        yield from self._emit(text)
        self._store(text)
        return self._finish("reuse", text, "every cached step verified")

    def _suspended(self, kind: str) -> bool:
        check = self.settings.suspended
        return check is not None and check(self.request.namespace, kind)

    def _suspended_reuse(self, ctx: VerifyContext, kind: str, served: str | None) -> Flow:
        """The model answers a request whose kind of reuse an audit suspended; ``served`` is
        what the cache would have served (compared with the model's answer off the request
        path: a shadow audit)."""
        self.shadow = served
        self.suspended_kind = kind
        return (yield from self._generate(ctx, "skip", f"{kind} {SUSPENDED}; the model answers"))

    def _patch_or_skip(
        self,
        ctx: VerifyContext,
        entry: CacheEntry,
        steps: list[Step],
        verified: list[Step],
        failed_at: int,
        continuation: str | None,
    ) -> Flow:
        """Regenerate from the failing step: the solver's ``continuation`` (found while the
        candidates were verified) when there is one, else a partial or a patch call, or skip.
        """
        policy = self.policy
        kind = stronger_kind(reuse_kind(self.task, ctx.accounts), entry.made_by)
        if self._suspended(kind):
            return (yield from self._suspended_reuse(ctx, kind, None))
        self.outcomes.reuse_kind = kind
        by_model = continuation is None and self.request.model_access == "calls"
        if by_model:
            partial = yield from self._try_partial(ctx, entry, steps, verified, failed_at)
            if partial is not None:
                return partial
        block = len(steps) - failed_at
        prefix = patch_prefix(verified, failed_at)
        # A deterministic continuation is certain and free: it is worth taking even from the
        # first step (a model call whose answer might be thrown away is not).
        if continuation is None and failed_at == 0 and policy.skip_on_first_step:
            return (yield from self._generate(ctx, "skip", "the first cached step failed"))
        # The size rule is about cost: output tokens, for which length is the proxy (a JSON
        # object after a one-line fence opener is nearly all of the answer). A deterministic
        # continuation costs nothing.
        total_chars = max(1, sum(len(step.text) for step in steps))
        share = sum(len(step.text) for step in steps[failed_at:]) / total_chars
        if continuation is None and share > policy.max_regenerate_fraction:
            return (
                yield from self._generate(
                    ctx,
                    "skip",
                    f"steps {failed_at}-{len(steps) - 1} ({share:.0%} of the answer) would be "
                    f"regenerated (> max_regenerate_fraction={policy.max_regenerate_fraction})",
                )
            )
        if continuation is None and not by_model:
            return (
                yield from self._generate(
                    ctx, "skip", f"step {failed_at} failed; a patch needs a model call of its own"
                )
            )
        prefix_text = join_steps(prefix)
        self.outcomes.reused = Reused(
            entry.tokens_input + entry.tokens_output,
            len(prefix),
            block,
            patched_by="solver" if continuation is not None else "model",
        )
        # One full generation of this answer, in output tokens: what the patch must not
        # outspend by more than the policy's margin.
        self.patch_budget = max(1, entry.tokens_output) * policy.patch_budget
        yield from self._emit(prefix_text)

        if continuation is None:
            live = not self.checks.answer_checks(self.request.prompt)
            reply = yield from self._call(
                ModelCall(
                    "patch",
                    (Turn("assistant", prefix_text), Turn("user", CONTINUE_INSTRUCTION)),
                    live=live,
                )
            )
            continuation = reply.text if live else _strip_repeated_prefix(reply.text, prefix_text)
        text = prefix_text + continuation
        text = yield from self._check_and_mend(ctx, text, prefix)
        return self._finish("patch", text, f"step {failed_at} failed; regenerated from there")

    def _try_partial(
        self,
        ctx: VerifyContext,
        entry: CacheEntry,
        steps: list[Step],
        verified: list[Step],
        failed_at: int,
    ) -> MaybeFlow:
        """Ask only for the missing part of the failing step, when a verifier knows how."""
        if not self.policy.partial_patches:
            return None
        asked = yield from self._ask_partial(ctx, steps[failed_at])
        if asked is None:
            return None
        merged, regenerated = asked
        again = self.checks.verify_steps(
            ctx,
            [*verified, merged, *steps[failed_at + 1 :]],
            regenerated=failed_at if regenerated else None,
        )
        if again.failed_at is not None:
            return None
        self._keep(again.verdicts)
        text = join_steps(again.steps)
        with self._phase("check"):
            if self.checks.check_answer(ctx, text) is not None:
                return None
        self.outcomes.reused = Reused(
            entry.tokens_input + entry.tokens_output, len(steps) - 1, 1, patched_by="model"
        )
        yield from self._emit(text)
        self._store(text)
        return self._finish(
            "patch", text, f"step {failed_at} failed; only its missing part was regenerated"
        )

    def _ask_partial(self, ctx: VerifyContext, step: Step) -> PartialFlow:
        """The model asked for only the missing part of ``step`` (by the first verifier that
        knows how), merged back in, and whether that regenerated every part of it that may
        depend on the changes; ``None`` when no verifier offers it or the reply is unusable."""
        for verifier in self.checks.verifiers:
            patch = guarded(verifier, "partial_patch", verifier.partial_patch, ctx, step)
            if not isinstance(patch, PartialPatch):
                continue
            reply = yield from self._call(
                ModelCall(
                    "partial",
                    (Turn("user", patch.instruction),),
                    live=False,
                    response_schema=patch.response_schema,
                )
            )
            merged = guarded(verifier, "merge", patch.merge, reply.text)
            return (merged, patch.regenerates_dependents) if isinstance(merged, Step) else None
        return None

    def _generate(self, ctx: VerifyContext, decision: Decision, reason: str) -> Flow:
        """Full generation (miss or skip-reuse), then check, repair and fallback."""
        self.origin = None  # a fresh answer costs what this request spent, and is new
        # Nothing is served from the cache: no kind of reuse, unless a suspension made it so.
        self.outcomes.reuse_kind = self.suspended_kind
        certain = self._instead_of_the_model(ctx)
        if certain is not None:
            self.outcomes.checked = Checked(instead_of_model=True)
            yield from self._emit(certain)
            self._store(certain)
            return self._finish(decision, certain, f"{reason}; {DETERMINISTIC_INSTEAD}")
        live = not self.checks.answer_checks(self.request.prompt)
        reply = yield from self._call(
            ModelCall("full", live=live, response_schema=self.checks.response_schema(ctx))
        )
        self.full_reply = reply
        text = yield from self._check_and_mend(ctx, reply.text, None, first_answer=True)
        return self._finish(decision, text, reason)

    def _instead_of_the_model(self, ctx: VerifyContext) -> str | None:
        """The task's deterministic answer (checked), when the model's recent answers to this
        task almost never passed their checks: the model call would be thrown away."""
        policy = self.policy
        if not (policy.adaptive_answers and policy.deterministic_fallback):
            return None
        if self.request.model_access == "answered":
            return None  # the model has answered: its answer is what is checked
        if self.settings.answer_outlook.worth_trying(self.outlook_key):
            return None
        return self._deterministic(ctx, None, "", None)

    def _check_and_mend(
        self,
        ctx: VerifyContext,
        text: str,
        prefix: list[Step] | None,
        first_answer: bool = False,
    ) -> TextFlow:
        """Whole-answer check; mend a failing answer; store what passed.

        With a ``prefix`` (a patch whose verified steps were already shown), mending only
        rewrites what follows it, so what was emitted stays true. ``first_answer``: ``text``
        is the model's full generation, whose outcome the answer outlook remembers.
        """
        # With live streaming the text is already on the caller's screen: nothing can be
        # mended any more (live calls are only made when no whole-answer check applies).
        live_already = text != "" and self.emitted == text
        with self._phase("check"):
            failure = self.checks.check_answer(ctx, text)
            if failure is None and first_answer:
                failure = self._failing_alternative(ctx)
        if first_answer and not live_already and self.task is not None:
            self.settings.answer_outlook.record(self.outlook_key, failure is None)
        mending = Mending()
        if failure is not None and not live_already:
            mending = yield from self._mend(ctx, text, prefix, failure)
            if mending.text is not None:
                text, failure = mending.text, None
        still_fails = None
        if failure is not None:
            still_fails = failure.reason
            if mending.not_repaired:
                still_fails += f" (not repaired: {mending.not_repaired})"
        self.outcomes.checked = Checked(still_fails, mending)
        if not live_already:
            # Invariant: everything emitted so far is a prefix of the final text.
            yield from self._emit(text[len(self.emitted) :])
        if failure is None:
            self._store(text)
        return text

    def _failing_alternative(self, ctx: VerifyContext) -> Verdict | None:
        """The first failing check of the other answers the model's call returned, if any."""
        reply = self.full_reply
        alternatives = reply.alternatives if reply is not None else ()
        for number, alternative in enumerate(alternatives, start=2):
            failure = self.checks.check_answer(ctx, alternative)
            if failure is not None:
                reason = f"answer {number} of {len(alternatives) + 1}: {failure.reason}"
                return replace(failure, reason=reason)
        return None

    def _mend(
        self, ctx: VerifyContext, text: str, prefix: list[Step] | None, failure: Verdict
    ) -> MendFlow:
        """The cheapest way to an answer that passes (the outcome's ``text``; ``None`` when
        there is none). In order: the task's deterministic answer when preferred (certain and
        free); deterministic edits of the answer (values the prompt fixes, keys it rules out);
        the model asked for only the missing part; one repair call; the deterministic answer.

        A driver that makes only the one full call (``model_access``) gets no model call
        here, and the model's reply is never changed (its caller already has it)."""
        policy = self.policy
        prefix_text = join_steps(prefix) if prefix else ""
        restricted = self.request.model_access != "calls"
        if restricted and self.outcomes.usage.model_calls:
            return Mending(not_repaired=AS_ANSWERED)
        # The evidence of what was asked: for a continuation of a patch's verified prefix, the
        # cached answer it comes from; for a whole answer, the model's own being mended.
        origin = self.origin
        evidence = (origin.answer if origin is not None else None) if prefix else text
        fallback = (
            self._deterministic(ctx, prefix, prefix_text, evidence)
            if policy.deterministic_fallback
            else None
        )
        # What mending ends with when nothing better works: the deterministic answer, if any.
        last_resort = Mending(fallback, "fallback") if fallback is not None else Mending()
        if restricted or (fallback is not None and policy.prefer_fallback):
            return last_resort
        if prefix is None:
            edited = yield from self._mend_steps(text)
            if edited is not None:
                return edited
        repair_cost = estimate_tokens(max(1, len(text) - len(prefix_text)))
        outlook = self.settings.repair_outlook if policy.adaptive_repair else None
        if policy.repair and not self._within_budget(repair_cost):
            return replace(last_resort, not_repaired="the patch's model-call budget is spent")
        if (
            policy.repair
            and outlook is not None
            and not outlook.worth_trying(
                self.outlook_key,
                spent=self._model_seconds(),
                # A repair probe waits until the model's own answers to the task pass at times:
                # one that passes none is not rescued by a repair either, and each probe costs
                # a call.
                promising=self.settings.answer_outlook.succeeded_lately(self.outlook_key),
            )
        ):
            return replace(last_resort, not_repaired="repairs of this task have not worked lately")
        if policy.repair:
            return (yield from self._repair(ctx, text, prefix, failure, last_resort))
        return last_resort

    def _repair(
        self,
        ctx: VerifyContext,
        text: str,
        prefix: list[Step] | None,
        failure: Verdict,
        last_resort: Mending,
    ) -> MendFlow:
        """One repair call for ``text`` (after the shown ``prefix``); ``last_resort`` when
        the repair fails too, or the deterministic answer that the repair's answer shows to
        be asked for."""
        prefix_text = join_steps(prefix) if prefix else ""
        outlook = self.settings.repair_outlook if self.policy.adaptive_repair else None
        instruction = self.checks.repair_instruction(ctx, text, failure)
        if prefix:
            turns = (
                Turn("assistant", prefix_text),
                Turn("user", f"{instruction}\n{CONTINUE_INSTRUCTION}"),
            )
        else:
            turns = (Turn("assistant", text), Turn("user", instruction))
        # A repair of a whole answer is a whole answer: the same schema holds.
        schema = None if prefix else self.checks.response_schema(ctx)
        reply = yield from self._call(
            ModelCall("repair", turns, live=False, response_schema=schema)
        )
        candidate = (
            prefix_text + _strip_repeated_prefix(reply.text, prefix_text) if prefix else reply.text
        )
        with self._phase("check"):
            repaired = self.checks.check_answer(ctx, candidate) is None
        if outlook is not None:
            outlook.record(self.outlook_key, repaired)
        if repaired:
            return Mending(candidate, "repair", repaired=True)
        if last_resort.text is None and self.policy.deterministic_fallback and not prefix:
            # The repair may show what the first answer did not (a final "x = 2" after an
            # answer with no value): the deterministic answer mends it instead.
            fallback = self._deterministic(ctx, None, "", candidate)
            if fallback is not None:
                return Mending(fallback, "fallback", repaired=True)
        return replace(last_resort, repaired=True)

    def _model_seconds(self) -> float:
        """The time this request has spent in model calls so far."""
        return self._phases.get("generate", 0.0) / 1000.0

    def _within_budget(self, cost: int) -> bool:
        """Whether a model call of about ``cost`` output tokens fits the patch's budget
        (always, outside a patch)."""
        budget = self.patch_budget
        return budget is None or self.outcomes.usage.tokens_output + cost <= budget

    def _mend_steps(self, text: str) -> StepMendFlow:
        """Mend a freshly generated answer step by step: deterministic edits first, then the
        model asked for only the missing part of the first step that still fails."""
        # A fresh answer is judged against the request alone (no cached prompt, no diff).
        ctx = VerifyContext(self.request.prompt, options=self.request.options)
        try:
            steps = self.segmenter.split(text)
        except Exception:
            return None
        if self.checks.edited(ctx, steps):
            with self._phase("check"):
                if self.checks.check_answer(ctx, join_steps(steps)) is None:
                    return Mending(join_steps(steps), "edit")
        if not self.policy.partial_patches:
            return None
        for index, step in enumerate(steps):
            if not any(v.failed for v in self.checks.check_step(ctx, step, index, steps)):
                continue
            asked = yield from self._ask_partial(ctx, step)
            if asked is None:
                return None
            candidate = join_steps([*steps[:index], asked[0], *steps[index + 1 :]])
            with self._phase("check"):
                if self.checks.check_answer(ctx, candidate) is None:
                    return Mending(candidate, "partial")
            return None
        return None

    def _deterministic(
        self, ctx: VerifyContext, prefix: list[Step] | None, prefix_text: str, answer: str | None
    ) -> str | None:
        """The task's deterministic answer (after the shown prefix), if it passes the checks;
        ``answer`` is the answer in hand (:attr:`VerifyContext.answer`)."""
        ctx = replace(ctx, answer=answer)
        if prefix:
            continuation = self.checks.continuation(ctx, prefix)
            candidate = None if continuation is None else prefix_text + continuation
        else:
            candidate = self.checks.fallback(ctx)
        if candidate is None:
            return None
        with self._phase("check"):
            return candidate if self.checks.check_answer(ctx, candidate) is None else None

    def _store(self, text: str) -> None:
        reply = self.full_reply
        alternatives = reply.alternatives if reply is not None else ()
        longest = max((len(text), *(len(alternative) for alternative in alternatives)))
        if longest > self.policy.max_answer_chars:
            refused = (
                f"answer of {longest} chars exceeds max_answer_chars="
                f"{self.policy.max_answer_chars}; not cached"
            )
            self.outcomes.stored = Stored(False, refused)
            return
        with self._phase("store"):
            self.outcomes.stored = Stored(self._store_entry(text))

    def _store_entry(self, text: str) -> bool:
        segmenter = self.segmenter
        try:
            steps = segmenter.split(text)
        except Exception as error:
            logger.warning("segmenter %s failed; answer not cached: %r", segmenter.name, error)
            return False
        if not steps:
            return False
        origin, request, reply = self.origin, self.request, self.full_reply
        usage = self.outcomes.usage
        # What the adapter keeps goes with exactly its own reply, never with another answer.
        kept = reply.keep if reply is not None and reply.text == text and origin is None else None
        entry = CacheEntry.create(
            request.namespace,
            request.tenant,
            request.prompt,
            steps,
            segmenter.name,
            task=self.task,
            tokens_input=origin.tokens_input if origin else usage.tokens_input,
            tokens_output=origin.tokens_output if origin else usage.tokens_output,
            kept=kept,
            # Made from a cached answer: the kind of reuse it was made by goes with it.
            made_by=self.outcomes.reuse_kind if origin is not None else None,
        )
        if origin is not None:
            # Time to live counts from the original generation: reusing a step never renews it.
            entry = replace(entry, created_at=min(entry.created_at, origin.created_at))
        stored = self.access.store(entry, request)
        if stored:
            # Read now, while this request's own readings are fresh: a later hit reads only
            # its own request.
            self.settings.analyses.analyse(entry, self.recognition.families)
        return stored


def _exact_reason(cached: str, new: str) -> str:
    """Why the exact path served ``cached``'s answer to ``new``: "identical request" only for
    the very same text."""
    return IDENTICAL if cached == new else SAME_REQUEST


def _strip_repeated_prefix(text: str, prefix: str) -> str:
    """Models asked to continue sometimes restate the verified steps: drop that echo."""
    stripped = prefix.strip()
    if stripped and text.lstrip().startswith(stripped):
        return text.lstrip()[len(stripped) :].lstrip("\n")
    return text
