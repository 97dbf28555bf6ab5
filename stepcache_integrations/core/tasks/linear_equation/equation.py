"""Linear equations in one variable: read them from text, with exact arithmetic, and solve them.

The request's equation ``a*v + b = c`` is parsed from free text in the usual written forms
(``3x + 5 = 20``, ``3*x+5=20``, ``15 = 4z + 3``, ``5 + 2k = 17``, ``0.5x + 1.5 = 4``,
``3x + 2 = x + 10``, ``2(x + 3) = 10``) with exact ``Fraction`` arithmetic;
:func:`scan_equations` finds every equation of a text the same way, and
:func:`canonical_steps` writes the deterministic solution.

Parsing is a small tokenizer plus a recursive-descent parser over a bounded window around each
``=``; nothing here backtracks on its input, and every public function returns a value (never
raises) for any string.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources

from text_to_num import alpha2digit

from stepcache_integrations.core.tasks.linear_equation.numerals import (
    DIVIDING_COLON,
    comma_language,
    point_form,
    reading_language,
)
from stepcache_integrations.core.text.lexing import Token, formula_tokens
from stepcache_integrations.core.text.memo import TextMemo
from stepcache_integrations.core.text.quantities import quantity_at, read_quantities

__all__ = [
    "MAX_SCAN_CHARS",
    "LinearEquation",
    "ScannedEquation",
    "canonical_steps",
    "chains_of",
    "format_number",
    "parse_equation",
    "request_reading",
    "scan_equations",
    "solve_lines",
    "step_words",
]

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


# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------

# The kinds of the algebra tokens (:func:`~stepcache_integrations.core.text.lexing.formula_tokens`).
_NUM, _VAR, _OP, _EQ, _CMP = "number", "variable", "operator", "equals", "comparison"
_MIXED, _OTHER = "mixed", "punct"
_MATH = frozenset({_NUM, _MIXED, _VAR, _OP})

# Characters that mean the mathematics goes on beyond what this parser understands (powers,
# roots, percent, absolute values, LaTeX groups): an equation touching them is not judged.
_UNSAFE = frozenset("^%\\{}|<>&#@~_\u221a\u221b\u221c\u2211\u220f\u222b\u2032\u215f")


def _vulgar_fractions() -> dict[str, str]:
    """The vulgar fraction characters ("\u215a", "\u00bd") as the digits they decompose to
    (Unicode data): "5/6", "1/2"."""
    table = {}
    for code in [0xBC, 0xBD, 0xBE, 0x2189, *range(0x2150, 0x215F)]:
        parts = unicodedata.decomposition(chr(code)).split()
        if parts[:1] == ["<fraction>"] and "2044" in parts:
            at = parts.index("2044")
            digits = [
                "".join(chr(int(h, 16)) for h in side) for side in (parts[1:at], parts[at + 1 :])
            ]
            table[chr(code)] = f"{digits[0]}/{digits[1]}"
    return table


_VULGAR = _vulgar_fractions()
# "1\u215a" and "1 \u215a" are the mixed number "1 5/6"; "\u215a" alone is 5/6.
_VULGAR_AFTER = re.compile(rf"([0-9]+)?[ \t]?([{''.join(_VULGAR)}])")


def _expand_vulgar(match: re.Match[str]) -> str:
    whole, fraction = match.group(1), _VULGAR[match.group(2)]
    return f"{whole} {fraction}" if whole else f"({fraction})"


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
        "\u2044": "/",  # fraction slash ("5\u20446")
        DIVIDING_COLON: "/",  # a ":" that divides ("x = 3 : 1,5"), in a point form
    }
)
_LATEX_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # A mixed number: "1\frac{5}{6}" is 11/6, not 1 times 5/6.
    (re.compile(r"([0-9]+)[ \t]*\\[dt]?frac\{([0-9]{1,20})\}\{([0-9]{1,20})\}"), r"\1 \2/\3"),
    (re.compile(r"\\[dt]?frac\{([^{}\n]{1,60})\}\{([^{}\n]{1,60})\}"), r"(\1)/(\2)"),
    (re.compile(r"\\(?:boxed|mathbf|textbf|mathrm|text)\{([^{}\n]{0,200})\}"), r" \1 "),
    (re.compile(r"\\(?:cdot|times)(?![A-Za-z])"), "*"),
    (re.compile(r"\\div(?![A-Za-z])"), "/"),
    (re.compile(r"\\(?:left|right)(?![A-Za-z])|\\[()\[\],;:! ]|\\quad(?![A-Za-z])|\$+"), " "),
)
# A bullet at the start of a line ("- x = 5") is not a minus sign.
_BULLET = re.compile(r"(?m)^([ \t]*)[-*+•]([ \t]+)")
# A double hyphen between spaces is a dash of prose ("3x + 5 = 20 -- what is x?").
_DASH = re.compile(r"(?<=[ \t])--(?=[ \t])")
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
    if any(ch in _VULGAR for ch in text):
        text = _VULGAR_AFTER.sub(_expand_vulgar, text)
    # Every LaTeX rule needs a backslash or a dollar sign, and emphasis a star: plain text
    # (most steps) skips those passes.
    if "\\" in text or "$" in text:
        for pattern, replacement in _LATEX_RULES:
            text = pattern.sub(replacement, text)
    text = _DASH.sub("  ", _BULLET.sub(r"\1 \2", text))
    return _strip_emphasis(text) if "*" in text else text


# ---------------------------------------------------------------------------------------------
# Linear expressions
# ---------------------------------------------------------------------------------------------


_ZERO, _ONE, _MINUS_ONE = Fraction(0), Fraction(1), Fraction(-1)


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
        return cls({name: _ONE}, _ZERO, frozenset({name}))

    def coef(self, name: str) -> Fraction:
        return self.coefs.get(name, _ZERO)

    @property
    def is_constant(self) -> bool:
        return not any(self.coefs.values())

    def plus(self, other: _Lin, sign: int) -> _Lin:
        coefs = dict(self.coefs)
        for name, value in other.coefs.items():
            coefs[name] = coefs.get(name, _ZERO) + sign * value
        return _Lin(coefs, self.const + sign * other.const, self.names | other.names)

    def scaled(self, factor: Fraction) -> _Lin:
        # Fast paths for the common factors (a "3x" coefficient times one, a sign): the same
        # values as the general product, without its gcd work.
        if factor == 1:
            return self
        if factor == -1:
            negated = {name: -value for name, value in self.coefs.items()}
            return _Lin(negated, -self.const, self.names)
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

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def parse(self) -> _Lin:
        value = self._expr(0)
        if self.i != len(self.tokens):
            raise _NotLinear("trailing tokens")
        return value

    def _peek(self) -> Token | None:
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
        return value if sign == 1 else value.scaled(_MINUS_ONE)

    def _primary(self, depth: int) -> _Lin:
        tok = self._peek()
        if tok is None:
            raise _NotLinear("missing operand")
        self.i += 1
        if tok.kind == _MIXED:
            return _Lin.number(_mixed_value(tok.text))
        if tok.kind == _NUM:
            if len(tok.text) > _MAX_DIGITS:
                raise _NotLinear("number too long")
            # int() first: the same value, without Fraction's string parsing.
            value = _Lin.number(
                Fraction(int(tok.text)) if tok.text.isdigit() else Fraction(tok.text)
            )
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


def _mixed_value(text: str) -> Fraction:
    """The value of a mixed number ("1 5/6"); a whole number before an improper fraction
    ("1 7/6") is read no way."""
    whole, fraction = text.split()
    numerator, denominator = fraction.split("/")
    if len(text) > _MAX_DIGITS or not 0 < int(numerator) < int(denominator):
        raise _NotLinear(f"not a mixed number: {text!r}")
    return int(whole) + Fraction(int(numerator), int(denominator))


def _parse_side(tokens: Sequence[Token]) -> _Lin | None:
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
class ScannedEquation:
    """An equation found in text: both sides as linear expressions, and how they were written."""

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


def chains_of(eqs: Sequence[ScannedEquation]) -> list[list[ScannedEquation]]:
    """The equations of a text grouped into chains: "a = b = c" is read as "a = b" and
    "b = c", which overlap, and is rewritten as one."""
    chains: list[list[ScannedEquation]] = []
    for eq in eqs:
        if chains and eq.start < chains[-1][-1].end:
            chains[-1].append(eq)
        else:
            chains.append([eq])
    return chains


# After a side, a spaced dash and then words of prose ("= 4 + 5p - what should p be?") or an
# arrow ("= -4 -> z?") are punctuation, not a minus: the side ends before them.
_PROSE_AFTER_DASH = re.compile(r"[ \t]+([^\W\d_]{2,})[ \t]+[^\W\d_]{2,}")
_NUMBER_WORD_LANGUAGES = ("en", "de", "pt", "es", "fr")


# The shaft of an arrow pointing back at an equation, before words ("<- solve this", "<--
# this one"); "< -3" is a comparison with a number.
_ARROW_BACK = re.compile(r"-+[ \t]*(?:[^\W\d_]|$)", re.MULTILINE)


def _closing_dash(text: str, tok: Token) -> bool:
    """Whether the operator ``tok`` after an equation's side is a dash of prose or an arrow.

    A number word after the dash is algebra written in words ("5p - three"), never prose.
    """
    if tok.text != "-":
        return False
    if text.startswith(">", tok.end):
        return True
    prose = _PROSE_AFTER_DASH.match(text, tok.end)
    return bool(tok.spaced and prose) and not _is_number_word(prose.group(1) if prose else "")


def _names_number(word: str) -> bool:
    """Whether ``word`` names a number in one of the languages text2num reads."""
    return any(
        any(ch.isdigit() for ch in alpha2digit(word, language, threshold=0))
        for language in _NUMBER_WORD_LANGUAGES
    )


_is_number_word = TextMemo(_names_number, max_chars=16_000)


def _boundary_ok(text: str, tok: Token, glued: bool, is_left: bool) -> bool:
    """Whether ``tok``, right outside an equation side, is a clean end of that side."""
    if tok.kind == _EQ:
        return True  # a chain: "x = 15/3 = 5"
    if tok.kind == _CMP:
        return tok.text == "=>"  # an arrow, but "<=" and friends are not equations
    if tok.kind == _OTHER:
        if tok.text == "<" and not is_left and _ARROW_BACK.match(text, tok.end):
            return True  # an arrow pointing back at the equation: "= 5   <- solve this"
        if tok.text in _UNSAFE:
            return False
        if tok.text == "!" and glued and not is_left:
            return False  # "20!" is a factorial, not the number 20
        # "1,000" or "1.2.3": the digits go on, the number was cut.
        return not (tok.text in ",." and text[tok.end : tok.end + 1].isdigit())
    if tok.kind == _OP:
        if tok.text in "()":
            return not glued or tok.text == ("(" if is_left else ")")
        # "y * x = 5": the side goes on beyond what parsed, unless a dash closes it.
        return not is_left and _closing_dash(text, tok)
    return not glued  # a word, number or letter separated by a space


def _left_side(text: str, toks: Sequence[Token], eq_index: int) -> tuple[int, _Lin] | None:
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


def _right_side(text: str, toks: Sequence[Token], eq_index: int) -> tuple[int, _Lin] | None:
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


def _bare_var(tokens: Sequence[Token]) -> str | None:
    return tokens[0].text if len(tokens) == 1 and tokens[0].kind == _VAR else None


def _bare_literal(tokens: Sequence[Token]) -> str | None:
    if len(tokens) == 1 and tokens[0].kind == _NUM:
        return tokens[0].text
    if len(tokens) == 2 and tokens[0].text in "+-" and tokens[1].kind == _NUM:
        return ("-" if tokens[0].text == "-" else "") + tokens[1].text
    return None


Scanned = tuple[str, tuple[ScannedEquation, ...]]


def _scan_uncached(text: str) -> Scanned:
    norm = _normalise(text)
    found: list[ScannedEquation] = []
    # The characters of the ``eq`` token in _TOKEN: without one there is no equation (the
    # common prose step), and the text is not tokenised at all.
    if "=" not in norm and "\u2248" not in norm:
        return norm, ()
    toks = formula_tokens(norm)
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
            ScannedEquation(
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
    return norm, tuple(found)


# A hit reads the same texts several times (a cached step while it is re-instantiated, then
# checked, then continued from; the request while it is recognised, accounted for and
# solved): each is scanned once. Bounded by characters like every per-text memo.
_scanned = TextMemo(_scan_uncached, max_chars=200_000)


def scan_equations(text: str) -> Scanned:
    """The normalised text and every equation found in it, in order (remembered for recent
    texts: the result is shared, hence a tuple).

    ``a = b = c`` yields ``a = b`` and ``b = c``.
    """
    return _scanned(text)


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
    #: The language whose decimal marks the request writes, when it writes a decimal comma
    #: ("de" for "0,5x + 3 = 4,5"); ``None``: the decimal point. ``text`` is in the point form.
    language: str | None = field(default=None, compare=False)
    #: The request it was read from (what its answers' decimal marks are told by).
    source: str = field(default="", compare=False, repr=False)

    def answer_language(self) -> str | None:
        """The decimal-comma language an answer to this request is read with: the request's
        numbers', else its words' ("Löse 6x - 5 = 40 nach x auf." is answered "x = 7,5").
        Told once per request, and only when an answer has a comma between digits."""
        if self.language is not None:
            return self.language
        return _words_language(self.source)

    def __post_init__(self) -> None:
        if self.a == 0:
            raise ValueError("a linear equation needs a non-zero coefficient (a == 0)")
        if len(self.variable) != 1 or not self.variable.isalpha():
            raise ValueError(f"the variable must be a single letter, got {self.variable!r}")

    @property
    def solution(self) -> Fraction:
        return (self.c - self.b) / self.a


def request_reading(text: str) -> tuple[str, str | None]:
    """``text`` in the point form (offsets kept: "0,5x" reads "0.5x" where the request's
    language writes a decimal comma) and that language (``None``: the decimal point).

    Example:
        >>> request_reading("Löse 0,5x + 3 = 4,5 nach x auf.")
        ('Löse 0.5x + 3 = 4.5 nach x auf.', 'de')
    """
    language = reading_language(text)
    return point_form(text, language, keep_length=True).text, language


# Algebra that goes on where the scanner stopped reading an equation: an operator before a
# number, a bracket or a one-letter name ("= 9 + k", "= 9 (3)"), a number ("= 10 001") or
# "x" as times ("= 9 x 3"); and before it, an operator after an operand or a number times
# ("3 x 2k + 1 = 9"; not the "**" of "**Solve:** 7 = 2x + 1").
# The scanner read less than the request wrote: not the request's equation.
_GOES_ON = re.compile(
    r"[ \t]*(?:[-+*/^\u2212\u00d7\u00b7][ \t]*(?:[\d(]|[A-Za-z](?![^\W\d_]))"
    r"|\([ \t]*[-\u2212]?[ \t]*\d|\d|[xX][ \t]*\(?[ \t]*\d)"
)
_WENT_ON = re.compile(
    r"(?:[\d)A-Za-z][ \t]*[-+*/^\u2212\u00d7\u00b7]|\d[ \t]*[xX\u00d7\u00b7*])[ \t]*\Z"
)


# Right after the equation, a symbol the scanner does not read, written against its last
# number ("= 20‰") or before another number ("= 20 ± 1", "= 20 ≠ 21", "= 20 — 4"): the
# expression goes on. Clause punctuation, brackets, quotes, markdown and a percent sign (the
# scanner reads "20%") end it, and so does a dash before words ("= 20 — show the steps").
_SYMBOL_AFTER = re.compile(r"([ \t]*)([^\w\s.,;:!?()\[\]{}\"'\u2019\u201d*_`$%])([ \t]*\d)?")
# Right before it, a number ("3 x + 5 = 20" read as x + 5 = 20).
_NUMBER_BEFORE = re.compile(r"\d[ \t]+\Z")
_LAST_NUMBER = re.compile(r"\d+(?:\.\d+)?\Z")


def _read_in_part(point: str, eq: ScannedEquation) -> bool:
    """Whether the algebra around ``eq`` in ``point`` goes on past what the scanner read:
    an operator, a symbol or a number around it, or a word the number reader takes into its
    last number ("= 20 thousand", "= 20 percent", "= 20 dozen")."""
    before = point[: eq.start]
    if _GOES_ON.match(point, eq.end) or _WENT_ON.search(before) or _NUMBER_BEFORE.search(before):
        return True
    symbol = _SYMBOL_AFTER.match(point, eq.end)
    if (
        symbol is not None
        and unicodedata.category(symbol.group(2))[0] in "SP"
        and (not symbol.group(1) or symbol.group(3))
    ):
        return True
    if _continues_in_words(point, eq) and _quantity_in_words_after(point, eq.end):
        return True
    last = _LAST_NUMBER.search(point, 0, eq.end)
    if last is None:
        return False
    # The number reader takes a multiplier, a percent or a unit of money into the number.
    found = quantity_at(point, last.start())
    return found is not None and found.end > eq.end


def _continues_in_words(point: str, eq: ScannedEquation) -> bool:
    """Whether the algebra of ``eq`` may go on in words: it ends with a name ("= 20 - x over
    two") or a dash of prose follows it ("= 20 - half of x")."""
    return eq.text[-1:].isalpha() or point[eq.end :].lstrip(" \t").startswith("-")


# The words right after an equation, up to the end of their clause.
_WORDS_AFTER = re.compile(r"[^.?!;,:\n]{0,60}")
_WORDS_READ_AFTER = 4


def _quantity_in_words_after(point: str, end: int) -> bool:
    """Whether a number (in figures or words) or a share ("half") stands among the first
    words after an equation, in its clause: the algebra may go on in words ("= 20 - x over
    two", "= 20 - half of x", "= 20 - x divided by 2"); the scanner read it in part."""
    window = _WORDS_AFTER.match(point, end)
    words = (window.group() if window else "").split()[:_WORDS_READ_AFTER]
    text = " ".join(words)
    return bool(read_quantities(text)) or any(
        _is_number_word(word) for word in words if word.isalpha()
    )


def _request_equation(text: str) -> LinearEquation | None:
    chosen: LinearEquation | None = None
    point, language = request_reading(text)
    # The scanner's offsets are those of its normalised text ("\\times" read as "*").
    norm, found = scan_equations(point)
    for eq in found:
        if _read_in_part(norm, eq):
            return None  # "2k + 1 = 9 x 3" is not 2k + 1 = 9
        names = eq.names
        if len(names) > 1:
            return None  # a system or a formula, not one equation in one unknown
        if not names:
            continue  # arithmetic ("2 + 2 = 4") says nothing about the unknown
        (name,) = names
        a, b, c = eq.normal_form(name)
        if a == 0:
            return None  # no unique solution
        current = LinearEquation(name, a, b, c, eq.text, language, text)
        if chosen is None:
            chosen = current
        elif chosen.variable != name or chosen.solution != current.solution:
            return None  # two different problems in one prompt: not ours to judge
    return chosen


# Requests are read on every comparison with them: remembered, bounded by their characters.
_cached_request_equation = TextMemo(_request_equation, max_chars=200_000)
_words_language = TextMemo(comma_language, max_chars=200_000)


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


def solve_lines(
    a: Fraction,
    b: Fraction,
    c: Fraction,
    var: str,
    text: str,
    exact: Fraction,
    language: str | None = None,
) -> list[str]:
    """The steps from ``text`` (an equation with normal form ``a*var + b = c``) to the value,
    in the words of ``language`` (English where the lexicon has none)."""
    words = step_words(language)
    lines: list[str] = []
    if not _is_canonical(text, a, b, c, var) and not (a == 1 and b == 0):
        lines.append(words["collect"].format(equation=_canon(a, b, c, var)))
    final = False
    if b != 0:
        rest = _canon(a, Fraction(0), c - b, var)
        move = "subtract" if b > 0 else "add"
        lines.append(words[move].format(number=format_number(abs(b)), equation=rest))
        final = a == 1 and (c - b) == exact
    if a != 1:
        solved = f"{var} = {format_number((c - b) / a)}"
        if abs(a.numerator) == 1:  # a = 1/n: "multiply by n" reads better than "divide by 1/n"
            line = words["multiply"].format(number=format_number(1 / a), equation=solved)
        else:
            line = words["divide"].format(number=format_number(a), equation=solved)
        lines.append(line)
        final = (c - b) / a == exact
    if not final:
        lines.append(words["so"].format(equation=f"{var} = {format_number(exact)}"))
    return lines


@functools.lru_cache(maxsize=16)  # keyed on a language code: a closed set
def step_words(language: str | None) -> dict[str, str]:
    """The deterministic solution's sentences in ``language`` (lexicon ``solving_steps.json``),
    English where the lexicon has none.

    Example:
        >>> step_words("de")["label"].format(k=2), step_words("xx")["label"].format(k=2)
        ('Schritt 2: ', 'Step 2: ')
    """
    raw = (
        resources.files("stepcache_integrations.core.text.lexicons")
        .joinpath("solving_steps.json")
        .read_text(encoding="utf-8")
    )
    data = json.loads(raw)
    chosen = data.get(language or "en", data["en"])
    return {str(key): str(value) for key, value in chosen.items()}


def canonical_steps(equation: LinearEquation) -> list[str]:
    """The deterministic solution of ``equation``, one sentence per step (no numbering), in
    the language of its request (:meth:`LinearEquation.answer_language`).

    Example:
        >>> canonical_steps(parse_equation("2y - 7 = 11"))[1:]
        ['Add 7 to both sides: 2y = 18.', 'Divide both sides by 2: y = 9.']
        >>> canonical_steps(parse_equation("Löse 2y - 7 = 11 nach y auf."))[-1]
        'Beide Seiten durch 2 dividieren: y = 9.'
    """
    eq = equation
    language = eq.answer_language()
    body = solve_lines(eq.a, eq.b, eq.c, eq.variable, eq.text, eq.solution, language)
    return [step_words(language)["start"].format(equation=eq.text), *body]
