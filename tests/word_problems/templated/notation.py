"""Numbers in the notations people write them, and a reader for the oracle's final lines.

Written for this corpus, independently of the package's own number readers (the corpus
judges them, so it must not share their code): integers as digits or words ("twenty-one"),
fractions ("3/4", "three quarters", "one half"), mixed numbers ("2 1/2"), decimals
("1.5", "one and a half"), percentages ("25%", "25 percent") and money ("$3.50",
"3.50 dollars", "three dollars and fifty cents"). Every value is a ``Fraction``.

>>> words(21), fraction_words(Fraction(3, 4)), money(Fraction(7, 2))
('twenty-one', 'three quarters', '$3.50')
>>> read_number("$1,250.50"), read_number("2 1/2"), read_number("3/4")
(Fraction(2501, 2), Fraction(5, 2), Fraction(3, 4))
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = [
    "NOTATIONS",
    "canonical",
    "decimal",
    "fraction_words",
    "is_terminating",
    "last_number",
    "money",
    "read_number",
    "words",
    "write",
]

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_ORDINAL_PLURAL = {
    2: ("half", "halves"),
    3: ("third", "thirds"),
    4: ("quarter", "quarters"),
    5: ("fifth", "fifths"),
    6: ("sixth", "sixths"),
    8: ("eighth", "eighths"),
    10: ("tenth", "tenths"),
    12: ("twelfth", "twelfths"),
}


def words(n: int) -> str:
    """A non-negative integer below a million in words: 21 -> "twenty-one", 140 -> "one
    hundred forty"."""
    if n < 0 or n >= 1_000_000:
        raise ValueError(f"no words for {n}")
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" {words(rest)}" if rest else "")
    thousands, rest = divmod(n, 1000)
    return f"{words(thousands)} thousand" + (f" {words(rest)}" if rest else "")


def is_terminating(value: Fraction) -> bool:
    """Whether ``value`` has a finite decimal expansion."""
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d == 1


def decimal(value: Fraction) -> str:
    """A terminating value as a decimal without trailing zeros ("1.5", "0.25", "12")."""
    if not is_terminating(value):
        raise ValueError(f"{value} has no finite decimal")
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    value = abs(value)
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    scaled = int(value * 10**places)
    whole, frac = divmod(scaled, 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


def fraction_words(value: Fraction) -> str:
    """A proper fraction in words: 3/4 -> "three quarters", 1/2 -> "one half"."""
    num, den = value.numerator, value.denominator
    if not 0 < num < den or den not in _ORDINAL_PLURAL:
        raise ValueError(f"no words for the fraction {value}")
    one, many = _ORDINAL_PLURAL[den]
    return f"{words(num)} {one if num == 1 else many}"


def money(value: Fraction, always_cents: bool = False) -> str:
    """Dollars as an answer writes them: "$3.50", "$12" ("$12.00" with ``always_cents``)."""
    if (value * 100).denominator != 1:
        raise ValueError(f"{value} is not a whole number of cents")
    dollars, hundredths = divmod(int(value * 100), 100)
    if hundredths == 0 and not always_cents:
        return f"${dollars:,}"
    return f"${dollars:,}.{hundredths:02d}"


def _money_words(value: Fraction) -> str:
    dollars, cents = divmod(int(value * 100), 100)
    text = f"{words(dollars)} dollar{'' if dollars == 1 else 's'}" if dollars else ""
    if cents:
        tail = f"{words(cents)} cent{'' if cents == 1 else 's'}"
        text = f"{text} and {tail}" if text else tail
    return text


def _mixed(value: Fraction) -> str:
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return str(whole)
    part = f"{rest}/{value.denominator}"
    return f"{whole} {part}" if whole else part


def _mixed_words(value: Fraction) -> str:
    whole, rest = divmod(value.numerator, value.denominator)
    if rest == 0:
        return words(whole)
    part = Fraction(rest, value.denominator)
    if whole == 0:
        return fraction_words(part)
    article = {2: "a half", 4: "a quarter"}.get(part.denominator) if part.numerator == 1 else None
    return f"{words(whole)} and {article or fraction_words(part)}"


def _count(value: Fraction) -> int:
    if value.denominator != 1:
        raise ValueError(f"{value} is not a whole number")
    return value.numerator


# What each kind of quantity can be written as in a request: the first is the default.
NOTATIONS: dict[str, tuple[str, ...]] = {
    "count": ("digits", "words"),
    "money": ("sign", "dollars", "words"),
    "fraction": ("slash", "words", "hyphen"),
    "percent": ("sign", "percent", "words"),
    "decimal": ("point", "mixed", "words"),
    "mixed": ("mixed", "point", "words"),
}


def available(kind: str, value: Fraction) -> tuple[str, ...]:
    """The notations in which ``value`` of ``kind`` can be written."""
    found = []
    for notation in NOTATIONS[kind]:
        try:
            write(kind, value, notation)
        except ValueError:
            continue
        found.append(notation)
    return tuple(found)


def write(kind: str, value: Fraction, notation: str) -> str:
    """``value`` of ``kind`` in ``notation`` (one of ``NOTATIONS[kind]``), as a request
    writes it; ``ValueError`` when that notation cannot write the value."""
    if kind == "count":
        n = _count(value)
        return f"{n:,}" if notation == "digits" else words(n)
    if kind == "money":
        if notation == "sign":
            return money(value)
        if notation == "dollars":
            return f"{money(value)[1:]} dollars"
        return _money_words(value)
    if kind == "fraction":
        if notation == "slash":
            return f"{value.numerator}/{value.denominator}"
        text = fraction_words(value)
        return text.replace(" ", "-") if notation == "hyphen" else text
    if kind == "percent":
        if notation == "sign":
            return f"{decimal(value)}%"
        if notation == "percent":
            return f"{decimal(value)} percent"
        return f"{words(_count(value))} percent"
    if kind in ("decimal", "mixed"):
        if notation == "point":
            return decimal(value)
        if notation == "mixed":
            return _mixed(value)
        return _mixed_words(value)
    raise ValueError(f"unknown kind {kind!r}")


def canonical(value: Fraction) -> str:
    """How an answer writes a plain number: an integer, a terminating decimal, else a
    fraction ("7/3")."""
    if is_terminating(value):
        return decimal(value)
    return f"{value.numerator}/{value.denominator}"


# -- reading ------------------------------------------------------------------------------------

_NUMBER = re.compile(
    r"(?<![\w.])-?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s+\d+/\d+|/\d+)?%?(?![\w/])"
)


def read_number(text: str) -> Fraction:
    """One number as the oracle writes it ("$1,250.50", "2 1/2", "3/4", "25%" -> 1/4)."""
    text = text.strip()
    negative = text.startswith("-")
    text = text.lstrip("-").lstrip("$").replace(",", "")
    percent = text.endswith("%")
    text = text.rstrip("%")
    parts = text.split()
    value = Fraction(0)
    for part in parts:
        value += Fraction(part)
    if percent:
        value /= 100
    return -value if negative else value


def last_number(line: str) -> Fraction | None:
    """The last number written in ``line``, or ``None``."""
    found = _NUMBER.findall(line)
    return read_number(found[-1]) if found else None


def numbers_in(text: str) -> list[str]:
    """Every number token of ``text``, as written."""
    return _NUMBER.findall(text)
