"""The values of a JSON answer that the request states, and how they follow a changed request.

A value of the cached object is *traced* to the cached request when the request states that
very value once (see :func:`~stepcache_integrations.core.text.stated.statements`: the same
number, the same text, a yes/no of its language for a boolean; and a count the request writes
in words, "eight", "zweihundert", or text of small letters the answer capitalised: see
:mod:`~stepcache_integrations.core.tasks.json_object.number_words` and
:mod:`~stepcache_integrations.core.tasks.json_object.value_kinds`), in whatever phrasing or
language ("name Anna, age 31", "Anna (31) aus Lissabon", "nome Ana, idade 31"). When the new
request differs from the cached one only there, the rest of the request asks what it asked
before, and the cached answer shows what that was: the traced values are rewritten in place
(:func:`retarget`), everything else of the answer is as the model wrote it. No phrasing is
read, so nothing here depends on the language.

A value is traced only when its origin is certain:

- the request states it exactly once, and no other value of the object is equal to it
  ("Anna, 31, lives at number 31": which 31 is the age?), unless the request names its key
  right before it ("in stock: yes, on sale: yes");
- it is never written beside its alternatives ("adult (yes/no)": a type, not a statement);
- its statement overlaps no other value's ("Ana Silva" and "Silva"), nor a key the request
  names (a value equal to a key's name), and it is no word any request has ("a", "the");
- an item of a list of several only when the request states every item once, in the list's
  order ("sizes 8, 9, 10, 11"): in another order, the order may follow from the values
  ("sorted by name"); such an item is kept while unchanged, and a changed one makes the
  list asked again;
- a number, only when every number the request states is the statement of some value of the
  object: a number left over may be an input the model computed with ("10 minus 5" answered
  ``{"result": 5}``: that 5 is not a copy of the request's 5).

A new value replaces an old one only when it is of the old one's kind
(:func:`~stepcache_integrations.core.text.stated.read_like`), and only when the new request
states it once too; otherwise the model answers. Values the request does not state are not
touched here: they may depend on the change and are asked again (see
:mod:`~stepcache_integrations.core.tasks.json_object.changes`).

Example:
    >>> cached = "Erstelle ein JSON-Objekt für Anna (31) aus Lissabon."
    >>> new = "Erstelle ein JSON-Objekt für Anna (32) aus Porto."
    >>> obj = {"name": "Anna", "alter": 31, "stadt": "Lissabon"}
    >>> [slot.path for slot in trace(cached, obj)]
    [('name',), ('alter',), ('stadt',)]
    >>> from stepcache_integrations.core.text import compare
    >>> retarget(cached, new, compare(cached, new).edits, obj).obj
    {'name': 'Anna', 'alter': 32, 'stadt': 'Porto'}
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from stepcache_integrations.core.tasks.json_object.number_words import word_numbers
from stepcache_integrations.core.tasks.json_object.request import prompt_layout
from stepcache_integrations.core.tasks.json_object.value_kinds import (
    read_stated,
    recased_statements,
)
from stepcache_integrations.core.text import Edit, Token
from stepcache_integrations.core.text.memo import text_memo
from stepcache_integrations.core.text.stated import (
    Scalar,
    Span,
    is_operand,
    is_presentation_word,
    number_statements,
    read_like,
    statements,
    yes_no,
)

__all__ = [
    "Change",
    "Retarget",
    "Slot",
    "flipped_yes_no",
    "in_a_listed_item",
    "in_traced_places",
    "leaves",
    "may_be_stated_value",
    "retarget",
    "rewrite_mentions",
    "side_span",
    "stated_spellings",
    "token_pieces",
    "trace",
    "traced_keys",
]

Path = tuple[str | int, ...]

# Tracing reads the request once per value of the object: beyond these sizes it traces
# nothing (the model answers), so that a hit never costs more than a few milliseconds.
_MAX_LEAVES = 200
_MAX_REQUEST = 20_000


@dataclass(frozen=True)
class Slot:
    """A value of the object (at ``path``) and where the request states it (``span``)."""

    path: Path
    value: Scalar
    span: Span
    in_list: bool = False
    """An item of a list the request states in its order: kept while it is unchanged; a
    changed item is not rewritten (the list is asked again)."""


def leaves(value: object, path: Path = ()) -> Iterator[tuple[Path, Scalar]]:
    """Every scalar of a JSON value (``null`` excepted) with its path.

    Example:
        >>> list(leaves({"a": [1, {"b": True}], "c": None}))
        [(('a', 0), 1), (('a', 1, 'b'), True)]
    """
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for position, item in enumerate(value):
            yield from leaves(item, (*path, position))
    elif isinstance(value, str | int | float) and not (
        isinstance(value, float) and value != value  # NaN is no JSON value
    ):
        yield path, value


def _identity(value: Scalar) -> tuple[str, object]:
    """What makes two values equal for tracing: ``1`` and ``1.0`` are one number, ``true``
    is not ``1``, ``"31"`` is not ``31``."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("number", Decimal(repr(value)))
    return ("text", value)


