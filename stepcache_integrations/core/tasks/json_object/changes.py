r"""Which parts of a cached JSON answer a change between two requests may determine.

The JSON family takes on a change only where it lies in what the request asks of the
object (:func:`classify_edit`), and says which values of a reused object may then depend on
it (:func:`dependence`). The rule is closed-world: what it does not list is regenerated.

- **Nothing the object is asked for changed** (only the wording, or the spelling of the key
  list: the same keys in the same order, requoted; the same fixed values; the key list as
  open or closed as before): every value stays as it was.
- **Only values the object holds and the request states changed** (:data:`STATED`, in any
  phrasing: see :mod:`~stepcache_integrations.core.tasks.json_object.tracing`): those values
  follow the request, and so does every value both requests state in the same place
  (:func:`stated_keys`); the others may depend on the change and are regenerated.
- **Anything else**: a fixed value changed, added or removed; a key added, removed or
  renamed, or the keys reordered; the key list closed or opened ("exactly the keys ...");
  or a change another family took on. Then every value the new request does not state as
  a fixed value may depend on it: those values are regenerated (one model call for those
  keys and the added ones, held to the schema), never kept. The fixed values are set from
  the new request.

Why an added key is not harmless: the meaning of a key is its name *among its siblings*.
Beside ``surname``, ``name`` is the first name ("Bram Stoker" -> "Bram"); beside ``unit``,
``height`` is a number ("8849 m" -> 8849); beside ``country``, ``city`` loses its ", France";
beside ``explanation``, ``answer`` loses its "because ...". A removed key does the reverse
(without ``city``, ``population`` is the country's), and a reordered list can move a value
the prose assigns by position ("one planet per key, in the order listed"). No value the
request does not state is free of this: a number (a total next to an added ``tax``), a
boolean, a choice among a schema's ``enum`` values can all be re-split or re-scoped. Only
what the request states itself (a fixed value, a schema's ``const`` or one-value ``enum``)
cannot depend on the key list.

A per-call JSON Schema is part of the namespace: a changed schema never meets the cached
answer. Text outside the object (prose before or after it) is served for a changed request
only when it is presentation (:func:`presentation_only`): fences, punctuation, words that
say nothing about the content in the languages of a lexicon ("Here is the JSON object you
asked for:", "Hier ist das JSON-Objekt:") and the values both requests state. Any other
text may depend on the change and is not vouched for (:func:`unchecked_text`); after a
change of stated values only, a line of it that is a side note is left out instead (see
:mod:`~stepcache_integrations.core.tasks.json_object.prose`).

Example:
    >>> presentation_only("Here is the JSON object you asked for:\n```json\n")
    True
    >>> presentation_only("Here is the data for Mars:\n")
    False
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from stepcache_integrations.core.tasks.json_object.request import (
    JsonRequest,
    PromptLayout,
    same_json_value,
)
from stepcache_integrations.core.tasks.json_object.schema import wants_only_json
from stepcache_integrations.core.tasks.json_object.tracing import (
    in_a_listed_item,
    in_traced_places,
    retarget,
    trace,
    traced_keys,
)
from stepcache_integrations.core.text import Edit, Token
from stepcache_integrations.core.text.stated import is_presentation_word
from stepcache_integrations.core.verifiers.base import VerifyContext

__all__ = [
    "FAMILY",
    "FIXED_VALUE",
    "KEY_LIST",
    "STATED",
    "Dependence",
    "classify_edit",
    "dependence",
    "key_list_change",
    "only_traced_values",
    "outside_text",
    "presentation_only",
    "stated_keys",
    "unchecked_text",
    "untraced_change",
]

Span = tuple[int, int]

#: The JSON family's name: the accounts it gives carry it.
FAMILY = "json"

# What a JSON account's change is (``ChangeAccount.what``).
#: A key of a key list ("with the keys name, age ...").
KEY_LIST = "a key of the key list"
#: A fixed value ("where planet is "Mars""): its key or its value.
FIXED_VALUE = "a value the request fixes"
#: A value the cached answer took from the request, in any phrasing (see ``tracing``).
STATED = "a value the answer took from the request"


def _inside(token: Token, spans: Sequence[Span]) -> bool:
    return any(start <= token.start and token.end <= end for start, end in spans)


def classify_edit(
    edit: Edit, old: PromptLayout, new: PromptLayout, wording: Callable[[Token], bool]
) -> str | None:
    """What ``edit`` changes in what the request asks of the object: :data:`FIXED_VALUE` (a
    token in the key or the value of a fixed value) or :data:`KEY_LIST` (in a key of a key
    list), the stronger first, even where its words would only name the task elsewhere;
    ``None`` when no token of it lies there, or when a token outside them is more than
    ``wording`` (a word that only names the task, a separator)."""
    kinds: set[str] = set()
    for tokens, layout in ((edit.removed, old), (edit.added, new)):
        fixed = [span for _, key_span, value_span in layout.fixed_spans
                 for span in (key_span, value_span)]  # fmt: skip
        for token in tokens:
            if _inside(token, fixed):
                kinds.add(FIXED_VALUE)
            elif _inside(token, layout.key_spans):
                kinds.add(KEY_LIST)
            elif not wording(token):
                return None
    return next((kind for kind in (FIXED_VALUE, KEY_LIST) if kind in kinds), None)


@dataclass(frozen=True)
class Dependence:
    """A change between two requests that every value of a reused object the new request
    does not state may depend on; ``shown`` describes it, for reasons."""

    shown: str


def _same_fixed_values(old: JsonRequest, new: JsonRequest) -> bool:
    """Whether both requests fix the same keys to the same JSON values."""
    return old.fixed_values.keys() == new.fixed_values.keys() and all(
        same_json_value(value, new.fixed_values[key]) for key, value in old.fixed_values.items()
    )


def _no_longer_required(old: JsonRequest, new: JsonRequest) -> list[str]:
    """The keys ``old`` requires that ``new`` neither requires nor fixes (in any case): the
    key is gone from the key list, even where the new request still says the word."""
    asked = {key.lower() for key in (*new.required_keys, *new.fixed_values)}
    return [key for key in old.required_keys if key.lower() not in asked]


def _keys_shown(keys: Sequence[str]) -> str:
    return ", ".join(repr(key) for key in keys)


def key_list_change(old: JsonRequest, new: JsonRequest) -> str | None:
    """How the key list of ``new`` differs from that of ``old`` (a key removed, a key added,
    the keys reordered or respelled, the list closed or opened), for reasons; ``None`` when
    it asks for the same keys in the same order, as open or closed as before.

    Example:
        >>> key_list_change(JsonRequest(("name", "born")), JsonRequest(("name", "surname", "born")))
        "the added key 'surname'"
        >>> key_list_change(JsonRequest(("a", "b")), JsonRequest(("b", "a")))
        'the reordered key list'
    """
    removed = _no_longer_required(old, new)
    if removed:
        return "the removed key " + _keys_shown(removed)
    known = {key.lower() for key in (*old.required_keys, *old.fixed_values)}
    added = [key for key in new.required_keys if key.lower() not in known]
    if added:
        plural = "s" if len(added) > 1 else ""
        return f"the added key{plural} " + _keys_shown(added)
    if new.exact_keys != old.exact_keys:
        if new.exact_keys:
            return "the closed key list (other keys are dropped)"
        return "the opened key list (other keys are allowed)"
    if new.required_keys == old.required_keys:
        return None
    if sorted(new.required_keys) == sorted(old.required_keys):
        return "the reordered key list"
    return "the changed key list"


def dependence(ctx: VerifyContext, old: JsonRequest | None, new: JsonRequest) -> Dependence | None:
    """The change of ``ctx`` (cached request -> ``ctx.request``, read as ``old`` and ``new``)
    that every value of a reused object the new request does not state may depend on;
    ``None`` when no value can depend on the changes (the same request, a fresh answer, or
    only changes of wording, letter case or the quoting of the key list, which leave what the
    request asks of the object as it was: their families declare them meaning-neutral for
    the answer or check them on their own).

    A change of the key list is one of them whichever words it was made with: the key
    list of each request is compared as read, not only where an edit touched a key."""
    if not ctx.changed:
        return None
    values = [account for account in ctx.accounts if account.kind == "value"]
    shown = values[0].shown if values else "the request's wording"
    if old is None or not _same_fixed_values(old, new):
        return Dependence(shown)
    keys = key_list_change(old, new)
    if keys is not None:
        return Dependence(keys)
    other = next((a for a in values if a.family != FAMILY or a.what != KEY_LIST), None)
    return None if other is None else Dependence(other.shown)


# --------------------------------------------------------------------------- text around it

# A fence line, bare or naming a JSON-like language (any other word is not presentation).
_FENCE_MARK = re.compile(r"(?im)^[ \t]*(?:`{3,}|~{3,})(?:json5?|jsonc|js|javascript)?[ \t]*$")
_WORD = re.compile(r"[^\W\d_]+")
# Whitespace and the punctuation of a presenting sentence; anything else is content.
_PRESENTATION_MARKS = re.compile(r"[\s.,:;!\-()'\"\u2019\u201c\u201d\u00ab\u00bb\u00a1\u00bf]*")


def presentation_only(text: str, words: bool = True, values: Sequence[str] = ()) -> bool:
    """Whether ``text`` (outside a JSON object) only presents it: whitespace, code fences,
    punctuation, values the request states (``values``, as written) and (unless ``words``
    is false) presentation words of any language the lexicon knows, nothing that could
    depend on a request's values.

    Example:
        >>> presentation_only("Hier ist das JSON-Objekt f\u00fcr Anna (31):", values=["Anna", "31"])
        True
        >>> presentation_only("Anna is an adult (31):", values=["Anna", "31"])
        False
    """
    rest = _FENCE_MARK.sub(" ", text)
    for value in sorted(values, key=len, reverse=True):
        rest = re.sub(rf"(?<![\w.,]){re.escape(value)}(?![\w]|[.,]\d)", " ", rest)
    for word in _WORD.findall(rest):
        if not words or not is_presentation_word(word):
            return False
    return _PRESENTATION_MARKS.fullmatch(_WORD.sub(" ", rest)) is not None


def outside_text(text: str, span: tuple[int, int] | None, separator: str) -> str:
    """A step's text outside its JSON object (``span``; the whole text when it has none),
    with its separator."""
    if span is None:
        return text + separator
    start, end = span
    return text[:start] + " " + text[end:] + " " + separator


def _shown(text: str, limit: int = 60) -> str:
    """Text around an object, for reasons."""
    squeezed = " ".join(text.split())
    return repr(squeezed if len(squeezed) <= limit else squeezed[: limit - 3] + "...")


def unchecked_text(
    around: str,
    request: str,
    cached_request: str,
    found: Dependence | None,
    values: Sequence[str] = (),
) -> str | None:
    """What of ``around`` (a reused step's text outside its JSON object, see
    :func:`outside_text`) may depend on the change from ``cached_request`` to ``request``
    (``found``: what the values may depend on, see :func:`dependence`), for reasons; ``None``
    when it is presentation (``values``: the spellings of the values the new request states,
    which may stand in it). A request that now asks for the object alone gets nothing but
    fences around it.

    Example:
        >>> planet = Dependence("the planet")
        >>> unchecked_text("Mars has 2 moons.", "JSON for Venus", "JSON for Mars", planet)
        "'Mars has 2 moons.' around the JSON object may depend on the planet"
        >>> unchecked_text("Here it is:", "JSON for Venus", "JSON for Mars", planet) is None
        True
    """
    if (
        wants_only_json(request)
        and not wants_only_json(cached_request)
        and not presentation_only(around, words=False)
    ):
        return f"the new request asks for the JSON object alone; this step has {_shown(around)}"
    if found is not None and not presentation_only(around, values=values):
        return f"{_shown(around)} around the JSON object may depend on {found.shown}"
    return None


def only_traced_values(ctx: VerifyContext, obj: Mapping[str, Any]) -> bool:
    """Whether every change of ``ctx`` is a value of ``obj`` that the new request states, in
    the place the edit wrote it: then the rest of the request is the request it was, and
    what the request states of the object is all that changed. Any other change (a reworded
    clause, a key, another family's value) leaves no value the object holds vouched for by
    the request's words alone: "where planet is "Mars"" -> "where planet has "Mars"" still
    writes "Mars", but no longer says that the planet is Mars."""
    if not ctx.accounts:
        return False
    spans = [slot.span for slot in trace(ctx.request, obj)]
    for account in ctx.accounts:
        if account.family != FAMILY or account.kind != "value" or not account.edit.added:
            return False
        if account.what not in (STATED, FIXED_VALUE) or not account.edit.removed:
            return False
        if account.what == STATED and _listed(ctx, account.edit, obj):
            continue  # a changed item of a listed list: that list is asked again
        if not in_traced_places(account.edit, spans):
            return False
    return True


def stated_keys(ctx: VerifyContext, obj: Mapping[str, Any]) -> frozenset[str]:
    """The keys of ``obj`` (a reused object, carried over to ``ctx.request``) whose every
    value both requests state, each in the same place: nothing but those values changed
    (:func:`only_traced_values`), and read back into the cached request the object's values
    are the ones it stated. A value that only the new request happens to state (a key's
    name, a word the change freed) is not among them: it may be derived from the change."""
    if ctx.cached_request is None or not only_traced_values(ctx, obj):
        return frozenset()
    back = [
        Edit(account.edit.added, account.edit.removed)
        for account in ctx.accounts
        if not (account.what == STATED and _listed(ctx, account.edit, obj))
    ]
    if isinstance(retarget(ctx.request, ctx.cached_request, back, obj, backwards=True), str):
        return frozenset()
    return traced_keys(ctx.request, obj)


def _listed(ctx: VerifyContext, edit: Edit, obj: Mapping[str, Any]) -> bool:
    return ctx.cached_request is not None and in_a_listed_item(ctx.cached_request, edit, obj)


def untraced_change(ctx: VerifyContext, obj: Mapping[str, Any] | None) -> str | None:
    """Why a reused object does not carry a change the family took on as a stated value
    (:data:`STATED`): the new value must be a value of ``obj`` that the new request states
    in the very place the edit wrote it; ``None`` when every such change is carried."""
    stated = [a for a in ctx.accounts if a.family == FAMILY and a.what == STATED]
    if not stated:
        return None
    if obj is None:
        return f"{stated[0].shown} is not a value of a JSON object here"
    spans = [slot.span for slot in trace(ctx.request, obj)]
    for account in stated:
        if _listed(ctx, account.edit, obj):
            continue  # an item of a list the request states: the list is asked again
        if not in_traced_places(account.edit, spans):
            return f"{account.shown} is not a value the answer took from the request"
    return None
