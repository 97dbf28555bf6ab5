"""What a prompt (and an optional JSON Schema) asks of a JSON answer: keys and fixed values.

:func:`parse_json_request` reads the required keys ("a JSON object with keys name, age and city")
and the fixed values ("where status is "active"") from the prompt, and adds a schema's
``required`` keys and ``const`` properties. Prompt parsing is deliberately conservative: a phrase
that is not clearly a key list or a fixed value is ignored, because a wrongly inferred
requirement makes good cached answers fail.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from stepcache_integrations.core.tasks.output_format import asks_for_json
from stepcache_integrations.core.text.lexicon import word_set
from stepcache_integrations.core.text.memo import text_memo

__all__ = ["JsonRequest", "PromptLayout", "parse_json_request", "prompt_layout", "same_json_value"]

Span = tuple[int, int]


@dataclass(frozen=True)
class JsonRequest:
    """What a prompt (and schema) asks of a JSON answer.

    Example:
        >>> request = parse_json_request('Return JSON with keys name, age where status is "active"')
        >>> request.required_keys, request.fixed_values, request.exact_keys
        (('name', 'age'), {'status': 'active'}, False)
    """

    required_keys: tuple[str, ...] = ()
    fixed_values: dict[str, object] = field(default_factory=dict, hash=False)
    exact_keys: bool = False
    """``True`` when the prompt allows no other keys ("exactly the keys ...")."""


# "exactly the keys", "only the fields", "no other keys": the key list is closed. ("Return
# only a JSON object" is not: there "only" rules out prose around the object.)
_EXACT_KEYS = re.compile(
    r"\b(?:exactly|only)\s+(?:the\s+)?(?:\w+\s+)?(?:keys|fields|properties|attributes)\b"
    r"|\bno\s+(?:other|extra|additional)\s+(?:keys|fields|properties|attributes)\b",
    re.IGNORECASE,
)


# --------------------------------------------------------------------------- prompt parsing


# Words that end a key list instead of being a key ("with keys name and age and return it").
_FUNCTION_WORDS = word_set(
    """a an the and or nor but not no is are was were be been being it its this that these
    those there here which what who whom whose where when why how each every all any some
    both either neither of for in on at by to from with without as into onto than then so if
    else only also just least most more less must should shall will would can could may
    might do does did has have had please return returns give make include includes
    including add plus contain contains containing named called like such following e g i eg
    ie etc you your we our they them their he she his her me my us use using json"""
)
# Words that may be keys in a list but are too vague to take a fixed value from
# ("the answer must be 42", "the output should be "yes"").
_META_WORDS = word_set(
    """object objects key keys field fields property properties attribute attributes value
    values answer answers output outputs response responses result results format string
    number text reply"""
)
_NOT_FIXED_KEYS = _FUNCTION_WORDS | _META_WORDS
# A bare key right after one of these is part of a noun phrase ("the number of items must
# be 5"), not the key itself.
_PREPOSITIONS = word_set("""of for in on per by from than to at about between within""")

# A quoted key: no surrounding whitespace, at most 100 characters.
_QKEY = (
    r'"(?=[^\s"])[^"\n]{0,99}(?<=[^\s"])"'
    r"|'(?=[^\s'])[^'\n]{0,99}(?<=[^\s'])'"
    r"|`(?=[^\s`])[^`\n]{0,99}(?<=[^\s`])`"
    r"|“(?=[^\s”])[^”\n]{0,99}(?<=[^\s“])”"
)
# A bare key: an identifier that is not glued to a hyphen, apostrophe or dotted name.
_BARE = r"(?<![\w'\"`.-])[A-Za-z_][A-Za-z0-9_]{0,63}(?![-\w'\"`]|\.\w)"
_ITEM = re.compile(rf"[ \t]*(?:(?P<q>{_QKEY})|(?P<b>{_BARE}))")
# After "keys:" the list may start on the next line (a bullet or "1." is list layout).
_FIRST_ITEM_NEWLINE = re.compile(r"[ \t]*\n(?:[ \t]*(?:[-*•]|\d+[.)])(?=[ \t]))?")
_SEP = re.compile(
    r"[ \t]*,[ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+|[ \t]*&[ \t]*"
    r"|[ \t]*\n[ \t]*(?:[-*•]|\d+[.)])[ \t]+",
    re.IGNORECASE,
)
_COMMA_NEXT = re.compile(r"[ \t]*,")
_TYPE_NOTE = re.compile(r"[ \t]*\([^()\n]{0,40}\)")
_PLURAL = re.compile(r"\b(?:keys|fields|properties|attributes)\b", re.IGNORECASE)
_SINGULAR = re.compile(r"\b(?:key|field|property|attribute)\b", re.IGNORECASE)
_LEAD = re.compile(
    r"(?:[ \t]+(?P<word>named|called|are)\b)?[ \t]*(?P<colon>:)?"
    r"(?:\s*(?:[-*•]|\d+[.)])(?=[ \t]))?",
    re.IGNORECASE,
)
# What must precede a singular "key"/"field" for a bare word after it to count as a key:
# "including the key email" yes, "summarise the key points" no.
_ADD_CONTEXT = re.compile(
    r"\b(?:include|includes|including|add|adding|with|contain|contains|containing|plus"
    r"|have|has|having|also|need|needs|require|requires|requiring)\s+"
    r"(?:(?:a|an|the|one)\s+)?(?:(?:new|extra|additional|required|mandatory)\s+)?$",
    re.IGNORECASE,
)
# "include an "email" field" / "with a phone field".
_QUOTED_BEFORE_NOUN = re.compile(
    rf"(?P<q>{_QKEY})[ \t]+(?:key|field|property|attribute)\b", re.IGNORECASE
)
_BARE_BEFORE_NOUN = re.compile(
    r"\b(?:include|includes|including|add|adding|with|plus|contain|contains|containing"
    r"|have|has|having|need|needs|require|requires)\s+(?:a|an|the)\s+"
    r"(?:(?:new|extra|additional|required|mandatory)\s+)?"
    rf"(?P<b>{_BARE})[ \t]+(?:key|field|property|attribute)\b",
    re.IGNORECASE,
)
_OP_BEFORE_QUOTE = re.compile(r"(?:\bto|\bbe|\bis|\bequals|=|:)\s*$", re.IGNORECASE)

# A number literal as JSON writes it ("5", "-2.5", "1e3"), typed as JSON types it: the value
# a request sets a key to. Not prose quantities: "1,200", "$5" or "twelve" are no JSON value,
# and a request that sets one is left to the model.
_NUMBER = r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w%$€£/-]|[.,]\d)"
_VALUE = (
    r"(?P<value>\"[^\"\n]{0,200}\"|“[^”\n]{0,200}”|'[^'\n]{0,200}'"
    rf"|{_NUMBER}|(?:true|false|null)(?![\w-]))"
)
_OP = (
    r"(?P<op>[ \t]*==?[ \t]*|[ \t]*:[ \t]*"
    r"|[ \t]+(?:(?:is|are|should[ \t]+be|must[ \t]+be)[ \t]+)?set[ \t]+to[ \t]+"
    r"|[ \t]+(?:must|should|shall|has[ \t]+to|needs[ \t]+to)[ \t]+"
    r"(?:be[ \t]+(?:equal[ \t]+to[ \t]+|set[ \t]+to[ \t]+)?|equal[ \t]+)"
    r"|[ \t]+(?:is[ \t]+)?equal[ \t]+to[ \t]+|[ \t]+equals[ \t]+"
    r"|[ \t]+is[ \t]+)"
)
# "status must be ...", and also "the status field must be ...".
_FIXED = re.compile(
    rf"(?P<key>{_QKEY}|{_BARE})(?:[ \t]+(?:field|key|property|attribute))?{_OP}{_VALUE}",
    re.IGNORECASE,
)
_SET_TO = re.compile(
    r"\bset[ \t]+(?:the[ \t]+)?(?:(?:key|field|property|attribute)[ \t]+)?"
    rf"(?P<key>{_QKEY}|{_BARE})[ \t]+to[ \t]+{_VALUE}",
    re.IGNORECASE,
)
# After a value, these make it one of several options or part of arithmetic: not fixed.
_UNSURE_AFTER_TEXT = re.compile(r"[ \t]*(?:,[ \t]*)?(?:or\b|/)", re.IGNORECASE)
_UNSURE_AFTER_NUMBER = re.compile(
    r"[ \t]*(?:,[ \t]*)?(?:or\b|/)|[ \t]*[-+*^\u00d7\u00f7][ \t]*[\w(]", re.IGNORECASE
)
# A fixed value stands alone: after it the clause ends (the text, a line or a sentence ends)
# or the next fixed value follows ("where "a" is 1 and "b" is 2"). Anything else qualifies
# it ("where greeting is 'hello' in the main language spoken there", ""Dr." followed by
# the surname"): the value the key must hold is then not the one written, and no fixed
# value is read (the model's answer stands).
_CLAUSE_END = re.compile(r"[ \t]*(?:$|\n|[.;!?)](?=\s|$)|,[ \t]*(?:$|\n))")
_NEXT_VALUE = re.compile(
    r"[ \t]*(?:,[ \t]*)?(?:(?:and|&)[ \t]+)?(?:(?:where|whose)[ \t]+)?(?:the[ \t]+)?",
    re.IGNORECASE,
)
_WHERE = re.compile(r"\b(?:where|whose)\b", re.IGNORECASE)
_WHERE_CHAIN = re.compile(
    r"(?:\b(?:where|whose|and)|,)[ \t]+(?:the[ \t]+)?(?:(?:key|field)[ \t]+)?$", re.IGNORECASE
)
_QUOTE_SPAN = re.compile(r'"[^"\n]*"|“[^”\n]*”')


def _unquote(text: str) -> str:
    return text[1:-1]


class _Spans:
    """Sorted, non-overlapping character spans, for "is position p inside one?" queries."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self._starts = [s for s, _ in spans]
        self._ends = [e for _, e in spans]

    def strictly_inside(self, pos: int) -> bool:
        i = bisect.bisect_left(self._starts, pos) - 1
        return i >= 0 and self._starts[i] < pos < self._ends[i]

    def covers(self, pos: int) -> bool:
        i = bisect.bisect_right(self._starts, pos) - 1
        return i >= 0 and self._starts[i] <= pos < self._ends[i]


