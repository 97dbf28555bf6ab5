"""Tokenising a request: every word, number, name, code token and mark, with its comparison form.

Each token keeps its place in the original text (``start``/``end``) and a ``norm``: the form
two requests are compared in. The norm folds only what is certain not to matter:

- **letter case** in two places only: the capital of a structure word or request verb that
  opens a sentence ("What", "Is", "Explain"; :data:`~.lexicon.SENTENCE_WORDS`) at the start
  of the request, of a line, or after "?", "!" or a full stop that ends a sentence (not after
  "Dr." or "e.g."), and the case of a word that names one thing whatever its case ("Boston"
  = "boston", :data:`~.lexicon.PROPER_ONLY`) or of the pronoun "I" in a contraction ("i'm"
  = "I'm"). Everywhere else case is meaning: "What is a Jaguar?" is not "What is a
  jaguar?", and a content word opening a sentence keeps its capital ("Kestrel is my
  username" may be data). A request whose words may be data (:data:`~.lexicon.DATA_WORDS`:
  "password", "file", "JSON") folds no name; a request about its own text (a literal
  trigger anywhere: "spell", "letters") folds no case and expands no contraction;
- a typographic apostrophe (U+2019 = ');
- contractions whose reading is certain, which become their words ("don't" -> do, not;
  "I'd like" -> I, would, like; see :func:`~.lexicon.expand_contraction`).

It folds nothing in code, in quoted strings, in all-caps codes ("USD", "US") or identifiers,
nor in the *literal* part of a request: everything after a colon, an unmatched quote or a
word such as "translate" or "spell", where the text may be the data itself.

Example:
    >>> [t.norm for t in tokenise("What is the capital of Spain?")]
    ['what', 'is', 'the', 'capital', 'of', 'spain', '?']
    >>> [t.norm for t in tokenise("Is a Jaguar fast?")]
    ['is', 'a', 'Jaguar', 'fast', '?']
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from stepcache_integrations.core.text.layout import Line, prose_tokens, split_lines
from stepcache_integrations.core.text.lexicon import (
    ABBREVIATIONS,
    CAPITONYMS,
    DATA_WORDS,
    LITERAL_TRIGGERS,
    NEUTRAL_WORDS,
    PROPER_ONLY,
    REQUEST_VERBS,
    SENTENCE_WORDS,
    expand_contraction,
)
from stepcache_integrations.core.text.lexing import Token, TokenKind, new_token
from stepcache_integrations.core.text.memo import TextMemo
from stepcache_integrations.core.text.self_reference import about_own_text, words_of

__all__ = ["Token", "TokenKind", "tokenise"]

# The code lexer: a token that starts with a digit runs to the end of the word ("3x",
# "0x1F", "1.2.3"): where code tokens end, not what a number is worth.
_CODE = re.compile(
    r"`{3,}|~{3,}"
    r"|\"(?:[^\"\\\r\n]|\\.)*\"?|'(?:[^'\\\r\n]|\\.)*'?|`[^`\r\n]*`?"
    r"|\d[\w.]*"
    r"|[^\W\d]\w*"
    r"|[^\w\s\"'`]+"
)
# snake_case, dotted names, digits inside a word, camelCase.
_IDENTIFIER_MARK = re.compile(r"[_.\d]|[a-z][A-Z]")
_TERMINATOR = re.compile(r"^(?:[.!?]+|…)$")
_OPEN_QUOTES = frozenset({'"', "“", "«"})


def _token(text: str, kind: TokenKind, start: int, end: int, norm: str, literal: bool,
           sentence_start: bool, line_start: bool) -> Token:  # fmt: skip
    """A Token, built by ``tuple.__new__`` (a request is tokenised on the hit path)."""
    return new_token(
        Token, (text, kind, start, end, norm, literal, sentence_start, line_start, False)
    )


def _word_kind(word: str, sentence_start: bool) -> TokenKind:
    if len(word) == 1:
        return "word" if word in "aAiI" else "identifier"
    if _IDENTIFIER_MARK.search(word):
        return "identifier"
    if word.isupper():
        return "acronym"
    if word[0].isupper() and not sentence_start:
        return "name"
    return "word"


# The pronoun "I" in a contraction: its case can only be the pronoun's.
_I_FORMS = frozenset({"i'm", "i've", "i'll", "i'd"})
# Words whose capital opening a sentence is the sentence's (a capitonym keeps its case, except
# a request verb: "Sketch a cat").
_SENTENCE_CASE = (SENTENCE_WORDS | NEUTRAL_WORDS | REQUEST_VERBS) - (CAPITONYMS - REQUEST_VERBS)
_NT_BASES = {"ca": "can", "wo": "will", "sha": "shall"}


def _opens_sentences(lowered: str) -> bool:
    """Whether the capital of ``lowered`` opening a sentence is the sentence's: a structure
    word or request verb, or a contraction of one ("What's", "Don't")."""
    if lowered in _SENTENCE_CASE:
        return True
    if "'" not in lowered:
        return False
    base = lowered[:-3] if lowered.endswith("n't") else lowered.split("'", 1)[0]
    return _NT_BASES.get(base, base) in _SENTENCE_CASE


@dataclass(frozen=True)
class _CaseRules:
    """Which case folds in one request (decided from all its words first).

    ``names``: the names of PROPER_ONLY fold; not in a request whose words may be data
    (DATA_WORDS: a password, a user or file name). ``sentences``: a capital opening a
    sentence folds; not in a request about text (a literal trigger anywhere: "spell",
    "letters", "translate"; or :func:`~.self_reference.about_own_text`: "this message", "my
    tone"), where contractions stay as written too. (A request about its own text is
    compared as written, every edit counting: see ``sameness``.)
    """

    names: bool = True
    sentences: bool = True

    @classmethod
    def of(cls, text: str) -> _CaseRules:
        words = words_of(text)
        if about_own_text(text) or not LITERAL_TRIGGERS.isdisjoint(words):
            return cls(names=False, sentences=False)
        return cls(names=DATA_WORDS.isdisjoint(words), sentences=True)


def _folded(word: str, sentence_case: bool, rules: _CaseRules) -> str | None:
    """The case-folded form of a word whose case is certain not to matter here, else ``None``.

    ``sentence_case``: the word opens a sentence. Its capital is then the sentence's if the
    word is a structure word or request verb (:func:`_opens_sentences`). A word of
    :data:`~.lexicon.PROPER_ONLY` folds anywhere (unless the request's words may be data).
    Any other capitalised word keeps its case.
    """
    if word == word.lower():
        return word
    if word == "I" or not (word[0].isupper() and word[1:] == word[1:].lower()):
        # "I" is the pronoun (or a numeral, a matrix) anywhere, "i" may be the imaginary
        # unit; all capitals or mixed case: "USD", "iPhone".
        return None
    lowered = word.lower()
    if lowered in _I_FORMS and rules.sentences:
        return lowered
    if lowered in PROPER_ONLY and rules.names:
        return lowered
    if sentence_case and rules.sentences and _opens_sentences(lowered):
        return lowered
    return None


def _ends_sentence(mark: str, before: Token | None) -> bool:
    """Whether ``mark`` after the token ``before`` certainly ends a sentence, so that the
    next capital is the sentence's: "?" and "!" (and runs of them) always; a single full stop
    after a word of two letters or more that is no abbreviation and has no dot inside
    ("Dr.", "e.g.", "J." are not sentence ends), after a number, or after a quote or bracket.
    Never an ellipsis."""
    if set(mark) <= {"?", "!"}:
        return True
    if mark != "." or before is None:
        return False
    if before.kind in ("word", "name", "acronym"):
        text = before.text
        return len(text) > 1 and "." not in text and text.lower() not in ABBREVIATIONS
    return before.kind in ("number", "quoted") or before.text in (")", "]", '"', "\u201d")


@dataclass
class _Cursor:
    """Tokenising state carried across lines."""

    literal: bool = False
    sentence_start: bool = True
    # The next word opens a sentence for certain (its capital is the sentence's).
    sentence_case: bool = True


class _Tokeniser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[Token] = []
        self.cursor = _Cursor()
        self.rules = _CaseRules.of(text)

    def run(self) -> tuple[Token, ...]:
        lines = split_lines(self.text)
        # Blank lines at the very end (even inside an unclosed fence) are not content.
        while lines and not lines[-1].text.strip():
            lines = lines[:-1]
        for line in lines:
            if line.is_code:
                self._code_line(line)
                self.cursor.sentence_start = True
            elif line.kind == "prose":
                self._prose_line(line)
                self.cursor.sentence_start = True
        return tuple(self.tokens)

    def _add(self, text: str, kind: TokenKind, start: int, norm: str, literal: bool,
             line_start: bool = False, end: int | None = None) -> None:  # fmt: skip
        self.tokens.append(
            _token(
                text,
                kind,
                start,
                start + len(text) if end is None else end,
                norm if norm.isascii() else unicodedata.normalize("NFC", norm),
                literal,
                self.cursor.sentence_start,
                line_start,
            )
        )
        self.cursor.sentence_start = False
        self.cursor.sentence_case = False

    def _code_line(self, line: Line) -> None:
        body = line.text.rstrip()
        indent = body[: len(body) - len(body.lstrip())]
        self._add(indent, "code", line.start, "\n" + indent, True, True)
        for match in _CODE.finditer(body, len(indent)):
            self._add(match.group(), "code", line.start + match.start(), match.group(), True)

    def _prose_line(self, line: Line) -> None:
        first = True
        cursor = self.cursor
        cursor.sentence_case = True
        matches = list(prose_tokens(line.text))
        for index, match in enumerate(matches):
            kind = match.lastgroup
            value = match.group()
            start = line.start + match.start()
            if kind == "word":
                self._word(value, start, first, matches, index)
            elif kind == "punct":
                self._punct(line, match, start, first)
            elif kind == "quoted":
                self._add(value, "quoted", start, value, True, first)
            elif kind == "number":
                self._add(value, "number", start, value, cursor.literal, first)
            else:  # a URL, e-mail address or path
                self._add(value, "identifier", start, value, cursor.literal, first)
            first = False

    def _word(self, value: str, start: int, line_start: bool,
              matches: list[re.Match[str]], index: int) -> None:  # fmt: skip
        cursor = self.cursor
        kind = _word_kind(value, cursor.sentence_start)
        literal = cursor.literal
        norm = value
        expanded: tuple[str, ...] | None = None
        if not literal and (kind == "word" or kind == "name"):
            plain = value.replace("\u2019", "'")
            previous = self.tokens[-1] if self.tokens else None
            # A capital glued to the mark before it ("e.g.Apple") opens no sentence.
            sentence_case = cursor.sentence_case and (
                line_start or previous is None or previous.end < start
            )
            folded = _folded(plain, sentence_case, self.rules)
            norm = plain if folded is None else folded
            if (
                folded is not None
                and self.rules.sentences  # a request about its own text keeps its spelling
                and ("'" in folded or folded == "cannot")
            ):
                expanded = expand_contraction(folded, _sentence_after(matches, index))
        if expanded is None:
            self._add(value, kind, start, norm, literal, line_start)
        else:
            end = start + len(value)
            for position, word in enumerate(expanded):
                word = "I" if word == "i" else word  # "i'm": the pronoun, spelt as "I am" is
                self._add(word, "word", start, word, False, line_start and position == 0, end)
        if value.lower() in LITERAL_TRIGGERS:
            cursor.literal = True

    def _punct(self, line: Line, match: re.Match[str], start: int, line_start: bool) -> None:
        value = match.group()
        cursor = self.cursor
        before = self.tokens[-1] if self.tokens else None
        self._add(value, "punct", start, value, cursor.literal, line_start)
        if value[0] in ".!?\u2026" and _TERMINATOR.match(value):
            cursor.sentence_start = True
            cursor.sentence_case = _ends_sentence(value, before)
        if value in _OPEN_QUOTES or value[0] == "`":
            cursor.literal = True  # an unmatched quote: the rest may be quoted text
        elif value == ":" and not _is_time_or_ratio(line.text, match.start()):
            cursor.literal = True


def _sentence_after(matches: list[re.Match[str]], index: int) -> list[str]:
    """The words after ``matches[index]`` up to the end of its sentence, lower case (what
    decides the reading of a contraction)."""
    words: list[str] = []
    for match in matches[index + 1 :]:
        kind = match.lastgroup
        if kind == "punct" and _TERMINATOR.match(match.group()):
            break
        if kind == "word":
            words.append(match.group().lower().replace("\u2019", "'"))
    return words


def _is_time_or_ratio(line: str, index: int) -> bool:
    before = line[index - 1 : index]
    after = line[index + 1 : index + 2]
    return before.isdigit() and after.isdigit()


def _tokenise_uncached(text: str) -> tuple[Token, ...]:
    return _Tokeniser(text).run()


# About 110 bytes of tokens per character of text: this budget holds some 30 MB at most.
_TOKENS = TextMemo(_tokenise_uncached, max_chars=300_000)


def tokenise(text: str) -> tuple[Token, ...]:
    """All tokens of ``text`` in order (whitespace is not a token, except indentation in code).

    Remembered for recently used texts: the same text is tokenised once.

    Example:
        >>> [t.text for t in tokenise("Solve 3x + 5 = 20 for x")]
        ['Solve', '3', 'x', '+', '5', '=', '20', 'for', 'x']
    """
    return _TOKENS(text)
