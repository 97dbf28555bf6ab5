"""Sound reuse, written once: which changes a cached answer may be carried across, and which
parts of it may then be served.

The one definition of "the same request" is :func:`~stepcache_integrations.core.text.compare`.
When two requests differ by more than meaning-neutral edits, a cached answer may still be
reused, but only where the task families that recognise the new request answer for the change:

1. **Every change is accounted for** (:func:`account_changes`): each edit is taken on by a
   recognising family (:meth:`TaskFamily.account
   <stepcache_integrations.core.tasks.base.TaskFamily.account>`), as wording that only names
   the task or as a value the family models (a constant, a key, a quantity, a copied
   argument). A change of polarity is accounted for only by a family that traces the
   changed word to a value of its answer (:meth:`TaskFamily.account_polarity
   <stepcache_integrations.core.tasks.base.TaskFamily.account_polarity>`: the JSON family's
   boolean that the request states, "Active: yes" -> "no"); a request no family
   recognises is reused only when it is the same request.
2. **Every part of a reused step is sound** (:func:`unsound_part`): for each change, the
   family that took it on vouches that every part of the step that may depend on it was
   recomputed, rewritten and checked, or is independent of it (:meth:`TaskFamily.unchecked_part
   <stepcache_integrations.core.tasks.base.TaskFamily.unchecked_part>`). A step that mentions
   a word whose letter case changed may copy its spelling: it is never vouched for. When the
   request's numbers changed, a step with numbers (in digits or in words, as the number
   reader reads them) also needs a task verifier's pass. A part
   nobody vouches for is not served: the step is regenerated (patch) or the request is
   answered afresh (skip).

Example:
    >>> from stepcache_integrations.core.tasks import default_registry
    >>> from stepcache_integrations.core.text import compare
    >>> from stepcache_integrations.core.verifiers.base import VerifyContext
    >>> families = default_registry().recognise("Solve 3x + 7 = 20 for x.", {}).families
    >>> def gate(old, new):
    ...     found = account_changes(VerifyContext(new, old, compare(old, new)), families)
    ...     return found if isinstance(found, str) else [a.kind for a in found]
    >>> gate("Solve 3x + 5 = 20 for x.", "Solve 3x + 7 = 20 for x.")
    ['value']
    >>> gate("Solve 3x + 5 = 20 for x.", "Solve 3x + 7 = 20 for x, then double it.")
    "', then double it' (added) is a change no task family checks"
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.base import TaskFamily
from stepcache_integrations.core.text import Edit, RequestDelta, is_polarity, mentions, negates
from stepcache_integrations.core.text.quantities import has_number
from stepcache_integrations.core.verifiers.base import (
    ChangeAccount,
    Verdict,
    VerifyContext,
    show_edit,
)
from stepcache_integrations.core.verifiers.staleness import NAME as STALENESS

__all__ = ["NAME", "account_changes", "for_staleness", "unsound_part"]

#: The name failing verdicts of this rule carry in records.
NAME = "soundness"
_SHOWN_EDITS = 3


def account_changes(
    ctx: VerifyContext, families: Sequence[TaskFamily]
) -> tuple[ChangeAccount, ...] | str:
    """How ``families`` account for every edit of ``ctx.diff`` (a :class:`RequestDelta` from
    the cached request to the new one), in order; or why a cached answer may not be reused.
    The same request needs no account (an empty tuple)."""
    delta = ctx.diff
    if not isinstance(delta, RequestDelta):
        return "the requests could not be compared"
    if delta.same:
        return ()
    if not families:
        changed = "; ".join(show_edit(edit) for edit in delta.edits[:_SHOWN_EDITS])
        if delta.polarity_changed:
            return f"the meaning turned around ({changed}): a negation or its opposite"
        return f"the request changed ({changed}) and no task verifier can check the answer"
    turned = _polarity_accounts(ctx, delta, families)
    if isinstance(turned, str):
        return turned
    accounts: list[ChangeAccount] = []
    for position, edit in enumerate(delta.edits):
        found = turned.get(position) or next(
            (a for a in (family.account(edit, ctx) for family in families) if a is not None),
            None,
        )
        if found is None:
            what = show_edit(edit)
            if edit.removed and edit.added:
                return f"{what} is a change no task family checks"
            verb = "removed" if edit.removed else "added"
            return f"{what} ({verb}) is a change no task family checks"
        accounts.append(found)
    return tuple(accounts)


def _turns_polarity(edit: Edit) -> bool:
    """Whether ``edit`` adds or removes a negator, or swaps a word for a negated form."""
    # Both spellings of each token: as written and in comparison form ("can't" -> "not").
    removed = [word for token in edit.removed for word in (token.text, token.norm)]
    added = [word for token in edit.added for word in (token.text, token.norm)]
    if any(is_polarity(word) for word in (*removed, *added)):
        return True
    return any(negates(old, new) for old in removed for new in added)


def _polarity_accounts(
    ctx: VerifyContext, delta: RequestDelta, families: Sequence[TaskFamily]
) -> dict[int, ChangeAccount] | str:
    """The accounts of the edits that turn the polarity around (by their position in
    ``delta.edits``): each must be taken on by a family that traces it to a value of its
    answer (:meth:`TaskFamily.account_polarity`), else why the cached answer is refused."""
    if not delta.polarity_changed:
        return {}
    refused = "; ".join(show_edit(edit) for edit in delta.edits[:_SHOWN_EDITS])
    refusal = f"the meaning turned around ({refused}): a negation or its opposite"
    accounts: dict[int, ChangeAccount] = {}
    for position, edit in enumerate(delta.edits):
        if not _turns_polarity(edit):
            continue
        found = next(
            (a for a in (f.account_polarity(edit, ctx) for f in families) if a is not None),
            None,
        )
        if found is None:
            return refusal
        accounts[position] = found
    # A polarity change no edit shows (the comparison saw more than the edits do) is refused.
    return accounts if accounts else refusal


def unsound_part(
    ctx: VerifyContext,
    families: Sequence[TaskFamily],
    step: Step,
    index: int,
    steps: Sequence[Step],
    verdicts: Sequence[Verdict],
) -> Verdict | None:
    """A failing verdict when a reused ``step`` of a changed request has a part that may
    depend on a change and that nobody vouched for; ``None`` when the step may be served
    (``verdicts`` are its verifiers' verdicts)."""
    if not ctx.changed:
        return None
    for account in ctx.accounts:
        if account.kind == "case" and mentions(step.text, _words(account)):
            return Verdict.fail(
                NAME,
                f"the letter case of {_words_shown(account)} changed and this step may copy it",
                step=index,
            )
    for family in families:
        taken = [account for account in ctx.accounts if account.family == family.name]
        if not taken:
            continue
        part = family.unchecked_part(ctx, taken, step, index, steps)
        if part is not None:
            return Verdict.fail(NAME, part, step=index)
    # A safety net under every family: new numbers need a task verifier's pass.
    numbers_changed = ctx.diff is not None and ctx.diff.numbers_changed
    if (
        numbers_changed
        and has_number(step.text)
        and not any(v.passed and v.verifier != STALENESS for v in verdicts)
    ):
        return Verdict.fail(
            NAME,
            "has numbers that no task verifier checked, and the prompt's numbers changed",
            step=index,
        )
    return None


def _words(account: ChangeAccount) -> list[str]:
    return [token.text for token in (*account.edit.removed, *account.edit.added)]


def _words_shown(account: ChangeAccount) -> str:
    return ", ".join(repr(token.text) for token in account.edit.removed)


def for_staleness(delta: RequestDelta, families: Sequence[TaskFamily]) -> RequestDelta:
    """``delta`` without the removed words that only named the task ("solve" -> "find"): a
    step that mentions them is not stale. Everything else removed stays (a step mentioning
    it is stale unless a verifier vouches for its rewrite)."""
    if delta.same or not delta.removed:
        return delta
    naming = frozenset().union(*(family.instruction_words for family in families))
    kept = frozenset(word for word in delta.removed if word.lower() not in naming)
    return delta if kept == delta.removed else replace(delta, removed=kept)
