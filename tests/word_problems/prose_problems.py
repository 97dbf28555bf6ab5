"""Word problems whose answers' words depend on the values, written for these tests (not the
benchmark's templates): conditions and thresholds, comparisons and choices, roundings, implicit
constants that may equal a quantity, equal quantities. Each problem has an oracle that writes
the correct step-by-step answer for any values, in words that follow the values ("so shipping
is free" / "so she pays $5 for shipping"), and pairs of values (cached, new) chosen to flip a
condition, keep it, or make a number coincide with another.

:class:`Oracle` answers every model call of the cache for the problems it knows: a full
answer, the steps after a verified prefix ("Continue the answer"), and repair calls, through
LangChain messages or a LlamaIndex prompt.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from langchain_core.messages import BaseMessage

from stepcache_integrations.core.tasks.word_problem.arithmetic import format_decimal

X = "\u00d7"  # the multiplication sign a model writes
FORMAT = 'Answer step by step, one step a line, and end with the line "#### <answer>".'
CONTINUE = "Continue the answer"

Values = dict[str, Fraction]


def num(value: Fraction) -> str:
    shown = format_decimal(value)
    assert shown is not None, value
    return shown


def usd(value: Fraction) -> str:
    return "$" + num(value)


def F(value: object) -> Fraction:
    return Fraction(str(value))


@dataclass(frozen=True)
class Problem:
    """A problem: its text for given values, the oracle's steps, and (cached, new) pairs."""

    id: str
    kind: str
    text: str  # str.format template over the values, rendered by ``render``
    solve: Callable[[Values], list[str]]
    pairs: tuple[tuple[Values, Values], ...] = ()
    render: Callable[[Values], dict[str, str]] = field(default=lambda v: {})

    def prompt(self, values: Values) -> str:
        shown = {k: num(v) for k, v in values.items()}
        shown.update(self.render(values))
        return f"{self.text.format(**shown)} {FORMAT}"

    def answer(self, values: Values) -> str:
        return "\n".join(self.solve(values))


def _money(*names: str) -> Callable[[Values], dict[str, str]]:
    return lambda v: {name: usd(v[name]) for name in names}


def _vals(**kwargs: object) -> Values:
    return {k: F(v) for k, v in kwargs.items()}


# -- conditions and thresholds -------------------------------------------------------------------


def _shipping(v: Values) -> list[str]:
    cost = v["n"] * v["p"]
    lines = [f"Step 1: Books: {num(v['n'])} {X} {usd(v['p'])} = {usd(cost)}"]
    if cost > v["limit"]:
        lines.append(
            f"Step 2: {usd(cost)} is more than {usd(v['limit'])}, so shipping is free: "
            f"{usd(cost)} + $0 = {usd(cost)}"
        )
        total = cost
    else:
        total = cost + v["ship"]
        lines.append(
            f"Step 2: {usd(cost)} is not more than {usd(v['limit'])}, so she pays "
            f"{usd(v['ship'])} for shipping: {usd(cost)} + {usd(v['ship'])} = {usd(total)}"
        )
    return [*lines, f"#### {usd(total)}"]


SHIPPING = Problem(
    "shipping",
    "threshold",
    "Shipping costs {ship}, and orders over {limit} ship free. Ana buys {n} books at {p} "
    "each. How much does she pay in all?",
    _shipping,
    (
        (_vals(ship=5, limit=50, n=4, p=15), _vals(ship=5, limit=50, n=3, p=15)),  # flips
        (_vals(ship=5, limit=50, n=3, p=15), _vals(ship=5, limit=50, n=4, p=15)),  # flips
        (_vals(ship=5, limit=50, n=4, p=15), _vals(ship=5, limit=50, n=5, p=13)),  # stays
        (_vals(ship=5, limit=50, n=3, p=14), _vals(ship=5, limit=50, n=2, p=16)),  # stays
        (_vals(ship=5, limit=50, n=4, p=15), _vals(ship=5, limit=70, n=4, p=15)),  # limit moves
        (_vals(ship=5, limit=50, n=2, p=25), _vals(ship=5, limit=50, n=2, p=26)),  # the edge
    ),
    _money("ship", "limit", "p"),
)


