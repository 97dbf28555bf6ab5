"""Linear equations for the benchmark: construction, rendering, and a small exact parser.

The benchmark judges answers by code, never by a model. For the equation family that needs two
things, both here and independent of the cache engine's own verifier (so the judge does not
share the engine's bugs):

* ``LinearEquation``: an equation ``a*v + b = c`` built from known integers, rendered in the
  usual written forms (sides swapped, constant first, implicit coefficients, signs);
* ``find_equations`` / ``evaluate``: pull every ``lhs = rhs`` out of free text and evaluate
  each side exactly (``fractions.Fraction``) at a value of the variable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

__all__ = [
    "EquationForm",
    "EquationParseError",
    "Linear",
    "LinearEquation",
    "evaluate",
    "find_equations",
    "format_number",
    "parse_linear",
    "solve_text_equation",
]

EquationForm = Literal["standard", "swapped", "const_first"]


def format_number(value: Fraction | int) -> str:
    """Render a number the way a person writes it: ``5``, ``-4``, ``2.5`` or ``7/3``."""
    frac = Fraction(value)
    if frac.denominator == 1:
        return str(frac.numerator)
    as_float = float(frac)
    # Terminating decimals read better than fractions ("2.5" rather than "5/2").
    if Fraction(repr(as_float)) == frac:
        return repr(as_float)
    return f"{frac.numerator}/{frac.denominator}"


def _term(coefficient: int, var: str) -> str:
    if coefficient == 1:
        return var
    if coefficient == -1:
        return f"-{var}"
    return f"{coefficient}{var}"


def _plus(value: int, text: str) -> str:
    """``" + text"`` or ``" - text"`` for a term whose sign is carried by ``value``."""
    return f" - {text.lstrip('-')}" if value < 0 else f" + {text}"


@dataclass(frozen=True)
class LinearEquation:
    """``a*var + b = c`` with integer constants, and how it is written.

    Example:
        >>> eq = LinearEquation(a=-2, b=9, c=1, var="p", form="const_first")
        >>> eq.render(), eq.solution
        ('9 - 2p = 1', Fraction(4, 1))
    """

    a: int
    b: int
    c: int
    var: str
    form: EquationForm = "standard"

    def __post_init__(self) -> None:
        if self.a == 0:
            raise ValueError("a linear equation needs a non-zero coefficient")

    @property
    def solution(self) -> Fraction:
        return Fraction(self.c - self.b, self.a)

    def render(self) -> str:
        """The equation as a person would write it in a prompt."""
        term = _term(self.a, self.var)
        if self.form == "const_first":
            left = f"{self.b}{_plus(self.a, term)}" if self.b else term
            return f"{left} = {self.c}"
        left = f"{term}{_plus(self.b, str(self.b))}" if self.b else term
        if self.form == "swapped":
            return f"{self.c} = {left}"
        return f"{left} = {self.c}"

    def with_var(self, var: str) -> LinearEquation:
        return LinearEquation(self.a, self.b, self.c, var, self.form)


class EquationParseError(ValueError):
    """A side of an equation that is not a linear expression in the expected variable."""


@dataclass(frozen=True)
class Linear:
    """``coef * var + const``: the value of a parsed linear expression."""

    coef: Fraction
    const: Fraction

    def at(self, value: Fraction) -> Fraction:
        return self.coef * value + self.const


# Unicode operators a model may print, mapped to ASCII before tokenising.
_UNICODE_OPS = str.maketrans(
    {"\u2212": "-", "\u2013": "-", "\u00d7": "*", "\u00b7": "*", "\u00f7": "/", "\u22c5": "*"}
)
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_]+)|([-+*/()]))")


def _tokenise(text: str) -> list[str]:
    text = text.translate(_UNICODE_OPS).strip()
    tokens: list[str] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            raise EquationParseError(f"unexpected character {text[pos]!r} in {text!r}")
        tokens.append(match.group().strip())
        pos = match.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return tokens


class _Parser:
    """Recursive descent over ``expr := term (('+'|'-') term)*`` with implicit products."""

    def __init__(self, tokens: list[str], var: str) -> None:
        self.tokens = tokens
        self.pos = 0
        self.var = var

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise EquationParseError("expression ends too early")
        self.pos += 1
        return token

    def expression(self) -> Linear:
        value = self.term()
        while self.peek() in {"+", "-"}:
            op = self.take()
            right = self.term()
            sign = 1 if op == "+" else -1
            value = Linear(value.coef + sign * right.coef, value.const + sign * right.const)
        return value

    def term(self) -> Linear:
        value = self.unary()
        while True:
            token = self.peek()
            if token in {"*", "/"}:
                self.take()
                right = self.unary()
                value = _divide(value, right) if token == "/" else _multiply(value, right)
            elif token is not None and (token == "(" or token[0].isalnum() or token[0] == "_"):
                # Implicit product: "3x", "2(x + 1)", "x(3)".
                value = _multiply(value, self.unary())
            else:
                return value

    def unary(self) -> Linear:
        token = self.peek()
        if token in {"+", "-"}:
            self.take()
            inner = self.unary()
            return inner if token == "+" else Linear(-inner.coef, -inner.const)
        return self.atom()

    def atom(self) -> Linear:
        token = self.take()
        if token == "(":
            inner = self.expression()
            if self.take() != ")":
                raise EquationParseError("unbalanced parenthesis")
            return inner
        if token[0].isdigit():
            return Linear(Fraction(0), Fraction(token))
        if token == self.var:
            return Linear(Fraction(1), Fraction(0))
        raise EquationParseError(f"unknown name {token!r} (expected {self.var!r})")


def _multiply(left: Linear, right: Linear) -> Linear:
    if left.coef and right.coef:
        raise EquationParseError("not linear: the variable is multiplied by itself")
    return Linear(left.coef * right.const + right.coef * left.const, left.const * right.const)


def _divide(left: Linear, right: Linear) -> Linear:
    if right.coef:
        raise EquationParseError("not linear: division by the variable")
    if right.const == 0:
        raise EquationParseError("division by zero")
    return Linear(left.coef / right.const, left.const / right.const)


def parse_linear(text: str, var: str) -> Linear:
    """Parse a linear expression in ``var``; raise ``EquationParseError`` otherwise.

    Example:
        >>> parse_linear("3x + 5 - 5", "x")
        Linear(coef=Fraction(3, 1), const=Fraction(0, 1))
    """
    tokens = _tokenise(text)
    if not tokens:
        raise EquationParseError("empty expression")
    parser = _Parser(tokens, var)
    value = parser.expression()
    if parser.peek() is not None:
        raise EquationParseError(f"unexpected {parser.peek()!r} in {text!r}")
    return value


def evaluate(text: str, var: str, value: Fraction) -> Fraction:
    """The exact value of the expression ``text`` at ``var = value``."""
    return parse_linear(text, var).at(value)


# A run of "math" characters: numbers, single-letter names, operators, parentheses, '=' and
# blanks. Multi-letter words and punctuation such as ':' or ',' end a run, so the prose around
# an equation ("Subtract 5 from both sides: 3x = 15.") is not part of it.
_MATH_PIECE = re.compile(
    "\\d+(?:\\.\\d+)?|(?<![A-Za-z])[A-Za-z](?![A-Za-z])|[-+*/()=\\s\u2212\u2013\u00d7\u00b7\u00f7\u22c5]"
)


def _math_runs(line: str) -> list[str]:
    runs: list[str] = []
    current: list[str] = []
    pos = 0
    while pos < len(line):
        match = _MATH_PIECE.match(line, pos)
        if match is None:
            if current:
                runs.append("".join(current))
                current = []
            # Skip the whole non-math word so its last letter is not taken for a name.
            word = re.match(r"[A-Za-z]+", line[pos:])
            pos += len(word.group()) if word else 1
            continue
        current.append(match.group())
        pos = match.end()
    if current:
        runs.append("".join(current))
    return runs


def _trim_side(side: str) -> str:
    side = side.strip()
    # Parentheses opened or closed outside the equation ("(so x = 5)") are not part of it.
    while side.startswith("(") and side.count("(") > side.count(")"):
        side = side[1:].strip()
    while side.endswith(")") and side.count(")") > side.count("("):
        side = side[:-1].strip()
    return side


def find_equations(text: str) -> list[list[str]]:
    """Every chain ``s0 = s1 = ...`` in ``text``, as its list of sides (raw text).

    Chains with an empty side (``"x = <value>"`` in an instruction) are left out.

    Example:
        >>> find_equations("Step 2: Divide by 3: x = 15 / 3 = 5.")
        [['x', '15 / 3', '5']]
    """
    chains: list[list[str]] = []
    for line in text.splitlines():
        for run in _math_runs(line):
            if "=" not in run:
                continue
            sides = [_trim_side(side) for side in run.split("=")]
            if len(sides) >= 2 and all(sides):
                chains.append(sides)
    return chains


def solve_text_equation(lhs: str, rhs: str, var: str) -> tuple[int, int, int] | None:
    """``(a, b, c)`` with ``a*var + b = c`` for ``lhs = rhs``, when all three are integers."""
    try:
        left, right = parse_linear(lhs, var), parse_linear(rhs, var)
    except EquationParseError:
        return None
    if right.coef == 0:
        a, b, c = left.coef, left.const, right.const
    elif left.coef == 0:
        a, b, c = right.coef, right.const, left.const
    else:
        a, b, c = left.coef - right.coef, left.const - right.const, Fraction(0)
    if a == 0 or any(x.denominator != 1 for x in (a, b, c)):
        return None
    return int(a), int(b), int(c)
