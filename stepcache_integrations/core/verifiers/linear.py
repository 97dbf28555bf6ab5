"""Linear equations in one variable: find them in text, check steps and answers, solve them.

The request's equation ``a*v + b = c`` is parsed from free text in the usual written forms
(``3x + 5 = 20``, ``3*x+5=20``, ``15 = 4z + 3``, ``5 + 2k = 17``, ``0.5x + 1.5 = 4``,
``3x + 2 = x + 10``, ``2(x + 3) = 10``) with exact ``Fraction`` arithmetic. Every equation in a
step must then agree with it: an equation in the variable must have the same solution, an
arithmetic one (``20 - 5 = 15``) must be true.

Parsing is a small tokenizer plus a recursive-descent parser over a bounded window around each
``=``; nothing here backtracks on its input, and every public function returns a value (never
raises) for any string.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from stepcache_integrations.core.steps import Step, join_steps
from stepcache_integrations.core.verifiers.base import Verdict, Verifier, VerifyContext
from stepcache_integrations.core.verifiers.output_format import asks_for_json

__all__ = [
    "TASK",
    "LinearEquation",
    "LinearEquationVerifier",
    "canonical_steps",
    "format_number",
    "parse_equation",
]

TASK = "linear_equation"

# Bounds that keep every function linear-time on arbitrary input.
MAX_SCAN_CHARS = 20_000
_MAX_SIDE_TOKENS = 32  # tokens considered on each side of an "="
_MAX_EQUATIONS = 200  # equations examined per text
_MAX_DIGITS = 40  # longer numbers are not plausible equation constants
_MAX_DEPTH = 12  # parenthesis nesting

# ---------------------------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------------------------


def _terminating_decimal(value: Fraction) -> str | None:
    """``value`` as an exact finite decimal, or ``None`` when its expansion does not end."""
    den = value.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        return None
    places = max(twos, fives)
    scaled = abs(value.numerator) * (10**places) // value.denominator
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def format_number(value: Fraction) -> str:
    """Write a number exactly: ``5``, ``-4``, ``2.5`` (finite decimals) or ``7/3``.

    Example:
        >>> format_number(Fraction(7, 2)), format_number(Fraction(10, 3))
        ('3.5', '10/3')
    """
    if value.denominator == 1:
        return str(value.numerator)
    decimal = _terminating_decimal(value)
    if decimal is not None and len(decimal) <= 24:
        return decimal
    return f"{value.numerator}/{value.denominator}"


def _is_rounding(exact: Fraction, literal: str | None) -> bool:
    """Whether the decimal ``literal`` is ``exact`` rounded to two or more decimals."""
    if literal is None or "." not in literal:
        return False
    places = len(literal) - literal.index(".") - 1
    if places < 2:
        return False
    try:
        written = Fraction(literal)
    except (ValueError, ZeroDivisionError):
        return False
    # Inclusive half unit: both neighbours of an exact tie count as a rounding.
    scale: int = 10**places
    return abs(exact - written) * 2 * scale <= 1


def _agrees(exact: Fraction, written: Fraction, literal: str | None) -> bool:
    return written == exact or _is_rounding(exact, literal)


# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------

_NUM, _VAR, _WORD, _OP, _EQ, _CMP, _OTHER = "num", "var", "word", "op", "eq", "cmp", "other"
_MATH = frozenset({_NUM, _VAR, _OP})

_TOKEN = re.compile(
    r"(?P<num>[0-9]+(?:\.[0-9]+)?|\.[0-9]+)"
    r"|(?P<word>[^\W\d_]\w*|_\w*)"
    r"|(?P<cmp><=|>=|!=|=>|=<|:=)"
    r"|(?P<eq>==|=|≈)"
    r"|(?P<op>[-+*/()])"
    r"|(?P<ws>[^\S\n]+)"
    r"|(?P<other>[\s\S])"
)

# Characters that mean the mathematics goes on beyond what this parser understands (powers,
# roots, percent, absolute values, LaTeX groups): an equation touching them is not judged.
_UNSAFE = frozenset("^%\\{}|<>&#@~_\u221a\u221b\u221c\u2211\u220f\u222b\u2032")


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    start: int
    end: int
    spaced: bool  # whitespace right before this token


def _tokenize(text: str) -> list[_Tok]:
    tokens: list[_Tok] = []
    spaced = False
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or _OTHER
        if kind == "ws":
            spaced = True
            continue
        value = match.group()
        if kind == "word" and len(value) == 1 and value.isalpha():
            kind = _VAR
        tokens.append(_Tok(kind, value, match.start(), match.end(), spaced))
        spaced = False
    return tokens


# ---------------------------------------------------------------------------------------------
# Normalisation of the written forms people and models use
# ---------------------------------------------------------------------------------------------

_CHAR_MAP = str.maketrans(
    {
        "\u2212": "-",  # minus sign
        "\u2013": "-",  # en dash, often typed for minus
        "\u00d7": "*",  # multiplication sign
        "\u22c5": "*",  # dot operator
        "\u00b7": "*",  # middle dot
        "\u2219": "*",  # bullet operator
        "\u00f7": "/",  # division sign
        "\u2215": "/",  # division slash
        "\uff1d": "=",  # fullwidth equals
    }
)
_LATEX_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\\[dt]?frac\{([^{}\n]{1,60})\}\{([^{}\n]{1,60})\}"), r"(\1)/(\2)"),
    (re.compile(r"\\(?:boxed|mathbf|textbf|mathrm|text)\{([^{}\n]{0,200})\}"), r" \1 "),
    (re.compile(r"\\(?:cdot|times)(?![A-Za-z])"), "*"),
    (re.compile(r"\\div(?![A-Za-z])"), "/"),
    (re.compile(r"\\(?:left|right)(?![A-Za-z])|\\[()\[\],;:! ]|\\quad(?![A-Za-z])|\$+"), " "),
)
# A bullet at the start of a line ("- x = 5") is not a minus sign.
_BULLET = re.compile(r"(?m)^([ \t]*)[-*+•]([ \t]+)")
_STARS = re.compile(r"\*+")


def _operand_before(text: str, pos: int) -> bool:
    i = pos - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i >= 0 and (text[i].isalnum() or text[i] == ")")


def _operand_after(text: str, pos: int) -> bool:
    i = pos
    while i < len(text) and text[i] in " \t":
        i += 1
    return i < len(text) and (text[i].isalnum() or text[i] in "(-.")


def _strip_emphasis(text: str) -> str:
    """Drop markdown emphasis (``**x = 5**``) but keep ``*`` between two operands."""

    def keep_or_drop(match: re.Match[str]) -> str:
        if _operand_before(text, match.start()) and _operand_after(text, match.end()):
            return match.group()
        return " " * len(match.group())

    return _STARS.sub(keep_or_drop, text)


def _clip(text: str) -> str:
    """At most ``MAX_SCAN_CHARS`` characters: the head and the tail of a long text.

    The cut is marked with ``\\`` (an unsafe character) so an equation cut in half is never
    judged as if it were whole.
    """
    if len(text) <= MAX_SCAN_CHARS:
        return text
    half = MAX_SCAN_CHARS // 2
    return f"{text[:half]}\\\n\\{text[-half:]}"


def _normalise(text: str) -> str:
    text = _clip(text).translate(_CHAR_MAP)
    for pattern, replacement in _LATEX_RULES:
        text = pattern.sub(replacement, text)
    text = _BULLET.sub(r"\1 \2", text)
    return _strip_emphasis(text)


# ---------------------------------------------------------------------------------------------
# Linear expressions
# ---------------------------------------------------------------------------------------------


class _NotLinear(Exception):
    """The token slice is not one complete linear expression."""


@dataclass(frozen=True)
class _Lin:
    """``sum(coefs[v] * v) + const``; ``names`` are the variables written, even if they cancel."""

    coefs: dict[str, Fraction]
    const: Fraction
    names: frozenset[str]

    @classmethod
    def number(cls, value: Fraction) -> _Lin:
        return cls({}, value, frozenset())

    @classmethod
    def variable(cls, name: str) -> _Lin:
        return cls({name: Fraction(1)}, Fraction(0), frozenset({name}))

    def coef(self, name: str) -> Fraction:
        return self.coefs.get(name, Fraction(0))

    @property
    def is_constant(self) -> bool:
        return not any(self.coefs.values())

    def plus(self, other: _Lin, sign: int) -> _Lin:
        coefs = dict(self.coefs)
        for name, value in other.coefs.items():
            coefs[name] = coefs.get(name, Fraction(0)) + sign * value
        return _Lin(coefs, self.const + sign * other.const, self.names | other.names)

    def scaled(self, factor: Fraction) -> _Lin:
        coefs = {name: value * factor for name, value in self.coefs.items()}
        return _Lin(coefs, self.const * factor, self.names)

    def times(self, other: _Lin) -> _Lin:
        if not other.is_constant:
            if not self.is_constant:
                raise _NotLinear("product of two variables")
            return other.scaled(self.const)._named(self.names)
        return self.scaled(other.const)._named(other.names)

    def divided(self, other: _Lin) -> _Lin:
        if not other.is_constant or other.const == 0:
            raise _NotLinear("division by a variable or by zero")
        return self.scaled(1 / other.const)._named(other.names)

    def _named(self, extra: frozenset[str]) -> _Lin:
        return _Lin(self.coefs, self.const, self.names | extra)


class _SideParser:
    """Recursive descent over one side of an equation; implicit products only when glued.

    ``3x`` and ``2(x + 1)`` are products; ``3 x`` is not (a number and a word next to each
    other in prose are not a coefficient).
    """

    def __init__(self, tokens: Sequence[_Tok]) -> None:
        self.tokens = tokens
        self.i = 0

    def parse(self) -> _Lin:
        value = self._expr(0)
        if self.i != len(self.tokens):
            raise _NotLinear("trailing tokens")
        return value

    def _peek(self) -> _Tok | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def _glued(self, kinds: frozenset[str], texts: str = "") -> bool:
        tok = self._peek()
        return (
            tok is not None
            and not tok.spaced
            and (tok.kind in kinds or (tok.kind == _OP and tok.text in texts))
        )

    def _expr(self, depth: int) -> _Lin:
        value = self._term(depth)
        while (tok := self._peek()) is not None and tok.kind == _OP and tok.text in "+-":
            self.i += 1
            value = value.plus(self._term(depth), 1 if tok.text == "+" else -1)
        return value

    def _term(self, depth: int) -> _Lin:
        value = self._signed(depth)
        while (tok := self._peek()) is not None:
            if tok.kind == _OP and tok.text in "*/":
                self.i += 1
                rhs = self._signed(depth)
                value = value.times(rhs) if tok.text == "*" else value.divided(rhs)
            elif self.tokens[self.i - 1].text == ")" and self._glued(frozenset({_VAR}), "("):
                value = value.times(self._primary(depth))  # "(x + 1)(2)", "(1/2)x"
            else:
                break
        return value

    def _signed(self, depth: int) -> _Lin:
        sign = 1
        while (tok := self._peek()) is not None and tok.kind == _OP and tok.text in "+-":
            self.i += 1
            sign = -sign if tok.text == "-" else sign
        value = self._primary(depth)
        return value if sign == 1 else value.scaled(Fraction(-1))

    def _primary(self, depth: int) -> _Lin:
        tok = self._peek()
        if tok is None:
            raise _NotLinear("missing operand")
        self.i += 1
        if tok.kind == _NUM:
            if len(tok.text) > _MAX_DIGITS:
                raise _NotLinear("number too long")
            value = _Lin.number(Fraction(tok.text))
            if self._glued(frozenset({_VAR})):  # "3x"
                value = value.times(_Lin.variable(self.tokens[self.i].text))
                self.i += 1
            if self._glued(frozenset(), "("):  # "2(x + 3)"
                value = value.times(self._primary(depth))
            return value
        if tok.kind == _VAR:
            return _Lin.variable(tok.text)
        if tok.kind == _OP and tok.text == "(":
            if depth >= _MAX_DEPTH:
                raise _NotLinear("too deeply nested")
            value = self._expr(depth + 1)
            close = self._peek()
            if close is None or close.text != ")":
                raise _NotLinear("unclosed parenthesis")
            self.i += 1
            return value
        raise _NotLinear(f"unexpected {tok.text!r}")


def _parse_side(tokens: Sequence[_Tok]) -> _Lin | None:
    if not tokens:
        return None
    try:
        return _SideParser(tokens).parse()
    except (_NotLinear, ZeroDivisionError, ValueError, OverflowError, RecursionError):
        return None


# ---------------------------------------------------------------------------------------------
# Equations in text
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Equation:
    left: _Lin
    right: _Lin
    text: str
    start: int
    end: int
    left_var: str | None  # the side is just a variable ("x")
    right_var: str | None
    left_literal: str | None  # the side is just a (signed) number ("-3.33")
    right_literal: str | None

    @property
    def names(self) -> frozenset[str]:
        return self.left.names | self.right.names

    def normal_form(self, name: str) -> tuple[Fraction, Fraction, Fraction]:
        """``(a, b, c)`` with ``a*name + b = c``; ``name`` is kept on the side where it weighs more
        (the left on a tie) so that ``15 = 4z + 3`` reads ``4z + 3 = 15``."""
        left, right = self.left.coef(name), self.right.coef(name)
        if left != 0 and (right == 0 or abs(left) >= abs(right)):
            return left - right, self.left.const, self.right.const
        return right - left, self.right.const, self.left.const


def _boundary_ok(text: str, tok: _Tok, glued: bool, is_left: bool) -> bool:
    """Whether ``tok``, right outside an equation side, is a clean end of that side."""
    if tok.kind == _EQ:
        return True  # a chain: "x = 15/3 = 5"
    if tok.kind == _CMP:
        return tok.text == "=>"  # an arrow, but "<=" and friends are not equations
    if tok.kind == _OTHER:
        if tok.text in _UNSAFE:
            return False
        # "1,000" or "1.2.3": the digits go on, the number was cut.
        return not (tok.text in ",." and text[tok.end : tok.end + 1].isdigit())
    if tok.kind == _OP:
        if tok.text in "()":
            return not glued or tok.text == ("(" if is_left else ")")
        return False  # "y * x = 5": the side goes on beyond what parsed
    return not glued  # a word, number or letter separated by a space


def _left_side(text: str, toks: Sequence[_Tok], eq_index: int) -> tuple[int, _Lin] | None:
    lo = eq_index
    while lo > 0 and toks[lo - 1].kind in _MATH and eq_index - lo < _MAX_SIDE_TOKENS:
        lo -= 1
    for start in range(lo, eq_index):  # longest first
        first = toks[start]
        # "speed + 3 = 9" must not become "+3 = 9": a sign is glued to its operand.
        if first.kind == _OP and first.text in "+-" and toks[start + 1].spaced:
            continue
        if start > 0 and not _boundary_ok(text, toks[start - 1], not first.spaced, True):
            continue
        lin = _parse_side(toks[start:eq_index])
        if lin is not None:
            return start, lin
    return None


def _right_side(text: str, toks: Sequence[_Tok], eq_index: int) -> tuple[int, _Lin] | None:
    hi = eq_index + 1
    limit = len(toks)
    while hi < limit and toks[hi].kind in _MATH and hi - eq_index <= _MAX_SIDE_TOKENS:
        hi += 1
    for end in range(hi, eq_index + 1, -1):  # exclusive end, longest first
        if end < limit and not _boundary_ok(text, toks[end], not toks[end].spaced, False):
            continue
        lin = _parse_side(toks[eq_index + 1 : end])
        if lin is not None:
            return end, lin
    return None


def _bare_var(tokens: Sequence[_Tok]) -> str | None:
    return tokens[0].text if len(tokens) == 1 and tokens[0].kind == _VAR else None


def _bare_literal(tokens: Sequence[_Tok]) -> str | None:
    if len(tokens) == 1 and tokens[0].kind == _NUM:
        return tokens[0].text
    if len(tokens) == 2 and tokens[0].text in "+-" and tokens[1].kind == _NUM:
        return ("-" if tokens[0].text == "-" else "") + tokens[1].text
    return None


def _scan(text: str) -> tuple[str, list[_Equation]]:
    """The normalised text and every equation found in it, in order.

    ``a = b = c`` yields ``a = b`` and ``b = c``.
    """
    norm = _normalise(text)
    toks = _tokenize(norm)
    found: list[_Equation] = []
    for index, tok in enumerate(toks):
        if tok.kind != _EQ:
            continue
        left = _left_side(norm, toks, index)
        if left is None:
            continue
        right = _right_side(norm, toks, index)
        if right is None:
            continue
        (start, lhs), (end, rhs) = left, right
        left_toks, right_toks = toks[start:index], toks[index + 1 : end]
        found.append(
            _Equation(
                left=lhs,
                right=rhs,
                text=" ".join(norm[toks[start].start : toks[end - 1].end].split()),
                start=toks[start].start,
                end=toks[end - 1].end,
                left_var=_bare_var(left_toks),
                right_var=_bare_var(right_toks),
                left_literal=_bare_literal(left_toks),
                right_literal=_bare_literal(right_toks),
            )
        )
        if len(found) >= _MAX_EQUATIONS:
            break
    return norm, found


# ---------------------------------------------------------------------------------------------
# The request's equation
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinearEquation:
    """``a*variable + b = c`` in normal form, with the text it was read from.

    Example:
        >>> eq = parse_equation("Solve for x: 15 = 4x + 3.")
        >>> (eq.a, eq.b, eq.c, eq.solution, eq.text)
        (Fraction(4, 1), Fraction(3, 1), Fraction(15, 1), Fraction(3, 1), '15 = 4x + 3')
    """

    variable: str
    a: Fraction
    b: Fraction
    c: Fraction
    text: str

    def __post_init__(self) -> None:
        if self.a == 0:
            raise ValueError("a linear equation needs a non-zero coefficient (a == 0)")
        if len(self.variable) != 1 or not self.variable.isalpha():
            raise ValueError(f"the variable must be a single letter, got {self.variable!r}")

    @property
    def solution(self) -> Fraction:
        return (self.c - self.b) / self.a


def _request_equation(text: str) -> LinearEquation | None:
    chosen: LinearEquation | None = None
    for eq in _scan(text)[1]:
        names = eq.names
        if len(names) > 1:
            return None  # a system or a formula, not one equation in one unknown
        if not names:
            continue  # arithmetic ("2 + 2 = 4") says nothing about the unknown
        (name,) = names
        a, b, c = eq.normal_form(name)
        if a == 0:
            return None  # no unique solution
        current = LinearEquation(name, a, b, c, eq.text)
        if chosen is None:
            chosen = current
        elif chosen.variable != name or chosen.solution != current.solution:
            return None  # two different problems in one prompt: not ours to judge
    return chosen


_cached_request_equation = functools.lru_cache(maxsize=512)(_request_equation)


def parse_equation(text: str) -> LinearEquation | None:
    """The linear equation in one variable that ``text`` asks about, or ``None``.

    ``None`` also when the text has no such equation, has several that disagree, has a
    multi-variable or multi-letter-variable one, or the coefficient is zero.

    Example:
        >>> parse_equation("Find n if 4n - 2 = 10, show your steps").solution
        Fraction(3, 1)
        >>> parse_equation("2x + 1 = 2x + 3") is None
        True
    """
    if not isinstance(text, str):
        return None
    try:
        return _cached_request_equation(text)
    except (RecursionError, MemoryError, ValueError, OverflowError):
        return None


# ---------------------------------------------------------------------------------------------
# Judging equations against the request
# ---------------------------------------------------------------------------------------------


def _judge(eq: _Equation, target: LinearEquation) -> str | None:
    """``None`` when ``eq`` holds for the request; otherwise why it does not."""
    var = target.variable
    foreign = sorted(eq.names - {var})
    if foreign:
        return (
            f"'{eq.text}' is an equation in {', '.join(foreign)}, "
            f"but {target.text} is an equation in {var}"
        )
    a, b, c = eq.normal_form(var)
    if a == 0:
        lhs, rhs = eq.left.const, eq.right.const
        if _agrees(lhs, rhs, eq.right_literal) or _agrees(rhs, lhs, eq.left_literal):
            return None
        if eq.names:
            return f"'{eq.text}' has no solution for {var}"
        return f"'{eq.text}' is false: the left side is {format_number(lhs)}"
    solution = (c - b) / a
    literal = eq.right_literal if eq.left_var else eq.left_literal if eq.right_var else None
    if _agrees(target.solution, solution, literal):
        return None
    return (
        f"'{eq.text}' gives {var} = {format_number(solution)}, "
        f"but {target.text} gives {var} = {format_number(target.solution)}"
    )


_NUMBER_TEXT = r"(-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[ \t]*/[ \t]*[0-9]+)?)(?!\w|\.[0-9])"
_ANSWER_IS = re.compile(
    r"(?i)\b(?:answer|solution|result)[ \t]*(?:is|:|=)?[ \t]*(?:equal[ \t]+to[ \t]+)?"
    + _NUMBER_TEXT
)


def _number_value(text: str) -> tuple[Fraction, str | None] | None:
    """The value of ``7``, ``-3.5`` or ``7/2``, and the literal when it is a plain decimal."""
    try:
        if "/" in text:
            num, den = text.split("/", 1)
            return Fraction(num.strip()) / Fraction(den.strip()), None
        return Fraction(text), text
    except (ValueError, ZeroDivisionError):
        return None


@dataclass(frozen=True)
class _Final:
    value: Fraction
    literal: str | None
    text: str
    start: int
    prose: bool  # "the answer is 5" rather than "x = 5"


def _final_value(
    norm: str, eqs: Sequence[_Equation], var: str, prose: bool = True
) -> _Final | None:
    """The last statement of the variable's value: ``v = 5``, ``5 = v``, and with ``prose``
    also ``the answer is 5`` / ``v is 5``."""
    best: _Final | None = None
    for eq in eqs:
        if eq.left_var == var and not eq.right.names:
            candidate = _Final(eq.right.const, eq.right_literal, eq.text, eq.start, False)
        elif eq.right_var == var and not eq.left.names:
            candidate = _Final(eq.left.const, eq.left_literal, eq.text, eq.start, False)
        else:
            continue
        if best is None or candidate.start >= best.start:
            best = candidate
    if not prose:
        return best
    var_is = re.compile(
        rf"(?<!\w){re.escape(var)}[ \t]+(?:is|equals)[ \t]+(?:equal[ \t]+to[ \t]+)?" + _NUMBER_TEXT
    )
    for pattern in (_ANSWER_IS, var_is):
        for match in pattern.finditer(norm):
            parsed = _number_value(match.group(1))
            if parsed is None or (best is not None and match.start() < best.start):
                continue
            shown = " ".join(match.group().split())
            best = _Final(parsed[0], parsed[1], shown, match.start(), True)
    return best


# Text that may follow the final "v = value" on the last line (punctuation, markdown).
_TRAILING = re.compile(r"[\s.*`$_!]*\Z")


def _ends_answer(norm: str, final: _Final, eqs: Sequence[_Equation]) -> bool:
    """Whether ``final`` is on the last line and the last equation closes the answer."""
    body = norm.rstrip()
    last_line = body.rfind("\n") + 1
    if final.prose or final.start < last_line or not eqs:
        return False
    # The last equation may continue the final one ("x = 15/3 = 5").
    return _TRAILING.match(body, eqs[-1].end) is not None


# What the prompt says about the task: another output format, or not solving at all.
_NOT_SOLVING = re.compile(
    r"(?i)\b(?:do(?:es)?\s*n[o']?t|never|without|instead\s+of|rather\s+than)\s+"
    r"(?:\w+\s+){0,2}?solv"
)


def _asks_for_other_output(request: str) -> bool:
    """``True`` when the prompt asks not to solve, or to answer as JSON ("Record 3x + 5 = 20
    as JSON"); a negated mention ("instead of a JSON object, solve ...") does not count."""
    return bool(_NOT_SOLVING.search(request[:MAX_SCAN_CHARS])) or asks_for_json(request)


def _asks_for_final_line(request: str, var: str) -> bool:
    """Whether the prompt demands the answer's form, as in 'end with the line "x = <value>"'."""
    pattern = (
        rf"(?<!\w){re.escape(var)}[ \t]*=[ \t]*"
        r"(?:<[^<>\n]{0,40}>|\[[^\[\]\n]{0,40}\]|\{[^{}\n]{0,40}\}|\?|\.\.\.|\u2026|_{2,})"
    )
    return re.search(pattern, request[:MAX_SCAN_CHARS]) is not None


def _target(request: str) -> LinearEquation | None:
    """The equation to hold answers to, when the request asks for it to be solved."""
    eq = parse_equation(request)
    if eq is None or _asks_for_other_output(request):
        return None
    return eq


# ---------------------------------------------------------------------------------------------
# Canonical steps
# ---------------------------------------------------------------------------------------------


def _term(coef: Fraction, var: str) -> str:
    if coef == 1:
        return var
    if coef == -1:
        return f"-{var}"
    if coef.denominator == 1 or _terminating_decimal(coef) is not None:
        return f"{format_number(coef)}{var}"
    # "2x/3" parses back as (2x)/3; "2/3x" would read as 2/(3x).
    head = "" if coef.numerator == 1 else "-" if coef.numerator == -1 else str(coef.numerator)
    return f"{head}{var}/{coef.denominator}"


def _canon(a: Fraction, b: Fraction, c: Fraction, var: str) -> str:
    left = _term(a, var)
    if b > 0:
        left += f" + {format_number(b)}"
    elif b < 0:
        left += f" - {format_number(-b)}"
    return f"{left} = {format_number(c)}"


def _squash(text: str) -> str:
    return re.sub(r"[\s*]", "", text)


def _is_canonical(text: str, a: Fraction, b: Fraction, c: Fraction, var: str) -> bool:
    canon = _canon(a, b, c, var)
    left, right = canon.split(" = ")
    return _squash(text) in {_squash(canon), _squash(f"{right} = {left}")}


def _solve_lines(
    a: Fraction, b: Fraction, c: Fraction, var: str, text: str, exact: Fraction
) -> list[str]:
    """The steps from ``text`` (an equation with normal form ``a*var + b = c``) to the value."""
    lines: list[str] = []
    if not _is_canonical(text, a, b, c, var) and not (a == 1 and b == 0):
        lines.append(f"Collect like terms: {_canon(a, b, c, var)}.")
    final = False
    if b != 0:
        rest = _canon(a, Fraction(0), c - b, var)
        if b > 0:
            lines.append(f"Subtract {format_number(b)} from both sides: {rest}.")
        else:
            lines.append(f"Add {format_number(-b)} to both sides: {rest}.")
        final = a == 1 and (c - b) == exact
    if a != 1:
        value = format_number((c - b) / a)
        if abs(a.numerator) == 1:  # a = 1/n: "multiply by n" reads better than "divide by 1/n"
            factor = format_number(1 / a)
            lines.append(f"Multiply both sides by {factor}: {var} = {value}.")
        else:
            lines.append(f"Divide both sides by {format_number(a)}: {var} = {value}.")
        final = (c - b) / a == exact
    if not final:
        lines.append(f"So {var} = {format_number(exact)}.")
    return lines


def canonical_steps(equation: LinearEquation) -> list[str]:
    """The deterministic solution of ``equation``, one sentence per step (no numbering).

    Example:
        >>> canonical_steps(parse_equation("2y - 7 = 11"))[1:]
        ['Add 7 to both sides: 2y = 18.', 'Divide both sides by 2: y = 9.']
    """
    eq = equation
    body = _solve_lines(eq.a, eq.b, eq.c, eq.variable, eq.text, eq.solution)
    return [f"Start with {eq.text}.", *body]


# Step labels a continuation should follow.
_STEP_LABEL = re.compile(r"^[ \t]*(?:[*_]{1,2})?step[ \t]+([0-9]{1,6})[ \t]*[:.)-]", re.I)
_LIST_LABEL = re.compile(r"^[ \t]*([0-9]{1,6})([.)])[ \t]")
_LABEL_SPAN = re.compile(
    r"^[ \t]*(?:(?:[*_]{1,2})?step[ \t]+[0-9]{1,6}[ \t]*[:.)-]|[0-9]{1,6}[.)][ \t])", re.I
)


def _numbering(prefix: Sequence[Step]) -> Callable[[int], str]:
    """How the next step is labelled, from the labels the prefix used."""
    for step in reversed(prefix):
        head = step.text[:200]
        if match := _STEP_LABEL.match(head):
            start = int(match.group(1)) + 1
            return lambda k: f"Step {start + k}: "
        if match := _LIST_LABEL.match(head):
            start, mark = int(match.group(1)) + 1, match.group(2)
            return lambda k: f"{start + k}{mark} "
    if not prefix:
        return lambda k: f"Step {k + 1}: "
    return lambda k: ""


def _separator(prefix: Sequence[Step]) -> str:
    for step in reversed(prefix):
        sep = step.separator
        if sep and not sep.strip() and "\n" in sep:
            return sep
    return "\n"


# ---------------------------------------------------------------------------------------------
# Whole-token substitution
# ---------------------------------------------------------------------------------------------


def _token_pattern(token: str) -> str:
    escaped = re.escape(token)
    if re.fullmatch(r"-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)", token):
        # "5" must not touch 15, 5.5 or 0.5, but does change "5x" (a coefficient).
        return rf"(?<![\w.]){escaped}(?![0-9]|\.[0-9])"
    if len(token) == 1 and token.isalpha():
        # "x" changes in "3x" but not in "next", "x2" or "x_1".
        return rf"(?<![^\W\d]){escaped}(?!\w)"
    return rf"(?<!\w){escaped}(?!\w)"


def _substitute(text: str, substitutions: dict[str, str], skip_until: int) -> str:
    """Apply all substitutions at once (so ``x<->y`` swaps work), on whole tokens only."""
    spans: list[tuple[int, int, str]] = []
    for old, new in substitutions.items():
        if not old or old == new:
            continue
        for match in re.finditer(_token_pattern(old), text):
            if match.start() >= skip_until:
                spans.append((match.start(), match.end(), new))
    spans.sort(key=lambda span: (span[0], -(span[1] - span[0])))
    out: list[str] = []
    cursor = 0
    for start, end, new in spans:
        if start < cursor:
            continue  # overlaps a longer match already replaced
        out.append(text[cursor:start])
        out.append(new)
        cursor = end
    out.append(text[cursor:])
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# The verifier
# ---------------------------------------------------------------------------------------------


class LinearEquationVerifier(Verifier):
    """Checks steps and answers against the linear equation in the request.

    Example:
        >>> v = LinearEquationVerifier()
        >>> ctx = VerifyContext("Solve for x: 3x + 5 = 20.")
        >>> v.check_step(ctx, Step("Subtract 5: 3x = 15."), 1, []).passed
        True
        >>> v.check_answer(ctx, "So x = 4.").reason
        'final answer x = 4 but 3x + 5 = 20 gives x = 5'
        >>> print(v.fallback(ctx))
        Step 1: Start with 3x + 5 = 20.
        Step 2: Subtract 5 from both sides: 3x = 15.
        Step 3: Divide both sides by 3: x = 5.
    """

    name = "linear"

    def task(self, request: str) -> str | None:
        if not isinstance(request, str):
            return None
        return TASK if _target(request) is not None else None

    def checks_numbers(self, request: str) -> bool:
        return self.task(request) is not None

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        """Every equation in the step must hold; a step without one is not applicable."""
        target = _target(ctx.request)
        if target is None or not isinstance(step.text, str):
            return Verdict.not_applicable(self.name, index)
        equations = _scan(step.text)[1]
        if not equations:
            return Verdict.not_applicable(self.name, index)
        for eq in equations:
            reason = _judge(eq, target)
            if reason is not None:
                return Verdict.fail(self.name, reason, step=index)
        shown = "; ".join(eq.text for eq in equations[:3])
        return Verdict.ok(self.name, f"'{shown}' holds for {target.text}", step=index)

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        """The last stated value must be the solution and every equation must hold; when the
        prompt asks for a closing ``v = <value>`` line, the answer must end with it."""
        target = _target(ctx.request)
        if target is None:
            return Verdict.not_applicable(self.name)
        if not isinstance(answer, str):
            return Verdict.fail(self.name, "the answer is not text")
        var, exact = target.variable, target.solution
        expected = f"{var} = {format_number(exact)}"
        norm, equations = _scan(answer)
        strict = _asks_for_final_line(ctx.request, var)
        final = _final_value(norm, equations, var, prose=not strict)
        if final is None:
            return Verdict.fail(
                self.name,
                f"the answer never states a final value for {var} "
                f"(a line like '{var} = <value>'); {target.text} gives {expected}",
            )
        if not _agrees(exact, final.value, final.literal):
            return Verdict.fail(
                self.name, f"final answer {final.text} but {target.text} gives {expected}"
            )
        for eq in equations:
            reason = _judge(eq, target)
            if reason is not None:
                return Verdict.fail(self.name, f"wrong intermediate equation: {reason}")
        if strict and not _ends_answer(norm, final, equations):
            return Verdict.fail(
                self.name,
                f"the answer must end with the line '{var} = <value>' as the prompt asks; "
                f"the value is stated ({final.text}) but the answer goes on after it",
            )
        return Verdict.ok(self.name, f"{expected} solves {target.text}")

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        target = _target(ctx.request)
        if target is None:
            return None
        var = target.variable
        reason = failure.reason.rstrip(". ") if isinstance(failure, Verdict) else ""
        what = f": {reason}" if reason else ""
        return (
            f"Your solution of {target.text} is wrong{what}. "
            f"Solve {target.text} for {var} again, step by step, checking every equation, "
            f"and end with a final line of the form '{var} = <value>'."
        )

    def fallback(self, ctx: VerifyContext) -> str | None:
        target = _target(ctx.request)
        if target is None:
            return None
        lines = canonical_steps(target)
        return "\n".join(f"Step {k}: {line}" for k, line in enumerate(lines, 1))

    def continue_steps(self, ctx: VerifyContext, prefix: Sequence[Step]) -> str | None:
        """Canonical steps from the prefix's last equation to the value, in the prefix's
        numbering style; ``None`` when the prefix holds a wrong equation."""
        target = _target(ctx.request)
        if target is None:
            return None
        try:
            prefix_text = join_steps(prefix)
        except (TypeError, AttributeError):
            return None
        var = target.variable
        equations = _scan(prefix_text)[1]
        if any(_judge(eq, target) is not None for eq in equations):
            return None  # no continuation can make a wrong prefix right
        state = next(
            (eq for eq in reversed(equations) if eq.names and eq.normal_form(var)[0] != 0), None
        )
        if state is None:
            lines = canonical_steps(target)
        else:
            a, b, c = state.normal_form(var)
            lines = _solve_lines(a, b, c, var, state.text, target.solution)
        label = _numbering(prefix)
        sep = _separator(prefix)
        body = sep.join(f"{label(k)}{line}" for k, line in enumerate(lines))
        lead = sep if prefix_text and not prefix_text.endswith("\n") else ""
        return lead + body

    def adapt_step(self, ctx: VerifyContext, step: Step) -> Step | None:
        """Apply the prompt's 1:1 substitutions (renamed variable, changed constant) to whole
        tokens of the step; ``None`` when nothing changes."""
        diff = ctx.diff
        if diff is None or not diff.substitutions or not isinstance(step.text, str):
            return None
        subs = {
            str(old): str(new)
            for old, new in diff.substitutions.items()
            if isinstance(old, str) and isinstance(new, str)
        }
        # Step labels ("Step 5:") are numbering, not constants of the problem.
        label = _LABEL_SPAN.match(step.text[:200])
        text = _substitute(step.text, subs, label.end() if label else 0)
        if text == step.text:
            return None
        return Step(text, step.separator)
