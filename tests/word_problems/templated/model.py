"""How a templated family is written down, solved, and answered by the oracle.

A :class:`Family` is a story template with slots (people, things, quantities), its
solution as a chain of steps (each a sentence and an arithmetic expression over the slots
and the earlier steps), an independent solution function (``solve``: the final number from
the slot values alone, which the corpus checks the chain against), paraphrases of the story,
and :class:`Change` templates that change the computation. The oracle's answer is rendered
from the chain in the family's :class:`Style`, so it is right for every variant, and alike
across the variants of one family (quantities are written by value, never by the request's
notation: "three quarters" and "3/4" get the same answer).

A step is ``"prose | expression | kind"`` (optionally ``| unit``), or ``"prose"`` alone for a
sentence without arithmetic. Expressions use the slot names, the earlier steps ``s1``,
``s2``, ..., numbers, ``+ - * / ( )``, a postfix ``%`` (a percentage: ``p% * n``), and
``ceil(...)``/``floor(...)`` at the top of a step. ``n[{T.many}]`` gives an operand a unit
that styles with units in their equations write ("3 kayaks × $12 per kayak").

>>> chain = parse("n[{T.many}] * p")
>>> evaluate(chain, {"n": Fraction(3), "p": Fraction(12)})
Fraction(36, 1)
"""

# The oracle writes the multiplication sign as chat models do: the ambiguous-character
# rule does not apply.
# ruff: noqa: RUF001, RUF002

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tests.word_problems.templated import notation
from tests.word_problems.templated.notation import canonical, decimal, is_terminating, words

__all__ = [
    "PERSON",
    "Change",
    "Derived",
    "Family",
    "PersonSlot",
    "Quantity",
    "Rendered",
    "Style",
    "Values",
    "WordSlot",
    "count",
    "dec",
    "evaluate",
    "frac",
    "mixed",
    "money",
    "parse",
    "pct",
    "render_answer",
    "thing",
]

KINDS = ("count", "money", "number", "fraction", "percent", "decimal", "mixed")


# -- slots ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PersonSlot:
    """A person (distinct from every other person slot)."""


@dataclass(frozen=True)
class WordSlot:
    """A thing, craft or place of one lexicon category."""

    category: str


@dataclass(frozen=True)
class Quantity:
    """A quantity of ``kind`` (see ``notation.NOTATIONS``) drawn from ``values``."""

    kind: str
    values: tuple[Fraction, ...]


@dataclass(frozen=True)
class Derived:
    """A quantity the request states that follows from the others (``expr``), so that a
    reversed question has a whole answer."""

    expr: str
    kind: str


Slot = PersonSlot | WordSlot | Quantity
PERSON = PersonSlot()


def thing(category: str) -> WordSlot:
    return WordSlot(category)


def _span(lo: object, hi: object, step: object) -> tuple[Fraction, ...]:
    low, high, by = Fraction(str(lo)), Fraction(str(hi)), Fraction(str(step))
    found = []
    value = low
    while value <= high:
        found.append(value)
        value += by
    return tuple(found)


def count(lo: int, hi: int, step: int = 1) -> Quantity:
    return Quantity("count", _span(lo, hi, step))


def money(lo: object, hi: object, step: object = 1) -> Quantity:
    return Quantity("money", _span(lo, hi, step))


def frac(*values: str) -> Quantity:
    return Quantity("fraction", tuple(Fraction(v) for v in values))


def pct(lo: int, hi: int, step: int = 5) -> Quantity:
    return Quantity("percent", _span(lo, hi, step))


def dec(lo: object, hi: object, step: object) -> Quantity:
    return Quantity("decimal", _span(lo, hi, step))


def mixed(lo: object, hi: object, step: object) -> Quantity:
    return Quantity("mixed", _span(lo, hi, step))


class Values:
    """Slot values by attribute, for solution functions: ``v.n * v.p``."""

    def __init__(self, values: Mapping[str, Fraction]) -> None:
        self._values = dict(values)

    def __getattr__(self, name: str) -> Fraction:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None


Steps = list[str] | Callable[[Values], list[str]]


@dataclass(frozen=True)
class Change:
    """A variant template that changes the computation: ``kind`` is ``added_step``,
    ``reversed``, ``operation``, ``target``, ``roles`` or ``branch`` (the same template, with
    values that take another branch of a condition)."""

    kind: str
    text: str
    steps: Steps
    solve: Callable[[Values], Fraction]
    slots: dict[str, Slot] = field(default_factory=dict)
    derived: dict[str, Derived] = field(default_factory=dict)
    when: Callable[[Values], bool] | None = None
    # What the base's computation gives on these values (default: the family's ``solve``);
    # a ``branch`` change gives the base's branch here.
    stale: Callable[[Values], Fraction] | None = None
    # The base's final number may be right on these values and only its sentences wrong (a
    # condition in prose that flips): the corpus then does not require the numbers to differ.
    same_number: bool = False


