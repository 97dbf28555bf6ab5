"""The meaning-neutral tokens of a request: politeness, filler and punctuation that changes nothing.

Each rule is positional: a word is neutral only where it cannot carry an instruction. Outside
those places the same word is meaning ("Write a poem to please my wife", "Write a thank you
note"). No rule applies to literal tokens (code, quotes, text after a colon or a word such as
"translate"), and a request made of filler alone ("Thanks!") keeps its words.

The rules, each applied outside literal text only:

1. **Greetings** opening a sentence and standing alone: "Hi!", "Hello,\\n", "Hi, what ...".
2. **Thanks** forming a clause of their own: "Thanks!", "..., thank you.", "Thanks, ...".
3. **Please** opening a sentence, after a comma at the end of one (", please."), between two
   commas, or before a request verb after "and"/"then"/"also"/a comma.
4. **Kindly** opening a sentence.
5. **Polite openers** before a request verb: "can you", "could you", "would you", "will you",
   "help me", "I'd like you to", "I want you to", "I need you to" (with an optional "please"
   or "kindly");
   "I'd like" before "a"/"an"/"the"/"some".
6. **Final punctuation**: a final "?", "!" or "." (or a run of "?" and "!") at the end of the
   request or of a line; not a "!" written against a number, a power, a closing bracket or bar
   ("3 + 4!", "3\u00b2!", "(2n)!", "|x|!"), or a variable of a request that writes mathematics
   ("Let n = 5. What is n!"): that is a factorial.
"""

from __future__ import annotations

from collections.abc import Sequence

from stepcache_integrations.core.text.lexicon import (
    DETERMINERS,
    GREETINGS,
    OPENERS,
    REQUEST_VERBS,
    THANKS,
    WANT_OBJECT,
    WH_STARTS,
)
from stepcache_integrations.core.text.tokens import Token

__all__ = ["factorial_mark", "neutral_indexes"]

_LINKS = frozenset({"and", "then", "also"})
# What a factorial mark may follow besides a number: a closing bracket, bar, floor or ceiling,
# and a power written in superscript digits.
_CLOSERS = frozenset(")]}|\u230b\u2309")
_SUPERSCRIPTS = frozenset("\u00b2\u00b3\u00b9\u2070\u2074\u2075\u2076\u2077\u2078\u2079")
_OPERATORS = frozenset({"=", "+", "*", "/", "^", "\u00d7", "\u00f7", "\u2212"})
_WORDS = frozenset({"word", "name", "acronym"})
_THANKS_FIRST = frozenset(phrase[0] for phrase in THANKS)
_FIRST_WORDS = frozenset(
    phrase[0] for group in (GREETINGS, THANKS, OPENERS, (WANT_OBJECT,)) for phrase in group
)


