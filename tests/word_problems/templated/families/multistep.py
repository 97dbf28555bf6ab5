"""Multi-step stories: farms, stalls, parties, trips, clubs."""

# The oracle writes the multiplication sign as chat models do: the ambiguous-character
# rule does not apply.
# ruff: noqa: RUF001

from __future__ import annotations

from tests.word_problems.templated.model import (
    PERSON,
    Change,
    Derived,
    Family,
    Values,
    count,
    dec,
    money,
    pct,
    thing,
)


def _tables(v: Values) -> list[str]:
    steps = ["People | g + 1 | count | people"]
    if v.g + 1 > v.c:
        steps += [
            "{s1} is more than the {c} seats at one table, so {A} needs more than one table",
            "Tables | ceil(s1 / c) | count | tables",
        ]
    else:
        steps += [
            "{s1} is not more than the {c} seats at one table, so one table is enough",
            "Tables | ceil(s1 / c) | count | tables",
        ]
    steps.append("Cost of the tables | s2 * p | money")
    return steps


def _shipping(v: Values) -> list[str]:
    steps = ["Order | n * p | money"]
    if v.n * v.p >= v.t:
        steps += ["{s1} is at least {t}, so shipping is free and the total stays {s1}"]
    else:
        steps += ["{s1} is under {t}, so shipping of {f} is added", "Total | s1 + f | money"]
    return steps


