"""The arithmetic written in one step of an answer: its numbers and its equations.

A step such as ``Step 2: She sells 24 * 3/4 = 18 rolls, so 24 - 18 = 6 are left.`` is read
into *mentions* (every number written in it, in digits or in words, with its exact value and
the span to rewrite) and *equations* (``24 * 3/4 = 18``: expression trees over mentions,
``=`` or ``\u2248``). The usual signs are read (``*``, ``x``, ``\u00d7``, ``\u00f7``,
``\u2212``...). Units between a number and an operator are skipped (``24 rolls * 3/4``),
``of`` after a fraction or a percentage multiplies (``25% of 80``), and step labels
(``Step 2:``, ``2.``) are not numbers of the step.

Everything here is exact (``Fraction``), linear in the step's length, and never raises for any
text: what cannot be read is reported (``unreadable``), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from stepcache_integrations.core.text.memo import text_memo
from stepcache_integrations.core.text.quantities import Quantity, read_quantities

__all__ = [
    "BinOp",
    "Equation",
    "Leaf",
    "Mention",
    "Neg",
    "Node",
    "StepMath",
    "equation_spans",
    "evaluate",
    "format_decimal",
    "leaves",
    "operations",
    "read_step",
    "restated_by_annotations",
]

MentionForm = Literal["digits", "percent", "fraction", "mixed", "words"]


@dataclass(frozen=True)
class Mention:
    """One number written in a step.

    ``value`` is what it counts for in arithmetic (``25%`` is ``1/4``); ``start``/``end`` span
    the part a rewrite replaces (the digits of ``$7.50``, without the sign or the ``%``; the
    whole words of ``three quarters``). ``decimals`` and ``grouped`` say how digits were
    written (``7.50``: 2 decimals; ``1,200``: grouped); ``kind`` is the quantity reader's kind
    for words (``fraction``, ``multiplier``...) and ``number`` for digits.
    """

    start: int
    end: int
    value: Fraction
    form: MentionForm
    text: str
    unit: str | None
    decimals: int = 0
    grouped: bool = False
    kind: str = "number"
    negative: bool = False  # a minus sign glued before it, not between two operands ("-6")
    heading: bool = False  # indexes rather than counts ("Part 2:", "in round 3")
    #: ``value`` counts units of ``scale`` ("5 dozen": 5 of 12, "1.5 million").
    scale: int = 1
    #: A fraction written in figures ("3/4", "24/4"): its numerator and denominator as
    #: written; a mixed number ("2 1/2") also has its whole part.
    numerator: int = 0
    denominator: int = 0
    whole: int = 0


@dataclass(frozen=True)
class Leaf:
    """A number of the step: the mention at ``index``."""

    index: int


@dataclass(frozen=True)
class Neg:
    operand: Node


@dataclass(frozen=True)
class BinOp:
    """``left op right`` with ``op`` one of ``+ - * /``."""

    op: str
    left: Node
    right: Node


Node = Leaf | Neg | BinOp


@dataclass(frozen=True)
class Equation:
    """``sides[0] = sides[1] = ...``; ``approximate`` when written with ``≈``."""

    sides: tuple[Node, ...]
    approximate: bool
    text: str


@dataclass(frozen=True)
class StepMath:
    """The numbers and equations of one step.

    ``mentions`` are in text order; ``equations`` in text order; ``in_equation`` holds the
    indices of mentions that are part of an equation. ``unreadable`` names what could not be
    read (a number glued to letters, a run with ``=`` that does not parse as arithmetic).
    """

    mentions: tuple[Mention, ...]
    equations: tuple[Equation, ...]
    in_equation: frozenset[int]
    unreadable: tuple[str, ...]


# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------

# Step labels: "Step 2:", "2.", "2)" at the start of a line; markdown bullets and headings.
_LABEL = re.compile(
    r"(?im)^[ \t>]*(?:[-*•][ \t]+)?(?:#{1,6}[ \t]+)?[*_]{0,2}"
    r"(?:step[ \t]+\d{1,4}[*_]{0,2}[ \t]*[:.)\-]|\d{1,4}[.)](?=[ \t]))"
    # A bullet alone ("- $6000 - $3100 = $2900"): no minus sign.
    r"|^[ \t>]*[-*•](?=[ \t])"
)
# Numbers that index rather than count: "Part 2:" at the start of a line (after a step label
# or not), "in round 2", "day 3 of". They may be labels, or a quantity of the request.
_HEADING = re.compile(
    r"(?im)^[ \t>*#-]*(?:step[ \t]+\d{1,4}[ \t]*[:.)\-][ \t]*)?[*_]{0,2}[a-z]+[ \t]+"
    r"(\d{1,4})[ \t]*[*_]{0,2}[:.)](?!\d)"
)
_INDEX = re.compile(
    r"(?i)\b(?:round|week|day|month|year|step|part|level|stage|phase|row|box|item|page|"
    r"chapter|question|problem|case|lap|turn|game|floor|room|table|group|team|number|no\.)"
    r"[ \t]+(\d{1,4})\b"
)
_OPERATORS = {
    "+": "+",
    "-": "-",
    "\u2212": "-",
    "\u2013": "-",
    "*": "*",
    "\u00d7": "*",
    "\u22c5": "*",
    "\u00b7": "*",
    "/": "/",
    "\u00f7": "/",
    "\u2215": "/",
}
_TOKEN = re.compile(
    # A rate's unit is one word ("km/h", "$12/game": per game), and so is a hyphenated one
    # ("pull-ups").
    r"(?P<word>/?[^\W\d_]+(?:[-/][^\W\d_]+)*)"
    r"|(?P<eq>=|\u2248)"
    r"|(?P<op>[-+*/\u2212\u2013\u00d7\u22c5\u00b7\u00f7\u2215])"
    r"|(?P<lp>\()|(?P<rp>\))"
    r"|(?P<brk>[\n,;:!?]|\.(?!\d))"
    r"|(?P<space>\s+)"
    r"|(?P<other>.)",
    re.DOTALL,
)
_MAX_UNIT_WORDS = 3  # "24 red rolls * 3/4": words skipped between a number and an operator
_CURRENCY = "$\u20ac\u00a3"
_APOSTROPHES = ("'", "\u2019")


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # num | word | x | eq | op | lp | rp | brk | other
    text: str
    start: int
    end: int
    mention: int = -1  # for num


def _mention(text: str, quantity: Quantity, heading: bool) -> Mention:
    """The mention of one quantity the reader found in a step."""
    unit = None if quantity.unit == "x" else quantity.unit  # "2 x $26": a sign, not a unit
    if quantity.figures is None or quantity.form == "words":
        return Mention(
            quantity.start,
            quantity.end,
            quantity.value,
            "words",
            quantity.text,
            unit,
            kind=quantity.kind,
        )
    start, end = quantity.figures
    written = text[start:end]
    negative = quantity.value < 0 and quantity.form == "digits"
    percent = quantity.kind == "percent"
    value = abs(quantity.value) if negative else quantity.value
    value = value * 100 if percent else value
    value = value / quantity.scale  # the figures' own value: "5 dozen" writes 5
    numerator = denominator = whole = 0
    form: MentionForm = "percent" if percent else "digits"
    if quantity.form in ("fraction", "mixed") and not percent:
        head, _, tail = written.rpartition(" ")
        top, _, bottom = tail.partition("/")
        numerator, denominator = int(top.replace(",", "")), int(bottom.replace(",", ""))
        whole = int(head.replace(",", "")) if head else 0
        form = "mixed" if head else "fraction"
    return Mention(
        start,
        end,
        value / 100 if percent else value,
        form,
        written,
        unit,
        quantity.decimals,
        quantity.grouped,
        negative=negative and _unary_minus_before(text, start),
        heading=heading,
        scale=quantity.scale,
        numerator=numerator,
        denominator=denominator,
        whole=whole,
    )


def _read_spans(text: str, found: dict[int, tuple[Quantity, int]]) -> list[tuple[int, int]]:
    """Where the reader read a number: the step's quantities, and its ordinals (read, and
    no number of the step: "on his 13th birthday")."""
    covered = [(begin, q.end) for begin, (q, _) in found.items()]
    return covered + [(q.start, q.end) for q in read_quantities(text) if q.kind == "ordinal"]


def _mentions_and_tokens(text: str) -> tuple[list[Mention], list[_Tok], list[str]]:
    labels = [(m.start(), m.end()) for m in _LABEL.finditer(text)]
    headings = {m.start(1) for m in _HEADING.finditer(text)}
    headings |= {m.start(1) for m in _INDEX.finditer(text)}
    # Every number comes from the one reader; ordinals are not quantities of a step ("the
    # third day"), and a label's number ("Step 2:") numbers the answer.
    found: dict[int, tuple[Quantity, int]] = {}
    for quantity in read_quantities(text):
        if quantity.kind == "ordinal" or any(a <= quantity.start < b for a, b in labels):
            continue
        first = quantity.figures[0] if quantity.figures is not None else quantity.start
        # A sign glued before the figures is an operator token of its own ("= -6").
        begin = first if quantity.value < 0 and quantity.form == "digits" else quantity.start
        found[begin] = (quantity, first)
    covered = _read_spans(text, found)
    mentions: list[Mention] = []
    tokens: list[_Tok] = []
    unreadable: list[str] = []
    pos, n = 0, len(text)
    label_at = {start: end for start, end in labels}
    while pos < n:
        if pos in label_at:
            pos = label_at[pos]
            tokens.append(_Tok("brk", "", pos, pos))
            continue
        at = found.get(pos)
        if at is not None:
            quantity, first = at
            mentions.append(_mention(text, quantity, first in headings))
            tokens.append(_Tok("num", quantity.text, pos, quantity.end, len(mentions) - 1))
            pos = quantity.end
            continue
        if _currency_before_number(text, pos, found):
            # "$38 -$15", "$20/$4": the sign of a number read from its figures, after an
            # operator: part of the number, not a mark that ends the calculation.
            pos += 1
            continue
        if text[pos].isdigit():
            # Closed world: a digit the reader reads as no quantity ("3x", "4b", "3rd", "1.2.3")
            # is never passed over as if it were not there.
            end = pos
            while end < n and (text[end].isalnum() or text[end] in "._,/"):
                end += 1
            shown = text[pos:end].rstrip("._,/")
            if not any(a <= pos < b for a, b in covered):
                unreadable.append(f"'{shown}' is a number the reader does not read")
            tokens.append(_Tok("other", shown, pos, end))
            pos = end
            continue
        match = _TOKEN.match(text, pos)
        assert match is not None  # the last alternative matches any character
        kind = match.lastgroup or "other"
        value_text = match.group()
        start, pos = pos, match.end()
        if kind == "space":
            if "\n" in value_text:
                tokens.append(_Tok("brk", "\n", start, pos))
            continue
        if kind == "op":
            tokens.append(_Tok("op", _OPERATORS[value_text], start, pos))
        elif kind == "word" and value_text.lower() == "x":
            tokens.append(_Tok("x", value_text, start, pos))
        else:
            low = value_text.lower() if kind == "word" else value_text
            tokens.append(_Tok(kind, low, start, pos))
    return mentions, _annotations_aside(text, tokens), unreadable


# A calculator annotation ("48/2 = <<48/2=24>>24", GSM8K's layout): a calculation of its own
# inside the sentence that writes it again.
_ANNOTATION = re.compile(r"<<[^<>\n]{1,200}>>")


def _annotations_aside(text: str, tokens: list[_Tok]) -> list[_Tok]:
    """The tokens with each annotation's moved after the sentence's, between breaks: the
    sentence reads "48/2 = 24" around it, and the annotation "48/2=24" on its own. The
    brackets, and a currency sign right before them ("$<<12/60=0.2>>0.2"), are dropped."""
    spans = [(m.start(), m.end()) for m in _ANNOTATION.finditer(text)]
    if not spans:
        return tokens
    main: list[_Tok] = []
    aside: list[list[_Tok]] = [[] for _ in spans]
    for tok in tokens:
        inside = next((k for k, (a, b) in enumerate(spans) if a <= tok.start < b), None)
        if inside is None:
            if (
                tok.kind == "other"
                and tok.text in "$\u20ac\u00a3"
                and any(text.startswith("<<", tok.end) and tok.end == a for a, _ in spans)
            ):
                continue
            main.append(tok)
            continue
        start, end = spans[inside]
        if tok.kind == "other" and (tok.start < start + 2 or tok.start >= end - 2):
            continue  # "<<" and ">>"
        aside[inside].append(tok)
    out = main
    for part in aside:
        out = [*out, _Tok("brk", "", len(text), len(text)), *part]
    return [*out, _Tok("brk", "", len(text), len(text))]


# ---------------------------------------------------------------------------------------------
# Runs of arithmetic and their parse
# ---------------------------------------------------------------------------------------------


def _unary_minus_before(text: str, pos: int) -> bool:
    """A minus glued before ``pos`` that is a sign, not a subtraction ("#### -6", "is -6")."""
    if pos == 0 or text[pos - 1] not in "-\u2212":
        return False
    before = text[: pos - 1].rstrip(" \t*#")
    return not before or not (before[-1].isalnum() or before[-1] in ")%")


def _runs(tokens: list[_Tok]) -> list[list[_Tok]]:
    """Maximal stretches of arithmetic: operands, operators, parentheses, ``=``, ``of`` and the
    unit words between an operand and an operator; ``x`` between two operands multiplies."""
    runs: list[list[_Tok]] = []
    current: list[_Tok] = []

    def close() -> None:
        if current:
            runs.append(list(current))
            current.clear()

    i = 0
    while i < len(tokens):
        tok = tokens[i]
        prev = current[-1] if current else None
        after_operand = prev is not None and prev.kind in ("num", "rp")
        if tok.kind == "lp" and not _operand_next(tokens, i + 1, sign=True):
            close()  # "(that is ...": a parenthesis of the prose
        elif tok.kind == "rp" and not after_operand:
            close()
        elif _owner_before_operand(tokens, i, prev):
            i += 3  # "8 + Riley's 5": whose the number is, between an operator and it
            continue
        elif tok.kind in ("num", "lp", "rp", "eq", "op"):
            if tok.kind == "eq" and prev is None:
                i += 1
                continue
            current.append(tok)
        elif tok.kind == "x" and after_operand and _operand_next(tokens, i + 1):
            current.append(_Tok("op", "*", tok.start, tok.end))
        elif (
            tok.kind == "word"
            and tok.text == "of"
            and after_operand
            and _operand_next(tokens, i + 1)
        ):
            current.append(_Tok("op", "of", tok.start, tok.end))
        elif tok.kind == "word" and after_operand:
            # Unit words are skipped when an operator, "=" or ")" follows them.
            j = i
            while j < len(tokens) and j - i < _MAX_UNIT_WORDS and tokens[j].kind == "word":
                j += 1
            nxt = tokens[j] if j < len(tokens) else None
            if (
                nxt is not None
                and (nxt.kind in ("op", "eq", "rp") or nxt.kind == "x")
                and (nxt.kind != "x" or _operand_next(tokens, j + 1))
            ):
                i = j
                continue
            close()
        else:
            close()
        i += 1
    close()
    return runs


def _currency_before_number(text: str, pos: int, found: Mapping[int, object]) -> bool:
    """Whether ``text[pos]`` is a currency sign that a number read at ``pos + 1`` follows."""
    return text[pos] in _CURRENCY and pos + 1 in found


def _owner_before_operand(tokens: list[_Tok], i: int, prev: _Tok | None) -> bool:
    """Whether a possessive ("Riley's", "Riley\u2019s") starts at ``i``, after an operator
    ``prev``, and a number follows it: it says whose the operand is ("Ellie's 8 + Riley's 5
    = 13")."""
    found = tokens[i : i + 4]
    return (
        prev is not None
        and prev.kind == "op"
        and len(found) == 4
        and found[0].kind == "word"
        and found[1].kind == "other"
        and found[1].text in _APOSTROPHES
        and found[2].kind == "word"
        and found[2].text == "s"
        and found[3].kind == "num"
        and found[0].end == found[1].start
        and found[1].end == found[2].start
    )


def _operand_next(tokens: list[_Tok], i: int, sign: bool = False) -> bool:
    if i >= len(tokens):
        return False
    tok = tokens[i]
    return tok.kind in ("num", "lp") or (sign and tok.kind == "op" and tok.text == "-")


class _NotArithmetic(Exception):
    """The tokens are not one arithmetic expression."""


class _Parser:
    """expr := term (("+"|"-") term)*; term := factor (("*"|"/"|"of") factor)*;
    factor := "-" factor | "(" expr ")" | number."""

    def __init__(self, tokens: list[_Tok]) -> None:
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    def parse(self) -> Node:
        node = self.expr()
        if self.i != len(self.tokens):
            raise _NotArithmetic("trailing tokens")
        return node

    def peek(self, ahead: int = 0) -> _Tok | None:
        at = self.i + ahead
        return self.tokens[at] if at < len(self.tokens) else None

    def expr(self) -> Node:
        node = self.term()
        while (tok := self.peek()) is not None and tok.kind == "op" and tok.text in "+-":
            self.i += 1
            node = BinOp(tok.text, node, self.term())
        return node

    def term(self) -> Node:
        node = self.factor()
        while (
            (tok := self.peek()) is not None and tok.kind == "op" and tok.text in ("*", "/", "of")
        ):
            self.i += 1
            node = BinOp("*" if tok.text == "of" else tok.text, node, self.factor())
        return node

    def factor(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise _NotArithmetic("missing operand")
        self.i += 1
        if tok.kind == "op" and tok.text == "-":
            return Neg(self.factor())
        if tok.kind == "num":
            leaf = Leaf(tok.mention)
            # "3/4" written tight is one fraction: "24 * 3/4" is 24 * (3/4), not (24 * 3)/4.
            slash, under = self.peek(), self.peek(1)
            if (
                slash is not None
                and under is not None
                and slash.kind == "op"
                and slash.text == "/"
                and under.kind == "num"
                and tok.end == slash.start
                and slash.end == under.start
            ):
                self.i += 2
                return BinOp("/", leaf, Leaf(under.mention))
            return leaf
        if tok.kind == "lp":
            self.depth += 1
            if self.depth > 20:
                raise _NotArithmetic("too deeply nested")
            node = self.expr()
            close = self.peek()
            if close is None or close.kind != "rp":
                raise _NotArithmetic("unclosed parenthesis")
            self.i += 1
            self.depth -= 1
            return node
        raise _NotArithmetic(f"unexpected {tok.text!r}")


def _parse(tokens: list[_Tok]) -> Node | None:
    # Parentheses around the whole run that open or close outside it ("(that is 24 - 18 = 6)").
    while tokens and tokens[0].kind == "lp" and _balance(tokens) > 0:
        tokens = tokens[1:]
    while tokens and tokens[-1].kind == "rp" and _balance(tokens) < 0:
        tokens = tokens[:-1]
    if not tokens:
        return None
    try:
        return _Parser(tokens).parse()
    except _NotArithmetic:
        return None


def _balance(tokens: list[_Tok]) -> int:
    return sum(1 if t.kind == "lp" else -1 if t.kind == "rp" else 0 for t in tokens)


def _equation(text: str, run: list[_Tok]) -> tuple[Equation | None, str | None]:
    """The equation a run writes (``None`` without ``=``), or why it cannot be read."""
    if not any(t.kind == "eq" for t in run):
        return None, None
    sides: list[list[_Tok]] = [[]]
    approximate = False
    for tok in run:
        if tok.kind == "eq":
            approximate = approximate or tok.text == "\u2248"
            sides.append([])
        else:
            sides[-1].append(tok)
    end = len(run)
    while end > 1 and run[end - 1].kind == "rp" and _balance(run[:end]) < 0:
        end -= 1
    shown = " ".join(text[run[0].start : run[end - 1].end].split())
    parsed = [_parse(side) for side in sides]
    if len(parsed) < 2 or any(node is None for node in parsed):
        return None, f"'{shown}' is not arithmetic this verifier can read"
    nodes = tuple(node for node in parsed if node is not None)
    return Equation(nodes, approximate, shown), None


@text_memo(max_chars=400_000)
def read_step(text: str) -> StepMath:
    """The mentions and equations of one step's text (memoised per text).

    Example:
        >>> math = read_step("Step 2: She sells 24 rolls * 3/4 = 18 rolls.")
        >>> [m.text for m in math.mentions], len(math.equations)
        (['24', '3/4', '18'], 1)
    """
    mentions, tokens, unreadable = _mentions_and_tokens(text)
    equations: list[Equation] = []
    in_equation: set[int] = set()
    for run in _runs(tokens):
        equation, problem = _equation(text, run)
        if problem is not None:
            unreadable.append(problem)
            in_equation.update(t.mention for t in run if t.kind == "num")
        if equation is not None:
            equations.append(equation)
            in_equation.update(t.mention for t in run if t.kind == "num")
    return StepMath(tuple(mentions), tuple(equations), frozenset(in_equation), tuple(unreadable))


# ---------------------------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------------------------


def equation_spans(math: StepMath) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each equation of a step, from its first number to its last."""
    out = []
    for equation in math.equations:
        indices = [i for side in equation.sides for i in leaves(side)]
        start = min(math.mentions[i].start for i in indices)
        end = max(math.mentions[i].end for i in indices)
        out.append((start, end))
    return out


@text_memo(max_chars=400_000)
def restated_by_annotations(text: str) -> dict[int, int]:
    """Each number of a calculator annotation that restates the calculation written just
    before it ("4 grades * 3 days/grade = <<4*3=12>>12 days"), mapped to the number it
    restates: the annotation's calculation has the same numbers in the same order as the
    nearest calculation of the sentence that ends before it. The sentence says what each
    number counts ("4 grades"), the annotation does not: it writes the same numbers.

    Example:
        >>> text = "4 grades * 3 days = <<4*3=12>>12 days"
        >>> math = read_step(text)
        >>> {math.mentions[a].text: math.mentions[b].unit
        ...  for a, b in restated_by_annotations(text).items()}
        {'4': 'grades', '3': 'days', '12': 'days'}
    """
    math = read_step(text)
    spans = [(m.start(), m.end()) for m in _ANNOTATION.finditer(text)]
    if not spans:
        return {}

    def inside(index: int) -> tuple[int, int] | None:
        at = math.mentions[index].start
        return next(((a, b) for a, b in spans if a <= at < b), None)

    sentence: list[tuple[int, list[int]]] = []  # (start of the result, leaves)
    annotated: list[tuple[tuple[int, int], list[int]]] = []
    for equation in math.equations:
        found = [leaf for side in equation.sides for leaf in leaves(side)]
        span = inside(found[0]) if found else None
        if span is not None and all(inside(leaf) == span for leaf in found):
            annotated.append((span, found))
        elif found and all(inside(leaf) is None for leaf in found):
            sentence.append((math.mentions[found[0]].start, found))
    twins: dict[int, int] = {}
    for (start, _), found in annotated:
        values = [math.mentions[leaf].value for leaf in found]
        before = [
            written
            for at, written in sentence
            if at < start and [math.mentions[leaf].value for leaf in written] == values
        ]
        if before:
            twins.update(zip(found, before[-1], strict=True))
    return twins


def leaves(node: Node) -> list[int]:
    """The mention indices of an expression, left to right."""
    if isinstance(node, Leaf):
        return [node.index]
    if isinstance(node, Neg):
        return leaves(node.operand)
    return leaves(node.left) + leaves(node.right)


def evaluate(node: Node, value: Callable[[int], Fraction]) -> Fraction:
    """The exact value of ``node`` with ``value(mention index)`` at the leaves
    (``ZeroDivisionError`` on a division by zero)."""
    if isinstance(node, Leaf):
        return value(node.index)
    if isinstance(node, Neg):
        return -evaluate(node.operand, value)
    left = evaluate(node.left, value)
    right = evaluate(node.right, value)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    return left / right


def operations(node: Node) -> list[BinOp]:
    """Every operation of ``node``, innermost first (values a later side may restate)."""
    if isinstance(node, Leaf):
        return []
    if isinstance(node, Neg):
        return operations(node.operand)
    return [*operations(node.left), *operations(node.right), node]


def format_decimal(value: Fraction, decimals: int = 0, grouped: bool = False) -> str | None:
    """``value`` in digits with at least ``decimals`` decimals (more when needed to be exact),
    thousands separators when ``grouped``; ``None`` when no finite decimal is exact.

    Example:
        >>> format_decimal(Fraction(15, 2), 2), format_decimal(Fraction(1, 3))
        ('7.50', None)
    """
    sign = "-" if value < 0 else ""
    value = abs(value)
    den = value.denominator
    places = 0
    while den % 10 == 0 or den % 2 == 0 or den % 5 == 0:
        if den % 10 == 0:
            den //= 10
        elif den % 2 == 0:
            den //= 2
        else:
            den //= 5
        places += 1
    if den != 1:
        return None
    # ``places`` bounds the decimals needed; trim trailing zeros beyond ``decimals``.
    scaled = value.numerator * 10**places // value.denominator
    whole, frac = divmod(scaled, 10**places)
    frac_text = str(frac).rjust(places, "0") if places else ""
    frac_text = frac_text.rstrip("0")
    frac_text = frac_text.ljust(decimals, "0")
    whole_text = f"{whole:,}" if grouped else str(whole)
    return f"{sign}{whole_text}.{frac_text}" if frac_text else f"{sign}{whole_text}"
