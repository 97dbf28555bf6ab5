"""Task families: what the cache understands deeply about one kind of request.

A family declares, in one place, how it recognises its requests, how its answers are split into
steps, how steps and answers are verified, how a cached answer is re-instantiated for a new
request, and its deterministic answer if it has one. The request path asks the
:class:`~stepcache_integrations.core.tasks.registry.TaskRegistry`; it never tests a family's
name.

Checks, repairs and deterministic answers are the family's :class:`Verifier` (its ``verifier``);
the family adds recognition, segmentation, which request changes it can carry (``absorbs``) and
whole-answer re-instantiation (``adapt_answer``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stepcache_integrations.core.steps import ParagraphSegmenter, Segmenter, Step
from stepcache_integrations.core.verifiers.base import Verifier, VerifyContext

__all__ = ["Adaptation", "TaskFamily"]


@dataclass(frozen=True)
class Adaptation:
    """A cached answer rewritten for the new request by a family.

    ``steps`` is the whole answer with ``steps[:valid]`` rewritten for the new request; the
    steps from ``valid`` on could not be carried over (``reason`` says why) and are regenerated
    (patch) or the request is answered afresh (skip). The rewritten steps are verified again
    like any cached step before anything is served.

    Example:
        >>> steps = (Step("12 - 3 = 9", "\\n"), Step("#### 9"))
        >>> Adaptation(steps, 2).complete
        True
        >>> Adaptation(steps, 1, "step 1: 9 could be two quantities").complete
        False
    """

    steps: tuple[Step, ...]
    valid: int
    reason: str = ""

    @property
    def complete(self) -> bool:
        return self.valid >= len(self.steps)


class TaskFamily:
    """One task family. Subclass it, set ``name``, and override what applies.

    Attributes:
        name: unique within a registry; stored with each entry, so it must not change between
            releases of a family (entries of another task are never reused for this one).
        priority: when several families recognise one request, the lowest priority is the
            primary one: its segmenter splits the answer (all recognising families verify).
        exclusive: when this family recognises a request, it alone handles it (no other
            family's checks, rewrites or deterministic answer apply; among several exclusive
            families the primary one wins).
        verifier: the family's checks, repairs, step rewrites and deterministic answer.
        segmenter: how its answers are split (default: paragraphs and list items).

    Example:
        >>> from stepcache_integrations.core.verifiers.base import Verdict
        >>> class Haiku(TaskFamily):
        ...     name = "haiku"
        ...     def recognises(self, request, options):
        ...         return "haiku" in request.lower()
        >>> family = Haiku(Verifier())
        >>> family.recognises("Write a haiku about rain", {})
        True
    """

    name: str = "task"
    priority: int = 100
    exclusive: bool = False

    def __init__(self, verifier: Verifier, segmenter: Segmenter | None = None) -> None:
        self.verifier = verifier
        self.segmenter: Segmenter = segmenter or ParagraphSegmenter()

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        """Whether ``request`` (with the call's ``options``, e.g. a JSON schema) is this
        family's task."""
        return False

    def adapt_answer(self, ctx: VerifyContext, steps: Sequence[Step]) -> Adaptation | None:
        """Re-instantiate a whole cached answer for ``ctx.request`` (``None``: nothing to do,
        verify and adapt step by step as usual)."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