def _brace_spans(text: str) -> list[tuple[int, int]]:
    """Spans of balanced ``{...}`` blocks: example or input objects quoted in the prompt.

    Braces inside double-quoted prose strings do not count.
    """
    spans: list[tuple[int, int]] = []
    depth = 0
    start = 0
    in_string = False
    escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\" and depth > 0:
                escaped = True
            elif ch == '"' or (ch == "\n" and depth == 0):
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    return spans


def _item_key(match: re.Match[str], allow_bare: bool, text: str) -> str | None:
    quoted = match.group("q")
    if quoted is not None:
        return _unquote(quoted)
    bare = match.group("b")
    if not allow_bare:
        return None
    # A function word is a key only when a comma follows it ("keys a, b"): an article or a
    # preposition is never followed by a comma.
    if bare.lower() in _FUNCTION_WORDS and not _COMMA_NEXT.match(text, match.end()):
        return None
    return bare


def _read_list(
    text: str, pos: int, allow_bare: bool, after_colon: bool
) -> tuple[list[tuple[str, Span]], bool]:
    """Read ``a, "b" and c`` from ``pos``; returns the keys with where each is written (its
    quotes included), and whether all were bare."""
    if after_colon:
        newline = _FIRST_ITEM_NEWLINE.match(text, pos)
        if newline is not None:
            pos = newline.end()
    keys: list[tuple[str, Span]] = []
    all_bare = True
    while True:
        match = _ITEM.match(text, pos)
        if match is None:
            break
        key = _item_key(match, allow_bare, text)
        if key is None:
            break
        keys.append((key, match.span("q" if match.group("q") is not None else "b")))
        all_bare = all_bare and match.group("b") is not None
        pos = match.end()
        note = _TYPE_NOTE.match(text, pos)
        if note is not None:
            pos = note.end()
        sep = _SEP.match(text, pos)
        if sep is None:
            break
        pos = sep.end()
    return keys, all_bare


