"""What changed between a cached prompt and a new one.

Only *content tokens* matter for staleness: numbers, identifiers (single letters, snake_case,
camelCase, dotted names), quoted strings and names (capitalised words inside a sentence).
Common words are ignored: a paraphrase that only changes wording removes no content token.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["ContentToken", "PromptDiff", "content_tokens", "diff_prompts", "normalise_prompt"]

TokenKind = Literal["number", "quoted", "identifier", "name", "word"]

_TOKEN = re.compile(
    r"""(?P<quoted>"[^"\n]{1,200}"|'[^'\n]{1,200}'|`[^`\n]{1,200}`)"""
    r"|(?P<number>(?<![\w.])-?\d+(?:\.\d+)?(?![\w]))"
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
)


@dataclass(frozen=True)
class ContentToken:
    """A token of a prompt, with its kind."""

    kind: TokenKind
    text: str

    @property
    def is_content(self) -> bool:
        return self.kind != "word"

    @property
    def bare(self) -> str:
        """The text without surrounding quotes."""
        if self.kind == "quoted":
            return self.text[1:-1]
        return self.text


def _word_kind(word: str, sentence_start: bool) -> TokenKind:
    if len(word) == 1 and word.isalpha() and word not in {"a", "A", "I"}:
        return "identifier"
    if "_" in word or "." in word or re.search(r"[a-z][A-Z]", word) or re.search(r"\d", word):
        return "identifier"
    if word[0].isupper() and not sentence_start and not word.isupper():
        return "name"
    return "word"


def content_tokens(text: str) -> list[ContentToken]:
    """All tokens of ``text`` in order, each with its kind ("word" for ordinary words)."""
    tokens: list[ContentToken] = []
    sentence_start = True
    last_end = 0
    for match in _TOKEN.finditer(text):
        gap = text[last_end : match.start()]
        if re.search(r"[.!?:\n]", gap):
            sentence_start = True
        last_end = match.end()
        kind = match.lastgroup
        value = match.group()
        if kind == "quoted":
            tokens.append(ContentToken("quoted", value))
        elif kind == "number":
            tokens.append(ContentToken("number", value))
        else:
            tokens.append(ContentToken(_word_kind(value, sentence_start), value))
        sentence_start = False
    return tokens


def normalise_prompt(text: str) -> str:
    """The form used for exact matching: whitespace collapsed, ends stripped."""
    return " ".join(text.split())


@dataclass(frozen=True)
class PromptDiff:
    """Content tokens removed from / added to the cached prompt, and 1:1 substitutions.

    Example:
        >>> d = diff_prompts("Solve for x: 3x + 5 = 20", "Solve for y: 3y + 5 = 20")
        >>> d.substitutions
        {'x': 'y'}
    """

    removed: frozenset[str] = frozenset()
    added: frozenset[str] = frozenset()
    substitutions: dict[str, str] = field(default_factory=dict)
    numbers_changed: bool = False

    @property
    def identical_content(self) -> bool:
        return not self.removed and not self.added


# Coefficients written next to a variable ("3x") hide the variable from plain tokenising;
# split them so the variable and the number are separate content tokens.
_COEFFICIENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)([A-Za-z])(?![A-Za-z0-9_])")


def _split_coefficients(text: str) -> str:
    return _COEFFICIENT.sub(r"\1 \2", text)


def _content(text: str) -> list[ContentToken]:
    return [t for t in content_tokens(_split_coefficients(text)) if t.is_content]


def diff_prompts(cached: str, new: str) -> PromptDiff:
    """Compare two prompts by their content tokens."""
    old_tokens = _content(cached)
    new_tokens = _content(new)
    old_set = {t.text for t in old_tokens}
    new_set = {t.text for t in new_tokens}
    substitutions: dict[str, str] = {}
    conflicting: set[str] = set()
    matcher = difflib.SequenceMatcher(
        a=[t.text for t in old_tokens], b=[t.text for t in new_tokens], autojunk=False
    )
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op != "replace" or a1 - a0 != b1 - b0:
            continue
        for old, new_tok in zip(old_tokens[a0:a1], new_tokens[b0:b1], strict=True):
            if old.kind != new_tok.kind or old.text in new_set:
                continue
            previous = substitutions.get(old.text)
            if previous is not None and previous != new_tok.text:
                conflicting.add(old.text)
            substitutions[old.text] = new_tok.text
    for key in conflicting:
        substitutions.pop(key, None)
    old_numbers = {t.text for t in old_tokens if t.kind == "number"}
    new_numbers = {t.text for t in new_tokens if t.kind == "number"}
    return PromptDiff(
        removed=frozenset(old_set - new_set),
        added=frozenset(new_set - old_set),
        substitutions=substitutions,
        numbers_changed=old_numbers != new_numbers,
    )