def _tables(v: Values) -> list[str]:
    guests, seats = v["guests"], v["seats"]
    if guests > seats:
        return [
            f"Step 1: {num(guests)} guests, which is more than {num(seats)}, so a second "
            "table is set up.",
            f"Step 2: Seats: {num(seats)} + {num(seats)} = {num(2 * seats)}",
            f"Step 3: Empty seats: {num(2 * seats)} - {num(guests)} = {num(2 * seats - guests)}",
            f"#### {num(2 * seats - guests)}",
        ]
    return [
        f"Step 1: {num(guests)} guests, which is not more than {num(seats)}, so one table "
        "is enough.",
        f"Step 2: Empty seats: {num(seats)} - {num(guests)} = {num(seats - guests)}",
        f"#### {num(seats - guests)}",
    ]


TABLES = Problem(
    "tables",
    "threshold",
    "A host expects {guests} guests. A table seats {seats} guests, and a second table is set "
    "up when the guests do not fit at one. How many seats are left empty?",
    _tables,
    (
        (_vals(guests=10, seats=8), _vals(guests=6, seats=8)),  # the example
        (_vals(guests=6, seats=8), _vals(guests=10, seats=8)),
        (_vals(guests=10, seats=8), _vals(guests=12, seats=8)),  # stays
        (_vals(guests=5, seats=8), _vals(guests=7, seats=9)),  # stays
        (_vals(guests=10, seats=8), _vals(guests=10, seats=11)),  # the seats move
    ),
)


def _discount(v: Values) -> list[str]:
    cost = v["n"] * v["p"]
    lines = [f"Step 1: Games: {num(v['n'])} {X} {usd(v['p'])} = {usd(cost)}"]
    if cost >= v["least"]:
        paid = cost - v["off"]
        lines.append(
            f"Step 2: {usd(cost)} is at least {usd(v['least'])}, so the discount applies: "
            f"{usd(cost)} - {usd(v['off'])} = {usd(paid)}"
        )
    else:
        paid = cost
        lines.append(f"Step 2: {usd(cost)} is under {usd(v['least'])}, so he pays {usd(cost)}.")
    return [*lines, f"#### {usd(paid)}"]


DISCOUNT = Problem(
    "discount",
    "threshold",
    "A shop takes {off} off any order of at least {least}. Bo buys {n} games at {p} each. "
    "How much does he pay?",
    _discount,
    (
        (_vals(off=10, least=80, n=3, p=30), _vals(off=10, least=80, n=2, p=30)),  # flips
        (_vals(off=10, least=80, n=2, p=30), _vals(off=10, least=80, n=3, p=30)),  # flips
        (_vals(off=10, least=80, n=3, p=30), _vals(off=10, least=80, n=4, p=25)),  # stays
        (_vals(off=10, least=80, n=4, p=20), _vals(off=10, least=80, n=3, p=25)),  # edge
    ),
    _money("off", "least", "p"),
)


def _enough(v: Values) -> list[str]:
    cost = v["n"] * v["t"]
    if v["money"] >= cost:
        return [
            f"Step 1: Tickets: {num(v['n'])} {X} {usd(v['t'])} = {usd(cost)}",
            f"Step 2: She has enough: {usd(v['money'])} - {usd(cost)} = "
            f"{usd(v['money'] - cost)} is left.",
            f"#### {usd(v['money'] - cost)}",
        ]
    return [
        f"Step 1: Tickets: {num(v['n'])} {X} {usd(v['t'])} = {usd(cost)}",
        f"Step 2: She is short: {usd(cost)} - {usd(v['money'])} = {usd(cost - v['money'])} "
        "more is needed.",
        f"#### {usd(cost - v['money'])}",
    ]


ENOUGH = Problem(
    "enough",
    "threshold",
    "Mia has {money} and wants {n} tickets at {t} each. How much money is left, or how "
    "much more does she need?",
    _enough,
    (
        (_vals(money=40, n=3, t=12), _vals(money=40, n=4, t=12)),  # flips: 36 -> 48
        (_vals(money=40, n=4, t=12), _vals(money=40, n=3, t=12)),
        (_vals(money=40, n=3, t=12), _vals(money=50, n=3, t=12)),  # stays
    ),
    _money("money", "t"),
)

# -- comparisons and choices ---------------------------------------------------------------------


@dataclass(frozen=True)
class Totals:
    """What ``n`` items cost in blue (at ``b``) and in red (at ``r``): the two steps that say
    so, and which colour is cheaper (red when they cost the same)."""

    lines: list[str]
    blue: Fraction
    red: Fraction
    cheap: Fraction
    dear: Fraction
    colour: str


