"""The one definition of "the same request", and how two requests differ.

Two requests are the same request only when they differ by meaning-neutral edits alone:
layout whitespace, letter case where it is certain not to matter (a sentence's own capital, a
name that means one thing in any case), a final "?" / "." / "!", politeness and filler in the
places where they carry no instruction, and contractions whose reading is certain ("don't" =
"do not", so the negation survives; "I'd like" = "I would like"). Every other changed token
is a meaning change, reported as an :class:`Edit`.

The cached answer can be consulted too (``answer=``): where the two requests spell a word
differently ("Boston" / "boston", "What" / "what" opening a sentence, "can't" / "cannot") and
the cached answer copies the cached spelling, the answers differ, so the requests are not the
same.

Example:
    >>> compare("Can you list the primes below 20?", "List the primes below 20, please.").same
    True
    >>> delta = compare("Should I eat raw eggs?", "Should I not eat raw eggs?")
    >>> delta.same, delta.polarity_changed
    (False, True)
    >>> slogan = "Write a slogan for a cafe in Boston."
    >>> same_request(slogan, "Write a slogan for a cafe in boston.")
    True
    >>> same_request(slogan, "Write a slogan for a cafe in boston.", answer="Boston's best brew")
    False
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from stepcache_integrations.core.text.lexicon import ECHOED_FILLER
from stepcache_integrations.core.text.memo import TextMemo, clear_all_memos
from stepcache_integrations.core.text.neutral import neutral_indexes
from stepcache_integrations.core.text.polarity import is_polarity, negation_stems
from stepcache_integrations.core.text.quantities import read_figures, read_number, read_quantities
from stepcache_integrations.core.text.self_reference import (
    about_own_text,
    answer_about_request,
    words_of,
)
from stepcache_integrations.core.text.tokens import Token, TokenKind, tokenise

REQUEST_FORM_VERSION = 4
"""The version of :func:`request_form`'s rules, part of the exact-path key: a change of the
rules bumps it, so that a key stored under older rules never matches a request it would now
be wrong for (0.5.0 folded "Kestrel" to "kestrel" mid-sentence; 2 keeps its case; 3 keeps
every character of a request about its own text, "Hello! How many words are in this
message?", and the time-of-day greetings, "Good evening!"; 4 keeps a "!" written against a
number or a bracket: "What is 3 + 4!" asks for a factorial)."""

__all__ = [
    "REQUEST_FORM_VERSION",
    "Edit",
    "RequestDelta",
    "clear_caches",
    "compare",
    "meaningful_tokens",
    "mentions",
    "request_form",
    "same_request",
]


@dataclass(frozen=True)
class Edit:
    """One contiguous meaning change: the tokens of the cached request replaced by those of
    the new one (an insertion has no ``removed``, a deletion no ``added``). Neutral tokens
    are never part of an edit.

    Example:
        >>> edit = compare("Sort in ascending order", "Sort in descending order").edits[0]
        >>> [t.text for t in edit.removed], [t.text for t in edit.added]
        (['ascending'], ['descending'])
    """

    removed: tuple[Token, ...]
    added: tuple[Token, ...]

    @property
    def is_substitution(self) -> bool:
        """Whether the edit replaces tokens one for one."""
        return len(self.removed) == len(self.added) > 0


@dataclass(frozen=True)
class RequestDelta:
    """How a new request differs from a cached one, after removing meaning-neutral edits.

    ``same``: only neutral edits, the same request. ``edits``: every meaning change in order.
    ``removed`` / ``added``: the meaningful words, names, numbers, identifiers, quoted strings
    and code tokens of one request that the other lacks (compared in comparison form, so
    "Boston" and "boston" are one word but "Jaguar" and "jaguar" are two; given as written,
    quoted strings without quotes; a spelling the cached answer copies, as written).
    ``substitutions``: consistent one-for-one replacements of tokens of the same kind whose
    old token is gone (a renamed variable ``{"x": "y"}``, a changed constant ``{"5": "7"}``).
    ``numbers_changed``: a quantity differs (value, sign, order or count).
    ``polarity_changed``: an edit adds or removes a negator or a negated form.

    Example:
        >>> delta = compare("Solve 3x + 5 = 20 for x", "Solve 3y + 5 = 20 for y")
        >>> delta.same, delta.substitutions, delta.numbers_changed
        (False, {'x': 'y'}, False)
    """

    same: bool = False
    edits: tuple[Edit, ...] = ()
    removed: frozenset[str] = frozenset()
    added: frozenset[str] = frozenset()
    substitutions: dict[str, str] = field(default_factory=dict)
    numbers_changed: bool = False
    polarity_changed: bool = False

    @property
    def identical_content(self) -> bool:
        """The same request (the name an older API used)."""
        return self.same


@dataclass(frozen=True)
class _Analysis:
    """What compare() needs of one request, computed once per text."""

    form: str  # request_form(): the norms joined, or the whole text for a verbatim request
    verbatim: bool  # about its own text: compared as written, nothing neutral
    echoed: tuple[str, ...]  # the filler words dropped as neutral that an answer may echo
    tokens: tuple[Token, ...]  # the meaningful tokens
    norms: tuple[str, ...]
    keys: tuple[str | None, ...]  # per token: its removed/added lookup form
    key_set: frozenset[str]
    numbers: tuple[Fraction | str, ...]  # in digits
    number_words: tuple[str, ...]  # in words
    polar: tuple[bool, ...]  # per token: a negator
    words: tuple[str, ...]  # per token: lower-case form ("" for marks)
    stems: tuple[tuple[str, ...], ...]  # per token: the words it negates by its form


_ALWAYS_ALNUM = frozenset({"word", "name", "acronym", "identifier", "number"})


def _set_key(token: Token) -> str | None:
    """The form a token is looked up by in ``removed``/``added``; None for marks."""
    kind = token.kind
    if kind == "quoted":
        return token.bare or token.text
    if kind in _ALWAYS_ALNUM or any(ch.isalnum() for ch in token.text):
        return token.norm
    return None


def _number(text: str) -> Fraction | str:
    """A number or code token's value as the number reader reads it; a token it does not
    read as one number alone ("3x", "1e5", "1.2.3") is compared as written."""
    found = read_number(text)
    return found.value if found is not None else text


def _signed_numbers(tokens: Sequence[Token]) -> tuple[Fraction | str, ...]:
    """The numbers in digits of a request in order: number tokens (with the sign a preceding
    minus gives them), numbers in code, and the figures inside quoted strings as written
    (quoted text is the user's literal data: "1,200" and "1200" differ there)."""
    numbers: list[Fraction | str] = []
    for index, token in enumerate(tokens):
        if token.kind == "number":
            value = _number(token.text)
            if index and tokens[index - 1].text in ("-", "\u2212") and isinstance(value, Fraction):
                value = -value
            numbers.append(value)
        elif token.kind == "code" and token.text[:1].isdigit():
            numbers.append(_number(token.text))
        elif token.kind == "quoted":
            numbers.extend(figure.text for figure in read_figures(token.text))
    return tuple(numbers)


def _number_words(text: str) -> tuple[str, ...]:
    """The quantities a request writes in words ("twelve", "three quarters", "twice",
    "first"), in order and as written: a changed one is a changed number, and so is a number
    whose notation changed ("twelve" -> "12" also changes the numbers in digits)."""
    return tuple(q.text.lower() for q in read_quantities(text) if q.figures is None)


# Starts the form of a request compared as written; no token holds whitespace, so no other
# form can start with it.
_VERBATIM = "\x1e"


def _as_written(text: str, tokens: Sequence[Token]) -> tuple[Token, ...]:
    """Every token with its spelling as written for its text and comparison form (an
    expanded contraction is one token again; code keeps its form, which marks line breaks)."""
    written: list[Token] = []
    for token in tokens:
        if token.kind == "code":
            written.append(token)
            continue
        if written and (written[-1].start, written[-1].end) == (token.start, token.end):
            continue  # the second word of an expanded contraction
        surface = text[token.start : token.end]
        if surface == token.text == token.norm:
            written.append(token)
        else:
            written.append(token._replace(text=surface, norm=surface))
    return tuple(written)


def _build(text: str, verbatim: bool) -> _Analysis:
    """The analysis of ``text``; ``verbatim``: every token is meaning, in its spelling as
    written (code keeps its comparison form, which marks line breaks)."""
    all_tokens = tokenise(text)
    neutral = frozenset() if verbatim else neutral_indexes(all_tokens)
    if verbatim:
        tokens = _as_written(text, all_tokens)
    else:
        tokens = tuple(token for index, token in enumerate(all_tokens) if index not in neutral)
    norms = tuple(token.norm for token in tokens)
    keys = tuple(_set_key(token) for token in tokens)
    words = tuple("" if token.kind == "punct" else token.norm.lower() for token in tokens)
    echoed = sorted(
        word for index in neutral if (word := all_tokens[index].norm.lower()) in ECHOED_FILLER
    )
    return _Analysis(
        _VERBATIM + text if verbatim else "\x1f".join(norms),
        verbatim,
        tuple(echoed),
        tokens,
        norms,
        keys,
        frozenset(key for key in keys if key is not None),
        _signed_numbers(tokens),
        _number_words(text),
        tuple(bool(word) and is_polarity(word) for word in words),
        words,
        tuple(negation_stems(word) if word else () for word in words),
    )


def _analyse_uncached(text: str) -> _Analysis:
    return _build(text, about_own_text(text))


_analyse = TextMemo(_analyse_uncached, max_chars=300_000)


def clear_caches() -> None:
    """Forget every remembered tokenisation and analysis (they are rebuilt on demand)."""
    clear_all_memos()


def meaningful_tokens(text: str) -> tuple[Token, ...]:
    """The tokens of ``text`` that carry meaning (neutral ones dropped), in order. Cached."""
    return _analyse(text).tokens


def _shown(token: Token) -> str:
    return token.bare if token.kind == "quoted" and token.bare else token.text


def _missing(ours: _Analysis, theirs: _Analysis) -> frozenset[str]:
    return frozenset(
        _shown(token)
        for token, key in zip(ours.tokens, ours.keys, strict=True)
        if key is not None and key not in theirs.key_set
    )


_Span = tuple[int, int, int, int]  # an edit: old[a0:a1] became new[b0:b1]
_WORDLIKE: frozenset[TokenKind] = frozenset({"word", "name"})


def _same_kind(a: Token, b: Token) -> bool:
    return a.kind == b.kind or (a.kind in _WORDLIKE and b.kind in _WORDLIKE)


def _substitutions(edits: Iterable[Edit], new: _Analysis) -> dict[str, str]:
    new_norms = set(new.norms)
    found: dict[str, str] = {}
    conflicting: set[str] = set()
    for edit in edits:
        if not edit.is_substitution:
            continue
        for old, replacement in zip(edit.removed, edit.added, strict=True):
            if old.kind == "punct" or not _same_kind(old, replacement) or old.norm in new_norms:
                continue
            previous = found.setdefault(old.text, replacement.text)
            if previous != replacement.text:
                conflicting.add(old.text)
    targets: dict[str, int] = {}
    for target in found.values():
        targets[target] = targets.get(target, 0) + 1
    return {
        old: target
        for old, target in found.items()
        if old not in conflicting and targets[target] == 1
    }


def _polarity_changed(old: _Analysis, new: _Analysis, spans: Iterable[_Span]) -> bool:
    """Whether an edit adds or removes a negator, or swaps a word for a negated form of it."""
    for a0, a1, b0, b1 in spans:
        if any(old.polar[a0:a1]) or any(new.polar[b0:b1]):
            return True
        removed = set(old.words[a0:a1])
        added = set(new.words[b0:b1])
        if any(stem in removed for stems in new.stems[b0:b1] for stem in stems):
            return True
        if any(stem in added for stems in old.stems[a0:a1] for stem in stems):
            return True
    return False


def _changed_spans(old: Sequence[str], new: Sequence[str]) -> list[_Span]:
    """The non-equal blocks of a diff of two token sequences (common ends trimmed first:
    near-identical requests then diff only their middle)."""
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    matcher = difflib.SequenceMatcher(
        None, old[head : len(old) - tail], new[head : len(new) - tail], autojunk=False
    )
    return [
        (head + a0, head + a1, head + b0, head + b1)
        for op, a0, a1, b0, b1 in matcher.get_opcodes()
        if op != "equal"
    ]


def request_form(text: str) -> str:
    """The text of a request in comparison form, meaning-neutral edits removed: two requests
    have the same form exactly when they are the same request by their texts
    (:func:`same_request` without an answer), so the form (hashed, with
    :data:`REQUEST_FORM_VERSION`) is the exact-match key. A request that may be about its own
    text ("How many words are in this message?") has its whole text, as written, for a form.

    Example:
        >>> request_form("Hi! What is 7 times 8?") == request_form("what is 7 times 8")
        True
        >>> request_form("if x:\\n    y()") == request_form("if x:\\n  y()")
        False
        >>> request_form("Hi! Count the words.") == request_form("Count the words.")
        False
    """
    return _analyse(text).form


def _surface(text: str, token: Token) -> str:
    """How ``text`` spells ``token`` (an expanded contraction: the contraction)."""
    return text[token.start : token.end]


def _copies(answer: str, spelling: str) -> bool:
    """Whether ``answer`` has ``spelling`` as a word of its own, in this very case."""
    pattern = rf"(?<![^\W_]){re.escape(spelling)}(?![^\W_])"
    return re.search(pattern, answer) is not None


def _copied_spellings(
    cached: str, new: str, old: _Analysis, fresh: _Analysis, answer: str
) -> list[tuple[Token, Token]]:
    """The tokens of two requests of the same form that are spelt differently where the
    cached ``answer`` copies the cached spelling, each as ``(cached, new)`` with its spelling
    as text and norm (a contraction once, not once per expanded word)."""
    found: list[tuple[Token, Token]] = []
    for ours, theirs in zip(old.tokens, fresh.tokens, strict=True):
        was, now = _surface(cached, ours), _surface(new, theirs)
        if was == now or not _copies(answer, was):
            continue
        if found and (found[-1][0].start, found[-1][1].start) == (ours.start, theirs.start):
            continue  # the second word of the same contraction
        found.append((ours._replace(text=was, norm=was), theirs._replace(text=now, norm=now)))
    return found


def _spelling_delta(copied: Sequence[tuple[Token, Token]]) -> RequestDelta:
    """The meaning change of spellings the cached answer copies: one edit each."""
    edits = tuple(Edit((old,), (new,)) for old, new in copied)
    changes: dict[str, set[str]] = {}
    for old, new in copied:
        changes.setdefault(old.text, set()).add(new.text)
    return RequestDelta(
        same=False,
        edits=edits,
        removed=frozenset(old.text for old, _ in copied),
        added=frozenset(new.text for _, new in copied),
        substitutions={old: next(iter(new)) for old, new in changes.items() if len(new) == 1},
    )


def _answer_reflects_text(answer: str, old: _Analysis, fresh: _Analysis) -> bool:
    """Whether the cached ``answer`` may depend on how the cached request is written, beyond
    its form: it speaks of the request's own text ("your message", "you said"), or it echoes
    a greeting, thanks or "please" that the cached request dropped as neutral and the new
    request does not drop the same number of times ("Hi! ..." answered "Hi! ...")."""
    if answer_about_request(answer):
        return True
    if old.echoed == fresh.echoed:
        return False
    differing = {word for word in old.echoed if old.echoed.count(word) != fresh.echoed.count(word)}
    return not differing.isdisjoint(words_of(answer))


def same_request(cached: str, new: str, *, answer: str | None = None) -> bool:
    """Whether two requests differ by meaning-neutral edits alone: ``compare(...).same``
    without working out the edits. A request that may be about its own text ("Hello! How
    many words are in this message?") is the same request only as its identical text.

    With ``answer`` (the cached request's answer), a word the two requests spell differently
    ("Boston" / "boston", "can't" / "cannot") is a meaning change where the answer copies the
    cached spelling: the new request's answer would spell it the new way. So is any other
    difference where the answer speaks of the request's own text ("Your message has 8
    words.") or echoes a greeting, thanks or "please" that the new request lacks.

    Example:
        >>> same_request("Hi! What is 7 times 8?", "what is 7 times 8")
        True
        >>> same_request("What is a kestrel?", "what is a kestrel", answer="A small falcon.")
        True
        >>> same_request("Hello! How many words are in this message?",
        ...              "How many words are in this message?")
        False
        >>> same_request("Hi! Explain DNS.", "Explain DNS.", answer="Hi! DNS maps names.")
        False
    """
    if cached == new:
        return True
    old, fresh = _analyse(cached), _analyse(new)
    if old.form != fresh.form:
        return False
    if answer is None:
        return True
    return not _answer_reflects_text(answer, old, fresh) and not _copied_spellings(
        cached, new, old, fresh, answer
    )


def _layout_span(cached: str, new: str, old: _Analysis, fresh: _Analysis) -> _Span:
    """The edit of two texts whose tokens are spelt alike but whose layout differs (a request
    compared as written: "How many spaces  are here?"): the token after the first differing
    character (the last token when the difference is at the end)."""
    at = next(
        (i for i, (a, b) in enumerate(zip(cached, new, strict=False)) if a != b),
        min(len(cached), len(new)),
    )
    a0 = min(sum(1 for t in old.tokens if t.end <= at), len(old.tokens) - 1)
    b0 = min(sum(1 for t in fresh.tokens if t.end <= at), len(fresh.tokens) - 1)
    return (max(a0, 0), max(a0, 0) + 1, max(b0, 0), max(b0, 0) + 1)


def _delta(cached: str, new: str, old: _Analysis, fresh: _Analysis) -> RequestDelta:
    """The meaning changes between two analyses (whose forms differ)."""
    spans = _changed_spans(old.norms, fresh.norms) or [_layout_span(cached, new, old, fresh)]
    edits = tuple(Edit(old.tokens[a0:a1], fresh.tokens[b0:b1]) for a0, a1, b0, b1 in spans)
    return RequestDelta(
        same=False,
        edits=edits,
        removed=_missing(old, fresh),
        added=_missing(fresh, old),
        substitutions=_substitutions(edits, fresh),
        numbers_changed=old.numbers != fresh.numbers or old.number_words != fresh.number_words,
        polarity_changed=_polarity_changed(old, fresh, spans),
    )


def compare(cached: str, new: str, *, answer: str | None = None) -> RequestDelta:
    """How ``new`` differs from ``cached``, after removing meaning-neutral edits.

    Each text is analysed once and cached, so comparing a new request with several cached
    ones tokenises it once. A request that may be about its own text is compared as written
    (every token, mark, capital and space counts). ``answer`` (the cached request's answer) is
    consulted as in :func:`same_request`: a spelling it copies that the new request changes
    is an edit, and where it speaks of the request's own text or echoes its filler, the two
    requests are compared as written.

    Example:
        >>> compare("What is the capital of France?", "what is the capital of france").same
        True
        >>> compare("Convert 100 USD to EUR", "Convert 100 USD to JPY").same
        False
        >>> delta = compare("I can't log in. What do I tell support?",
        ...                 "I cannot log in. What do I tell support?",
        ...                 answer="Tell them: I can't log in.")
        >>> delta.same, delta.substitutions
        (False, {"can't": 'cannot'})
        >>> delta = compare("Hello! Count the words in this message.",
        ...                 "Count the words in this message.")
        >>> delta.same, [t.text for t in delta.edits[0].removed]
        (False, ['Hello', '!'])
    """
    if cached == new:
        return RequestDelta(same=True)
    old, fresh = _analyse(cached), _analyse(new)
    if old.form != fresh.form:
        return _delta(cached, new, old, fresh)
    if answer is None:
        return RequestDelta(same=True)
    if _answer_reflects_text(answer, old, fresh):
        return _delta(cached, new, _build(cached, True), _build(new, True))
    copied = _copied_spellings(cached, new, old, fresh, answer)
    return _spelling_delta(copied) if copied else RequestDelta(same=True)


def mentions(text: str, words: Iterable[str]) -> frozenset[str]:
    """Which of ``words`` (for instance a delta's ``removed``) ``text`` mentions, any case.

    A word is mentioned when one of the text's tokens has it as its text or comparison form
    ("3x" mentions "x"; "don't" mentions "not"), or, for a phrase of several words, when the
    phrase occurs in the text.

    Example:
        >>> sorted(mentions("Step 1: 3x = 15, so x = 5.", {"x", "y", "15"}))
        ['15', 'x']
    """
    wanted = {word.lower(): word for word in words if word}
    if not wanted:
        return frozenset()
    seen: set[str] = set()
    for token in tokenise(text):
        seen.add(token.text.lower())
        seen.add(token.norm.lower())
        if token.kind == "quoted":
            seen.add(token.bare.lower())
    lowered = text.lower()
    found = {
        original
        for key, original in wanted.items()
        if key in seen or (" " in key and key in lowered)
    }
    return frozenset(found)