def _required_from_prompt(
    text: str, quotes: _Spans, braces: _Spans
) -> tuple[list[str], list[Span]]:
    """The required keys in order, and every place a key of them is read from."""
    found: list[tuple[int, str, Span]] = []

    def usable(pos: int) -> bool:
        return not quotes.strictly_inside(pos) and not braces.covers(pos)

    for trigger, plural in ((_PLURAL, True), (_SINGULAR, False)):
        for match in trigger.finditer(text):
            if not usable(match.start()):
                continue
            lead = _LEAD.match(text, match.end())
            pos = lead.end() if lead is not None else match.end()
            allow_bare = plural or bool(
                _ADD_CONTEXT.search(text[max(0, match.start() - 80) : match.start()])
            )
            after_colon = lead is not None and lead.group("colon") is not None
            keys, all_bare = _read_list(text, pos, allow_bare, after_colon)
            word = (lead.group("word") or "").lower() if lead is not None else ""
            # "the keys are sorted" is no key list; "the keys are name and age" is.
            if word == "are" and len(keys) < 2 and all_bare:
                continue
            found.extend((match.start(), key, span) for key, span in keys)
    for match in _QUOTED_BEFORE_NOUN.finditer(text):
        before = text[max(0, match.start() - 20) : match.start()]
        if usable(match.start()) and not _OP_BEFORE_QUOTE.search(before):
            found.append((match.start(), _unquote(match.group("q")), match.span("q")))
    for match in _BARE_BEFORE_NOUN.finditer(text):
        bare = match.group("b")
        if usable(match.start("b")) and bare.lower() not in _FUNCTION_WORDS:
            found.append((match.start("b"), bare, match.span("b")))
    found.sort(key=lambda item: item[0])
    return list(dict.fromkeys(key for _, key, _ in found)), [span for _, _, span in found]