def totals(v: Values, items: str = "") -> Totals:
    blue, red = v["n"] * v["b"], v["n"] * v["r"]
    cheap, dear, colour = (blue, red, "blue") if blue < red else (red, blue, "red")
    lines = [
        f"Step 1: Blue{items}: {num(v['n'])} {X} {usd(v['b'])} = {usd(blue)}",
        f"Step 2: Red{items}: {num(v['n'])} {X} {usd(v['r'])} = {usd(red)}",
    ]
    return Totals(lines, blue, red, cheap, dear, colour)


def _shirts(v: Values) -> list[str]:
    t = totals(v, " shirts")
    return [
        *t.lines,
        f"Step 3: {usd(t.cheap)} is less than {usd(t.dear)}, so the {t.colour} shirts are cheaper.",
        f"#### {usd(t.cheap)}",
    ]


SHIRTS = Problem(
    "shirts",
    "choice",
    "A blue shirt costs {b} and a red shirt costs {r}. Ana buys {n} shirts of the cheaper "
    "colour. How much does she pay?",
    _shirts,
    (
        (_vals(b=12, r=15, n=3), _vals(b=15, r=12, n=3)),  # the prices swap
        (_vals(b=12, r=15, n=3), _vals(b=10, r=14, n=2)),  # the choice stays
        (_vals(b=12, r=15, n=3), _vals(b=16, r=15, n=3)),  # flips
    ),
    _money("b", "r"),
)


def _shirts_terse(v: Values) -> list[str]:
    # Chooses without a word of comparison: the dearer total is left unused.
    t = totals(v, " shirts")
    return [
        *t.lines,
        f"Step 3: She takes the {t.colour} ones: {usd(t.cheap)}",
        f"#### {usd(t.cheap)}",
    ]


SHIRTS_TERSE = Problem(
    "shirts-terse",
    "choice",
    "Blue caps cost {b} and red caps cost {r}. Ana buys {n} caps of the cheaper colour. How "
    "much does she pay?",
    _shirts_terse,
    (
        (_vals(b=12, r=15, n=3), _vals(b=15, r=12, n=3)),
        (_vals(b=12, r=15, n=3), _vals(b=10, r=14, n=2)),
    ),
    _money("b", "r"),
)


def _stickers(v: Values) -> list[str]:
    a, b = v["a"], v["b"]
    hi, lo, name = (a, b, "Ana") if a > b else (b, a, "Bo")
    return [
        f"Step 1: {num(hi)} is greater than {num(lo)}, so {name} has more stickers.",
        f"Step 2: Difference: {num(hi)} - {num(lo)} = {num(hi - lo)}",
        f"#### {num(hi - lo)}",
    ]


STICKERS = Problem(
    "stickers",
    "comparison",
    "Ana has {a} stickers and Bo has {b} stickers. How many more stickers does the one with "
    "more stickers have?",
    _stickers,
    (
        (_vals(a=20, b=13), _vals(a=13, b=20)),  # the names swap
        (_vals(a=20, b=13), _vals(a=25, b=11)),  # stays
    ),
)


# -- rounding -------------------------------------------------------------------------------------


def _vans(v: Values) -> list[str]:
    people = v["pupils"] + v["teachers"]
    share = people / v["seats"]
    vans = Fraction(math.ceil(share))
    return [
        f"Step 1: People: {num(v['pupils'])} + {num(v['teachers'])} = {num(people)}",
        f"Step 2: Vans: {num(people)} ÷ {num(v['seats'])} = {num(share)}",
        f"Step 3: {num(share)}, rounded up, is {num(vans)} vans.",
        f"Step 4: Cost: {num(vans)} {X} {usd(v['cost'])} = {usd(vans * v['cost'])}",
        f"#### {usd(vans * v['cost'])}",
    ]


def _vans_values(pupils: int, teachers: int, seats: int, cost: int) -> Values:
    return _vals(pupils=pupils, teachers=teachers, seats=seats, cost=cost)


VANS = Problem(
    "vans",
    "rounding",
    "{pupils} pupils and {teachers} teachers go on a trip. A van seats {seats} people and "
    "costs {cost} to hire. How much do the vans cost?",
    _vans,
    (
        # 30 / 8 = 3.75 -> 4, which is also the 4 teachers: the coincidence.
        (_vans_values(26, 4, 8, 50), _vans_values(34, 4, 8, 50)),
        (_vans_values(26, 4, 8, 50), _vans_values(27, 4, 8, 50)),
        (_vans_values(20, 2, 8, 50), _vans_values(31, 2, 8, 60)),
        (_vans_values(20, 3, 5, 40), _vans_values(17, 3, 5, 40)),
    ),
    _money("cost"),
)