def _overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _key_names(request: str) -> tuple[Span, ...]:
    """Where the request names keys (its key lists, the keys of its fixed values): a value
    equal to a key's name is not stated there."""
    layout = prompt_layout(request)
    return (*layout.key_spans, *(key for _, key, _ in layout.fixed_spans))


def _trace(
    request: str, pairs: tuple[tuple[Path, Scalar], ...], listed: frozenset[Path]
) -> tuple[Slot, ...]:
    counts: dict[tuple[str, object], int] = {}
    for _, value in pairs:
        counts[_identity(value)] = counts.get(_identity(value), 0) + 1
    names = _key_names(request)
    keys = tuple(dict.fromkeys(str(path[0]) for path, _ in pairs if path))
    candidates: list[Slot] = []
    for path, value in pairs:
        if path in listed:
            continue
        if isinstance(value, str) and len(value) < 2:
            continue  # "a": a word of any request, not a value it states
        spans = _statements(request, value)
        if isinstance(value, str) and is_presentation_word(value):
            # "the", "es", "de": a word of many requests; it states this value only right
            # after the name of its key ("language: es").
            spans = _named(request, path, spans)
        elif isinstance(value, bool) or counts[_identity(value)] != 1:
            # A yes/no is one of two values: equal to a boolean of the object, it may state
            # another thing ("premium: no" beside 'trial_expired': false); a value equal to
            # another of the object may be either's. Its one origin is where the request
            # names its key right before it ("Active: yes", "in stock: yes, on sale: yes"),
            # or its place in a list of values that follows the object's keys in their
            # order ("keys product, price and in_stock: Desk lamp, 24.99, yes").
            spans = _named(request, path, spans) or _in_key_order(request, keys, path, spans)
        if len(spans) == 1 and not any(_overlaps(spans[0], name) for name in names):
            candidates.append(Slot(path, value, spans[0]))
    candidates.extend(_list_slots(request, pairs, listed, counts, names))
    slots = [
        slot
        for slot in candidates
        if not any(other is not slot and _overlaps(slot.span, other.span) for other in candidates)
    ]
    covered = [slot.span for slot in slots]
    numbers = [span for span, _, _ in number_statements(request)]
    numbers.extend(span for span, _ in word_numbers(request))
    loose = [
        span
        for span in numbers
        if not any(start <= span[0] and span[1] <= end for start, end in covered)
    ]
    if loose:
        slots = [s for s in slots if isinstance(s.value, bool | str)]
    return tuple(slots)


