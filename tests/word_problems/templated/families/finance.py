"""Savings, percentages and fractions of groups."""

from __future__ import annotations

from tests.word_problems.templated.model import (
    PERSON,
    Change,
    Derived,
    Family,
    Values,
    count,
    frac,
    money,
    pct,
    thing,
)


def _bonus(v: Values) -> list[str]:
    steps = ["Sales | n * p | money"]
    if v.n * v.p >= v.t:
        steps += [
            "{s1} is at least {t}, so {A} earns the {r} commission",
            "Commission | r% * s1 | money",
        ]
    else:
        steps += ["{s1} is below {t}, so no commission is paid", "Commission | 0 * s1 | money"]
    return steps


FAMILIES = [
    Family(
        id="savings/weeks-to-goal",
        topic="savings",
        slots=dict(
            A=PERSON, T=thing("sport"), g=money(80, 300, 10), h=money(10, 60, 5), s=money(8, 25)
        ),
        when=lambda v: v.g > v.h and (v.g - v.h) % v.s != 0,
        text="{A} wants a {T.one} that costs {g}. {A.He} {A.v[has]} saved {h} and {A.v[saves]} "
        "{s} a "
        "week. How many more weeks until {A.he} can buy it?",
        paraphrases=(
            "A {T.one} costs {g}. {A} has {h} already and puts away {s} each week. In how many "
            "weeks can {A.he} afford it?",
            "How many weeks must {A} save {s} a week to buy a {g} {T.one}, starting with {h}?",
        ),
        steps=[
            "Still to save | g - h | money",
            "Weeks at {s} a week | ceil(s1 / s) | count | weeks",
        ],
        solve=lambda v: -(-(v.g - v.h) // v.s),
        changes=(
            Change(
                "target",
                "{A} wants a {T.one} that costs {g}. {A.He} {A.v[has]} saved {h}. How much more "
                "{A.v[does]} {A.he} need?",
                steps=["Still to save | g - h | money"],
                solve=lambda v: v.g - v.h,
            ),
            Change(
                "operation",
                "{A} wants a {T.one} that costs {g}. {A.He} {A.v[has]} saved {h} and {A.v[saves]} "
                "{s} a "
                "week, and a grandparent gives {A.him} {h} more today. How many weeks until "
                "{A.he} can buy it?",
                when=lambda v: v.g > 2 * v.h and (v.g - 2 * v.h) % v.s != 0,
                steps=[
                    "Saved with the gift | 2 * h | money",
                    "Still to save | g - s1 | money",
                    "Weeks at {s} a week | ceil(s2 / s) | count | weeks",
                ],
                solve=lambda v: -(-(v.g - 2 * v.h) // v.s),
            ),
            Change(
                "added_step",
                "{A} wants a {T.one} that costs {g}. {A.He} {A.v[has]} saved {h} and {A.v[saves]} "
                "{s} a "
                "week. How much will {A.he} have left over after buying it, at the end of the "
                "first week {A.he} can?",
                steps=[
                    "Still to save | g - h | money",
                    "Weeks at {s} a week | ceil(s1 / s) | count | weeks",
                    "Saved by then | h + s2 * s | money",
                    "Left over | s3 - g | money",
                ],
                solve=lambda v: v.h + -(-(v.g - v.h) // v.s) * v.s - v.g,
            ),
        ),
    ),
    Family(
        id="savings/simple-interest",
        topic="savings",
        slots=dict(A=PERSON, P=money(500, 5000, 100), r=pct(2, 6, 1), y=count(2, 6)),
        text="{A} puts {P} in a savings account that pays {r} simple interest a year. How much "
        "interest {A.v[does]} {A.he} earn in {y} years?",
        paraphrases=(
            "A deposit of {P} earns {r} simple interest per year. What interest does {A} get "
            "after {y} years?",
            "How much simple interest does {A} earn on {P} at {r} a year over {y} years?",
        ),
        steps=["Interest a year | r% * P | money", "Over {y} years | y * s1 | money"],
        solve=lambda v: v.P * v.r / 100 * v.y,
        changes=(
            Change(
                "target",
                "{A} puts {P} in a savings account that pays {r} simple interest a year. How much "
                "is in the account after {y} years?",
                steps=[
                    "Interest a year | r% * P | money",
                    "Over {y} years | y * s1 | money",
                    "Balance | P + s2 | money",
                ],
                solve=lambda v: v.P + v.P * v.r / 100 * v.y,
            ),
            Change(
                "reversed",
                "{A} puts {P} in a savings account that pays simple interest and earns {I} in {y} "
                "years. What is the yearly interest rate, in percent?",
                derived=dict(I=Derived("P * r / 100 * y", "money")),
                steps=[
                    "Interest a year | I / y | money",
                    "As a percent of {P} | s1 / P * 100 | percent",
                ],
                solve=lambda v: v.I / v.y / v.P * 100,
            ),
            Change(
                "operation",
                "{A} puts {P} in an account that charges a fee of {r} of the deposit each year "
                "and pays no interest. How much is left after {y} years?",
                steps=[
                    "Fee a year | r% * P | money",
                    "Over {y} years | y * s1 | money",
                    "Left | P - s2 | money",
                ],
                solve=lambda v: v.P - v.P * v.r / 100 * v.y,
            ),
        ),
    ),
    Family(
        id="savings/compound-two-years",
        topic="savings",
        slots=dict(A=PERSON, P=money(1000, 8000, 500), r=pct(2, 10, 2)),
        text="{A} deposits {P} at {r} interest compounded once a year. How much is in the "
        "account after 2 years?",
        paraphrases=(
            "Interest of {r} is added to {A}'s {P} at the end of each year. What is the balance "
            "after two years?",
            "What does {A}'s deposit of {P} grow to in 2 years at {r} a year, compounded yearly?",
        ),
        steps=[
            "Interest in year 1 | r% * P | money",
            "After year 1 | P + s1 | money",
            "Interest in year 2 | r% * s2 | money",
            "After year 2 | s2 + s3 | money",
        ],
        when=lambda v: (v.P * (100 + v.r) ** 2 / 10000 * 100).denominator == 1,
        solve=lambda v: v.P * (1 + v.r / 100) ** 2,
        changes=(
            Change(
                "operation",
                "{A} deposits {P} at {r} simple interest a year. How much is in the account after "
                "2 years?",
                steps=[
                    "Interest a year | r% * P | money",
                    "Two years of interest | 2 * s1 | money",
                    "After 2 years | P + s2 | money",
                ],
                solve=lambda v: v.P * (1 + 2 * v.r / 100),
            ),
            Change(
                "target",
                "{A} deposits {P} at {r} interest compounded once a year. How much interest is "
                "earned in the second year?",
                steps=[
                    "Interest in year 1 | r% * P | money",
                    "After year 1 | P + s1 | money",
                    "Interest in year 2 | r% * s2 | money",
                ],
                solve=lambda v: v.P * (1 + v.r / 100) * v.r / 100,
            ),
            Change(
                "added_step",
                "{A} deposits {P} at {r} interest compounded once a year, and withdraws {w} at "
                "the end of the first year, after the interest. How much is in the account after "
                "2 years?",
                slots=dict(w=money(100, 500, 100)),
                when=lambda v: (
                    ((v.P * (1 + v.r / 100) - v.w) * (1 + v.r / 100) * 100).denominator == 1
                ),
                steps=[
                    "Interest in year 1 | r% * P | money",
                    "After year 1 and the withdrawal | P + s1 - w | money",
                    "Interest in year 2 | r% * s2 | money",
                    "After year 2 | s2 + s3 | money",
                ],
                solve=lambda v: (v.P * (1 + v.r / 100) - v.w) * (1 + v.r / 100),
            ),
        ),
    ),
    Family(
        id="savings/save-share",
        topic="percentages",
        slots=dict(A=PERSON, e=money(800, 3000, 100), s=pct(10, 30, 5), m=count(3, 12)),
        text="{A} earns {e} a month and saves {s} of it. How much {A.v[does]} {A.he} save in {m} "
        "months?",
        paraphrases=(
            "Each month {A} puts aside {s} of a {e} salary. What {A.v[has]} {A.he} saved after {m} "
            "months?",
            "Saving {s} of {e} every month, how much does {A} save over {m} months?",
        ),
        steps=["Saved a month | s% * e | money", "In {m} months | m * s1 | money"],
        solve=lambda v: v.e * v.s / 100 * v.m,
        changes=(
            Change(
                "target",
                "{A} earns {e} a month and saves {s} of it. How much {A.v[does]} {A.he} spend each "
                "month?",
                steps=["Saved a month | s% * e | money", "Spent | e - s1 | money"],
                solve=lambda v: v.e - v.e * v.s / 100,
            ),
            Change(
                "reversed",
                "{A} earns {e} a month and saves {s} of it. How many months does it take to save "
                "{g}?",
                derived=dict(g=Derived("e * s / 100 * m", "money")),
                steps=["Saved a month | s% * e | money", "Months | g / s1 | count | months"],
                solve=lambda v: v.g / (v.e * v.s / 100),
            ),
            Change(
                "added_step",
                "{A} earns {e} a month, saves {s} of it, and gets a {b} bonus in the last month, "
                "which {A.he} saves in full. How much {A.v[does]} {A.he} save in {m} months?",
                slots=dict(b=money(100, 400, 100)),
                steps=[
                    "Saved a month | s% * e | money",
                    "In {m} months | m * s1 | money",
                    "With the bonus | s2 + b | money",
                ],
                solve=lambda v: v.e * v.s / 100 * v.m + v.b,
            ),
        ),
    ),
    Family(
        id="savings/two-savers",
        topic="savings",
        slots=dict(A=PERSON, B=PERSON, a=money(5, 20), k=count(2, 3), w=count(4, 10)),
        text="{A} saves {a} a week. {B} saves {k} times as much as {A} each week. How much do "
        "they save together in {w} weeks?",
        paraphrases=(
            "Every week {A} saves {a} and {B} saves {k} times that. What is their combined "
            "saving after {w} weeks?",
            "How much do {A} and {B} put away in {w} weeks, if {A} saves {a} weekly and {B} "
            "saves {k} times as much?",
        ),
        steps=[
            "{B} saves a week | k * a | money",
            "Together a week | a + s1 | money",
            "In {w} weeks | w * s2 | money",
        ],
        solve=lambda v: v.w * (v.a + v.k * v.a),
        changes=(
            Change(
                "roles",
                "{B} saves {a} a week. {A} saves {k} times as much as {B} each week. How much "
                "does {B} save in {w} weeks?",
                steps=["{B} in {w} weeks | w * a | money"],
                solve=lambda v: v.w * v.a,
            ),
            Change(
                "target",
                "{A} saves {a} a week. {B} saves {k} times as much as {A} each week. How much "
                "more does {B} save than {A} in {w} weeks?",
                steps=[
                    "{B} saves a week | k * a | money",
                    "More a week | s1 - a | money",
                    "In {w} weeks | w * s2 | money",
                ],
                solve=lambda v: v.w * (v.k * v.a - v.a),
            ),
            Change(
                "operation",
                "{A} saves {a} a week. Each week {B} saves {k} times as much as {A}, minus {d}. "
                "How much do they save together in {w} weeks?",
                slots=dict(d=money(1, 4)),
                when=lambda v: v.k * v.a > v.d,
                steps=[
                    "{B} saves a week | k * a - d | money",
                    "Together a week | a + s1 | money",
                    "In {w} weeks | w * s2 | money",
                ],
                solve=lambda v: v.w * (v.a + v.k * v.a - v.d),
            ),
        ),
    ),
    Family(
        id="savings/goal-percent",
        topic="percentages",
        slots=dict(A=PERSON, C=thing("city"), g=money(400, 2000, 100), h=money(100, 1500, 50)),
        when=lambda v: v.h < v.g and (v.h * 100 / v.g).denominator == 1,
        text="{A} is saving {g} for a trip to {C} and has {h} so far. What percent of the goal "
        "{A.v[has]} {A.he} saved?",
        paraphrases=(
            "A trip to {C} needs {g}. {A} has put away {h}. What percentage of the target is that?",
            "With {h} saved toward {g} for {C}, how far along is {A}, in percent?",
        ),
        steps=["{h} of {g} as a percent | h / g * 100 | percent"],
        solve=lambda v: v.h * 100 / v.g,
        changes=(
            Change(
                "target",
                "{A} is saving {g} for a trip to {C} and has {h} so far. How much more {A.v[does]} "
                "{A.he} need?",
                steps=["Still needed | g - h | money"],
                solve=lambda v: v.g - v.h,
            ),
            Change(
                "operation",
                "{A} is saving {g} for a trip to {C} and has {h} so far. What percent of the goal "
                "is still missing?",
                steps=[
                    "Still needed | g - h | money",
                    "As a percent of {g} | s1 / g * 100 | percent",
                ],
                solve=lambda v: (v.g - v.h) * 100 / v.g,
            ),
            Change(
                "reversed",
                "{A} is saving {g} for a trip to {C} and has saved {q} of it. How much {A.v[has]} "
                "{A.he} "
                "saved?",
                derived=dict(q=Derived("h / g * 100", "percent")),
                steps=["{q} of {g} | q% * g | money"],
                solve=lambda v: v.q / 100 * v.g,
            ),
        ),
    ),
    Family(
        id="percent/rotten-fruit",
        topic="percentages",
        slots=dict(A=PERSON, T=thing("fruit"), n=count(40, 300, 20), p=pct(5, 25, 5)),
        when=lambda v: (v.n * v.p / 100).denominator == 1,
        text="{A} receives a crate of {n} {T.many}, and {p} of them are bruised. How many "
        "{T.many} are not bruised?",
        paraphrases=(
            "Of {n} {T.many} delivered to {A}, {p} are bruised. How many are fine?",
            "{A} checks {n} {T.many} and throws out the {p} that are bruised. How many are left?",
        ),
        steps=[
            "Bruised: {p} of {n} | p% * n | count | {T.many}",
            "Not bruised | n - s1 | count | {T.many}",
        ],
        solve=lambda v: v.n - v.n * v.p / 100,
        changes=(
            Change(
                "target",
                "{A} receives a crate of {n} {T.many}, and {p} of them are bruised. How many "
                "{T.many} are bruised?",
                steps=["Bruised: {p} of {n} | p% * n | count | {T.many}"],
                solve=lambda v: v.n * v.p / 100,
            ),
            Change(
                "reversed",
                "{A} receives a crate of {T.many}; {p} of them are bruised, which is {b} "
                "{T.many}. How many {T.many} are in the crate?",
                derived=dict(b=Derived("p% * n", "count")),
                steps=["{b} is {p} of the crate | b / p% | count | {T.many}"],
                solve=lambda v: v.b / (v.p / 100),
            ),
            Change(
                "added_step",
                "{A} receives a crate of {n} {T.many}, and {p} of them are bruised. {A.He} "
                "{A.v[sells]} the good ones in bags of {k}. How many full bags can {A.he} fill?",
                slots=dict(k=count(4, 10)),
                when=lambda v: (
                    (v.n * v.p / 100).denominator == 1 and (v.n - v.n * v.p / 100) % v.k != 0
                ),
                steps=[
                    "Bruised: {p} of {n} | p% * n | count | {T.many}",
                    "Not bruised | n - s1 | count | {T.many}",
                    "Full bags of {k} | floor(s2 / k) | count | bags",
                ],
                solve=lambda v: (v.n - v.n * v.p / 100) // v.k,
            ),
        ),
    ),
    Family(
        id="percent/price-increase",
        topic="percentages",
        slots=dict(A=PERSON, T=thing("ticket"), p=money(20, 120, 5), i=pct(5, 30, 5)),
        when=lambda v: (v.p * v.i / 100 * 100).denominator == 1,
        text="A {T.one} cost {p} last year. This year the price rose by {i}. How much does {A} "
        "pay for one now?",
        paraphrases=(
            "Last year's price of a {T.one} was {p}; it has gone up {i}. What is the price {A} "
            "pays today?",
            "{A} buys a {T.one} after a {i} price rise on last year's {p}. What does it cost?",
        ),
        steps=["Rise of {i} | i% * p | money", "New price | p + s1 | money"],
        solve=lambda v: v.p * (1 + v.i / 100),
        changes=(
            Change(
                "operation",
                "A {T.one} cost {p} last year. This year the price fell by {i}. How much does {A} "
                "pay for one now?",
                steps=["Fall of {i} | i% * p | money", "New price | p - s1 | money"],
                solve=lambda v: v.p * (1 - v.i / 100),
            ),
            Change(
                "reversed",
                "A {T.one} costs {q} this year after a {i} price rise. What did it cost {A} last "
                "year?",
                derived=dict(q=Derived("p + i% * p", "money")),
                steps=[
                    "This year is 100% + {i} of last year | 100 + i | percent",
                    "Last year | q / s1% | money",
                ],
                solve=lambda v: v.q / (1 + v.i / 100),
            ),
            Change(
                "added_step",
                "A {T.one} cost {p} last year. This year the price rose by {i}. How much does {A} "
                "pay for {n} of them now?",
                slots=dict(n=count(2, 6)),
                steps=[
                    "Rise of {i} | i% * p | money",
                    "New price | p + s1 | money",
                    "For {n} | n * s2 | money",
                ],
                solve=lambda v: v.n * v.p * (1 + v.i / 100),
            ),
        ),
    ),
    Family(
        id="percent/restaurant-tip",
        topic="percentages",
        slots=dict(A=PERSON, D=thing("dish"), m=money(20, 120, 4), t=pct(10, 25, 5)),
        when=lambda v: (v.m * v.t / 100 * 100).denominator == 1,
        text="{A}'s lunch of {D.many} costs {m}. {A.He} {A.v[leaves]} a {t} tip. How much "
        "{A.v[does]} "
        "{A.he} pay in all?",
        paraphrases=(
            "The bill for {A}'s {D.many} is {m}, and {A.he} {A.v[adds]} a tip of {t}. What is "
            "the total?",
            "What does {A} spend on a {m} lunch of {D.many} plus a {t} tip?",
        ),
        steps=["Tip of {t} | t% * m | money", "Total | m + s1 | money"],
        solve=lambda v: v.m * (1 + v.t / 100),
        changes=(
            Change(
                "target",
                "{A}'s lunch of {D.many} costs {m}. {A.He} {A.v[leaves]} a {t} tip. How much is "
                "the tip?",
                steps=["Tip of {t} | t% * m | money"],
                solve=lambda v: v.m * v.t / 100,
            ),
            Change(
                "added_step",
                "{A}'s lunch of {D.many} costs {m}. {A.He} {A.v[leaves]} a {t} tip and pays with "
                "{b}. How much change {A.v[does]} {A.he} get?",
                slots=dict(b=money(150, 200, 50)),
                steps=[
                    "Tip of {t} | t% * m | money",
                    "Total | m + s1 | money",
                    "Change | b - s2 | money",
                ],
                solve=lambda v: v.b - v.m * (1 + v.t / 100),
            ),
            Change(
                "operation",
                "{A}'s lunch of {D.many} costs {m} and {A} uses a {t} off voucher. How much "
                "{A.v[does]} "
                "{A.he} pay?",
                steps=["Voucher of {t} | t% * m | money", "Total | m - s1 | money"],
                solve=lambda v: v.m * (1 - v.t / 100),
            ),
        ),
    ),
    Family(
        id="percent/percent-change",
        topic="percentages",
        slots=dict(A=PERSON, P=thing("plant"), a=count(20, 80, 4), b=count(24, 120, 4)),
        when=lambda v: v.b > v.a and ((v.b - v.a) * 100 / v.a).denominator == 1,
        text="Last spring {A} had {a} {P.many} in the garden. This spring {A.he} {A.v[has]} "
        "{b}. By what percent did the number of {P.many} grow?",
        paraphrases=(
            "{A}'s garden went from {a} {P.many} to {b} {P.many} in a year. What is the percent "
            "increase?",
            "From {a} to {b} {P.many}: how much, in percent, did {A}'s garden grow?",
        ),
        steps=[
            "Increase | b - a | count | {P.many}",
            "As a percent of {a} | s1 / a * 100 | percent",
        ],
        solve=lambda v: (v.b - v.a) * 100 / v.a,
        changes=(
            Change(
                "operation",
                "Last spring {A} had {b} {P.many} in the garden. This spring {A.he} {A.v[has]} "
                "{a}. By what percent did the number of {P.many} fall?",
                when=lambda v: v.b > v.a and ((v.b - v.a) * 100 / v.b * 4).denominator == 1,
                steps=[
                    "Decrease | b - a | count | {P.many}",
                    "As a percent of {b} | s1 / b * 100 | percent",
                ],
                solve=lambda v: (v.b - v.a) * 100 / v.b,
            ),
            Change(
                "target",
                "Last spring {A} had {a} {P.many} in the garden. This spring {A.he} {A.v[has]} "
                "{b}. How many more {P.many} are there?",
                steps=["Increase | b - a | count | {P.many}"],
                solve=lambda v: v.b - v.a,
            ),
            Change(
                "reversed",
                "Last spring {A} had {a} {P.many} in the garden. This spring the number grew by "
                "{g}. How many {P.many} {A.v[does]} {A.he} have now?",
                derived=dict(g=Derived("(b - a) / a * 100", "percent")),
                steps=[
                    "Growth of {g} | g% * a | count | {P.many}",
                    "Now | a + s1 | count | {P.many}",
                ],
                solve=lambda v: v.a + v.g / 100 * v.a,
            ),
        ),
    ),
    Family(
        id="percent/commission",
        topic="percentages",
        slots=dict(
            A=PERSON,
            T=thing("clothes"),
            n=count(10, 60),
            p=money(20, 80, 5),
            r=pct(5, 15, 5),
            t=money(800, 2000, 200),
        ),
        when=lambda v: v.n * v.p >= v.t and (v.n * v.p * v.r / 100 * 100).denominator == 1,
        text="{A} sells {n} {T.many} at {p} each. {A.He} {A.v[earns]} a {r} commission on "
        "sales if they reach at least {t}. How much commission {A.v[does]} {A.he} earn?",
        paraphrases=(
            "Sales of at least {t} earn {A} a {r} commission. {A.He} {A.v[sells]} {n} {T.many} "
            "priced at {p}. What is {A.his} commission?",
            "What commission does {A} get for selling {n} {T.many} at {p}, with {r} paid only "
            "when sales are {t} or more?",
        ),
        steps=_bonus,
        solve=lambda v: v.n * v.p * v.r / 100,
        changes=(
            Change(
                "branch",
                "{A} sells {n} {T.many} at {p} each. {A.He} {A.v[earns]} a {r} commission on "
                "sales if they reach at least {t}. How much commission {A.v[does]} {A.he} earn?",
                when=lambda v: v.n * v.p < v.t,
                steps=_bonus,
                solve=lambda v: 0 * v.n,
                stale=lambda v: v.n * v.p * v.r / 100,
            ),
            Change(
                "target",
                "{A} sells {n} {T.many} at {p} each. What are {A.his} sales?",
                steps=["Sales | n * p | money"],
                solve=lambda v: v.n * v.p,
            ),
            Change(
                "added_step",
                "{A} sells {n} {T.many} at {p} each and is paid a base of {b} plus {r} of sales. "
                "How much {A.v[is]} {A.he} paid?",
                slots=dict(b=money(300, 600, 100)),
                steps=[
                    "Sales | n * p | money",
                    "Commission | r% * s1 | money",
                    "Pay | b + s2 | money",
                ],
                solve=lambda v: v.b + v.n * v.p * v.r / 100,
            ),
        ),
    ),
    Family(
        id="percent/survey",
        topic="percentages",
        slots=dict(A=PERSON, n=count(100, 600, 50), p=pct(20, 60, 10), q=pct(10, 50, 10)),
        when=lambda v: (v.n * v.p / 100 * v.q / 100).denominator == 1,
        text="{A} surveys {n} people. {p} of them own a pet, and {q} of the pet owners own a "
        "cat. How many people own a cat?",
        paraphrases=(
            "In {A}'s survey of {n} people, {p} have a pet; of those, {q} have a cat. How many "
            "cat owners are there?",
            "Of {n} people asked by {A}, {p} own pets, and {q} of the pet owners own cats. "
            "Number of cat owners?",
        ),
        steps=[
            "Pet owners: {p} of {n} | p% * n | count | people",
            "Cat owners: {q} of {s1} | q% * s1 | count | people",
        ],
        solve=lambda v: v.n * v.p / 100 * v.q / 100,
        changes=(
            Change(
                "target",
                "{A} surveys {n} people. {p} of them own a pet. How many people do not own a pet?",
                when=lambda v: (v.n * v.p / 100).denominator == 1,
                steps=[
                    "Pet owners: {p} of {n} | p% * n | count | people",
                    "No pet | n - s1 | count | people",
                ],
                solve=lambda v: v.n - v.n * v.p / 100,
            ),
            Change(
                "operation",
                "{A} surveys {n} people. {p} of them own a pet, and {q} of the pet owners do not "
                "own a cat. How many people own a cat?",
                steps=[
                    "Pet owners: {p} of {n} | p% * n | count | people",
                    "Without a cat: {q} of {s1} | q% * s1 | count | people",
                    "Cat owners | s1 - s2 | count | people",
                ],
                solve=lambda v: v.n * v.p / 100 * (1 - v.q / 100),
            ),
            Change(
                "reversed",
                "{A} surveys some people. {p} of them own a pet, and {q} of the pet owners own a "
                "cat: {c} people. How many people did {A} survey?",
                derived=dict(c=Derived("n * p / 100 * q / 100", "count")),
                steps=[
                    "Pet owners | c / q% | count | people",
                    "Surveyed | s1 / p% | count | people",
                ],
                solve=lambda v: v.c / (v.q / 100) / (v.p / 100),
            ),
        ),
    ),
    Family(
        id="fractions/fraction-of-group",
        topic="fractions of groups",
        slots=dict(
            A=PERSON,
            F=thing("farm"),
            n=count(12, 60),
            f=frac("1/2", "1/3", "2/3", "1/4", "3/4", "1/5", "2/5"),
        ),
        when=lambda v: (v.n * v.f).denominator == 1,
        text="{A} has {n} {F.many} on a farm, and {f} of them are brown. How many brown {F.many} "
        "does {A} have?",
        paraphrases=(
            "Of the {n} {F.many} on {A}'s farm, {f} are brown. How many is that?",
            "How many of {A}'s {n} {F.many} are brown, if {f} of them are?",
        ),
        steps=["{f} of {n} | f * n | count | {F.many}"],
        solve=lambda v: v.f * v.n,
        changes=(
            Change(
                "target",
                "{A} has {n} {F.many} on a farm, and {f} of them are brown. How many {F.many} are "
                "not brown?",
                steps=[
                    "Brown: {f} of {n} | f * n | count | {F.many}",
                    "Not brown | n - s1 | count | {F.many}",
                ],
                solve=lambda v: v.n - v.f * v.n,
            ),
            Change(
                "reversed",
                "{A} has some {F.many} on a farm, and {f} of them, {b} {F.many}, are brown. How "
                "many {F.many} does {A} have?",
                derived=dict(b=Derived("f * n", "count")),
                steps=["{b} is {f} of them | b / f | count | {F.many}"],
                solve=lambda v: v.b / v.f,
            ),
            Change(
                "added_step",
                "{A} has {n} {F.many} on a farm, and {f} of them are brown. {A} sells {k} of the "
                "brown ones. How many brown {F.many} are left?",
                slots=dict(k=count(2, 5)),
                when=lambda v: (v.n * v.f).denominator == 1 and v.n * v.f > v.k,
                steps=[
                    "Brown: {f} of {n} | f * n | count | {F.many}",
                    "After selling {k} | s1 - k | count | {F.many}",
                ],
                solve=lambda v: v.f * v.n - v.k,
            ),
        ),
    ),
    Family(
        id="fractions/two-fractions",
        topic="fractions of groups",
        slots=dict(
            A=PERSON,
            B=PERSON,
            C=PERSON,
            T=thing("toy"),
            n=count(24, 96, 12),
            f=frac("1/2", "1/3", "1/4"),
            g=frac("1/2", "1/3", "1/4"),
        ),
        when=lambda v: (v.n * v.f).denominator == 1 and ((v.n - v.n * v.f) * v.g).denominator == 1,
        text="{A} has {n} {T.many}. {A.He} {A.v[gives]} {f} of them to {B}, then {g} of the rest "
        "to {C}. How many {T.many} does {A} have left?",
        paraphrases=(
            "First {A} gives {B} {f} of {A.his} {n} {T.many}; then {C} gets {g} of what is left. "
            "How many does {A} keep?",
            "Out of {n} {T.many}, {A} hands {f} to {B} and then {g} of the remainder to {C}. "
            "What does {A} end with?",
        ),
        steps=[
            "To {B}: {f} of {n} | f * n | count | {T.many}",
            "The rest | n - s1 | count | {T.many}",
            "To {C}: {g} of {s2} | g * s2 | count | {T.many}",
            "Left | s2 - s3 | count | {T.many}",
        ],
        solve=lambda v: (v.n - v.f * v.n) * (1 - v.g),
        changes=(
            Change(
                "target",
                "{A} has {n} {T.many}. {A.He} {A.v[gives]} {f} of them to {B}, then {g} of the "
                "rest to {C}. How many {T.many} does {C} get?",
                steps=[
                    "To {B}: {f} of {n} | f * n | count | {T.many}",
                    "The rest | n - s1 | count | {T.many}",
                    "To {C}: {g} of {s2} | g * s2 | count | {T.many}",
                ],
                solve=lambda v: (v.n - v.f * v.n) * v.g,
            ),
            Change(
                "operation",
                "{A} has {n} {T.many}. {A.He} {A.v[gives]} {f} of them to {B} and {g} of them to "
                "{C}. How many {T.many} does {A} have left?",
                when=lambda v: (
                    (v.n * v.f).denominator == 1 and (v.n * v.g).denominator == 1 and v.f + v.g < 1
                ),
                steps=[
                    "To {B}: {f} of {n} | f * n | count | {T.many}",
                    "To {C}: {g} of {n} | g * n | count | {T.many}",
                    "Left | n - s1 - s2 | count | {T.many}",
                ],
                solve=lambda v: v.n - v.f * v.n - v.g * v.n,
            ),
            Change(
                "roles",
                "{B} has {n} {T.many}. {B} gives {f} of them to {A}. How many {T.many} does {A} "
                "get?",
                steps=["To {A}: {f} of {n} | f * n | count | {T.many}"],
                solve=lambda v: v.f * v.n,
            ),
        ),
    ),
    Family(
        id="fractions/colours",
        topic="fractions of groups",
        slots=dict(
            A=PERSON,
            T=thing("flower"),
            n=count(20, 80, 4),
            f=frac("1/4", "1/2", "1/5"),
            g=frac("1/4", "1/5", "1/10"),
        ),
        when=lambda v: (
            (v.n * v.f).denominator == 1 and (v.n * v.g).denominator == 1 and v.f + v.g < 1
        ),
        text="{A} plants {n} {T.many}: {f} are red, {g} are yellow and the rest are white. How "
        "many white {T.many} are there?",
        paraphrases=(
            "Of {A}'s {n} {T.many}, {f} are red and {g} are yellow; the others are white. How "
            "many are white?",
            "How many white {T.many} does {A} have among {n}, if {f} are red, {g} yellow and the "
            "rest white?",
        ),
        steps=[
            "Red: {f} of {n} | f * n | count | {T.many}",
            "Yellow: {g} of {n} | g * n | count | {T.many}",
            "White | n - s1 - s2 | count | {T.many}",
        ],
        solve=lambda v: v.n * (1 - v.f - v.g),
        changes=(
            Change(
                "target",
                "{A} plants {n} {T.many}: {f} are red, {g} are yellow and the rest are white. How "
                "many more red {T.many} are there than yellow ones?",
                when=lambda v: (
                    v.f > v.g and (v.n * v.f).denominator == 1 and (v.n * v.g).denominator == 1
                ),
                steps=[
                    "Red: {f} of {n} | f * n | count | {T.many}",
                    "Yellow: {g} of {n} | g * n | count | {T.many}",
                    "More red | s1 - s2 | count | {T.many}",
                ],
                solve=lambda v: v.n * (v.f - v.g),
            ),
            Change(
                "operation",
                "{A} plants {n} {T.many}: {f} are red, and {g} of the others are yellow; the rest "
                "are white. How many white {T.many} are there?",
                when=lambda v: (
                    (v.n * v.f).denominator == 1 and ((v.n - v.n * v.f) * v.g).denominator == 1
                ),
                steps=[
                    "Red: {f} of {n} | f * n | count | {T.many}",
                    "The others | n - s1 | count | {T.many}",
                    "Yellow: {g} of {s2} | g * s2 | count | {T.many}",
                    "White | s2 - s3 | count | {T.many}",
                ],
                solve=lambda v: (v.n - v.n * v.f) * (1 - v.g),
            ),
            Change(
                "reversed",
                "{A} plants some {T.many}: {f} are red, {g} are yellow and the other {w} are "
                "white. "
                "How many {T.many} does {A} plant?",
                derived=dict(w=Derived("n * (1 - f - g)", "count")),
                steps=[
                    "White part | 1 - f - g | fraction",
                    "All of them | w / s1 | count | {T.many}",
                ],
                solve=lambda v: v.w / (1 - v.f - v.g),
            ),
        ),
    ),
    Family(
        id="fractions/eaten-cake",
        topic="fractions of groups",
        slots=dict(
            A=PERSON, B=PERSON, s=count(8, 16, 4), f=frac("1/4", "1/2", "3/8", "1/8"), k=count(2, 3)
        ),
        when=lambda v: (v.s * v.f).denominator == 1 and v.s - v.s * v.f > v.k,
        text="{A} cuts a cake into {s} equal slices. {A.He} {A.v[eats]} {f} of the cake, and "
        "{B} eats {k} slices. How many slices are left?",
        paraphrases=(
            "A cake in {s} slices: {A} eats {f} of it and {B} has {k} slices. How many slices "
            "remain?",
            "How many of the {s} slices of {A}'s cake are left after {A} eats {f} of the cake "
            "and {B} eats {k} slices?",
        ),
        steps=[
            "{A} eats {f} of {s} slices | f * s | count | slices",
            "Left | s - s1 - k | count | slices",
        ],
        solve=lambda v: v.s - v.f * v.s - v.k,
        changes=(
            Change(
                "roles",
                "{B} cuts a cake into {s} equal slices. {B} eats {k} slices, and {A} eats {f} of "
                "what is left. How many slices does {A} eat?",
                when=lambda v: ((v.s - v.k) * v.f).denominator == 1,
                steps=[
                    "Left after {B} | s - k | count | slices",
                    "{A} eats {f} of them | f * s1 | count | slices",
                ],
                solve=lambda v: (v.s - v.k) * v.f,
            ),
            Change(
                "target",
                "{A} cuts a cake into {s} equal slices. {A.He} {A.v[eats]} {f} of the cake, and "
                "{B} eats {k} slices. What fraction of the cake is left?",
                steps=[
                    "{A} eats {f} of {s} slices | f * s | count | slices",
                    "Left | s - s1 - k | count | slices",
                    "As a fraction of {s} | s2 / s | fraction",
                ],
                solve=lambda v: (v.s - v.f * v.s - v.k) / v.s,
            ),
            Change(
                "operation",
                "{A} cuts a cake into {s} equal slices. {A.He} {A.v[eats]} {f} of the cake, and "
                "{B} brings {k} more slices from another cake. How many slices are there now?",
                steps=[
                    "{A} eats {f} of {s} slices | f * s | count | slices",
                    "Now | s - s1 + k | count | slices",
                ],
                solve=lambda v: v.s - v.f * v.s + v.k,
            ),
        ),
    ),
    Family(
        id="fractions/tank-fraction",
        topic="fractions of groups",
        slots=dict(
            A=PERSON,
            V=count(40, 120, 8),
            f=frac("1/4", "1/2", "3/4", "3/8"),
            g=frac("1/2", "7/8", "3/4"),
        ),
        when=lambda v: v.g > v.f and (v.V * v.f).denominator == 1 and (v.V * v.g).denominator == 1,
        text="{A}'s rain barrel holds {V} liters and is {f} full. How many liters must {A.he} "
        "add to make it {g} full?",
        paraphrases=(
            "A {V}-liter barrel is {f} full. How much water does {A} need to add for it to be "
            "{g} full?",
            "{A} wants {A.his} {V} liter barrel, now {f} full, to be {g} full. Liters to add?",
        ),
        steps=[
            "Now: {f} of {V} | f * V | count | liters",
            "Wanted: {g} of {V} | g * V | count | liters",
            "To add | s2 - s1 | count | liters",
        ],
        solve=lambda v: v.V * (v.g - v.f),
        changes=(
            Change(
                "target",
                "{A}'s rain barrel holds {V} liters and is {f} full. How many liters are in it?",
                steps=["Now: {f} of {V} | f * V | count | liters"],
                solve=lambda v: v.V * v.f,
            ),
            Change(
                "operation",
                "{A}'s rain barrel holds {V} liters and is {f} full. {A.He} {A.v[uses]} {g} of "
                "the water in it. How many liters are left?",
                when=lambda v: (v.V * v.f * v.g).denominator == 1,
                steps=[
                    "Now: {f} of {V} | f * V | count | liters",
                    "Used: {g} of {s1} | g * s1 | count | liters",
                    "Left | s1 - s2 | count | liters",
                ],
                solve=lambda v: v.V * v.f * (1 - v.g),
            ),
            Change(
                "added_step",
                "{A}'s rain barrel holds {V} liters and is {f} full. {A.He} {A.v[fills]} it to the "
                "top with a watering can of {c} liters. How many trips with the can does that "
                "take?",
                slots=dict(c=count(5, 10)),
                when=lambda v: (v.V * v.f).denominator == 1 and (v.V - v.V * v.f) % v.c != 0,
                steps=[
                    "Now: {f} of {V} | f * V | count | liters",
                    "To the top | V - s1 | count | liters",
                    "Trips of {c} liters | ceil(s2 / c) | count | trips",
                ],
                solve=lambda v: -(-(v.V - v.V * v.f) // v.c),
            ),
        ),
    ),
    Family(
        id="fractions/ribbon-share",
        topic="fractions of groups",
        slots=dict(
            A=PERSON,
            B=PERSON,
            L=count(6, 24, 2),
            f=frac("1/3", "1/4", "1/2", "2/3"),
            g=frac("1/2", "1/3"),
        ),
        when=lambda v: (v.L * v.f).denominator == 1 and ((v.L - v.L * v.f) * v.g).denominator == 1,
        text="{A} has a rope {L} meters long. {A.He} {A.v[cuts]} off {f} of it for {B}, then "
        "{A.v[uses]} "
        "{g} of what is left for a swing. How many meters of rope remain?",
        paraphrases=(
            "From a {L} m rope, {A} cuts {f} of it for {B} and then {g} of the remainder for a "
            "swing. How long is the piece that is left?",
            "How many meters are left of {A}'s {L}-meter rope after {f} goes to {B} and {g} of "
            "the rest to a swing?",
        ),
        steps=[
            "For {B}: {f} of {L} | f * L | count | m",
            "Left | L - s1 | count | m",
            "For the swing: {g} of {s2} | g * s2 | count | m",
            "Remaining | s2 - s3 | count | m",
        ],
        solve=lambda v: (v.L - v.L * v.f) * (1 - v.g),
        changes=(
            Change(
                "target",
                "{A} has a rope {L} meters long. {A.He} {A.v[cuts]} off {f} of it for {B}. How "
                "many meters does {B} get?",
                steps=["For {B}: {f} of {L} | f * L | count | m"],
                solve=lambda v: v.L * v.f,
            ),
            Change(
                "operation",
                "{A} has a rope {L} meters long. {A.He} {A.v[ties]} on {f} as much rope again "
                "from {B}, then {A.v[uses]} {g} of the new length for a swing. How many meters of "
                "rope "
                "remain?",
                when=lambda v: (
                    (v.L * v.f).denominator == 1 and ((v.L + v.L * v.f) * v.g).denominator == 1
                ),
                steps=[
                    "From {B}: {f} of {L} | f * L | count | m",
                    "New length | L + s1 | count | m",
                    "For the swing: {g} of {s2} | g * s2 | count | m",
                    "Remaining | s2 - s3 | count | m",
                ],
                solve=lambda v: (v.L + v.L * v.f) * (1 - v.g),
            ),
            Change(
                "roles",
                "{B} has a rope {L} meters long and cuts off {f} of it for {A}. How many meters "
                "does {B} keep?",
                steps=["For {A}: {f} of {L} | f * L | count | m", "{B} keeps | L - s1 | count | m"],
                solve=lambda v: v.L - v.L * v.f,
            ),
        ),
    ),
    Family(
        id="fractions/library-fraction",
        topic="fractions of groups",
        slots=dict(
            A=PERSON, B=thing("book"), n=count(30, 90, 6), f=frac("1/3", "1/2", "2/3", "1/6", "5/6")
        ),
        when=lambda v: (v.n * v.f).denominator == 1,
        text="{A} owns {n} {B.many} and has read {f} of them. How many {B.many} has {A} not "
        "read yet?",
        paraphrases=(
            "{A} has read {f} of {A.his} {n} {B.many}. How many are still unread?",
            "Of {n} {B.many} on {A}'s shelf, {f} have been read. How many haven't?",
        ),
        steps=[
            "Read: {f} of {n} | f * n | count | {B.many}",
            "Not read | n - s1 | count | {B.many}",
        ],
        solve=lambda v: v.n - v.f * v.n,
        changes=(
            Change(
                "target",
                "{A} owns {n} {B.many} and has read {f} of them. How many {B.many} has {A} read?",
                steps=["Read: {f} of {n} | f * n | count | {B.many}"],
                solve=lambda v: v.f * v.n,
            ),
            Change(
                "added_step",
                "{A} owns {n} {B.many} and has read {f} of them. {A.He} {A.v[reads]} {k} more "
                "each month. How many months until {A.he} {A.v[has]} read them all?",
                slots=dict(k=count(2, 5)),
                when=lambda v: (
                    (v.n * v.f).denominator == 1 and (v.n - v.n * v.f) % v.k != 0 and v.f < 1
                ),
                steps=[
                    "Read: {f} of {n} | f * n | count | {B.many}",
                    "Not read | n - s1 | count | {B.many}",
                    "Months at {k} a month | ceil(s2 / k) | count | months",
                ],
                solve=lambda v: -(-(v.n - v.f * v.n) // v.k),
            ),
            Change(
                "operation",
                "{A} owns {n} {B.many} and buys {f} as many again. How many {B.many} does {A} "
                "have now?",
                steps=[
                    "Bought: {f} of {n} | f * n | count | {B.many}",
                    "Now | n + s1 | count | {B.many}",
                ],
                solve=lambda v: v.n + v.f * v.n,
            ),
        ),
    ),
]