@dataclass(frozen=True)
class Family:
    """One templated word problem and its variants' templates."""

    id: str
    topic: str
    slots: dict[str, Slot]
    text: str
    paraphrases: tuple[str, ...]
    steps: Steps
    solve: Callable[[Values], Fraction]
    changes: tuple[Change, ...]
    derived: dict[str, Derived] = field(default_factory=dict)
    when: Callable[[Values], bool] | None = None
    style: str | None = None


# -- expressions ----------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_]\w*)|(\[[^\]]*\])|([-+*/()%]))")


@dataclass(frozen=True)
class Num:
    value: Fraction
    text: str
    unit: str = ""


@dataclass(frozen=True)
class Ref:
    name: str
    unit: str = ""


@dataclass(frozen=True)
class Pct:
    inner: Node


@dataclass(frozen=True)
class Bin:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Paren:
    inner: Node


@dataclass(frozen=True)
class Call:
    fn: str
    arg: Node


Node = Num | Ref | Pct | Bin | Paren | Call


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            match = _TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                raise ValueError(f"cannot read {text[pos:]!r} in {text!r}")
            number, name, unit, op = match.groups()
            if number is not None:
                self.tokens.append(("num", number))
            elif name is not None:
                self.tokens.append(("name", name))
            elif unit is not None:
                self.tokens.append(("unit", unit[1:-1]))
            else:
                self.tokens.append(("op", op))
            pos = match.end()
        self.at = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expr(self) -> Node:
        node = self.term()
        while (token := self.peek()) is not None and token[1] in ("+", "-"):
            self.take()
            node = Bin(token[1], node, self.term())
        return node

    def term(self) -> Node:
        node = self.factor()
        while (token := self.peek()) is not None and token[1] in ("*", "/"):
            self.take()
            node = Bin(token[1], node, self.factor())
        return node

    def factor(self) -> Node:
        node = self.atom()
        if (token := self.peek()) is not None and token == ("op", "%"):
            self.take()
            node = Pct(node)
        return node

    def unit(self) -> str:
        token = self.peek()
        if token is not None and token[0] == "unit":
            self.take()
            return token[1]
        return ""

    def atom(self) -> Node:
        kind, text = self.take()
        if kind == "num":
            return Num(Fraction(text), text, self.unit())
        if kind == "name":
            if text in ("ceil", "floor"):
                if self.take() != ("op", "("):
                    raise ValueError(f"{text} needs parentheses")
                inner = self.expr()
                if self.take() != ("op", ")"):
                    raise ValueError("unclosed parenthesis")
                return Call(text, inner)
            return Ref(text, self.unit())
        if (kind, text) == ("op", "("):
            inner = self.expr()
            if self.take() != ("op", ")"):
                raise ValueError("unclosed parenthesis")
            return Paren(inner)
        raise ValueError(f"unexpected {text!r}")


def parse(text: str) -> Node:
    """The expression tree of ``text``."""
    parser = _Parser(text)
    node = parser.expr()
    if parser.peek() is not None:
        raise ValueError(f"trailing {parser.peek()!r} in {text!r}")
    return node


def evaluate(node: Node, env: Mapping[str, Fraction]) -> Fraction:
    """The exact value of ``node`` with the names in ``env``."""
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Ref):
        return env[node.name]
    if isinstance(node, Pct):
        return evaluate(node.inner, env) / 100
    if isinstance(node, Paren):
        return evaluate(node.inner, env)
    if isinstance(node, Call):
        value = evaluate(node.arg, env)
        whole = value.numerator // value.denominator
        if node.fn == "floor":
            return Fraction(whole)
        return Fraction(whole if value.denominator == 1 else whole + 1)
    left, right = evaluate(node.left, env), evaluate(node.right, env)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    if right == 0:
        raise ZeroDivisionError("division by zero in a step")
    return left / right