class _Marker:
    """Marks the neutral tokens of one request."""

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = tokens
        self.size = len(tokens)
        self.neutral: set[int] = set()
        self.words = [
            token.norm.lower() if token.kind in _WORDS and not token.literal else None
            for token in tokens
        ]

    # -- looking at tokens ----------------------------------------------------------------

    def word(self, index: int) -> str | None:
        """The lower-case form of a non-literal word at ``index``, else ``None``.

        Lower case even for "Will" or "PLEASE": a filler phrase is recognised in any case
        (whether the word is then neutral depends on its place, not its case).
        """
        return self.words[index] if 0 <= index < self.size else None

    def is_mark(self, index: int, *marks: str) -> bool:
        if not 0 <= index < self.size:
            return False
        token = self.tokens[index]
        return token.kind == "punct" and not token.literal and token.text in marks

    def is_terminator(self, index: int) -> bool:
        return 0 <= index < self.size and self.tokens[index].is_terminator

    def starts_clause(self, index: int) -> bool:
        return index == 0 or (index < self.size and self.tokens[index].sentence_start)

    def ends_clause(self, index: int) -> bool:
        """Whether a clause ends right before ``index`` (end, terminator or new line)."""
        return index >= self.size or self.is_terminator(index) or self.starts_clause(index)

    def phrase_end(self, index: int, phrases: Sequence[tuple[str, ...]]) -> int | None:
        """The end of the first of ``phrases`` found at ``index`` (non-literal, within one
        sentence and line), else None."""
        first = self.word(index)
        if first is None or first not in _FIRST_WORDS:
            return None
        words, tokens = self.words, self.tokens
        for phrase in phrases:
            end = index + len(phrase)
            if (
                phrase[0] == first
                and end <= self.size
                and words[index:end] == list(phrase)
                and not any(token.sentence_start for token in tokens[index + 1 : end])
            ):
                return end
        return None

    def mark(self, start: int, end: int) -> None:
        self.neutral.update(range(start, end))

    def mark_terminators(self, index: int) -> None:
        while self.is_terminator(index) and not self.tokens[index].literal:
            self.neutral.add(index)
            index += 1

    # -- the rules -------------------------------------------------------------------------

    def sentence_openers(self, start: int) -> None:
        """Rules 1-5 at the start of a sentence, repeatedly ("Hi! Please, could you ...")."""
        at = start
        while at < self.size:
            after = self.standalone_clause(at)
            if after is not None:
                at = after
                continue
            if self.word(at) in ("please", "kindly"):
                self.neutral.add(at)
                at += 1
                if self.is_mark(at, ","):
                    self.neutral.add(at)
                    at += 1
                continue
            self.opener(at)
            return

    def standalone_clause(self, at: int) -> int | None:
        """Marks a greeting or thanks standing alone at ``at`` (rules 1 and 2) with its
        comma or end marks. Returns where the sentence goes on (after the comma; the end of
        the request when the clause ends the sentence), or ``None`` when there is none."""
        for phrases, stands_alone in (
            (GREETINGS, self.greeting_stands_alone),
            (THANKS, self.thanks_stand_alone),
        ):
            end = self.phrase_end(at, phrases)
            if end is None or not stands_alone(end):
                continue
            self.mark(at, end)
            if self.is_mark(end, ","):
                self.neutral.add(end)
                return end + 1
            self.mark_terminators(end)
            return self.size
        return None

    def thanks_stand_alone(self, end: int) -> bool:
        return self.ends_clause(end) or self.is_mark(end, ",")

    def greeting_stands_alone(self, end: int) -> bool:
        if self.ends_clause(end) or self.is_mark(end, "!"):
            return True
        if not self.is_mark(end, ","):
            return False
        following = self.word(end + 1)
        if following is None:
            return False
        # "what's" stays as written (its "'s" has several readings); its question word counts.
        return following.split("'", 1)[0] in WH_STARTS or following in REQUEST_VERBS

    def opener(self, at: int) -> None:
        end = self.phrase_end(at, OPENERS)
        if end is not None:
            verb = end
            if self.word(verb) in ("please", "kindly"):
                verb += 1
            if self.is_mark(verb, ","):
                verb += 1
            if self.word(verb) in REQUEST_VERBS:
                self.mark(at, verb)
            return
        end = self.phrase_end(at, (WANT_OBJECT,))
        if end is not None and self.word(end) in DETERMINERS:
            self.mark(at, end)

    def inner_please(self, index: int) -> None:
        """Rule 3 away from a sentence start."""
        before, after = index - 1, index + 1
        if self.is_mark(before, ",") and self.is_mark(after, ","):
            self.neutral.update((before, index, after))
        elif self.is_mark(before, ",") and self.ends_clause(after):
            self.neutral.update((before, index))
        elif (self.is_mark(before, ",") or self.word(before) in _LINKS) and (
            self.word(after) in REQUEST_VERBS
        ):
            self.neutral.add(index)

    def inner_thanks(self, index: int) -> None:
        """Rule 2 after a comma: "..., thanks." (the sentence's own end mark is kept)."""
        end = self.phrase_end(index, THANKS)
        if end is not None and self.is_mark(index - 1, ",") and self.ends_clause(end):
            self.mark(index - 1, end)

    def final_punctuation(self) -> None:
        """Rule 6, at the end of the request and of every line."""
        ends = [i for i in range(1, self.size) if self.tokens[i].line_start] + [self.size]
        for end in ends:
            index = end - 1
            while index >= 0 and index in self.neutral:
                index -= 1
            while index >= 0 and self._final_mark(index):
                self.neutral.add(index)
                index -= 1
                while index >= 0 and index in self.neutral:
                    index -= 1

    def _final_mark(self, index: int) -> bool:
        token = self.tokens[index]
        if token.kind != "punct" or token.literal:
            return False
        if factorial_mark(self.tokens, index):
            return False  # "3 + 4!", "(2n)!", "|x|!": a factorial, not an exclamation
        return token.text == "." or set(token.text) <= {"?", "!"}

    def run(self) -> frozenset[int]:
        for index in range(self.size):
            if self.starts_clause(index):
                self.sentence_openers(index)
        for index in range(self.size):
            if index in self.neutral:
                continue
            if self.word(index) in _THANKS_FIRST:
                self.inner_thanks(index)
            if index not in self.neutral and self.word(index) == "please":
                self.inner_please(index)
        words = [i for i, t in enumerate(self.tokens) if t.kind != "punct"]
        if words and all(i in self.neutral for i in words):
            self.neutral.clear()  # the filler is the request ("Thanks!")
        self.final_punctuation()
        return frozenset(self.neutral)


def neutral_indexes(tokens: Sequence[Token]) -> frozenset[int]:
    """Indexes of the meaning-neutral tokens among ``tokens`` (a whole request's tokens)."""
    return _Marker(tokens).run()


def factorial_mark(tokens: Sequence[Token], index: int) -> bool:
    """Whether ``tokens[index]`` is a "!" that reads as a factorial: written against (no space)
    a number, a power ("3\u00b2"), a closing bracket or bar ("(2n)", "|x|", a floor or
    ceiling), or a variable of a request that writes mathematics ("Let n = 5. What is n!";
    "Solve for x!" alone is an exclamation). Such a mark is meaning, never punctuation.

    Example:
        >>> from stepcache_integrations.core.text.tokens import tokenise
        >>> tokens = tokenise("What is 3 + 4!")
        >>> factorial_mark(tokens, len(tokens) - 1)
        True
        >>> tokens = tokenise("Solve for x!")
        >>> factorial_mark(tokens, len(tokens) - 1)
        False
    """
    if not 0 < index < len(tokens):
        return False
    mark, before = tokens[index], tokens[index - 1]
    if mark.kind != "punct" or "!" not in mark.text or before.end != mark.start:
        return False
    last = before.text[-1:]
    if before.kind == "number" or last in _CLOSERS or last in _SUPERSCRIPTS:
        return True
    if before.kind == "code" and before.text[:1].isdigit():
        return True
    return len(before.text) == 1 and before.text.isalpha() and _writes_mathematics(tokens)


def _writes_mathematics(tokens: Sequence[Token]) -> bool:
    """Whether a request has a number and an operator or an equals sign of its own."""
    marks = {token.text for token in tokens if token.kind == "punct"}
    return bool(marks & _OPERATORS) and any(token.kind == "number" for token in tokens)
