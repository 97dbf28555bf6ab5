"""Quantities in text: numbers in digits and in words, with their kind and unit.

:func:`read_quantities` finds every quantity of a text, in order and without overlaps:

* digits, with thousands separators, decimals and a sign: ``24``, ``1,200``, ``-3.5``, ``$5``;
* number words, compounds included: ``twenty-four``, ``a hundred and five``, ``two thousand``,
  ``1.5 million``, ``two dozen``, ``half a dozen``, ``two and a half``;
* ordinals: ``first``, ``twenty-first``, ``3rd``;
* fractions: ``half``, ``a quarter``, ``two thirds``, ``three quarters``, ``3/4``;
* multipliers: ``twice``, ``thrice``, ``double``, ``triple``, ``half as many``,
  ``three times as many``;
* percentages: ``25%``, ``twenty five percent`` (the value is the ratio: ``25%`` is ``1/4``);

each with the unit that follows it when there is one (``3 hours``, ``eight people``, ``$5``).

Reading is one pass over the text's tokens with a bounded look-ahead (linear time), and the
result for a text is memoised, so a text read on every request costs one dictionary look-up.
:func:`number_to_words`, :func:`ordinal_to_words` and :func:`fraction_to_words` write values
the way the reader reads them.

Example:
    >>> [(q.text, str(q.value), q.kind, q.unit) for q in read_quantities(
    ...     "A baker makes two dozen rolls and sells three quarters of them for $2 each.")]
    [('two dozen', '24', 'number', 'rolls'), ('three quarters', '3/4', 'fraction', None), \
('$2', '2', 'number', '$')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, NamedTuple

from stepcache_integrations.core.text.lexing import Token, figure_tokens
from stepcache_integrations.core.text.memo import text_memo

__all__ = [
    "CURRENCY_WORDS",
    "QUANTITY_KINDS",
    "Figure",
    "Quantity",
    "QuantityForm",
    "QuantityKind",
    "fraction_to_words",
    "has_number",
    "is_number_word",
    "known_unit",
    "number_to_words",
    "ordinal_to_words",
    "quantity_at",
    "read_figures",
    "read_number",
    "read_quantities",
    "unit_name",
]

QuantityKind = Literal["number", "fraction", "multiplier", "percent", "ordinal"]
QuantityForm = Literal["digits", "fraction", "mixed", "words"]
QUANTITY_KINDS: tuple[QuantityKind, ...] = (
    "number",
    "fraction",
    "multiplier",
    "percent",
    "ordinal",
)


@dataclass(frozen=True)
class Quantity:
    """One quantity found in a text.

    ``value`` is exact: ``Fraction(3, 4)`` for "three quarters", ``Fraction(1, 4)`` for
    "25%", ``2`` for "twice", ``3`` for "3rd". ``text`` is ``source[start:end]`` (a currency
    sign in front is part of it); ``unit`` is the word that follows (lower case), or the
    currency sign, or ``None``.

    Example:
        >>> read_quantities("It took 3 hours.")[0]
        Quantity(value=Fraction(3, 1), kind='number', text='3', start=8, end=9, unit='hours')
    """

    value: Fraction
    kind: QuantityKind
    text: str
    start: int
    end: int
    unit: str | None
    #: How the number is written: ``digits`` ("24", "3.5", "$5", "25%"), ``fraction``
    #: ("3/4"), ``mixed`` ("2 1/2") or ``words`` ("twenty-four", "three quarters", "twice").
    form: QuantityForm = field(default="digits", compare=False, repr=False)
    #: Digits after the decimal point ("7.50": 2) and thousands separators ("1,200").
    decimals: int = field(default=0, compare=False, repr=False)
    grouped: bool = field(default=False, compare=False, repr=False)
    #: The span of the figures (digits, fraction or mixed number): what a rewrite of a number
    #: in digits replaces ("$7.50": the "7.50"; "70 dollars": the "70"). ``None`` for words.
    figures: tuple[int, int] | None = field(default=None, compare=False, repr=False)
    #: A count of units of ``scale`` ("5 dozen" is 60: 5 of 12): ``value / scale`` counts.
    scale: int = field(default=1, compare=False, repr=False)

    @property
    def count(self) -> Fraction:
        """The number of ``scale`` units ("5 dozen": 5); the value itself when unscaled."""
        return self.value / self.scale


# ---------------------------------------------------------------------------------------------
# Lexicon
# ---------------------------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return text.split()


_SMALL = _words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_UNITS: dict[str, int] = {word: value for value, word in enumerate(_SMALL)}
_TENS_WORDS = _words("twenty thirty forty fifty sixty seventy eighty ninety")
_TENS: dict[str, int] = {word: 20 + 10 * i for i, word in enumerate(_TENS_WORDS)}
_SCALES: dict[str, int] = {"thousand": 10**3, "million": 10**6, "billion": 10**9}

_ORDINAL_SMALL = _words(
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
    "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth"
)
_ORDINALS: dict[str, int] = {word: value for value, word in enumerate(_ORDINAL_SMALL) if value}
_ORDINALS.update({word[:-1] + "ieth": value for word, value in _TENS.items()})
_ORDINALS.update({"hundredth": 100, "thousandth": 1000, "millionth": 10**6})

# Denominators of fractions in words: "a half", "two thirds", "three quarters", "a fifth".
# "second" is a unit of time far more often than a fraction, so it is not one.
_DENOMINATORS: dict[str, int] = {"half": 2, "halves": 2, "quarter": 4, "quarters": 4}
for _word, _value in _ORDINALS.items():
    if _value >= 3:
        _DENOMINATORS[_word] = _value
        _DENOMINATORS[_word + "s"] = _value
_PLURAL_DENOMINATORS = frozenset(w for w in _DENOMINATORS if w.endswith("s"))

_MULTIPLIERS: dict[str, int] = {
    "twice": 2,
    "thrice": 3,
    "double": 2,
    "doubled": 2,
    "doubles": 2,
    "triple": 3,
    "tripled": 3,
    "triples": 3,
    "quadruple": 4,
    "quadrupled": 4,
    "quadruples": 4,
}
# What follows "three times" when it compares ("three times as many", "3 times more").
_COMPARATIVE = frozenset(
    _words(
        "as more less fewer the that what his her their its bigger larger longer taller higher "
        "greater heavier older faster"
    )
)
_SCALE_OR_DOZEN = frozenset({"hundred", "dozen", *_SCALES})
# After "a third" these make it a part ("a third of", "a third full"); a noun makes it an
# ordinal ("a third box").
_PART_OF = frozenset(_words("of as full empty off more less"))

# Words after a quantity that are not its unit.
_NOT_UNITS = frozenset(
    _words(
        """a an the of and or nor but to in on at by for from with without as than then more less
    fewer each every per is are was were be been being has have had do does did will would can
    could should shall may might must it its them they he she we you i his her their our my
    your me him us that this these those which who whom whose what when where why how many
    much if so not no left only all also there here into onto over under after before
    about around between among altogether total remaining remain remains other another same
    again just still too very"""
    )
)
# A lone "one" after these is a pronoun ("the one", "which one", "no one"), not a count.
_ONE_PRONOUN_AFTER = frozenset(
    _words("the this that which each every no any another some someone anyone")
)
_CURRENCY = frozenset("$€£¥")
#: Currency words after a number that belong to the quantity ("70 dollars" is "$70"; "75
#: cents" counts cents), with the unit they give it. "pounds" is not one: it weighs too.
CURRENCY_WORDS: dict[str, str] = {
    "dollar": "$",
    "dollars": "$",
    "euro": "€",
    "euros": "€",
    "cent": "cents",
    "cents": "cents",
}

# ---------------------------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------------------------

_MAX_DIGITS = 30  # longer digit runs are identifiers, not quantities
_ORDINAL_SUFFIX = frozenset({"st", "nd", "rd", "th"})

# ---------------------------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Found:
    value: Fraction
    kind: QuantityKind
    first: int  # index of the first token
    last: int  # index of the last token (inclusive)
    unit: str | None = None
    scale: int = 1  # "5 dozen": 12


# States after which a new group may start: nothing read yet, a hundred, a scale.
_OPENS_GROUP = frozenset({"start", "hundred", "scale"})


@dataclass(slots=True)
class _Cardinal:
    """A cardinal in words as it is read, one word at a time ("two thousand three hundred
    and five"). ``total`` sums the groups a scale word closed ("two thousand": 2000);
    ``group`` is the number below the next scale ("three hundred five": 305); ``state`` is
    the kind of the last word taken, which decides what may follow it (start | unit | teen |
    tens | hundred | scale); ``top_scale`` is the last scale taken: a later one must be
    smaller ("two million three thousand", never "two thousand three million")."""

    total: int = 0
    group: int = 0
    state: str = "start"
    top_scale: int = 10**12

    @property
    def value(self) -> int:
        return self.total + self.group

    def take(self, word: str) -> bool:
        """Take ``word`` into the number when it may follow the words taken before it;
        ``False`` (the number ends before it) otherwise."""
        if word in _UNITS:
            return self._take_unit(_UNITS[word])
        if word in _TENS:
            return self._take_tens(_TENS[word])
        if word == "hundred":
            return self._take_hundred()
        if word in _SCALES:
            return self._take_scale(_SCALES[word])
        return False

    def _take_unit(self, value: int) -> bool:
        """A unit or a teen opens a group ("five", "hundred twelve", "thousand five"); a unit
        below ten completes a tens word ("twenty-four"). A zero continues nothing."""
        if self.state in _OPENS_GROUP and value > 0:
            self.group += value
            self.state = "teen" if value >= 10 else "unit"
            return True
        if self.state == "tens" and 0 < value < 10:
            self.group += value
            self.state = "unit"
            return True
        return False

    def _take_tens(self, value: int) -> bool:
        """A tens word opens a group ("twenty", "hundred twenty"), never after a unit."""
        if self.state not in _OPENS_GROUP:
            return False
        self.group += value
        self.state = "tens"
        return True

    def _take_hundred(self) -> bool:
        """ "hundred" multiplies the group below it ("five hundred", "twelve hundred"), once."""
        if self.state not in ("unit", "teen", "tens") or self.group >= 100:
            return False
        self.group *= 100
        self.state = "hundred"
        return True

    def _take_scale(self, scale: int) -> bool:
        """A scale word closes the group it multiplies ("five hundred thousand"); scales
        only go down ("two million three thousand")."""
        if self.state not in ("unit", "teen", "tens", "hundred") or scale >= self.top_scale:
            return False
        self.top_scale = scale
        self.total += self.group * scale
        self.group = 0
        self.state = "scale"
        return True


class _Reader:
    """Reads quantities left to right; every ``_at_*`` method looks ahead a bounded number of
    tokens and returns the quantity starting at token ``i``, or ``None``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = figure_tokens(text)

    # -- token helpers -------------------------------------------------------------------------

    def tok(self, i: int) -> Token | None:
        return self.toks[i] if 0 <= i < len(self.toks) else None

    def low(self, i: int) -> str:
        tok = self.tok(i)
        return tok.norm if tok is not None else ""

    def word(self, i: int) -> str:
        """The lower-cased word at ``i`` ("" when it is not a word)."""
        tok = self.tok(i)
        return tok.norm if tok is not None and tok.kind == "word" else ""

    def next_word(self, i: int) -> tuple[str, int]:
        """The word after token ``i``, allowing one hyphen between ("twenty-four")."""
        nxt = self.tok(i + 1)
        if nxt is None:
            return "", i + 1
        if nxt.kind == "punct" and nxt.text == "-" and not nxt.spaced:
            after = self.tok(i + 2)
            if after is not None and after.kind == "word" and not after.spaced:
                return after.norm, i + 2
            return "", i + 1
        return (nxt.norm, i + 1) if nxt.kind == "word" else ("", i + 1)

    def glued(self, i: int, text: str) -> bool:
        tok = self.tok(i)
        return tok is not None and not tok.spaced and tok.text == text

    # -- entry point ---------------------------------------------------------------------------

    def read(self) -> list[Quantity]:
        out: list[Quantity] = []
        i = 0
        while i < len(self.toks):
            tok = self.toks[i]
            found: _Found | None = None
            if tok.kind == "number" or (tok.kind == "punct" and tok.text in _CURRENCY):
                found = self._at_digits(i)
            elif tok.kind == "punct" and tok.text in "-\u2212" and self._negative_sign(i):
                found = self._at_digits(i + 1)
                if found is not None:
                    found = _Found(-found.value, found.kind, i, found.last, found.unit)
            elif tok.kind == "word" and tok.norm in _STARTERS:
                found = self._at_words(i)
            if found is None:
                i += 1
                continue
            found = self._money_words(found)
            out.append(self._quantity(found))
            i = found.last + 1
        return out

    def _money_words(self, found: _Found) -> _Found:
        """A currency word after the number is part of the quantity ("70 dollars", "75
        cents", "one dollar and twenty-five cents"): the same amount as "$70", "$1.25"."""
        if found.unit is not None or found.kind != "number":
            return found
        word, at = self.next_word(found.last)
        unit = CURRENCY_WORDS.get(word)
        if unit is None or at != found.last + 1:
            return found
        if unit == "$" and self.word(at + 1) == "and":
            cents = self._cardinal_words(at + 2)
            if (
                cents is not None
                and cents.kind == "number"
                and self.word(cents.last + 1) in ("cent", "cents")
                and 0 < cents.value < 100
            ):
                amount = found.value + cents.value / 100
                return _Found(amount, "number", found.first, cents.last + 1, "$")
        return _Found(found.value, "number", found.first, at, unit, found.scale)

    def _negative_sign(self, i: int) -> bool:
        """A minus glued to the digits after it, and not between two operands ("24-18")."""
        nxt, prev = self.tok(i + 1), self.tok(i - 1)
        if nxt is None or nxt.spaced or not (nxt.kind == "number" or nxt.text in _CURRENCY):
            return False
        if prev is None or self.toks[i].spaced:
            return True
        return not (prev.kind in ("number", "word") or prev.text in ")%")

    def _quantity(self, found: _Found) -> Quantity:
        start = self.toks[found.first].start
        end = self.toks[found.last].end
        unit = found.unit if found.unit is not None else self._unit_after(found.last)
        numbers = [t for t in self.toks[found.first : found.last + 1] if t.kind == "number"]
        form: QuantityForm = "words"
        figures = None
        decimals, grouped = 0, False
        if numbers:
            figures = (numbers[0].start, numbers[-1].end)
            written = self.text[figures[0] : figures[1]]
            form = "mixed" if " " in written else "fraction" if "/" in written else "digits"
            head = numbers[0].text
            decimals = len(head.split(".", 1)[1]) if "." in head else 0
            grouped = "," in head
            if form == "digits" and len(numbers) > 1:
                form = "words"  # "1,2": not one written number
        return Quantity(
            found.value,
            found.kind,
            self.text[start:end],
            start,
            end,
            unit,
            form,
            decimals,
            grouped,
            figures,
            found.scale,
        )

    def _unit_after(self, last: int) -> str | None:
        word, _ = self.next_word(last)
        if not word or word in _NOT_UNITS:
            return None
        if _is_number_word(word) and word not in ("second", "seconds"):
            return None
        return word

    # -- digits --------------------------------------------------------------------------------

    def _at_digits(self, i: int) -> _Found | None:
        """A number in figures at ``i`` ("24", "$5", "3rd", "5kg", "3/4", "2 1/2", "1.5
        million"), or ``None`` where the figures are part of something else."""
        first = i
        unit: str | None = None
        tok = self.tok(i)
        if tok is not None and tok.text in _CURRENCY:
            unit = tok.text
            i += 1
            tok = self.tok(i)
        if tok is None or tok.kind != "number":
            return None
        digits = tok.text.replace(",", "")
        if len(digits) > _MAX_DIGITS:
            return None
        value = Fraction(digits)
        if self._continues_token_before(first):
            return None
        # A whole number without a currency sign may be an ordinal ("3rd"), a fraction's
        # numerator ("3/4") or a mixed number's whole part ("2 1/2").
        whole = "." not in digits and unit is None
        suffix = self.tok(i + 1)
        if suffix is not None and suffix.kind == "word" and not suffix.spaced:
            return self._with_glued_word(value, first, i, unit, whole)
        if whole and self._glued_denominator(i) is not None:
            return self._slashed_fraction(value, first, i)
        if whole:
            mixed = self._digit_fraction(i + 1)
            if mixed is not None and mixed[0] < 1:
                frac, last = mixed
                return _Found(value + frac, "number", first, last)
        return self._after_number(_Found(value, "number", first, i, unit))

    def _continues_token_before(self, first: int) -> bool:
        """Whether the figures at ``first`` are glued to the token before them, whose tail
        they are: of "1.2.3" or "1/2/2024", or of an identifier ("x3", "A4")."""
        prev = self.tok(first - 1)
        if prev is None or self.toks[first].spaced:
            return False
        return prev.text in "./" or prev.kind == "word"

    def _with_glued_word(
        self, value: Fraction, first: int, at: int, unit: str | None, whole: bool
    ) -> _Found | None:
        """The figures at ``at`` with the word glued right after them: an ordinal suffix
        ("3rd"), a letter of an expression or an identifier ("3x", "4b": no quantity), or
        the unit ("5kg", "10am")."""
        suffix = self.toks[at + 1]
        if suffix.norm in _ORDINAL_SUFFIX and whole:
            return _Found(value, "ordinal", first, at + 1)
        if len(suffix.text) == 1:
            return None
        return _Found(value, "number", first, at, unit or suffix.norm)

    def _glued_denominator(self, at: int) -> Token | None:
        """The figures glued after a "/" glued after the figures at ``at`` ("3/4": the 4)."""
        if not self.glued(at + 1, "/"):
            return None
        den = self.tok(at + 2)
        return den if den is not None and den.kind == "number" and not den.spaced else None

    def _slashed_fraction(self, value: Fraction, first: int, at: int) -> _Found | None:
        """ "3/4" at ``at`` (see :meth:`_glued_denominator`); ``None`` for what only looks
        like one: a date or a version ("1/2/2024"), a ratio with a decimal ("3/1.5"), an
        over-long number or a zero denominator."""
        den = self.toks[at + 2]
        den_digits = den.text.replace(",", "")
        if (
            "." in den_digits
            or self.glued(at + 3, "/")
            or len(den_digits) > _MAX_DIGITS
            or int(den_digits) == 0
        ):
            return None
        frac = value / int(den_digits)
        return self._after_fraction(_Found(frac, "fraction", first, at + 2))

    def _digit_fraction(self, i: int) -> tuple[Fraction, int] | None:
        num, slash, den = self.tok(i), self.tok(i + 1), self.tok(i + 2)
        if num is None or slash is None or den is None:
            return None
        if num.kind != "number" or not num.spaced or slash.text != "/" or slash.spaced:
            return None
        if "\n" in self.text[self.toks[i - 1].end : num.start]:
            return None  # "= 300\n2/5 of the emails": a line ends the whole part
        if den.kind != "number" or den.spaced or "." in num.text + den.text:
            return None
        if self.glued(i + 3, "/") or len(num.text) + len(den.text) > _MAX_DIGITS:
            return None
        denominator = int(den.text.replace(",", ""))
        if denominator == 0:
            return None
        return Fraction(int(num.text.replace(",", "")), denominator), i + 2

    # -- words ---------------------------------------------------------------------------------

    def _at_words(self, i: int) -> _Found | None:
        word = self.word(i)
        if word in _MULTIPLIERS:
            return _Found(Fraction(_MULTIPLIERS[word]), "multiplier", i, i)
        if word == "negative":
            nxt = self.tok(i + 1)
            inner: _Found | None = None
            if nxt is not None and nxt.kind == "number":
                inner = self._at_digits(i + 1)
            elif nxt is not None and nxt.kind == "word":
                inner = self._cardinal_words(i + 1)
            if inner is not None and inner.kind == "number":
                return _Found(-inner.value, "number", i, inner.last, inner.unit)
            return None
        if word == "half":
            return self._at_half(i)
        if word in ("a", "an"):
            return self._at_article(i)
        found = self._cardinal_words(i)
        if found is not None:
            return found
        if word in _ORDINALS:
            if word == "second" and self.word(i - 1) in ("per", "a", "one", "each", "every"):
                return None
            return _Found(Fraction(_ORDINALS[word]), "ordinal", i, i)
        return None

    def _at_half(self, i: int) -> _Found | None:
        nxt, at = self.next_word(i)
        if nxt == "as":
            return _Found(Fraction(1, 2), "multiplier", i, i)
        if nxt in ("a", "an") and self.word(at + 1) == "dozen":
            return _Found(Fraction(6), "number", i, at + 1, scale=12)
        return _Found(Fraction(1, 2), "fraction", i, i)

    def _at_article(self, i: int) -> _Found | None:
        """ "a hundred", "a dozen", "a half", "a quarter", "a third of"."""
        nxt, at = self.next_word(i)
        if at != i + 1:
            return None
        if nxt == "dozen":
            return _Found(Fraction(12), "number", i, at, scale=12)
        if nxt in _SCALE_OR_DOZEN:
            return self._cardinal_words(i)
        if nxt in ("half", "quarter"):
            return self._after_fraction(_Found(Fraction(1, _DENOMINATORS[nxt]), "fraction", i, at))
        if nxt in _DENOMINATORS and nxt not in _PLURAL_DENOMINATORS:
            after, after_at = self.next_word(at)
            if after in _PART_OF or (not after and self._ends_phrase(after_at)):
                return self._after_fraction(
                    _Found(Fraction(1, _DENOMINATORS[nxt]), "fraction", i, at)
                )
        return None

    def _ends_phrase(self, i: int) -> bool:
        """Nothing, or punctuation that ends a phrase, at token ``i``."""
        tok = self.tok(i)
        return tok is None or tok.text in ".,;:!?)"

    def _cardinal_words(self, i: int) -> _Found | None:
        """A cardinal in words ("twenty-four", "a hundred and five", "two thousand"), with
        what may follow it (a fraction's denominator, "dozen", "percent", "and a half")."""
        parsed = self._cardinal(i)
        if parsed is None:
            return None
        value, last, tens_only = parsed
        if (
            self.word(i) == "one"
            and last == i
            and self._pronoun_one(i)
            and not (self.word(i + 1) == "and" and self._fraction_after_and(i + 1))
        ):
            return None  # "which one", but "each one and a quarter meters" counts
        # "twenty-first": a tens word and a small ordinal.
        nxt, at = self.next_word(last)
        if tens_only and nxt in _ORDINALS and _ORDINALS[nxt] < 10:
            return _Found(value + _ORDINALS[nxt], "ordinal", i, at)
        return self._after_number(_Found(value, "number", i, last))

    def _pronoun_one(self, i: int) -> bool:
        """ "which one", "no one", "the right one": "one" standing for a noun, not a count."""
        before = self.word(i - 1)
        if before in _ONE_PRONOUN_AFTER:
            return True
        return (
            bool(before)
            and not _is_number_word(before)
            and self.word(i - 2) in ("the", "a", "an", "this", "that")
        )

    def _cardinal(self, i: int) -> tuple[Fraction, int, bool] | None:
        """``(value, last token, written as a bare tens word)`` of the number words at ``i``."""
        word = self.word(i)
        if word == "zero":
            return Fraction(0), i, False  # nothing continues a zero ("zero five" is two)
        number = _Cardinal()
        last = -1
        j = i
        if word in ("a", "an"):
            # "a hundred", "a thousand": the article counts one of the scale.
            nxt, at = self.next_word(j)
            if at != j + 1 or nxt not in ("hundred", *_SCALES):
                return None
            number.group, number.state = 1, "unit"
            last, j, word = j, at, nxt
        while True:
            if word == "and":
                # "a hundred and five" goes on; "one hundred and two hundred" does not.
                if number.state not in ("hundred", "scale") or not self._and_joins(
                    j, number.top_scale
                ):
                    break
            elif self._starts_another(j, word, number) or not number.take(word):
                break
            else:
                last = j
            word, j = self.next_word(j)
        if last < 0:
            return None
        tens_only = number.state == "tens" and last == i
        return Fraction(number.value), last, tens_only

    def _starts_another(self, j: int, word: str, number: _Cardinal) -> bool:
        """Whether the number below a hundred at ``j`` (``word`` its first word), after a
        hundred or a scale, starts another number rather than ending this one: "one hundred
        two hundred", "two thousand three thousand" are two numbers each."""
        if number.state not in ("hundred", "scale") or not (word in _UNITS or word in _TENS):
            return False
        after = self._after_small(j)
        if number.state == "hundred" and after == "hundred":
            return True
        return after in _SCALES and _SCALES[after] >= number.top_scale

    def _and_joins(self, j: int, top_scale: int) -> bool:
        """Whether the "and" at ``j`` joins the number below a hundred that follows it to the
        number before ("a hundred and five"), rather than two numbers ("between one hundred
        and two hundred")."""
        word, at = self.next_word(j)
        if at != j + 1 or not (word in _TENS or (word in _UNITS and word != "zero")):
            return False
        after = self._after_small(at)
        if after in _SCALES:
            # "one hundred and one thousand" is 101,000: the "and" is inside the group that
            # the scale multiplies; after a scale it starts another number.
            return self.word(j - 1) == "hundred" and _SCALES[after] < top_scale
        return after not in ("hundred", "dozen")

    def _after_small(self, j: int) -> str:
        """The word after the number below a hundred that starts at ``j`` ("twenty-four")."""
        word = self.word(j)
        after, at = self.next_word(j)
        if word in _TENS and after in _UNITS and 0 < _UNITS[after] < 10:
            after, at = self.next_word(at)
        return after

    # -- what may follow a number -------------------------------------------------------------

    def _after_number(self, found: _Found) -> _Found:
        """Scales, "dozen", denominators, "and a half", "percent" and "times as"."""
        value, last = found.value, found.last
        nxt, at = self.next_word(last)
        tok = self.tok(last + 1)
        is_digits = self.toks[found.last].kind == "number"
        scale = found.scale
        if is_digits and nxt in ("hundred", *_SCALES) and at == last + 1:
            factor = 100 if nxt == "hundred" else _SCALES[nxt]
            value *= factor
            scale *= factor
            last = at
            nxt, at = self.next_word(last)
            tok = self.tok(last + 1)
        if nxt == "dozen" and at == last + 1:
            dozens = _Found(value * 12, "number", found.first, at, found.unit, scale * 12)
            return self._after_number(dozens)
        if found.unit is None and value.denominator == 1 and nxt in _DENOMINATORS:
            plural = nxt in _PLURAL_DENOMINATORS
            if (value == 1) != plural and value > 0:
                frac = value / _DENOMINATORS[nxt]
                return self._after_fraction(_Found(frac, "fraction", found.first, at))
        if tok is not None and tok.text == "%":
            return _Found(value / 100, "percent", found.first, last + 1)
        if nxt == "percent" or (nxt == "per" and self.word(at + 1) == "cent"):
            return _Found(value / 100, "percent", found.first, at + (nxt == "per"))
        if nxt == "and" and value.denominator == 1:
            mixed = self._fraction_after_and(at)
            if mixed is not None:
                frac, end = mixed
                return self._after_fraction(_Found(value + frac, "number", found.first, end))
        if nxt == "times" and self.word(at + 1) in _COMPARATIVE:
            return _Found(value, "multiplier", found.first, at)
        return _Found(value, found.kind, found.first, last, found.unit, scale)

    def _fraction_after_and(self, and_at: int) -> tuple[Fraction, int] | None:
        """ "a half", "a quarter", "three quarters" after "and" in "two and a half"."""
        word, at = self.next_word(and_at)
        if word in ("a", "an", "one"):
            den, end = self.next_word(at)
            if den in _DENOMINATORS and den not in _PLURAL_DENOMINATORS:
                return Fraction(1, _DENOMINATORS[den]), end
            return None
        if word in _UNITS and 1 < _UNITS[word] < 10:
            den, end = self.next_word(at)
            if den in _PLURAL_DENOMINATORS and _UNITS[word] < _DENOMINATORS[den]:
                return Fraction(_UNITS[word], _DENOMINATORS[den]), end
        return None

    def _after_fraction(self, found: _Found) -> _Found:
        """ "half as many", "two thirds as much": a fraction that compares is a multiplier."""
        nxt, at = self.next_word(found.last)
        if nxt == "as" and self.word(at + 1) in ("many", "much", "long", "far", "big", "old"):
            return _Found(found.value, "multiplier", found.first, found.last)
        if nxt == "times" and self.word(at + 1) in _COMPARATIVE:
            return _Found(found.value, "multiplier", found.first, at)
        return found


def _is_number_word(word: str) -> bool:
    return (
        word in _UNITS
        or word in _TENS
        or word in _SCALE_OR_DOZEN
        or word in _ORDINALS
        or word in _DENOMINATORS
        or word in _MULTIPLIERS
    )


# Words a quantity can start with; any other word is passed over at once.
_STARTERS = frozenset(
    {
        *_UNITS,
        *_TENS,
        *_ORDINALS,
        *_MULTIPLIERS,
        "a",
        "an",
        "half",
        "negative",
    }
)


@text_memo(max_chars=400_000)
def _read(text: str) -> tuple[Quantity, ...]:
    return tuple(_Reader(text).read())


def read_quantities(text: str) -> list[Quantity]:
    """Every quantity of ``text``, in order, without overlaps (memoised per text).

    Example:
        >>> [(q.text, q.kind, str(q.value)) for q in read_quantities(
        ...     "Twice as many as the first 25% of twenty-four")]
        [('Twice', 'multiplier', '2'), ('first', 'ordinal', '1'), ('25%', 'percent', '1/4'), \
('twenty-four', 'number', '24')]
    """
    if not isinstance(text, str):
        raise TypeError(f"read_quantities needs a str, got {type(text).__name__}")
    return list(_read(text))


class Figure(NamedTuple):
    """A run of digits as the reader splits a text ("1,200.5", "3", ".5"), with its value.

    Every digit of a text belongs to one figure, also where the digits are not a quantity of
    their own: the "3" of "3x", the "2" of "x2", the parts of "1.2.3" or "2025-07-08".

    Example:
        >>> read_figures("3x + 1,200 = v2")
        [Figure(text='3', value=Fraction(3, 1), start=0, end=1), \
Figure(text='1,200', value=Fraction(1200, 1), start=5, end=10), \
Figure(text='2', value=Fraction(2, 1), start=14, end=15)]
    """

    text: str
    value: Fraction
    start: int
    end: int


@text_memo(max_chars=400_000)
def _figures(text: str) -> tuple[Figure, ...]:
    return tuple(
        Figure(tok.text, Fraction(tok.text.replace(",", "")), tok.start, tok.end)
        for tok in figure_tokens(text)
        if tok.kind == "number"
    )


def read_figures(text: str) -> list[Figure]:
    """Every number written in digits in ``text``, in order, wherever it stands (memoised):
    the question "does this text hold digits, and which" asked the way the reader reads them.

    Example:
        >>> [f.text for f in read_figures("Pay $1,200.50 by 2024-05-01 (ref A7)")]
        ['1,200.50', '2024', '05', '01', '7']
    """
    if not isinstance(text, str):
        raise TypeError(f"read_figures needs a str, got {type(text).__name__}")
    return list(_figures(text))


def read_number(text: str) -> Quantity | None:
    """The number ``text`` is, when it is one number alone and nothing else, in digits or in
    words ("12", "1,200", "-3.5", "$5", "twelve", "two and a half"); ``None`` otherwise
    (whitespace around it included). Fractions, percentages, ordinals and multipliers are not
    numbers here ("3/4", "25%", "third", "twice"): they read as numbers only in context.

    Example:
        >>> [str(read_number(t).value) for t in ("1,200", "-3.5", "twelve")]
        ['1200', '-7/2', '12']
        >>> read_number("3x"), read_number("3/4"), read_number("12 apples")
        (None, None, None)
    """
    found = read_quantities(text)
    if len(found) == 1 and found[0].text == text and found[0].kind == "number":
        return found[0]
    return None


def quantity_at(text: str, start: int) -> Quantity | None:
    """The quantity of ``text`` that starts exactly at offset ``start``, read in the context
    of the whole text; ``None`` when none does.

    Example:
        >>> quantity_at("the answer is 3 1/2.", 14).value
        Fraction(7, 2)
        >>> quantity_at("the answer is 3x", 14) is None
        True
    """
    return next((q for q in read_quantities(text) if q.start == start), None)


def is_number_word(word: str) -> bool:
    """Whether ``word`` is one of the reader's number words (any case): a cardinal, a scale,
    "dozen", an ordinal, a fraction's denominator or a multiplier ("twelve", "hundred",
    "third", "quarters", "twice"). The word alone: in context "one" may be a pronoun.

    Example:
        >>> is_number_word("Seventeen"), is_number_word("thirds"), is_number_word("dozens")
        (True, True, False)
    """
    return _is_number_word(word.lower())


# Ordinals in words ("first", "second") order the steps of a text far more often than they
# count anything, so they do not make a text hold a number; in digits ("3rd") they do.
_COUNTING_KINDS = frozenset({"number", "fraction", "percent", "multiplier"})


def has_number(text: str) -> bool:
    """Whether ``text`` holds a number: any digit (a figure), or a quantity in words
    ("twelve", "three quarters", "twice") other than an ordinal word.

    Example:
        >>> has_number("x2"), has_number("add twelve"), has_number("First, greet them")
        (True, True, False)
    """
    if read_figures(text):
        return True
    return any(q.kind in _COUNTING_KINDS for q in read_quantities(text))


# ---------------------------------------------------------------------------------------------
# Units
# ---------------------------------------------------------------------------------------------

# Each unit's names, first its own (a closed list: any other word is its own unit).
_UNIT_NAMES: tuple[tuple[str, ...], ...] = (
    ("dollar", "$", "usd", "buck"),
    ("euro", "\u20ac", "eur"),
    ("cent", "\u00a2", "c"),
    ("millimeter", "millimetre", "mm"),
    ("centimeter", "centimetre", "cm"),
    ("meter", "metre", "m"),
    ("kilometer", "kilometre", "km"),
    ("inch", "in"),
    ("foot", "feet", "ft"),
    ("yard", "yd"),
    ("mile", "mi"),
    ("milligram", "mg"),
    ("gram", "g"),
    ("kilogram", "kg", "kilo"),
    ("ounce", "oz"),
    ("pound", "lb", "lbs"),
    ("milliliter", "millilitre", "ml"),
    ("liter", "litre", "l"),
    ("gallon", "gal"),
    ("second", "sec", "s"),
    ("minute", "min", "mins"),
    ("hour", "hr", "hrs", "h"),
    ("kilometer per hour", "km/h", "kph"),
    ("mile per hour", "mph"),
)
_UNIT_OF = {name: names[0] for names in _UNIT_NAMES for name in names}
_PLURAL_ENDINGS = (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"), ("sses", "ss"),
                   ("s", ""))  # fmt: skip


def known_unit(word: str) -> bool:
    """Whether ``word`` is a unit of measure or money the reader knows ("km", "hours", "$").

    Example:
        >>> known_unit("Kilometres"), known_unit("kiwis")
        (True, False)
    """
    name = unit_name(word)
    return name is not None and name in _UNIT_OF


def unit_name(unit: str | None) -> str | None:
    """One name for a unit however it is written: abbreviations, plurals and case aside
    ("km" and "Kilometers" are "kilometer", "$" is "dollar"); a word the unit list does not
    know is its own name, singular.

    Example:
        >>> unit_name("km"), unit_name("Kilometres"), unit_name("$"), unit_name("apples")
        ('kilometer', 'kilometer', 'dollar', 'apple')
    """
    if unit is None:
        return None
    word = unit.lower()
    if word in _UNIT_OF:
        return _UNIT_OF[word]
    for ending, replacement in _PLURAL_ENDINGS:
        if word.endswith(ending) and len(word) > len(ending) + 1 and not word.endswith("ss"):
            stem = word[: len(word) - len(ending)] + replacement
            return _UNIT_OF.get(stem, stem)
    return word


# ---------------------------------------------------------------------------------------------
# Writing values in words
# ---------------------------------------------------------------------------------------------


def _below_thousand(n: int, use_and: bool) -> list[str]:
    words: list[str] = []
    hundreds, rest = divmod(n, 100)
    if hundreds:
        words += [_SMALL[hundreds], "hundred"]
        if rest and use_and:
            words.append("and")
    if rest >= 20:
        tens, unit = divmod(rest, 10)
        words.append(_TENS_WORDS[tens - 2] + (f"-{_SMALL[unit]}" if unit else ""))
    elif rest:
        words.append(_SMALL[rest])
    return words


def number_to_words(n: int, use_and: bool = False) -> str:
    """``n`` in words, the way :func:`read_quantities` reads it back.

    Example:
        >>> number_to_words(2024), number_to_words(105, use_and=True)
        ('two thousand twenty-four', 'one hundred and five')
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"number_to_words needs an int, got {type(n).__name__}")
    if n < 0:
        return "negative " + number_to_words(-n, use_and)
    if n == 0:
        return "zero"
    if n >= 10**12:
        raise ValueError(f"{n} is too large to write in words")
    words: list[str] = []
    for name, scale in (("billion", 10**9), ("million", 10**6), ("thousand", 10**3)):
        group, n = divmod(n, scale)
        if group:
            words += [*_below_thousand(group, use_and), name]
    if n:
        if words and use_and and n < 100:
            words.append("and")
        words += _below_thousand(n, use_and)
    return " ".join(words)


def ordinal_to_words(n: int) -> str:
    """The ordinal of ``1 <= n < 100`` in words.

    Example:
        >>> ordinal_to_words(3), ordinal_to_words(21), ordinal_to_words(40)
        ('third', 'twenty-first', 'fortieth')
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n < 100:
        raise ValueError(f"ordinal_to_words needs an int from 1 to 99, got {n!r}")
    if n < 20:
        return _ORDINAL_SMALL[n]
    tens, unit = divmod(n, 10)
    if not unit:
        return _TENS_WORDS[tens - 2][:-1] + "ieth"
    return f"{_TENS_WORDS[tens - 2]}-{_ORDINAL_SMALL[unit]}"


_WORD_DENOMINATORS = frozenset({*range(2, 21), *range(30, 101, 10)})


def fraction_to_words(value: Fraction, article: bool = False) -> str:
    """A fraction ``p/q`` in words: ``one half``, ``three quarters``, ``two thirds``; with
    ``article``, ``a`` for one part. ``q`` is 2 (with ``p == 1``) to 20, a multiple of ten
    below 100, or 100.

    Example:
        >>> fraction_to_words(Fraction(3, 4)), fraction_to_words(Fraction(1, 3), article=True)
        ('three quarters', 'a third')
    """
    p, q = value.numerator, value.denominator
    if p <= 0 or q not in _WORD_DENOMINATORS or (q == 2 and p != 1):
        raise ValueError(f"no word form for the fraction {value}")
    head = ("a" if article else "one") if p == 1 else number_to_words(p)
    if q == 2:
        return f"{head} half"
    if q == 4:
        return f"{head} quarter{'s' if p != 1 else ''}"
    ordinal = "hundredth" if q == 100 else ordinal_to_words(q)
    return f"{head} {ordinal}{'s' if p != 1 else ''}"
