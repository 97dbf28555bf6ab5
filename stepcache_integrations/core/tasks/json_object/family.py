"""The JSON-object family: "return a JSON object with the keys ...", or any call with a schema."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stepcache_integrations.core.steps import JsonSegmenter, Step
from stepcache_integrations.core.tasks.base import Adaptation, TaskFamily
from stepcache_integrations.core.tasks.json_object.answer import (
    LocatedObject,
    locate_object,
    object_span,
    replace_object,
)
from stepcache_integrations.core.tasks.json_object.changes import (
    FAMILY,
    FIXED_VALUE,
    STATED,
    classify_edit,
    outside_text,
    stated_keys,
    unchecked_text,
    untraced_change,
)
from stepcache_integrations.core.tasks.json_object.prose import without_unvouched_prose
from stepcache_integrations.core.tasks.json_object.request import PromptLayout, prompt_layout
from stepcache_integrations.core.tasks.json_object.tracing import (
    Change,
    Retarget,
    flipped_yes_no,
    in_a_listed_item,
    may_be_stated_value,
    retarget,
    rewrite_mentions,
    stated_spellings,
)
from stepcache_integrations.core.tasks.json_object.verifier import JsonVerifier, SchemaLike
from stepcache_integrations.core.tasks.json_object.wording import same_said
from stepcache_integrations.core.text import Edit, Token
from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext

__all__ = ["JsonObjectFamily"]


class JsonObjectFamily(TaskFamily):
    """Requests whose answer is one JSON object.

    The object is one step (text around it is kept losslessly); required keys, closed key
    lists and fixed values come from the prompt, and from a JSON Schema or Pydantic model given
    here or per call (``options["json_schema"]``). A value of the object that the request
    states, in any phrasing or language ("Anna (31) aus Lissabon"), follows the request when
    it changes, with no model call (see
    :mod:`~stepcache_integrations.core.tasks.json_object.tracing`); removed keys are dropped.
    After any change, every value the new request does not state may depend on it and is
    asked of the model again with the added keys, never kept: beside an added ``surname``,
    ``name`` is the first name only (see
    :mod:`~stepcache_integrations.core.tasks.json_object.changes`).

    Example:
        >>> family = JsonObjectFamily()
        >>> family.recognises('Return only a JSON object with the keys "a" and "b".', {})
        True
        >>> family.recognises("Describe a cat.", {"json_schema": {"type": "object"}})
        True
    """

    name = FAMILY
    priority = 10
    # "Create / Generate / Write ... a JSON object / record ... with exactly the keys ...,
    # where ...": which keys and values hold is what the verifier checks on every answer.
    instruction_words = frozenset(
        [
            "create",
            "generate",
            "produce",
            "make",
            "write",
            "build",
            "return",
            "respond",
            "give",
            "need",
            "want",
            "json",
            "object",
            "record",
            "describing",
            "describes",
            "describe",
            "representing",
            "represents",
            "represent",
            "for",
            "a",
            "an",
            "as",
            "that",
            "with",
            "has",
            "have",
            "the",
            "only",
            "exactly",
            "keys",
            "key",
            "fields",
            "field",
            "where",
            "and",
            "is",
            "i",
            "me",
            "please",
        ]
    )

    def __init__(self, schema: SchemaLike | None = None) -> None:
        self.json = JsonVerifier(schema)
        super().__init__(self.json, JsonSegmenter())

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        return self.json.applies_to(request, options)

    def account(self, edit: Edit, ctx: VerifyContext) -> ChangeAccount | None:
        """A change inside what the request asks of the object (a key of its key list, a
        fixed value) is a ``"value"`` change saying which (``what``), even where its words
        would only name the task elsewhere (see ``json_object.changes.classify_edit``);
        otherwise as the default (letter case, words that only name the task). Any other
        replacement of value tokens ("31" -> "32", "Lissabon" -> "Porto", "sim" -> "não")
        may be a value the answer took from the request, in whatever phrasing: a
        ``"value"`` change of :data:`STATED`, which :meth:`adapt_answer` carries over only
        where the cached object holds that very value (else nothing is reused)."""
        found = super().account(edit, ctx)
        if ctx.cached_request is None or (found is not None and found.kind == "case"):
            return found
        old = self._reading(ctx.cached_request, ctx.options)
        new = self._reading(ctx.request, ctx.options)
        if old is not None and new is not None:
            what = classify_edit(edit, old, new, self._only_wording)
            if what is not None:
                return ChangeAccount(edit, self.name, "value", what)
        if found is not None:
            return found
        if same_said(ctx.cached_request, ctx.request, self._names_the_task):
            # The subject moved across words that only name the task ("Create a JSON object
            # for a recipe" -> "Write a recipe as a JSON object"): the same object is asked.
            return ChangeAccount(edit, self.name, "wording", "the same request, reworded")
        if may_be_stated_value(edit, ctx.cached_request, ctx.request):
            return ChangeAccount(edit, self.name, "value", STATED)
        return None

    def account_polarity(self, edit: Edit, ctx: VerifyContext) -> ChangeAccount | None:
        """A yes/no word that became its opposite in its language ("Active: yes" -> "no",
        "vegetariano: sim" -> "não") may be a boolean the answer took from the request: a
        :data:`STATED` change, carried over only where the cached object traces that very
        word to a boolean (else nothing is reused, see :meth:`unchecked_part`). Any other
        change of polarity ("not", "unsafe") is left to the request path, which refuses it.
        """
        if ctx.cached_request is None or self._reading(ctx.request, ctx.options) is None:
            return None
        if flipped_yes_no(edit, ctx.cached_request, ctx.request):
            return ChangeAccount(edit, self.name, "value", STATED)
        return None

    def _only_wording(self, token: Token) -> bool:
        return self._accounts_for(token, ()) == "wording"

    def _names_the_task(self, token: Token) -> bool:
        """A separator or a word of :attr:`instruction_words` in any spelling ("JSON")."""
        return self._only_wording(token) or token.norm.lower() in self.instruction_words

    def _reading(self, request: str, options: Mapping[str, Any]) -> PromptLayout | None:
        """Where ``request`` states its key lists and fixed values (``None``: no JSON asked)."""
        if self.json.parse_request(request, options) is None:
            return None
        return prompt_layout(request)

    def adapt_answer(self, ctx: VerifyContext, steps: Sequence[Step]) -> Adaptation | None:
        """Carry the values the request states over to the new request: each changed value
        of the cached object that the cached request stated (in any phrasing) is rewritten,
        and so is its spelling in the text around the object; the rest of the answer (its
        keys, layout, fence, lead-in) is kept, since the rest of the request asks what it
        asked before. A :data:`STATED` change the object does not carry, or one of another
        kind than the old value, is left as it is (``None``): :meth:`unchecked_part` then
        vouches for no object that does not carry it. Changes of fixed values are
        carried too where the object traces them, else left to the verifier's rewrites
        (see :mod:`~stepcache_integrations.core.tasks.json_object.tracing`).
        """
        if ctx.cached_request is None:
            return None
        ours = [a for a in ctx.accounts if a.family == self.name and a.kind == "value"]
        stated = [a.edit for a in ours if a.what == STATED]
        fixed = [a.edit for a in ours if a.what == FIXED_VALUE]
        if not stated and not fixed:
            return None
        found = _object_step(steps)
        if found is None:
            return None
        index, located = found
        assert located.obj is not None
        # A fixed value is carried over with the stated values where the object traces it;
        # where it does not, the verifier's own rewrite and checks answer for it.
        edits = stated
        if fixed and not isinstance(
            retarget(ctx.cached_request, ctx.request, [*stated, *fixed], located.obj), str
        ):
            edits = [*stated, *fixed]
        if not edits:
            return None
        result = retarget(ctx.cached_request, ctx.request, edits, located.obj)
        if isinstance(result, str):
            unlisted = [
                edit
                for edit in stated
                if not in_a_listed_item(ctx.cached_request, edit, located.obj)
            ]
            if unlisted:
                # A stated value the cached object does not carry: the object is not vouched
                # for, whatever it holds. The soundness check alone would read the cached
                # object against the new request, and a value it holds by coincidence ("yes"
                # -> True in 'healthy_lungs' after "Smoker: no" -> "yes") would pass as carried.
                return Adaptation(tuple(steps), index, result)
            # Items of a list the request states: the list is asked again (unchecked_part).
            return None
        values = stated_spellings(ctx.request, result.obj, stated_keys(ctx, result.obj))
        return _carried_over(steps, index, located, result, values, ctx.request)

    def unchecked_part(
        self,
        ctx: VerifyContext,
        accounts: Sequence[ChangeAccount],
        step: Step,
        index: int,
        steps: Sequence[Step],
    ) -> str | None:
        """What of a reused step may depend on a change and was not checked: text around the
        object that is more than presentation, and (after any change of what the request
        asks of the object, the key list included) every value the new request does not
        state. The keys and the stated values are checked against the new request by the
        verifier."""
        located = locate_object(step.text, whole_answer=False)
        span = (located.start, located.end) if located.obj is not None else None
        around = outside_text(step.text, span, step.separator)
        found = self.json.change_dependence(ctx)
        obj = located.obj if located.obj is not None else _object_of(steps, index)
        if located.obj is not None:
            untraced = untraced_change(ctx, located.obj)
            if untraced is not None:
                return untraced
        values = () if obj is None else stated_spellings(ctx.request, obj, stated_keys(ctx, obj))
        text = unchecked_text(around, ctx.request, ctx.cached_request or "", found, values)
        if text is not None:
            return text
        if found is None or located.obj is None:
            return None
        dependents = self.json.dependent_keys(ctx, located.obj)
        if dependents:
            keys = ", ".join(repr(key) for key in dependents[:5])
            return (
                f"the values of {keys} are not stated by the request and may depend on "
                f"{found.shown}"
            )
        return None

    def answer_key(self, request: str, answer: str, options: Mapping[str, Any]) -> Any:
        """The answer's JSON object, parsed (an audit's answer key); ``None`` without one.

        Example:
            >>> JsonObjectFamily().answer_key("JSON with keys a", '```json\\n{"a": 1}\\n```', {})
            {'a': 1}
        """
        return locate_object(answer, whole_answer=True).obj if isinstance(answer, str) else None


def _object_of(steps: Sequence[Step], skip: int) -> dict[str, Any] | None:
    """The JSON object of the answer's steps (not looking at step ``skip``), if one holds it."""
    for position, step in enumerate(steps):
        if position != skip and object_span(step.text) is not None:
            return locate_object(step.text, whole_answer=False).obj
    return None


