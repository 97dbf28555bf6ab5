"""The one token type, and the scanners of the readers below the request tokeniser.

:class:`Token` is what every reader of text works on: the request tokeniser
(:func:`~.tokens.tokenise`, which folds case and expands contractions for comparison), the
quantity reader (:func:`figure_tokens`: words, figures and marks) and the equation parser
(:func:`formula_tokens`: algebra, where a coefficient is glued to its variable). Their
grammars differ where the readings differ ("1,200" is one figure in prose; "3x" is two
tokens in algebra), not in what a token is.

Example:
    >>> [(t.text, t.kind, t.spaced) for t in formula_tokens("3x + 1 5/6 = y")]
    [('3', 'number', False), ('x', 'variable', False), ('+', 'operator', True), \
('1 5/6', 'mixed', True), ('=', 'equals', True), ('y', 'variable', True)]
    >>> [(t.text, t.kind, t.norm) for t in figure_tokens("Ann paid $1,200.")]
    [('Ann', 'word', 'ann'), ('paid', 'word', 'paid'), ('$', 'punct', '$'), \
('1,200', 'number', '1,200'), ('.', 'punct', '.')]
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

__all__ = ["Token", "TokenKind", "figure_tokens", "formula_tokens"]

# In algebra (formula_tokens) also: a single letter, a whole number and a fraction of digits
# ("1 5/6"), + - * / and brackets, an equals sign, a comparison.
TokenKind = Literal[
    "word", "name", "acronym", "identifier", "number", "quoted", "code", "punct",
    "variable", "mixed", "operator", "equals", "comparison",
]  # fmt: skip

_TERMINATOR = re.compile(r"^(?:[.!?]+|…)$")


class Token(NamedTuple):
    """A token of a text.

    ``kind`` is one of ``"word"`` (an ordinary word), ``"name"`` (a capitalised word inside a
    sentence), ``"acronym"`` (all capitals: "USD", "US"), ``"identifier"`` (variables,
    snake_case, camelCase, dotted names, URLs, paths), ``"number"`` (digits), ``"quoted"``
    (a quoted string, quotes included), ``"code"`` (a token inside a fenced block or on an
    indented line; a line's indentation is a token too) or ``"punct"``; in algebra also
    ``"variable"``, ``"mixed"``, ``"operator"``, ``"equals"`` and ``"comparison"``.
    ``norm`` is the comparison form (request tokens; the lower-cased word for figure
    tokens). ``literal`` is true where the text may be data (code, quotes, after a colon or a
    word like "translate"): there case and punctuation always count. ``sentence_start``
    marks the first token of a sentence or line, ``line_start`` the first token of a line.
    ``spaced``: whitespace right before the token, which the figure and formula scanners
    read ("3/4" is a fraction, "3 / 4" a division; a figure token opening the text counts as
    spaced); request tokens leave it false. For an expanded contraction each word is a
    token of its own, whose ``text`` is the expanded word and whose ``start``/``end`` cover
    the contraction.

    A named tuple: built with ``tuple.__new__`` it costs a third of a frozen dataclass, and
    every text read on the hit path makes dozens of tokens.

    Example:
        >>> token = formula_tokens("y = 3x")[3]
        >>> (token.text, token.kind, token.spaced)
        ('x', 'variable', False)
    """

    text: str
    kind: TokenKind
    start: int
    end: int
    norm: str
    literal: bool = False
    sentence_start: bool = False
    line_start: bool = False
    spaced: bool = False

    @property
    def bare(self) -> str:
        """The text without its quotes (quoted strings), else the text."""
        if self.kind != "quoted":
            return self.text
        if self.text.startswith("`"):
            return self.text.strip("`")
        return self.text[1:-1]

    @property
    def is_terminator(self) -> bool:
        """Whether this token ends a sentence ("." "?" "!" and runs of them, "…")."""
        return self.kind == "punct" and bool(_TERMINATOR.match(self.text))


# A named tuple's own __new__ is Python code: a third of the time of building a token.
new_token = tuple.__new__


# ---------------------------------------------------------------------------------------------
# Algebra
# ---------------------------------------------------------------------------------------------

# The algebra lexer's token grammar (a coefficient is glued to its variable: "3x" is "3" and
# "x"), not a reader of numbers in prose. A whole number, a space and a fraction of digits is
# one token, a mixed number ("1 5/6" is 11/6): read as "1" it would be a wrong value.
_FORMULA_TOKEN = re.compile(
    r"(?P<mixed>[0-9]+[ \t]+[0-9]+/[0-9]+)"
    r"|(?P<number>[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
    r"|(?P<word>[^\W\d_]\w*|_\w*)"
    r"|(?P<comparison><=|>=|!=|=>|=<|:=)"
    r"|(?P<equals>==|=|≈)"
    r"|(?P<operator>[-+*/()])"
    # Anything else but spaces and tabs, one character at a time (a newline is a token): the
    # spaces between tokens are skipped by the search, and a gap before a token means spaced.
    r"|(?P<punct>[\S\n])"
)


def formula_tokens(text: str) -> list[Token]:
    """The tokens of ``text`` read as algebra: a single letter is a ``"variable"``."""
    tokens: list[Token] = []
    append = tokens.append
    previous_end = 0
    for match in _FORMULA_TOKEN.finditer(text):
        kind = match.lastgroup or "punct"
        value = match.group()
        if kind == "word" and len(value) == 1 and value.isalpha():
            kind = "variable"
        start, end = match.span()
        spaced = start != previous_end
        append(new_token(Token, (value, kind, start, end, value, False, False, False, spaced)))
        previous_end = end
    return tokens


# ---------------------------------------------------------------------------------------------
# Words and figures
# ---------------------------------------------------------------------------------------------

# One match per token, with the whitespace before it (``spaced``); ``findall`` keeps tokenising
# in C, and positions are counted from the lengths.
_FIGURE_TOKEN = re.compile(
    r"(\s*)(?:(\d+(?:[.,]\d+)*|(?<![\w.,])\.\d+(?![.,]\d))|([^\W\d_]+)|(\S))"
)
_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+")


def figure_tokens(text: str) -> list[Token]:
    """The words (``norm`` lower-cased), figures and marks of ``text``: a figure with
    thousands separators is one token ("1,200.5"), "1,2" or "1.2.3" are several."""
    tokens: list[Token] = []
    append = tokens.append
    pos = 0
    for space, num, word, sym in _FIGURE_TOKEN.findall(text):
        pos += len(space)
        spaced = bool(space) or pos == 0
        if word:
            end = pos + len(word)
            lowered = word.lower()
            append(new_token(Token, (word, "word", pos, end, lowered, False, False, False, spaced)))
        elif num:
            for part in _figure_parts(num):
                end = pos + len(part)
                figure = part[0].isdigit() or (part[0] == "." and len(part) > 1)
                kind = "number" if figure else "punct"
                append(new_token(Token, (part, kind, pos, end, part, False, False, False, spaced)))
                pos, spaced = end, False
            continue
        elif sym:
            end = pos + len(sym)
            append(new_token(Token, (sym, "punct", pos, end, sym, False, False, False, spaced)))
        else:
            break  # only whitespace was left
        pos = end
    return tokens


def _figure_parts(run: str) -> list[str]:
    """A run of digits, commas and points as numbers and separators."""
    match = _FIGURE.match(run)
    assert match is not None  # the run starts with a digit
    if match.end() == len(run):
        return [run]
    head = match.group()
    rest = run[len(head) :]
    return [head, rest[0], *(_figure_parts(rest[1:]) if len(rest) > 1 else [])]
