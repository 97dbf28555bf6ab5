"""An answer to a word problem read as a small dataflow program, and run again.

Every number an answer writes comes from somewhere: a quantity of the request (``24`` rolls,
the ``3`` and ``4`` of "three quarters", the ``25`` of "25%"), a value computed by an equation
of this or an earlier step (``24 * 3/4 = 18`` computes 18; "18 of the 24" refers to it), or a
well-known conversion constant (60 minutes, 100 percent...). :func:`trace` follows the answer
step by step, in order, and reports for each step whether its equations hold and whether every
number is traced. With the quantities of a second request (paired one to one with the first's)
it also re-runs the program: every leaf takes the new quantity's value, every computed value is
recomputed exactly (``Fraction``), and each step's numbers are rewritten in the text.

A step cannot be carried over (``StepTrace.problem``) when one of its numbers cannot be
traced, could come from two sources that now disagree (the old value of two quantities, or a
quantity and a constant), changes meaning (a count that becomes fractional or negative, a
division by zero), cannot be written in the step's style (``1/3`` where ``0.75`` was), or when
the step still names a changed quantity in words the reader does not rewrite.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from stepcache_integrations.core.tasks.word_problem.arithmetic import (
    Equation,
    Leaf,
    Mention,
    Neg,
    Node,
    StepMath,
    evaluate,
    format_decimal,
    leaves,
    operations,
    read_step,
    restated_by_annotations,
)
from stepcache_integrations.core.tasks.word_problem.kinds import (
    Bounds,
    combine_time,
    conversion_factors,
    time_unit,
)
from stepcache_integrations.core.tasks.word_problem.languages import language_of, named_in
from stepcache_integrations.core.tasks.word_problem.prose import (
    DESCRIPTIVE,
    OUTCOME,
    RANKING,
    Claim,
    read_prose,
    rounded,
)
from stepcache_integrations.core.tasks.word_problem.request import quantity_parts
from stepcache_integrations.core.tasks.word_problem.units import (
    MISMATCH,
    Unit,
    combine,
    differs,
    unit_at,
)
from stepcache_integrations.core.text.quantities import (
    Quantity,
    fraction_to_words,
    number_to_words,
    unit_name,
)

__all__ = ["CONSTANTS", "Flow", "StepTrace", "flow", "named_count", "trace"]

# Numbers an answer may use without the request stating them: the whole (0, 1) always, and
# unit conversions and counts of the world when the request or the answer talks about them
# (60 only with minutes, seconds or hours; 2 with pairs or halves...). Words the quantity
# reader reads as quantities ("twice", "half", "a dozen") are no cues: they are quantities
# of the request, and the tracer knows them as such. A request quantity
# with one of these values is ambiguous where the answer uses the value: it could be the
# quantity or the constant ("Mia has 100 cards and gives away 40%": 40/100 * 100).
_CUES: dict[int, str] = {
    2: r"pairs?|halves|halve[ds]|halfway|half[\s-]way|both|twins?|couples?|there\s+and\s+back"
    r"|round[\s-]trips?|both\s+ways|each\s+way|every\s+other|each\s+other|weekends?",
    5: r"weekdays?|school\s+days?|work(?:ing)?\s+days?",
    3: r"yards?|yd",
    4: r"quarterly",
    7: r"days?|weeks?|weekly|daily",
    10: r"decades?|dimes?|tens|tenths?|cm|mm|centimet(?:er|re)s?|millimet(?:er|re)s?",
    12: r"months?|monthly|years?|yearly|annual(?:ly)?|inch(?:es)?|feet|foot|ft|dozens?",
    16: r"ounces?|oz|pounds?|lbs?",
    24: r"hours?|hrs?|days?|daily",
    30: r"days?|months?|monthly",
    36: r"yards?|yd|inch(?:es)?",
    52: r"weeks?|weekly|years?|yearly|annual(?:ly)?",
    60: r"minutes?|seconds?|hours?|mins?|hrs?|secs?|h",
    100: r"percent(?:age)?s?|per\s?cent|pct|cents?|centimet(?:er|re)s?|cm|met(?:er|re)s?|m"
    r"|centur(?:y|ies)",
    365: r"days?|years?|yearly|annual(?:ly)?|daily",
    1000: r"grams?|g|kilograms?|kg|met(?:er|re)s?|m|kilomet(?:er|re)s?|km|litres?|liters?|l"
    r"|ml|millilit(?:er|re)s?|mm|millimet(?:er|re)s?|thousands?",
    3600: r"seconds?|secs?|hours?|hrs?",
    5280: r"miles?|feet|foot|ft",
}
# A percent sign is a cue wherever it stands ("40%": the 0 before it is a word character).
_SIGN_CUES: dict[int, str] = {100: "%"}
# A percent is a hundredth: "30% of 200" is "200 * 30 * .01".
_HUNDREDTH = re.compile(r"(?i)%|(?<![\w])(?:percent(?:age)?s?|per\s?cent|pct)(?![\w])")
CONSTANTS: dict[Fraction, re.Pattern[str] | None] = {
    Fraction(0): None,
    Fraction(1): None,
    **{
        Fraction(n): re.compile(
            rf"(?i)(?<![\w])(?:{cue})(?![\w])"
            + (f"|{re.escape(_SIGN_CUES[n])}" if n in _SIGN_CUES else "")
        )
        for n, cue in _CUES.items()
    },
    Fraction(1, 100): _HUNDREDTH,
}


def _constant(value: Fraction, context: str, named: int = 0) -> bool:
    """Whether ``value`` may be a constant in an answer about ``context``, a story that names
    ``named`` people or places: a count of them is a number of the story too ("Omar, Rosa
    and 3 friends: 3 + 2 = 5 people", where the request's 2 counts bags)."""
    if value.denominator == 1 and 2 <= value <= named:
        return True
    if value not in CONSTANTS:
        # A factor between two units of measure the story or the answer names ("3.5 quarts
        # ... ounces": 32), which the table of cues may miss.
        return value in conversion_factors(context)
    cue = CONSTANTS[value]
    return cue is None or cue.search(context) is not None


_CAPITALISED = re.compile(r"(?<![\w'\u2019])[A-Z][a-z]+(?:['\u2019][a-z]+)?")


def named_count(request: str) -> int:
    """How many different capitalised words that may name someone or somewhere ``request``
    has (over-counting on purpose: a sentence's first word counts unless it is a function,
    question or arithmetic word).

    Example:
        >>> named_count("Mr. Lindqvist shares them with Rosa. How many does each get?")
        2
    """
    language = language_of(request)
    if language != "en":
        return named_in(request, language)  # nouns are capitalised too
    lower = {word.lower() for word in re.findall(r"(?<![\w'\u2019])[a-z]+", request)}
    found = set()
    for match in _CAPITALISED.finditer(request):
        if _PLACE_BEFORE.search(request, 0, match.start()):
            continue  # "In Oslo", "to Hanoi": where the story is, not someone in it
        word = match.group().split("'")[0].split("\u2019")[0].lower()
        if word in _NOT_NAMES or word in DESCRIPTIVE or word in OUTCOME or word in RANKING:
            continue
        if word in lower:
            continue  # "Doughnuts cost $1. Chiara takes 16 doughnuts.": a noun, not a name
        found.add(word)
    return len(found)


_PLACE_BEFORE = re.compile(r"(?i)\b(?:in|to|at|from|near|into|across|around|through)\s+\Z")
_NOT_NAMES = frozenset(
    """mr mrs ms dr miss how what which who whom whose where when why each every if one two
    three four five six seven eight nine ten after before then there this that these those
    some any all both step answer at in on""".split()  # noqa: SIM905
)


_CURRENCY_WORDS = {"$": "dollar", "€": "euro", "£": "pound", "¥": "yen"}
_GROUPED = re.compile(r"\d,\d{3}(?!\d)")


@dataclass(frozen=True)
class StepTrace:
    """What following one step found.

    ``wrong``: equations that do not hold (a verifier fails the step). ``problem``: why the
    step's numbers are not all traced, or cannot be carried over to the new request (the step
    is not vouched for). ``text``: the step rewritten for the new request (``None`` when it
    could not be); ``changed``: whether that differs from the original.
    """

    index: int
    wrong: tuple[str, ...] = ()
    problem: str | None = None
    mentions: int = 0
    text: str | None = None
    changed: bool = False
    final: Fraction | None = None  # the value of the step's last number, when traced
    used: frozenset[int] = frozenset()  # request quantities the step's equations calculate with


@dataclass
class _Value:
    """A value the program knows: where it comes from, before and after re-instantiation.

    ``step`` is where an equation computed it, when it is an equation's result (``-1`` for
    intermediate values); ``consumed`` whether a later calculation used it."""

    old: Fraction
    new: Fraction | None
    trusted: bool
    origin: str
    step: int = -1
    consumed: bool = False
    # The earlier results (indices into the tracer's ``computed``) it is calculated from,
    # directly or through other results.
    derives: frozenset[int] = frozenset()
    # The result this value restates in other units (its number of percent), if any.
    restates: int = -1
    # The unit of measure its equation writes the result in ("28 m"), when it writes one.
    unit: Unit | None = None
    # The unit of time it counts in ("hour"), "" for no time, ``None`` when not known.
    time: str | None = None


@dataclass(frozen=True)
class _Piece:
    """A value a request quantity contributes: the whole, or a part of a fraction/percent."""

    quantity: int
    part: str  # value | numerator | denominator | percent
    old: Fraction
    new: Fraction | None
    unit: str | None
    # The words of the phrase the quantity counts ("3 extra days": "extra", "days"), by
    # ``unit_name``: a number written with any of them counts what the quantity counts.
    phrase: frozenset[str | None] = frozenset()

    def unit_for(self, written: str | None) -> str | None:
        """The quantity's unit as compared with a number written with ``written``: that
        word itself when it is a word of the quantity's phrase ("3 days" for "3 extra
        days")."""
        if written is not None and unit_name(written) in self.phrase:
            return written
        return self.unit


def _pieces(index: int, old: Quantity, new: Quantity | None, request: str = "") -> list[_Piece]:
    new_parts = quantity_parts(new, like=old) if new is not None else {}
    phrase = frozenset(unit_name(word) for word in _phrase(request, old))
    return [
        _Piece(index, name, value, new_parts.get(name), old.unit, phrase)
        for name, value in quantity_parts(old).items()
    ]


# Words that end the phrase a quantity counts ("3 extra days for each grade": "days").
_PHRASE_END = frozenset(
    """for of each per and or to in at on with a an the that which who whom from by as than
    but so if when while every""".split()  # noqa: SIM905
)
_AFTER_WORDS = re.compile(r"[\s-]*([^\W\d_]+)")


def _phrase(request: str, quantity: Quantity) -> list[str]:
    """The words of the phrase a quantity of the request counts, right after it and before
    a word that ends the phrase, at most three ("3 extra days for each grade": "extra",
    "days"; "two identical airplanes": "identical", "airplanes"). None where the reader's
    unit is not the first of them (a currency sign, "km/h")."""
    unit = quantity.unit
    if unit is None or not unit.isalpha() or quantity.end > len(request):
        return []
    words: list[str] = []
    at = quantity.end
    while len(words) < 3:
        match = _AFTER_WORDS.match(request, at)
        if match is None or match.group(1).lower() in _PHRASE_END:
            break
        words.append(match.group(1).lower())
        at = match.end()
    return words if words and words[0] == unit.lower() else []


def _surely_same_unit(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and unit_name(a) == unit_name(b)


def _surely_other_unit(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and unit_name(a) != unit_name(b)


def _same_unit(a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return True
    return unit_name(a) == unit_name(b)


# One origin of a number: its value for the new request (``None``: unknown), whether it is
# trusted, and what it is ("quantity 2", "a constant") for the reason when origins disagree.
_Source = tuple[Fraction | None, bool, str]


@dataclass
class _Resolved:
    """A mention's value, where it comes from, and its value in the new request."""

    old: Fraction
    new: Fraction | None
    trusted: bool
    problem: str | None = None
    pieces: list[_Piece] = field(default_factory=list)
    # A fraction in figures read as a division of its two numbers ("24/4", "15/100"): how
    # each was traced (the rewrite writes both).
    division: tuple[_Resolved, _Resolved] | None = None
    # A result written rounded ("29 / 9 ≈ 3.22"): the exact value it stands for. Only a
    # rounding in words of the same step may use it ("3.22, rounded up to 4"), from the exact
    # value: its new value is exact too, and is written rounded again.
    exact: Fraction | None = None


class _Tracer:
    """Follows the answer step by step (see :func:`trace`)."""

    def __init__(
        self,
        quantities: Sequence[Quantity],
        new_quantities: Sequence[Quantity] | None,
        gone: frozenset[Fraction],
        context: str,
        named: int = 0,
        request: str = "",
    ) -> None:
        self.adapting = new_quantities is not None
        self.context = context
        self.named = named
        # The unit each request quantity is stated in ("$4 per metre": dollars per metre).
        self.units: list[Unit] = [_stated_unit(request, q) for q in quantities]
        # Amounts the answer's own calculations write as money ("28 * $4 = $112").
        self.marked: frozenset[Fraction] = frozenset()
        self._text = ""  # the step being read
        self.pieces = [
            piece
            for i, q in enumerate(quantities)
            for piece in _pieces(
                i, q, new_quantities[i] if new_quantities is not None else None, request
            )
        ]
        self.quantities = quantities
        self.new_quantities = new_quantities
        self.gone = gone
        self.computed: list[_Value] = []
        self.at = 0
        # The step's equation results (mention -> its equation), and those a rounding in words
        # of the step rounds ("7.5, rounded up to 8"): they may be written rounded.
        self._results: dict[int, Equation] = {}
        self._rounded: set[int] = set()
        self._percents: list[_Value] = []  # an equation's result as its number of percent
        self._twins: dict[int, int] = {}  # see ``restated_by_annotations``
        # Whether the answer or the new request writes thousands with separators ("1,624").
        self.groups = False
        self._derives: set[int] = set()  # what the equation being read is calculated from
        # The valid values of what the story's numbers count (see ``kinds.py``).
        self.bounds = Bounds.of(request)

    # -- where a number comes from -----------------------------------------------------------

    def resolve(
        self,
        mention: Mention,
        local: Sequence[_Value] = (),
        together: set[int] | None = None,
        fixed: _Piece | None = None,
        restated: frozenset[Fraction] = frozenset(),
        priced: bool = False,
    ) -> _Resolved:
        """Every source of ``mention``'s value; its new value when all sources agree.

        ``local`` holds values of the same equation's earlier sides; ``together`` the
        quantities with a piece among the same side's leaves (a fraction's numerator and
        denominator may only be rebound together, or when the other part keeps its value).
        Without ``together`` the mention is prose, not part of an equation: it can only be a
        whole quantity (nobody writes the 4 of "three quarters" alone in a sentence). ``fixed``
        is the part of a fraction the mention is written as ("3/4": 3 is its numerator).
        ``restated`` holds the values the same step's equations calculate with. ``priced``:
        the mention, written without a unit, multiplies an amount written as money ("4 *
        $4.00"): it is no amount of money of the request (dollars times dollars is no amount
        at all), so a money quantity of the same value is not one of its origins.

        When re-instantiating, a number whose origin is not certain is never rebound, nor kept:
        a unit other than the quantity's ("2 buses" where the request's 2 counts teachers), or
        a number of a sentence that neither restates a calculation of its step nor counts what
        the quantity counts ("so 2 are needed"), may be a value the answer derived in a way the
        family does not see (a rounding, a choice).
        """
        if fixed is not None:
            return _Resolved(mention.value, fixed.new, True, None, [fixed])
        if mention.form == "fraction" and mention.denominator:
            return self._fraction(mention, local, together, restated)
        return self._value(mention, local, together, restated, priced)

    def _fraction(
        self,
        mention: Mention,
        local: Sequence[_Value],
        together: set[int] | None,
        restated: frozenset[Fraction],
    ) -> _Resolved:
        """A fraction in figures is a value ("3/4" for "three quarters", "5/6" computed) or a
        division of its numbers ("24/4", "15/100" for "15%"), or both: when both readings are
        traced and disagree for the new request, it is ambiguous. A fraction not in lowest
        terms is only a division (nobody writes a quantity 6 as "24/4")."""
        top_value, bottom_value = Fraction(mention.numerator), Fraction(mention.denominator)
        reduced = math.gcd(mention.numerator, mention.denominator) == 1 and bottom_value > 1
        whole = self._value(mention, local, together, restated) if reduced else None
        # Its numbers may be the numerator and the denominator of one request fraction: they
        # are rebound together.
        parts = {
            numerator.quantity for numerator, _ in self._fraction_pieces(top_value, bottom_value)
        }
        both = {*(together or ()), *parts}
        top = self._value(_part(mention, top_value), local, both, restated)
        bottom = self._value(_part(mention, bottom_value), local, both, restated)
        division = self._division(mention, top, bottom)
        if division is None:
            if whole is not None:
                return whole
            return top if top.problem is not None or not top.trusted else bottom
        if whole is None or whole.problem is not None or not whole.trusted:
            return division
        if self.adapting and whole.new != division.new:
            return _Resolved(
                mention.value,
                None,
                True,
                f"{mention.text} could be a value or a division of its numbers: ambiguous",
                [*whole.pieces, *division.pieces],
            )
        return whole

    def _fraction_pieces(self, top: Fraction, bottom: Fraction) -> list[tuple[_Piece, _Piece]]:
        """The numerator and denominator pieces of the request fractions written ``top/bottom``
        ("3/4" for "three quarters")."""
        return [
            (numerator, denominator)
            for numerator in self.pieces
            for denominator in self.pieces
            if numerator.quantity == denominator.quantity
            and (numerator.part, denominator.part) == ("numerator", "denominator")
            and (numerator.old, denominator.old) == (top, bottom)
        ]

    def _division(self, mention: Mention, top: _Resolved, bottom: _Resolved) -> _Resolved | None:
        """A fraction in figures read as the division of its two numbers, when both are traced
        (``None`` otherwise); for the new request, the quotient of their new values, which it
        must give."""
        if top.problem is not None or bottom.problem is not None:
            return None
        if not top.trusted or not bottom.trusted:
            return None
        new = None
        if top.new is not None and bottom.new is not None and bottom.new != 0:
            new = top.new / bottom.new
        division = _Resolved(
            mention.value, new, True, None, [*top.pieces, *bottom.pieces], (top, bottom)
        )
        if self.adapting and new is None:
            division.problem = f"{mention.text} divides values the new request does not give"
        return division

    def _value(
        self,
        mention: Mention,
        local: Sequence[_Value] = (),
        together: set[int] | None = None,
        restated: frozenset[Fraction] = frozenset(),
        priced: bool = False,
    ) -> _Resolved:
        """Every source of the value ``mention`` writes (see :meth:`resolve`): the request
        quantities of that value, with the doubts each carries; earlier results and values of
        the same equation; a constant of the world."""
        prose = together is None
        value = -mention.value if prose and mention.negative else mention.value
        pieces = self._candidates(mention, value, prose, priced)
        sources: list[_Source] = []
        for piece in pieces:
            sources.append((piece.new, True, f"quantity {piece.quantity + 1}"))
            doubt = self._unit_doubt(piece, mention, value, prose, restated)
            if doubt is not None:
                sources.append(doubt)
            alone = self._part_alone(piece, together)
            if alone is not None:
                sources.append(alone)
        for known in [*self.computed, *local]:
            if known.old == value:
                sources.append((known.new, known.trusted, known.origin))
        # An amount of money is no constant of the world ("$1.00" is the request's $1).
        if (
            value not in self.gone
            and not _is_money(mention)
            and _constant(value, self.context, self.named)
        ):
            sources.append((value, True, "a constant"))
        return self._agreed(mention, value, sources, pieces)

    def _candidates(
        self, mention: Mention, value: Fraction, prose: bool, priced: bool
    ) -> list[_Piece]:
        """The request pieces of ``value`` that ``mention`` may write; when one of them
        counts what the mention's unit says, only those whose unit is not surely another
        ("$5.00" where the request has "5 apples" and "$5": the amount, not the count)."""
        candidates = [
            piece
            for piece in self.pieces
            if piece.old == value and self._may_write(mention, piece, prose, priced)
        ]
        if any(
            _surely_same_unit(mention.unit, piece.unit_for(mention.unit)) for piece in candidates
        ):
            candidates = [
                piece
                for piece in candidates
                if not _surely_other_unit(mention.unit, piece.unit_for(mention.unit))
            ]
        return candidates

    def _may_write(self, mention: Mention, piece: _Piece, prose: bool, priced: bool) -> bool:
        """Whether ``mention`` may write the request piece ``piece`` of the same value."""
        if prose and piece.part != "value" and not (piece.part == "count" and mention.scale != 1):
            return False  # prose writes a whole quantity, or the count of a scaled one
        if piece.part == "percent" and _is_money(mention):
            return False  # the 25 of "25%" is never an amount of money
        # The factor of an amount of money is no amount of money ("4 * $4.00").
        return not (priced and piece.part == "value" and self._money_quantity(piece.quantity))

    def _unit_doubt(
        self,
        piece: _Piece,
        mention: Mention,
        value: Fraction,
        prose: bool,
        restated: frozenset[Fraction],
    ) -> _Source | None:
        """A second origin of ``mention`` besides the request piece, when the mention may not
        be that quantity: written with another unit, or a bare number of a sentence."""
        unit = piece.unit_for(mention.unit)
        if not _same_unit(mention.unit, unit) and not (prose and value in restated):
            # "24 hours" where the request's 24 counts rolls: perhaps not that quantity, and
            # then perhaps derived in a way the family does not see (unless it is a constant:
            # "one jacket").
            constant = not self.adapting or _constant(value, self.context, self.named)
            return (value if constant else None, True, f"'{mention.text} {mention.unit}'")
        if (
            prose
            and self.adapting
            and mention.unit != unit
            and value not in restated
            and not _same_words(mention, self.quantities[piece.quantity])
        ):
            # "so 2 are needed" where the request's 2 counts teachers.
            return (None, True, f"'{mention.text}' of a sentence")
        return None

    def _part_alone(self, piece: _Piece, together: set[int] | None) -> _Source | None:
        """The numerator or denominator of a request fraction whose other part changed is
        rebound only together with it (see :meth:`resolve`)."""
        if piece.part not in ("numerator", "denominator") or not self.adapting:
            return None
        assert self.new_quantities is not None
        other = "denominator" if piece.part == "numerator" else "numerator"
        old_q = self.quantities[piece.quantity].value
        new_q = self.new_quantities[piece.quantity].value
        if getattr(old_q, other) == getattr(new_q, other) or piece.quantity in (together or ()):
            return None
        return (None, True, f"the {piece.part} of quantity alone")

    def _agreed(
        self, mention: Mention, value: Fraction, sources: list[_Source], pieces: list[_Piece]
    ) -> _Resolved:
        """``mention`` resolved from its ``sources``: traced when it has one, trusted when
        one is; rebound only when they all give it the same known new value."""
        if not sources:
            return _Resolved(value, None, False, f"{mention.text} cannot be traced", pieces)
        trusted = any(source[1] for source in sources)
        if not self.adapting:
            return _Resolved(value, None, trusted, None, pieces)
        news = {source[0] for source in sources}
        if len(news) != 1 or None in news:
            origins = ", ".join(sorted({source[2] for source in sources}))
            return _Resolved(
                value, None, trusted, f"{mention.text} could be {origins}: ambiguous", pieces
            )
        return _Resolved(value, news.pop(), trusted, None, pieces)

    def _money_quantity(self, index: int) -> bool:
        """Whether request quantity ``index`` is stated as an amount of money ("$4", "4
        dollars")."""
        unit = self.quantities[index].unit
        return unit is not None and (unit in _CURRENCY_WORDS or unit in _MONEY_WORDS)

    # -- one step ----------------------------------------------------------------------------

    def step(self, index: int, text: str) -> StepTrace:
        math = read_step(text)
        self.at = index
        self._text = text
        self._results = {}
        self._rounded = set()
        # The numbers a calculator annotation restates: traced as the sentence's numbers.
        self._twins = restated_by_annotations(text)
        resolved: dict[int, _Resolved] = {}
        wrong: list[str] = []
        problems: list[str] = list(math.unreadable)
        for equation in math.equations:
            self._equation(math, equation, resolved, wrong, problems)
        restated = frozenset(math.mentions[i].value for i in math.in_equation)
        claims = read_prose(text).claims
        for claim in claims:
            self._claim(math, claim, resolved, restated)
        for leaf, equation in self._results.items():
            if resolved[leaf].exact is not None and leaf not in self._rounded:
                problems.append(f"'{equation.text}' is rounded")
        for i, mention in enumerate(math.mentions):
            if i not in resolved:
                resolved[i] = self.resolve(mention, restated=restated)
        for i in sorted(resolved):
            problem = resolved[i].problem
            if problem is not None:
                problems.append(problem)
            elif not resolved[i].trusted:
                problems.append(f"{math.mentions[i].text} comes from an untraced number")
        final = None
        if math.mentions:
            last = resolved[len(math.mentions) - 1]
            # The final number follows from the request only when every number it was
            # calculated from does ("45 + 22 = 67" with an untraced 45 gives no answer).
            final = last.old if last.problem is None and last.trusted else None
        # A quantity is used where a calculation or a claim of the step uses it (a claim is
        # re-evaluated there: "$45 is under $50").
        claimed = {i for claim in claims for i in claim.numbers}
        used = frozenset(
            piece.quantity
            for i, found in resolved.items()
            if i in math.in_equation or i in claimed
            for piece in found.pieces
        )
        result = StepTrace(
            index,
            tuple(wrong),
            problems[0] if problems else None,
            len(math.mentions),
            final=final,
            used=used,
        )
        if not self.adapting or wrong or problems:
            return result
        rewritten, problem = self._rewrite(text, math, resolved)
        if problem is not None:
            return StepTrace(index, (), problem, len(math.mentions), final=final, used=used)
        changed = rewritten != text
        return StepTrace(index, (), None, len(math.mentions), rewritten, changed, final, used)

    def _claim(
        self,
        math: StepMath,
        claim: Claim,
        resolved: dict[int, _Resolved],
        restated: frozenset[Fraction],
    ) -> None:
        """Resolve the numbers of a comparison or a rounding written in words. A rounding
        computes its result ("3.75, rounded up to 4": 4 is the value 3.75 rounded up), which is
        recomputed for new quantities like any calculation; the result may have other origins
        too (a quantity of the same value), and is ambiguous when they disagree."""
        first, second = claim.numbers[:2]
        for i in claim.numbers:
            if i not in resolved and not (claim.kind == "rounding" and i == second):
                resolved[i] = self.resolve(math.mentions[i], restated=restated)
        for i in claim.numbers:
            for known in self.computed:
                if known.old == math.mentions[i].value:
                    known.consumed = True
        exact = resolved[first].exact if first in resolved else None
        if claim.kind == "rounding" and exact is not None:
            for known in self.computed:
                if known.old == exact:
                    known.consumed = True
        if claim.kind == "rounding" and first in self._results:
            self._rounded.add(first)
        if claim.kind != "rounding" or second in resolved:
            return
        source = resolved[first]
        unit: Fraction | None = claim.unit
        if len(claim.numbers) > 2:  # "to the nearest ten": the unit is a number too
            scale = resolved[claim.numbers[2]]
            unit = scale.new if scale.problem is None else None
        new = None
        if self.adapting and source.new is not None and source.problem is None and unit:
            new = rounded(source.new, claim.mode, unit)
        value = _Value(
            math.mentions[second].value,
            new,
            source.trusted and source.problem is None,
            f"rounded in '{claim.text}'",
            step=self.at,
        )
        resolved[second] = self.resolve(math.mentions[second], [value], restated=restated)
        self.computed.append(value)

    def _equation(
        self,
        math: StepMath,
        equation: Equation,
        resolved: dict[int, _Resolved],
        wrong: list[str],
        problems: list[str],
    ) -> None:
        first = equation.sides[0]
        self._derives = set()
        local: list[_Value] = []
        old = self._side(math, first, local, resolved)
        if old is None:
            wrong.append(f"'{equation.text}' divides by zero")
            return
        trusted = all(resolved[leaf].trusted for leaf in leaves(first))
        new: Fraction | None = None
        if self.adapting and all(resolved[leaf].new is not None for leaf in leaves(first)):
            try:
                new = evaluate(first, lambda i: _known(resolved[i].new))
            except ZeroDivisionError:
                problems.append(f"'{equation.text}' would divide by zero")
        local.extend(self._operations(math, first, resolved, trusted))
        time = self._time_of(math, equation, resolved)
        if self.adapting and new is not None:
            # A result that holds must still be a valid value of what it counts (a share
            # within its whole, hours within the day of the story: see ``kinds.py``).
            result_at = _result_leaf(equation.sides[-1]) if len(equation.sides) > 1 else None
            percent = result_at is not None and math.mentions[result_at[0]].form == "percent"
            invalid = self.bounds.value(old, new, time, percent=percent)
            if invalid is not None:
                problems.append(f"'{equation.text}': {invalid}")
        for side in equation.sides[1:]:
            result = _result_leaf(side)
            if result is not None:
                leaf, sign = result
                written = sign * math.mentions[leaf].value
                if not _holds(old, written, math.mentions[leaf], equation.approximate):
                    wrong.append(f"'{equation.text}' does not hold: it is {_show(old)}")
                    return
                if written != old:
                    # Any later use of the rounded value is not rebound (its new value is not
                    # known); a rounding in words right after it is (see ``_claim``).
                    self.computed.append(
                        _Value(written, None, trusted, "a rounded value", step=self.at)
                    )
                resolved[leaf] = _Resolved(
                    math.mentions[leaf].value,
                    None if new is None else sign * new,
                    trusted,
                    _meaning(old, new, equation.text, _is_money(math.mentions[leaf])),
                    exact=old if written != old else None,
                )
                self._results[leaf] = equation
                if math.mentions[leaf].form == "percent" and written == old:
                    # "21 / 35 * 100% = 60%. #### 60": the number of percent restates it.
                    self._percents.append(
                        _Value(
                            old * 100,
                            None if new is None else sign * new * 100,
                            trusted,
                            f"the percent of '{equation.text}'",
                            self.at,
                        )
                    )
                continue
            value = self._side(math, side, local, resolved)
            if value is None:
                wrong.append(f"'{equation.text}' divides by zero")
                return
            if value != old:
                wrong.append(f"'{equation.text}' does not hold: {_show(old)} is not {_show(value)}")
                return
            if self.adapting and new is not None:
                try:
                    again = evaluate(side, lambda i: _known(resolved[i].new))
                except (ZeroDivisionError, _Unknown):
                    again = None
                if again != new:
                    problems.append(f"'{equation.text}' would not hold for the new quantities")
            local.extend(self._operations(math, side, resolved, trusted))
        written_in = self._result_unit(math, equation)
        if self.adapting:
            self._fits_units(math, equation, resolved, written_in)
        derives = frozenset(self._derives)
        self.computed.append(
            _Value(
                old,
                new,
                trusted,
                f"computed in '{equation.text}'",
                self.at,
                derives=derives,
                unit=written_in,
                time=time,
            )
        )
        computed_at = len(self.computed) - 1
        for restated in self._percents:
            restated.derives, restated.restates = derives, computed_at
            self.computed.append(restated)
        self._percents = []

    def _side(
        self,
        math: StepMath,
        side: Node,
        local: Sequence[_Value],
        resolved: dict[int, _Resolved],
    ) -> Fraction | None:
        """Resolve the numbers of one side of an equation; its value as written (``None``
        when it divides by zero)."""
        together = self._together(math, side)
        as_fraction = self._written_fractions(math, side)
        priced = _priced_factors(math, side)
        for leaf in leaves(side):
            mention = math.mentions[leaf]
            twin = self._twins.get(leaf)
            if twin is not None and twin in resolved:
                # "<<4*3=12>>" writes the "4 grades * 3 days" before it: the same numbers.
                resolved[leaf] = replace(resolved[twin], pieces=list(resolved[twin].pieces))
            else:
                resolved[leaf] = self.resolve(
                    mention, local, together, as_fraction.get(leaf), priced=leaf in priced
                )
            # A fraction in figures may divide two earlier results ("1200/20"): they are used.
            division = found.division if (found := resolved[leaf]).division else None
            used = {mention.value} | (
                {part.old for part in division} if division is not None else set()
            )
            for at, known in enumerate(self.computed):
                if known.old in used:
                    known.consumed = True
                    self._derives |= {at, *known.derives}
        if self.adapting:
            self._used_twice(math, side, resolved)
        try:
            return evaluate(side, lambda i: math.mentions[i].value)
        except ZeroDivisionError:
            return None

    def _time_of(
        self, math: StepMath, equation: Equation, resolved: dict[int, _Resolved]
    ) -> str | None:
        """The unit of time the equation's result counts in ("8 hours + 9 hours": "hour"),
        from its numbers' units of time; when they do not tell, the unit written after the
        result ("= 17 hours"). ``None``: no time, or one that is not known."""
        combined = combine_time(equation.sides[0], lambda i: self._leaf_time(math, i, resolved))
        if combined is not None:
            return combined or None
        result = _result_leaf(equation.sides[-1]) if len(equation.sides) > 1 else None
        if result is None:
            return None
        return time_unit(math.mentions[result[0]].unit)

    def _leaf_time(self, math: StepMath, index: int, resolved: dict[int, _Resolved]) -> str | None:
        """A number's unit of time: the one written with it, else its request quantity's
        ("" for a quantity that is no time), else an earlier result's; ``None`` unknown."""
        mention = math.mentions[index]
        written = time_unit(mention.unit)
        if written is not None:
            return written
        found = resolved.get(index)
        units: set[str | None] = set()
        for piece in found.pieces if found is not None else ():
            quantity = self.quantities[piece.quantity]
            units.add((time_unit(quantity.unit) or "") if piece.part == "value" else "")
        units |= {v.time for v in self.computed if v.old == mention.value and v.step >= 0}
        return units.pop() if len(units) == 1 else None

    def _result_unit(self, math: StepMath, equation: Equation) -> Unit | None:
        """The unit of measure the equation writes its result in ("= 28 m", "= $112", "= 9
        square metres"); ``None`` when it writes none, or a word that counts things ("= 16
        left" says nothing of the unit)."""
        result = _result_leaf(equation.sides[-1]) if len(equation.sides) > 1 else None
        if result is None:
            return None
        mention = math.mentions[result[0]]
        unit = unit_at(self._text, mention.end, mention.unit)
        return unit if unit else None

    def _leaf_unit(self, mention: Mention, found: _Resolved) -> Unit | None:
        """The unit a number of an equation has: the request quantity's it is traced to
        (with its rate: "$4 per metre"), else the one written with it, else the one an earlier
        result was written with; ``None`` when its origins disagree or none has a unit."""
        units: set[Unit | None] = {self._piece_unit(piece) for piece in found.pieces}
        units |= {
            known.unit for known in self.computed if known.old == mention.value and known.step >= 0
        }
        if mention.unit is not None and not (
            found.pieces and all(_surely_same_unit(mention.unit, p.unit) for p in found.pieces)
        ):
            # Written with another unit than the quantity's ("24 hours" for "24 rolls"): the
            # written one.
            return unit_at(self._text, mention.end, mention.unit)
        if len(units) != 1:
            return None
        return units.pop()

    def _piece_unit(self, piece: _Piece) -> Unit:
        """A numerator, a denominator or a number of percent is a pure number; the value of a
        quantity has the unit the request states it in."""
        if piece.part in ("numerator", "denominator", "percent"):
            return frozenset()
        if piece.part == "dollars":
            return frozenset({("dollar", 1)})
        return self.units[piece.quantity]

    def _fits_units(
        self,
        math: StepMath,
        equation: Equation,
        resolved: dict[int, _Resolved],
        written_in: Unit | None,
    ) -> None:
        """A request quantity is rebound only where its unit fits its place in the
        calculation. Where the units of a side do not give the unit the result is written in
        ("$4 per metre * 7 m = 28 m"; "2 tablespoons * 3 teaspoons = 6 teaspoons"), or the
        terms of a sum have different units, some number of the calculation is not what it was
        traced to: a conversion or a count of the world of the same value (4 sides, 3
        teaspoons in a tablespoon). None of its request quantities is rebound then. So too
        for an amount the answer's calculations write as money ("28 * $4") that a calculation
        writing no money uses bare ("4 * 7 = 28"): by the answer's own notation another
        number of the same value."""
        result = _result_leaf(equation.sides[-1]) if len(equation.sides) > 1 else None
        sides = equation.sides[:-1] if result is not None else equation.sides
        indices = [leaf for side in equation.sides for leaf in leaves(side)]
        units = {
            leaf: self._leaf_unit(math.mentions[leaf], resolved[leaf])
            for leaf in indices
            if leaf in resolved
        }
        why = None
        for side in sides:
            unit = combine(side, units.get)
            if unit == MISMATCH:
                why = "adds numbers of different units"
            elif (
                isinstance(unit, frozenset) and written_in is not None and differs(unit, written_in)
            ):
                why = f"gives {_unit_text(unit)} where the result is in {_unit_text(written_in)}"
        money = any(_is_money(math.mentions[leaf]) for leaf in indices)
        for leaf in indices:
            found = resolved.get(leaf)
            if found is None or not found.pieces or found.new is None or found.new == found.old:
                continue
            mention = math.mentions[leaf]
            bare_money = (
                not money
                and mention.unit is None
                and mention.value in self.marked
                and all(self.quantities[p.quantity].unit in _CURRENCY_WORDS for p in found.pieces)
            )
            if why is None and not bare_money:
                continue
            found.new = None
            found.problem = (
                f"{mention.text} may not be the quantity of the same value: '{equation.text}' "
                + (why or "writes bare an amount the answer writes as money elsewhere")
                + ": it may be a number of the world (a conversion, a count) instead"
            )

    def _used_twice(self, math: StepMath, side: Node, resolved: dict[int, _Resolved]) -> None:
        """A request quantity that one calculation uses more often than the request states
        its value is ambiguous: one use may be a constant of the same value ("100 cards,
        40%": 40/100 * 100; "2 pairs": 2 * 2; "4 cars' wheels": 4 * 4)."""
        uses: dict[Fraction, list[int]] = {}
        for leaf in leaves(side):
            found = resolved[leaf]
            if found.pieces and found.new is not None and found.new != found.old:
                uses.setdefault(math.mentions[leaf].value, []).append(leaf)
        for value, at in uses.items():
            stated = {piece.quantity for leaf in at for piece in resolved[leaf].pieces}
            if len(at) > len(stated):
                for leaf in at:
                    resolved[leaf].new = None
                    resolved[leaf].problem = (
                        f"{math.mentions[leaf].text} is used {len(at)} times in one calculation "
                        f"and the request states {_show(value)} {len(stated)} time(s): one use "
                        "may be a constant, not the quantity: ambiguous"
                    )

    def _together(self, math: StepMath, side: Node) -> set[int]:
        """Quantities whose numerator and denominator both appear among ``side``'s leaves."""
        parts: dict[int, set[str]] = {}
        for leaf in leaves(side):
            value = math.mentions[leaf].value
            for piece in self.pieces:
                if piece.old == value and piece.part in ("numerator", "denominator"):
                    parts.setdefault(piece.quantity, set()).add(piece.part)
        return {q for q, found in parts.items() if len(found) == 2}

    def _written_fractions(self, math: StepMath, side: Node) -> dict[int, _Piece]:
        """Mentions written as a fraction of the request ("3/4" for "three quarters"): each
        is that fraction's numerator or denominator, whatever else has its value."""
        found: dict[int, _Piece] = {}
        for op in operations(side):
            if op.op != "/" or not isinstance(op.left, Leaf) or not isinstance(op.right, Leaf):
                continue
            top = math.mentions[op.left.index].value
            bottom = math.mentions[op.right.index].value
            matches = self._fraction_pieces(top, bottom)
            if len(matches) == 1:
                found[op.left.index], found[op.right.index] = matches[0]
        return found

    def _operations(
        self, math: StepMath, side: Node, resolved: dict[int, _Resolved], trusted: bool
    ) -> list[_Value]:
        """Intermediate values of ``side`` ("24 * 3 = 72 / 4 = 18" restates 72)."""
        out = []
        for op in operations(side):
            try:
                old = evaluate(op, lambda i: math.mentions[i].value)
                new = evaluate(op, lambda i: _known(resolved[i].new)) if self.adapting else None
            except (ZeroDivisionError, _Unknown):
                continue
            out.append(_Value(old, new, trusted, "an intermediate value"))
        return out

    # -- rewriting ---------------------------------------------------------------------------

    def _rewrite(
        self, text: str, math: StepMath, resolved: dict[int, _Resolved]
    ) -> tuple[str, str | None]:
        edits: list[tuple[int, int, str]] = []
        covered: list[tuple[int, int]] = []
        for i, mention in enumerate(math.mentions):
            covered.append((mention.start, mention.end))
            new = resolved[i].new
            if new is not None and mention.negative and i not in math.in_equation:
                new = -new  # a sign written before a number of a sentence
            if new is None or new == mention.value:
                continue
            if mention.form == "percent" and 0 <= mention.value <= 1 and not 0 <= new <= 1:
                # "80%" of a whole would become "120%": no share of a whole.
                return text, f"{mention.text}% would become {_show(new * 100)}%: past its whole"
            if mention.heading:
                # "Part 2:" may number the answer's parts, or name a quantity: unsure.
                return text, f"the heading number {mention.text} would change"
            if (abs(mention.value) == 1) != (abs(new) == 1) and _may_agree(text, mention):
                # "3 apples are left" -> "1 apples are left": the words that agree with the
                # count (a plural, "is"/"are", "there are") are not rewritten.
                return text, (
                    f"{mention.text} would become {_show(new)}: the words that agree with the "
                    "count would have to change"
                )
            if i in self._rounded and mention.form == "digits" and not _is_money(mention):
                # A result that a rounding in words rounds: exact when it can be ("= 7.5"),
                # else rounded to two decimals ("≈ 6.39"), the sign before it to match.
                sign = _sign_before(text, mention.start)
                if sign is None:
                    return text, f"the result {mention.text} has no sign before it"
                exact = format_decimal(new)
                edits.append((sign, sign + 1, "=" if exact is not None else "\u2248"))
                edits.append((mention.start, mention.end, exact or _approximately(new)))
                continue
            written = self._write(mention, new, resolved[i])
            if written is None:
                return text, f"{_show(new)} cannot be written where {mention.text} was"
            edits.append((mention.start, mention.end, written))
        stale = self._stale_words(text, covered)
        if stale is not None:
            return text, stale
        out = text
        for start, end, written in sorted(edits, reverse=True):
            out = out[:start] + written + out[end:]
        return out, None

    def _write(self, mention: Mention, new: Fraction, found: _Resolved) -> str | None:
        """``new`` written where ``mention`` was, in its notation (``None`` when it cannot
        be): figures keep money's cents and take the fewest decimals otherwise, a count of
        dozens stays a count of dozens, a fraction stays a fraction."""
        if mention.form in ("digits", "percent"):
            return self._write_figures(mention, new, found)
        if mention.form == "fraction":
            return _write_fraction(mention, new, found)
        if mention.form == "mixed":
            return _write_mixed(new)
        return self._write_words(mention, new, found)

    def _write_figures(self, mention: Mention, new: Fraction, found: _Resolved) -> str | None:
        """``new`` in figures, as the mention wrote its number (a percentage as its number of
        percent); separators for thousands where the answer or the new request writes them."""
        scale = 100 if mention.form == "percent" else 1
        value = new * scale
        decimals = 0
        if _is_money(mention) and (mention.decimals > 0 or value.denominator != 1):
            decimals = 2  # $7.50, not $7.5; $24.00 where the answer wrote cents
        # A number of thousands the answer wrote without separators stays without them.
        plain = abs(mention.value * scale) >= 1000
        grouped = mention.grouped or (self.groups and abs(value) >= 1000 and not plain)
        written = format_decimal(value, decimals, grouped)
        if written is not None and mention.text.startswith(".") and written.startswith("0."):
            written = written[1:]  # ".5" stays written without its zero: ".25"
        if written is None and mention.form == "digits" and _is_fraction(found, self):
            # "0.75" for "three quarters" becomes "1/3" for "one third".
            written = f"{value.numerator}/{value.denominator}"
        return written

    def _write_words(self, mention: Mention, new: Fraction, found: _Resolved) -> str | None:
        """``new`` in words: the new request's own words for the same quantity (when it
        writes them in words too), else words for the value."""
        assert self.new_quantities is not None
        for piece in found.pieces:
            old_q = self.quantities[piece.quantity]
            new_q = self.new_quantities[piece.quantity]
            if (
                piece.part == "value"
                and old_q.text.lower() == mention.text.lower()
                and new_q.form == "words"
            ):
                return _like(mention.text, new_q.text)
        try:
            if mention.kind == "number" and new.denominator == 1:
                return _like(mention.text, number_to_words(int(new)))
            if mention.kind == "fraction":
                article = mention.text.lower().startswith(("a ", "an "))
                return _like(mention.text, fraction_to_words(new, article=article))
        except ValueError:
            return None
        return None

    def _stale_words(self, text: str, covered: Sequence[tuple[int, int]]) -> str | None:
        """A changed quantity still named in the step's words outside any rewritten number
        ("on the third day" when the request now says "fifth")."""
        assert self.new_quantities is not None
        for old, new in zip(self.quantities, self.new_quantities, strict=True):
            if old.value == new.value or any(ch.isdigit() for ch in old.text):
                continue
            pattern = r"(?<![\w-])" + re.escape(old.text).replace(r"\ ", r"[\s-]+") + r"(?![\w-])"
            for match in re.finditer(pattern, text, re.IGNORECASE):
                if not any(s <= match.start() and match.end() <= e for s, e in covered):
                    return f"'{match.group()}' names a quantity that changed"
        return None


def _write_fraction(mention: Mention, new: Fraction, found: _Resolved) -> str | None:
    """``new`` as a fraction in figures: a division of two numbers as the division of their
    new values; a fraction over 10, 100 or 1000 over the same power of ten when it can be
    ("1/100" of 1% becomes "2/100" of 2%, as the answer writes it, not "1/50"); any other in
    lowest terms, as a request writes it. ``None`` for a whole number or a division that
    would not divide whole numbers."""
    if found.division is not None:
        top, bottom = (part.new for part in found.division)
        if top is None or bottom is None or top.denominator != 1 or bottom.denominator != 1:
            return None
        return f"{top.numerator}/{bottom.numerator}"
    written_over = mention.denominator
    if written_over in (10, 100, 1000) and (new * written_over).denominator == 1:
        return f"{new * written_over}/{written_over}"
    return f"{new.numerator}/{new.denominator}" if new.denominator != 1 else None


def _write_mixed(new: Fraction) -> str | None:
    """``new`` as a mixed number ("2 1/2"), its whole part or its fraction alone when the
    other is zero; ``None`` for a negative value (no mixed number writes one)."""
    whole, rest = divmod(new.numerator, new.denominator)
    if new < 0:
        return None
    if rest == 0:
        return str(whole)
    part = f"{rest}/{new.denominator}"
    return f"{whole} {part}" if whole else part


def _stated_unit(request: str, quantity: Quantity) -> Unit:
    """The unit ``quantity`` is stated in (a pure number when it has no unit word: "3.14",
    "three quarters")."""
    return unit_at(request, quantity.end, quantity.unit) or frozenset()


def _unit_text(unit: Unit) -> str:
    if not unit:
        return "a pure number"
    above = [name if power == 1 else f"{name}^{power}" for name, power in sorted(unit) if power > 0]
    below = [
        name if power == -1 else f"{name}^{-power}" for name, power in sorted(unit) if power < 0
    ]
    return " ".join(above or ["1"]) + "".join(f" per {name}" for name in below)


# What makes the words around a count agree with it in English: a word right after it (its
# noun or its verb: "3 apples", "3 are left", "3 of them are"), "there is/are" or a
# demonstrative before it ("There are still 3.", "these 3").
_WORD_AFTER = re.compile(r"[\s-]*[^\W\d_]")
_AGREES_BEFORE = re.compile(
    r"(?i)(?:\bthere(?:['\u2019]s|\s+(?:is|are|was|were|will\s+be|remains?))\b[^.!?\n]*"
    r"|\b(?:these|those|are|were|have)\s*)\Z"
)


def _may_agree(text: str, mention: Mention) -> bool:
    """Whether a word of ``text`` may agree in number with ``mention`` (singular for 1,
    plural otherwise): a word right after it, or "there are" (or "these") before it in its
    sentence. "= 1." and "rounded up to 1." have none."""
    if _WORD_AFTER.match(text, mention.end):
        return True
    sentence = max(text.rfind(mark, 0, mention.start) for mark in (".", "!", "?", "\n"))
    before = text[sentence + 1 : mention.start]
    before = before.rstrip("$\u20ac\u00a3\u00a5 ")
    return _AGREES_BEFORE.search(before) is not None


def _sign_before(text: str, at: int) -> int | None:
    """Where the "=" or "≈" right before ``at`` is (spaces between)."""
    before = text[:at].rstrip()
    return len(before) - 1 if before.endswith(("=", "\u2248")) else None


def _approximately(value: Fraction, decimals: int = 2) -> str:
    """``value`` rounded half up to ``decimals`` decimals, in figures."""
    scaled = math.floor(value * 10**decimals + Fraction(1, 2))
    written = format_decimal(Fraction(scaled, 10**decimals), decimals)
    assert written is not None  # a multiple of 10**-decimals has a finite decimal
    return written


def _is_fraction(found: _Resolved, tracer: _Tracer) -> bool:
    """Whether ``found`` is the value of a request quantity that is a fraction."""
    return any(
        piece.part == "value" and tracer.quantities[piece.quantity].kind == "fraction"
        for piece in found.pieces
    )


def _part(mention: Mention, value: Fraction) -> Mention:
    """The numerator or denominator of a fraction in figures, as a number of its own."""
    return Mention(mention.start, mention.end, value, "digits", _show(value), None)


def _same_words(mention: Mention, quantity: Quantity) -> bool:
    """A number written in the words the request writes the quantity in ("ten" for "ten"):
    it restates that quantity."""
    return mention.form == "words" and mention.text.lower() == quantity.text.lower()


def _meaning(old: Fraction, new: Fraction | None, shown: str, money: bool) -> str | None:
    """Why the new value of ``shown`` changes meaning, if it does: a count that becomes
    fractional (an amount of money may, in whole cents), a value that changes sign."""
    if new is None:
        return None
    if money and (new * 100).denominator != 1:
        return f"'{shown}' would give {_show(new)}: an amount that is not whole cents"
    if not money and old.denominator == 1 and new.denominator != 1:
        return f"'{shown}' would give {_show(new)}: a whole number becomes fractional"
    if old >= 0 > new:
        return f"'{shown}' would give {_show(new)}: a value becomes negative"
    if old < 0 <= new:
        return f"'{shown}' would give {_show(new)}: a negative value changes sign"
    return None


_MONEY_WORDS = frozenset({"dollar", "dollars", "euro", "euros", "pound", "pounds", "cents"})


def _priced_factors(math: StepMath, side: Node) -> set[int]:
    """The leaves of ``side`` written without a unit that multiply, directly, a number
    written as money ("4 * $4.00": the 4): a count or a rate, never an amount of money too
    (an amount times an amount is no amount). Only a direct product of two numbers: in
    "(4 + $2) * 3" nothing is said of the 4."""
    found: set[int] = set()
    for op in operations(side):
        if op.op != "*" or not isinstance(op.left, Leaf) or not isinstance(op.right, Leaf):
            continue
        left, right = math.mentions[op.left.index], math.mentions[op.right.index]
        if left.unit is None and _is_money(right):
            found.add(op.left.index)
        if right.unit is None and _is_money(left):
            found.add(op.right.index)
    return found


def _is_money(mention: Mention) -> bool:
    return mention.unit is not None and (
        mention.unit in _CURRENCY_WORDS or mention.unit in _MONEY_WORDS
    )


class _Unknown(Exception):
    """A value the new request does not determine."""


def _known(value: Fraction | None) -> Fraction:
    if value is None:
        raise _Unknown
    return value


def _result_leaf(side: Node) -> tuple[int, int] | None:
    """``(mention, sign)`` when ``side`` is just a number (``18``, ``-6``)."""
    if isinstance(side, Leaf):
        return side.index, 1
    if isinstance(side, Neg) and isinstance(side.operand, Leaf):
        return side.operand.index, -1
    return None


def _holds(value: Fraction, written: Fraction, mention: Mention, approximate: bool) -> bool:
    """``value`` equals the written result, or rounds to it at the written decimals."""
    if value == written:
        return True
    if mention.form != "digits" or (mention.decimals == 0 and not approximate):
        return False
    return abs(value - written) <= Fraction(1, 2 * 10**mention.decimals)


def _show(value: Fraction) -> str:
    return format_decimal(value) or f"{value.numerator}/{value.denominator}"


def _like(old: str, new: str) -> str:
    """``new`` with ``old``'s initial capital."""
    if old[:1].isupper() and new:
        return new[0].upper() + new[1:]
    return new


def trace(
    steps: Sequence[str],
    quantities: Sequence[Quantity],
    new_quantities: Sequence[Quantity] | None = None,
    gone: frozenset[Fraction] = frozenset(),
    request: str = "",
) -> list[StepTrace]:
    """Follow ``steps`` (the texts of an answer's steps) against the request's ``quantities``.

    Without ``new_quantities`` it verifies: each step's equations must hold and its numbers be
    traced. With them (paired one to one with ``quantities``) it also re-instantiates: each
    step's ``text`` is rewritten for the new quantities, and tracing stops after the first step
    that cannot be carried over. ``gone`` holds values the request no longer has (so a
    constant equal to one of them is not trusted); conversion constants (60 minutes...) are
    only considered when ``request`` or the answer mentions their units.

    Example:
        >>> from stepcache_integrations.core.text.quantities import read_quantities
        >>> old = read_quantities("A baker makes 24 rolls and sells three quarters of them.")
        >>> new = read_quantities("A baker makes 40 rolls and sells two fifths of them.")
        >>> steps = ["Sold: 24 * 3/4 = 18 rolls.", "Left: 24 - 18 = 6 rolls."]
        >>> [t.text for t in trace(steps, old, new)]
        ['Sold: 40 * 2/5 = 16 rolls.', 'Left: 40 - 16 = 24 rolls.']
    """
    if new_quantities is not None and len(new_quantities) != len(quantities):
        raise ValueError("new_quantities must pair one to one with quantities")
    tracer = _Tracer(
        quantities,
        new_quantities,
        gone,
        "\n".join([request, *steps]),
        named_count(request),
        request,
    )
    tracer.marked = frozenset(
        math.mentions[leaf].value
        for text in steps
        for math in [read_step(text)]
        for equation in math.equations
        for side in equation.sides
        for leaf in leaves(side)
        if _is_money(math.mentions[leaf])
    )
    tracer.groups = any(q.grouped for q in new_quantities or ()) or any(
        _GROUPED.search(text) for text in steps
    )
    out = []
    for index, text in enumerate(steps):
        found = tracer.step(index, text)
        out.append(found)
        if new_quantities is not None and (found.problem or found.wrong):
            break
    return out


@dataclass(frozen=True)
class Flow:
    """What a whole answer does with the request's quantities and with its own results.

    ``used``: the request quantities its calculations use; ``multiplies``: whether one of
    them multiplies or divides. ``dropped``: the first step whose
    equation computes a result that no later calculation uses and that is not the final
    answer (``None`` when there is none), and ``dropped_value`` that result. An answer that
    computes a value and then leaves it used it in a way the family does not see: it
    compared it, chose by it, or rounded it in words ("Blue: 3 x $15 = $45. Red: 3 x $12 =
    $36. She buys the blue ones: $45"). A result calculated later from the final answer's own
    value is a by-product, not a dropped result.
    """

    used: frozenset[int]
    dropped: int | None = None
    dropped_value: str = ""
    multiplies: bool = False  # some calculation multiplies or divides


def flow(steps: Sequence[str], quantities: Sequence[Quantity], request: str = "") -> Flow:
    """Follow ``steps`` against ``quantities`` (as :func:`trace` verifies) and report what
    the answer does with its values (see :class:`Flow`).

    Example:
        >>> from stepcache_integrations.core.text.quantities import read_quantities
        >>> q = read_quantities("Blue shirts cost $15 and red ones $12. Ana buys 3.")
        >>> flow(["Blue: 3 * $15 = $45", "Red: 3 * $12 = $36", "She buys blue: $45"], q)
        Flow(used=frozenset({0, 1, 2}), dropped=1, dropped_value='36', multiplies=True)
    """
    tracer = _Tracer(
        quantities, None, frozenset(), "\n".join([request, *steps]), named_count(request)
    )
    traced = [tracer.step(index, text) for index, text in enumerate(steps)]
    used: frozenset[int] = frozenset().union(*(found.used for found in traced))
    final = next((found.final for found in reversed(traced) if found.mentions), None)
    multiplies = any(
        op.op in ("*", "/")
        for text in steps
        for equation in read_step(text).equations
        for side in equation.sides
        for op in operations(side)
    )
    answers = {i for i, v in enumerate(tracer.computed) if v.step >= 0 and v.old == final}
    answers |= {tracer.computed[i].restates for i in answers if tracer.computed[i].restates >= 0}
    left = [
        v
        for i, v in enumerate(tracer.computed)
        if v.step >= 0
        and not v.consumed
        and v.old != final
        and i not in answers
        # A by-product of the answer: calculated later from the answer's own value, directly
        # or not ("Unsold: 84 - 63 = 21. Left: 21 - 8 = 13. #### 21").
        and not (answers & v.derives)
    ]
    if not left:
        return Flow(used, multiplies=multiplies)
    first = min(left, key=lambda value: value.step)
    return Flow(used, first.step, _show(first.old), multiplies)