# -- styles ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """How one family's answers are written (every variant of a family alike)."""

    name: str
    layout: str  # step | numbered | bullets | bold | paragraph | lines
    joiner: str = ": "  # between a step's sentence and its equation
    mul: str = "×"
    div: str = "÷"
    intro: str = ""
    final: str = "The answer is {v}."  # {v}: the value; {vu}: the value and its unit
    bare_final: bool = False  # the final value without "$" (and {vu} without unit)
    # "$12.00" rather than "$12": set for every family whose amounts are not all whole dollars
    # (the corpus builder does), so that one family writes money one way.
    cents: bool = False
    percent_as: str = "sign"  # sign ("25%") | decimal ("0.25") | over100 ("25/100")
    fraction_as: str = "slash"  # slash ("3/4") | decimal ("0.75")
    prose_words: bool = False  # counts in words in the sentences (every count: one style)
    units: bool = False  # operand units in the equations
    result_units: bool = False  # "= 36 kayaks"


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("steps", "step", final="The answer is {v}."),
        Style("gsm", "lines", joiner=": ", mul="*", div="/", final="#### {v}", bare_final=True),
        Style("numbered", "numbered", final="**{vu}**", result_units=True, prose_words=True),
        Style(
            "bullets",
            "bullets",
            joiner=" → ",
            intro="Here is the working:",
            final="Answer: {v}",
            percent_as="decimal",
        ),
        Style(
            "paragraph",
            "paragraph",
            joiner=", so ",
            mul="*",
            final="So the answer is {vu}.",
            prose_words=True,
            percent_as="over100",
        ),
        Style(
            "bold",
            "bold",
            intro="Let's solve this step by step.",
            final="Final answer: {vu}",
            units=True,
            result_units=True,
        ),
        Style(
            "plain", "lines", joiner=". ", mul="x", div="/", final="The answer is {v}.", cents=True
        ),
        Style(
            "tutor",
            "step",
            joiner=", which gives ",
            intro="Let's break it down.",
            final="Therefore, the answer is {vu}.",
            prose_words=True,
            fraction_as="decimal",
            percent_as="decimal",
        ),
        Style(
            "compact",
            "numbered",
            joiner=": ",
            mul="*",
            div="/",
            final="#### {v}",
            bare_final=True,
            percent_as="over100",
        ),
        Style(
            "units",
            "bullets",
            joiner=": ",
            final="**{vu}**",
            units=True,
            result_units=True,
            cents=True,
        ),
    )
}
STYLE_ORDER = tuple(STYLES)


# -- rendering ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rendered:
    """The oracle's answer to one variant: its text, the final value, the equations it
    writes (each an exact substring of the text) and every step's value."""

    text: str
    value: Fraction
    equations: tuple[str, ...]
    results: dict[str, Fraction]


@dataclass(frozen=True)
class _Step:
    prose: str
    expr: Node | None
    kind: str
    unit: str


def _steps(spec: Steps, values: Values) -> list[_Step]:
    lines = spec(values) if callable(spec) else spec
    found = []
    for line in lines:
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) == 1:
            found.append(_Step(parts[0], None, "", ""))
            continue
        if len(parts) not in (3, 4) or parts[2] not in KINDS:
            raise ValueError(f"a step is 'prose | expr | kind [| unit]', got {line!r}")
        found.append(
            _Step(parts[0], parse(parts[1]), parts[2], parts[3] if len(parts) == 4 else "")
        )
    return found


def write_value(kind: str, value: Fraction, style: Style, prose: bool = False) -> str:
    """``value`` of ``kind`` as the oracle writes it (``prose``: in a sentence)."""
    if kind == "count":
        if value.denominator != 1:
            raise ValueError(f"a count must be whole, got {value}")
        n = value.numerator
        return words(n) if prose and style.prose_words else str(n)
    if kind == "money":
        return notation.money(value, style.cents)
    if kind == "percent":
        return f"{canonical(value)}%"
    if kind == "fraction":
        if style.fraction_as == "decimal" and is_terminating(value) and not prose:
            return decimal(value)
        return f"{value.numerator}/{value.denominator}"
    if kind == "mixed" and prose and value.denominator != 1 and value > 1:
        return notation.write("mixed", value, "mixed")
    return canonical(value)


class _Writer:
    def __init__(self, style: Style, kinds: Mapping[str, str], env: Mapping[str, Fraction]):
        self.style, self.kinds, self.env = style, kinds, env
        self.words: dict[str, Any] = {}
        self.percent_step = False

    def unit(self, template: str) -> str:
        return template.format(**self.words) if template else ""

    def operand(self, node: Num | Ref) -> str:
        if isinstance(node, Num):
            # In a step that computes a percentage, its numbers are percentages too
            # ("100% - 40% = 60%").
            text = f"{node.text}%" if self.percent_step else node.text
        else:
            text = write_value(self.kinds[node.name], self.env[node.name], self.style)
        if self.style.units and node.unit:
            unit = self.unit(node.unit)
            text = f"{text}{unit}" if unit.startswith("/") else f"{text} {unit}"
        return text

    def percent(self, node: Node) -> str:
        if isinstance(node, Num):
            value = node.value
        elif isinstance(node, Ref):
            value = self.env[node.name]
        else:
            raise ValueError("a percentage applies to a number or a name")
        if self.style.percent_as == "decimal":
            return canonical(value / 100)
        if self.style.percent_as == "over100":
            return f"{canonical(value)}/100"
        return f"{canonical(value)}%"

    def expr(self, node: Node, right_of_div: bool = False) -> str:
        if isinstance(node, Num | Ref):
            text = self.operand(node)
            return f"({text})" if right_of_div and "/" in text else text
        if isinstance(node, Pct):
            text = self.percent(node.inner)
            return f"({text})" if right_of_div and "/" in text else text
        if isinstance(node, Paren):
            return f"({self.expr(node.inner)})"
        if isinstance(node, Call):
            raise ValueError("ceil/floor only at the top of a step")
        symbol = {"*": self.style.mul, "/": self.style.div}.get(node.op, node.op)
        left = self.expr(node.left)
        right = self.expr(node.right, right_of_div=node.op == "/")
        return f"{left} {symbol} {right}"