def _packed(said: str) -> Callable[[Values], list[str]]:
    """Whole boxes of ``box`` eggs, the rounding down said as ``said`` (with ``{share}`` and
    ``{full}``)."""

    def solve(v: Values) -> list[str]:
        share = v["eggs"] / v["box"]
        full = Fraction(math.floor(share))
        return [
            f"Step 1: Boxes: {num(v['eggs'])} ÷ {num(v['box'])} = {num(share)}",
            "Step 2: " + said.format(share=num(share), full=num(full)),
            f"#### {num(full)}",
        ]

    return solve


_boxes = _packed("{share}, rounded down, is {full} full boxes.")


BOXES = Problem(
    "boxes",
    "rounding",
    "A farm has {eggs} eggs and packs them in boxes of {box}. How many full boxes can it fill?",
    _boxes,
    (
        (_vals(eggs=50, box=8), _vals(eggs=70, box=8)),
        (_vals(eggs=50, box=8), _vals(eggs=55, box=8)),
        (_vals(eggs=46, box=5), _vals(eggs=64, box=5)),
    ),
)


_boxes_whole = _packed("Only whole boxes count, so {full} boxes.")


BOXES_WHOLE = Problem(
    "boxes-whole",
    "rounding",
    "A shop has {eggs} muffins and packs them in trays of {box}. How many whole trays can it fill?",
    _boxes_whole,
    (
        (_vals(eggs=50, box=8), _vals(eggs=70, box=8)),
        # 50 / 8 = 6.25 -> 6, and 46 / 8 = 5.75 -> 5.
        (_vals(eggs=50, box=8), _vals(eggs=46, box=8)),
    ),
)


def _flour(v: Values) -> list[str]:
    share = v["grams"] / v["people"]
    near = Fraction(math.floor(share + Fraction(1, 2)))
    return [
        f"Step 1: Per person: {num(v['grams'])} ÷ {num(v['people'])} = {num(share)}",
        f"Step 2: {num(share)}, rounded to the nearest whole number, is {num(near)}.",
        f"#### {num(near)}",
    ]


FLOUR = Problem(
    "flour",
    "rounding",
    "A recipe needs {grams} grams of flour for {people} people. How many grams is that per "
    "person, to the nearest gram?",
    _flour,
    (
        (_vals(grams=250, people=8), _vals(grams=230, people=8)),  # 31.25 -> 31, 28.75 -> 29
        (_vals(grams=250, people=8), _vals(grams=260, people=8)),
    ),
)


def _fence(v: Values) -> list[str]:
    length = v["posts"] * v["gap"]
    near = Fraction(math.floor(length / 10 + Fraction(1, 2))) * 10
    return [
        f"Step 1: Length: {num(v['posts'])} {X} {num(v['gap'])} = {num(length)}",
        f"Step 2: {num(length)}, rounded to the nearest ten, is {num(near)}.",
        f"#### {num(near)}",
    ]


FENCE = Problem(
    "fence",
    "rounding",
    "A fence has {posts} gaps of {gap} metres each. How long is it, to the nearest ten metres?",
    _fence,
    (
        (_vals(posts=13, gap=3), _vals(posts=17, gap=3)),  # 39 -> 40, 51 -> 50
        (_vals(posts=13, gap=3), _vals(posts=14, gap=3)),  # 42 -> 40
    ),
)


# -- implicit constants ---------------------------------------------------------------------------


def _convert(
    pid: str, text: str, first: str, constant: int, label: str, second: str, op: str
) -> Callable[[Values], list[str]]:
    def solve(v: Values) -> list[str]:
        scaled = v[first] * constant
        total = scaled + v[second] if op == "+" else scaled * v[second]
        sign = "+" if op == "+" else X
        return [
            f"Step 1: {label}: {num(v[first])} {X} {constant} = {num(scaled)}",
            f"Step 2: In all: {num(scaled)} {sign} {num(v[second])} = {num(total)}",
            f"#### {num(total)}",
        ]

    return solve


def _constant_problem(
    pid: str,
    text: str,
    first: str,
    constant: int,
    label: str,
    second: str,
    op: str,
    pairs: Sequence[tuple[Values, Values]],
) -> Problem:
    return Problem(
        pid,
        f"constant {constant}",
        text,
        _convert(pid, text, first, constant, label, second, op),
        tuple(pairs),
    )


