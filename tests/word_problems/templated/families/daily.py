"""Everyday transfers, conversions and fares: who gives what to whom, and the rest."""

from __future__ import annotations

from tests.word_problems.templated.model import (
    PERSON,
    Change,
    Derived,
    Family,
    Values,
    count,
    dec,
    frac,
    money,
    pct,
    thing,
)


def _bulk(v: Values) -> list[str]:
    if v.n >= v.m:
        return [
            "{n} is at least {m}, so the bulk price of {q} applies",
            "Cost | n * q | money",
        ]
    return [
        "{n} is fewer than {m}, so the usual price of {p} applies",
        "Cost | n * p | money",
    ]


FAMILIES = [
    Family(
        id="transfer/gives-cards",
        topic="multi-step",
        slots=dict(
            A=PERSON, B=PERSON, T=thing("toy"), a=count(15, 60), b=count(10, 50), k=count(3, 12)
        ),
        when=lambda v: v.a > v.k and v.b > v.k,
        text="{A} has {a} {T.many} and {B} has {b}. {A} gives {B} {k} {T.many}. How many "
        "{T.many} does {B} have now?",
        paraphrases=(
            "{B} starts with {b} {T.many}; {A} starts with {a}. After {A} hands {k} of them to "
            "{B}, how many does {B} have?",
            "How many {T.many} does {B} end up with, having {b} before {A}, who has {a}, gives "
            "{B.him} {k}?",
        ),
        steps=["{B} gets {k} more | b + k | count | {T.many}"],
        solve=lambda v: v.b + v.k,
        changes=(
            Change(
                "roles",
                "{A} has {a} {T.many} and {B} has {b}. {B} gives {A} {k} {T.many}. How many "
                "{T.many} does {B} have now?",
                steps=["{B} gives away {k} | b - k | count | {T.many}"],
                solve=lambda v: v.b - v.k,
            ),
            Change(
                "operation",
                "{A} has {a} {T.many} and {B} has {b}. {A} receives {k} {T.many} from {B}. How "
                "many {T.many} does {A} have now?",
                steps=["{A} gets {k} more | a + k | count | {T.many}"],
                solve=lambda v: v.a + v.k,
            ),
            Change(
                "target",
                "{A} has {a} {T.many} and {B} has {b}. {A} gives {B} {k} {T.many}. How many "
                "{T.many} does {A} have now?",
                steps=["{A} gives away {k} | a - k | count | {T.many}"],
                solve=lambda v: v.a - v.k,
            ),
            Change(
                "added_step",
                "{A} has {a} {T.many} and {B} has {b}. {A} gives {B} {k} {T.many}. How many "
                "{T.many} do they have together now?",
                steps=["Together, unchanged by the gift | a + b | count | {T.many}"],
                solve=lambda v: v.a + v.b,
            ),
        ),
    ),
    Family(
        id="transfer/wins-and-loses",
        topic="multi-step",
        slots=dict(
            A=PERSON,
            B=PERSON,
            C=PERSON,
            T=thing("toy"),
            a=count(20, 60),
            w=count(3, 15),
            l=count(3, 15),
        ),
        when=lambda v: v.a + v.w > v.l,
        text="{A} has {a} {T.many}. {A.He} {A.v[wins]} {w} from {B} and then {A.v[loses]} {l} to "
        "{C}. "
        "How many {T.many} does {A} have now?",
        paraphrases=(
            "Starting with {a} {T.many}, {A} wins {w} off {B} and then loses {l} to {C}. How "
            "many are left?",
            "After winning {w} {T.many} from {B} and losing {l} to {C}, how many does {A}, who "
            "began with {a}, have?",
        ),
        steps=[
            "After winning {w} | a + w | count | {T.many}",
            "After losing {l} | s1 - l | count | {T.many}",
        ],
        solve=lambda v: v.a + v.w - v.l,
        changes=(
            Change(
                "operation",
                "{A} has {a} {T.many}. {A.He} {A.v[loses]} {w} to {B} and then {A.v[wins]} {l} "
                "from {C}. "
                "How many {T.many} does {A} have now?",
                when=lambda v: v.a > v.w,
                steps=[
                    "After losing {w} | a - w | count | {T.many}",
                    "After winning {l} | s1 + l | count | {T.many}",
                ],
                solve=lambda v: v.a - v.w + v.l,
            ),
            Change(
                "target",
                "{A} has {a} {T.many}. {A.He} {A.v[wins]} {w} from {B} and then {A.v[loses]} {l} "
                "to {C}. "
                "How many more {T.many} does {A} win than lose?",
                when=lambda v: v.w > v.l,
                steps=["Difference | w - l | count | {T.many}"],
                solve=lambda v: v.w - v.l,
            ),
            Change(
                "added_step",
                "{A} has {a} {T.many}. {A.He} {A.v[wins]} {w} from {B}, {A.v[loses]} {l} to {C}, "
                "and then "
                "{A.v[doubles]} what {A.he} {A.v[has]} in a last game. How many {T.many} does {A} "
                "have "
                "now?",
                steps=[
                    "After winning {w} | a + w | count | {T.many}",
                    "After losing {l} | s1 - l | count | {T.many}",
                    "Doubled | 2 * s2 | count | {T.many}",
                ],
                solve=lambda v: 2 * (v.a + v.w - v.l),
            ),
        ),
    ),
    Family(
        id="units/celsius-fahrenheit",
        topic="unit conversions",
        slots=dict(A=PERSON, C=thing("city"), c=count(5, 35, 5)),
        text="The forecast {A} reads for {C} says {c} degrees Celsius. What is that in degrees "
        "Fahrenheit?",
        paraphrases=(
            "{A} sees that it will be {c} °C in {C}. Convert that to Fahrenheit.",
            "How many degrees Fahrenheit is the {c} degrees Celsius {A} expects in {C}?",
        ),
        steps=["Multiply by 9/5 | c * 9 / 5 | number | degrees", "Add 32 | s1 + 32 | number | °F"],
        solve=lambda v: v.c * 9 / 5 + 32,
        changes=(
            Change(
                "reversed",
                "The forecast {A} reads for {C} says {f} degrees Fahrenheit. What is that in "
                "degrees Celsius?",
                derived=dict(f=Derived("c * 9 / 5 + 32", "count")),
                steps=[
                    "Subtract 32 | f - 32 | number | degrees",
                    "Multiply by 5/9 | s1 * 5 / 9 | number | °C",
                ],
                solve=lambda v: (v.f - 32) * 5 / 9,
            ),
            Change(
                "added_step",
                "The forecast {A} reads for {C} says {c} degrees Celsius in the morning and {d} "
                "degrees warmer by noon. What is the noon temperature in degrees Fahrenheit?",
                slots=dict(d=count(5, 10, 5)),
                steps=[
                    "Noon in Celsius | c + d | count | °C",
                    "Multiply by 9/5 | s1 * 9 / 5 | number | degrees",
                    "Add 32 | s2 + 32 | number | °F",
                ],
                solve=lambda v: (v.c + v.d) * 9 / 5 + 32,
            ),
            Change(
                "target",
                "The forecast {A} reads for {C} says {c} degrees Celsius. How many degrees "
                "Celsius below body temperature, 37 degrees, is that?",
                when=lambda v: v.c < 37,
                steps=["Below 37 | 37 - c | count | degrees"],
                solve=lambda v: 37 - v.c,
            ),
        ),
    ),
    Family(
        id="construction/carpet-cost",
        topic="construction",
        slots=dict(A=PERSON, l=dec("2.5", 6, "0.5"), w=count(2, 5), p=money(12, 30)),
        text="{A} carpets a room {l} meters long and {w} meters wide. Carpet costs {p} per "
        "square meter. How much does the carpet cost?",
        paraphrases=(
            "A room of {l} m by {w} m gets new carpet at {p} a square meter. What does {A} pay?",
            "What is the cost for {A} to carpet a {l} by {w} meter room if carpet is {p} per "
            "square meter?",
        ),
        steps=["Area | l * w | number | square meters", "Cost | s1 * p | money"],
        solve=lambda v: v.l * v.w * v.p,
        changes=(
            Change(
                "added_step",
                "{A} carpets a room {l} meters long and {w} meters wide. Carpet costs {p} per "
                "square meter and fitting costs {f} in all. How much does the job cost?",
                slots=dict(f=money(40, 100, 20)),
                steps=[
                    "Area | l * w | number | square meters",
                    "Carpet | s1 * p | money",
                    "With fitting | s2 + f | money",
                ],
                solve=lambda v: v.l * v.w * v.p + v.f,
            ),
            Change(
                "target",
                "{A} carpets a room {l} meters long and {w} meters wide. What is the area of the "
                "room in square meters?",
                steps=["Area | l * w | number | square meters"],
                solve=lambda v: v.l * v.w,
            ),
            Change(
                "reversed",
                "{A} carpets a room {w} meters wide for {t}. Carpet costs {p} per square meter. "
                "How long is the room?",
                derived=dict(t=Derived("l * w * p", "money")),
                steps=["Area | t / p | number | square meters", "Length | s1 / w | number | m"],
                solve=lambda v: v.t / v.p / v.w,
            ),
        ),
    ),
    Family(
        id="sports/bowling-average",
        topic="sports",
        slots=dict(
            A=PERSON, a=count(90, 200), b=count(90, 200), c=count(90, 200), d=count(90, 200)
        ),
        when=lambda v: (v.a + v.b + v.c + v.d) % 4 == 0,
        text="{A} bowls four games with scores of {a}, {b}, {c} and {d}. What is {A.his} "
        "average score?",
        paraphrases=(
            "Bowling night: {A} scores {a}, {b}, {c} and {d}. Average per game?",
            "What is the mean of {A}'s four bowling scores: {a}, {b}, {c}, {d}?",
        ),
        steps=["Total | a + b + c + d | count | points", "Average of 4 | s1 / 4 | count | points"],
        solve=lambda v: (v.a + v.b + v.c + v.d) / 4,
        changes=(
            Change(
                "target",
                "{A} bowls four games with scores of {a}, {b}, {c} and {d}. What is {A.his} "
                "total score?",
                steps=["Total | a + b + c + d | count | points"],
                solve=lambda v: v.a + v.b + v.c + v.d,
            ),
            Change(
                "operation",
                "{A} bowls four games with scores of {a}, {b}, {c} and {d}, and the lowest-scoring "
                "game is dropped. What is {A.his} total for the other three?",
                steps=[
                    "Total | a + b + c + d | count | points",
                    "Without the lowest, {a} | s1 - a | count | points",
                ],
                solve=lambda v: v.a + v.b + v.c + v.d - min(v.a, v.b, v.c, v.d),
                when=lambda v: v.a < v.b and v.a < v.c and v.a < v.d,
            ),
            Change(
                "added_step",
                "{A} bowls four games with scores of {a}, {b}, {c} and {d}. {A.He} {A.v[wants]} "
                "an average of {g} over five games. What must {A.he} score in the fifth game?",
                slots=dict(g=count(150, 190, 10)),
                when=lambda v: 5 * v.g > v.a + v.b + v.c + v.d,
                steps=[
                    "Total | a + b + c + d | count | points",
                    "Needed over five games | 5 * g | count | points",
                    "Fifth game | s2 - s1 | count | points",
                ],
                solve=lambda v: 5 * v.g - (v.a + v.b + v.c + v.d),
            ),
        ),
    ),
    Family(
        id="recipes/sandwich-platter",
        topic="recipes",
        slots=dict(A=PERSON, D=thing("dish"), g=count(10, 40), e=count(2, 3), k=count(8, 12)),
        when=lambda v: v.g * v.e % v.k != 0,
        text="{A} is making {D.many} for {g} guests, {e} for each guest. A platter holds {k} "
        "{D.many}. How many platters does {A} need?",
        paraphrases=(
            "Each of {g} guests gets {e} {D.many}, and {A}'s platters hold {k} each. How many "
            "platters?",
            "How many platters of {k} does {A} fill with {D.many} for {g} guests at {e} each?",
        ),
        steps=["{D.many} | g * e | count | {D.many}", "Platters | ceil(s1 / k) | count | platters"],
        solve=lambda v: -(-(v.g * v.e) // v.k),
        changes=(
            Change(
                "target",
                "{A} is making {D.many} for {g} guests, {e} for each guest. How many {D.many} does "
                "{A} make?",
                steps=["{D.many} | g * e | count | {D.many}"],
                solve=lambda v: v.g * v.e,
            ),
            Change(
                "added_step",
                "{A} is making {D.many} for {g} guests, {e} for each guest, plus {x} spare. A "
                "platter holds {k} {D.many}. How many platters does {A} need?",
                slots=dict(x=count(4, 10)),
                when=lambda v: (v.g * v.e + v.x) % v.k != 0,
                steps=[
                    "{D.many} | g * e + x | count | {D.many}",
                    "Platters | ceil(s1 / k) | count | platters",
                ],
                solve=lambda v: -(-(v.g * v.e + v.x) // v.k),
            ),
            Change(
                "operation",
                "{A} is making {D.many} for {g} guests, {e} for each guest, but {r} guests cancel. "
                "A platter holds {k} {D.many}. How many platters does {A} need?",
                slots=dict(r=count(2, 5)),
                when=lambda v: v.g > v.r and (v.g - v.r) * v.e % v.k != 0,
                steps=[
                    "Guests | g - r | count | guests",
                    "{D.many} | s1 * e | count | {D.many}",
                    "Platters | ceil(s2 / k) | count | platters",
                ],
                solve=lambda v: -(-((v.g - v.r) * v.e) // v.k),
            ),
        ),
    ),
    Family(
        id="savings/piggy-bank",
        topic="savings",
        slots=dict(A=PERSON, n=count(10, 60), m=count(5, 40)),
        text="{A}'s piggy bank has {n} ten-cent coins and {m} twenty-five-cent coins. How many "
        "dollars are in it?",
        paraphrases=(
            "In {A}'s piggy bank there are {m} coins worth 25 cents and {n} worth 10 cents. "
            "Total in dollars?",
            "How much money, in dollars, do {n} ten-cent and {m} twenty-five-cent coins make for "
            "{A}?",
        ),
        steps=[
            "Ten-cent coins | n * 10 | count | cents",
            "Twenty-five-cent coins | m * 25 | count | cents",
            "In dollars | (s1 + s2) / 100 | money",
        ],
        solve=lambda v: (v.n * 10 + v.m * 25) / 100,
        changes=(
            Change(
                "operation",
                "{A}'s piggy bank has {n} ten-cent coins and {m} twenty-five-cent coins. {A.He} "
                "{A.v[takes]} out every ten-cent coin. How many dollars are left in it?",
                steps=[
                    "Twenty-five-cent coins | m * 25 | count | cents",
                    "In dollars | s1 / 100 | money",
                ],
                solve=lambda v: v.m * 25 / 100,
            ),
            Change(
                "target",
                "{A}'s piggy bank has {n} ten-cent coins and {m} twenty-five-cent coins. How many "
                "coins are in it?",
                steps=["Coins | n + m | count | coins"],
                solve=lambda v: v.n + v.m,
            ),
            Change(
                "added_step",
                "{A}'s piggy bank has {n} ten-cent coins and {m} twenty-five-cent coins. {A.He} "
                "{A.v[spends]} {s} from it. How many dollars are left?",
                slots=dict(s=money(1, 3)),
                when=lambda v: (v.n * 10 + v.m * 25) / 100 > v.s,
                steps=[
                    "Ten-cent coins | n * 10 | count | cents",
                    "Twenty-five-cent coins | m * 25 | count | cents",
                    "In dollars | (s1 + s2) / 100 | money",
                    "Left | s3 - s | money",
                ],
                solve=lambda v: (v.n * 10 + v.m * 25) / 100 - v.s,
            ),
        ),
    ),
    Family(
        id="travel/walking-pace",
        topic="rates",
        slots=dict(A=PERSON, s=count(3, 6), d=dec(1, 6, "0.5")),
        when=lambda v: (v.d / v.s * 60).denominator == 1,
        text="{A} walks at {s} kilometers per hour. How many minutes does it take {A.him} to walk "
        "{d} kilometers?",
        paraphrases=(
            "At a pace of {s} km an hour, how long in minutes is {A}'s {d} km walk?",
            "{A} needs to walk {d} kilometers at {s} kilometers per hour. Minutes needed?",
        ),
        steps=["Hours | d / s | number | hours", "Minutes | s1 * 60 | count | minutes"],
        solve=lambda v: v.d / v.s * 60,
        changes=(
            Change(
                "reversed",
                "{A} walks at {s} kilometers per hour for {m} minutes. How many kilometers "
                "{A.v[does]} "
                "{A.he} walk?",
                derived=dict(m=Derived("d / s * 60", "count")),
                steps=["Hours | m / 60 | number | hours", "Kilometers | s1 * s | number | km"],
                solve=lambda v: v.m / 60 * v.s,
            ),
            Change(
                "operation",
                "{A} jogs at twice {s} kilometers per hour. How many minutes does it take {A.him} "
                "to cover {d} kilometers?",
                when=lambda v: (v.d / (2 * v.s) * 60).denominator == 1,
                steps=[
                    "Speed | 2 * s | count | km/h",
                    "Hours | d / s1 | number | hours",
                    "Minutes | s2 * 60 | count | minutes",
                ],
                solve=lambda v: v.d / (2 * v.s) * 60,
            ),
            Change(
                "added_step",
                "{A} walks at {s} kilometers per hour to a park {d} kilometers away and back. How "
                "many minutes {A.v[does]} {A.he} walk?",
                steps=[
                    "There and back | 2 * d | number | km",
                    "Hours | s1 / s | number | hours",
                    "Minutes | s2 * 60 | count | minutes",
                ],
                solve=lambda v: 2 * v.d / v.s * 60,
            ),
        ),
    ),
    Family(
        id="percent/discount-then-tax",
        topic="percentages",
        slots=dict(
            A=PERSON, T=thing("clothes"), p=money(40, 200, 20), d=pct(10, 30, 10), t=pct(5, 10, 5)
        ),
        when=lambda v: (v.p * (1 - v.d / 100) * (1 + v.t / 100) * 100).denominator == 1,
        text="A {T.one} costs {p}. {A} gets {d} off, and then a sales tax of {t} is added to the "
        "discounted price. What does {A} pay?",
        paraphrases=(
            "{A} buys a {p} {T.one} with {d} off; tax of {t} is charged on the reduced price. "
            "Final price?",
            "What does a {T.one} priced {p} cost {A} after a {d} discount and then {t} tax?",
        ),
        steps=[
            "Discount: {d} of {p} | d% * p | money",
            "After the discount | p - s1 | money",
            "Tax: {t} of {s2} | t% * s2 | money",
            "To pay | s2 + s3 | money",
        ],
        solve=lambda v: v.p * (1 - v.d / 100) * (1 + v.t / 100),
        changes=(
            Change(
                "target",
                "A {T.one} costs {p}. {A} gets {d} off. What does {A} save?",
                steps=["Discount: {d} of {p} | d% * p | money"],
                solve=lambda v: v.p * v.d / 100,
            ),
            Change(
                "operation",
                "A {T.one} costs {p}. {A} gets {d} off, and no tax is charged. What does {A} pay?",
                steps=[
                    "Discount: {d} of {p} | d% * p | money",
                    "After the discount | p - s1 | money",
                ],
                solve=lambda v: v.p * (1 - v.d / 100),
            ),
            Change(
                "added_step",
                "{A} buys two {T.many} at {p} each, gets {d} off the pair, and then a sales tax of "
                "{t} is added. What does {A} pay?",
                when=lambda v: (2 * v.p * (1 - v.d / 100) * (1 + v.t / 100) * 100).denominator == 1,
                steps=[
                    "Two {T.many} | 2 * p | money",
                    "Discount: {d} | d% * s1 | money",
                    "After the discount | s1 - s2 | money",
                    "Tax: {t} | t% * s3 | money",
                    "To pay | s3 + s4 | money",
                ],
                solve=lambda v: 2 * v.p * (1 - v.d / 100) * (1 + v.t / 100),
            ),
        ),
    ),
    Family(
        id="fractions/half-recipe",
        topic="recipes",
        slots=dict(
            A=PERSON,
            I=thing("ingredient"),
            c=frac("3/4", "2/3", "1/2", "3/2", "5/2"),
            e=count(2, 6),
        ),
        when=lambda v: v.e % 2 == 0,
        text="A recipe needs {c} cups of {I.one} and {e} eggs. {A} makes half the recipe. How "
        "many cups of {I.one} {A.v[does]} {A.he} use?",
        paraphrases=(
            "{A} halves a recipe calling for {c} cups of {I.one} and {e} eggs. How much "
            "{I.one}, in cups?",
            "How many cups of {I.one} go into half of a recipe that takes {c} cups of it and {e} "
            "eggs, as {A} makes it?",
        ),
        steps=["Half of {c} cups | c / 2 | fraction | cups"],
        solve=lambda v: v.c / 2,
        changes=(
            Change(
                "target",
                "A recipe needs {c} cups of {I.one} and {e} eggs. {A} makes half the recipe. How "
                "many eggs {A.v[does]} {A.he} use?",
                steps=["Half of {e} eggs | e / 2 | count | eggs"],
                solve=lambda v: v.e / 2,
            ),
            Change(
                "operation",
                "A recipe needs {c} cups of {I.one} and {e} eggs. {A} makes one and a half times "
                "the recipe. How many cups of {I.one} {A.v[does]} {A.he} use?",
                steps=["One and a half times {c} cups | c * 3 / 2 | fraction | cups"],
                solve=lambda v: v.c * 3 / 2,
            ),
            Change(
                "added_step",
                "A recipe needs {c} cups of {I.one} and {e} eggs. {A} makes half the recipe "
                "twice, on two days. How many cups of {I.one} {A.v[does]} {A.he} use?",
                steps=[
                    "Half of {c} cups | c / 2 | fraction | cups",
                    "On two days | 2 * s1 | fraction | cups",
                ],
                solve=lambda v: v.c,
            ),
        ),
    ),
    Family(
        id="work/painters-rooms",
        topic="work done",
        slots=dict(A=PERSON, B=PERSON, r=count(6, 36, 2), a=count(2, 4), b=count(2, 4)),
        when=lambda v: v.r % (v.a + v.b) == 0 and v.a != v.b,
        text="{A} paints {a} rooms a day and {B} paints {b} rooms a day. Working together, how "
        "many days do they need to paint {r} rooms?",
        paraphrases=(
            "Together {A} ({a} rooms per day) and {B} ({b} rooms per day) paint {r} rooms. How "
            "many days?",
            "How many days do {A} and {B} take for {r} rooms if {A} does {a} a day and {B} {b} "
            "a day?",
        ),
        steps=["Rooms a day together | a + b | count | rooms", "Days | r / s1 | count | days"],
        solve=lambda v: v.r / (v.a + v.b),
        changes=(
            Change(
                "roles",
                "{A} paints {a} rooms a day and {B} paints {b} rooms a day. After they paint {r} "
                "rooms together, how many of them did {B} paint?",
                steps=[
                    "Rooms a day together | a + b | count | rooms",
                    "Days | r / s1 | count | days",
                    "{B}'s rooms | s2 * b | count | rooms",
                ],
                solve=lambda v: v.r / (v.a + v.b) * v.b,
            ),
            Change(
                "operation",
                "{A} paints {a} rooms a day. How many days does {A} need alone to paint {r} rooms?",
                when=lambda v: v.r % v.a == 0,
                steps=["Days | r / a | count | days"],
                solve=lambda v: v.r / v.a,
            ),
            Change(
                "added_step",
                "{A} paints {a} rooms a day and {B} paints {b} rooms a day, and each is paid {p} a "
                "day. What does it cost to have them paint {r} rooms together?",
                slots=dict(p=money(80, 160, 20)),
                steps=[
                    "Rooms a day together | a + b | count | rooms",
                    "Days | r / s1 | count | days",
                    "Pay for two painters | s2 * 2 * p | money",
                ],
                solve=lambda v: v.r / (v.a + v.b) * 2 * v.p,
            ),
        ),
    ),
    Family(
        id="ages/ratio-future",
        topic="ages",
        slots=dict(A=PERSON, B=PERSON, a=count(30, 50), b=count(5, 15), y=count(2, 10)),
        when=lambda v: v.a > v.b,
        text="{A} is {a} and {A.his} niece {B} is {b}. How much older than {B} will {A} be in "
        "{y} years?",
        paraphrases=(
            "In {y} years, by how many years will {A} (now {a}) be older than {B} (now {b})?",
            "{A} is {a}, {B} is {b}. What will the difference in their ages be {y} years from now?",
        ),
        steps=["The difference never changes | a - b | count | years"],
        solve=lambda v: v.a - v.b,
        changes=(
            Change(
                "target",
                "{A} is {a} and {A.his} niece {B} is {b}. How old will they be together in {y} "
                "years?",
                steps=[
                    "Together now | a + b | count | years",
                    "In {y} years | s1 + 2 * y | count | years",
                ],
                solve=lambda v: v.a + v.b + 2 * v.y,
            ),
            Change(
                "operation",
                "{A} is {a} and {A.his} niece {B} is {b}. In how many years will {A} be twice "
                "as old as {B}?",
                when=lambda v: v.a > 2 * v.b,
                steps=["Years until {A} is twice {B}'s age | a - 2 * b | count | years"],
                solve=lambda v: v.a - 2 * v.b,
            ),
            Change(
                "added_step",
                "{A} is {a} and {A.his} niece {B} is {b}. How old will {A} be in {y} years?",
                steps=["In {y} years | a + y | count | years"],
                solve=lambda v: v.a + v.y,
            ),
        ),
    ),
    Family(
        id="school/grade-points",
        topic="school",
        slots=dict(A=PERSON, a=count(2, 5), b=count(2, 4), c=count(2, 3)),
        when=lambda v: ((4 * v.a + 3 * v.b + 2 * v.c) / (v.a + v.b + v.c) * 100).denominator == 1,
        text="{A} earns {a} A grades worth 4 points, {b} B grades worth 3 points and {c} C "
        "grades worth 2 points. What is {A.his} grade point average?",
        paraphrases=(
            "With A = 4, B = 3 and C = 2 points, {A} has {a} A's, {b} B's and {c} C's. Average "
            "grade points?",
            "What is the average, in grade points, of {A}'s {a} A grades (4), {b} B grades (3) "
            "and {c} C grades (2)?",
        ),
        steps=[
            "Points | 4 * a + 3 * b + 2 * c | count | points",
            "Grades | a + b + c | count | grades",
            "Average | s1 / s2 | number | points",
        ],
        solve=lambda v: (4 * v.a + 3 * v.b + 2 * v.c) / (v.a + v.b + v.c),
        changes=(
            Change(
                "target",
                "{A} earns {a} A grades worth 4 points, {b} B grades worth 3 points and {c} C "
                "grades worth 2 points. How many grade points {A.v[does]} {A.he} earn in all?",
                steps=["Points | 4 * a + 3 * b + 2 * c | count | points"],
                solve=lambda v: 4 * v.a + 3 * v.b + 2 * v.c,
            ),
            Change(
                "operation",
                "{A} earns {a} A grades worth 4 points, {b} B grades worth 3 points and {c} C "
                "grades worth 2 points, and every C grade is raised to a B. How many grade points "
                "{A.v[does]} {A.he} earn in all?",
                steps=["Points | 4 * a + 3 * b + 3 * c | count | points"],
                solve=lambda v: 4 * v.a + 3 * v.b + 3 * v.c,
            ),
            Change(
                "added_step",
                "{A} earns {a} A grades worth 4 points, {b} B grades worth 3 points, {c} C grades "
                "worth 2 points and one D grade worth 1 point. What is {A.his} grade point "
                "average?",
                when=lambda v: (
                    ((4 * v.a + 3 * v.b + 2 * v.c + 1) / (v.a + v.b + v.c + 1) * 100).denominator
                    == 1
                ),
                steps=[
                    "Points | 4 * a + 3 * b + 2 * c + 1 | count | points",
                    "Grades | a + b + c + 1 | count | grades",
                    "Average | s1 / s2 | number | points",
                ],
                solve=lambda v: (4 * v.a + 3 * v.b + 2 * v.c + 1) / (v.a + v.b + v.c + 1),
            ),
        ),
    ),
    Family(
        id="shopping/bulk-price",
        topic="shopping",
        slots=dict(
            A=PERSON,
            T=thing("stationery"),
            n=count(5, 40),
            m=count(10, 25, 5),
            p=money(2, 5),
            q=money(1, 3),
        ),
        when=lambda v: v.q < v.p and v.n >= v.m,
        text="{T.many} cost {p} each, or {q} each when you buy at least {m}. {A} buys {n}. How "
        "much {A.v[does]} {A.he} pay?",
        paraphrases=(
            "{A} buys {n} {T.many}. The price is {p} apiece, dropping to {q} apiece for orders of "
            "{m} or more. Total?",
            "What does {A} pay for {n} {T.many} priced {p} each, or {q} each from {m} upward?",
        ),
        steps=_bulk,
        solve=lambda v: v.n * v.q,
        changes=(
            Change(
                "branch",
                "{T.many} cost {p} each, or {q} each when you buy at least {m}. {A} buys {n}. How "
                "much {A.v[does]} {A.he} pay?",
                when=lambda v: v.q < v.p and v.n < v.m,
                steps=_bulk,
                solve=lambda v: v.n * v.p,
            ),
            Change(
                "target",
                "{T.many} cost {p} each, or {q} each when you buy at least {m}. {A} buys {n}. How "
                "much {A.v[does]} {A.he} save compared with the usual price?",
                steps=[
                    "Usual price | n * p | money",
                    "Bulk price | n * q | money",
                    "Saving | s1 - s2 | money",
                ],
                solve=lambda v: v.n * (v.p - v.q),
            ),
            Change(
                "added_step",
                "{T.many} cost {p} each, or {q} each when you buy at least {m}. {A} buys {n} and "
                "pays with {b}. How much change {A.v[does]} {A.he} get?",
                slots=dict(b=money(100, 150, 50)),
                when=lambda v: v.q < v.p and v.n >= v.m and v.b > v.n * v.q,
                steps=[
                    "{n} is at least {m}, so the bulk price of {q} applies",
                    "Cost | n * q | money",
                    "Change | b - s1 | money",
                ],
                solve=lambda v: v.b - v.n * v.q,
            ),
        ),
    ),
    Family(
        id="travel/taxi-fare",
        topic="travel",
        slots=dict(
            A=PERSON, C=thing("city"), b=money(3, 6), r=money("1.5", "3", "0.5"), k=count(4, 25)
        ),
        text="A taxi in {C} charges {b} to start plus {r} per kilometer. {A} rides {k} "
        "kilometers. What is the fare?",
        paraphrases=(
            "{A} takes a {k} km taxi ride in {C}: {b} flag fall and {r} for each kilometer. "
            "How much?",
            "What does a {k}-kilometer taxi ride in {C} cost {A}, at {b} plus {r} a kilometer?",
        ),
        steps=["Distance charge | k * r | money", "Fare | b + s1 | money"],
        solve=lambda v: v.b + v.k * v.r,
        changes=(
            Change(
                "reversed",
                "A taxi in {C} charges {b} to start plus {r} per kilometer. {A}'s fare is {f}. How "
                "many kilometers does {A} ride?",
                derived=dict(f=Derived("b + k * r", "money")),
                steps=["Distance charge | f - b | money", "Kilometers | s1 / r | count | km"],
                solve=lambda v: (v.f - v.b) / v.r,
            ),
            Change(
                "added_step",
                "A taxi in {C} charges {b} to start plus {r} per kilometer. {A} rides {k} "
                "kilometers and adds a {t} tip. What does {A} pay?",
                slots=dict(t=money(2, 5)),
                steps=[
                    "Distance charge | k * r | money",
                    "Fare | b + s1 | money",
                    "With the tip | s2 + t | money",
                ],
                solve=lambda v: v.b + v.k * v.r + v.t,
            ),
            Change(
                "operation",
                "A taxi in {C} charges {b} to start plus {r} per kilometer, and {A} shares a "
                "{k}-kilometer ride equally with a friend. What does {A} pay?",
                when=lambda v: ((v.b + v.k * v.r) / 2 * 100).denominator == 1,
                steps=[
                    "Distance charge | k * r | money",
                    "Fare | b + s1 | money",
                    "{A}'s half | s2 / 2 | money",
                ],
                solve=lambda v: (v.b + v.k * v.r) / 2,
            ),
        ),
    ),
    Family(
        id="rates/heartbeats",
        topic="rates",
        slots=dict(A=PERSON, b=count(60, 90), m=count(5, 30, 5)),
        text="{A}'s heart beats {b} times a minute while resting. How many times does it beat "
        "in {m} minutes?",
        paraphrases=(
            "At rest, {A}'s pulse is {b} beats per minute. How many beats in {m} minutes?",
            "How many heartbeats does {A} have in {m} minutes at {b} a minute?",
        ),
        steps=["Beats | b * m | count | beats"],
        solve=lambda v: v.b * v.m,
        changes=(
            Change(
                "target",
                "{A}'s heart beats {b} times a minute while resting. How many times does it beat "
                "in an hour?",
                steps=["Beats in 60 minutes | b * 60 | count | beats"],
                solve=lambda v: v.b * 60,
            ),
            Change(
                "operation",
                "{A}'s heart beats {b} times a minute while resting and {d} more times a minute "
                "while jogging. How many times does it beat in {m} minutes of jogging?",
                slots=dict(d=count(40, 70, 10)),
                steps=[
                    "Jogging rate | b + d | count | beats a minute",
                    "Beats | s1 * m | count | beats",
                ],
                solve=lambda v: (v.b + v.d) * v.m,
            ),
            Change(
                "reversed",
                "{A}'s heart beats {t} times in {m} minutes while resting. How many times a "
                "minute is that?",
                derived=dict(t=Derived("b * m", "count")),
                steps=["A minute | t / m | count | beats"],
                solve=lambda v: v.t / v.m,
            ),
        ),
    ),
]
