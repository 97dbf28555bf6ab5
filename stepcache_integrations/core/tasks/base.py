"""Task families: what the cache understands deeply about one kind of request.

A family declares, in one place, how it recognises its requests, how its answers are split into
steps, how steps and answers are verified, how a cached answer is re-instantiated for a new
request, and its deterministic answer if it has one. The request path asks the
:class:`~stepcache_integrations.core.tasks.registry.TaskRegistry`; it never tests a family's
name.

Checks, repairs and deterministic answers are the family's :class:`Verifier` (its ``verifier``);
the family adds recognition, segmentation, which request changes it takes on (``account``),
which parts of a reused step may depend on them unchecked (``unchecked_part``) and whole-answer
re-instantiation (``adapt_answer``). The rule that uses these declarations is written once, in
:mod:`~stepcache_integrations.core.tasks.soundness`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from stepcache_integrations.core.steps import ParagraphSegmenter, Segmenter, Step
from stepcache_integrations.core.text import Edit, Token, tokenise
from stepcache_integrations.core.text.neutral import factorial_mark
from stepcache_integrations.core.verifiers.base import ChangeAccount, Verifier, VerifyContext

__all__ = ["EARLIER_TURNS", "Adaptation", "Span", "TaskFamily", "is_separator"]

Span = tuple[int, int]
"""A ``(start, end)`` character range of a request."""

EARLIER_TURNS = "earlier_turns"
"""Options key of the texts of the turns before the prompt (a system prompt included), which
the adapter layer passes with every request: what they say may change what the prompt asks."""

# Punctuation that separates or ends clauses and changes nothing a family checks. A minus
# sign, an operator or a currency sign is not here: outside a verified part it is meaning.
_SEPARATORS = frozenset({",", ".", ";", ":", "!", "?", "(", ")", "'", '"', "\u2014", "\u2013"})


def is_separator(token: Token) -> bool:
    """Whether ``token`` is punctuation that separates or ends clauses (a change of it is
    wording to every family). A minus sign, an operator or a currency sign is not one.

    Example:
        >>> from stepcache_integrations.core.text import tokenise
        >>> [is_separator(t) for t in tokenise("3, - 4")]
        [False, True, False, False]
    """
    return token.kind == "punct" and token.text in _SEPARATORS


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
        instruction_words: words (lower case) that only say which task of the family is
            asked ("solve", "find", "json", "object"): changing them changes nothing the
            family's verifier does not check. Keep the list small: when in doubt a word
            is meaning.

    A cached answer is reused for a request that is not the same request (see
    :func:`~stepcache_integrations.core.text.compare`) only when every edit between the two
    is *accounted for* by a recognised family (:meth:`account`), and only in the parts that
    each accounting family vouches for: for every change it took on, every part of a reused
    step that may depend on it is recomputed, rewritten and checked, or independent of it
    (:meth:`unchecked_part`); any other part is regenerated.

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
    instruction_words: ClassVar[frozenset[str]] = frozenset()

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

    def answer_key(self, request: str, answer: str, options: Mapping[str, Any]) -> Any:
        """What ``answer`` claims as an answer to ``request``, in a form that two answers to
        the same request are compared by (``==``): an audit asks the model the request again
        and compares its answer's key with the served answer's (see ``docs/audit.md``).
        The default asks the family's verifier (``None`` for a verifier that reads no key):
        ``None`` when the family reads no key from it: such answers are not
        comparable, never counted as agreeing. Keep only what the request asks for (a
        final value, an object, the calls), never the wording around it.

        Example:
            >>> class Haiku(TaskFamily):
            ...     name = "haiku"
            >>> Haiku(Verifier()).answer_key("Write a haiku", "An old pond...", {}) is None
            True
        """
        return self.verifier.answer_key(request, answer, options)

    def verified_spans(self, request: str, options: Mapping[str, Any]) -> Sequence[Span]:
        """The parts of ``request`` whose every change the family's verifier checks on each
        reused step (an equation, a key list, a quantity). Default: none."""
        return ()

    def read_cached(self, request: str) -> object | None:
        """What the family reads of a cached request on every hit that meets it, read once
        when its entry is stored (:mod:`~stepcache_integrations.core.entry_analysis`) and
        handed back as ``ctx.cached_reading(self.name)``. It must depend on ``request``
        alone. Default: nothing (the family reads the text each time)."""
        return None

    def cached_spans(self, ctx: VerifyContext) -> Sequence[Span]:
        """:meth:`verified_spans` of ``ctx.cached_request`` (a family that keeps them in its
        :meth:`read_cached` reading answers from it)."""
        return self.verified_spans(ctx.cached_request or "", ctx.options)

    def account(self, edit: Edit, ctx: VerifyContext) -> ChangeAccount | None:
        """How this family accounts for one meaning change between ``ctx.cached_request`` and
        ``ctx.request``, or ``None`` when it cannot (the cached answer is then not reused).

        Default: every token the edit removes or adds is a clause separator or one of
        :attr:`instruction_words` (a ``"wording"`` change), or lies inside a
        :meth:`verified_spans` part of its request (a ``"value"`` change). A change of
        polarity is never accounted for (the request path refuses it before asking).
        """
        if ctx.cached_request is None:
            return None
        if _only_case_changed(edit):
            return ChangeAccount(edit, self.name, "case", "letter case")
        cached, new_request = ctx.cached_request, ctx.request
        if _factorial_in(edit.removed, cached) or _factorial_in(edit.added, new_request):
            return None  # "9" -> "9!": an operator, never a separator or a value's wording
        old = self.cached_spans(ctx)
        new = self.verified_spans(ctx.request, ctx.options)
        removed = [self._accounts_for(token, old) for token in edit.removed]
        added = [self._accounts_for(token, new) for token in edit.added]
        found = [*removed, *added]
        if not all(found):
            return None
        if all(kind == "wording" for kind in found):
            return ChangeAccount(edit, self.name, "wording", "words that only name the task")
        return ChangeAccount(edit, self.name, "value", "a value the family checks")

    def account_polarity(self, edit: Edit, ctx: VerifyContext) -> ChangeAccount | None:
        """How this family accounts for an edit that turns the request's polarity around
        ("yes" -> "no"), or ``None`` (the default: the request path then refuses the cached
        answer). A family may take one on only as a value it traces to a value of its answer
        (and then answers for it as for any ``"value"`` change in :meth:`unchecked_part`)."""
        return None

    def unchecked_part(
        self,
        ctx: VerifyContext,
        accounts: Sequence[ChangeAccount],
        step: Step,
        index: int,
        steps: Sequence[Step],
    ) -> str | None:
        """Sound reuse: a part of the reused ``step`` that may depend on one of ``accounts``
        (the changes this family took on) and that the family neither recomputed nor checked,
        described for the record; ``None`` when every such part is accounted for.

        Called for each step a changed request would reuse, after the step's verifiers passed
        it (``steps`` are the answer's steps, this one at ``index``, earlier ones as reused).
        Default: a ``"wording"`` change leaves every part as it was; after a ``"value"`` (or
        ``"rename"``) change the family cannot tell what depends on it, so nothing is vouched
        for. Override
        it to say, for your family's answers, which parts follow from the changed values.
        """
        values = [account for account in accounts if account.kind in ("value", "rename")]
        if not values:
            return None
        return f"{values[0].shown} may change this step, and {self.name} does not say how"

    def _accounts_for(self, token: Token, spans: Sequence[Span]) -> str | None:
        # "wording", "value" or None: what one changed token is to this family.
        if is_separator(token):
            return "wording"
        if token.kind == "word" and token.norm.lower() in self.instruction_words:
            return "wording"
        if any(start <= token.start and token.end <= end for start, end in spans):
            return "value"
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


# Where letter case is kept for comparison (after a colon the text may be data), a word of a
# request this family recognises that only changes case ("How" / "how") is still the same
# word: the family checks the answer. Codes, identifiers, quoted text and code are not words.
_CASE_FOLDABLE = frozenset({"word", "name"})


def _only_case_changed(edit: Edit) -> bool:
    return edit.is_substitution and all(
        old.kind in _CASE_FOLDABLE
        and new.kind in _CASE_FOLDABLE
        and old.text.lower() == new.text.lower()
        for old, new in zip(edit.removed, edit.added, strict=True)
    )


def _factorial_in(tokens: Sequence[Token], request: str) -> bool:
    """Whether one of ``tokens`` (of an edit of ``request``) is a factorial mark there."""
    if not any("!" in token.text for token in tokens):
        return False
    whole = tokenise(request)
    places = {(token.start, token.end): index for index, token in enumerate(whole)}
    return any(
        factorial_mark(whole, places[(token.start, token.end)])
        for token in tokens
        if "!" in token.text and (token.start, token.end) in places
    )
