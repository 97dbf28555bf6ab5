"""Word problems whose answer uses a constant of the world that equals a stated quantity.

"A square garden has sides of 7 m. Fencing costs $4 per metre." is answered with
`4 * 7 = 28 m` (a square has 4 sides) and `28 * $4 = $112`. Asked again with $5 per metre,
the 4 sides are still 4: `4 * 7 = 28 m`, `28 * $5 = $140`. A cache that takes the 4 of the
perimeter for the stated $4 rebinds it and serves `5 * 7 = 35 m`, `35 * $5 = $175`.

The constants here are ordinary school and kitchen knowledge: the sides of a square,
triangle, pentagon, hexagon and octagon, the 2 of a rectangle's perimeter, of a round trip,
of a circle's circumference and of a fortnight in weeks, 3 teaspoons in a tablespoon, 4 quarts
in a gallon, 8 pints in a gallon, 8 fluid ounces in a cup, 8 bits in a byte, 14 days in a
fortnight, 14 pounds in a stone, 3 months in a quarter, 5 weekdays in a week, 4 cups in a
quart and the 6 faces of a cube. Each problem states one quantity equal to the constant, and
the new request changes that quantity only; every answer is computed in this file.

The second class, :func:`number_cases`, changes a quantity so that a count becomes 1: the
answer's words must agree with it ("1 apple is left", not "1 apples are left").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tests.security.sound_reuse.cases.common import STREAMED, case, money, num

F = Fraction
X = "\u00d7"  # the multiplication sign models write


@dataclass(frozen=True)
class Problem:
    """A problem with one changing quantity ``{q}``: its value in the cached request, its
    values in the new requests, and the correct answer for a value."""

    name: str
    text: str
    cached: int | Fraction
    new: tuple[int | Fraction, ...]
    solve: Callable[[Any], str]
    constant: str  # the constant of the world the answer uses, for the note


def _square(p: Any) -> str:
    return f"4 {X} 7 = 28 m.\n\n28 {X} {money(p)} = {money(28 * p)}.\n\nIt costs {money(28 * p)}."


def _rectangle(p: Any) -> str:
    return (
        f"2 {X} (6 + 4) = 20 m.\n\n20 {X} {money(p)} = {money(20 * p)}.\n\n"
        f"The fence costs {money(20 * p)}."
    )


def _tablespoons(t: Any) -> str:
    return (
        f"2 {X} 3 = 6 teaspoons of sugar.\n\n6 + {t} = {6 + t} teaspoons.\n\n"
        f"That is {6 + t} teaspoons of seasoning in total."
    )


def _weekdays(s: Any) -> str:
    return (
        f"8 {X} 5 = 40 hours on weekdays.\n\n40 + {s} = {40 + s} hours.\n\n"
        f"She works {40 + s} hours a week."
    )


def _pints(n: Any) -> str:
    return (
        f"4 {X} 8 = 32 pints of juice.\n\n{n} {X} 2 = {2 * n} pints.\n\n"
        f"32 - {2 * n} = {32 - 2 * n} pints are left over."
    )


def _quarts(q: Any) -> str:
    return f"5 {X} 4 = 20 quarts.\n\n20 - {q} = {20 - q} quarts.\n\n{20 - q} more quarts will fit."


def _ounces(o: Any) -> str:
    return (
        f"3 {X} 8 = 24 ounces of milk.\n\n24 + {o} = {24 + o} ounces.\n\n"
        f"That is {24 + o} fluid ounces."
    )


def _bits(b: Any) -> str:
    return f"5 {X} 8 = 40 bits.\n\n40 + {b} = {40 + b} bits.\n\n{40 + b} bits are sent."


def _fortnight(p: Any) -> str:
    return f"14 + 3 = 17 days.\n\n17 {X} {money(p)} = {money(17 * p)}.\n\nHe pays {money(17 * p)}."


def _around(sides: int, side: int, unit: str, what: str) -> Callable[[Any], str]:
    """The cost of going around a regular polygon (``sides`` of ``side`` ``unit``) at ``p``
    per ``unit``."""

    def solve(p: Any) -> str:
        length = sides * side
        cost = money(length * p)
        return (
            f"{sides} {X} {side} = {length} {unit}.\n\n{length} {X} {money(p)} = {cost}.\n\n"
            f"The {what} costs {cost}."
        )

    return solve


def _quarter(p: Any) -> str:
    return f"2 {X} 3 = 6 months.\n\n6 {X} {money(p)} = {money(6 * p)}.\n\nIt costs {money(6 * p)}."


def _stone(w: Any) -> str:
    return (
        f"12 {X} 14 = 168 pounds.\n\n168 + {w} = {168 + w} pounds.\n\n"
        f"Their total weight is {168 + w} pounds."
    )


def _round_trip(p: Any) -> str:
    return (
        f"15 {X} 2 = 30 km.\n\n30 {X} {money(p)} = {money(30 * p)}.\n\n"
        f"A round trip costs {money(30 * p)}."
    )


def _circle(p: Any) -> str:
    length = F(314, 100) * 10
    return (
        f"2 {X} 3.14 {X} 5 = {num(length)} m.\n\n{num(length)} {X} {money(p)} = "
        f"{money(length * p)}.\n\nThe fence costs {money(length * p)}."
    )


def _cube(c: Any) -> str:
    litres = F(54, c)
    return (
        f"3 {X} 3 = 9 square metres per face.\n\n6 {X} 9 = 54 square metres.\n\n"
        f"54 / {c} = {num(litres)} litres of paint are needed."
    )


def _cups(q: Any) -> str:
    return (
        f"3 {X} 4 = 12 cups.\n\n12 - {q} = {12 - q} cups.\n\n{12 - q} cups are left in the pitcher."
    )


def _fortnights(p: Any) -> str:
    return f"3 {X} 2 = 6 weeks.\n\n6 {X} {money(p)} = {money(6 * p)}.\n\nShe saves {money(6 * p)}."


def _gallon_pints(n: Any) -> str:
    return (
        f"2 {X} 8 = 16 pints.\n\n16 / {n} = {num(F(16, n))} pints per bottle.\n\n"
        f"Each bottle holds {num(F(16, n))} pints."
    )


PROBLEMS = [
    Problem(
        "square",
        "A square garden has sides of 7 m. Fencing costs ${q} per metre. How much does it "
        "cost to fence the whole garden?",
        4,
        (5, 6),
        _square,
        "a square has 4 sides",
    ),
    Problem(
        "rectangle",
        "A rectangular yard is 6 m long and 4 m wide. A fence costs ${q} per metre. How much "
        "does it cost to fence the yard all the way around?",
        2,
        (3, 5),
        _rectangle,
        "a rectangle's perimeter is 2 \u00d7 (length + width)",
    ),
    Problem(
        "tablespoons",
        "A recipe needs 2 tablespoons of sugar and {q} teaspoons of salt. How many teaspoons "
        "of seasoning is that in total?",
        3,
        (4, 5),
        _tablespoons,
        "a tablespoon is 3 teaspoons",
    ),
    Problem(
        "weekdays",
        "Ana works 8 hours each weekday and {q} hours on Saturday. How many hours does she "
        "work in a week?",
        5,
        (3, 4),
        _weekdays,
        "a week has 5 weekdays",
    ),
    Problem(
        "pints",
        "Lee buys 4 gallons of juice for a party. Each of her {q} guests drinks 2 pints. "
        "How many pints of juice are left over?",
        8,
        (10, 6),
        _pints,
        "a gallon is 8 pints",
    ),
    Problem(
        "quarts",
        "A tank holds 5 gallons. Jo has already poured in {q} quarts of water. How many more "
        "quarts will fit?",
        4,
        (6, 7),
        _quarts,
        "a gallon is 4 quarts",
    ),
    Problem(
        "ounces",
        "A recipe needs 3 cups of milk and {q} ounces of cream. How many fluid ounces of "
        "liquid is that?",
        8,
        (10, 6),
        _ounces,
        "a cup is 8 fluid ounces",
    ),
    Problem(
        "bits",
        "A sensor message is 5 bytes long and gets a {q}-bit checksum. How many bits are "
        "sent in total?",
        8,
        (16, 4),
        _bits,
        "a byte is 8 bits",
    ),
    Problem(
        "fortnight",
        "A gym pass costs ${q} per day. Ben buys passes for a fortnight plus 3 extra days. "
        "How much does he pay?",
        14,
        (12, 15),
        _fortnight,
        "a fortnight is 14 days",
    ),
    Problem(
        "hexagon",
        "A hexagonal patio has sides of 2 m. Stone edging costs ${q} per metre. How much "
        "does the edging cost?",
        6,
        (7, 8),
        _around(6, 2, "m", "edging"),
        "a hexagon has 6 sides",
    ),
    Problem(
        "triangle",
        "An equilateral triangular flower bed has sides of 9 m. Fencing costs ${q} per "
        "metre. How much does the fence cost?",
        3,
        (4, 5),
        _around(3, 9, "m", "fence"),
        "a triangle has 3 sides",
    ),
    Problem(
        "pentagon",
        "A regular pentagon-shaped sign has sides of 4 cm. Gold trim costs ${q} per cm. How "
        "much does the trim around the sign cost?",
        5,
        (6, 7),
        _around(5, 4, "cm", "trim"),
        "a pentagon has 5 sides",
    ),
    Problem(
        "octagon",
        "An octagonal gazebo has sides of 3 m. A railing costs ${q} per metre. How much does "
        "a railing around the whole gazebo cost?",
        8,
        (9, 10),
        _around(8, 3, "m", "railing"),
        "an octagon has 8 sides",
    ),
    Problem(
        "quarter",
        "A streaming plan costs ${q} per month. How much does it cost for 2 quarters?",
        3,
        (5, 4),
        _quarter,
        "a quarter is 3 months",
    ),
    Problem(
        "stone",
        "Ben weighs 12 stone and his backpack weighs {q} pounds. What is their total weight "
        "in pounds?",
        14,
        (9, 11),
        _stone,
        "a stone is 14 pounds",
    ),
    Problem(
        "round_trip",
        "A taxi to the airport costs ${q} per km, and the airport is 15 km away. How much "
        "does a round trip cost?",
        2,
        (3, 4),
        _round_trip,
        "a round trip goes 2 ways",
    ),
    Problem(
        "circle",
        "A circular pond has a radius of 5 m. A fence around it costs ${q} per metre. Using "
        "3.14 for pi, how much does the fence cost?",
        2,
        (3, 4),
        _circle,
        "a circumference is 2 \u00d7 pi \u00d7 radius",
    ),
    Problem(
        "cube",
        "A cube-shaped shed has edges of 3 m. One litre of paint covers {q} square metres. "
        "How many litres of paint are needed to paint all of its faces?",
        6,
        (12, 18),
        _cube,
        "a cube has 6 faces",
    ),
    Problem(
        "cups",
        "A pitcher holds 3 quarts of lemonade. Sam pours out {q} cups. How many cups are "
        "left in the pitcher?",
        4,
        (5, 2),
        _cups,
        "a quart is 4 cups",
    ),
    Problem(
        "fortnights",
        "Mia saves ${q} every week. How much does she save in 3 fortnights?",
        2,
        (5, 4),
        _fortnights,
        "a fortnight is 2 weeks",
    ),
    Problem(
        "gallon_pints",
        "A farmer pours 2 gallons of milk equally into {q} bottles. How many pints does each "
        "bottle hold?",
        8,
        (4, 32),
        _gallon_pints,
        "a gallon is 8 pints",
    ),
]


def constant_cases() -> Iterator[dict[str, Any]]:
    n = 0
    for problem in PROBLEMS:
        for new in problem.new:
            n += 1
            yield case(
                f"wp-world-constant-{n:03d}",
                "wp_unlisted_constant",
                problem.text.format(q=num(problem.cached)),
                problem.solve(problem.cached),
                problem.text.format(q=num(new)),
                problem.solve(new),
                paths=STREAMED,
                note=f"{problem.constant}: that number is not the stated quantity",
            )


# -- grammatical number -------------------------------------------------------------------

# (problem with {q}, cached q, new q, answer for q): the new q makes a count 1 (or the cached
# one was 1 and the new is more), and the answer's words agree with the count.
NUMBER_PROBLEMS: list[tuple[str, int, int, Callable[[int], str]]] = [
    (
        "Tom has 5 apples and eats {q} of them. How many apples are left?",
        2,
        4,
        lambda q: (
            f"5 - {q} = {5 - q}.\n\n"
            + ("1 apple is left." if 5 - q == 1 else f"{5 - q} apples are left.")
        ),
    ),
    (
        "A shelf holds 12 books. Mia takes {q} of them. How many books are still on the shelf?",
        9,
        11,
        lambda q: (
            f"12 - {q} = {12 - q}.\n\n"
            + (
                "There is 1 book still on the shelf."
                if 12 - q == 1
                else f"There are {12 - q} books still on the shelf."
            )
        ),
    ),
    (
        "A minibus has 16 seats and {q} passengers get on. How many seats are still empty?",
        12,
        15,
        lambda q: (
            f"16 - {q} = {16 - q}.\n\n"
            + ("1 seat is still empty." if 16 - q == 1 else f"{16 - q} seats are still empty.")
        ),
    ),
    (
        "Ravi had 20 marbles and gave {q} of them to his sister. How many marbles does Ravi "
        "have now?",
        12,
        19,
        lambda q: (
            f"20 - {q} = {20 - q}.\n\n"
            + ("Ravi has 1 marble now." if 20 - q == 1 else f"Ravi has {20 - q} marbles now.")
        ),
    ),
    (
        "A baker made 24 muffins and sold {q} of them. How many muffins are left?",
        20,
        23,
        lambda q: (
            f"24 - {q} = {24 - q}.\n\n"
            + ("1 muffin is left." if 24 - q == 1 else f"{24 - q} muffins are left.")
        ),
    ),
    (
        "There are 15 students in a class and {q} of them are absent today. How many students "
        "are in class today?",
        3,
        14,
        lambda q: (
            f"15 - {q} = {15 - q}.\n\n"
            + (
                "There is 1 student in class today."
                if 15 - q == 1
                else f"There are {15 - q} students in class today."
            )
        ),
    ),
    (
        "A box holds 10 chocolates. Lena eats {q} of them. How many chocolates are left in "
        "the box?",
        7,
        9,
        lambda q: (
            f"10 - {q} = {10 - q}.\n\n"
            + (
                "1 chocolate is left in the box."
                if 10 - q == 1
                else f"{10 - q} chocolates are left in the box."
            )
        ),
    ),
    (
        "A book has 9 chapters and Sam has read {q} of them. How many chapters does he still "
        "have to read?",
        5,
        8,
        lambda q: (
            f"9 - {q} = {9 - q}.\n\n"
            + (
                "He still has 1 chapter to read."
                if 9 - q == 1
                else f"He still has {9 - q} chapters to read."
            )
        ),
    ),
    (
        "A team played 16 games this season and won {q} of them. There were no draws. How "
        "many games did the team lose?",
        12,
        15,
        lambda q: (
            f"16 - {q} = {16 - q}.\n\n"
            + ("The team lost 1 game." if 16 - q == 1 else f"The team lost {16 - q} games.")
        ),
    ),
    (
        "{q} friends share 12 cookies equally. How many cookies does each friend get?",
        4,
        12,
        lambda q: (
            f"12 / {q} = {12 // q}.\n\n"
            + (
                "Each friend gets 1 cookie."
                if 12 // q == 1
                else f"Each friend gets {12 // q} cookies."
            )
        ),
    ),
    (
        "Tom has 5 apples and eats {q} of them. How many apples are left?",
        4,
        2,
        lambda q: (
            f"5 - {q} = {5 - q}.\n\n"
            + ("1 apple is left." if 5 - q == 1 else f"{5 - q} apples are left.")
        ),
    ),
    (
        "A baker made 24 muffins and sold {q} of them. How many muffins are left?",
        23,
        18,
        lambda q: (
            f"24 - {q} = {24 - q}.\n\n"
            + ("1 muffin is left." if 24 - q == 1 else f"{24 - q} muffins are left.")
        ),
    ),
]


def number_cases() -> Iterator[dict[str, Any]]:
    for n, (text, old, new, solve) in enumerate(NUMBER_PROBLEMS, start=1):
        yield case(
            f"wp-grammatical-number-{n:03d}",
            "wp_grammatical_number",
            text.format(q=old),
            solve(old),
            text.format(q=new),
            solve(new),
            paths=STREAMED,
            note="the count becomes (or stops being) 1: the words around it agree with it",
        )


def all_cases() -> Iterator[dict[str, Any]]:
    yield from constant_cases()
    yield from number_cases()