FAMILIES = [
    Family(
        id="multi/hens-eggs",
        topic="multi-step",
        slots=dict(A=PERSON, h=count(6, 30, 6), e=count(4, 6), p=money(2, 5, "0.5")),
        when=lambda v: v.h * v.e % 12 == 0,
        text="{A} keeps {h} hens. Each hen lays {e} eggs a week. {A.He} {A.v[sells]} the eggs "
        "by the dozen for {p} a dozen. How much {A.v[does]} {A.he} make in a week?",
        paraphrases=(
            "{h} hens on {A}'s farm each lay {e} eggs weekly, sold at {p} per dozen. Weekly "
            "income?",
            "What does {A} earn each week selling, at {p} a dozen, the eggs of {h} hens laying "
            "{e} a week each?",
        ),
        steps=[
            "Eggs a week | h * e | count | eggs",
            "Dozens | s1 / 12 | count | dozen",
            "Income | s2 * p | money",
        ],
        solve=lambda v: v.h * v.e / 12 * v.p,
        changes=(
            Change(
                "target",
                "{A} keeps {h} hens. Each hen lays {e} eggs a week. How many dozen eggs is that a "
                "week?",
                steps=["Eggs a week | h * e | count | eggs", "Dozens | s1 / 12 | count | dozen"],
                solve=lambda v: v.h * v.e / 12,
            ),
            Change(
                "added_step",
                "{A} keeps {h} hens. Each hen lays {e} eggs a week. {A.He} {A.v[sells]} the eggs "
                "by the dozen for {p} a dozen and spends {f} a week on feed. How much profit "
                "{A.v[does]} {A.he} make in a week?",
                slots=dict(f=money(3, 10)),
                when=lambda v: v.h * v.e % 12 == 0 and v.h * v.e / 12 * v.p > v.f,
                steps=[
                    "Eggs a week | h * e | count | eggs",
                    "Dozens | s1 / 12 | count | dozen",
                    "Income | s2 * p | money",
                    "After feed | s3 - f | money",
                ],
                solve=lambda v: v.h * v.e / 12 * v.p - v.f,
            ),
            Change(
                "reversed",
                "{A}'s hens each lay {e} eggs a week, and {A} sells them at {p} a dozen, making "
                "{w} a week. How many hens does {A} keep?",
                derived=dict(w=Derived("h * e / 12 * p", "money")),
                steps=[
                    "Dozens sold | w / p | count | dozen",
                    "Eggs | s1 * 12 | count | eggs",
                    "Hens | s2 / e | count | hens",
                ],
                solve=lambda v: v.w / v.p * 12 / v.e,
            ),
        ),
    ),
    Family(
        id="multi/lemonade-stand",
        topic="multi-step",
        slots=dict(
            A=PERSON,
            L=thing("liquid"),
            c=count(20, 60, 5),
            p=money("0.5", 2, "0.25"),
            s=money(5, 15),
        ),
        when=lambda v: v.c * v.p > v.s,
        text="{A} sells {c} cups of {L.one} at {p} a cup. The cups and ingredients cost {s}. "
        "What is {A.his} profit?",
        paraphrases=(
            "At {p} per cup, {A} sells {c} cups of {L.one}. Supplies cost {s}. How much profit?",
            "{A}'s {L.one} stand: {c} cups sold at {p}, {s} spent on supplies. Profit?",
        ),
        steps=["Sales | c * p | money", "Profit | s1 - s | money"],
        solve=lambda v: v.c * v.p - v.s,
        changes=(
            Change(
                "reversed",
                "{A} sells cups of {L.one} at {p} a cup. The cups and ingredients cost {s}, and "
                "{A.his} profit is {g}. How many cups {A.v[does]} {A.he} sell?",
                derived=dict(g=Derived("c * p - s", "money")),
                steps=["Sales | g + s | money", "Cups | s1 / p | count | cups"],
                solve=lambda v: (v.g + v.s) / v.p,
            ),
            Change(
                "operation",
                "{A} sells {c} cups of {L.one} at {p} a cup, and a neighbour donates {s} to the "
                "stand. How much money does {A} have at the end?",
                steps=["Sales | c * p | money", "With the donation | s1 + s | money"],
                solve=lambda v: v.c * v.p + v.s,
            ),
            Change(
                "added_step",
                "{A} sells {c} cups of {L.one} at {p} a cup. The cups and ingredients cost {s}. "
                "{A.He} {A.v[gives]} {d} of the profit to charity. How much {A.v[does]} {A.he} "
                "give?",
                slots=dict(d=pct(10, 50, 10)),
                when=lambda v: (
                    v.c * v.p > v.s and ((v.c * v.p - v.s) * v.d / 100 * 100).denominator == 1
                ),
                steps=[
                    "Sales | c * p | money",
                    "Profit | s1 - s | money",
                    "Charity: {d} of it | d% * s2 | money",
                ],
                solve=lambda v: (v.c * v.p - v.s) * v.d / 100,
            ),
        ),
    ),
    Family(
        id="multi/party-tables",
        topic="multi-step",
        slots=dict(A=PERSON, g=count(5, 40), c=count(6, 10), p=money(10, 25, 5)),
        when=lambda v: v.g + 1 > v.c,
        text="{A} invites {g} guests to a party and will sit at a table too. Each table seats "
        "{c} people and costs {p} to rent. How much does {A} pay for tables?",
        paraphrases=(
            "There will be {g} guests plus {A} at the party. Rental tables seat {c} and cost {p} "
            "each. What is the rental bill?",
            "How much does {A} spend renting tables that seat {c} at {p} each for {A.himself} "
            "and {g} guests?",
        ),
        steps=_tables,
        solve=lambda v: -(-(v.g + 1) // v.c) * v.p,
        changes=(
            Change(
                "branch",
                "{A} invites {g} guests to a party and will sit at a table too. Each table seats "
                "{c} people and costs {p} to rent. How much does {A} pay for tables?",
                when=lambda v: v.g + 1 <= v.c,
                steps=_tables,
                solve=lambda v: v.p,
                # One table either way: the base's number is right, its "more than one table"
                # sentence is not (a condition in prose over a rebound value).
                same_number=True,
            ),
            Change(
                "target",
                "{A} invites {g} guests to a party and will sit at a table too. Each table seats "
                "{c} people. How many empty seats will there be?",
                when=lambda v: (v.g + 1) % v.c != 0,
                steps=[
                    "People | g + 1 | count | people",
                    "Tables | ceil(s1 / c) | count | tables",
                    "Empty seats | s2 * c - s1 | count | seats",
                ],
                solve=lambda v: -(-(v.g + 1) // v.c) * v.c - (v.g + 1),
            ),
            Change(
                "operation",
                "{A} invites {g} guests to a party and will not sit down. Each table seats {c} "
                "people and costs {p} to rent. How much does {A} pay for tables?",
                when=lambda v: -(-v.g // v.c) != -(-(v.g + 1) // v.c),
                steps=[
                    "Tables for {g} guests | ceil(g / c) | count | tables",
                    "Cost | s1 * p | money",
                ],
                solve=lambda v: -(-v.g // v.c) * v.p,
            ),
        ),
    ),
    Family(
        id="multi/online-order-shipping",
        topic="shopping",
        slots=dict(
            A=PERSON, T=thing("book"), n=count(2, 8), p=money(6, 20), t=money(50, 50), f=money(5, 9)
        ),
        when=lambda v: v.n * v.p >= v.t,
        text="{A} orders {n} {T.many} online at {p} each. Shipping costs {f}, but it is free for "
        "orders of at least {t}. What does {A} pay?",
        paraphrases=(
            "Online, {T.many} are {p} each; shipping is {f} unless the order reaches {t}. {A} "
            "buys {n}. What is the total?",
            "What is {A}'s total for {n} {T.many} at {p} each, if shipping of {f} is waived on "
            "orders of {t} or more?",
        ),
        steps=_shipping,
        solve=lambda v: v.n * v.p,
        changes=(
            Change(
                "branch",
                "{A} orders {n} {T.many} online at {p} each. Shipping costs {f}, but it is free "
                "for orders of at least {t}. What does {A} pay?",
                when=lambda v: v.n * v.p < v.t,
                steps=_shipping,
                solve=lambda v: v.n * v.p + v.f,
            ),
            Change(
                "target",
                "{A} orders {n} {T.many} online at {p} each. By how much does the order beat the "
                "{t} needed for free shipping?",
                when=lambda v: v.n * v.p > v.t,
                steps=["Order | n * p | money", "Over {t} by | s1 - t | money"],
                solve=lambda v: v.n * v.p - v.t,
            ),
            Change(
                "added_step",
                "{A} orders {n} {T.many} online at {p} each with a {d} off code. Shipping is free. "
                "What does {A} pay?",
                slots=dict(d=pct(10, 20, 5)),
                when=lambda v: (v.n * v.p * v.d / 100 * 100).denominator == 1,
                steps=[
                    "Order | n * p | money",
                    "Code: {d} off | d% * s1 | money",
                    "Total | s1 - s2 | money",
                ],
                solve=lambda v: v.n * v.p * (1 - v.d / 100),
            ),
        ),
    ),
    Family(
        id="multi/zoo-tickets",
        topic="multi-step",
        slots=dict(A=PERSON, a=count(2, 4), c=count(2, 6), p=money(15, 30), q=money(6, 14)),
        text="{A} takes {a} adults and {c} children to the zoo. Adult tickets cost {p} and "
        "child tickets cost {q}. How much do the tickets cost?",
        paraphrases=(
            "At the zoo, tickets are {p} for an adult and {q} for a child. {A}'s group has {a} "
            "adults and {c} children. Total?",
            "What do {a} adult tickets at {p} and {c} child tickets at {q} cost {A}?",
        ),
        steps=["Adults | a * p | money", "Children | c * q | money", "Tickets | s1 + s2 | money"],
        solve=lambda v: v.a * v.p + v.c * v.q,
        changes=(
            Change(
                "operation",
                "{A} takes {a} adults and {c} children to the zoo. Adult tickets cost {p} and "
                "children get in free. How much do the tickets cost?",
                steps=["Adults | a * p | money"],
                solve=lambda v: v.a * v.p,
            ),
            Change(
                "added_step",
                "{A} takes {a} adults and {c} children to the zoo. Adult tickets cost {p} and "
                "child tickets cost {q}, and parking is {k}. How much does the visit cost?",
                slots=dict(k=money(5, 12)),
                steps=[
                    "Adults | a * p | money",
                    "Children | c * q | money",
                    "Tickets and parking | s1 + s2 + k | money",
                ],
                solve=lambda v: v.a * v.p + v.c * v.q + v.k,
            ),
            Change(
                "target",
                "{A} takes {a} adults and {c} children to the zoo. Adult tickets cost {p} and "
                "child tickets cost {q}. How much more is one adult ticket than one child "
                "ticket?",
                when=lambda v: v.p > v.q,
                steps=["Difference | p - q | money"],
                solve=lambda v: v.p - v.q,
            ),
        ),
    ),
    Family(
        id="multi/animal-feed",
        topic="multi-step",
        slots=dict(
            A=PERSON, F=thing("farm"), n=count(3, 12), k=dec("0.5", 3, "0.5"), b=count(20, 50, 5)
        ),
        when=lambda v: (v.b / (v.n * v.k)).denominator != 1 and v.b // (v.n * v.k) >= 2,
        text="{A} has {n} {F.many}. Each eats {k} kilograms of feed a day. How many full days "
        "does a {b}-kilogram bag last?",
        paraphrases=(
            "{n} {F.many} on {A}'s farm each need {k} kg of feed a day. For how many whole days "
            "does a {b} kg bag feed them?",
            "A bag of {b} kilograms: how many full days will it feed {A}'s {n} {F.many} at {k} "
            "kilograms each per day?",
        ),
        steps=[
            "Feed a day | n * k | number | kg",
            "Full days | floor(b / s1) | count | days",
        ],
        solve=lambda v: v.b // (v.n * v.k),
        changes=(
            Change(
                "target",
                "{A} has {n} {F.many}. Each eats {k} kilograms of feed a day. How many kilograms "
                "do they eat in a week?",
                steps=["Feed a day | n * k | number | kg", "In a week | 7 * s1 | number | kg"],
                solve=lambda v: 7 * v.n * v.k,
            ),
            Change(
                "added_step",
                "{A} has {n} {F.many}. Each eats {k} kilograms of feed a day. Feed comes in "
                "{b}-kilogram bags at {p} a bag. How much does feed cost {A} for {d} days?",
                slots=dict(p=money(10, 30, 5), d=count(20, 40, 10)),
                when=lambda v: (v.n * v.k * v.d / v.b).denominator != 1,
                steps=[
                    "Feed a day | n * k | number | kg",
                    "For {d} days | d * s1 | number | kg",
                    "Bags | ceil(s2 / b) | count | bags",
                    "Cost | s3 * p | money",
                ],
                solve=lambda v: -(-(v.n * v.k * v.d / v.b) // 1) * v.p,
            ),
            Change(
                "operation",
                "{A} has {n} {F.many} and buys {m} more. Each eats {k} kilograms of feed a day. "
                "How many kilograms of feed do they eat a day?",
                slots=dict(m=count(2, 5)),
                steps=[
                    "{F.many} now | n + m | count | {F.many}",
                    "Feed a day | s1 * k | number | kg",
                ],
                solve=lambda v: (v.n + v.m) * v.k,
            ),
        ),
    ),
    Family(
        id="multi/garden-harvest",
        topic="multi-step",
        slots=dict(
            A=PERSON,
            T=thing("vegetable"),
            r=count(3, 8),
            c=count(4, 10),
            y=count(3, 8),
            k=count(5, 10),
        ),
        when=lambda v: v.r * v.c * v.y % v.k != 0,
        text="{A} grows {r} rows of {T.many} with {c} plants in each row. Each plant gives {y} "
        "{T.many}. {A.He} {A.v[packs]} them in bags of {k}. How many full bags {A.v[does]} {A.he} "
        "get?",
        paraphrases=(
            "{A}'s plot has {r} rows, {c} plants a row, and each plant yields {y} {T.many}. "
            "Bagged {k} to a bag, how many full bags?",
            "How many full bags of {k} {T.many} come from {r} rows of {c} plants giving {y} "
            "each, in {A}'s garden?",
        ),
        steps=[
            "Plants | r * c | count | plants",
            "{T.many} | s1 * y | count | {T.many}",
            "Full bags of {k} | floor(s2 / k) | count | bags",
        ],
        solve=lambda v: v.r * v.c * v.y // v.k,
        changes=(
            Change(
                "target",
                "{A} grows {r} rows of {T.many} with {c} plants in each row. Each plant gives {y} "
                "{T.many}. How many {T.many} {A.v[does]} {A.he} harvest?",
                steps=["Plants | r * c | count | plants", "{T.many} | s1 * y | count | {T.many}"],
                solve=lambda v: v.r * v.c * v.y,
            ),
            Change(
                "added_step",
                "{A} grows {r} rows of {T.many} with {c} plants in each row. Each plant gives {y} "
                "{T.many}. {A.He} {A.v[packs]} them in bags of {k} and sells each full bag for "
                "{p}. How much {A.v[does]} {A.he} make?",
                slots=dict(p=money(2, 6)),
                steps=[
                    "Plants | r * c | count | plants",
                    "{T.many} | s1 * y | count | {T.many}",
                    "Full bags of {k} | floor(s2 / k) | count | bags",
                    "Sales | s3 * p | money",
                ],
                solve=lambda v: v.r * v.c * v.y // v.k * v.p,
            ),
            Change(
                "operation",
                "{A} grows {r} rows of {T.many} with {c} plants in each row, but {m} plants die. "
                "Each plant left gives {y} {T.many}. How many {T.many} {A.v[does]} {A.he} harvest?",
                slots=dict(m=count(2, 4)),
                when=lambda v: v.r * v.c > v.m,
                steps=[
                    "Plants left | r * c - m | count | plants",
                    "{T.many} | s1 * y | count | {T.many}",
                ],
                solve=lambda v: (v.r * v.c - v.m) * v.y,
            ),
        ),
    ),
    Family(
        id="multi/book-fair",
        topic="school",
        slots=dict(A=PERSON, B=thing("book"), n=count(20, 80), p=money(3, 9), d=pct(10, 30, 10)),
        when=lambda v: (v.n * v.p * v.d / 100 * 100).denominator == 1,
        text="At the book fair {A} sells {n} {B.many} at {p} each, and {d} of the money goes "
        "to the school library. How much does the library get?",
        paraphrases=(
            "{A} runs a book fair and sells {n} {B.many} priced at {p}. The library receives {d} "
            "of the takings. How much is that?",
            "How much does the school library receive if {A} sells {n} {B.many} at {p} and the "
            "library gets {d} of the money?",
        ),
        steps=["Takings | n * p | money", "Library's {d} | d% * s1 | money"],
        solve=lambda v: v.n * v.p * v.d / 100,
        changes=(
            Change(
                "target",
                "At the book fair {A} sells {n} {B.many} at {p} each, and {d} of the money goes "
                "to the school library. How much of the money does not go to the library?",
                steps=[
                    "Takings | n * p | money",
                    "Library's {d} | d% * s1 | money",
                    "The rest | s1 - s2 | money",
                ],
                solve=lambda v: v.n * v.p * (1 - v.d / 100),
            ),
            Change(
                "reversed",
                "At the book fair {A} sells {B.many} at {p} each, and {d} of the money, {L}, goes "
                "to the school library. How many {B.many} does {A} sell?",
                derived=dict(L=Derived("n * p * d / 100", "money")),
                steps=["Takings | L / d% | money", "{B.many} | s1 / p | count | {B.many}"],
                solve=lambda v: v.L / (v.d / 100) / v.p,
            ),
            Change(
                "added_step",
                "At the book fair {A} sells {n} {B.many} at {p} each and {k} posters at {q} each. "
                "{d} of the money goes to the school library. How much does the library get?",
                slots=dict(k=count(5, 20, 5), q=money(2, 4)),
                when=lambda v: ((v.n * v.p + v.k * v.q) * v.d / 100 * 100).denominator == 1,
                steps=[
                    "{B.many} | n * p | money",
                    "Posters | k * q | money",
                    "Takings | s1 + s2 | money",
                    "Library's {d} | d% * s3 | money",
                ],
                solve=lambda v: (v.n * v.p + v.k * v.q) * v.d / 100,
            ),
        ),
    ),
    Family(
        id="multi/aquarium",
        topic="multi-step",
        slots=dict(
            A=PERSON, l=count(40, 100, 10), w=count(20, 40, 10), h=count(30, 50, 10), f=count(2, 5)
        ),
        when=lambda v: (v.l * v.w * v.h / 1000 / v.f).denominator == 1,
        text="{A}'s fish tank is {l} cm long, {w} cm wide and {h} cm high. Each fish needs {f} "
        "liters of water. How many fish can live in the full tank? (1 liter is 1000 cubic "
        "centimeters.)",
        paraphrases=(
            "A tank of {l} by {w} by {h} centimeters is filled by {A}. At {f} liters per fish, "
            "how many fish fit? One liter is 1000 cm³.",
            "How many fish can {A} keep in a full {l} cm × {w} cm × {h} cm tank if every fish "
            "needs {f} liters (1000 cubic centimeters to the liter)?",
        ),
        steps=[
            "Volume | l * w * h | count | cubic cm",
            "In liters | s1 / 1000 | number | liters",
            "Fish at {f} liters each | s2 / f | count | fish",
        ],
        solve=lambda v: v.l * v.w * v.h / 1000 / v.f,
        changes=(
            Change(
                "target",
                "{A}'s fish tank is {l} cm long, {w} cm wide and {h} cm high. How many liters "
                "does it hold? (1 liter is 1000 cubic centimeters.)",
                steps=[
                    "Volume | l * w * h | count | cubic cm",
                    "In liters | s1 / 1000 | number | liters",
                ],
                solve=lambda v: v.l * v.w * v.h / 1000,
            ),
            Change(
                "operation",
                "{A}'s fish tank is {l} cm long, {w} cm wide and {h} cm high, and {A} fills it "
                "only half way. Each fish needs {f} liters of water. How many fish can live in "
                "it? (1 liter is 1000 cubic centimeters.)",
                when=lambda v: (v.l * v.w * v.h / 2000 / v.f).denominator == 1,
                steps=[
                    "Volume | l * w * h | count | cubic cm",
                    "Half of it in liters | s1 / 2000 | number | liters",
                    "Fish at {f} liters each | s2 / f | count | fish",
                ],
                solve=lambda v: v.l * v.w * v.h / 2000 / v.f,
            ),
            Change(
                "added_step",
                "{A}'s fish tank is {l} cm long, {w} cm wide and {h} cm high. Each fish needs {f} "
                "liters of water, and {A} already has {k} fish. How many more fish can {A.he} "
                "add? (1 liter is 1000 cubic centimeters.)",
                slots=dict(k=count(2, 6)),
                when=lambda v: (
                    (v.l * v.w * v.h / 1000 / v.f).denominator == 1
                    and v.l * v.w * v.h / 1000 / v.f > v.k
                ),
                steps=[
                    "Volume | l * w * h | count | cubic cm",
                    "In liters | s1 / 1000 | number | liters",
                    "Fish at {f} liters each | s2 / f | count | fish",
                    "More fish | s3 - k | count | fish",
                ],
                solve=lambda v: v.l * v.w * v.h / 1000 / v.f - v.k,
            ),
        ),
    ),
    Family(
        id="multi/marathon-plan",
        topic="sports",
        slots=dict(A=PERSON, a=count(3, 8), i=count(2, 3), w=count(4, 10)),
        text="{A} runs {a} kilometers in the first week of training and adds {i} kilometers "
        "each week after that. How far {A.v[does]} {A.he} run in week {w}?",
        paraphrases=(
            "Week 1: {a} km. Every following week {A} runs {i} km more. What distance in week {w}?",
            "How many kilometers does {A} run in week {w} of a plan that starts at {a} km and "
            "adds {i} km a week?",
        ),
        steps=[
            "Weeks after the first | w - 1 | count | weeks",
            "Week {w} | a + s1 * i | count | km",
        ],
        solve=lambda v: v.a + (v.w - 1) * v.i,
        changes=(
            Change(
                "target",
                "{A} runs {a} kilometers in the first week of training and adds {i} kilometers "
                "each week after that. How far {A.v[does]} {A.he} run in the first {w} weeks "
                "together?",
                steps=[
                    "Week {w} | a + (w - 1) * i | count | km",
                    "All {w} weeks, first plus last times half the weeks | (a + s1) * w / 2 | "
                    "number | km",
                ],
                solve=lambda v: (v.a + v.a + (v.w - 1) * v.i) * v.w / 2,
            ),
            Change(
                "operation",
                "{A} runs {r} kilometers in the first week of a taper and runs {i} kilometers "
                "less each week after that. How far {A.v[does]} {A.he} run in week {w}?",
                derived=dict(r=Derived("a + w * i", "count")),
                steps=[
                    "Weeks after the first | w - 1 | count | weeks",
                    "Week {w} | r - s1 * i | count | km",
                ],
                solve=lambda v: v.r - (v.w - 1) * v.i,
            ),
            Change(
                "reversed",
                "{A} runs {a} kilometers in the first week of training and adds {i} kilometers "
                "each week after that. In which week {A.v[does]} {A.he} first run {t} kilometers?",
                derived=dict(t=Derived("a + (w - 1) * i", "count")),
                steps=[
                    "Kilometers added | t - a | count | km",
                    "Week | s1 / i + 1 | count | weeks",
                ],
                solve=lambda v: (v.t - v.a) / v.i + 1,
            ),
        ),
    ),
    Family(
        id="multi/movie-snacks",
        topic="shopping",
        slots=dict(A=PERSON, n=count(2, 6), t=money(8, 15), s=money(3, 7), k=count(2, 4)),
        text="{A} takes {n} friends to the cinema and pays for everyone, {A.himself} included. "
        "Tickets are {t} each, and {A.he} {A.v[buys]} {k} snack boxes at {s} each. How much "
        "{A.v[does]} {A.he} spend?",
        paraphrases=(
            "{A} and {n} friends go to the cinema, all on {A}'s money: tickets at {t} each and "
            "{k} snack boxes at {s}. Total spent?",
            "What does {A} spend on cinema tickets ({t} each) for {A.himself} and {n} friends, "
            "plus {k} snack boxes at {s} each?",
        ),
        steps=[
            "People | n + 1 | count | people",
            "Tickets | s1 * t | money",
            "Snacks | k * s | money",
            "Total | s2 + s3 | money",
        ],
        solve=lambda v: (v.n + 1) * v.t + v.k * v.s,
        changes=(
            Change(
                "operation",
                "{A} takes {n} friends to the cinema and pays for the friends only. Tickets are "
                "{t} each, and {A.he} {A.v[buys]} {k} snack boxes at {s} each. How much "
                "{A.v[does]} "
                "{A.he} spend?",
                steps=[
                    "Tickets for {n} | n * t | money",
                    "Snacks | k * s | money",
                    "Total | s1 + s2 | money",
                ],
                solve=lambda v: v.n * v.t + v.k * v.s,
            ),
            Change(
                "target",
                "{A} takes {n} friends to the cinema and pays for everyone, {A.himself} included. "
                "Tickets are {t} each. How much do the tickets cost?",
                steps=["People | n + 1 | count | people", "Tickets | s1 * t | money"],
                solve=lambda v: (v.n + 1) * v.t,
            ),
            Change(
                "added_step",
                "{A} takes {n} friends to the cinema and pays for everyone, {A.himself} included. "
                "Tickets are {t} each, and {A.he} {A.v[buys]} {k} snack boxes at {s} each. The "
                "friends pay {A} back equally for all of it, {A} paying a share too. How much is "
                "each share?",
                when=lambda v: (((v.n + 1) * v.t + v.k * v.s) / (v.n + 1) * 100).denominator == 1,
                steps=[
                    "People | n + 1 | count | people",
                    "Tickets | s1 * t | money",
                    "Snacks | k * s | money",
                    "Total | s2 + s3 | money",
                    "Each of {s1} shares | s4 / s1 | money",
                ],
                solve=lambda v: ((v.n + 1) * v.t + v.k * v.s) / (v.n + 1),
            ),
        ),
    ),
    Family(
        id="multi/craft-fair-stall",
        topic="multi-step",
        slots=dict(
            A=PERSON,
            K=thing("craft"),
            n=count(10, 40),
            p=money(5, 20),
            c=money("1.5", 4, "0.5"),
            f=money(15, 40, 5),
        ),
        when=lambda v: v.n * (v.p - v.c) > v.f,
        text="{A} {K.does} {n} {K.many} for a craft fair. Materials cost {c} per {K.one}, the "
        "stall costs {f}, and {A.he} {A.v[sells]} every {K.one} for {p}. What is {A.his} "
        "profit?",
        paraphrases=(
            "At the craft fair {A} sells all {n} {K.many} at {p} each. Each cost {c} in materials "
            "and the stall fee is {f}. Profit?",
            "What does {A} clear at a craft fair selling {n} {K.many} for {p} apiece, with "
            "materials at {c} per piece and a {f} stall?",
        ),
        steps=[
            "Sales | n * p | money",
            "Materials | n * c | money",
            "Profit after the stall | s1 - s2 - f | money",
        ],
        solve=lambda v: v.n * v.p - v.n * v.c - v.f,
        changes=(
            Change(
                "target",
                "{A} {K.does} {n} {K.many} for a craft fair. Materials cost {c} per {K.one}. How "
                "much do the materials cost?",
                steps=["Materials | n * c | money"],
                solve=lambda v: v.n * v.c,
            ),
            Change(
                "reversed",
                "{A} {K.does} {K.many} for a craft fair. Materials cost {c} per {K.one}, the "
                "stall costs {f}, and {A.he} {A.v[sells]} every {K.one} for {p}, for a profit of "
                "{g}. How many {K.many} {A.v[does]} {A.he} sell?",
                derived=dict(g=Derived("n * p - n * c - f", "money")),
                steps=[
                    "Profit on one {K.one} | p - c | money",
                    "Profit before the stall | g + f | money",
                    "{K.many} | s2 / s1 | count | {K.many}",
                ],
                solve=lambda v: (v.g + v.f) / (v.p - v.c),
            ),
            Change(
                "added_step",
                "{A} {K.does} {n} {K.many} for a craft fair but sells only {m} of them. "
                "Materials cost {c} per {K.one}, the stall costs {f}, and each sells for {p}. "
                "What is {A.his} profit?",
                slots=dict(m=count(5, 30)),
                when=lambda v: v.m < v.n and v.m * v.p > v.n * v.c + v.f,
                steps=[
                    "Sales | m * p | money",
                    "Materials for {n} | n * c | money",
                    "Profit after the stall | s1 - s2 - f | money",
                ],
                solve=lambda v: v.m * v.p - v.n * v.c - v.f,
            ),
        ),
    ),
    Family(
        id="multi/school-bus-route",
        topic="travel",
        slots=dict(A=PERSON, s=count(4, 12), m=count(2, 5), d=count(10, 30, 5)),
        text="{A} drives a school bus route with {s} stops. The bus waits {m} minutes at each "
        "stop and drives {d} minutes in all between stops. How long is the route, in minutes?",
        paraphrases=(
            "On {A}'s route there are {s} stops of {m} minutes each, plus {d} minutes of "
            "driving. How many minutes does it take?",
            "How many minutes is {A}'s bus route: {d} minutes driving and {m} minutes at each of "
            "{s} stops?",
        ),
        steps=["Waiting | s * m | count | minutes", "Route | s1 + d | count | minutes"],
        solve=lambda v: v.s * v.m + v.d,
        changes=(
            Change(
                "target",
                "{A} drives a school bus route with {s} stops. The bus waits {m} minutes at each "
                "stop. How many minutes does it wait in all?",
                steps=["Waiting | s * m | count | minutes"],
                solve=lambda v: v.s * v.m,
            ),
            Change(
                "added_step",
                "{A} drives a school bus route with {s} stops twice a day. The bus waits {m} "
                "minutes at each stop and drives {d} minutes in all between stops. How many "
                "minutes a day is {A} on the route?",
                steps=[
                    "Waiting | s * m | count | minutes",
                    "Route | s1 + d | count | minutes",
                    "Twice a day | 2 * s2 | count | minutes",
                ],
                solve=lambda v: 2 * (v.s * v.m + v.d),
            ),
            Change(
                "operation",
                "{A} drives a school bus route with {s} stops, and {k} stops are closed today. "
                "The bus waits {m} minutes at each open stop and drives {d} minutes in all. How "
                "long is the route, in minutes?",
                slots=dict(k=count(2, 3)),
                when=lambda v: v.s > v.k,
                steps=[
                    "Open stops | s - k | count | stops",
                    "Waiting | s1 * m | count | minutes",
                    "Route | s2 + d | count | minutes",
                ],
                solve=lambda v: (v.s - v.k) * v.m + v.d,
            ),
        ),
    ),
    Family(
        id="multi/phone-plan",
        topic="money",
        slots=dict(A=PERSON, b=money(10, 30, 5), g=count(2, 8), e=money(2, 6), u=count(5, 15)),
        when=lambda v: v.u > v.g,
        text="{A}'s phone plan costs {b} a month and includes {g} gigabytes of data. Each extra "
        "gigabyte costs {e}. This month {A.he} {A.v[uses]} {u} gigabytes. What is the bill?",
        paraphrases=(
            "For {b} a month {A} gets {g} GB of data, then pays {e} for every GB more. "
            "With {u} GB used, what does {A} pay?",
            "What is {A}'s phone bill after using {u} gigabytes, on a {b} plan with {g} "
            "gigabytes included and {e} per extra gigabyte?",
        ),
        steps=[
            "Extra gigabytes | u - g | count | GB",
            "Extra cost | s1 * e | money",
            "Bill | b + s2 | money",
        ],
        solve=lambda v: v.b + (v.u - v.g) * v.e,
        changes=(
            Change(
                "branch",
                "{A}'s phone plan costs {b} a month and includes {g} gigabytes of data. Each "
                "extra gigabyte costs {e}. This month {A.he} {A.v[uses]} {u} gigabytes, within "
                "the plan. What is the bill?",
                when=lambda v: v.u <= v.g,
                steps=[
                    "{u} GB is within the {g} GB included, so nothing extra is charged",
                    "Bill | b | money",
                ],
                solve=lambda v: v.b,
                stale=lambda v: v.b + (v.u - v.g) * v.e,
            ),
            Change(
                "target",
                "{A}'s phone plan costs {b} a month and includes {g} gigabytes of data. Each extra "
                "gigabyte costs {e}. This month {A.he} {A.v[uses]} {u} gigabytes. How much does "
                "the extra data cost?",
                steps=["Extra gigabytes | u - g | count | GB", "Extra cost | s1 * e | money"],
                solve=lambda v: (v.u - v.g) * v.e,
            ),
            Change(
                "added_step",
                "{A}'s phone plan costs {b} a month and includes {g} gigabytes of data. Each extra "
                "gigabyte costs {e}. {A.He} {A.v[uses]} {u} gigabytes every month. What "
                "{A.v[does]} "
                "{A.he} pay in a year?",
                steps=[
                    "Extra gigabytes | u - g | count | GB",
                    "Extra cost | s1 * e | money",
                    "Bill | b + s2 | money",
                    "For 12 months | 12 * s3 | money",
                ],
                solve=lambda v: 12 * (v.b + (v.u - v.g) * v.e),
            ),
        ),
    ),
    Family(
        id="multi/paint-mix",
        topic="recipes",
        slots=dict(A=PERSON, a=count(2, 5), b=count(1, 4), t=count(12, 40, 4)),
        when=lambda v: v.t % (v.a + v.b) == 0 and v.a != v.b,
        text="{A} mixes blue and white paint in the ratio {a} to {b}. {A.He} {A.v[needs]} {t} "
        "liters of the mix. How many liters of blue paint {A.v[does]} {A.he} use?",
        paraphrases=(
            "Blue and white are mixed {a}:{b} by {A}, who wants {t} liters in all. How much "
            "blue paint is that?",
            "For {t} liters of paint mixed {a} parts blue to {b} parts white, how many liters "
            "of blue does {A} need?",
        ),
        steps=[
            "Parts | a + b | count | parts",
            "One part | t / s1 | number | liters",
            "Blue: {a} parts | a * s2 | number | liters",
        ],
        solve=lambda v: v.t / (v.a + v.b) * v.a,
        changes=(
            Change(
                "target",
                "{A} mixes blue and white paint in the ratio {a} to {b}. {A.He} {A.v[needs]} {t} "
                "liters of the mix. How many liters of white paint {A.v[does]} {A.he} use?",
                steps=[
                    "Parts | a + b | count | parts",
                    "One part | t / s1 | number | liters",
                    "White: {b} parts | b * s2 | number | liters",
                ],
                solve=lambda v: v.t / (v.a + v.b) * v.b,
            ),
            Change(
                "operation",
                "{A} mixes blue and white paint in the ratio {a} to {b} for {t} liters of the "
                "mix, then stirs in {x} more liters of blue. How many liters of blue paint are in "
                "the mix?",
                slots=dict(x=count(2, 4)),
                steps=[
                    "Parts | a + b | count | parts",
                    "One part | t / s1 | number | liters",
                    "Blue: {a} parts | a * s2 | number | liters",
                    "With {x} more liters | s3 + x | number | liters",
                ],
                solve=lambda v: v.t / (v.a + v.b) * v.a + v.x,
            ),
            Change(
                "reversed",
                "{A} mixes blue and white paint in the ratio {a} to {b} and uses {u} liters of "
                "blue. How many liters of the mix {A.v[does]} {A.he} make?",
                derived=dict(u=Derived("t / (a + b) * a", "decimal")),
                steps=[
                    "One part | u / a | number | liters",
                    "Parts | a + b | count | parts",
                    "Mix | s1 * s2 | number | liters",
                ],
                solve=lambda v: v.u / v.a * (v.a + v.b),
            ),
        ),
    ),
    Family(
        id="multi/club-dues",
        topic="money",
        slots=dict(A=PERSON, n=count(12, 40), d=money(5, 15), c=money(60, 200, 20)),
        when=lambda v: v.n * v.d > v.c,
        text="{A} is treasurer of a club with {n} members who each pay {d} in dues. The club "
        "spends {c} on a trip. How much money is left in the club's account?",
        paraphrases=(
            "{n} club members pay {d} each to treasurer {A}. After a {c} trip, how much is left?",
            "How much remains after a {c} trip, if each of {n} members paid {A} {d} in dues?",
        ),
        steps=["Dues | n * d | money", "Left | s1 - c | money"],
        solve=lambda v: v.n * v.d - v.c,
        changes=(
            Change(
                "added_step",
                "{A} is treasurer of a club with {n} members who each pay {d} in dues. The club "
                "spends {c} on a trip and splits what is left equally among the members. How "
                "much does each get back?",
                when=lambda v: v.n * v.d > v.c and ((v.n * v.d - v.c) / v.n * 100).denominator == 1,
                steps=[
                    "Dues | n * d | money",
                    "Left | s1 - c | money",
                    "Each of {n} | s2 / n | money",
                ],
                solve=lambda v: (v.n * v.d - v.c) / v.n,
            ),
            Change(
                "operation",
                "{A} is treasurer of a club with {n} members who each pay {d} in dues, and the "
                "town gives the club {c}. How much money does the club have?",
                steps=["Dues | n * d | money", "With the town's gift | s1 + c | money"],
                solve=lambda v: v.n * v.d + v.c,
            ),
            Change(
                "reversed",
                "{A} is treasurer of a club whose members each pay {d} in dues. After spending {c} "
                "on a trip, {l} is left. How many members are there?",
                derived=dict(l=Derived("n * d - c", "money")),
                steps=["Dues | l + c | money", "Members | s1 / d | count | members"],
                solve=lambda v: (v.l + v.c) / v.d,
            ),
        ),
    ),
    Family(
        id="multi/car-rental",
        topic="travel",
        slots=dict(
            A=PERSON,
            C=thing("city"),
            d=count(2, 7),
            r=money(25, 60, 5),
            k=count(100, 500, 50),
            m=money("0.1", "0.3", "0.05"),
        ),
        text="{A} rents a car in {C} for {d} days at {r} a day plus {m} per kilometer and drives "
        "{k} kilometers. How much does the rental cost?",
        paraphrases=(
            "A car in {C} costs {r} per day and {m} per km. {A} keeps it {d} days and drives {k} "
            "km. What is the bill?",
            "What does {A} pay for a {d}-day car rental in {C} at {r} a day and {m} a kilometer, "
            "after {k} kilometers?",
        ),
        steps=["Days | d * r | money", "Kilometers | k * m | money", "Rental | s1 + s2 | money"],
        solve=lambda v: v.d * v.r + v.k * v.m,
        changes=(
            Change(
                "target",
                "{A} rents a car in {C} for {d} days at {r} a day plus {m} per kilometer and "
                "drives {k} kilometers. How much of the cost is for the kilometers?",
                steps=["Kilometers | k * m | money"],
                solve=lambda v: v.k * v.m,
            ),
            Change(
                "operation",
                "{A} rents a car in {C} for {d} days at {r} a day with the first {k} kilometers "
                "free, and drives exactly {k} kilometers. How much does the rental cost?",
                steps=["Days | d * r | money"],
                solve=lambda v: v.d * v.r,
            ),
            Change(
                "added_step",
                "{A} rents a car in {C} for {d} days at {r} a day plus {m} per kilometer, drives "
                "{k} kilometers and adds insurance of {i} a day. How much does the rental cost?",
                slots=dict(i=money(5, 15, 5)),
                steps=[
                    "Days with insurance | d * (r + i) | money",
                    "Kilometers | k * m | money",
                    "Rental | s1 + s2 | money",
                ],
                solve=lambda v: v.d * (v.r + v.i) + v.k * v.m,
            ),
        ),
    ),
    Family(
        id="multi/photo-album",
        topic="multi-step",
        slots=dict(A=PERSON, p=count(100, 400, 10), k=count(4, 8), a=count(20, 40, 4)),
        when=lambda v: v.p % (v.k * v.a) != 0,
        text="{A} has {p} photos. An album page holds {k} photos and an album has {a} pages. "
        "How many albums does {A} need for all the photos?",
        paraphrases=(
            "Each album has {a} pages with {k} photos on a page. How many albums are needed for "
            "{A}'s {p} photos?",
            "{A} wants to put {p} photos into albums of {a} pages, {k} photos per page. Albums "
            "needed?",
        ),
        steps=[
            "Photos per album | k * a | count | photos",
            "Albums | ceil(p / s1) | count | albums",
        ],
        solve=lambda v: -(-v.p // (v.k * v.a)),
        changes=(
            Change(
                "target",
                "{A} has {p} photos. An album page holds {k} photos. How many pages does {A} "
                "fill, the last one perhaps only in part?",
                when=lambda v: v.p % v.k != 0,
                steps=["Pages | ceil(p / k) | count | pages"],
                solve=lambda v: -(-v.p // v.k),
            ),
            Change(
                "added_step",
                "{A} has {p} photos. An album page holds {k} photos, an album has {a} pages and "
                "costs {c}. How much does {A} spend on albums for all the photos?",
                slots=dict(c=money(8, 20)),
                steps=[
                    "Photos per album | k * a | count | photos",
                    "Albums | ceil(p / s1) | count | albums",
                    "Cost | s2 * c | money",
                ],
                solve=lambda v: -(-v.p // (v.k * v.a)) * v.c,
            ),
            Change(
                "operation",
                "{A} has {p} photos and deletes {d} of them. An album page holds {k} photos and "
                "an album has {a} pages. How many albums does {A} need for the rest?",
                slots=dict(d=count(10, 50, 10)),
                when=lambda v: v.p > v.d and (v.p - v.d) % (v.k * v.a) != 0,
                steps=[
                    "Photos left | p - d | count | photos",
                    "Photos per album | k * a | count | photos",
                    "Albums | ceil(s1 / s2) | count | albums",
                ],
                solve=lambda v: -(-(v.p - v.d) // (v.k * v.a)),
            ),
        ),
    ),
    Family(
        id="multi/water-bottles-hike",
        topic="multi-step",
        slots=dict(A=PERSON, n=count(3, 10), h=dec("0.5", 1, "0.25"), d=count(2, 5)),
        text="{A} leads {n} hikers, {A.himself} not counted, on a {d}-day hike. Each person, "
        "{A} included, drinks {h} liters of water an hour and hikes 6 hours a day. How many "
        "liters of water does the group need?",
        paraphrases=(
            "A {d}-day hike: {A} and {n} others walk 6 hours a day, each drinking {h} liters an "
            "hour. Total water in liters?",
            "How much water, in liters, do {A} and {n} hikers need for {d} days of 6-hour "
            "hiking at {h} liters per person per hour?",
        ),
        steps=[
            "People | n + 1 | count | people",
            "Water per person a day | h * 6 | number | liters",
            "For everyone for {d} days | s1 * s2 * d | number | liters",
        ],
        solve=lambda v: (v.n + 1) * v.h * 6 * v.d,
        changes=(
            Change(
                "operation",
                "{A} leads {n} hikers, {A.himself} not counted, on a {d}-day hike. Each hiker but "
                "not {A} drinks {h} liters of water an hour, 6 hours a day. How many liters of "
                "water do the hikers need?",
                steps=[
                    "Water per hiker a day | h * 6 | number | liters",
                    "For {n} hikers for {d} days | n * s1 * d | number | liters",
                ],
                solve=lambda v: v.n * v.h * 6 * v.d,
            ),
            Change(
                "target",
                "{A} leads {n} hikers, {A.himself} not counted. Each person, {A} included, drinks "
                "{h} liters of water an hour. How many liters does the group drink in one hour?",
                steps=["People | n + 1 | count | people", "In an hour | s1 * h | number | liters"],
                solve=lambda v: (v.n + 1) * v.h,
            ),
            Change(
                "added_step",
                "{A} leads {n} hikers, {A.himself} not counted, on a {d}-day hike. Each person, "
                "{A} included, drinks {h} liters of water an hour and hikes 6 hours a day. Water "
                "comes in 5-liter jugs. How many jugs does the group need?",
                when=lambda v: ((v.n + 1) * v.h * 6 * v.d / 5).denominator != 1,
                steps=[
                    "People | n + 1 | count | people",
                    "Water per person a day | h * 6 | number | liters",
                    "For everyone for {d} days | s1 * s2 * d | number | liters",
                    "Jugs of 5 liters | ceil(s3 / 5) | count | jugs",
                ],
                solve=lambda v: -(-((v.n + 1) * v.h * 6 * v.d / 5) // 1),
            ),
        ),
    ),
    Family(
        id="multi/bakery-order",
        topic="recipes",
        slots=dict(
            A=PERSON, B=PERSON, T=thing("baked"), a=count(2, 6), b=count(2, 6), p=money(2, 5, "0.5")
        ),
        text="{A} orders {a} dozen {T.many} and {B} orders {b} dozen. Each {T.one} costs {p}. "
        "How much do they pay together?",
        paraphrases=(
            "Together {A} ({a} dozen) and {B} ({b} dozen) order {T.many} at {p} apiece. What is "
            "their bill?",
            "At {p} per {T.one}, what do {a} dozen for {A} and {b} dozen for {B} cost?",
        ),
        steps=[
            "Dozens | a + b | count | dozen",
            "{T.many} | s1 * 12 | count | {T.many}",
            "Cost | s2 * p | money",
        ],
        solve=lambda v: (v.a + v.b) * 12 * v.p,
        changes=(
            Change(
                "target",
                "{A} orders {a} dozen {T.many} and {B} orders {b} dozen. Each {T.one} costs {p}. "
                "How much does {B} pay?",
                steps=["{T.many} for {B} | b * 12 | count | {T.many}", "Cost | s1 * p | money"],
                solve=lambda v: v.b * 12 * v.p,
            ),
            Change(
                "operation",
                "{A} orders {a} dozen {T.many} and {B} cancels {b} of them, {b} single {T.many}. "
                "Each {T.one} costs {p}. How much does {A} pay?",
                steps=[
                    "{T.many} ordered | a * 12 | count | {T.many}",
                    "After the cancellation | s1 - b | count | {T.many}",
                    "Cost | s2 * p | money",
                ],
                solve=lambda v: (v.a * 12 - v.b) * v.p,
            ),
            Change(
                "added_step",
                "{A} orders {a} dozen {T.many} and {B} orders {b} dozen. Each {T.one} costs {p}, "
                "and every full dozen gets {q} off. How much do they pay together?",
                slots=dict(q=money(1, 3)),
                steps=[
                    "Dozens | a + b | count | dozen",
                    "{T.many} | s1 * 12 | count | {T.many}",
                    "Price before the offer | s2 * p | money",
                    "Offer for {s1} dozen | s1 * q | money",
                    "Cost | s3 - s4 | money",
                ],
                solve=lambda v: (v.a + v.b) * 12 * v.p - (v.a + v.b) * v.q,
            ),
        ),
    ),
    Family(
        id="multi/rain-gauge",
        topic="multi-step",
        slots=dict(
            A=PERSON, a=dec("0.5", 3, "0.5"), b=dec("0.5", 3, "0.5"), c=dec("0.5", 3, "0.5")
        ),
        text="{A} records rain for three days: {a} cm, {b} cm and {c} cm. What is the average "
        "rainfall a day?",
        paraphrases=(
            "Rain in {A}'s gauge: {a} cm on day one, {b} cm on day two, {c} cm on day three. "
            "Mean per day?",
            "What is the average daily rain over three days if {A} measures {a}, {b} and {c} "
            "centimeters?",
        ),
        when=lambda v: ((v.a + v.b + v.c) / 3 * 100).denominator == 1,
        steps=["Total | a + b + c | number | cm", "Average of 3 days | s1 / 3 | number | cm"],
        solve=lambda v: (v.a + v.b + v.c) / 3,
        changes=(
            Change(
                "target",
                "{A} records rain for three days: {a} cm, {b} cm and {c} cm. How much rain falls "
                "in the three days?",
                steps=["Total | a + b + c | number | cm"],
                solve=lambda v: v.a + v.b + v.c,
            ),
            Change(
                "added_step",
                "{A} records rain for three days: {a} cm, {b} cm and {c} cm, and none on a "
                "fourth day. What is the average rainfall a day over the four days?",
                steps=[
                    "Total | a + b + c | number | cm",
                    "Average of 4 days | s1 / 4 | number | cm",
                ],
                solve=lambda v: (v.a + v.b + v.c) / 4,
            ),
            Change(
                "operation",
                "{A} records rain for two days: {a} cm and then {b} cm. How much more rain falls "
                "on the first day than on the second?",
                when=lambda v: v.a > v.b,
                steps=["Difference | a - b | number | cm"],
                solve=lambda v: v.a - v.b,
            ),
        ),
    ),
]
