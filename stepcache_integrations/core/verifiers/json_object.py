"""JSON verifier: the answer is one JSON object with the keys and values the request asks for.

What the request asks for is read from the prompt ("a JSON object with keys name, age and city
where status is "active"") and from an optional JSON Schema (or Pydantic model) given by the
caller. Prompt parsing is deliberately conservative: a phrase that is not clearly a key list or
a fixed value is ignored, because a wrongly inferred requirement makes good cached answers fail.

Keys with a fixed value are not required by that alone: the value is checked when the key is
present (the prompt's key list or the schema's ``required`` say which keys must be present).
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from pydantic import BaseModel
from referencing.exceptions import Unresolvable

from stepcache_integrations.core.prompt_diff import content_tokens
from stepcache_integrations.core.steps import Step, find_json_object
from stepcache_integrations.core.verifiers.base import (
    PartialPatch,
    Verdict,
    Verifier,
    VerifyContext,
)
from stepcache_integrations.core.verifiers.output_format import asks_for_json

__all__ = ["JsonRequest", "JsonVerifier", "parse_json_request"]

SchemaLike = Mapping[str, Any] | type[BaseModel]


@dataclass(frozen=True)
class JsonRequest:
    """What a prompt (and schema) asks of a JSON answer.

    Example:
        >>> parse_json_request('Return JSON with keys name, age where status is "active"')
        JsonRequest(required_keys=('name', 'age'), fixed_values={'status': 'active'})
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



