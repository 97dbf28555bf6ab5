"""Shopping and money: prices, change, discounts, packs, budgets, comparisons."""

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


def _cheaper(v: Values) -> list[str]:
    first = v.p / v.a < v.q / v.b
    return [
        "One {T.one} at the {P} | p / a[{T.many}] | money",
        "One {T.one} at the {Q} | q / b[{T.many}] | money",
        "{s1} is less than {s2}, so the {P} is cheaper"
        if first
        else "{s2} is less than {s1}, so the {Q} is cheaper",
        "The saving per {T.one} is the difference | s2 - s1 | money"
        if first
        else "The saving per {T.one} is the difference | s1 - s2 | money",
    ]


FAMILIES = [
    Family(
        id="shopping/unit-price-total",
        topic="shopping",
        slots=dict(
            A=PERSON, T=thing("fruit"), P=thing("shop"), n=count(3, 15), p=money("0.25", 3, "0.25")
        ),
        text="{A} buys {n} {T.many} at the {P}. Each {T.one} costs {p}. How much {A.v[does]} "
        "{A.he} "
        "spend?",
        paraphrases=(
            "At the {P}, {T.many} cost {p} each. {A} picks up {n} of them. What {A.v[does]} {A.he} "
            "pay in total?",
            "How much money does {A} spend on {n} {T.many} at the {P} if one {T.one} is {p}?",
        ),
        steps=["{A} buys {n} {T.many} at {p} each | n[{T.many}] * p[per {T.one}] | money"],
        solve=lambda v: v.n * v.p,
        changes=(
            Change(
                "added_step",
                "{A} buys {n} {T.many} at the {P}. Each {T.one} costs {p}. {A.He} {A.v[pays]} "
                "with a "
                "{b} bill. How much change {A.v[does]} {A.he} get?",
                slots=dict(b=money(20, 50, 10)),
                steps=[
                    "{A} buys {n} {T.many} at {p} each | n[{T.many}] * p[per {T.one}] | money",
                    "The change from {b} | b - s1 | money",
                ],
                solve=lambda v: v.b - v.n * v.p,
            ),
            Change(
                "reversed",
                "{A} spends {total} on {T.many} at the {P}. Each {T.one} costs {p}. How many "
                "{T.many} {A.v[does]} {A.he} buy?",
                derived=dict(total=Derived("n * p", "money")),
                steps=["{A} spends {total} at {p} per {T.one} | total / p | count | {T.many}"],
                solve=lambda v: v.total / v.p,
            ),
            Change(
                "operation",
                "{A} sells {n} {T.many} at the {P}. Each {T.one} sells for {p}, and the stall "
                "fee is {f}. How much {A.v[does]} {A.he} keep?",
                slots=dict(f=money(1, 5)),
                steps=[
                    "{A} sells {n} {T.many} at {p} each | n[{T.many}] * p[per {T.one}] | money",
                    "After the stall fee of {f} | s1 - f | money",
                ],
                solve=lambda v: v.n * v.p - v.f,
            ),
        ),
    ),
    Family(
        id="shopping/two-items",
        topic="shopping",
        slots=dict(
            A=PERSON,
            T=thing("stationery"),
            U=thing("book"),
            n=count(2, 9),
            p=money("0.5", 4, "0.5"),
            m=count(2, 6),
            q=money(3, 15),
        ),
        text="{A} buys {n} {T.many} for {p} each and {m} {U.many} for {q} each. How much "
        "{A.v[does]} {A.he} spend altogether?",
        paraphrases=(
            "For school, {A} gets {n} {T.many} at {p} apiece and {m} {U.many} at {q} apiece. "
            "What is the total cost?",
            "{T.many} cost {p} each and {U.many} cost {q} each. {A} takes {n} {T.many} and "
            "{m} {U.many} to the till. How much {A.v[does]} {A.he} pay?",
        ),
        steps=[
            "The {n} {T.many} cost | n * p | money",
            "The {m} {U.many} cost | m * q | money",
            "Together | s1 + s2 | money",
        ],
        solve=lambda v: v.n * v.p + v.m * v.q,
        changes=(
            Change(
                "target",
                "{A} buys {n} {T.many} for {p} each and {m} {U.many} for {q} each. How much "
                "more {A.v[does]} {A.he} spend on the {U.many} than on the {T.many}?",
                when=lambda v: v.m * v.q > v.n * v.p,
                steps=[
                    "The {n} {T.many} cost | n * p | money",
                    "The {m} {U.many} cost | m * q | money",
                    "The difference | s2 - s1 | money",
                ],
                solve=lambda v: v.m * v.q - v.n * v.p,
            ),
            Change(
                "operation",
                "{A} buys {n} {T.many} for {p} each and returns {m} {U.many} that cost {q} "
                "each for a refund. How much {A.v[does]} {A.he} spend after the refund, if the "
                "refund "
                "is smaller than the purchase?",
                when=lambda v: v.n * v.p > v.m * v.q,
                steps=[
                    "The {n} {T.many} cost | n * p | money",
                    "The refund for the {m} {U.many} | m * q | money",
                    "After the refund | s1 - s2 | money",
                ],
                solve=lambda v: v.n * v.p - v.m * v.q,
            ),
            Change(
                "added_step",
                "{A} buys {n} {T.many} for {p} each and {m} {U.many} for {q} each, and pays "
                "with {b}. How much change {A.v[does]} {A.he} get?",
                slots=dict(b=money(50, 100, 10)),
                when=lambda v: v.b > v.n * v.p + v.m * v.q,
                steps=[
                    "The {n} {T.many} cost | n * p | money",
                    "The {m} {U.many} cost | m * q | money",
                    "Together | s1 + s2 | money",
                    "The change from {b} | b - s3 | money",
                ],
                solve=lambda v: v.b - v.n * v.p - v.m * v.q,
            ),
        ),
    ),
    Family(
        id="shopping/percent-discount",
        topic="percentages",
        slots=dict(
            A=PERSON, T=thing("clothes"), P=thing("shop"), p=money(20, 90, 5), d=pct(10, 40)
        ),
        text="A {T.one} at the {P} costs {p}. This week it is {d} off. How much does {A} pay "
        "for the {T.one}?",
        paraphrases=(
            "{A} wants a {T.one} that normally sells for {p} at the {P}. There is a {d} "
            "discount this week. What price {A.v[does]} {A.he} pay?",
            "The {P} takes {d} off every {T.one}, which usually costs {p}. What does {A} pay "
            "for one?",
        ),
        steps=[
            "The discount is {d} of {p} | d% * p | money",
            "{A} pays the price minus the discount | p - s1 | money",
        ],
        solve=lambda v: v.p - v.d / 100 * v.p,
        changes=(
            Change(
                "operation",
                "A {T.one} at the {P} costs {p}. This week the price goes up by {d}. How much "
                "does {A} pay for the {T.one}?",
                steps=[
                    "The increase is {d} of {p} | d% * p | money",
                    "{A} pays the price plus the increase | p + s1 | money",
                ],
                solve=lambda v: v.p + v.d / 100 * v.p,
            ),
            Change(
                "reversed",
                "After a {d} discount, {A} pays {sale} for a {T.one} at the {P}. What was the "
                "price before the discount?",
                derived=dict(sale=Derived("p - d% * p", "money")),
                steps=[
                    "{A} pays the part of the original price left after {d} off | 100 - d | "
                    "percent",
                    "The original price | sale / s1% | money",
                ],
                solve=lambda v: v.sale / (1 - v.d / 100),
            ),
            Change(
                "added_step",
                "A {T.one} at the {P} costs {p}. This week it is {d} off. How much does {A} pay "
                "for {n} of them?",
                slots=dict(n=count(2, 5)),
                steps=[
                    "The discount is {d} of {p} | d% * p | money",
                    "One {T.one} costs | p - s1 | money",
                    "For {n} of them | n * s2 | money",
                ],
                solve=lambda v: v.n * (v.p - v.d / 100 * v.p),
            ),
        ),
    ),
    Family(
        id="shopping/budget-left",
        topic="money",
        slots=dict(
            A=PERSON,
            T=thing("toy"),
            P=thing("shop"),
            b=money(20, 60, 5),
            n=count(2, 8),
            p=money(1, 6, "0.5"),
        ),
        when=lambda v: v.b > v.n * v.p,
        text="{A} has {b} to spend at the {P}. {A.He} {A.v[buys]} {n} {T.many} that cost {p} "
        "each. How much money {A.v[does]} {A.he} have left?",
        paraphrases=(
            "With {b} in {A.his} pocket, {A} goes to the {P} and buys {n} {T.many} at {p} "
            "apiece. How much is left?",
            "{A} takes {b} to the {P}, where {T.many} are {p} each. After buying {n} of them, "
            "how much money remains?",
        ),
        steps=[
            "{A} spends on {n} {T.many} | n * p | money",
            "Money left from {b} | b - s1 | money",
        ],
        solve=lambda v: v.b - v.n * v.p,
        changes=(
            Change(
                "reversed",
                "{A} buys {n} {T.many} at the {P} for {p} each and has {left} left. How much "
                "money did {A.he} have at first?",
                derived=dict(left=Derived("b - n * p", "money")),
                steps=[
                    "{A} spends on {n} {T.many} | n * p | money",
                    "At first {A.he} had | s1 + left | money",
                ],
                solve=lambda v: v.left + v.n * v.p,
            ),
            Change(
                "operation",
                "{A} has {b} at the {P}. {A.He} {A.v[sells]} {n} {T.many} for {p} each. How much "
                "money {A.v[does]} {A.he} have now?",
                steps=[
                    "{A} earns for {n} {T.many} | n * p | money",
                    "Money now | b + s1 | money",
                ],
                solve=lambda v: v.b + v.n * v.p,
            ),
            Change(
                "added_step",
                "{A} has {b} to spend at the {P}. {A.He} {A.v[buys]} {n} {T.many} that cost {p} "
                "each. How many more {T.many} can {A.he} buy with the money left?",
                steps=[
                    "{A} spends on {n} {T.many} | n * p | money",
                    "Money left from {b} | b - s1 | money",
                    "More {T.many} at {p} each | floor(s2 / p) | count | {T.many}",
                ],
                solve=lambda v: (v.b - v.n * v.p) // v.p,
            ),
        ),
    ),
    Family(
        id="shopping/packs-needed",
        topic="shopping",
        slots=dict(A=PERSON, T=thing("baked"), P=thing("shop"), k=count(4, 12), n=count(15, 70)),
        when=lambda v: v.n % v.k != 0,
        text="The {P} sells {T.many} in packs of {k}. {A} needs {n} {T.many} for a party. How "
        "many packs must {A.he} buy?",
        paraphrases=(
            "{A} needs {n} {T.many} for a party, and the {P} only sells them in packs of {k}. "
            "How many packs {A.v[does]} {A.he} have to buy?",
            "For a party {A} wants {n} {T.many}. If the {P} packs them {k} to a box, how many "
            "packs should {A.he} get?",
        ),
        steps=["Packs of {k} for {n} {T.many} | ceil(n / k) | count | packs"],
        solve=lambda v: -(-v.n // v.k),
        changes=(
            Change(
                "target",
                "The {P} sells {T.many} in packs of {k}. {A} needs {n} {T.many} for a party and "
                "buys just enough packs. How many {T.many} will be left over?",
                steps=[
                    "Packs of {k} for {n} {T.many} | ceil(n / k) | count | packs",
                    "{T.many} bought | s1 * k | count | {T.many}",
                    "Left over | s2 - n | count | {T.many}",
                ],
                solve=lambda v: -(-v.n // v.k) * v.k - v.n,
            ),
            Change(
                "operation",
                "{A} has {n} {T.many} and puts them into packs of {k} for the {P}. How many full "
                "packs can {A.he} make?",
                steps=["Full packs of {k} from {n} {T.many} | floor(n / k) | count | packs"],
                solve=lambda v: v.n // v.k,
            ),
            Change(
                "added_step",
                "The {P} sells {T.many} in packs of {k} for {p} a pack. {A} needs {n} {T.many} "
                "for a party. How much {A.v[does]} {A.he} spend on packs?",
                slots=dict(p=money(3, 9)),
                steps=[
                    "Packs of {k} for {n} {T.many} | ceil(n / k) | count | packs",
                    "The packs cost | s1 * p | money",
                ],
                solve=lambda v: -(-v.n // v.k) * v.p,
            ),
        ),
    ),
    Family(
        id="shopping/cheaper-store",
        topic="shopping",
        slots=dict(
            A=PERSON,
            T=thing("fruit"),
            P=thing("shop"),
            Q=thing("shop"),
            a=count(2, 10),
            p=money(2, 12),
            b=count(2, 10),
            q=money(2, 12),
        ),
        when=lambda v: v.a in (2, 4, 5, 10) and v.b in (2, 4, 5, 10) and v.p / v.a < v.q / v.b,
        text="At the {P}, a bag of {a} {T.many} costs {p}. At the {Q}, a bag of {b} {T.many} "
        "costs {q}. How much does {A} save on each {T.one} by shopping at the cheaper one?",
        paraphrases=(
            "{A} compares prices: {a} {T.many} for {p} at the {P}, or {b} {T.many} for {q} at "
            "the {Q}. How much is saved per {T.one} at the cheaper place?",
            "The {P} charges {p} for {a} {T.many}; the {Q} charges {q} for {b}. Per {T.one}, "
            "how much cheaper is the better deal for {A}?",
        ),
        steps=_cheaper,
        solve=lambda v: v.q / v.b - v.p / v.a,
        changes=(
            Change(
                "branch",
                "At the {P}, a bag of {a} {T.many} costs {p}. At the {Q}, a bag of {b} {T.many} "
                "costs {q}. How much does {A} save on each {T.one} by shopping at the cheaper one?",
                when=lambda v: (
                    v.a in (2, 4, 5, 10) and v.b in (2, 4, 5, 10) and v.p / v.a > v.q / v.b
                ),
                steps=_cheaper,
                solve=lambda v: v.p / v.a - v.q / v.b,
            ),
            Change(
                "target",
                "At the {P}, a bag of {a} {T.many} costs {p}. At the {Q}, a bag of {b} {T.many} "
                "costs {q}. How much does one {T.one} cost at the {Q}?",
                steps=["One {T.one} at the {Q} | q / b[{T.many}] | money"],
                solve=lambda v: v.q / v.b,
            ),
            Change(
                "added_step",
                "At the {P}, a bag of {a} {T.many} costs {p}. At the {Q}, a bag of {b} {T.many} "
                "costs {q}. {A} needs {n} {T.many}. How much {A.v[does]} {A.he} save by buying "
                "them at "
                "the cheaper shop?",
                slots=dict(n=count(20, 40, 20)),
                when=lambda v: v.p / v.a < v.q / v.b,
                steps=[
                    "One {T.one} at the {P} | p / a[{T.many}] | money",
                    "One {T.one} at the {Q} | q / b[{T.many}] | money",
                    "{s1} is less than {s2}, so the {P} is cheaper",
                    "The saving per {T.one} | s2 - s1 | money",
                    "For {n} {T.many} | n * s3 | money",
                ],
                solve=lambda v: v.n * (v.q / v.b - v.p / v.a),
            ),
        ),
    ),
]

FAMILIES += [
    Family(
        id="shopping/sales-tax",
        topic="percentages",
        slots=dict(A=PERSON, T=thing("sport"), n=count(2, 6), p=money(10, 40, 2), t=pct(5, 10, 5)),
        text="{A} buys {n} {T.many} for {p} each. Sales tax is {t}. What is the total {A} "
        "pays, tax included?",
        paraphrases=(
            "Each {T.one} costs {p} before a sales tax of {t}. {A} gets {n} of them. How much "
            "does {A} pay with the tax?",
            "{A} orders {n} {T.many}; the price is {p} apiece and {t} tax is added at the "
            "register. What does the whole order cost?",
        ),
        steps=[
            "Before tax, {n} {T.many} cost | n * p | money",
            "The tax is {t} of {s1} | t% * s1 | money",
            "The total with tax | s1 + s2 | money",
        ],
        solve=lambda v: v.n * v.p * (1 + v.t / 100),
        changes=(
            Change(
                "target",
                "{A} buys {n} {T.many} for {p} each. Sales tax is {t}. How much of what {A} "
                "pays is tax?",
                steps=[
                    "Before tax, {n} {T.many} cost | n * p | money",
                    "The tax is {t} of {s1} | t% * s1 | money",
                ],
                solve=lambda v: v.n * v.p * v.t / 100,
            ),
            Change(
                "operation",
                "{A} buys {n} {T.many} for {p} each with a coupon for {t} off. What is the "
                "total {A} pays?",
                steps=[
                    "Before the coupon, {n} {T.many} cost | n * p | money",
                    "The coupon takes {t} of {s1} | t% * s1 | money",
                    "The total | s1 - s2 | money",
                ],
                solve=lambda v: v.n * v.p * (1 - v.t / 100),
            ),
            Change(
                "added_step",
                "{A} buys {n} {T.many} for {p} each. Sales tax is {t}, and delivery costs {f} "
                "more. What is the total {A} pays?",
                slots=dict(f=money(4, 9)),
                steps=[
                    "Before tax, {n} {T.many} cost | n * p | money",
                    "The tax is {t} of {s1} | t% * s1 | money",
                    "With the tax | s1 + s2 | money",
                    "With delivery | s3 + f | money",
                ],
                solve=lambda v: v.n * v.p * (1 + v.t / 100) + v.f,
            ),
        ),
    ),
    Family(
        id="money/allowance-savings",
        topic="savings",
        slots=dict(A=PERSON, a=money(8, 20), s=money(2, 6), w=count(4, 12)),
        when=lambda v: v.a > v.s,
        text="{A} gets {a} of pocket money every week and spends {s} of it on snacks. How "
        "much {A.v[does]} {A.he} save in {w} weeks?",
        paraphrases=(
            "Every week {A} receives {a} and uses {s} for snacks, keeping the rest. After {w} "
            "weeks, how much {A.v[has]} {A.he} saved?",
            "Pocket money: {a} a week for {A}. Snacks: {s} a week. Savings after {w} weeks?",
        ),
        steps=[
            "Each week {A} keeps | a - s | money",
            "Over {w} weeks | w * s1 | money",
        ],
        solve=lambda v: v.w * (v.a - v.s),
        changes=(
            Change(
                "target",
                "{A} gets {a} of pocket money every week and spends {s} of it on snacks. How "
                "much {A.v[does]} {A.he} spend on snacks in {w} weeks?",
                steps=["Snacks over {w} weeks | w * s | money"],
                solve=lambda v: v.w * v.s,
            ),
            Change(
                "operation",
                "{A} gets {a} of pocket money every week and earns {s} more by walking a "
                "neighbour's dog. How much {A.v[does]} {A.he} get in {w} weeks?",
                steps=[
                    "Each week {A} gets | a + s | money",
                    "Over {w} weeks | w * s1 | money",
                ],
                solve=lambda v: v.w * (v.a + v.s),
            ),
            Change(
                "reversed",
                "{A} gets {a} of pocket money every week and spends {s} of it on snacks. How "
                "many weeks does it take {A.him} to save {g}?",
                derived=dict(g=Derived("w * (a - s)", "money")),
                steps=[
                    "Each week {A} keeps | a - s | money",
                    "Weeks to save {g} | g / s1 | count | weeks",
                ],
                solve=lambda v: v.g / (v.a - v.s),
            ),
        ),
    ),
    Family(
        id="money/split-bill-tip",
        topic="money",
        slots=dict(A=PERSON, n=count(2, 6), b=money(40, 120, 10), t=pct(10, 20, 5)),
        when=lambda v: (v.b * (1 + v.t / 100) / v.n * 100).denominator == 1,
        text="{A} and {A.his} friends, {n} people in all, share a dinner bill of {b} equally "
        "and add a {t} tip. How much does each person pay?",
        paraphrases=(
            "A dinner for {n} people, {A} among them, costs {b}. They add a {t} tip and split "
            "the total evenly. What is each share?",
            "{A}'s group of {n} owes {b} for dinner, plus a tip of {t}. Split equally, how much "
            "does one person pay?",
        ),
        steps=[
            "The tip is {t} of {b} | t% * b | money",
            "The bill with the tip | b + s1 | money",
            "Each of the {n} people pays | s2 / n | money",
        ],
        solve=lambda v: v.b * (1 + v.t / 100) / v.n,
        changes=(
            Change(
                "operation",
                "{A} and {A.his} friends, {n} people in all, share a dinner bill of {b} "
                "equally after a {t} discount. How much does each person pay?",
                when=lambda v: (v.b * (1 - v.t / 100) / v.n * 100).denominator == 1,
                steps=[
                    "The discount is {t} of {b} | t% * b | money",
                    "The bill after the discount | b - s1 | money",
                    "Each of the {n} people pays | s2 / n | money",
                ],
                solve=lambda v: v.b * (1 - v.t / 100) / v.n,
            ),
            Change(
                "target",
                "{A} and {A.his} friends, {n} people in all, share a dinner bill of {b} equally "
                "and add a {t} tip. How much is the tip?",
                steps=["The tip is {t} of {b} | t% * b | money"],
                solve=lambda v: v.b * v.t / 100,
            ),
            Change(
                "added_step",
                "{A} and {A.his} friends, {n} people in all, share a dinner bill of {b} equally "
                "and add a {t} tip. {A} also pays {d} for a dessert of {A.his} own. How much "
                "does {A} pay?",
                slots=dict(d=money(4, 8)),
                steps=[
                    "The tip is {t} of {b} | t% * b | money",
                    "The bill with the tip | b + s1 | money",
                    "Each of the {n} people pays | s2 / n | money",
                    "{A} adds the dessert | s3 + d | money",
                ],
                solve=lambda v: v.b * (1 + v.t / 100) / v.n + v.d,
            ),
        ),
    ),
    Family(
        id="money/hourly-wage",
        topic="money",
        slots=dict(A=PERSON, r=money(9, 20), h=count(3, 8), d=count(2, 6)),
        text="{A} works at a cafe for {r} an hour. {A.He} {A.v[works]} {h} hours a day for {d} "
        "days. How much {A.v[does]} {A.he} earn?",
        paraphrases=(
            "At {r} per hour, {A} works {h}-hour days at the cafe, {d} days in a row. What are "
            "{A.his} total earnings?",
            "How much does {A} earn working {h} hours a day, {d} days, at a cafe paying {r} an "
            "hour?",
        ),
        steps=[
            "Hours worked | h[hours per day] * d[days] | count | hours",
            "Earnings at {r} an hour | s1 * r | money",
        ],
        solve=lambda v: v.r * v.h * v.d,
        changes=(
            Change(
                "reversed",
                "{A} works at a cafe for {r} an hour, the same number of hours each day. In {d} "
                "days {A.he} {A.v[earns]} {e}. How many hours a day {A.v[does]} {A.he} work?",
                derived=dict(e=Derived("r * h * d", "money")),
                steps=[
                    "Hours in all | e / r | count | hours",
                    "Hours a day over {d} days | s1 / d | count | hours",
                ],
                solve=lambda v: v.e / v.r / v.d,
            ),
            Change(
                "target",
                "{A} works at a cafe for {r} an hour. {A.He} {A.v[works]} {h} hours a day for {d} "
                "days. How much {A.v[does]} {A.he} earn in one day?",
                steps=["One day's pay | h * r | money"],
                solve=lambda v: v.r * v.h,
            ),
            Change(
                "added_step",
                "{A} works at a cafe for {r} an hour. {A.He} {A.v[works]} {h} hours a day for {d} "
                "days and pays {f} a day for the bus. How much {A.v[does]} {A.he} keep?",
                slots=dict(f=money(2, 5)),
                steps=[
                    "Hours worked | h[hours per day] * d[days] | count | hours",
                    "Earnings at {r} an hour | s1 * r | money",
                    "Bus fares for {d} days | d * f | money",
                    "What {A} keeps | s2 - s3 | money",
                ],
                solve=lambda v: v.r * v.h * v.d - v.d * v.f,
            ),
        ),
    ),
    Family(
        id="shopping/every-third-free",
        topic="shopping",
        slots=dict(
            A=PERSON, T=thing("baked"), P=thing("shop"), n=count(7, 20), p=money(1, 4, "0.5")
        ),
        when=lambda v: v.n % 3 != 0,
        text="At the {P}, every third {T.one} is free. {T.many} cost {p} each. {A} takes {n} "
        "{T.many}. How much {A.v[does]} {A.he} pay?",
        paraphrases=(
            "The {P} has a deal on {T.many}: pay for two, get the third free. One costs {p}. "
            "What does {A} pay for {n} of them?",
            "{A} picks {n} {T.many} at the {P}, where they are {p} each and every third one is "
            "free. What is the bill?",
        ),
        steps=[
            "Free {T.many} among {n} | floor(n / 3) | count | {T.many}",
            "{T.many} paid for | n - s1 | count | {T.many}",
            "The cost | s2 * p | money",
        ],
        solve=lambda v: (v.n - v.n // 3) * v.p,
        changes=(
            Change(
                "target",
                "At the {P}, every third {T.one} is free. {T.many} cost {p} each. {A} takes {n} "
                "{T.many}. How many of them are free?",
                steps=["Free {T.many} among {n} | floor(n / 3) | count | {T.many}"],
                solve=lambda v: v.n // 3,
            ),
            Change(
                "operation",
                "At the {P}, every third {T.one} costs double. {T.many} cost {p} each. {A} takes "
                "{n} {T.many}. How much {A.v[does]} {A.he} pay?",
                steps=[
                    "{T.many} at double price among {n} | floor(n / 3) | count | {T.many}",
                    "The usual price for {n} | n * p | money",
                    "The extra for the doubled ones | s1 * p | money",
                    "The cost | s2 + s3 | money",
                ],
                solve=lambda v: (v.n + v.n // 3) * v.p,
            ),
            Change(
                "added_step",
                "At the {P}, every third {T.one} is free. {T.many} cost {p} each. {A} takes {n} "
                "{T.many} and pays with {b}. How much change {A.v[does]} {A.he} get?",
                slots=dict(b=money(40, 50, 10)),
                steps=[
                    "Free {T.many} among {n} | floor(n / 3) | count | {T.many}",
                    "{T.many} paid for | n - s1 | count | {T.many}",
                    "The cost | s2 * p | money",
                    "The change from {b} | b - s3 | money",
                ],
                solve=lambda v: v.b - (v.n - v.n // 3) * v.p,
            ),
        ),
    ),
    Family(
        id="shopping/price-per-kilo",
        topic="shopping",
        slots=dict(A=PERSON, T=thing("vegetable"), r=money(2, 6), w=dec("1.5", 5, "0.5")),
        text="{T.many} cost {r} per kilogram. {A} buys {w} kilograms of {T.many}. How much "
        "{A.v[does]} {A.he} pay?",
        paraphrases=(
            "{A} weighs out {w} kilograms of {T.many}, which sell for {r} a kilogram. What "
            "{A.v[does]} "
            "{A.he} pay?",
            "At {r} per kilogram, what do {w} kilograms of {T.many} cost {A}?",
        ),
        steps=["{w} kilograms at {r} per kilogram | w[kg] * r[per kg] | money"],
        solve=lambda v: v.w * v.r,
        changes=(
            Change(
                "reversed",
                "{T.many} cost {r} per kilogram. {A} pays {c} for {T.many}. How many kilograms "
                "{A.v[does]} {A.he} buy?",
                derived=dict(c=Derived("w * r", "money")),
                steps=["Kilograms for {c} at {r} each | c / r | number | kilograms"],
                solve=lambda v: v.c / v.r,
            ),
            Change(
                "added_step",
                "{T.many} cost {r} per kilogram. {A} buys {w} kilograms of {T.many} and a bag "
                "for {f}. How much {A.v[does]} {A.he} pay?",
                slots=dict(f=money("0.5", 2, "0.5")),
                steps=[
                    "{w} kilograms at {r} per kilogram | w[kg] * r[per kg] | money",
                    "With the bag | s1 + f | money",
                ],
                solve=lambda v: v.w * v.r + v.f,
            ),
            Change(
                "target",
                "{T.many} cost {r} per kilogram. {A} buys {w} kilograms of {T.many}. How many "
                "grams is that?",
                steps=["{w} kilograms in grams | w * 1000 | count | grams"],
                solve=lambda v: v.w * 1000,
            ),
        ),
    ),
    Family(
        id="shopping/gift-bags",
        topic="multi-step",
        slots=dict(
            A=PERSON,
            T=thing("toy"),
            U=thing("baked"),
            g=count(4, 12),
            k=count(2, 5),
            p=money("0.5", 2, "0.25"),
            q=money(1, 3, "0.5"),
        ),
        text="{A} makes {g} gift bags. Each bag holds {k} {T.many} and one {U.one}. {T.many} "
        "cost {p} each and a {U.one} costs {q}. How much do the gift bags cost in all?",
        paraphrases=(
            "For a party, {A} fills {g} bags with {k} {T.many} and a {U.one} each. With "
            "{T.many} at {p} and {U.many} at {q}, what is the total cost?",
            "Gift bags: {g} of them, each with {k} {T.many} ({p} each) and one {U.one} ({q}). "
            "What does {A} spend?",
        ),
        steps=[
            "The {k} {T.many} in one bag cost | k * p | money",
            "One bag costs | s1 + q | money",
            "{g} bags cost | g * s2 | money",
        ],
        solve=lambda v: v.g * (v.k * v.p + v.q),
        changes=(
            Change(
                "target",
                "{A} makes {g} gift bags. Each bag holds {k} {T.many} and one {U.one}. How many "
                "{T.many} {A.v[does]} {A.he} need?",
                steps=["{T.many} for {g} bags | g * k | count | {T.many}"],
                solve=lambda v: v.g * v.k,
            ),
            Change(
                "operation",
                "{A} makes {g} gift bags. Each bag holds {k} {T.many} and one {U.one}. {T.many} "
                "cost {p} each and a {U.one} costs {q}. {A} already has the {U.many}. How much "
                "{A.v[does]} {A.he} spend?",
                steps=[
                    "The {k} {T.many} in one bag cost | k * p | money",
                    "{g} bags of {T.many} cost | g * s1 | money",
                ],
                solve=lambda v: v.g * v.k * v.p,
            ),
            Change(
                "added_step",
                "{A} makes {g} gift bags. Each bag holds {k} {T.many} and one {U.one}. {T.many} "
                "cost {p} each and a {U.one} costs {q}. Each empty bag costs {e}. How much do "
                "the gift bags cost in all?",
                slots=dict(e=money("0.25", 1, "0.25")),
                steps=[
                    "The {k} {T.many} in one bag cost | k * p | money",
                    "One bag costs | s1 + q + e | money",
                    "{g} bags cost | g * s2 | money",
                ],
                solve=lambda v: v.g * (v.k * v.p + v.q + v.e),
            ),
        ),
    ),
    Family(
        id="money/coins-and-notes",
        topic="money",
        slots=dict(
            A=PERSON, n=count(3, 12), c=money("0.25", 1, "0.25"), m=count(2, 6), d=money(5, 20, 5)
        ),
        text="In {A.his} wallet {A} has {n} coins worth {c} each and {m} notes worth {d} each. "
        "How much money does {A} have?",
        paraphrases=(
            "{A} counts {A.his} money: {m} notes of {d} and {n} coins of {c}. What is the total?",
            "How much does {A} have if {A.his} wallet holds {n} coins of {c} each and {m} "
            "notes of {d} each?",
        ),
        steps=[
            "The {n} coins are worth | n * c | money",
            "The {m} notes are worth | m * d | money",
            "Altogether | s1 + s2 | money",
        ],
        solve=lambda v: v.n * v.c + v.m * v.d,
        changes=(
            Change(
                "target",
                "In {A.his} wallet {A} has {n} coins worth {c} each and {m} notes worth {d} each. "
                "How much more are the notes worth than the coins?",
                when=lambda v: v.m * v.d > v.n * v.c,
                steps=[
                    "The {n} coins are worth | n * c | money",
                    "The {m} notes are worth | m * d | money",
                    "The difference | s2 - s1 | money",
                ],
                solve=lambda v: v.m * v.d - v.n * v.c,
            ),
            Change(
                "added_step",
                "In {A.his} wallet {A} has {n} coins worth {c} each and {m} notes worth {d} each. "
                "{A.He} {A.v[spends]} {s}. How much money does {A} have left?",
                slots=dict(s=money(3, 9)),
                steps=[
                    "The {n} coins are worth | n * c | money",
                    "The {m} notes are worth | m * d | money",
                    "Altogether | s1 + s2 | money",
                    "After spending {s} | s3 - s | money",
                ],
                solve=lambda v: v.n * v.c + v.m * v.d - v.s,
            ),
            Change(
                "operation",
                "In {A.his} wallet {A} has {n} coins worth {c} each and {m} notes worth {d} each. "
                "{A.He} {A.v[gives]} away all the coins. How much money does {A} have left?",
                steps=["The {m} notes are worth | m * d | money"],
                solve=lambda v: v.m * v.d,
            ),
        ),
    ),
]