def _parse_value(raw: str) -> tuple[bool, object]:
    """``(ok, value)`` for a value token; ``ok`` is False when it is not a usable value."""
    if raw[0] in "\"'“":
        return True, raw[1:-1]
    lowered = raw.lower()
    if lowered in {"true", "false"}:
        return True, lowered == "true"
    if lowered == "null":
        return True, None
    try:
        if re.fullmatch(r"-?\d+", raw):  # JSON's integer form (see _NUMBER)
            return True, int(raw)
        number = float(raw)
    except ValueError:  # e.g. more digits than int() accepts
        return False, None
    return (True, number) if math.isfinite(number) else (False, None)


def _fixed_key_ok(text: str, match: re.Match[str], quotes: _Spans, braces: _Spans) -> bool:
    start = match.start("key")
    raw_key = match.group("key")
    if braces.covers(start):
        return False
    if raw_key[0] in "\"'`“":
        # A quoted key must open its own quoted span, not sit inside a quoted value.
        return not quotes.strictly_inside(start)
    if quotes.strictly_inside(start) or raw_key.lower() in _NOT_FIXED_KEYS:
        return False
    previous = re.search(r"(\w+)[ \t]+(?:the[ \t]+)?$", text[max(0, start - 40) : start])
    return previous is None or previous.group(1).lower() not in _PREPOSITIONS