def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that end a key list instead of being a key ("with keys name and age and return it").
_FUNCTION_WORDS = _words(
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
_META_WORDS = _words(
    """object objects key keys field fields property properties attribute attributes value
    values answer answers output outputs response responses result results format string
    number text reply"""
)
_NOT_FIXED_KEYS = _FUNCTION_WORDS | _META_WORDS
# A bare key right after one of these is part of a noun phrase ("the number of items must
# be 5"), not the key itself.
_PREPOSITIONS = _words("""of for in on per by from than to at about between within""")

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
# After "keys:" the list may start on the next line.
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


def _read_list(text: str, pos: int, allow_bare: bool, after_colon: bool) -> tuple[list[str], bool]:
    """Read ``a, "b" and c`` from ``pos``; returns the keys and whether all were bare."""
    if after_colon:
        newline = _FIRST_ITEM_NEWLINE.match(text, pos)
        if newline is not None:
            pos = newline.end()
    keys: list[str] = []
    all_bare = True
    while True:
        match = _ITEM.match(text, pos)
        if match is None:
            break
        key = _item_key(match, allow_bare, text)
        if key is None:
            break
        keys.append(key)
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


def _required_from_prompt(text: str, quotes: _Spans, braces: _Spans) -> list[str]:
    found: list[tuple[int, str]] = []

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
            found.extend((match.start(), key) for key in keys)
    for match in _QUOTED_BEFORE_NOUN.finditer(text):
        before = text[max(0, match.start() - 20) : match.start()]
        if usable(match.start()) and not _OP_BEFORE_QUOTE.search(before):
            found.append((match.start(), _unquote(match.group("q"))))
    for match in _BARE_BEFORE_NOUN.finditer(text):
        bare = match.group("b")
        if usable(match.start("b")) and bare.lower() not in _FUNCTION_WORDS:
            found.append((match.start("b"), bare))
    found.sort(key=lambda item: item[0])
    return list(dict.fromkeys(key for _, key in found))


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
        if re.fullmatch(r"-?\d+", raw):
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
    return after.match(text, match.end()) is None


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


def _fixed_from_prompt(text: str, quotes: _Spans, braces: _Spans) -> list[tuple[str, object]]:
    found: list[tuple[int, str, object]] = []
    for pattern in (_FIXED, _SET_TO):
        pos = 0
        while (match := pattern.search(text, pos)) is not None:
            pair = _read_fixed(text, match, quotes, braces)
            if pair is None:
                # A rejected match must not swallow the text of a real one after it
                # (a quote inside it may open the next key).
                pos = match.start() + 1
                continue
            found.append((match.start(), *pair))
            pos = match.end()
    found.sort(key=lambda item: item[0])
    return [(key, value) for _, key, value in found]


def _same_value(a: object, b: object) -> bool:
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


@functools.lru_cache(maxsize=256)
def _parse_prompt(prompt: str) -> tuple[tuple[str, ...], tuple[tuple[str, object], ...]]:
    quotes = _Spans([m.span() for m in _QUOTE_SPAN.finditer(prompt)])
    braces = _Spans(_brace_spans(prompt))
    required = _required_from_prompt(prompt, quotes, braces)
    by_lower: dict[str, list[str]] = {}
    for key in required:
        by_lower.setdefault(key.lower(), []).append(key)
    fixed: dict[str, object] = {}
    conflicting: set[str] = set()
    for key, value in _fixed_from_prompt(prompt, quotes, braces):
        # "Status must be ..." at a sentence start names the required key "status".
        if key not in required and len(by_lower.get(key.lower(), [])) == 1:
            key = by_lower[key.lower()][0]
        if key in fixed and not _same_value(fixed[key], value):
            conflicting.add(key)
        fixed.setdefault(key, value)
    # Two different values for one key: we cannot tell which holds, so neither is fixed.
    return tuple(required), tuple((k, v) for k, v in fixed.items() if k not in conflicting)


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
        JsonRequest(required_keys=('id', 'title'), fixed_values={'count': 3})
        >>> parse_json_request("Solve 2x + 1 = 7") is None
        True
    """
    if not isinstance(prompt, str):
        raise TypeError(f"prompt must be a str, not {type(prompt).__name__}")
    if schema is None and not asks_for_json(prompt):
        return None
    # Huge prompts skip the cache so that it cannot pin megabytes of text.
    parse = _parse_prompt if len(prompt) <= _CACHED_PROMPT_CHARS else _parse_prompt.__wrapped__
    try:
        required, fixed_pairs = parse(prompt)
    except RecursionError:  # pragma: no cover - the parser is iterative; belt and braces
        required, fixed_pairs = (), ()
    keys = list(required)
    fixed = dict(fixed_pairs)
    if schema is not None:
        schema_keys, schema_fixed = _schema_parts(schema)
        keys.extend(k for k in schema_keys if k not in keys)
        for key, value in schema_fixed.items():
            fixed.setdefault(key, value)
    exact = bool(keys) and bool(_EXACT_KEYS.search(prompt[:_CACHED_PROMPT_CHARS]))
    return JsonRequest(tuple(keys), fixed, exact)


# --------------------------------------------------------------------------- answer checks


def _schema_from(schema: object, where: str) -> dict[str, Any]:
    """A validated, JSON-clean copy of a schema dict or a Pydantic model's schema."""
    raw: object
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        try:
            raw = schema.model_json_schema()
        except Exception as exc:  # pydantic raises several error types for unsupported fields
            raise ValueError(
                f"{where}: cannot build a JSON Schema from {schema.__name__}: {exc}"
            ) from exc
    elif isinstance(schema, Mapping):
        raw = schema
    else:
        raise ValueError(
            f"{where}: expected a JSON Schema dict or a Pydantic model class, "
            f"got {type(schema).__name__}"
        )
    try:
        clean = json.loads(json.dumps(raw, allow_nan=False))
        Draft202012Validator.check_schema(clean)
    except SchemaError as exc:
        raise ValueError(f"{where}: invalid JSON Schema: {exc.message}") from exc
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"{where}: the schema is not plain JSON: {exc}") from exc
    if not isinstance(clean, dict):  # pragma: no cover - a Mapping always dumps to an object
        raise ValueError(f"{where}: a JSON Schema must be an object")
    return clean


