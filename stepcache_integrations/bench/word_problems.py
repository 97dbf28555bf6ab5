"""Multi-step arithmetic word problems for the benchmark: templates, their true answers, and
the answers a model writes for them.

Each :class:`WordTemplate` is a short story with named quantities (slots) and a question, and
the calculation that answers it, one binary operation a step (2 to 6 steps). A slot's values
are drawn from a fixed pool and written in digits or in words ("twenty-four", "three quarters",
"twice", "25%" or "twenty-five percent"); a draw is kept only when every step gives a whole,
non-negative count (or whole cents for money), so every variant has one exact true answer.
Each template also has a *twist*: the same story with another question, whose true answer is
another step's value (a semantic change a cache must not answer with the base's answer).

Nothing here calls a model. :func:`solution_lines` writes the correct step-by-step answer (the
oracle), :func:`read_prompt` recognises a template and its values in a prompt (for the
SIMULATED model, which reads the task off the prompt like a model would), and
:func:`final_answer` / :func:`equations_hold` judge an answer by code.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from stepcache_integrations.core.text.quantities import (
    fraction_to_words,
    number_to_words,
    read_quantities,
)

__all__ = [
    "WORD_FORMATS",
    "WORD_PARAPHRASES",
    "WORD_TEMPLATES",
    "Calc",
    "Slot",
    "WordTemplate",
    "ends_with_final_line",
    "equations_hold",
    "final_answer",
    "read_prompt",
    "solution_lines",
    "word_prompt",
]

SlotKind = Literal["count", "fraction", "multiplier", "percent", "money"]
Style = Literal["digits", "words", "either"]
Values = Mapping[str, Fraction]

# Values a base prompt avoids: conversion constants an answer may use on its own.
_COMMON = frozenset(Fraction(n) for n in (0, 1, 7, 12, 24, 52, 60, 100, 365, 1000))


@dataclass(frozen=True)
class Slot:
    """A quantity of a template: its kind, the values it may take, how it is written."""

    name: str
    kind: SlotKind
    pool: tuple[Fraction, ...]
    style: Style = "digits"

    def render(self, value: Fraction, words: bool) -> str:
        """``value`` as the prompt writes it (``words``: in words where the kind allows)."""
        if self.kind == "money":
            return _money(value)
        if self.kind == "fraction":
            if not words:
                return f"{value.numerator}/{value.denominator}"
            if value == Fraction(1, 2):
                return "half"
            return fraction_to_words(value, article=value.numerator == 1)
        if self.kind == "multiplier":
            if words:
                return {2: "twice", 3: "three times", 4: "four times"}[int(value)]
            return f"{int(value)} times"
        if self.kind == "percent":
            number = int(value * 100)
            return f"{number_to_words(number)} percent" if words else f"{number}%"
        return number_to_words(int(value)) if words else str(int(value))


@dataclass(frozen=True)
class Calc:
    """One step: ``name = left op right`` (operands are slot or step names, or integers)."""

    name: str
    left: str
    op: str
    right: str
    label: str


@dataclass(frozen=True)
class WordTemplate:
    """A word problem with its calculation; ``answer`` and ``twist_answer`` name steps."""

    id: str
    story: str
    question: str
    slots: tuple[Slot, ...]
    steps: tuple[Calc, ...]
    answer: str
    twist: str
    twist_answer: str
    money: frozenset[str] = field(default_factory=frozenset)  # steps that are amounts of money

    def values(self, chosen: Values) -> dict[str, Fraction]:
        """Every slot and step value for the slot values ``chosen``
        (``ZeroDivisionError`` if a step divides by zero)."""
        known: dict[str, Fraction] = dict(chosen)
        for calc in self.steps:
            known[calc.name] = _apply(
                calc.op, _operand(calc.left, known), _operand(calc.right, known)
            )
        return known

    def valid(self, chosen: Values) -> bool:
        """Every step gives a non-negative whole count (whole cents for money); the answers
        are positive."""
        try:
            known = self.values(chosen)
        except ZeroDivisionError:
            return False
        for calc in self.steps:
            value = known[calc.name]
            unit = Fraction(1, 100) if calc.name in self.money else Fraction(1)
            if value < 0 or (value / unit).denominator != 1:
                return False
        return known[self.answer] > 0 and known[self.twist_answer] > 0

    def draw(
        self, rng: random.Random, avoid: Sequence[Values] = (), distinct: bool = False
    ) -> dict[str, Fraction]:
        """Random slot values for which :meth:`valid` holds, different from ``avoid``;
        ``distinct``: no two slots or steps share a value, and none is a common conversion
        constant (7, 12, 24, 60, 100...)."""
        for _ in range(20000):
            chosen = {slot.name: rng.choice(slot.pool) for slot in self.slots}
            if not self.valid(chosen) or any(chosen == dict(other) for other in avoid):
                continue
            if distinct and not self._distinct(chosen):
                continue
            return chosen
        raise RuntimeError(f"no valid values for {self.id}")  # a template bug, caught by tests

    def _distinct(self, chosen: Values) -> bool:
        values = list(self.values(chosen).values())
        values += [chosen[s.name] * 100 for s in self.slots if s.kind == "percent"]
        return len(set(values)) == len(values) and not set(values) & _COMMON

    def base_values(self) -> dict[str, Fraction]:
        """The base prompt's values: the first draw of a generator seeded by the id in which
        no two quantities or results coincide (the base prompt is written once; a variant's
        coincidences are left to chance, as in real requests)."""
        return self.draw(random.Random(self.id), distinct=True)

    def slot(self, name: str) -> Slot:
        return next(slot for slot in self.slots if slot.name == name)

    def __post_init__(self) -> None:
        # Both questions tell the whole story: every slot is in the story itself.
        for slot in self.slots:
            if "{" + slot.name + "}" not in self.story:
                raise ValueError(f"{self.id}: slot {slot.name} is not in the story")


WORD_FORMATS: tuple[str, ...] = (
    'Solve it step by step, one line per step in the form "Step N: <calculation> = <result>", '
    'and end with the line "#### <answer>".',
    'Write each step on its own line as "Step N: <calculation> = <result>" and finish with the '
    'line "#### <answer>".',
)
# Paraphrases change only politeness and framing: what a "same request" rule may accept.
WORD_PARAPHRASES: tuple[str, ...] = (
    "Please solve this problem. ",
    "Please help me with this question: ",
    "Here is a word problem for you. ",
    "Could you work this out, please? ",
    "Please answer the following. ",
)


def word_prompt(
    template: WordTemplate,
    chosen: Values,
    words: Mapping[str, bool] | None = None,
    lead: str = "",
    fmt: int = 0,
    twist: bool = False,
) -> str:
    """The prompt for ``template`` with the slot values ``chosen``; ``words`` says which slots
    are written in words (default: the slots whose style is "words")."""
    rendered = {
        slot.name: slot.render(chosen[slot.name], _in_words(slot, words)) for slot in template.slots
    }
    question = template.twist if twist else template.question
    body = _capitalise_sentences(f"{template.story} {question}".format(**rendered))
    return f"{lead}{body} {WORD_FORMATS[fmt]}"


def _in_words(slot: Slot, words: Mapping[str, bool] | None) -> bool:
    if words is not None and slot.name in words:
        return words[slot.name] and slot.kind != "money"
    return slot.style == "words"


def _capitalise_sentences(text: str) -> str:
    return re.sub(r"(^|[.?!]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)


# ---------------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------------

_SYMBOLS = {"+": "+", "-": "-", "*": "\u00d7", "/": "\u00f7"}


def _operand(token: str, known: Mapping[str, Fraction]) -> Fraction:
    return Fraction(int(token)) if token.isdigit() else known[token]


def _apply(op: str, left: Fraction, right: Fraction) -> Fraction:
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    return left / right


def _money(value: Fraction) -> str:
    if value.denominator == 1:
        return f"${value.numerator}"
    cents = value * 100
    if cents.denominator != 1:
        return f"${float(value):.4f}"
    return f"${int(cents) // 100}.{int(cents) % 100:02d}"


def _number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def _shown(template: WordTemplate, name: str, known: Mapping[str, Fraction]) -> str:
    """How the answer writes an operand or a result."""
    if name.isdigit():
        return name
    value = known[name]
    kinds = {slot.name: slot.kind for slot in template.slots}
    kind = kinds.get(name)
    if kind == "money" or name in template.money:
        return _money(value)
    if kind == "percent":
        return f"{_number(value * 100)}%"
    return _number(value)


def solution_lines(
    template: WordTemplate,
    chosen: Values,
    twist: bool = False,
    slip: Callable[[int, Fraction], Fraction] | None = None,
) -> list[str]:
    """The step-by-step answer (``Step k: label: a op b = result`` lines, then ``#### value``).

    ``slip(step index, true result) -> written result`` lets a SIMULATED model make an
    arithmetic slip: the written result is carried into the later steps, as a model would.
    """
    known: dict[str, Fraction] = dict(chosen)
    lines = []
    for k, calc in enumerate(template.steps):
        result = _apply(calc.op, _operand(calc.left, known), _operand(calc.right, known))
        if slip is not None:
            result = slip(k, result)
        left = _shown(template, calc.left, known)
        right = _shown(template, calc.right, known)
        known[calc.name] = result
        shown = _shown(template, calc.name, known)
        lines.append(f"Step {k + 1}: {calc.label}: {left} {_SYMBOLS[calc.op]} {right} = {shown}")
    answer = template.twist_answer if twist else template.answer
    lines.append(f"#### {_shown(template, answer, known)}")
    return lines


# ---------------------------------------------------------------------------------------------
# Reading prompts (for the SIMULATED model) and judging answers
# ---------------------------------------------------------------------------------------------


def _slot_pattern(text: str) -> str:
    """A regex for a template text: literal words (any whitespace, any case at a sentence
    start), each ``{slot}`` a named group."""
    out = []
    for piece in re.split(r"(\{\w+\})", text):
        if piece.startswith("{") and piece.endswith("}"):
            out.append(f"(?P<{piece[1:-1]}>.+?)")
        else:
            out.append(r"\s+".join(re.escape(word) for word in piece.split(" ")))
    return "".join(out)


@functools.cache
def _prompt_patterns() -> tuple[tuple[WordTemplate, bool, re.Pattern[str]], ...]:
    patterns = []
    for template in WORD_TEMPLATES:
        for twist in (False, True):
            question = template.twist if twist else template.question
            text = f"{template.story} {question}"
            patterns.append((template, twist, re.compile(_slot_pattern(text), re.IGNORECASE)))
    return tuple(patterns)


def _slot_value(slot: Slot, text: str) -> Fraction | None:
    if slot.kind == "money":
        match = re.fullmatch(r"\$(\d+(?:\.\d+)?)", text.strip())
        return Fraction(match.group(1)) if match else None
    found = read_quantities(text)
    if len(found) != 1:
        return None
    return found[0].value


def read_prompt(text: str) -> tuple[WordTemplate, dict[str, Fraction], bool] | None:
    """The template, slot values and twist flag of the word problem ``text`` asks, or ``None``.

    Example:
        >>> template = WORD_TEMPLATES[0]
        >>> found = read_prompt(word_prompt(template, template.base_values()))
        >>> found is not None and found[0] is template and found[1] == template.base_values()
        True
    """
    for template, twist, pattern in _prompt_patterns():
        match = pattern.search(text)
        if match is None:
            continue
        chosen: dict[str, Fraction] = {}
        for slot in template.slots:
            value = _slot_value(slot, match.group(slot.name))
            if value is None:
                break
            chosen[slot.name] = value
        else:
            return template, chosen, twist
    return None


_NUMBER = r"-?\$?\d[\d,]*(?:\.\d+)?"
_FINAL = re.compile(rf"####\s*\**\s*({_NUMBER})")
_ANY_NUMBER = re.compile(_NUMBER)


def _number_value(text: str) -> Fraction | None:
    cleaned = text.replace("$", "").replace(",", "")
    try:
        return Fraction(cleaned)
    except (ValueError, ZeroDivisionError):
        return None


def final_answer(answer: str) -> Fraction | None:
    """The number after the last ``####``; without one, the last number of the answer."""
    finals = _FINAL.findall(answer)
    if finals:
        return _number_value(finals[-1])
    numbers = _ANY_NUMBER.findall(answer)
    return _number_value(numbers[-1]) if numbers else None


def ends_with_final_line(answer: str) -> bool:
    """The last non-empty line is ``#### <number>``."""
    lines = [line.strip() for line in answer.strip().splitlines() if line.strip()]
    return bool(lines) and re.fullmatch(rf"####\s*\**\s*{_NUMBER}\s*\**\.?", lines[-1]) is not None


# An independent reader of "calculation = result" (not the cache's own verifier).
_ARITH_CHARS = set("0123456789 .,$%()+-*/x\u00d7\u00f7\u2212\u00b7")


def _arith_suffix(text: str) -> str:
    i = len(text)
    while i > 0 and text[i - 1] in _ARITH_CHARS:
        i -= 1
    return text[i:].strip()


def _arith_prefix(text: str) -> str:
    i = 0
    while i < len(text) and text[i] in _ARITH_CHARS:
        i += 1
    return text[:i].strip().rstrip(".,")


class _Eval:
    """Recursive descent over + - * / ( ) and numbers (``$`` dropped, ``%`` is /100)."""

    _TOKEN = re.compile(r"\s*(\d[\d,]*(?:\.\d+)?%?|[-+*/()x\u00d7\u00f7\u2212\u00b7])")

    def __init__(self, text: str) -> None:
        text = text.replace("$", "")
        self.tokens: list[str] = []
        pos = 0
        while pos < len(text.rstrip()):
            match = self._TOKEN.match(text, pos)
            if match is None:
                raise ValueError(f"cannot read {text!r}")
            self.tokens.append(match.group(1))
            pos = match.end()
        self.i = 0

    def value(self) -> Fraction:
        result = self._expr()
        if self.i != len(self.tokens):
            raise ValueError("trailing tokens")
        return result

    def _peek(self) -> str:
        return self.tokens[self.i] if self.i < len(self.tokens) else ""

    def _expr(self) -> Fraction:
        result = self._term()
        while self._peek() in ("+", "-", "\u2212"):
            op = self.tokens[self.i]
            self.i += 1
            right = self._term()
            result = result + right if op == "+" else result - right
        return result

    def _term(self) -> Fraction:
        result = self._factor()
        while self._peek() in ("*", "/", "x", "\u00d7", "\u00f7", "\u00b7"):
            op = self.tokens[self.i]
            self.i += 1
            right = self._factor()
            result = result / right if op in ("/", "\u00f7") else result * right
        return result

    def _factor(self) -> Fraction:
        token = self._peek()
        self.i += 1
        if token in ("-", "\u2212"):
            return -self._factor()
        if token == "(":
            result = self._expr()
            if self._peek() != ")":
                raise ValueError("unclosed parenthesis")
            self.i += 1
            return result
        if token and token[0].isdigit():
            number = Fraction(token.rstrip("%").replace(",", ""))
            return number / 100 if token.endswith("%") else number
        raise ValueError(f"unexpected {token!r}")


def equations_hold(answer: str) -> bool:
    """Every ``calculation = result`` written in ``answer`` holds exactly."""
    for line in answer.splitlines():
        if "=" not in line:
            continue
        sides = line.split("=")
        texts = [_arith_suffix(sides[0]), *(_arith_prefix(side) for side in sides[1:])]
        if any(not any(ch.isdigit() for ch in text) for text in texts):
            return False
        try:
            values = [_Eval(text).value() for text in texts]
        except (ValueError, ZeroDivisionError):
            return False
        if any(value != values[0] for value in values[1:]):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# The templates
# ---------------------------------------------------------------------------------------------


def _c(name: str, lo: int, hi: int, step: int = 1, style: Style = "digits") -> Slot:
    return Slot(name, "count", tuple(Fraction(n) for n in range(lo, hi + 1, step)), style)


def _f(name: str, *fractions: str, style: Style = "words") -> Slot:
    return Slot(name, "fraction", tuple(Fraction(f) for f in fractions), style)


def _m(name: str, *values: int, style: Style = "words") -> Slot:
    return Slot(name, "multiplier", tuple(Fraction(v) for v in values), style)


def _p(name: str, *percents: int, style: Style = "digits") -> Slot:
    return Slot(name, "percent", tuple(Fraction(p, 100) for p in percents), style)


def _d(name: str, *amounts: str) -> Slot:
    return Slot(name, "money", tuple(Fraction(a) for a in amounts))


def _steps(*specs: str) -> tuple[Calc, ...]:
    """``"name = left op right : label"`` strings."""
    out = []
    for spec in specs:
        formula, label = (part.strip() for part in spec.split(":", 1))
        name, expr = (part.strip() for part in formula.split("=", 1))
        left, op, right = expr.split()
        out.append(Calc(name, left, op, right, label))
    return tuple(out)


_FRACTIONS = ("1/2", "1/4", "3/4", "1/3", "2/3")

WORD_TEMPLATES: tuple[WordTemplate, ...] = (
    WordTemplate(
        "wp01",
        "A baker makes {rolls} rolls. She sells {part} of them and gives {gift} of the rest "
        "to a neighbour.",
        "How many rolls does she have left?",
        (_c("rolls", 12, 96, 12), _f("part", *_FRACTIONS), _c("gift", 2, 9, style="either")),
        _steps(
            "sold = rolls * part : Rolls sold",
            "rest = rolls - sold : Rolls not sold",
            "left = rest - gift : Rolls left",
        ),
        "left",
        "How many rolls does she sell?",
        "sold",
    ),
    WordTemplate(
        "wp02",
        "A library has {shelves} shelves with {books} books on each shelf. It lends out "
        "{monday} books on Monday and {tuesday} books on Tuesday.",
        "How many books are still on the shelves?",
        (_c("shelves", 3, 12), _c("books", 20, 60, 5), _c("monday", 10, 40), _c("tuesday", 5, 30)),
        _steps(
            "total = shelves * books : Books in the library",
            "out = monday + tuesday : Books lent out",
            "still = total - out : Books still on the shelves",
        ),
        "still",
        "How many books does it lend out in total?",
        "out",
    ),
    WordTemplate(
        "wp03",
        "Mia plants {rows} rows of tulips with {per} tulips in each row. {dead} of the tulips "
        "do not bloom.",
        "How many tulips bloom?",
        (_c("rows", 3, 9, style="words"), _c("per", 6, 15), _c("dead", 2, 12, style="either")),
        _steps("total = rows * per : Tulips planted", "bloom = total - dead : Tulips that bloom"),
        "bloom",
        "How many tulips does Mia plant?",
        "total",
    ),
    WordTemplate(
        "wp04",
        "Leo saves {weekly} dollars every week for {weeks} weeks. Then he spends {spent} "
        "dollars on a bike helmet.",
        "How many dollars does he have left?",
        (_c("weekly", 5, 25), _c("weeks", 4, 10, style="words"), _c("spent", 15, 60)),
        _steps("saved = weekly * weeks : Dollars saved", "left = saved - spent : Dollars left"),
        "left",
        "How many dollars does Leo save?",
        "saved",
    ),
    WordTemplate(
        "wp05",
        "A cinema has {rows} rows of {seats} seats. At the evening show {taken} of the seats "
        "are taken.",
        "How many seats are empty?",
        (_c("rows", 8, 20), _c("seats", 10, 30, 2), _p("taken", 20, 25, 40, 50, 60, 75, 80)),
        _steps(
            "total = rows * seats : Seats in the cinema",
            "full = total * taken : Seats taken",
            "empty = total - full : Empty seats",
        ),
        "empty",
        "How many seats are taken?",
        "full",
    ),
    WordTemplate(
        "wp06",
        "Tom has {tom} marbles. Sara has {mult} as many marbles as Tom, and Ravi has {fewer} "
        "fewer marbles than Sara.",
        "How many marbles do they have altogether?",
        (_c("tom", 6, 30), _m("mult", 2, 3, 4), _c("fewer", 3, 15)),
        _steps(
            "sara = tom * mult : Sara's marbles",
            "ravi = sara - fewer : Ravi's marbles",
            "pair = tom + sara : Tom and Sara together",
            "all = pair + ravi : All the marbles",
        ),
        "all",
        "How many marbles does Ravi have?",
        "ravi",
    ),
    WordTemplate(
        "wp07",
        "A bus travels at {speed} kilometres per hour for {hours} hours, then drives {extra} "
        "more kilometres on a country road.",
        "How many kilometres does it travel in total?",
        (_c("speed", 40, 90, 5), _c("hours", 2, 6, style="words"), _c("extra", 10, 50)),
        _steps(
            "motorway = speed * hours : Kilometres on the motorway",
            "total = motorway + extra : Kilometres in total",
        ),
        "total",
        "How many kilometres does it travel before the country road?",
        "motorway",
    ),
    WordTemplate(
        "wp08",
        "A party orders {pizzas} pizzas, each cut into {slices} slices. The guests eat {part} "
        "of all the slices.",
        "How many slices are left over?",
        (_c("pizzas", 3, 12, style="words"), _c("slices", 6, 12, 2), _f("part", *_FRACTIONS)),
        _steps(
            "total = pizzas * slices : Slices in all",
            "eaten = total * part : Slices eaten",
            "left = total - eaten : Slices left over",
        ),
        "left",
        "How many slices do the guests eat?",
        "eaten",
    ),
    WordTemplate(
        "wp09",
        "A notebook costs {price} and a pen costs {pen}. Nora buys {nb} notebooks and {pens} "
        "pens and pays with a {bill} bill.",
        "How much change does she get, in dollars?",
        (
            _d("price", "2", "2.50", "3", "3.50", "4", "4.50"),
            _d("pen", "0.50", "0.75", "1", "1.25", "1.50"),
            _c("nb", 2, 6, style="either"),
            _c("pens", 2, 8),
            _d("bill", "20", "50"),
        ),
        _steps(
            "books = nb * price : Cost of the notebooks",
            "pencost = pens * pen : Cost of the pens",
            "cost = books + pencost : Total cost",
            "change = bill - cost : Change",
        ),
        "change",
        "How much do the notebooks cost, in dollars?",
        "books",
        frozenset({"books", "pencost", "cost", "change"}),
    ),
    WordTemplate(
        "wp10",
        "A farmer has {hens} hens. Each hen lays {eggs} eggs a week. He packs the eggs in "
        "boxes of {box}.",
        "How many full boxes does he fill in a week?",
        (_c("hens", 6, 40), _c("eggs", 3, 6, style="words"), _c("box", 6, 12, 6)),
        _steps("laid = hens * eggs : Eggs laid", "boxes = laid / box : Full boxes"),
        "boxes",
        "How many eggs do the hens lay in a week?",
        "laid",
    ),
    WordTemplate(
        "wp11",
        "A school has {classes} classes of {pupils} pupils. {walk} of the pupils walk to school "
        "and the rest come by bus.",
        "How many pupils come by bus?",
        (
            _c("classes", 4, 12),
            _c("pupils", 20, 30),
            _p("walk", 10, 20, 25, 40, 50, style="either"),
        ),
        _steps(
            "total = classes * pupils : Pupils in the school",
            "walkers = total * walk : Pupils who walk",
            "bus = total - walkers : Pupils who come by bus",
        ),
        "bus",
        "How many pupils walk to school?",
        "walkers",
    ),
    WordTemplate(
        "wp12",
        "Eli needs {cans} cans of paint for a fence and already has {have} cans. Each can costs "
        "{cost}.",
        "How much does he spend on the paint he still needs, in dollars?",
        (
            _c("cans", 6, 15),
            _c("have", 1, 5, style="words"),
            _d("cost", "8", "9.50", "12", "14.25"),
        ),
        _steps("need = cans - have : Cans still needed", "spend = need * cost : Money spent"),
        "spend",
        "How many cans does he still need to buy?",
        "need",
        frozenset({"spend"}),
    ),
    WordTemplate(
        "wp13",
        "Kim runs {laps} laps of a {length} metre track every day for {days} days.",
        "How many metres does she run in total?",
        (_c("laps", 3, 10, style="words"), _c("length", 200, 400, 50), _c("days", 2, 6)),
        _steps("daily = laps * length : Metres a day", "total = daily * days : Metres in total"),
        "total",
        "How many metres does she run each day?",
        "daily",
    ),
    WordTemplate(
        "wp14",
        "A recipe for {serves} people needs {flour} grams of flour. Jo wants to cook for "
        "{guests} people.",
        "How many grams of flour does she need?",
        (_c("serves", 2, 6, style="words"), _c("flour", 120, 600, 30), _c("guests", 3, 12)),
        _steps("per = flour / serves : Grams per person", "need = per * guests : Grams needed"),
        "need",
        "How many grams of flour does the recipe use per person?",
        "per",
    ),
    WordTemplate(
        "wp15",
        "Adult tickets cost {adult} and child tickets cost {child}. A family buys {adults} adult "
        "tickets and {kids} child tickets.",
        "How much do they pay in total, in dollars?",
        (
            _d("adult", "9", "10.50", "12", "13.75", "15"),
            _d("child", "4", "5.50", "6", "7.25"),
            _c("adults", 2, 4, style="words"),
            _c("kids", 2, 6, style="either"),
        ),
        _steps(
            "grown = adults * adult : Adult tickets",
            "young = kids * child : Child tickets",
            "total = grown + young : Total",
        ),
        "total",
        "How much do the child tickets cost together, in dollars?",
        "young",
        frozenset({"grown", "young", "total"}),
    ),
    WordTemplate(
        "wp16",
        "Ivy has {stamps} stamps. She gives {part} of them to her brother and then buys "
        "{bought} new stamps.",
        "How many stamps does she have now?",
        (_c("stamps", 24, 120, 12), _f("part", *_FRACTIONS), _c("bought", 5, 25)),
        _steps(
            "given = stamps * part : Stamps given away",
            "kept = stamps - given : Stamps kept",
            "now = kept + bought : Stamps now",
        ),
        "now",
        "How many stamps does she give to her brother?",
        "given",
    ),
    WordTemplate(
        "wp17",
        "A tank holds {cap} litres of water and is {full} full. A pump adds {rate} litres "
        "every minute for {mins} minutes.",
        "How many litres are in the tank now?",
        (
            _c("cap", 200, 600, 40),
            _f("full", "1/2", "1/4", "1/3"),
            _c("rate", 4, 12),
            _c("mins", 5, 15, style="words"),
        ),
        _steps(
            "start = cap * full : Litres at the start",
            "added = rate * mins : Litres added",
            "now = start + added : Litres now",
        ),
        "now",
        "How many litres does the pump add?",
        "added",
    ),
    WordTemplate(
        "wp18",
        "Sam bakes {trays} trays of {per} cookies. He eats {ate} cookies and packs the rest "
        "equally into {bags} bags.",
        "How many cookies go into each bag?",
        (_c("trays", 2, 6, style="words"), _c("per", 10, 24), _c("ate", 2, 8), _c("bags", 4, 10)),
        _steps(
            "baked = trays * per : Cookies baked",
            "packed = baked - ate : Cookies packed",
            "each = packed / bags : Cookies in each bag",
        ),
        "each",
        "How many cookies does Sam pack?",
        "packed",
    ),
    WordTemplate(
        "wp19",
        "An orchard has {trees} apple trees and each tree gives {apples} apples. {sold} of the "
        "apples go to a shop and the rest are made into juice.",
        "How many apples are made into juice?",
        (_c("trees", 10, 40), _c("apples", 20, 60, 10), _p("sold", 20, 30, 40, 60, 70)),
        _steps(
            "total = trees * apples : Apples picked",
            "shop = total * sold : Apples for the shop",
            "juice = total - shop : Apples made into juice",
        ),
        "juice",
        "How many apples go to the shop?",
        "shop",
    ),
    WordTemplate(
        "wp20",
        "A jacket costs {price}. In a sale the price is cut by {cut}. Ana buys {n} jackets at "
        "the sale price.",
        "How much does she pay, in dollars?",
        (
            _d("price", "40", "60", "80", "120"),
            _p("cut", 10, 20, 25, 30),
            _c("n", 2, 4, style="words"),
        ),
        _steps(
            "off = price * cut : Price cut on one jacket",
            "sale = price - off : Sale price",
            "pay = sale * n : Amount paid",
        ),
        "pay",
        "How much is the price cut on one jacket, in dollars?",
        "off",
        frozenset({"off", "sale", "pay"}),
    ),
    WordTemplate(
        "wp21",
        "A car park has {levels} levels with {spaces} spaces on each level. {full} levels are "
        "completely full and {cars} cars are parked on the other levels.",
        "How many spaces are free?",
        (
            _c("levels", 3, 6),
            _c("spaces", 20, 50, 5),
            _c("full", 1, 2, style="words"),
            _c("cars", 10, 40),
        ),
        _steps(
            "total = levels * spaces : Spaces in the car park",
            "packed = full * spaces : Spaces on the full levels",
            "parked = packed + cars : Cars parked",
            "free = total - parked : Free spaces",
        ),
        "free",
        "How many cars are parked in the car park?",
        "parked",
    ),
    WordTemplate(
        "wp22",
        "Zoe is {zoe} years old. Her mother is {mult} as old as Zoe, and her grandmother is "
        "{gap} years older than her mother.",
        "How old is her grandmother?",
        (_c("zoe", 8, 16), _m("mult", 3, 4), _c("gap", 20, 30)),
        _steps("mother = zoe * mult : Mother's age", "gran = mother + gap : Grandmother's age"),
        "gran",
        "How old is her mother?",
        "mother",
    ),
    WordTemplate(
        "wp23",
        "A machine makes {rate} bolts an hour. It runs for {hours} hours a day, {days} days a "
        "week.",
        "How many bolts does it make in a week?",
        (_c("rate", 30, 90, 5), _c("hours", 6, 10), _c("days", 3, 6, style="words")),
        _steps("daily = rate * hours : Bolts a day", "weekly = daily * days : Bolts a week"),
        "weekly",
        "How many bolts does it make in a day?",
        "daily",
    ),
    WordTemplate(
        "wp24",
        "A band sells {sold} tickets at {price} each. The hall costs {hall} to rent and the "
        "sound crew costs {crew}.",
        "How much money does the band keep, in dollars?",
        (
            _c("sold", 80, 200, 10),
            _d("price", "8", "10", "12.50", "15"),
            _d("hall", "300", "400", "500"),
            _d("crew", "150", "200", "250"),
        ),
        _steps(
            "income = sold * price : Ticket money",
            "costs = hall + crew : Costs",
            "keep = income - costs : Money the band keeps",
        ),
        "keep",
        "How much does the band spend on the hall and the crew, in dollars?",
        "costs",
        frozenset({"income", "costs", "keep"}),
    ),
    WordTemplate(
        "wp25",
        "A puzzle has {pieces} pieces. Lily puts together {part} of the puzzle on Saturday and "
        "{sunday} pieces on Sunday.",
        "How many pieces are still missing?",
        (_c("pieces", 120, 600, 60), _f("part", "1/2", "1/4", "1/3", "1/5"), _c("sunday", 20, 90)),
        _steps(
            "saturday = pieces * part : Pieces on Saturday",
            "done = saturday + sunday : Pieces put together",
            "missing = pieces - done : Pieces missing",
        ),
        "missing",
        "How many pieces does Lily put together over the weekend?",
        "done",
    ),
    WordTemplate(
        "wp26",
        "A book has {pages} pages. Raj reads {per} pages a day for {days} days.",
        "How many pages does he still have to read?",
        (_c("pages", 150, 400, 10), _c("per", 10, 30), _c("days", 3, 9, style="either")),
        _steps("read = per * days : Pages read", "left = pages - read : Pages left"),
        "left",
        "How many pages does Raj read?",
        "read",
    ),
    WordTemplate(
        "wp27",
        "A fruit stand has {crates} crates with {per} oranges in each crate. {bad} oranges are "
        "bad and are thrown away, and the rest are sold in bags of {bag}.",
        "How many bags of oranges can be filled?",
        (
            _c("crates", 3, 9, style="words"),
            _c("per", 20, 40),
            _c("bad", 2, 12),
            _c("bag", 4, 8, 2),
        ),
        _steps(
            "total = crates * per : Oranges in all",
            "good = total - bad : Good oranges",
            "bags = good / bag : Bags filled",
        ),
        "bags",
        "How many good oranges are there?",
        "good",
    ),
    WordTemplate(
        "wp28",
        "A train has {cars} carriages with {seats} seats each. {board} passengers board at the "
        "station and {leave} of them get off at the next stop.",
        "How many empty seats are there after the stop?",
        (
            _c("cars", 4, 10, style="words"),
            _c("seats", 40, 80, 4),
            _c("board", 60, 200),
            _c("leave", 10, 50),
        ),
        _steps(
            "total = cars * seats : Seats on the train",
            "stay = board - leave : Passengers still on board",
            "empty = total - stay : Empty seats",
        ),
        "empty",
        "How many passengers stay on the train after the stop?",
        "stay",
    ),
    WordTemplate(
        "wp29",
        "A gym has {members} members. {monday} of them come on Monday, and {mult} as many come "
        "on Saturday as on Monday.",
        "How many members come on Saturday?",
        (
            _c("members", 100, 400, 20),
            _p("monday", 10, 20, 25, 30, style="either"),
            _m("mult", 2, 3),
        ),
        _steps(
            "mon = members * monday : Members on Monday", "sat = mon * mult : Members on Saturday"
        ),
        "sat",
        "How many members come on Monday?",
        "mon",
    ),
    WordTemplate(
        "wp30",
        "A phone plan costs {base} a month plus {per} for each gigabyte of data. Omar uses {gb} "
        "gigabytes a month and keeps the plan for {months} months.",
        "How much does he pay in total, in dollars?",
        (
            _d("base", "10", "15", "20", "25"),
            _d("per", "2", "2.50", "3", "4"),
            _c("gb", 2, 9),
            _c("months", 2, 6, style="words"),
        ),
        _steps(
            "data = gb * per : Data cost a month",
            "monthly = base + data : Cost a month",
            "total = monthly * months : Total cost",
        ),
        "total",
        "How much does he pay each month, in dollars?",
        "monthly",
        frozenset({"data", "monthly", "total"}),
    ),
    WordTemplate(
        "wp31",
        "Nina has {red} red beads and {blue} blue beads. She uses {part} of all her beads to "
        "make a necklace.",
        "How many beads does she have left?",
        (_c("red", 10, 40, 2), _c("blue", 10, 40, 2), _f("part", *_FRACTIONS)),
        _steps(
            "beads = red + blue : All the beads",
            "used = beads * part : Beads used",
            "left = beads - used : Beads left",
        ),
        "left",
        "How many beads does she use for the necklace?",
        "used",
    ),
    WordTemplate(
        "wp32",
        "A hall has {rows} rows of {chairs} chairs. For a show, {removed} rows are taken out and "
        "{added} chairs are added to each remaining row.",
        "How many chairs are in the hall now?",
        (
            _c("rows", 10, 25),
            _c("chairs", 10, 20),
            _c("removed", 2, 5, style="words"),
            _c("added", 2, 6),
        ),
        _steps(
            "remaining = rows - removed : Rows left",
            "per = chairs + added : Chairs in each row",
            "total = remaining * per : Chairs now",
        ),
        "total",
        "How many rows are left in the hall?",
        "remaining",
    ),
    WordTemplate(
        "wp33",
        "A car uses {per} litres of fuel for every {km} kilometres. It drives {dist} kilometres, "
        "and fuel costs {price} a litre.",
        "How much does the fuel for the trip cost, in dollars?",
        (
            _c("per", 4, 9, style="words"),
            _c("km", 50, 100, 50),
            _c("dist", 200, 800, 50),
            _d("price", "1.50", "1.75", "2"),
        ),
        _steps(
            "legs = dist / km : Stretches driven",
            "fuel = legs * per : Litres of fuel",
            "cost = fuel * price : Cost of the fuel",
        ),
        "cost",
        "How many litres of fuel does the car use?",
        "fuel",
        frozenset({"cost"}),
    ),
    WordTemplate(
        "wp34",
        "A shop receives {boxes} boxes of {per} apples. {bad} apples are bruised and thrown "
        "away. It sells {part} of the good apples on Friday and {sat} apples on Saturday, and "
        "gives {gift} apples to a food bank.",
        "How many apples does the shop have left?",
        (
            _c("boxes", 4, 10),
            _c("per", 20, 30),
            _c("bad", 4, 16, 4, style="words"),
            _f("part", "1/2", "1/4", "1/3"),
            _c("sat", 10, 30),
            _c("gift", 5, 15),
        ),
        _steps(
            "total = boxes * per : Apples received",
            "good = total - bad : Good apples",
            "friday = good * part : Apples sold on Friday",
            "after = good - friday : Apples after Friday",
            "kept = after - sat : Apples after Saturday",
            "left = kept - gift : Apples left",
        ),
        "left",
        "How many apples does the shop sell on Friday?",
        "friday",
    ),
    WordTemplate(
        "wp35",
        "Dev earns {wage} an hour. He works {week} hours on weekdays and {weekend} hours at the "
        "weekend. He pays {tax} of what he earns in tax and {rent} in rent.",
        "How much money does he have left, in dollars?",
        (
            _d("wage", "12", "15", "18", "20"),
            _c("week", 20, 35),
            _c("weekend", 4, 12, style="words"),
            _p("tax", 10, 15, 20, 25),
            _d("rent", "150", "200", "250"),
        ),
        _steps(
            "hours = week + weekend : Hours worked",
            "gross = hours * wage : Earnings",
            "taxed = gross * tax : Tax",
            "net = gross - taxed : Earnings after tax",
            "left = net - rent : Money left",
        ),
        "left",
        "How much tax does he pay, in dollars?",
        "taxed",
        frozenset({"gross", "taxed", "net", "left"}),
    ),
)
