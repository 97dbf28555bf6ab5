r"""Which parts of a cached JSON answer a change between two requests may determine.

The JSON family takes on a change only where it lies in what the request asks of the
object (:func:`classify_edit`), and says which values of a reused object may then depend on
it (:func:`dependence`). The rule is closed-world: what it does not list is regenerated.

- **Only keys were added to the key list** (the keys otherwise the same, perhaps reordered or
  requoted; the same fixed values): every value the new request does not state stays as it
  was. Each kept value still answers its key in the context it was written in, since
  nothing of that context (the other keys and their values) is gone; an added key is asked
  of the model alone, given the kept object, so it is written consistently with it.
- **Anything else**: a fixed value changed, added or removed; a key removed (its value may
  have been what the others describe: drop ``city`` from ``city, country, population`` and
  a city's population would be served as the country's); the key list closed ("exactly the
  keys ...", which drops keys); a key or a value the request mentions outside its key list
  and its fixed values (in the prose); or a change another family took on. Then every value
  the new request does not state may depend on it: those values are regenerated (one model
  call for those keys only, held to the schema), never kept. The values the new request
  states are set from it.

A per-call JSON Schema is part of the namespace: a changed schema never meets the cached
answer. Text outside the object (prose before or after it) is served for a changed request
only when it is presentation (:func:`presentation_only`): fences, punctuation and a few
words that say nothing about the content ("Here is the JSON object you asked for:"). Any
other text may depend on the change and is not vouched for.

Example:
    >>> presentation_only("Here is the JSON object you asked for:\n```json\n")
    True
    >>> presentation_only("Here is the data for Mars:\n")
    False
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from stepcache_integrations.core.tasks.json_object.request import (
    JsonRequest,
    PromptLayout,
    same_json_value,
)
from stepcache_integrations.core.text import Edit, Token
from stepcache_integrations.core.verifiers.base import VerifyContext

__all__ = [
    "FAMILY",
    "FIXED_VALUE",
    "KEY_LIST",
    "MENTION",
    "Dependence",
    "Reading",
    "classify_edit",
    "dependence",
    "outside_text",
    "presentation_only",
]

Span = tuple[int, int]

#: The JSON family's name: the accounts it gives carry it.
FAMILY = "json"

# What a JSON account's change is (``ChangeAccount.what``).
#: A key of a key list ("with the keys name, age ...").
KEY_LIST = "a key of the key list"
#: A fixed value ("where planet is "Mars""): its key or its value.
FIXED_VALUE = "a value the request fixes"
#: A key or a fixed value mentioned outside the key list and the fixed values.
MENTION = "a key or value mentioned in the prose"


@dataclass(frozen=True)
class Reading:
    """One request as the JSON family reads it: what it asks (its schema included), where
    the prompt states it, and every mention of a key or fixed value (``mentions``)."""

    request: JsonRequest
    layout: PromptLayout
    mentions: Sequence[Span]


def _inside(token: Token, spans: Sequence[Span]) -> bool:
    return any(start <= token.start and token.end <= end for start, end in spans)


def classify_edit(edit: Edit, old: Reading, new: Reading) -> str | None:
    """What ``edit`` changes in the JSON request: :data:`FIXED_VALUE` (a token in the key or
    the value of a fixed value), :data:`MENTION` (in another mention of a key or a fixed
    value) or :data:`KEY_LIST` (in a key of a key list); ``None`` when no token of it lies in
    what the request asks (it only words the task). The strongest kind wins, in that order."""
    kinds: set[str] = set()
    for tokens, reading in ((edit.removed, old), (edit.added, new)):
        layout = reading.layout
        fixed = [span for _, key_span, value_span in layout.fixed_spans
                 for span in (key_span, value_span)]  # fmt: skip
        for token in tokens:
            if _inside(token, fixed):
                kinds.add(FIXED_VALUE)
            elif _inside(token, layout.key_spans):
                kinds.add(KEY_LIST)
            elif _inside(token, reading.mentions):
                kinds.add(MENTION)
    return next((kind for kind in (FIXED_VALUE, MENTION, KEY_LIST) if kind in kinds), None)


@dataclass(frozen=True)
class Dependence:
    """What a changed request leaves of a cached JSON object: ``keeps_unstated`` when every
    value the new request does not state stays as it was (only keys were added); otherwise
    each of those values may depend on ``shown`` (the change, for reasons)."""

    keeps_unstated: bool
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


def dependence(ctx: VerifyContext, old: JsonRequest | None, new: JsonRequest) -> Dependence | None:
    """How the changes of ``ctx`` (cached request -> ``ctx.request``, read as ``old`` and
    ``new``) bear on a reused object; ``None`` when no value can depend on them (the same
    request, a fresh answer, or only changes of wording and letter case, which leave what
    the request asks as it was: their families declare them meaning-neutral for the answer
    or check them on their own)."""
    if not ctx.changed:
        return None
    values = [account for account in ctx.accounts if account.kind == "value"]
    shown = values[0].shown if values else "the request's wording"
    if old is None or not _same_fixed_values(old, new):
        return Dependence(False, shown)
    removed = _no_longer_required(old, new)
    if removed:
        return Dependence(False, "the removed key " + ", ".join(repr(key) for key in removed))
    if new.exact_keys and not old.exact_keys:
        return Dependence(False, "the closed key list (other keys are dropped)")
    if not values:
        return None
    other = next((a for a in values if a.family != FAMILY or a.what != KEY_LIST), None)
    if other is not None:
        return Dependence(False, other.shown)
    return Dependence(True, shown)


# --------------------------------------------------------------------------- text around it

# Words that present an object and say nothing about its content. Nothing built from them
# can depend on a request's values: no noun of the domain, no number, no negation.
_PRESENTATION_WORDS = frozenset(
    {
        *("here", "is", "are", "the", "a", "an", "this", "that", "it", "of", "and", "with"),
        *("your", "you", "asked", "requested", "for", "as", "below", "following", "i"),
        *("json", "object", "result", "output", "response", "keys", "values", "fields"),
        *("sure", "certainly", "course", "ok", "okay", "have", "has", "created", "generated"),
        *("let", "me", "know", "if", "need", "anything", "else", "hope", "helps"),
    }
)
# A fence line, bare or naming a JSON-like language (any other word is not presentation).
_FENCE_MARK = re.compile(r"(?im)^[ \t]*(?:`{3,}|~{3,})(?:json5?|jsonc|js|javascript)?[ \t]*$")
_WORD = re.compile(r"[^\W\d_]+")
# Whitespace and the punctuation of a presenting sentence; anything else is content.
_PRESENTATION_MARKS = re.compile(r"[\s.,:;!\-]*")


def presentation_only(text: str, words: bool = True) -> bool:
    """Whether ``text`` (outside a JSON object) only presents it: whitespace, code fences,
    punctuation and (unless ``words`` is false) presentation words, nothing that could depend
    on a request's values."""
    rest = _FENCE_MARK.sub(" ", text)
    for word in _WORD.findall(rest):
        if not words or word.lower() not in _PRESENTATION_WORDS:
            return False
    return _PRESENTATION_MARKS.fullmatch(_WORD.sub(" ", rest)) is not None


def outside_text(text: str, span: tuple[int, int] | None, separator: str) -> str:
    """A step's text outside its JSON object (``span``; the whole text when it has none),
    with its separator."""
    if span is None:
        return text + separator
    start, end = span
    return text[:start] + " " + text[end:] + " " + separator
