"""Whether a cached answer may be reused at all for a request that is not the same request.

The one definition of "the same request" is :func:`~stepcache_integrations.core.text.compare`.
When two requests differ by more than meaning-neutral edits, a cached answer's steps may still
be reused, but only where a task family verifies what changed: every edit must be absorbed by
a family that recognises the new request (:meth:`TaskFamily.absorbs`: the changed tokens lie
in a part of the request the family checks on every reused step, such as an equation or a key
list, or are words that only name the task). A change of polarity is never absorbed, and a
request no family recognises is reused only when it is the same request.

Example:
    >>> from stepcache_integrations.core.tasks import default_registry
    >>> from stepcache_integrations.core.text import compare
    >>> from stepcache_integrations.core.verifiers.base import VerifyContext
    >>> families = default_registry().recognise("Solve 3x + 7 = 20 for x.", {}).families
    >>> def gate(old, new):
    ...     ctx = VerifyContext(new, old, compare(old, new))
    ...     return unabsorbed_change(ctx, families)
    >>> gate("Solve 3x + 5 = 20 for x.", "Solve 3x + 7 = 20 for x.") is None
    True
    >>> gate("Solve 3x + 5 = 20 for x.", "Solve 3x + 7 = 20 for x, then double it.")
    "', then double it' (added) is a change no task family checks"
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from stepcache_integrations.core.tasks.base import TaskFamily
from stepcache_integrations.core.text import Edit, RequestDelta, Token
from stepcache_integrations.core.verifiers.base import VerifyContext

__all__ = ["for_staleness", "unabsorbed_change"]

_SHOWN_EDITS = 3


def _shown(edit: Edit) -> str:
    def side(tokens: Sequence[Token]) -> str:
        return " ".join(token.text for token in tokens)

    if edit.removed and edit.added:
        return f"{side(edit.removed)!r} -> {side(edit.added)!r}"
    return repr(side(edit.removed or edit.added))


def unabsorbed_change(ctx: VerifyContext, families: Sequence[TaskFamily]) -> str | None:
    """``None`` when ``ctx.diff`` (a :class:`RequestDelta` from the cached request to the new
    one) allows reusing cached steps, subject to the families' verifiers; else why not."""
    delta = ctx.diff
    if not isinstance(delta, RequestDelta):
        return "the requests could not be compared"
    if delta.same:
        return None
    if delta.polarity_changed:
        changed = "; ".join(_shown(edit) for edit in delta.edits[:_SHOWN_EDITS])
        return f"the meaning turned around ({changed}): a negation or its opposite"
    if not families:
        changed = "; ".join(_shown(edit) for edit in delta.edits[:_SHOWN_EDITS])
        return f"the request changed ({changed}) and no task verifier can check the answer"
    for edit in delta.edits:
        if not any(family.absorbs(edit, ctx) for family in families):
            what = _shown(edit)
            if edit.removed and edit.added:
                return f"{what} is a change no task family checks"
            verb = "removed" if edit.removed else "added"
            return f"{what} ({verb}) is a change no task family checks"
    return None


def for_staleness(delta: RequestDelta, families: Sequence[TaskFamily]) -> RequestDelta:
    """``delta`` without the removed words that only named the task ("solve" -> "find"): a
    step that mentions them is not stale. Everything else removed stays (a step mentioning
    it is stale unless a verifier vouches for its rewrite)."""
    if delta.same or not delta.removed:
        return delta
    naming = frozenset().union(*(family.instruction_words for family in families))
    kept = frozenset(word for word in delta.removed if word.lower() not in naming)
    return delta if kept == delta.removed else replace(delta, removed=kept)
