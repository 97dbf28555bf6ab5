"""What each number of a word problem counts, and the values it may take.

Arithmetic that holds is not enough for an answer to hold: "each friend gets 2.5 kittens",
"she answered 120% of the questions", "he sleeps and works 27 hours a day", "9 days a week"
and "a chance of 1.3" are all results of equations that hold. Every number counts something
with a kind, and each kind has its valid values:

* a **share of a whole** (a fraction, a percentage, a part "of the" whole) lies within its
  whole: at most 1, at most 100%, no more right answers than questions asked;
* a **probability** lies within [0, 1];
* an **age** (years, in a story that tells how old someone is) lies within a human life;
* a **time within a period** the story names ("a day", "each week", "today") lies within the
  period: hours within 24, days within 7 of a week (the bounds are pint's conversions);
* a **count of things that cannot be split** stays whole (the tracer's rule: a whole number
  never becomes fractional), and a renamed thing keeps what the computation relied on: one
  that may be split ("2.5 pizzas each"), a member rather than a group ("3 cows and 2 goats:
  5 animals"), a member of the category the question counts.

The bounds come from the cached answer as much as from the request: a value is held to a
bound only where the cached value kept it (a total of 40 hours in a week is no time within a
day), so a re-instantiation that leaves the valid values of a kind goes to the model, and
anything the cached answer shows to be of another kind is left alone. The lexicons (things
that may be split, groups, categories, words of chance and of periods) are data:
``data/kinds.toml``.

Example:
    >>> bounds = Bounds.of("Ben sleeps 8 hours and works 9 hours a day. How many hours?")
    >>> bounds.value(Fraction(17), Fraction(27), "hour")
    'the result would be 27 hours, more than the 24 hours of a day'
    >>> bounds.value(Fraction(17), Fraction(20), "hour") is None
    True
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Any

import inflect
import pint

from stepcache_integrations.core.tasks.word_problem.arithmetic import (
    BinOp,
    Leaf,
    Neg,
    Node,
    read_step,
)
from stepcache_integrations.core.tasks.word_problem.languages import (
    foreign_ages,
    foreign_part_of,
    foreign_percent,
    foreign_periods,
    foreign_rate_period,
    foreign_share_question,
    foreign_time_unit,
    language_of,
)
from stepcache_integrations.core.tasks.word_problem.units import is_measure
from stepcache_integrations.core.text.memo import text_memo
from stepcache_integrations.core.text.quantities import Quantity, read_quantities

__all__ = [
    "Bounds",
    "category_of_question",
    "combine_time",
    "conversion_factors",
    "counts_in_fractions",
    "is_divisible",
    "is_group",
    "part_of_whole",
    "person_kind",
    "rename_problem",
    "singular",
    "time_unit",
]


@functools.cache
def _lexicon() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/kinds.toml").read_text("utf-8")
    return tomllib.loads(text)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@functools.cache
def _divisible() -> frozenset[str]:
    return _words(_lexicon()["divisible"])


@functools.cache
def _groups() -> frozenset[str]:
    return _words(_lexicon()["groups"])


@functools.cache
def _categories() -> dict[str, frozenset[str]]:
    return {name: _words(members) for name, members in _lexicon()["categories"].items()}


@functools.cache
def _chance_words() -> frozenset[str]:
    return _words(_lexicon()["chance"]["words"])


@functools.cache
def _age_words() -> frozenset[str]:
    return _words(_lexicon()["ages"]["words"])


def _most_age() -> int:
    return int(_lexicon()["ages"]["most"])


@functools.cache
def _period_words() -> dict[str, str]:
    return {
        word: period for period, words in _lexicon()["periods"].items() for word in words.split()
    }


_INFLECT = inflect.engine()


@text_memo(max_chars=50_000)
def singular(word: str) -> str:
    """The singular of an English noun, lower case, hyphens for spaces ("guinea pigs" ->
    "guinea-pig").

    Example:
        >>> singular("Kittens"), singular("geese"), singular("pizza")
        ('kitten', 'goose', 'pizza')
    """
    low = "-".join(word.lower().split())
    found = _INFLECT.singular_noun(low)
    return found if isinstance(found, str) and found else low


def is_divisible(word: str) -> bool:
    """Whether a count of ``word`` may be fractional (a pizza, flour), by the lexicon.

    Example:
        >>> is_divisible("pizzas"), is_divisible("kittens")
        (True, False)
    """
    return singular(word) in _divisible()


@functools.cache
def _people() -> dict[str, str]:
    return {
        word: kind
        for kind, words in _lexicon()["people"].items()
        if kind != "prefixes"
        for word in words.split()
    }


@functools.cache
def _kin_prefix() -> re.Pattern[str]:
    prefixes = "|".join(_lexicon()["people"]["prefixes"].split())
    return re.compile(rf"(?:(?:{prefixes})-?)+")


def person_kind(word: str) -> str | None:
    """Whom ``word`` names relative to the one it belongs to (a "parent", a "peer", a
    "child"...: the lexicon's classes); the word itself for one that compounds a listed word
    without being listed ("stepmother": unknown, so like no other); ``None`` for no person
    the lexicon knows.

    Example:
        >>> person_kind("sisters"), person_kind("grandma"), person_kind("stepmother")
        ('peer', 'grandparent', 'stepmother')
        >>> person_kind("kittens") is None
        True
    """
    single = singular(word)
    if single in _people():
        return _people()[single]
    compound = _kin_prefix().match(single)
    if compound is not None and single[compound.end() :] in _people():
        return single
    return None


def is_group(word: str) -> bool:
    """Whether ``word`` names a group or a container of members (a herd, a box).

    Example:
        >>> is_group("herds"), is_group("goats")
        (True, False)
    """
    return singular(word) in _groups()


# -- time within a period, with pint -------------------------------------------------------------


@functools.cache
def _registry() -> pint.UnitRegistry[float]:
    return pint.UnitRegistry()


@text_memo(max_chars=16_000)
def time_unit(word: str | None) -> str | None:
    """The unit of time ``word`` names ("hours" -> "hour", "hrs" -> "hour"), by pint, or
    in German or Portuguese ("Stunden", "dias": see ``languages.py``); ``None`` for any
    other word.

    Example:
        >>> time_unit("hrs"), time_unit("days"), time_unit("apples"), time_unit("decade")
        ('hour', 'day', None, None)
        >>> time_unit("Stunden"), time_unit("minutos"), time_unit("h"), time_unit("a")
        ('hour', 'minute', 'hour', None)
    """
    if word is None or not word.isalpha():
        return None
    if len(word) < 2 and word.lower() not in _words(_lexicon()["time_symbols"]["words"]):
        return None  # one letter is a word ("a" is pint's year), or a symbol of time ("h")
    foreign = foreign_time_unit(word)
    if foreign is not None:
        return foreign
    registry = _registry()
    try:
        unit = registry.parse_units(word.lower())
    except (pint.errors.UndefinedUnitError, pint.errors.DefinitionSyntaxError, ValueError):
        return None
    except Exception:  # pint may raise other errors for odd words: not a unit of time
        return None
    if unit.dimensionality != registry.parse_units("second").dimensionality:
        return None
    return str(unit)


@text_memo(max_chars=400_000)
def conversion_factors(context: str) -> frozenset[Fraction]:
    """The whole factors between two units of measure that ``context`` names in one dimension,
    by pint: numbers of the world an answer may convert with (32 between quarts and fluid
    ounces, 1760 between miles and yards), whatever conversion a hand-written table misses.
    A unit of time is left to the tracer's cued constants (its calendar has no fixed month).

    Example:
        >>> sorted(conversion_factors("3.5 quarts and 10 ounces a day"))
        [Fraction(32, 1)]
        >>> conversion_factors("3 apples and 4 pears")
        frozenset()
    """
    units: dict[str, Any] = {}
    words = {w.lower() for w in _UNIT_WORD.findall(context) if len(w) > 2}
    words |= {w.lower() for w in _COUNTED_IN.findall(context)}  # "10 oz", not "in" a place
    for word in words:
        if is_measure(word) and time_unit(word) is None:
            units |= {str(u): u for u in _measures(word)}
    found: set[Fraction] = set()
    for a in units.values():
        for b in units.values():
            if a == b or a.dimensionality != b.dimensionality:
                continue
            ratio = _ratio(a, b)
            if ratio is not None and ratio == round(ratio) and 2 <= ratio <= _LARGEST_FACTOR:
                found.add(Fraction(round(ratio)))
    return frozenset(found)


_UNIT_WORD = re.compile(r"[A-Za-z]{2,}")
_COUNTED_IN = re.compile(r"\d\s*([A-Za-z]{2})\b")
_LARGEST_FACTOR = 1_000_000
# An ounce and a pint measure a liquid too ("3.5 quarts and 10 ounces").
_LIQUID = {"ounce": "fluid_ounce"}


def _measures(word: str) -> list[Any]:
    """The pint units ``word`` may name (an ounce of mass and of volume), none if not one."""
    registry = _registry()
    try:
        unit = registry.parse_units(word)
    except Exception:  # pint raises several kinds of error for a word that is no unit
        return []
    found = [unit]
    if str(unit) in _LIQUID:
        found.append(registry.parse_units(_LIQUID[str(unit)]))
    return found


def _ratio(a: Any, b: Any) -> float | None:
    try:
        value = float((1 * a).to(b).magnitude)
    except Exception:  # an offset unit (degrees) or another dimension: no plain factor
        return None
    return value if math.isfinite(value) and abs(value - round(value)) < 1e-9 else None


@functools.lru_cache(maxsize=256)
def _within(period: str, unit: str) -> int | None:
    """How many ``unit`` a ``period`` holds at most (a day: 24 hours; a month: 31 days), or
    ``None`` when ``unit`` is not shorter than ``period``."""
    registry = _registry()
    ratio = float((1 * registry.parse_units(period)).to(registry.parse_units(unit)).magnitude)
    if ratio <= 1:
        return None
    return math.ceil(ratio - 1e-9)


def combine_time(node: Node, time_of: Callable[[int], str | None]) -> str | None:
    """The unit of time of the expression ``node`` from ``time_of(mention index)`` at its
    leaves (a unit such as "hour", "" for a number that is no time): a sum keeps its terms'
    unit, a product or a quotient by a plain number too; "" when the result is no time (a
    ratio of times, hours times days); ``None`` when it is not known.

    Example:
        >>> from stepcache_integrations.core.tasks.word_problem.arithmetic import read_step
        >>> step = read_step("8 + 2 * 9 = 26")
        >>> combine_time(step.equations[0].sides[0], {0: "hour", 1: "", 2: "hour"}.get)
        'hour'
    """
    if isinstance(node, Leaf):
        return time_of(node.index)
    if isinstance(node, Neg):
        return combine_time(node.operand, time_of)
    assert isinstance(node, BinOp)
    left, right = combine_time(node.left, time_of), combine_time(node.right, time_of)
    if node.op in ("+", "-"):
        if left and right and left != right:
            return ""  # hours and minutes added: a conversion the family does not follow
        if left or right:
            return left or right
        return None if left is None or right is None else ""
    if left is None or right is None:
        return None
    if node.op == "*":
        return "" if left and right else left or right
    if not right:
        return left  # hours / 2
    return "" if left else None  # hours / hours; a count per hour is no time


# -- bounds of a request -------------------------------------------------------------------------

_WORD = re.compile(r"[^\W\d_]+")
_SHARE_QUESTION = re.compile(
    r"(?i)\b(?:what|which|how\s+much|find|calculate)\b[^.?!]*\b(?:percent|percentage|%|"
    r"fraction|proportion|share|ratio|probability|chance|likelihood|odds)\b"
)
_PERCENT_QUESTION = re.compile(r"(?i)\b(?:percent|percentage|per\s+cent)\b|%")
# "40 of the 50 questions", "3 out of 5 shots", "12 questions out of 20": a part, then its
# whole, nothing else between them.
_PART_OF = re.compile(
    r"(?i)\s+(?:(?:[^\W\d_]+\s+)?out\s+)?of\s+(?:(?:the|his|her|their|its|my|our|your)\s+)?"
)


@dataclass(frozen=True)
class Bounds:
    """The bounds a request puts on the values of its story (see the module docstring).

    ``periods`` maps each unit of time to the most of it one period of the story holds
    ("hour": 24 where the story says "a day"); ``ages`` that its years are ages ("8 years
    old"), within a human life; ``chance`` says the story is about a
    probability; ``share`` that the question asks for a share (a percentage, a fraction, a
    probability) and ``percent`` that it asks in percent.

    Example:
        >>> Bounds.of("Ana runs 3 days a week. How many days does she run?").periods
        {'day': 7, 'hour': 168, 'minute': 10080, 'second': 604800}
    """

    periods: dict[str, int]
    ages: bool
    chance: bool
    share: bool
    percent: bool

    @staticmethod
    @text_memo(max_chars=400_000)
    def of(request: str) -> Bounds:
        """The bounds of ``request`` (memoised)."""
        words = {word.lower() for word in _WORD.findall(request)}
        # A period named in the singular ("a day", "over a single week", "of his day", "on
        # any given day"): one such period. Read from the word, not the words around it; a
        # story that names one without being set in it loses only reuse (a value is held to
        # a bound only where the cached value kept within it).
        named = _named_periods(request, words)
        periods: dict[str, int] = {}
        for period in named:
            for unit in ("second", "minute", "hour", "day", "week", "month"):
                most = _within(period, unit)
                if most is not None:
                    periods[unit] = min(periods.get(unit, most), most)
        share, percent = foreign_share_question(request)  # "Quantos por cento ...?"
        return Bounds(
            dict(sorted(periods.items())),
            bool(words & _age_words()) or foreign_ages(request),
            bool(words & _chance_words()),
            share or _SHARE_QUESTION.search(request) is not None,
            percent or _PERCENT_QUESTION.search(request) is not None,
        )

    def value(
        self,
        old: Fraction,
        new: Fraction,
        time: str | None = None,
        *,
        computed: bool = True,
        percent: bool = False,
    ) -> str | None:
        """Why ``new`` is no valid value of the kind ``old`` showed (``None`` when it is).

        ``time`` is the unit of time the value counts in (``None``: not a time, or not known);
        ``computed`` that an equation of the answer computed it; ``percent`` that it is a
        share written in percent (its value is the ratio: 80% is 4/5)."""
        within_one = 0 <= old <= 1 and (computed or old.denominator != 1)
        if percent and within_one and not 0 <= new <= 1:
            return f"the result would be {_show(new * 100)}%, more than its whole"
        if time is not None and time in self.periods:
            most = self.periods[time]
            if old <= most < new:
                return (
                    f"the result would be {_show(new)} {time}s, more than the {most} {time}s "
                    f"of {_period_of(time, most)}"
                )
        if self.ages and time == "year" and old <= _most_age() < new:
            return f"the result would be an age of {_show(new)} years, past a human life"
        if self.chance and within_one and not 0 <= new <= 1:
            return f"the result would be {_show(new)}, and a probability lies within 0 and 1"
        if computed and self.share and within_one and not 0 <= new <= 1:
            return f"the result would be {_show(new)}, more than the whole it is a share of"
        if computed and self.share and self.percent and 0 <= old <= 100 < new:
            return f"the result would be {_show(new)} percent, more than the whole"
        return None

    def quantity(self, request: str, old: Quantity, new: Quantity) -> str | None:
        """Why the new request's quantity ``new`` (paired with the cached ``old`` of
        ``request``) is no valid value of its kind: a share past its whole, a time stated
        within a period past it ("26 hours a day"), a count of things that cannot be split
        that becomes fractional."""
        if old.kind in ("fraction", "percent") and 0 <= old.value <= 1 < new.value:
            return f"'{new.text}' is more than the whole it is a share of"
        if (
            old.kind == "number"
            and 0 <= old.value <= 100 < new.value
            and foreign_percent(request[old.end :], language_of(request))
        ):
            return f"'{new.text}' percent is more than the whole it is a share of"
        time = time_unit(old.unit) if _stated_within_period(request, old) else None
        if self.ages and time_unit(old.unit) == "year":
            time = "year"  # "Tom is 8 years old": an age, within a human life
        problem = self.value(old.value, new.value, time, computed=False, percent=False)
        if problem is not None:
            return f"'{new.text}': {problem.replace('the result would be', 'it is')}"
        if (
            old.kind == "number"
            and old.value.denominator == 1
            and new.value.denominator != 1
            and old.unit not in _MONEY
            and time_unit(old.unit) is None
            and not is_measure(old.unit)
            and not (old.unit is not None and is_divisible(old.unit))
        ):
            return f"'{new.text}' makes a whole count fractional: it may count what cannot be split"
        return None


# A time stated within a period: "8 hours a day", "3 days per week", "2 hours each night".
_RATE = re.compile(
    r"(?i)[\s-]*[^\W\d_]+(?:\s+of\s+[^\W\d_]+)?\s+(?:a|an|per|each|every|in\s+a|in\s+one|"
    r"in\s+an|on\s+a|on\s+each)\s+(?:[^\W\d_]+\s+)?(?:second|minute|hour|day|week|month|year"
    r"|night|morning|evening|weekday)\b|[\s-]*[^\W\d_]+\s+(?:daily|weekly|hourly|nightly)\b"
)


def _named_periods(text: str, words: set[str], language: str | None = None) -> set[str]:
    """The periods ``text`` (its lower-case ``words``) names one of: "a day", "weekly",
    "am Tag", "por semana" (pint units)."""
    named = {word for word in words if time_unit(word) == word}
    named |= {_period_words()[word] for word in words if word in _period_words()}
    return named | foreign_periods(text, language)  # "am Tag", "por semana": the same bounds


_SENTENCE_END = re.compile(r"[.!?;\n]")


def _stated_within_period(request: str, quantity: Quantity) -> bool:
    """Whether ``quantity`` of ``request`` is a time stated within a period: "8 hours a day"
    in English, "8 Stunden am Tag" or "8 horas por dia" in a language the family reads, or a
    time in a sentence that names a longer period ("Each week, Jo works 5 days", "Jede Woche
    arbeitet Jo 5 Tage", "Por semana, a Jo trabalha 5 dias")."""
    after = request[quantity.end :]
    language = language_of(request)
    if _RATE.match(after) is not None or foreign_rate_period(after, language) is not None:
        return True
    unit = time_unit(quantity.unit)
    if unit is None:
        return False
    starts = [m.end() for m in _SENTENCE_END.finditer(request, 0, quantity.start)]
    end = _SENTENCE_END.search(request, quantity.end)
    sentence = request[starts[-1] if starts else 0 : end.start() if end else len(request)]
    words = {word.lower() for word in _WORD.findall(sentence)}
    return any(_within(period, unit) for period in _named_periods(sentence, words, language))


_MONEY = frozenset({"$", "€", "£", "¥", "cents", "dollars", "dollar", "euros", "pounds"})


def _period_of(unit: str, most: int) -> str:
    for period in ("minute", "hour", "day", "week", "month", "year"):
        found = _within(period, unit)
        if found == most:
            return f"a {period}"
    return "its period"


def _show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


def part_of_whole(request: str, old: Sequence[Quantity], new: Sequence[Quantity]) -> str | None:
    """Why the new quantities break a part-of-whole relation the cached request states ("40
    of the 50 questions" is a part within its whole: "60 of the 50" is none).

    Example:
        >>> from stepcache_integrations.core.text.quantities import read_quantities
        >>> old = read_quantities("Ana got 40 of the 50 questions right.")
        >>> new = read_quantities("Ana got 60 of the 50 questions right.")
        >>> part_of_whole("Ana got 40 of the 50 questions right.", old, new)
        "'60' of '50': a part is more than its whole"
    """
    language = language_of(request)
    for i in range(len(old) - 1):
        part, whole = old[i], old[i + 1]
        between = request[part.end : whole.start]
        if _PART_OF.fullmatch(between) is None and not foreign_part_of(between, language):
            continue
        if part.kind != "number" or whole.kind != "number":
            continue
        if part.value <= whole.value and new[i].value > new[i + 1].value:
            return f"'{new[i].text}' of '{new[i + 1].text}': a part is more than its whole"
    return None


# -- renames -------------------------------------------------------------------------------------

_COUNTED = re.compile(
    r"(?i)\b(?:how\s+many|number\s+of|total\s+of)\s+((?:[^\W\d_]+[\s-]+){0,2}?[^\W\d_]+?)"
    r"(?=\s+(?:do|does|did|are|were|is|was|will|would|can|could|should|has|have|had|in|on|at"
    r"|does|altogether|together|total|left|remain|there)\b|[?.,!]|\s*\Z)"
)


def _counted_noun(words: str) -> str:
    """The noun of "how many <words>": the last plural among them ("hedge plants grow":
    "plant"), else the first word, as a singular."""
    found = words.split()
    plurals = [w for w in found if isinstance(_INFLECT.singular_noun(w.lower()), str)]
    return singular(plurals[-1] if plurals else found[0])


def category_of_question(request: str, story: frozenset[str]) -> str | None:
    """The word a "how many ...?" question counts when it is a category of the lexicon, or
    when neither ``story`` nor the rest of the request names it ("3 cows and 2 goats. How
    many animals?": "animal"), as a singular; ``None`` when the question counts a thing of
    the story, or asks no count.

    Example:
        >>> category_of_question("Bo has 3 cats and 2 dogs. How many pets?",
        ...                      frozenset({"bo", "cat", "dog"}))
        'pet'
    """
    for match in _COUNTED.finditer(request):
        counted = _counted_noun(match.group(1))
        rest = request[: match.start(1)] + " " + request[match.end(1) :]
        elsewhere = {singular(word) for word in _WORD.findall(rest)}
        if is_measure(counted) or time_unit(counted) is not None:
            continue  # "how many kilograms": a measure, no category of things
        if counted in _categories() or (counted not in story and counted not in elsewhere):
            return counted
    return None


def rename_problem(things: Sequence[tuple[str, str]], request: str, fractional: bool) -> str | None:
    """Why renaming the things ``things`` (old word, new word) in ``request`` changes what
    the cached ``answer`` relied on, or ``None``: a member renamed into a group (or back), a
    thing that may be split renamed into one that may not where the answer counts in
    fractions (``fractional``), a member of the category the question counts renamed into
    something the lexicon does not know as one.

    Example:
        >>> rename_problem([("pizzas", "kittens")], "10 pizzas shared by 4. How many each?", True)
        "'pizzas' -> 'kittens': the answer counts in fractions, and kittens may not be split"
    """
    category = category_of_question(request, frozenset())
    counted = {_counted_noun(match.group(1)) for match in _COUNTED.finditer(request)}
    stated = {singular(q.unit) for q in read_quantities(request) if q.unit is not None}
    for old, new in things:
        shown = f"'{old}' -> '{new}'"
        # Only a thing a quantity counts ("2 goats") adds into a sum of members.
        itself = singular(old) in counted or singular(old) not in stated
        if category in (singular(old), singular(new)):
            category = None  # the question counts the renamed thing itself
        if is_group(old) != is_group(new) and not itself:
            # "3 cows and 2 goats: how many in all?" is no sum of "3 cows and 2 herds"; a
            # question that counts the renamed thing itself counts it in its new name.
            return f"{shown}: a member and a group of members count differently"
        if person_kind(old) != person_kind(new):
            # "his sister is 5 years younger" -> "his grandmother": the ages (and what a
            # person may do) relied on who the person is to the one they belong to.
            return f"{shown}: a person of another generation or role than the story relates"
        if fractional and not (is_divisible(old) and is_divisible(new)):
            return f"{shown}: the answer counts in fractions, and {new} may not be split"
        if category is not None:
            members = _categories().get(category)
            if members is None or singular(new) not in members or singular(old) not in members:
                return (
                    f"{shown}: the question counts {category}, and the family cannot tell that "
                    f"{new} are {category}s"
                )
    return None


def counts_in_fractions(request: str, steps: Sequence[str], things: Sequence[str]) -> bool:
    """Whether the answer counts one of ``things`` in fractions: a fractional number written
    with it ("2.5 pizzas", "5/4 of a pie"), or a final answer that is fractional and no
    amount of money, measure or share ("10 / 4 = 2.5 ... #### 2.5"). A fraction the answer
    rounds to a whole ("3.22, so 4 packs") counts nothing in fractions.

    Example:
        >>> counts_in_fractions("10 pizzas for 4 friends.", ["10 / 4 = 2.5"], ["pizzas"])
        True
        >>> counts_in_fractions("Bo eats 3/4 of 12 pies.", ["12 * 3/4 = 9"], ["pies"])
        False
    """
    names = {singular(thing) for thing in things}
    last = None
    amounts: set[Fraction] = set()  # values the answer writes as money or a measure
    for text in (request, *steps):
        for mention in read_step(text).mentions:
            last = mention if text is not request else last
            if mention.unit in _MONEY or is_measure(mention.unit):
                amounts.add(mention.value)
            if mention.value.denominator == 1 or mention.form == "percent":
                continue
            if mention.unit is not None and singular(mention.unit) in names:
                return True
            after = re.match(r"\s+(?:of\s+)?(?:an?\s+|the\s+)?([^\W\d_]+)", text[mention.end :])
            if after is not None and singular(after.group(1)) in names:
                return True
    measured = any(
        is_measure(_counted_noun(match.group(1))) for match in _COUNTED.finditer(request)
    )
    return (
        last is not None
        and not measured  # "how many cups of sugar": the answer counts cups
        and last.value.denominator != 1
        and last.form != "percent"
        and last.value not in amounts
        and last.unit not in _MONEY
        and not is_measure(last.unit)
    )
