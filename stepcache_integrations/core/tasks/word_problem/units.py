"""The units a calculation's numbers carry, and whether a request quantity fits where it is used.

A number an answer writes may equal a request quantity by coincidence: "A square garden has
sides of 7 m. Fencing costs $4 per metre" is answered ``4 * 7 = 28 m``, where the 4 is the
square's four sides, not the $4. Which one it is shows in the units: ``$4 per metre`` times
``7 m`` is dollars, and the step says metres. This module works out the unit of each side of an
equation from the units of its numbers (the request quantity's, or the unit an earlier result
was written with) and compares it with the unit the result is written in. Where they differ,
some number of the calculation is not what it was traced to: a conversion (3 teaspoons in a
tablespoon, 8 pints in a gallon) or a count of the world (4 sides, 5 weekdays) of the same
value, and the family rebinds none of its request quantities.

A unit is a product of units of measure with exponents (``$ per metre`` is dollar¹ metre⁻¹);
words that count things ("apples", "guests") are no unit of measure (a count is a pure
number). Only units of measure and money are compared: any number whose unit is not known
(a constant, a bare number of another origin) leaves the product unknown, and nothing is
concluded from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from stepcache_integrations.core.tasks.word_problem.arithmetic import BinOp, Leaf, Neg, Node
from stepcache_integrations.core.text.memo import TextMemo
from stepcache_integrations.core.text.quantities import known_unit, unit_name
from stepcache_integrations.core.text.stated_dates import ENGLISH_MONTHS

__all__ = [
    "MISMATCH",
    "Unit",
    "combine",
    "differs",
    "is_measure",
    "unit_at",
    "wraps_around",
    "writes_mixed_units",
]

#: A unit: each unit of measure (by :func:`unit_name`) with its exponent, none zero. The empty
#: unit is a pure number (a count of things).
Unit = frozenset[tuple[str, int]]

#: A calculation whose units do not agree: some number in it is not what it was traced to.
MISMATCH: Final = "mismatch"

# Quantities on a scale that wraps around: a time of day (12 or 24 hours), a date (days in a
# month, months in a year), a compass heading or a turn (360 degrees), and a question for a
# time, a day or a date. The family's arithmetic adds them as plain numbers, so a
# re-instantiated answer would write "9 am + 5 hours = 14 am", "March 34" or "a heading of 380
# degrees"; a renamed month changes the days it has ("April 31"). A weekday or a month named
# as the setting ("on Saturday", "by noon", "in March") is no such quantity: only a date (a
# month beside a number) or a question for a day is. When in doubt a cue is here: it costs a
# model call, never a stale answer.
_MONTH = rf"(?:{'|'.join(ENGLISH_MONTHS)})\b\.?"
# Units that carry into each other, the larger first: a quantity an answer writes in both ("1
# hour and 40 minutes", "2 years 3 months") may carry for new values ("1 hour and 70 minutes",
# "1 year and 14 months"), and so may an answer asked "in hours and minutes". A request that
# states one ("5 feet 5 inches") is not at risk while its answer converts it into one unit.
_CARRIES = (
    ("years?|yrs?", "months?"),
    ("weeks?", "days?"),
    ("days?", "hours?|hrs?"),
    ("hours?|hrs?|h", "minutes?|mins?|min"),
    ("minutes?|mins?|min", "seconds?|secs?|sec|s"),
    ("yards?|yd", "feet|foot|ft"),
    ("feet|foot|ft", "inch(?:es)?|in"),
    ("stones?|st", "pounds?|lbs?|lb"),
    ("pounds?|lbs?|lb", "ounces?|oz"),
    ("kilometres?|kilometers?|km", "metres?|meters?|m"),
    ("metres?|meters?|m", "centimetres?|centimeters?|cm"),
    ("kilograms?|kg", "grams?|g"),
    ("litres?|liters?|l", "millilitres?|milliliters?|ml"),
    ("dollars?", "cents?"),
)
# A quantity written in two such units ("1 hour and 40 minutes"), and a question that asks for
# one ("in hours and minutes").
_MIXED = re.compile(
    "(?i)"
    + "|".join(rf"\d\s*(?:{big})\s*(?:and\s+|,\s*)?\d+\s*(?:{small})\b" for big, small in _CARRIES)
)
_ASKED_MIXED = "|".join(
    rf"\b(?:in|into|as)\s+(?:{big})\s+and\s+(?:{small})\b" for big, small in _CARRIES
)
_WRAPPING = re.compile(
    r"(?i)(?:\d\s*(?:a\.?m\b\.?|p\.?m\b\.?)|\bo['\u2019]?\s?clock\b|\d\s*:\s*\d\d\b"
    r"|\d+\s+(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night)\b"
    rf"|\b{_MONTH}\s*\d|\d(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}"
    r"|\b(?:what|which)\s+(?:time|day|date|hour|month)\b|\bday\s+of\s+the\s+week\b"
    r"|\b(?:heading|bearing|compass|(?:counter|anti)[-\s]?clockwise|clockwise|rotat\w*)\b"
    # Positions and bounds written as plain numbers: a clock ("the clock strikes 9", "the hour
    # hand points at 9", "quarter past 9", "1400 hours", "8 hours ahead"), a day, month or
    # hour counted within its year or day ("day 360 of the year", "month number 9", "after
    # the hour"), an angle or a direction in degrees ("faces 300 degrees and turns 40"; a
    # temperature is no angle: see _STATE_CHANGE).
    r"|\b(?:clocks?|hour\s+hand|minute\s+hand|strikes?|struck|time\s+zones?|quarter\s+(?:past|to)"
    r"|half\s+past|past\s+the\s+hour|after\s+the\s+hour|to\s+the\s+hour"
    r"|hours?\s+(?:ahead|behind)|\d{3,4}\s+hours|of\s+the\s+(?:day|week|month|year)"
    r"|(?:day|week|month|hour|year)\s+(?:number|no\.?)"
    r"|degrees?(?!\s*(?:celsius|fahrenheit|kelvin|c\b|f\b|k\b))|\u00b0(?![cfk]\b))\b"
    # A question for a quantity in two units that carry into each other (see _CARRIES).
    rf"|{_ASKED_MIXED})"
)


# A temperature does not wrap, but a substance that it heats or cools changes state (water
# boils at 100 degrees Celsius: heated from 90 by 20 it is 100, not 110). A temperature beside
# a substance or a change of state is bounded; a weather forecast converted is not.
_TEMPERATURE = re.compile(r"(?i)\b(?:celsius|fahrenheit|kelvin|degrees?|\u00b0\s*[cfk])\b|\u00b0")
_STATE_CHANGE = re.compile(
    r"(?i)\b(?:water|ice|steam|snow|milk|oil|soup|tea|coffee|liquid|gas|metal|wax|chocolate|butter"
    r"|boil\w*|freez\w*|froze\w*|melt\w*|evaporat\w*|condens\w*|heat\w*|cool\w*|warm\w*"
    r"|sea\s+level)\b"
)


def writes_mixed_units(text: str) -> bool:
    """Whether ``text`` writes a quantity in two units that carry into each other, which new
    values may carry ("1 year and 14 months").

    Example:
        >>> writes_mixed_units("1 year and 8 months + 3 months = 1 year and 11 months")
        True
        >>> writes_mixed_units("5 * 12 + 5 = 65 inches")
        False
    """
    return _MIXED.search(text) is not None


def wraps_around(text: str) -> bool:
    """Whether ``text`` has a quantity on a scale that wraps around or is bounded (a clock time
    or position, a date, a position within a day or a year, an angle, a temperature beside a
    substance), or asks for a time, a day or a date: plain arithmetic does not carry it over.

    Example:
        >>> wraps_around("A meeting starts at 9 am and lasts 2 hours. When does it end?")
        True
        >>> wraps_around("The trip starts 5 days after March 20. What is the date?")
        True
        >>> wraps_around("A ship on a heading of 300 degrees turns 40 degrees.")
        True
        >>> wraps_around("Ana may buy 3 pens for $2 each. How much does she pay?")
        False
        >>> wraps_around("A film lasts 2 hours; the trailer 15 minutes. How long is the show?")
        False
        >>> wraps_around("On Saturday Ana reads 20 pages and 5 more by noon. How many pages?")
        False
        >>> wraps_around("The clock strikes 9. Ana sleeps 2 hours. How many times does it strike?")
        True
        >>> wraps_around("A robot faces 300 degrees and turns 40 degrees more. Where does it face?")
        True
        >>> wraps_around("A film lasts 1 hour 40 minutes. How long is it, in hours and minutes?")
        True
        >>> wraps_around("Water at 70 degrees Celsius is heated by 20 degrees. How hot is it?")
        True
        >>> wraps_around("The forecast says 30 degrees Celsius. What is that in Fahrenheit?")
        False
        >>> wraps_around("Today is Monday. On which day does the parcel come, 3 days later?")
        True
    """
    return _wraps_around(text)


def _wraps_around_uncached(text: str) -> bool:
    if _WRAPPING.search(text) is not None:
        return True
    return _TEMPERATURE.search(text) is not None and _STATE_CHANGE.search(text) is not None


# The family asks for both requests on every edit of every candidate: the same two texts.
_wraps_around = TextMemo(_wraps_around_uncached, max_chars=200_000)


# Units of measure the quantity reader's list does not name (it abbreviates and converts none
# of them), which convert into each other by numbers of the world: a tablespoon is 3
# teaspoons, a gallon 8 pints, a byte 8 bits. Their plurals are read by ``unit_name``.
_MORE_MEASURES = frozenset(
    """teaspoon tsp tablespoon tbsp cup pint quart stone ton tonne bit byte kilobyte megabyte
    gigabyte terabyte""".split()  # noqa: SIM905
)
# Units of time are counts of periods here, not units of measure: answers multiply by them
# and leave the rate unwritten ("22 km" ridden a day, "4 days a week": "4 * 22 = 88 km").
# (A time constant equal to a quantity, 60 minutes or 7 days, is the tracer's cued constant.)
_PERIODS = frozenset(
    """second minute hour day week weekday fortnight month year decade century""".split()  # noqa: SIM905
)
# Abbreviations that are English words too: a unit only right after a number ("5 in").
_WORDS_TOO = frozenset({"in", "a", "m", "l", "s", "h", "g", "c", "mi", "min", "oz"})
# A word before a unit that makes it an area or a volume ("9 square metres").
_POWERS = {"square": 2, "sq": 2, "cubic": 3}
# What puts a unit in a rate's denominator: "$4 per metre", "8 hours a day", "$2 every week",
# "60 km/h".
_PER = re.compile(
    r"\s*(?:/\s*|\s(?:per|a|an|each|every|for\s+each|for\s+every|in\s+a|in\s+an|in\s+each"
    r"|in\s+one)\s+)([^\W\d_]+)"
)
_WORD_AFTER = re.compile(r"[\s-]*([^\W\d_]+)")


def is_measure(word: str | None) -> bool:
    """Whether ``word`` names a unit of measure or money ("km", "hours", "$", "pints"), not a
    thing that is counted ("apples").

    Example:
        >>> is_measure("Tablespoons"), is_measure("guests")
        (True, False)
    """
    if word is None:
        return False
    name = unit_name(word)
    if name in _PERIODS or name in _MORE_MEASURES:
        return name not in _PERIODS
    return known_unit(word)


def _spelled_measure(word: str) -> bool:
    """A unit of measure that is not also an English word ("in", "a"), for a word that does
    not follow a number right away."""
    return word.lower() not in _WORDS_TOO and is_measure(word)


def _name(word: str) -> str:
    name = unit_name(word)
    assert name is not None
    return name


def unit_at(text: str, end: int, unit: str | None) -> Unit | None:
    """The unit of a number of ``text`` that ends at ``end`` and that the reader gave the unit
    word ``unit`` (``None`` when it gave none: the unit is not known).

    A unit of measure with what follows it: a power before it ("square metres"), a rate after
    it ("$4 per metre", "8 hours a day"); a unit word that counts things is a pure number,
    unless a unit of measure follows it right away ("3 extra days", "32 fluid ounces").

    Example:
        >>> text = "Fencing costs $4 per metre and the side is 7 m."
        >>> sorted(unit_at(text, text.index("4") + 1, "$"))
        [('dollar', 1), ('meter', -1)]
        >>> unit_at(text, text.index("7") + 1, None) is None
        True
    """
    if unit is None:
        return None
    exponents: dict[str, int] = {}
    after = _after_unit(text, end, unit)
    name = _name(unit)
    if unit.lower() in _POWERS:
        following = _WORD_AFTER.match(text, after)
        if following is None or not _spelled_measure(following.group(1)):
            return None  # "square tiles": not a unit the family knows
        exponents[_name(following.group(1))] = _POWERS[unit.lower()]
        after = following.end()
    elif is_measure(unit):
        for i, part in enumerate(name.split(" per ")):  # "km/h": kilometer per hour
            if is_measure(part):
                exponents[_name(part)] = exponents.get(_name(part), 0) + (1 if i == 0 else -1)
    else:
        following = _WORD_AFTER.match(text, after)
        if following is None or not _spelled_measure(following.group(1)):
            return frozenset()  # "8 guests": a count
        exponents[_name(following.group(1))] = 1
        after = following.end()
    rate = _PER.match(text, after)
    if rate is not None and _spelled_measure(rate.group(1)):
        below = _name(rate.group(1))
        exponents[below] = exponents.get(below, 0) - 1
    return frozenset((key, power) for key, power in exponents.items() if power != 0)


def _after_unit(text: str, end: int, unit: str) -> int:
    """Where the unit word written right after the number ends (``end`` when the unit is
    written before it, as "$" is)."""
    found = re.compile(r"[\s-]*" + re.escape(unit), re.IGNORECASE).match(text, end)
    return found.end() if found is not None else end


def combine(node: Node, unit_of: Callable[[int], Unit | None]) -> Unit | str | None:
    """The unit of the expression ``node``, from ``unit_of(mention index)`` at its leaves:
    ``None`` when it is not known, :data:`MISMATCH` when terms of a sum have different units.

    A pure number or an unknown term of a sum takes the other term's unit (a count may be
    added to anything, and nothing is concluded from an unknown); a product multiplies units.

    Example:
        >>> from stepcache_integrations.core.tasks.word_problem.arithmetic import read_step
        >>> step = read_step("2 * 3 = 6")
        >>> units = {0: frozenset({("tablespoon", 1)}), 1: frozenset({("teaspoon", 1)})}
        >>> sorted(combine(step.equations[0].sides[0], units.get))
        [('tablespoon', 1), ('teaspoon', 1)]
    """
    if isinstance(node, Leaf):
        return unit_of(node.index)
    if isinstance(node, Neg):
        return combine(node.operand, unit_of)
    assert isinstance(node, BinOp)
    left, right = combine(node.left, unit_of), combine(node.right, unit_of)
    if isinstance(left, str) or isinstance(right, str):
        return MISMATCH
    if node.op in ("+", "-"):
        if not left:  # unknown or a pure number
            return right if right else left
        if not right or not differs(left, right):
            return left
        return MISMATCH
    if left is None or right is None:
        return None
    sign = 1 if node.op == "*" else -1
    exponents: dict[str, int] = dict(left)
    for key, power in right:
        exponents[key] = exponents.get(key, 0) + sign * power
    return frozenset((key, power) for key, power in exponents.items() if power != 0)


def differs(a: Unit, b: Unit) -> bool:
    """Whether two units differ in what they measure: the units over the line (a rate's "per
    ..." may be left unwritten: "$210" saved a month).

    Example:
        >>> dollars_a_metre = frozenset({("dollar", 1), ("meter", -1)})
        >>> differs(dollars_a_metre, frozenset({("dollar", 1)}))
        False
        >>> differs(frozenset({("gallon", 1)}), frozenset({("pint", 1)}))
        True
    """
    return {u for u in a if u[1] > 0} != {u for u in b if u[1] > 0}