def _value_is_sure(text: str, match: re.Match[str]) -> bool:
    value = match.group("value")
    after = (
        _UNSURE_AFTER_TEXT if value[0] in "\"'“" or value[0].isalpha() else (_UNSURE_AFTER_NUMBER)
    )
    if after.match(text, match.end()) is not None:
        return False
    return _unqualified(text, match.end())


def _unqualified(text: str, end: int) -> bool:
    """Whether nothing qualifies the value that ends at ``end`` (see ``_CLAUSE_END``)."""
    if _CLAUSE_END.match(text, end) is not None:
        return True
    following = _NEXT_VALUE.match(text, end)
    at = following.end() if following is not None else end
    if at == end:
        return False
    return any(pattern.match(text, at) is not None for pattern in (_FIXED, _SET_TO))


def _in_where_clause(text: str, key_start: int) -> bool:
    """``key is value`` only counts inside a where-clause ("where status is "active"")."""
    # Quoted values may hold "." or "where": blank them out before looking for the clause.
    before = _QUOTE_SPAN.sub('""', text[max(0, key_start - 300) : key_start])
    sentence_start = max(before.rfind(ch) for ch in ".!?\n") + 1
    prefix = before[sentence_start:]
    return bool(_WHERE.search(prefix)) and bool(_WHERE_CHAIN.search(prefix))


def _read_fixed(
    text: str, match: re.Match[str], quotes: _Spans, braces: _Spans
) -> tuple[str, object] | None:
    """The ``(key, value)`` a fixed-value match states, or ``None`` when it is not sure."""
    if not _fixed_key_ok(text, match, quotes, braces) or not _value_is_sure(text, match):
        return None
    raw_key = match.group("key")
    quoted = raw_key[0] in "\"'`“"
    op = (match.groupdict().get("op") or "").strip().lower()
    if op == ":" and not quoted:
        return None
    if op == "is" and not _in_where_clause(text, match.start("key")):
        return None
    ok, value = _parse_value(match.group("value"))
    if not ok:
        return None
    return (_unquote(raw_key) if quoted else raw_key), value


def _fixed_from_prompt(
    text: str, quotes: _Spans, braces: _Spans
) -> list[tuple[str, object, tuple[Span, Span]]]:
    """Each fixed value: its key, its value, and where the key and the value are written."""
    found: list[tuple[int, str, object, tuple[Span, Span]]] = []
    for pattern in (_FIXED, _SET_TO):
        pos = 0
        while (match := pattern.search(text, pos)) is not None:
            pair = _read_fixed(text, match, quotes, braces)
            if pair is None:
                # A rejected match must not swallow the text of a real one after it
                # (a quote inside it may open the next key).
                pos = match.start() + 1
                continue
            found.append((match.start(), *pair, (match.span("key"), match.span("value"))))
            pos = match.end()
    found.sort(key=lambda item: item[0])
    return [(key, value, spans) for _, key, value, spans in found]


def same_json_value(a: object, b: object) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1`` is ``1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return False


_CACHED_PROMPT_CHARS = 20_000


@dataclass(frozen=True)
class PromptLayout:
    """Where a prompt states what it asks of a JSON answer: the characters of each key of
    its key lists (quotes included) and, for each fixed value, of its key and of its value
    (``fixed_spans`` maps a fixed key to those spans). A change inside ``key_spans`` changes
    the key list; a change inside a fixed value's spans changes what that key must hold.

    Example:
        >>> prompt = 'JSON with the keys "a" and "b", where "a" is 1'
        >>> layout = prompt_layout(prompt)
        >>> [prompt[start:end] for start, end in layout.key_spans]
        ['"a"', '"b"']
        >>> [(key, prompt[k[0]:k[1]], prompt[v[0]:v[1]]) for key, k, v in layout.fixed_spans]
        [('a', '"a"', '1')]
    """

    required_keys: tuple[str, ...] = ()
    fixed_values: tuple[tuple[str, object], ...] = ()
    key_spans: tuple[Span, ...] = ()
    fixed_spans: tuple[tuple[str, Span, Span], ...] = ()