def _validator(schema: dict[str, Any]) -> Draft202012Validator:
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def _shorten(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _schema_error(validator: Draft202012Validator, obj: object) -> str | None:
    try:
        error = next(iter(validator.iter_errors(obj)), None)
    except RecursionError:
        return "the object is too deeply nested to validate against the schema"
    except (Unresolvable, ValueError, TypeError) as exc:
        return f"the JSON Schema could not be applied: {_shorten(str(exc))}"
    if error is None:
        return None
    return f"schema error at {error.json_path}: {_shorten(error.message)}"


def _lookup(obj: Mapping[str, Any], key: str) -> str | None:
    """``key`` as spelled in ``obj``: exact, else the one case-insensitive match."""
    if key in obj:
        return key
    matches = [k for k in obj if k.lower() == key.lower()]
    return matches[0] if len(matches) == 1 else None


def _mentions(text: str, key: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(key)}(?!\w)", text, re.IGNORECASE) is not None


def _render(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _keys_text(keys: Sequence[str]) -> str:
    return ", ".join(f"'{k}'" for k in keys)


@dataclass(frozen=True)
class _Expectation:
    """The effective request: prompt + schema, and keys the cached request had but not this."""

    request: JsonRequest
    schema: dict[str, Any] | None
    validator: Draft202012Validator | None
    removed: tuple[str, ...]


@dataclass
class _Problems:
    missing: list[str] = field(default_factory=list)
    wrong: list[tuple[str, object, object]] = field(default_factory=list)
    schema_error: str | None = None
    removed: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)

    def reasons(self) -> list[str]:
        reasons: list[str] = []
        if self.missing:
            plural = "s" if len(self.missing) > 1 else ""
            reasons.append(f"missing required key{plural} {_keys_text(self.missing)}")
        reasons.extend(
            f"'{key}' is {_render(actual)} but must be {_render(expected)}"
            for key, actual, expected in self.wrong
        )
        if self.schema_error:
            reasons.append(self.schema_error)
        reasons.extend(f"key '{key}' is no longer requested" for key in self.removed)
        if self.extra:
            reasons.append(
                f"unexpected key{'s' if len(self.extra) > 1 else ''} {_keys_text(self.extra)}"
                " (the prompt asks for exactly its keys)"
            )
        return reasons


def _problems(obj: Mapping[str, Any], expect: _Expectation) -> _Problems:
    problems = _Problems()
    problems.missing = [k for k in expect.request.required_keys if k not in obj]
    for key, expected in expect.request.fixed_values.items():
        actual_key = _lookup(obj, key)
        if actual_key is not None and not _same_value(obj[actual_key], expected):
            problems.wrong.append((actual_key, obj[actual_key], expected))
    if expect.validator is not None:
        problems.schema_error = _schema_error(expect.validator, dict(obj))
    problems.removed = [k for k in expect.removed if k in obj]
    if expect.request.exact_keys:
        allowed = set(expect.request.required_keys) | set(expect.request.fixed_values)
        problems.extra = [k for k in obj if k not in allowed and k not in problems.removed]
    return problems


@dataclass(frozen=True)
class _Located:
    """The one JSON object of a text, or why there is none."""

    obj: dict[str, Any] | None = None
    start: int = 0
    end: int = 0
    error: str | None = None


_FENCE_OPEN = re.compile(r"^\s*```[A-Za-z0-9_-]*[ \t]*\n?")


# Every JSON object starts like this; text without it cannot hold one. Checking first spares
# find_json_object a decode attempt at every brace of brace-heavy text.
_OBJECT_START = re.compile(r'\{\s*["}]')


def _span(text: str) -> tuple[int, int] | None:
    if _OBJECT_START.search(text) is None:
        return None
    try:
        return find_json_object(text)
    except (RecursionError, ValueError):  # find_json_object catches these; stay safe anyway
        return None


def _looks_like_object(text: str) -> bool:
    body = _FENCE_OPEN.sub("", text, count=1).lstrip()
    return body.startswith("{")


def _decode_error(text: str) -> str:
    """Why the first ``{`` of ``text`` does not start a JSON object."""
    brace = text.find("{")
    if brace < 0:
        return "no JSON object found"
    try:
        json.JSONDecoder().raw_decode(text, brace)
    except json.JSONDecodeError as exc:
        return f"not a valid JSON object: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    except RecursionError:
        return "not a valid JSON object: nested too deeply"
    return "no JSON object found"


def _locate(text: str, whole_answer: bool) -> _Located:
    span = _span(text)
    if span is None:
        return _Located(error=_decode_error(text))
    start, end = span
    if whole_answer:
        body = _FENCE_OPEN.sub("", text, count=1).strip().removesuffix("```").strip()
        if body.startswith("["):
            try:
                value = json.loads(body)
            except (ValueError, RecursionError):
                value = None
            if isinstance(value, list):
                return _Located(error="the answer is a JSON array, not one JSON object")
    if _span(text[end:]) is not None or _span(text[:start]) is not None:
        return _Located(error="more than one JSON object")
    try:
        obj = json.loads(text[start:end])
    except (ValueError, RecursionError):
        return _Located(error="the JSON object is nested too deeply to read")
    if not isinstance(obj, dict):  # pragma: no cover - find_json_object only finds objects
        return _Located(error="no JSON object found")
    return _Located(obj, start, end)


# --------------------------------------------------------------------------- re-serialising

_COMPACT_SEPARATORS = ((", ", ": "), (",", ":"), (",", ": "), (", ", ":"))
_INDENTED_SEPARATORS = ((",", ": "), (",", ":"))


def _leading_space(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _dump(
    value: object, indent: str | None, separators: tuple[str, str], ascii_only: bool, base: str
) -> str:
    text = json.dumps(value, indent=indent, separators=separators, ensure_ascii=ascii_only)
    return text.replace("\n", "\n" + base) if base else text


def _serialise_like(value: dict[str, Any], original: str) -> str:
    """Serialise ``value`` in the style of ``original`` (compact or indented, same spacing)."""
    parsed = json.loads(original)
    # Keep escapes if the original used them; otherwise write characters as they are.
    ascii_only = original.isascii() and "\\u" in original
    styles: list[tuple[str | None, tuple[str, str], str]]
    if "\n" not in original:
        styles = [(None, seps, "") for seps in _COMPACT_SEPARATORS]
    else:
        lines = original.split("\n")
        base = _leading_space(lines[-1])
        second = _leading_space(lines[1])
        unit = second[len(base) :] if second.startswith(base) and second != base else "  "
        styles = [(unit, seps, base) for seps in _INDENTED_SEPARATORS]
    for indent, seps, base in styles:
        if _dump(parsed, indent, seps, ascii_only, base) == original:
            return _dump(value, indent, seps, ascii_only, base)
    indent, seps, base = styles[0]
    return _dump(value, indent, seps, ascii_only, base)


def _apply_request(obj: Mapping[str, Any], expect: _Expectation) -> tuple[dict[str, Any], bool]:
    """``obj`` with removed keys dropped and fixed values set; and whether anything changed."""
    edited = dict(obj)
    changed = False
    allowed = set(expect.request.required_keys) | set(expect.request.fixed_values)
    for key in list(edited):
        # Keys no longer requested, or outside a closed key list ("exactly the keys ..."),
        # can be dropped without asking the model.
        if key in expect.removed or (expect.request.exact_keys and key not in allowed):
            del edited[key]
            changed = True
    required = expect.request.required_keys
    for key, value in expect.request.fixed_values.items():
        actual = _lookup(edited, key)
        if actual is None and key in required:
            actual = key  # a required key whose value the request gives: no model needed
        if actual is not None and not (actual in edited and _same_value(edited[actual], value)):
            edited[actual] = value
            changed = True
    return edited, changed


def _replace_object(step: Step, located: _Located, obj: dict[str, Any]) -> Step | None:
    """``step`` with its JSON object replaced by ``obj``, written in the original style."""
    original = step.text[located.start : located.end]
    try:
        text = _serialise_like(obj, original)
    except (ValueError, TypeError, RecursionError):
        return None
    return Step(step.text[: located.start] + text + step.text[located.end :], step.separator)


# --------------------------------------------------------------------------- the verifier


class JsonVerifier(Verifier):
    """Checks that an answer is one JSON object with the requested keys and values.

    Required keys and fixed values come from the prompt and from an optional JSON Schema or
    Pydantic model (``schema``); a per-call schema in ``ctx.options["json_schema"]`` wins.

    Example:
        >>> v = JsonVerifier()
        >>> ctx = VerifyContext('Return a JSON object with keys name, age where status is "on"')
        >>> v.check_answer(ctx, '{"name": "Ana", "age": 3, "status": "on"}').passed
        True
        >>> v.check_answer(ctx, '{"name": "Ana"}').reason
        "missing required key 'age'"
    """

    name = "json"

    _OPTION_CACHE_SIZE = 32

    def __init__(self, schema: SchemaLike | None = None) -> None:
        self._schema = None if schema is None else _schema_from(schema, "JsonVerifier(schema)")
        self._validator = None if self._schema is None else _validator(self._schema)
        # Per-call schemas validated once each (check_schema is not free).
        self._option_cache: dict[str, tuple[dict[str, Any], Draft202012Validator]] = {}

    @property
    def schema(self) -> dict[str, Any] | None:
        """The constructor's JSON Schema (a copy), or ``None``."""
        return None if self._schema is None else json.loads(json.dumps(self._schema))

    # -- request analysis ------------------------------------------------------------------

    def _schema_for(
        self, ctx: VerifyContext
    ) -> tuple[dict[str, Any] | None, Draft202012Validator | None]:
        option = ctx.options.get("json_schema") if isinstance(ctx.options, Mapping) else None
        if option is None:
            return self._schema, self._validator
        schema = _schema_from(option, "options['json_schema']")
        key = json.dumps(schema, sort_keys=True)
        cached = self._option_cache.get(key)
        if cached is None:
            if len(self._option_cache) >= self._OPTION_CACHE_SIZE:
                self._option_cache.pop(next(iter(self._option_cache)))
            cached = (schema, _validator(schema))
            self._option_cache[key] = cached
        return cached

    def _expect(self, ctx: VerifyContext) -> _Expectation | None:
        schema, validator = self._schema_for(ctx)
        request = parse_json_request(ctx.request, schema)
        if request is None:
            return None
        removed: tuple[str, ...] = ()
        if ctx.cached_request:
            cached = parse_json_request(ctx.cached_request)
            if cached is not None:
                known = set(request.required_keys)
                properties = (schema or {}).get("properties")
                if isinstance(properties, Mapping):
                    known.update(properties)
                removed = tuple(
                    k
                    for k in cached.required_keys
                    if k not in known and not _mentions(ctx.request, k)
                )
        return _Expectation(request, schema, validator, removed)

    def task(self, request: str) -> str | None:
        """``"json"`` when the prompt asks for JSON or a schema is set."""
        if self._schema is not None:
            return "json"
        return "json" if isinstance(request, str) and asks_for_json(request) else None

    def checks_numbers(self, request: str) -> bool:
        """True for a JSON request with fixed values that account for every number in it."""
        if not isinstance(request, str):
            return False
        parsed = parse_json_request(request, self._schema)
        if parsed is None or not parsed.fixed_values:
            return False
        fixed_numbers = {
            float(v)
            for v in parsed.fixed_values.values()
            if isinstance(v, int | float) and not isinstance(v, bool)
        }
        # A number the verifier does not check ("for user 17") may have changed unseen.
        return all(
            float(token.text) in fixed_numbers
            for token in content_tokens(request)
            if token.kind == "number"
        )

    # -- checks ----------------------------------------------------------------------------

    def _verdict(
        self, located: _Located, expect: _Expectation, index: int | None, prefix: str
    ) -> Verdict:
        if located.obj is None:
            return Verdict.fail(self.name, f"{prefix}{located.error}", index)
        reasons = _problems(located.obj, expect).reasons()
        if reasons:
            return Verdict.fail(self.name, "; ".join(reasons), index)
        return Verdict.ok(self.name, "JSON object has the requested keys and values", index)

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        """Check the step holding the JSON object; other steps are not applicable."""
        expect = self._expect(ctx)
        if expect is None:
            return Verdict.not_applicable(self.name, index)
        if _span(step.text) is None:
            if _looks_like_object(step.text):
                return Verdict.fail(self.name, f"step is {_decode_error(step.text)}", index)
            return Verdict.not_applicable(self.name, index)
        others = sum(
            1 for i, other in enumerate(steps) if i != index and _span(other.text) is not None
        )
        if others:
            return Verdict.fail(self.name, "the answer has more than one JSON object", index)
        return self._verdict(_locate(step.text, whole_answer=False), expect, index, "step has ")

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        """The whole answer must hold exactly one JSON object that meets the request."""
        expect = self._expect(ctx)
        if expect is None:
            return Verdict.not_applicable(self.name)
        if not isinstance(answer, str):
            return Verdict.fail(self.name, f"answer is a {type(answer).__name__}, not text")
        return self._verdict(_locate(answer, whole_answer=True), expect, None, "")

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        """Ask only for the corrected object, naming what it must have and what was wrong."""
        expect = self._expect(ctx)
        if expect is None:
            return None
        request = expect.request
        needs: list[str] = []
        if request.required_keys:
            exactly = "exactly " if request.exact_keys else ""
            needs.append(f"It must have {exactly}the keys " + ", ".join(request.required_keys))
        needs.extend(f"{k} must be {_render(v)}" for k, v in request.fixed_values.items())
        parts = ["Return only the corrected JSON object."]
        if needs:
            parts.append("; ".join(needs) + ".")
        located = (
            _locate(answer, whole_answer=True)
            if isinstance(answer, str)
            else _Located(error="no JSON object found")
        )
        if located.obj is not None:
            problems = _problems(located.obj, expect)
            if problems.removed:
                parts.append(f"Remove {_keys_text(problems.removed)}: no longer requested.")
            wrong = problems.reasons()
        else:
            wrong = [located.error or "no JSON object found"]
        if expect.schema is not None:
            schema_text = json.dumps(expect.schema, separators=(",", ":"))
            if len(schema_text) <= 2000:
                parts.append(f"It must validate against this JSON Schema: {schema_text}")
        if not wrong and failure.reason:
            wrong = [failure.reason]
        if wrong:
            parts.append("What was wrong: " + "; ".join(wrong) + ".")
        return " ".join(parts)

    def adapt_step(self, ctx: VerifyContext, step: Step) -> Step | None:
        """Set fixed values and drop keys no longer requested, without a model call.

        Returns ``None`` when nothing changes or when a required key is missing (its value is
        unknown: see :meth:`partial_patch`).
        """
        expect = self._expect(ctx)
        if expect is None:
            return None
        located = _locate(step.text, whole_answer=False)
        if located.obj is None:
            return None
        obj, changed = _apply_request(located.obj, expect)
        if not changed or any(key not in obj for key in expect.request.required_keys):
            return None
        return _replace_object(step, located, obj)

    def partial_patch(self, ctx: VerifyContext, step: Step) -> PartialPatch | None:
        """Ask the model only for the values of missing required keys, then merge them in.

        The merge also applies what :meth:`adapt_step` would (fixed values, removed keys).
        """
        expect = self._expect(ctx)
        if expect is None:
            return None
        located = _locate(step.text, whole_answer=False)
        if located.obj is None:
            return None
        edited, _ = _apply_request(located.obj, expect)
        missing = [key for key in expect.request.required_keys if key not in edited]
        if not missing:
            return None
        context = json.dumps(edited, ensure_ascii=False)
        instruction = (
            f"Return only a JSON object with the keys {', '.join(map(_render, missing))} and "
            "their values for this request, and no other text."
        )
        if len(context) <= 4000:
            instruction += f" They will be added to this object: {context}"

        def merge(reply: str) -> Step | None:
            if not isinstance(reply, str):
                return None
            answer = _locate(reply, whole_answer=True)
            if answer.obj is None:
                return None
            merged = dict(edited)
            for key in missing:
                actual = _lookup(answer.obj, key)
                if actual is None:
                    return None
                merged[key] = answer.obj[actual]
            return _replace_object(step, located, merged)

        return PartialPatch(instruction, merge)

    def fallback(self, ctx: VerifyContext) -> str | None:
        """There is no deterministic JSON answer."""
        return None