def _object_step(steps: Sequence[Step]) -> tuple[int, LocatedObject] | None:
    """The step that holds the answer's JSON object, and the object found in it."""
    for index, step in enumerate(steps):
        if object_span(step.text) is not None:
            located = locate_object(step.text, whole_answer=False)
            return (index, located) if located.obj is not None else None
    return None


def _carried_over(
    steps: Sequence[Step],
    index: int,
    located: LocatedObject,
    result: Retarget,
    values: Sequence[str],
    request: str,
) -> Adaptation:
    """The answer with the object of step ``index`` (``located``) holding ``result``'s
    values, and the changed values' spellings rewritten in the prose around it; a line of
    prose that is a side note beside the object (more than presentation and the values the
    new ``request`` states, ``values``; no answer to a sentence of the request) is left out
    (see :mod:`~stepcache_integrations.core.tasks.json_object.prose`)."""
    rewritten = replace_object(steps[index], located, result.obj)
    if rewritten is None:
        return Adaptation(tuple(steps), 0, "the object could not be written back")
    changes = result.changes
    new_steps = [_rewrite_around(step, changes) for step in steps]
    # The object is written by replace_object; the prose beside it in its step is rewritten
    # here (the object itself never: its values are set, not searched).
    start = located.start
    end = len(rewritten.text) - (len(steps[index].text) - located.end)
    before = rewrite_mentions(rewritten.text[:start], changes)
    new_steps[index] = Step(
        before + rewritten.text[start:end] + rewrite_mentions(rewritten.text[end:], changes),
        rewrite_mentions(rewritten.separator, changes),
    )
    span = (len(before), len(before) + end - start)
    kept = without_unvouched_prose(new_steps, index, span, values, request)
    return Adaptation(tuple(kept), len(kept))


def _rewrite_around(step: Step, changes: Sequence[Change]) -> Step:
    """A step without the object (a lead-in) with the changed values' spellings rewritten."""
    if object_span(step.text) is not None:
        return step
    return Step(rewrite_mentions(step.text, changes), rewrite_mentions(step.separator, changes))
