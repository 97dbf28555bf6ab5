"""Construction and work done."""

from __future__ import annotations

from tests.word_problems.templated.model import (
    PERSON,
    Change,
    Derived,
    Family,
    count,
    dec,
    frac,
    money,
    thing,
)

FAMILIES = [
    Family(
        id="construction/fence-cost",
        topic="construction",
        slots=dict(A=PERSON, l=count(8, 30), w=count(5, 20), c=money(12, 30)),
        text="{A} puts a fence around a rectangular garden {l} meters long and {w} meters wide. "
        "Fencing costs {c} per meter. How much does the fence cost?",
        paraphrases=(
            "A garden of {l} m by {w} m needs a fence all the way round. At {c} a meter, what "
            "does {A} pay?",
            "What is the cost for {A} to fence a {l}-meter by {w}-meter garden, with fencing at "
            "{c} per meter?",
        ),
        steps=[
            "Perimeter | 2 * (l + w) | count | m",
            "Cost at {c} a meter | s1 * c | money",
        ],
        solve=lambda v: 2 * (v.l + v.w) * v.c,
        changes=(
            Change(
                "operation",
                "{A} puts a fence along three sides of a rectangular garden {l} meters long and "
                "{w} meters wide, leaving one long side open. Fencing costs {c} per meter. How "
                "much does the fence cost?",
                steps=[
                    "Fence length | l + 2 * w | count | m",
                    "Cost at {c} a meter | s1 * c | money",
                ],
                solve=lambda v: (v.l + 2 * v.w) * v.c,
            ),
            Change(
                "target",
                "{A} puts a fence around a rectangular garden {l} meters long and {w} meters "
                "wide. What is the area of the garden in square meters?",
                steps=["Area | l * w | count | square meters"],
                solve=lambda v: v.l * v.w,
            ),
            Change(
                "added_step",
                "{A} puts a fence around a rectangular garden {l} meters long and {w} meters "
                "wide, with a gate costing {g}. Fencing costs {c} per meter. How much does "
                "everything cost?",
                slots=dict(g=money(40, 90, 10)),
                steps=[
                    "Perimeter | 2 * (l + w) | count | m",
                    "Cost at {c} a meter | s1 * c | money",
                    "With the gate | s2 + g | money",
                ],
                solve=lambda v: 2 * (v.l + v.w) * v.c + v.g,
            ),
        ),
    ),
    Family(
        id="construction/tiles-boxes",
        topic="construction",
        slots=dict(
            A=PERSON,
            M=thing("material"),
            l=count(3, 8),
            w=count(2, 6),
            t=count(8, 25),
            b=count(10, 30, 5),
        ),
        when=lambda v: v.l * v.w * v.t % v.b != 0,
        text="{A} covers a floor {l} meters by {w} meters with {M.many}. It takes {t} {M.many} "
        "for each square meter, and they come in boxes of {b}. How many boxes does {A} need?",
        paraphrases=(
            "A {l} m by {w} m floor needs {t} {M.many} per square meter. With {b} {M.many} to a "
            "box, how many boxes should {A} buy?",
            "{A} is laying {M.many} on a floor of {l} by {w} meters, {t} to a square meter, sold "
            "in boxes of {b}. Boxes needed?",
        ),
        steps=[
            "Area | l * w | count | square meters",
            "{M.many} | s1 * t | count | {M.many}",
            "Boxes of {b} | ceil(s2 / b) | count | boxes",
        ],
        solve=lambda v: -(-(v.l * v.w * v.t) // v.b),
        changes=(
            Change(
                "target",
                "{A} covers a floor {l} meters by {w} meters with {M.many}. It takes {t} {M.many} "
                "for each square meter. How many {M.many} does {A} need?",
                steps=[
                    "Area | l * w | count | square meters",
                    "{M.many} | s1 * t | count | {M.many}",
                ],
                solve=lambda v: v.l * v.w * v.t,
            ),
            Change(
                "added_step",
                "{A} covers a floor {l} meters by {w} meters with {M.many}. It takes {t} {M.many} "
                "for each square meter, and they come in boxes of {b} at {p} a box. How much "
                "does {A} spend?",
                slots=dict(p=money(15, 40, 5)),
                steps=[
                    "Area | l * w | count | square meters",
                    "{M.many} | s1 * t | count | {M.many}",
                    "Boxes of {b} | ceil(s2 / b) | count | boxes",
                    "Cost | s3 * p | money",
                ],
                solve=lambda v: -(-(v.l * v.w * v.t) // v.b) * v.p,
            ),
            Change(
                "operation",
                "{A} covers a floor {l} meters by {w} meters with {M.many}, leaving a {k} square "
                "meter corner bare. It takes {t} {M.many} for each square meter. How many "
                "{M.many} does {A} need?",
                slots=dict(k=count(2, 4)),
                when=lambda v: v.l * v.w > v.k,
                steps=[
                    "Area to cover | l * w - k | count | square meters",
                    "{M.many} | s1 * t | count | {M.many}",
                ],
                solve=lambda v: (v.l * v.w - v.k) * v.t,
            ),
        ),
    ),
    Family(
        id="construction/paint-cans",
        topic="construction",
        slots=dict(A=PERSON, n=count(2, 4), h=count(2, 3), w=count(3, 6), c=count(8, 12)),
        when=lambda v: v.n * v.h * v.w % v.c != 0,
        text="{A} paints {n} walls, each {h} meters high and {w} meters wide. A can of paint "
        "covers {c} square meters. How many cans does {A} need?",
        paraphrases=(
            "{n} walls of {w} m by {h} m need painting. If one can covers {c} square meters, "
            "how many cans should {A} get?",
            "How many cans of paint, each covering {c} m², does {A} need for {n} walls that are "
            "{h} m high and {w} m wide?",
        ),
        steps=[
            "Wall area | n * h * w | count | square meters",
            "Cans for {c} square meters each | ceil(s1 / c) | count | cans",
        ],
        solve=lambda v: -(-(v.n * v.h * v.w) // v.c),
        changes=(
            Change(
                "added_step",
                "{A} paints {n} walls, each {h} meters high and {w} meters wide, with two coats. "
                "A can of paint covers {c} square meters. How many cans does {A} need?",
                when=lambda v: 2 * v.n * v.h * v.w % v.c != 0,
                steps=[
                    "Wall area | n * h * w | count | square meters",
                    "Two coats | 2 * s1 | count | square meters",
                    "Cans for {c} square meters each | ceil(s2 / c) | count | cans",
                ],
                solve=lambda v: -(-(2 * v.n * v.h * v.w) // v.c),
            ),
            Change(
                "target",
                "{A} paints {n} walls, each {h} meters high and {w} meters wide. How many square "
                "meters {A.v[does]} {A.he} paint?",
                steps=["Wall area | n * h * w | count | square meters"],
                solve=lambda v: v.n * v.h * v.w,
            ),
            Change(
                "operation",
                "{A} paints {n} walls, each {h} meters high and {w} meters wide, but each wall has "
                "a window of {k} square meters. A can of paint covers {c} square meters. How "
                "many cans does {A} need?",
                slots=dict(k=count(2, 3)),
                when=lambda v: v.h * v.w > v.k and v.n * (v.h * v.w - v.k) % v.c != 0,
                steps=[
                    "Area of one wall without the window | h * w - k | count | square meters",
                    "{n} walls | n * s1 | count | square meters",
                    "Cans for {c} square meters each | ceil(s2 / c) | count | cans",
                ],
                solve=lambda v: -(-(v.n * (v.h * v.w - v.k)) // v.c),
            ),
        ),
    ),
    Family(
        id="construction/brick-wall",
        topic="construction",
        slots=dict(
            A=PERSON,
            M=thing("material"),
            r=count(10, 30),
            b=count(12, 40),
            p=money("0.5", 2, "0.25"),
        ),
        text="{A} builds a wall with {r} rows of {M.many}, {b} {M.many} in each row. Each "
        "{M.one} costs {p}. How much do the {M.many} cost?",
        paraphrases=(
            "A wall of {r} rows, each with {b} {M.many}: at {p} per {M.one}, what is {A}'s bill?",
            "{A} needs {b} {M.many} in each of {r} rows. If one {M.one} is {p}, how much do "
            "they cost in all?",
        ),
        steps=[
            "{M.many} | r * b | count | {M.many}",
            "Cost | s1 * p | money",
        ],
        solve=lambda v: v.r * v.b * v.p,
        changes=(
            Change(
                "added_step",
                "{A} builds a wall with {r} rows of {M.many}, {b} {M.many} in each row, and buys "
                "{e} extra in case some break. Each {M.one} costs {p}. How much do the {M.many} "
                "cost?",
                slots=dict(e=count(10, 30, 5)),
                steps=[
                    "{M.many} | r * b + e | count | {M.many}",
                    "Cost | s1 * p | money",
                ],
                solve=lambda v: (v.r * v.b + v.e) * v.p,
            ),
            Change(
                "reversed",
                "{A} builds a wall with rows of {b} {M.many} and uses {N} {M.many}. How many rows "
                "does the wall have?",
                derived=dict(N=Derived("r * b", "count")),
                steps=["Rows of {b} | N / b | count | rows"],
                solve=lambda v: v.N / v.b,
            ),
            Change(
                "target",
                "{A} builds a wall with {r} rows of {M.many}, {b} {M.many} in each row. How many "
                "{M.many} {A.v[does]} {A.he} use?",
                steps=["{M.many} | r * b | count | {M.many}"],
                solve=lambda v: v.r * v.b,
            ),
        ),
    ),
    Family(
        id="construction/shelves-planks",
        topic="construction",
        slots=dict(A=PERSON, s=count(5, 20), L=dec("0.5", "1.5", "0.25"), P=count(2, 4)),
        when=lambda v: v.P % v.L != 0,
        text="{A} builds {s} shelves, each {L} meters long, cut from planks {P} meters long. No "
        "shelf is made of two pieces. How many planks {A.v[does]} {A.he} need?",
        paraphrases=(
            "Planks are {P} m long, and every shelf is a single {L} m piece. {A} wants {s} "
            "shelves. How many planks?",
            "How many {P}-meter planks does {A} need for {s} shelves of {L} meters, cutting each "
            "shelf in one piece?",
        ),
        steps=[
            "Shelves from one plank | floor(P / L) | count | shelves",
            "Planks for {s} shelves | ceil(s / s1) | count | planks",
        ],
        solve=lambda v: -(-v.s // (v.P // v.L)),
        changes=(
            Change(
                "target",
                "{A} cuts shelves {L} meters long from a plank {P} meters long. How many shelves "
                "does one plank give?",
                steps=["Shelves from one plank | floor(P / L) | count | shelves"],
                solve=lambda v: v.P // v.L,
            ),
            Change(
                "operation",
                "{A} builds {s} shelves, each {L} meters long, and joins pieces where needed. "
                "How many meters of plank {A.v[does]} {A.he} use?",
                steps=["Length | s * L | number | m"],
                solve=lambda v: v.s * v.L,
            ),
            Change(
                "added_step",
                "{A} builds {s} shelves, each {L} meters long, cut from planks {P} meters long, "
                "each shelf in one piece. Planks cost {c} each. How much {A.v[does]} {A.he} spend?",
                slots=dict(c=money(6, 15)),
                steps=[
                    "Shelves from one plank | floor(P / L) | count | shelves",
                    "Planks for {s} shelves | ceil(s / s1) | count | planks",
                    "Cost | s2 * c | money",
                ],
                solve=lambda v: -(-v.s // (v.P // v.L)) * v.c,
            ),
        ),
    ),
    Family(
        id="construction/stairs-height",
        topic="unit conversions",
        slots=dict(A=PERSON, n=count(8, 20), h=count(15, 22)),
        text="{A} builds a staircase of {n} steps, each {h} centimeters high. How many meters "
        "does it rise?",
        paraphrases=(
            "Each of the {n} steps in {A}'s staircase is {h} cm high. What is the total rise in "
            "meters?",
            "How high, in meters, is a staircase with {n} steps of {h} centimeters that {A} "
            "builds?",
        ),
        steps=["Rise in centimeters | n * h | count | cm", "In meters | s1 / 100 | number | m"],
        solve=lambda v: v.n * v.h / 100,
        changes=(
            Change(
                "reversed",
                "{A} builds a staircase that rises {R} meters with steps {h} centimeters high. "
                "How many steps are there?",
                derived=dict(R=Derived("n * h / 100", "decimal")),
                steps=[
                    "{R} m in centimeters | R * 100 | count | cm",
                    "Steps | s1 / h | count | steps",
                ],
                solve=lambda v: v.R * 100 / v.h,
            ),
            Change(
                "target",
                "{A} builds a staircase of {n} steps, each {h} centimeters high. How many "
                "centimeters does it rise?",
                steps=["Rise in centimeters | n * h | count | cm"],
                solve=lambda v: v.n * v.h,
            ),
            Change(
                "added_step",
                "{A} builds a staircase of {n} steps, each {h} centimeters high, on a platform "
                "{p} centimeters high. How many meters above the ground is the top step?",
                slots=dict(p=count(20, 60, 10)),
                steps=[
                    "Rise in centimeters | n * h | count | cm",
                    "With the platform | s1 + p | count | cm",
                    "In meters | s2 / 100 | number | m",
                ],
                solve=lambda v: (v.n * v.h + v.p) / 100,
            ),
        ),
    ),
    Family(
        id="construction/soil-bags",
        topic="construction",
        slots=dict(
            A=PERSON,
            l=count(2, 6),
            w=count(2, 4),
            d=frac("1/4", "1/2", "3/4"),
            b=frac("1/10", "1/8", "1/5"),
        ),
        when=lambda v: (v.l * v.w * v.d / v.b).denominator != 1,
        text="{A} fills a garden bed {l} meters long, {w} meters wide and {d} meter deep with "
        "soil. One bag holds {b} cubic meter. How many bags {A.v[does]} {A.he} need?",
        paraphrases=(
            "A garden bed {l} m by {w} m, {d} m deep, is filled by {A} with bags of soil of {b} "
            "cubic meter each. How many bags?",
            "How many bags of {b} m³ of soil does {A} need for a bed of {l} by {w} meters and "
            "{d} meter deep?",
        ),
        steps=[
            "Volume | l * w * d | number | cubic meters",
            "Bags of {b} | ceil(s1 / b) | count | bags",
        ],
        solve=lambda v: -(-(v.l * v.w * v.d / v.b) // 1),
        changes=(
            Change(
                "target",
                "{A} fills a garden bed {l} meters long, {w} meters wide and {d} meter deep with "
                "soil. How many cubic meters of soil {A.v[does]} {A.he} need?",
                steps=["Volume | l * w * d | number | cubic meters"],
                solve=lambda v: v.l * v.w * v.d,
            ),
            Change(
                "added_step",
                "{A} fills {k} garden beds, each {l} meters long, {w} meters wide and {d} meter "
                "deep, with soil. One bag holds {b} cubic meter. How many bags {A.v[does]} {A.he} "
                "need?",
                slots=dict(k=count(2, 3)),
                when=lambda v: (v.k * v.l * v.w * v.d / v.b).denominator != 1,
                steps=[
                    "Volume of one bed | l * w * d | number | cubic meters",
                    "{k} beds | k * s1 | number | cubic meters",
                    "Bags of {b} | ceil(s2 / b) | count | bags",
                ],
                solve=lambda v: -(-(v.k * v.l * v.w * v.d / v.b) // 1),
            ),
            Change(
                "operation",
                "{A} fills a garden bed {l} meters long, {w} meters wide and {d} meter deep with "
                "soil, and the bed is already half full. One bag holds {b} cubic meter. How many "
                "bags {A.v[does]} {A.he} need?",
                when=lambda v: (v.l * v.w * v.d / 2 / v.b).denominator != 1,
                steps=[
                    "Volume | l * w * d | number | cubic meters",
                    "Half still to fill | s1 / 2 | number | cubic meters",
                    "Bags of {b} | ceil(s2 / b) | count | bags",
                ],
                solve=lambda v: -(-(v.l * v.w * v.d / 2 / v.b) // 1),
            ),
        ),
    ),
    Family(
        id="construction/fence-posts",
        topic="construction",
        slots=dict(A=PERSON, L=count(20, 80, 4), g=count(2, 4)),
        when=lambda v: v.L % v.g == 0,
        text="{A} builds a straight fence {L} meters long with a post every {g} meters, "
        "including one at each end. How many posts {A.v[does]} {A.he} need?",
        paraphrases=(
            "A straight {L}-meter fence needs posts {g} m apart, with posts at both ends. How "
            "many posts does {A} use?",
            "How many posts go into {A}'s {L} m fence if they stand every {g} m and there is one "
            "at each end?",
        ),
        steps=[
            "Gaps of {g} m | L / g | count | gaps",
            "Posts, one more than the gaps | s1 + 1 | count | posts",
        ],
        solve=lambda v: v.L / v.g + 1,
        changes=(
            Change(
                "operation",
                "{A} builds a fence {L} meters long around a circular pond with a post every {g} "
                "meters. How many posts {A.v[does]} {A.he} need?",
                steps=["Gaps of {g} m around the loop, one post each | L / g | count | posts"],
                solve=lambda v: v.L / v.g,
            ),
            Change(
                "added_step",
                "{A} builds a straight fence {L} meters long with a post every {g} meters, "
                "including one at each end. Posts cost {p} each. How much do the posts cost?",
                slots=dict(p=money(8, 20)),
                steps=[
                    "Gaps of {g} m | L / g | count | gaps",
                    "Posts, one more than the gaps | s1 + 1 | count | posts",
                    "Cost | s2 * p | money",
                ],
                solve=lambda v: (v.L / v.g + 1) * v.p,
            ),
            Change(
                "reversed",
                "{A} builds a straight fence with a post every {g} meters, including one at each "
                "end, and uses {n} posts. How long is the fence?",
                derived=dict(n=Derived("L / g + 1", "count")),
                steps=["Gaps | n - 1 | count | gaps", "Length | s1 * g | count | m"],
                solve=lambda v: (v.n - 1) * v.g,
            ),
        ),
    ),
    Family(
        id="work/crafts-days",
        topic="work done",
        slots=dict(A=PERSON, K=thing("craft"), k=count(2, 9), d=count(3, 14)),
        text="{A} {K.does} {k} {K.many} every day. How many {K.many} {A.v[does]} {A.he} {K.do} in "
        "{d} "
        "days?",
        paraphrases=(
            "Every day {A} {K.does} {k} {K.many}. After {d} days, how many {A.v[has]} {A.he} made?",
            "At {k} {K.many} a day, how many {K.many} does {A} finish in {d} days?",
        ),
        steps=["{d} days at {k} a day | d * k | count | {K.many}"],
        solve=lambda v: v.d * v.k,
        changes=(
            Change(
                "reversed",
                "{A} {K.does} {k} {K.many} every day. How many days does it take to {K.do} {N} "
                "{K.many}?",
                derived=dict(N=Derived("d * k", "count")),
                steps=["Days for {N} at {k} a day | N / k | count | days"],
                solve=lambda v: v.N / v.k,
            ),
            Change(
                "added_step",
                "{A} {K.does} {k} {K.many} every day and sells them for {p} each. How much "
                "{A.v[does]} "
                "{A.he} earn in {d} days?",
                slots=dict(p=money(5, 20)),
                steps=[
                    "{d} days at {k} a day | d * k | count | {K.many}",
                    "Earnings | s1 * p | money",
                ],
                solve=lambda v: v.d * v.k * v.p,
            ),
            Change(
                "operation",
                "{A} {K.does} {k} {K.many} every day but gives {g} away each day. How many "
                "{K.many} {A.v[does]} {A.he} have after {d} days?",
                slots=dict(g=count(1, 2)),
                when=lambda v: v.k > v.g,
                steps=[
                    "Kept each day | k - g | count | {K.many}",
                    "After {d} days | d * s1 | count | {K.many}",
                ],
                solve=lambda v: v.d * (v.k - v.g),
            ),
        ),
    ),
    Family(
        id="work/order-days",
        topic="work done",
        slots=dict(A=PERSON, K=thing("craft"), N=count(30, 150, 5), k=count(4, 12)),
        when=lambda v: v.N % v.k != 0,
        text="{A} gets an order for {N} {K.many}. {A.He} {A.v[makes]} {k} a day. How many days "
        "does the order take?",
        paraphrases=(
            "An order of {N} {K.many} arrives. If {A} makes {k} a day, on how many days "
            "{A.v[does]} "
            "{A.he} work on it?",
            "How many days of work is an order of {N} {K.many} for {A}, who makes {k} each day?",
        ),
        steps=["Days at {k} a day | ceil(N / k) | count | days"],
        solve=lambda v: -(-v.N // v.k),
        changes=(
            Change(
                "target",
                "{A} gets an order for {N} {K.many}. {A.He} {A.v[makes]} {k} a day. How many "
                "{K.many} {A.v[does]} {A.he} make on the last day?",
                steps=[
                    "Full days | floor(N / k) | count | days",
                    "Made in full days | s1 * k | count | {K.many}",
                    "On the last day | N - s2 | count | {K.many}",
                ],
                solve=lambda v: v.N % v.k,
            ),
            Change(
                "added_step",
                "{A} gets an order for {N} {K.many} and already has {h} made. {A.He} {A.v[makes]} "
                "{k} a day. How many more days does the order take?",
                slots=dict(h=count(5, 20, 5)),
                when=lambda v: v.h < v.N and (v.N - v.h) % v.k != 0,
                steps=[
                    "Still to make | N - h | count | {K.many}",
                    "Days at {k} a day | ceil(s1 / k) | count | days",
                ],
                solve=lambda v: -(-(v.N - v.h) // v.k),
            ),
            Change(
                "operation",
                "{A} gets an order for {N} {K.many}, and {A} and a helper each make {k} a day. "
                "How many days does the order take?",
                when=lambda v: v.N % (2 * v.k) != 0,
                steps=[
                    "Together a day | 2 * k | count | {K.many}",
                    "Days | ceil(N / s1) | count | days",
                ],
                solve=lambda v: -(-v.N // (2 * v.k)),
            ),
        ),
    ),
    Family(
        id="work/paid-per-piece",
        topic="work done",
        slots=dict(A=PERSON, K=thing("craft"), p=money(2, 8, "0.5"), k=count(4, 15), d=count(3, 6)),
        text="{A} is paid {p} for every {K.one} {A.he} {A.v[finishes]}. {A.He} {A.v[finishes]} "
        "{k} {K.many} a day for {d} days. How much {A.v[does]} {A.he} earn?",
        paraphrases=(
            "For each {K.one}, {A} earns {p}. Making {k} a day for {d} days, what are {A.his} "
            "earnings?",
            "What does {A} earn over {d} days, finishing {k} {K.many} a day at {p} per {K.one}?",
        ),
        steps=[
            "{K.many} | k * d | count | {K.many}",
            "Pay | s1 * p | money",
        ],
        solve=lambda v: v.k * v.d * v.p,
        changes=(
            Change(
                "reversed",
                "{A} is paid {p} for every {K.one} {A.he} {A.v[finishes]} and earns {e} in {d} "
                "days, finishing the same number each day. How many {K.many} a day is that?",
                derived=dict(e=Derived("k * d * p", "money")),
                steps=[
                    "{K.many} | e / p | count | {K.many}",
                    "Each day | s1 / d | count | {K.many}",
                ],
                solve=lambda v: v.e / v.p / v.d,
            ),
            Change(
                "added_step",
                "{A} is paid {p} for every {K.one} {A.he} {A.v[finishes]}, plus a bonus of {b} at "
                "the end. {A.He} {A.v[finishes]} {k} {K.many} a day for {d} days. How much "
                "{A.v[does]} "
                "{A.he} earn?",
                slots=dict(b=money(10, 30, 5)),
                steps=[
                    "{K.many} | k * d | count | {K.many}",
                    "Pay | s1 * p | money",
                    "With the bonus | s2 + b | money",
                ],
                solve=lambda v: v.k * v.d * v.p + v.b,
            ),
            Change(
                "target",
                "{A} is paid {p} for every {K.one} {A.he} {A.v[finishes]}. {A.He} {A.v[finishes]} "
                "{k} {K.many} a day for {d} days. How much {A.v[does]} {A.he} earn in one day?",
                steps=["One day | k * p | money"],
                solve=lambda v: v.k * v.p,
            ),
        ),
    ),
    Family(
        id="work/remaining-fraction",
        topic="fractions of groups",
        slots=dict(
            A=PERSON,
            K=thing("craft"),
            N=count(12, 60, 4),
            f=frac("1/4", "1/3", "1/2", "2/3", "3/4"),
        ),
        when=lambda v: (v.N * v.f).denominator == 1,
        text="{A} must {K.do} {N} {K.many} for a fair. {A.He} {A.v[has]} done {f} of them. How "
        "many are left to {K.do}?",
        paraphrases=(
            "Of the {N} {K.many} {A} promised for the fair, {f} are done. How many remain?",
            "How many of {N} {K.many} does {A} still have to make, with {f} of them finished?",
        ),
        steps=["Done: {f} of {N} | f * N | count | {K.many}", "Left | N - s1 | count | {K.many}"],
        solve=lambda v: v.N - v.f * v.N,
        changes=(
            Change(
                "target",
                "{A} must {K.do} {N} {K.many} for a fair. {A.He} {A.v[has]} done {f} of them. How "
                "many are done?",
                steps=["Done: {f} of {N} | f * N | count | {K.many}"],
                solve=lambda v: v.f * v.N,
            ),
            Change(
                "reversed",
                "{A} must {K.do} some {K.many} for a fair. {A.He} {A.v[has]} done {f} of them, "
                "which is {d}. How many {K.many} must {A.he} make in all?",
                derived=dict(d=Derived("f * N", "count")),
                steps=["{d} is {f} of the total | d / f | count | {K.many}"],
                solve=lambda v: v.d / v.f,
            ),
            Change(
                "added_step",
                "{A} must {K.do} {N} {K.many} for a fair. {A.He} {A.v[has]} done {f} of them and "
                "makes {k} a day. How many days until {A.he} {A.v[is]} done?",
                slots=dict(k=count(2, 6)),
                when=lambda v: (v.N - v.f * v.N) % v.k != 0,
                steps=[
                    "Done: {f} of {N} | f * N | count | {K.many}",
                    "Left | N - s1 | count | {K.many}",
                    "Days at {k} a day | ceil(s2 / k) | count | days",
                ],
                solve=lambda v: -(-(v.N - v.f * v.N) // v.k),
            ),
        ),
    ),
    Family(
        id="work/garden-rows",
        topic="work done",
        slots=dict(
            A=PERSON, B=PERSON, P=thing("plant"), r=count(6, 20), k=count(5, 15), a=count(10, 40, 5)
        ),
        when=lambda v: (v.r * v.k) % v.a != 0 and v.r * v.k > v.a,
        text="{A} plants {r} rows of {k} {P.many}. {A.He} {A.v[plants]} {a} {P.many} an hour. "
        "How many hours does it take, counting a part of an hour as a whole hour?",
        paraphrases=(
            "{r} rows, {k} {P.many} to a row: {A} plants {a} an hour. How many hours, rounding "
            "any part hour up?",
            "How many whole hours does {A} need to plant {r} rows of {k} {P.many} at {a} per "
            "hour, a part hour counting as one?",
        ),
        steps=[
            "{P.many} | r * k | count | {P.many}",
            "Hours at {a} an hour | ceil(s1 / a) | count | hours",
        ],
        solve=lambda v: -(-(v.r * v.k) // v.a),
        changes=(
            Change(
                "operation",
                "{A} and {B} plant {r} rows of {k} {P.many}, each planting {a} {P.many} an hour. "
                "How many hours does it take, counting a part of an hour as a whole hour?",
                when=lambda v: (v.r * v.k) % (2 * v.a) != 0,
                steps=[
                    "{P.many} | r * k | count | {P.many}",
                    "Together an hour | 2 * a | count | {P.many}",
                    "Hours | ceil(s1 / s2) | count | hours",
                ],
                solve=lambda v: -(-(v.r * v.k) // (2 * v.a)),
            ),
            Change(
                "target",
                "{A} plants {r} rows of {k} {P.many}. How many {P.many} {A.v[does]} {A.he} plant?",
                steps=["{P.many} | r * k | count | {P.many}"],
                solve=lambda v: v.r * v.k,
            ),
            Change(
                "added_step",
                "{A} plants {r} rows of {k} {P.many}, and each {P.one} costs {p}. How much do the "
                "{P.many} cost?",
                slots=dict(p=money(2, 9)),
                steps=["{P.many} | r * k | count | {P.many}", "Cost | s1 * p | money"],
                solve=lambda v: v.r * v.k * v.p,
            ),
        ),
    ),
    Family(
        id="work/proofreading",
        topic="rates",
        slots=dict(
            A=PERSON, B=PERSON, n=count(120, 480, 20), a=count(10, 30, 5), b=count(10, 30, 5)
        ),
        when=lambda v: (v.n / (v.a + v.b) * 4).denominator == 1,
        text="{A} and {B} proofread a report of {n} pages. {A} checks {a} pages an hour and {B} "
        "checks {b} pages an hour. Working at the same time, how many hours do they take?",
        paraphrases=(
            "A {n}-page report is split between {A} ({a} pages per hour) and {B} ({b} pages per "
            "hour), who work together. How long does it take, in hours?",
            "How many hours do {A} and {B} need together to proofread {n} pages, at {a} and {b} "
            "pages an hour?",
        ),
        steps=[
            "Together | a + b | count | pages an hour",
            "Hours for {n} pages | n / s1 | number | hours",
        ],
        solve=lambda v: v.n / (v.a + v.b),
        changes=(
            Change(
                "roles",
                "{A} and {B} proofread a report of {n} pages. {A} checks {a} pages an hour and "
                "{B} checks {b} pages an hour. After {h} hours together, how many pages has {B} "
                "checked?",
                slots=dict(h=count(2, 4)),
                steps=["{B} in {h} hours | h * b | count | pages"],
                solve=lambda v: v.h * v.b,
            ),
            Change(
                "operation",
                "{A} proofreads a report of {n} pages, checking {a} pages an hour. How many "
                "hours does it take?",
                when=lambda v: (v.n / v.a * 4).denominator == 1,
                steps=["Hours for {n} pages | n / a | number | hours"],
                solve=lambda v: v.n / v.a,
            ),
            Change(
                "target",
                "{A} and {B} proofread a report of {n} pages. {A} checks {a} pages an hour and "
                "{B} checks {b} pages an hour. How many pages do they check together in {h} "
                "hours?",
                slots=dict(h=count(2, 4)),
                steps=[
                    "Together | a + b | count | pages an hour",
                    "In {h} hours | h * s1 | count | pages",
                ],
                solve=lambda v: v.h * (v.a + v.b),
            ),
        ),
    ),
    Family(
        id="work/car-wash",
        topic="work done",
        slots=dict(A=PERSON, B=PERSON, n=count(8, 30), p=money(5, 12), c=money(10, 40, 5)),
        when=lambda v: v.n * v.p > v.c,
        text="{A} and {B} wash {n} cars at a fundraiser, charging {p} a car. Soap and sponges "
        "cost {c}. How much money do they raise?",
        paraphrases=(
            "At {p} per car, {A} and {B} wash {n} cars to raise money. They spent {c} on soap and "
            "sponges. What do they raise?",
            "How much does a car wash raise for {A} and {B} if they wash {n} cars at {p} each and "
            "spend {c} on supplies?",
        ),
        steps=["Takings | n * p | money", "After supplies | s1 - c | money"],
        solve=lambda v: v.n * v.p - v.c,
        changes=(
            Change(
                "added_step",
                "{A} and {B} wash {n} cars at a fundraiser, charging {p} a car. Soap and sponges "
                "cost {c}. They share the money raised equally. How much does each get?",
                when=lambda v: v.n * v.p > v.c and ((v.n * v.p - v.c) / 2 * 100).denominator == 1,
                steps=[
                    "Takings | n * p | money",
                    "After supplies | s1 - c | money",
                    "Each of the two | s2 / 2 | money",
                ],
                solve=lambda v: (v.n * v.p - v.c) / 2,
            ),
            Change(
                "target",
                "{A} and {B} wash {n} cars at a fundraiser, charging {p} a car. How much do they "
                "take in?",
                steps=["Takings | n * p | money"],
                solve=lambda v: v.n * v.p,
            ),
            Change(
                "operation",
                "{A} and {B} wash {n} cars at a fundraiser, charging {p} a car, and a sponsor "
                "adds {c}. How much money do they raise?",
                steps=["Takings | n * p | money", "With the sponsor | s1 + c | money"],
                solve=lambda v: v.n * v.p + v.c,
            ),
        ),
    ),
    Family(
        id="work/lawn-mowing",
        topic="work done",
        slots=dict(A=PERSON, n=count(3, 10), m=count(30, 75, 15), p=money(15, 40, 5)),
        text="{A} mows {n} lawns on Saturday. Each lawn takes {m} minutes and pays {p}. How much "
        "{A.v[does]} {A.he} earn per hour of mowing?",
        paraphrases=(
            "Mowing a lawn takes {A} {m} minutes and earns {p}. After {n} lawns, what {A.v[has]} "
            "{A.he} "
            "earned for each hour spent?",
            "{A} does {n} lawns at {p} each, {m} minutes per lawn. What is {A.his} hourly rate?",
        ),
        steps=[
            "Earnings | n * p | money",
            "Hours | n * m / 60 | number | hours",
            "Per hour | s1 / s2 | money",
        ],
        when=lambda v: (v.p * 60 / v.m * 100).denominator == 1,
        solve=lambda v: v.p * 60 / v.m,
        changes=(
            Change(
                "target",
                "{A} mows {n} lawns on Saturday. Each lawn takes {m} minutes and pays {p}. How "
                "much {A.v[does]} {A.he} earn?",
                steps=["Earnings | n * p | money"],
                solve=lambda v: v.n * v.p,
            ),
            Change(
                "added_step",
                "{A} mows {n} lawns on Saturday. Each lawn takes {m} minutes and pays {p}, and "
                "{A.he} {A.v[spends]} {f} on fuel. How much {A.v[does]} {A.he} keep?",
                slots=dict(f=money(5, 12)),
                steps=["Earnings | n * p | money", "After fuel | s1 - f | money"],
                solve=lambda v: v.n * v.p - v.f,
            ),
            Change(
                "reversed",
                "{A} mows lawns on Saturday. Each lawn takes {m} minutes and pays {p}. {A.He} "
                "{A.v[earns]} {e}. How many hours {A.v[does]} {A.he} mow?",
                derived=dict(e=Derived("n * p", "money")),
                when=lambda v: (v.e / v.p * v.m / 60 * 4).denominator == 1,
                steps=[
                    "Lawns | e / p | count | lawns",
                    "Hours | s1 * m / 60 | number | hours",
                ],
                solve=lambda v: v.e / v.p * v.m / 60,
            ),
        ),
    ),
]