def _percent(v: Values) -> list[str]:
    given = v["pct"] / 100 * v["cards"]
    return [
        f"Step 1: Given away: {num(v['pct'])}/100 {X} {num(v['cards'])} = {num(given)}",
        f"Step 2: Kept: {num(v['cards'])} - {num(given)} = {num(v['cards'] - given)}",
        f"#### {num(v['cards'] - given)}",
    ]


PERCENT = Problem(
    "percent",
    "constant 100",
    "Mia has {cards} cards and gives away {pct}% of them. How many cards does she keep?",
    _percent,
    (
        (_vals(cards=100, pct=40), _vals(cards=70, pct=20)),  # the example
        (_vals(cards=70, pct=20), _vals(cards=100, pct=40)),
        (_vals(cards=100, pct=25), _vals(cards=200, pct=25)),
        (_vals(cards=80, pct=25), _vals(cards=100, pct=25)),
    ),
)

CONSTANTS = (
    PERCENT,
    _constant_problem(
        "minutes",
        "A film has {hours} hours of scenes and {extra} minutes of credits. How many minutes "
        "long is it?",
        "hours", 60, "Scenes", "extra", "+",
        [(_vals(hours=2, extra=60), _vals(hours=3, extra=45)),
         (_vals(hours=2, extra=45), _vals(hours=3, extra=60))],
    ),
    _constant_problem(
        "week",
        "Ana walks {km} km each day for {weeks} weeks. How many km does she walk?",
        "weeks", 7, "Days", "km", X,
        [(_vals(weeks=3, km=7), _vals(weeks=4, km=5)),
         (_vals(weeks=7, km=5), _vals(weeks=4, km=6))],
    ),
    _constant_problem(
        "months",
        "Leo saves {save} dollars each month for {years} years. How many dollars does he "
        "save?",
        "years", 12, "Months", "save", X,
        [(_vals(years=2, save=12), _vals(years=3, save=10)),
         (_vals(years=12, save=5), _vals(years=3, save=5))],
    ),
    _constant_problem(
        "day",
        "A pump runs for {days} days and moves {rate} litres an hour. How many litres does it "
        "move?",
        "days", 24, "Hours", "rate", X,
        [(_vals(days=3, rate=24), _vals(days=2, rate=30))],
    ),
    _constant_problem(
        "year-weeks",
        "Sam pays {pay} dollars a week for {years} years. How many dollars does he pay?",
        "years", 52, "Weeks", "pay", X,
        [(_vals(years=2, pay=52), _vals(years=3, pay=40))],
    ),
    _constant_problem(
        "year-days",
        "A tree drops {leaves} leaves a day for {years} years. How many leaves does it drop?",
        "years", 365, "Days", "leaves", X,
        [(_vals(years=2, leaves=365), _vals(years=3, leaves=300))],
    ),
    _constant_problem(
        "litres",
        "A jug holds {litres} litres, and {extra} millilitres more are poured into a bowl. How "
        "many millilitres are there in all?",
        "litres", 1000, "Jug", "extra", "+",
        [(_vals(litres=3, extra=1000), _vals(litres=2, extra=500))],
    ),
    _constant_problem(
        "pairs",
        "Ana buys {pairs} pairs of socks and {single} single socks. How many socks does she "
        "buy?",
        "pairs", 2, "In pairs", "single", "+",
        [(_vals(pairs=3, single=2), _vals(pairs=4, single=5)),
         (_vals(pairs=2, single=3), _vals(pairs=5, single=3))],
    ),
)  # fmt: skip


def per_thing(v: Values, counted: str, *things: tuple[str, str, int]) -> list[str]:
    """Two kinds of things and what each has of ``counted`` (a car 4 wheels, a bike 2): the
    steps that count them, with constants of the world the request does not state."""
    (first, a, per_a), (second, b, per_b) = things
    x, y = v[a] * per_a, v[b] * per_b
    return [
        f"Step 1: {first} {counted}: {num(v[a])} {X} {per_a} = {num(x)}",
        f"Step 2: {second} {counted}: {num(v[b])} {X} {per_b} = {num(y)}",
        f"Step 3: {counted.capitalize()}: {num(x)} + {num(y)} = {num(x + y)}",
        f"#### {num(x + y)}",
    ]


def _wheels(v: Values) -> list[str]:
    return per_thing(v, "wheels", ("Car", "cars", 4), ("Bike", "bikes", 2))