# A prompt longer than a quarter of the budget (_CACHED_PROMPT_CHARS) is parsed, not held.
@text_memo(max_chars=4 * _CACHED_PROMPT_CHARS)
def _parse_prompt(prompt: str) -> PromptLayout:
    quotes = _Spans([m.span() for m in _QUOTE_SPAN.finditer(prompt)])
    braces = _Spans(_brace_spans(prompt))
    required, key_spans = _required_from_prompt(prompt, quotes, braces)
    by_lower: dict[str, list[str]] = {}
    for key in required:
        by_lower.setdefault(key.lower(), []).append(key)
    fixed: dict[str, object] = {}
    places: list[tuple[str, Span, Span]] = []
    conflicting: set[str] = set()
    for key, value, (key_span, value_span) in _fixed_from_prompt(prompt, quotes, braces):
        # "Status must be ..." at a sentence start names the required key "status".
        if key not in required and len(by_lower.get(key.lower(), [])) == 1:
            key = by_lower[key.lower()][0]
        if key in fixed and not same_json_value(fixed[key], value):
            conflicting.add(key)
        fixed.setdefault(key, value)
        places.append((key, key_span, value_span))
    # Two different values for one key: we cannot tell which holds, so neither is fixed.
    # (Where they are written is kept: a change there still changes what the prompt asks.)
    return PromptLayout(
        tuple(required),
        tuple((k, v) for k, v in fixed.items() if k not in conflicting),
        tuple(key_spans),
        tuple(places),
    )


def prompt_layout(prompt: str) -> PromptLayout:
    """What ``prompt`` itself asks of a JSON answer (its key lists and fixed values), with
    where each is written: see :class:`PromptLayout`. A schema adds nothing here."""
    if not isinstance(prompt, str):
        raise TypeError(f"prompt must be a str, not {type(prompt).__name__}")
    try:
        return _parse_prompt(prompt)
    except RecursionError:  # pragma: no cover - the parser is iterative; belt and braces
        return PromptLayout()


def _schema_parts(schema: Mapping[str, Any]) -> tuple[list[str], dict[str, object]]:
    required = schema.get("required")
    keys = [k for k in required if isinstance(k, str)] if isinstance(required, list) else []
    fixed: dict[str, object] = {}
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for key, sub in properties.items():
            if not isinstance(sub, Mapping):
                continue
            if "const" in sub:
                fixed[key] = sub["const"]
            elif isinstance(sub.get("enum"), list) and len(sub["enum"]) == 1:
                fixed[key] = sub["enum"][0]
    return keys, fixed


def parse_json_request(prompt: str, schema: Mapping[str, Any] | None = None) -> JsonRequest | None:
    """Recognise a prompt that asks for a JSON object, with its required keys and fixed values.

    Returns ``None`` when the prompt does not mention JSON and no schema is given. A schema
    adds its top-level ``required`` keys and its ``const`` (or one-value ``enum``) properties;
    a value the prompt fixes wins over the schema's.

    Example:
        >>> parse_json_request('JSON object with the keys "id", "title"; "count": 3')
        JsonRequest(required_keys=('id', 'title'), fixed_values={'count': 3}, exact_keys=False)
        >>> parse_json_request("Solve 2x + 1 = 7") is None
        True
    """
    if not isinstance(prompt, str):
        raise TypeError(f"prompt must be a str, not {type(prompt).__name__}")
    if schema is None and not asks_for_json(prompt):
        return None
    layout = prompt_layout(prompt)
    keys = list(layout.required_keys)
    fixed = dict(layout.fixed_values)
    if schema is not None:
        schema_keys, schema_fixed = _schema_parts(schema)
        keys.extend(k for k in schema_keys if k not in keys)
        for key, value in schema_fixed.items():
            fixed.setdefault(key, value)
    exact = bool(keys) and bool(_EXACT_KEYS.search(prompt[:_CACHED_PROMPT_CHARS]))
    return JsonRequest(tuple(keys), fixed, exact)