def _statements(request: str, value: Scalar) -> tuple[Span, ...]:
    """Where ``request`` states ``value``: as :func:`statements` finds it, a count of two or
    more also in words of the request's language ("eight" for ``8``, see
    :mod:`~stepcache_integrations.core.tasks.json_object.number_words`), and a text the
    request writes in small letters that the answer capitalised (see ``value_kinds``)."""
    spans = statements(request, value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2:
        spans = (*spans, *(span for span, number in word_numbers(request) if number == value))
    if isinstance(value, str) and not spans:
        # "sourdough loaf" answered "Sourdough loaf": the request's words, capitalised.
        spans = recased_statements(request, value)
    return spans


_KEY_PARTS = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
# Between a key's name and its value: spaces and one mark ("on sale: yes", "age=31").
_NAME_GAP = re.compile(r"[ \t]*[:=\-\u2013]?[ \t]*$")


def _named(request: str, path: Path, spans: Sequence[Span]) -> tuple[Span, ...]:
    """The statements among ``spans`` right after the name of the key at ``path`` ("on sale:
    yes" for ``on_sale``, "Haustiere erlaubt: ja" for ``haustiere_erlaubt``)."""
    key = path[-1] if path and isinstance(path[-1], str) else None
    if key is None:
        return ()
    words = [_folded(word.lower()) for word in _KEY_PARTS.findall(_CAMEL.sub(" ", key))]
    if not words:
        return ()
    name = re.compile(
        r"(?<![^\W_])" + r"[\s_\-]+".join(map(re.escape, words)) + r"$", re.IGNORECASE
    )
    found: list[Span] = []
    for start, end in spans:
        before = request[max(0, start - 80) : start]
        gap = _NAME_GAP.search(before)
        if gap is not None and name.search(_folded(before[: gap.start()])) is not None:
            found.append((start, end))
    return tuple(found)


# Between a key list and the values that follow it: a colon or an arrow, and spaces.
_LIST_GAP = re.compile(r"[ \t]*(?:[:=]|->|\u2192|\u2013|-)?[ \t]*")
# Values of a list are parted by a comma and a space ("349,90" is one value: a decimal comma).
_VALUE_SEP = re.compile(r",[ \t]+")


def _key_name(key: str) -> re.Pattern[str] | None:
    words = [_folded(word.lower()) for word in _KEY_PARTS.findall(_CAMEL.sub(" ", key))]
    if not words:
        return None
    joined = r"[\s_\-]+".join(map(re.escape, words))
    return re.compile(r"(?<![^\W_])" + joined + r"(?![^\W_])", re.IGNORECASE)


def _in_key_order(
    request: str, keys: Sequence[str], path: Path, spans: Sequence[Span]
) -> tuple[Span, ...]:
    """The statement among ``spans`` that stands, in a list of values written right after
    the object's top-level ``keys`` (each named once, in the object's order, on one line),
    at the place of the key at ``path``: the request lists the keys, then their values in
    the same order. Nothing when the request writes no such list."""
    if len(path) != 1 or len(keys) < 2:
        return ()
    folded = _folded(request)
    if len(folded) != len(request):
        return ()  # a letter folded into several: its places are not the request's
    ends: list[int] = []
    for key in keys:
        name = _key_name(key)
        found = list(name.finditer(folded)) if name is not None else []
        if len(found) != 1 or (ends and found[0].start() < ends[-1]):
            return ()
        ends.append(found[0].end())
    gap = _LIST_GAP.match(request, ends[-1])
    start = gap.end() if gap is not None else ends[-1]
    line_end = request.find("\n", start)
    line = request[start : len(request) if line_end < 0 else line_end].rstrip(" \t.")
    if "\n" in request[ends[0] : ends[-1]]:
        return ()
    bounds = [0, *(m.end() for m in _VALUE_SEP.finditer(line))]
    if len(bounds) != len(keys):
        return ()
    place = keys.index(str(path[0]))
    low = start + bounds[place]
    high = start + (bounds[place + 1] if place + 1 < len(bounds) else len(line))
    return tuple(span for span in spans if low <= span[0] and span[1] <= high)


def _folded(text: str) -> str:
    """``text`` without its accents: a key is often written without them ("disponivel" for
    "disponível: sim", "preco" for "preço")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _list_slots(
    request: str,
    pairs: tuple[tuple[Path, Scalar], ...],
    listed: frozenset[Path],
    counts: Mapping[tuple[str, object], int],
    names: Sequence[Span],
) -> list[Slot]:
    """The items of each list of plain values that the request states, every item once and
    in the list's own order ("sizes 8, 9, 10, 11" -> ``[8, 9, 10, 11]``): then the list is
    the request's, whatever its order may follow from. A list in another order, or with an
    item stated twice or not at all, has no slots (it is asked again after a change)."""
    lists: dict[Path, list[tuple[Path, Scalar]]] = {}
    for path, value in pairs:
        if path in listed and len(path) >= 1 and isinstance(path[-1], int):
            lists.setdefault(path[:-1], []).append((path, value))
    found: list[Slot] = []
    for items in lists.values():
        if any(len(path) != len(items[0][0]) for path, _ in items):
            continue  # a list of objects or lists: not a list of plain values
        slots: list[Slot] = []
        for path, value in items:
            if counts[_identity(value)] != 1 or (isinstance(value, str) and len(value) < 2):
                break
            spans = _statements(request, value)
            if len(spans) != 1 or any(_overlaps(spans[0], name) for name in names):
                break
            if slots and spans[0][0] < slots[-1].span[1]:
                break  # another order than the request's
            slots.append(Slot(path, value, spans[0], in_list=True))
        else:
            found.extend(slots)
    return found


def _in_a_list(obj: Any, path: Path) -> bool:
    """Whether ``path`` runs through a list of more than one item: where an item stands may
    follow from the values ("sorted by name", "oldest first"), so none of them is a slot."""
    for part in path:
        if isinstance(part, int) and isinstance(obj, list) and len(obj) > 1:
            return True
        obj = obj[part]
    return False


@text_memo(max_chars=400_000)
def _trace_json(request: str, obj_json: str) -> tuple[Slot, ...]:
    obj = json.loads(obj_json)
    pairs = tuple(leaves(obj))
    if len(pairs) > _MAX_LEAVES or len(request) > _MAX_REQUEST:
        return ()  # bounded work on the hit path: such an object's values are not traced
    return _trace(request, pairs, frozenset(p for p, _ in pairs if _in_a_list(obj, p)))


def trace(request: str, obj: Mapping[str, Any]) -> tuple[Slot, ...]:
    """The values of ``obj`` that ``request`` states, each with its one statement."""
    try:
        key = json.dumps(obj, sort_keys=False, ensure_ascii=False)
    except (TypeError, ValueError):
        return ()
    return _trace_json(request, key)


def traced_keys(request: str, obj: Mapping[str, Any]) -> frozenset[str]:
    """The top-level keys of ``obj`` whose every value ``request`` states.

    Example:
        >>> sorted(traced_keys("Anna, 31", {"name": "Anna", "age": 31, "adult": True}))
        ['age', 'name']
    """
    slots = {slot.path for slot in trace(request, obj)}
    keys: set[str] = set()
    for key, value in obj.items():
        paths = [path for path, _ in leaves(value, (key,))]
        if paths and all(path in slots for path in paths):
            keys.add(key)
    return frozenset(keys)


def side_span(tokens: Sequence[Token]) -> Span:
    """Where one side of an edit is written (a lone quoted string: its inside)."""
    if len(tokens) == 1 and tokens[0].kind == "quoted" and len(tokens[0].text) >= 2:
        return tokens[0].start + 1, tokens[0].end - 1
    return tokens[0].start, tokens[-1].end


@dataclass(frozen=True)
class Change:
    """One traced value of the cached object and what the new request makes of it."""

    path: Path
    old: Scalar
    new: Scalar
    old_text: str
    new_text: str


@dataclass(frozen=True)
class Retarget:
    """The cached object with its traced values set from the new request."""

    obj: dict[str, Any]
    changes: tuple[Change, ...]


def _set(obj: Any, path: Path, value: Scalar) -> None:
    for part in path[:-1]:
        obj = obj[part]
    obj[path[-1]] = value


def retarget(
    cached_request: str,
    request: str,
    edits: Sequence[Edit],
    obj: Mapping[str, Any],
    backwards: bool = False,
) -> Retarget | str:
    """``obj`` (the cached answer's object) with each value that ``edits`` change rewritten:
    every edit must lie inside the statement of one traced value and make a value of its
    kind, and the new request must state every traced value once, as the cached one did.
    Why not, otherwise. ``backwards``: the edits lead from a new request back to the cached
    one (a change of kind is then admitted in the direction it was made, see
    :func:`~stepcache_integrations.core.tasks.json_object.value_kinds.read_stated`)."""
    slots = trace(cached_request, obj)
    by_slot: dict[Path, list[Edit]] = {}
    for whole in edits:
        if not whole.removed or not whole.added:
            return "a value was added or removed, not changed"
        for edit in _slot_pieces(whole, slots):
            removed = side_span(edit.removed)
            slot = _slot_at(slots, removed)
            if slot is None:
                shown = cached_request[removed[0] : removed[1]]
                return f"{shown!r} is not a value the answer took from the request"
            if slot.in_list:
                shown = cached_request[removed[0] : removed[1]]
                return f"{shown!r} is an item of a list: the list is asked again"
            by_slot.setdefault(slot.path, []).append(edit)
    new_obj: dict[str, Any] = json.loads(json.dumps(obj))
    changes: list[Change] = []
    for slot in slots:
        slot_edits = by_slot.get(slot.path)
        if not slot_edits:
            continue
        start, end = slot.span
        old_text = cached_request[start:end]
        pieces: list[str] = []
        cursor = start
        for edit in sorted(slot_edits, key=lambda e: side_span(e.removed)[0]):
            r_start, r_end = side_span(edit.removed)
            a_start, a_end = side_span(edit.added)
            pieces.append(cached_request[cursor:r_start])
            pieces.append(request[a_start:a_end])
            cursor = r_end
        pieces.append(cached_request[cursor:end])
        new_text = "".join(pieces)
        if not isinstance(slot.value, bool) and yes_no(old_text):
            # A yes/no word turned around is a boolean's; a text that merely equals one
            # ("decision": "no" beside "risk tolerance: no") may say something else.
            return f"{old_text!r} is a yes/no, and {json.dumps(slot.value)} no boolean"
        value = read_stated(new_text, slot.value, old_text, cached_request, backwards)
        if value is None:
            return f"{new_text!r} is not a value of the kind of {old_text!r}"
        _set(new_obj, slot.path, value)
        changes.append(Change(slot.path, slot.value, value, old_text, new_text))
    # The new request must state every traced value once, each in its own place.
    now = {slot.path for slot in trace(request, new_obj)}
    lost = [slot for slot in slots if slot.path not in now]
    if lost:
        shown = json.dumps(_value_at(new_obj, lost[0].path), ensure_ascii=False)
        return f"{shown} cannot be traced to one place of the new request"
    return Retarget(new_obj, tuple(changes))


def _slot_at(slots: Sequence[Slot], span: Span) -> Slot | None:
    return next((s for s in slots if s.span[0] <= span[0] and span[1] <= s.span[1]), None)


def token_pieces(edit: Edit) -> tuple[Edit, ...]:
    """``edit`` token for token when it replaces several tokens one for one (two values
    changed side by side: "2025-03-05 10:30" -> "2025-03-12 14:00" is one edit "05 10" ->
    "12 14"), else ``edit`` itself.

    Example:
        >>> from stepcache_integrations.core.text import compare
        >>> edit = compare("on 2025-03-05 10:30", "on 2025-03-12 14:30").edits[0]
        >>> [([t.text for t in p.removed], [t.text for t in p.added]) for p in token_pieces(edit)]
        [(['05'], ['12']), (['10'], ['14'])]
    """
    if edit.is_substitution and len(edit.removed) > 1:
        return tuple(
            Edit((old,), (new,)) for old, new in zip(edit.removed, edit.added, strict=True)
        )
    return (edit,)


def _slot_pieces(edit: Edit, slots: Sequence[Slot]) -> tuple[Edit, ...]:
    """``edit`` whole when it lies in one slot; else its tokens one for one, when each lies
    in a slot (values changed side by side), else whole (and refused)."""
    if _slot_at(slots, side_span(edit.removed)) is not None:
        return (edit,)
    pieces = token_pieces(edit)
    if len(pieces) > 1 and all(_slot_at(slots, side_span(p.removed)) for p in pieces):
        return pieces
    return (edit,)


def in_traced_places(edit: Edit, spans: Sequence[Span]) -> bool:
    """Whether what ``edit`` added lies in the ``spans`` of traced values: whole in one, or
    token for token each in one (values changed side by side, see :func:`token_pieces`)."""

    def inside(piece: Edit) -> bool:
        start, end = side_span(piece.added)
        return any(s <= start and end <= e for s, e in spans)

    return inside(edit) or all(inside(piece) for piece in token_pieces(edit))


def _value_at(obj: Any, path: Path) -> Any:
    for part in path:
        obj = obj[part]
    return obj


def _spellings(change: Change) -> dict[str, str]:
    """Each way the old value may be written in prose (as the request wrote it, as JSON
    writes it) and the new value written the same way."""
    pairs = {change.old_text: change.new_text}
    if isinstance(change.old, str) and isinstance(change.new, str):
        pairs.setdefault(change.old, change.new)  # a date in the answer's own form
    else:
        pairs.setdefault(json.dumps(change.old), json.dumps(change.new))
    return {old: new for old, new in pairs.items() if old}


def _literally(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement that writes ``text`` as it is (no group references, no escapes)."""
    return lambda _match: text


def rewrite_mentions(text: str, changes: Sequence[Change]) -> str:
    """``text`` (prose around the object) with each changed value's old spelling replaced by
    the new one, where it is written as a word of its own. Booleans are not rewritten: a
    yes/no in prose is read as content (see ``changes.presentation_only``).

    Example:
        >>> change = Change(("age",), 31, 32, "31", "32")
        >>> rewrite_mentions("Anna, 31 (not 310):", [change])
        'Anna, 32 (not 310):'
    """
    for change in changes:
        if isinstance(change.old, bool):
            continue
        for old, new in _spellings(change).items():
            pattern = re.compile(rf"(?<![\w.,]){re.escape(old)}(?![\w]|[.,]\d)")
            text = pattern.sub(_literally(new), text)
    return text


def stated_spellings(
    request: str, obj: Mapping[str, Any], keys: frozenset[str] | None = None
) -> tuple[str, ...]:
    """How prose may write the values of ``obj`` that ``request`` states (under ``keys``
    only, when given): as the request writes them, and as JSON does (booleans excepted: a
    yes/no in prose is content)."""
    spellings: list[str] = []
    for slot in trace(request, obj):
        if isinstance(slot.value, bool) or (keys is not None and slot.path[0] not in keys):
            continue
        spellings.append(request[slot.span[0] : slot.span[1]])
        # As JSON writes it too (a number, or a date in the answer's own form).
        spellings.append(slot.value if isinstance(slot.value, str) else json.dumps(slot.value))
    return tuple(dict.fromkeys(spellings))


# Tokens that may make up a stated value (a word, a name, a number, a quoted string, an id);
# marks only inside one ("24,99", "2024-03-15", "ana@example.com").
_VALUE_KINDS = frozenset({"word", "name", "acronym", "identifier", "number", "quoted"})


def _glued(tokens: Sequence[Token], index: int) -> bool:
    """Whether token ``index`` is written against a neighbour of the same edit ("23C" read
    as "23" and "C"): one code the tokenizer split, not a letter of its own."""
    token = tokens[index]
    before = index > 0 and tokens[index - 1].end == token.start
    after = index + 1 < len(tokens) and tokens[index + 1].start == token.end
    return before or after


def _may_state(tokens: Sequence[Token], text: str) -> bool:
    if not tokens or tokens[0].kind == "punct" or tokens[-1].kind == "punct":
        return False
    for index, token in enumerate(tokens):
        if token.kind == "punct":
            continue
        if token.kind not in _VALUE_KINDS:
            return False
        letter = len(token.text) == 1 and token.text.isalpha() and not token.text.isupper()
        if token.kind in ("word", "identifier") and letter and not _glued(tokens, index):
            # A lower-case letter is a variable more often than a value; a capital one is a
            # size, a grade, a room or a seat ("Hall C", "tamanho M", "C-14"). Either way
            # it is only a candidate: the answer must hold a value that takes it in.
            return False
        if token.kind == "number" and is_operand(text, token.start, token.end):
            return False  # an operand of an equation or a sum: its family's, not a copy
    return True


def in_a_listed_item(cached_request: str, edit: Edit, obj: Mapping[str, Any]) -> bool:
    """Whether ``edit`` changes an item of a list of ``obj`` that ``cached_request`` states
    item by item (see :class:`Slot`): the change is that list's, which is asked again.

    Example:
        >>> from stepcache_integrations.core.text import compare
        >>> old, new = "tags: running, trail", "tags: running, road"
        >>> obj = {"tags": ["running", "trail"]}
        >>> in_a_listed_item(old, compare(old, new).edits[0], obj)
        True
    """
    if not edit.removed:
        return False
    start, end = side_span(edit.removed)
    return any(
        slot.in_list and slot.span[0] <= start and end <= slot.span[1]
        for slot in trace(cached_request, obj)
    )


def flipped_yes_no(edit: Edit, cached_request: str, request: str) -> bool:
    """Whether ``edit`` replaces one yes/no word standing alone by its opposite in the same
    language ("yes" -> "no", "ja" -> "nein", "sim" -> "não"), neither listed beside its
    alternatives.

    Example:
        >>> from stepcache_integrations.core.text import compare
        >>> old, new = "Active: yes", "Active: no"
        >>> flipped_yes_no(compare(old, new).edits[0], old, new)
        True
        >>> old, new = "Is it safe?", "Is it unsafe?"
        >>> flipped_yes_no(compare(old, new).edits[0], old, new)
        False
    """
    if len(edit.removed) != 1 or len(edit.added) != 1:
        return False
    old, new = edit.removed[0], edit.added[0]
    old_span, new_span = (old.start, old.end), (new.start, new.end)
    stood = [span for value in (True, False) for span in statements(cached_request, value)]
    stands = [span for value in (True, False) for span in statements(request, value)]
    if old_span not in stood or new_span not in stands:
        return False  # not a yes/no standing alone as a value ("no more than 3")
    was = read_like(cached_request[old.start : old.end], True, cached_request[old.start : old.end])
    now = read_like(request[new.start : new.end], True, cached_request[old.start : old.end])
    return isinstance(was, bool) and isinstance(now, bool) and was != now


def may_be_stated_value(edit: Edit, cached_request: str, request: str) -> bool:
    """Whether ``edit`` may replace a value the cached answer took from the request: one or
    more value tokens replaced by value tokens (no operand of arithmetic, no lone letter).
    Whether the answer really took that value is decided with the answer (:func:`retarget`).

    Example:
        >>> from stepcache_integrations.core.text import compare
        >>> old, new = "Anna, 31", "Bob, 32"
        >>> [may_be_stated_value(edit, old, new) for edit in compare(old, new).edits]
        [True, True]
        >>> edit = compare("Solve 3x + 5 = 20", "Solve 3x + 7 = 20").edits[0]
        >>> may_be_stated_value(edit, "Solve 3x + 5 = 20", "Solve 3x + 7 = 20")
        False
    """
    return _may_state(edit.removed, cached_request) and _may_state(edit.added, request)