WHEELS = Problem(
    "wheels",
    "constant (uncued)",
    "A garage has {cars} cars and {bikes} bikes. How many wheels are there?",
    _wheels,
    (
        # The 4 wheels of a car and the 2 of a bike coincide with the two quantities.
        (_vals(cars=2, bikes=4), _vals(cars=3, bikes=5)),
        (_vals(cars=4, bikes=2), _vals(cars=3, bikes=5)),
    ),
)


# -- equal quantities -----------------------------------------------------------------------------


def _fruit(v: Values) -> list[str]:
    return [
        f"Step 1: Fruits: {num(v['a'])} + {num(v['b'])} = {num(v['a'] + v['b'])}",
        f"#### {num(v['a'] + v['b'])}",
    ]


FRUIT = Problem(
    "fruit",
    "equal quantities",
    "Ana has {a} apples and Bo has {b} pears. They put all of them in one basket. How many "
    "fruits are in the basket?",
    _fruit,
    (
        (_vals(a=5, b=5), _vals(a=7, b=9)),
        (_vals(a=5, b=5), _vals(a=7, b=7)),  # stay equal: either reading gives the same
        (_vals(a=5, b=7), _vals(a=6, b=6)),
    ),
)


def _gifts(v: Values) -> list[str]:
    given = v["each"] * v["friends"]
    return [
        f"Step 1: Given: {num(v['each'])} {X} {num(v['friends'])} = {num(given)}",
        f"Step 2: Left: {num(v['apples'])} - {num(given)} = {num(v['apples'] - given)}",
        f"#### {num(v['apples'] - given)}",
    ]


GIFTS = Problem(
    "gifts",
    "equal quantities",
    "Ana has {apples} apples. She gives {each} apples to each of her {friends} friends. How "
    "many apples does she have left?",
    _gifts,
    (
        (_vals(apples=20, each=3, friends=3), _vals(apples=20, each=2, friends=4)),
        (_vals(apples=20, each=3, friends=4), _vals(apples=20, each=4, friends=3)),  # swap
    ),
)

PROBLEMS: tuple[Problem, ...] = (
    SHIPPING,
    TABLES,
    DISCOUNT,
    ENOUGH,
    SHIRTS,
    SHIRTS_TERSE,
    STICKERS,
    VANS,
    BOXES,
    BOXES_WHOLE,
    FLOUR,
    FENCE,
    *CONSTANTS,
    WHEELS,
    FRUIT,
    GIFTS,
)


# -- the oracle -----------------------------------------------------------------------------------


class Oracle:
    """Answers every model call about the prompts it was told (:meth:`learn`) correctly: the
    whole answer; after a verified prefix and "Continue the answer", only the steps after it;
    a repair call like a first call. Counts the calls it answered."""

    def __init__(self) -> None:
        self.answers: dict[str, str] = {}
        self.calls = 0

    def learn(self, prompt: str, answer: str) -> str:
        self.answers[prompt] = answer
        return prompt

    def ask(self, problem: Problem, values: Values) -> str:
        return self.learn(problem.prompt(values), problem.answer(values))

    def respond(self, conversation: str) -> str:
        self.calls += 1
        prompt = max((p for p in self.answers if p in conversation), key=len, default=None)
        assert prompt is not None, conversation
        lines = self.answers[prompt].split("\n")
        if CONTINUE not in conversation:
            return self.answers[prompt]
        after = conversation.split(prompt, 1)[1]
        done = after.split(CONTINUE, 1)[0]
        shown = len(re.findall(r"(?m)^(?:\w+: )?(?:Step \d+:|####)", done))
        return "\n".join(lines[shown:])

    def langchain(self, messages: list[BaseMessage]) -> str:
        return self.respond("\n".join(f"{m.type}: {m.content}" for m in messages))

    def llama_index(self, prompt: str) -> str:
        return self.respond(prompt)


_NUMBER = re.compile(r"-?\d+(?:,\d{3})*(?:\.\d+)?")


def same_answer(served: str, expected: str) -> bool:
    """Whether two answers say the same, numbers compared by value ("$7.50" = "$7.5")."""

    def form(text: str) -> list[object]:
        out: list[object] = []
        for token in re.findall(r"-?\d+(?:,\d{3})*(?:\.\d+)?|\w+|\S", text):
            out.append(Fraction(token.replace(",", "")) if _NUMBER.fullmatch(token) else token)
        return out

    return form(served) == form(expected)