def _fill(template: str, words_env: Mapping[str, Any]) -> str:
    return template.format(**words_env)


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def render_answer(
    style: Style,
    steps: Steps,
    words_env: Mapping[str, Any],
    values: Mapping[str, Fraction],
    kinds: Mapping[str, str],
) -> Rendered:
    """The oracle's step-by-step answer: ``words_env`` fills the sentences (people, things),
    ``values``/``kinds`` are the quantities."""
    env: dict[str, Fraction] = dict(values)
    all_kinds: dict[str, str] = dict(kinds)
    prose_env: dict[str, Any] = dict(words_env)
    for name, value in values.items():
        prose_env[name] = write_value(kinds[name], value, style, prose=True)
    writer = _Writer(style, all_kinds, env)
    writer.words = dict(words_env)
    bodies: list[str] = []
    equations: list[str] = []
    results: dict[str, Fraction] = {}
    last: _Step | None = None
    last_value: Fraction | None = None
    computed = 0
    for step in _steps(steps, Values(values)):
        prose = _capitalise(_fill(step.prose, prose_env))
        if step.expr is None:
            bodies.append(prose if prose.endswith((".", "!", "?")) else prose + ".")
            continue
        computed += 1
        name = f"s{computed}"  # sentences without arithmetic take no name
        value = evaluate(step.expr, env)
        if value < 0:
            raise ValueError(f"step {name} is negative: {value}")
        if step.kind == "count" and value.denominator != 1:
            raise ValueError(f"step {name} counts {value}, not a whole number")
        if step.kind == "money" and (value * 100).denominator != 1:
            raise ValueError(f"step {name} is {value} dollars, not whole cents")
        env[name], all_kinds[name], results[name] = value, step.kind, value
        shown = write_value(step.kind, value, style)
        writer.percent_step = step.kind == "percent"
        unit = writer.unit(step.unit)
        if style.result_units and unit:
            shown = f"{shown} {unit}"
        if isinstance(step.expr, Call):
            inner = evaluate(step.expr.arg, env)
            exact = canonical(inner) if is_terminating(inner) else None
            lhs = writer.expr(step.expr.arg)
            way = "up" if step.expr.fn == "ceil" else "down"
            if exact is not None:
                equation = f"{lhs} = {exact}"
                eq_text = f"{equation}, rounded {way} to {shown}"
                equations.append(equation)
            else:
                eq_text = f"{lhs} ≈ {float(inner):.2f}, rounded {way} to {shown}"
        else:
            equation = f"{writer.expr(step.expr)} = {shown}"
            eq_text = equation
            equations.append(equation)
        prose_env[name] = write_value(step.kind, value, style, prose=True)
        joiner = style.joiner
        body = f"{prose}{joiner}{eq_text}"
        if joiner != " → ":
            body += "."
        bodies.append(body)
        last, last_value = step, value
    if last is None or last_value is None:
        raise ValueError("a solution needs at least one computed step")
    text = _layout(style, bodies)
    final_value = (
        canonical(last_value)
        if style.bare_final or last.kind in ("count", "number", "decimal", "mixed")
        else write_value(last.kind, last_value, style)
    )
    unit = writer.unit(last.unit)
    with_unit = f"{final_value} {unit}" if unit and not style.bare_final else final_value
    final = style.final.format(v=final_value, vu=with_unit)
    if style.intro:
        text = f"{style.intro}\n{text}"
    return Rendered(f"{text}\n{final}", last_value, tuple(equations), results)


def _layout(style: Style, bodies: list[str]) -> str:
    if style.layout == "step":
        return "\n".join(f"Step {i}: {b}" for i, b in enumerate(bodies, start=1))
    if style.layout == "numbered":
        return "\n".join(f"{i}. {b}" for i, b in enumerate(bodies, start=1))
    if style.layout == "bullets":
        return "\n".join(f"- {b}" for b in bodies)
    if style.layout == "bold":
        return "\n".join(f"**Step {i}:** {b}" for i, b in enumerate(bodies, start=1))
    if style.layout == "paragraph":
        return " ".join(bodies)
    if style.layout == "lines":
        return "\n\n".join(bodies)
    raise ValueError(f"unknown layout {style.layout!r}")
