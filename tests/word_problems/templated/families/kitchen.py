"""Recipes and sharing equally: scaling, batches, leftovers, shares."""

from __future__ import annotations

from tests.word_problems.templated.model import (
    PERSON,
    Change,
    Derived,
    Family,
    count,
    dec,
    frac,
    mixed,
    money,
    thing,
)

FAMILIES = [
    Family(
        id="recipes/scale-servings",
        topic="recipes",
        slots=dict(
            A=PERSON,
            I=thing("ingredient"),
            s=count(2, 6),
            c=mixed("1.5", 4, "0.5"),
            t=count(6, 24, 2),
        ),
        when=lambda v: v.t > v.s and (v.c * v.t / v.s * 4).denominator == 1,
        text="A recipe for {s} servings uses {c} cups of {I.one}. {A} wants to make {t} "
        "servings. How many cups of {I.one} {A.v[does]} {A.he} need?",
        paraphrases=(
            "{A} is scaling a recipe: {c} cups of {I.one} make {s} servings, and {A.he} "
            "{A.v[needs]} {t} servings. How much {I.one} is that in cups?",
            "If {s} servings take {c} cups of {I.one}, how many cups does {A} need for {t} "
            "servings?",
        ),
        steps=[
            "{I.one} per serving | c / s | number | cups",
            "For {t} servings | t * s1 | number | cups",
        ],
        solve=lambda v: v.c * v.t / v.s,
        changes=(
            Change(
                "reversed",
                "A recipe for {s} servings uses {c} cups of {I.one}. {A} has {h} cups of "
                "{I.one}. How many servings can {A.he} make?",
                derived=dict(h=Derived("c * t / s", "mixed")),
                steps=[
                    "{I.one} per serving | c / s | number | cups",
                    "Servings from {h} cups | h / s1 | count | servings",
                ],
                solve=lambda v: v.h / (v.c / v.s),
            ),
            Change(
                "target",
                "A recipe for {s} servings uses {c} cups of {I.one}. {A} wants to make {t} "
                "servings. How many cups of {I.one} are in one serving?",
                steps=["{I.one} per serving | c / s | number | cups"],
                solve=lambda v: v.c / v.s,
            ),
            Change(
                "added_step",
                "A recipe for {s} servings uses {c} cups of {I.one}. {A} wants to make {t} "
                "servings but already has {h} cups. How many more cups of {I.one} {A.v[does]} "
                "{A.he} "
                "need?",
                slots=dict(h=dec(1, 2, "0.5")),
                when=lambda v: v.c * v.t / v.s > v.h,
                steps=[
                    "{I.one} per serving | c / s | number | cups",
                    "For {t} servings | t * s1 | number | cups",
                    "Still needed after the {h} cups {A.he} {A.v[has]} | s2 - h | number | cups",
                ],
                solve=lambda v: v.c * v.t / v.s - v.h,
            ),
        ),
    ),
    Family(
        id="recipes/batches-flour",
        topic="recipes",
        slots=dict(
            A=PERSON,
            T=thing("baked"),
            k=count(10, 24, 2),
            n=count(30, 120, 5),
            c=mixed("1.5", 3, "0.5"),
        ),
        when=lambda v: v.n % v.k != 0,
        text="One batch makes {k} {T.many} and uses {c} cups of flour. {A} needs at least {n} "
        "{T.many} for a bake sale. How many cups of flour will {A.he} use, baking whole "
        "batches?",
        paraphrases=(
            "{A} bakes {T.many} in whole batches of {k}, each batch taking {c} cups of flour. "
            "To have at least {n} {T.many}, how much flour {A.v[does]} {A.he} use?",
            "For a bake sale {A} wants {n} {T.many} or more. A batch gives {k} and needs {c} "
            "cups of flour. Cups of flour used?",
        ),
        steps=[
            "Whole batches for {n} {T.many} | ceil(n / k) | count | batches",
            "Flour for {s1} batches | s1 * c | number | cups",
        ],
        solve=lambda v: -(-v.n // v.k) * v.c,
        changes=(
            Change(
                "target",
                "One batch makes {k} {T.many} and uses {c} cups of flour. {A} needs at least {n} "
                "{T.many} for a bake sale. How many batches must {A.he} bake?",
                steps=["Whole batches for {n} {T.many} | ceil(n / k) | count | batches"],
                solve=lambda v: -(-v.n // v.k),
            ),
            Change(
                "operation",
                "One batch makes {k} {T.many} and uses {c} cups of flour. {A} has flour for "
                "{b} batches. How many {T.many} can {A.he} bake?",
                slots=dict(b=count(2, 6)),
                steps=["{T.many} from {b} batches | b * k | count | {T.many}"],
                solve=lambda v: v.b * v.k,
            ),
            Change(
                "added_step",
                "One batch makes {k} {T.many} and uses {c} cups of flour. {A} needs at least {n} "
                "{T.many} for a bake sale. How many {T.many} will be left over after the sale "
                "needs are met, baking whole batches?",
                steps=[
                    "Whole batches for {n} {T.many} | ceil(n / k) | count | batches",
                    "{T.many} baked | s1 * k | count | {T.many}",
                    "Left over | s2 - n | count | {T.many}",
                ],
                solve=lambda v: -(-v.n // v.k) * v.k - v.n,
            ),
        ),
    ),
    Family(
        id="recipes/milk-left",
        topic="fractions of groups",
        slots=dict(
            A=PERSON, L=thing("liquid"), c=count(4, 12), f=frac("1/2", "1/4", "3/4", "1/3", "2/3")
        ),
        when=lambda v: (v.c * v.f).denominator == 1,
        text="{A} has {c} cups of {L.one}. {A.He} {A.v[uses]} {f} of it in a recipe. How many "
        "cups of {L.one} are left?",
        paraphrases=(
            "A recipe takes {f} of the {c} cups of {L.one} that {A} has. How many cups remain?",
            "Of {A.his} {c} cups of {L.one}, {A} pours {f} into a recipe. What is left, in cups?",
        ),
        steps=[
            "{A} uses {f} of {c} cups | f * c | count | cups",
            "Left | c - s1 | count | cups",
        ],
        solve=lambda v: v.c - v.f * v.c,
        changes=(
            Change(
                "target",
                "{A} has {c} cups of {L.one}. {A.He} {A.v[uses]} {f} of it in a recipe. How many "
                "cups of {L.one} does the recipe use?",
                steps=["{A} uses {f} of {c} cups | f * c | count | cups"],
                solve=lambda v: v.f * v.c,
            ),
            Change(
                "operation",
                "{A} has {c} cups of {L.one}. {A.He} {A.v[adds]} {f} as much again from a new "
                "carton. How many cups of {L.one} {A.v[does]} {A.he} have now?",
                steps=[
                    "{A} adds {f} of {c} cups | f * c | count | cups",
                    "Now | c + s1 | count | cups",
                ],
                solve=lambda v: v.c + v.f * v.c,
            ),
            Change(
                "added_step",
                "{A} has {c} cups of {L.one}. {A.He} {A.v[uses]} {f} of it in a recipe and "
                "then drinks {d} cup. How many cups of {L.one} are left?",
                slots=dict(d=frac("1/2")),
                when=lambda v: v.c - v.f * v.c > v.d,
                steps=[
                    "{A} uses {f} of {c} cups | f * c | count | cups",
                    "Left after the recipe | c - s1 | count | cups",
                    "After drinking {d} cup | s2 - d | number | cups",
                ],
                solve=lambda v: v.c - v.f * v.c - v.d,
            ),
        ),
    ),
    Family(
        id="recipes/bake-sale-profit",
        topic="multi-step",
        slots=dict(
            A=PERSON,
            T=thing("baked"),
            b=count(2, 6),
            k=count(12, 24, 6),
            c=money(4, 10),
            p=money("0.5", 2, "0.25"),
        ),
        when=lambda v: v.k * v.p > v.c,
        text="{A} bakes {b} batches of {T.many} for a bake sale. Each batch makes {k} {T.many} "
        "and costs {c} in ingredients. {A.He} {A.v[sells]} every {T.one} for {p}. How much "
        "profit {A.v[does]} {A.he} make?",
        paraphrases=(
            "At the bake sale, {A} sells {T.many} at {p} each. {A.He} baked {b} batches of {k}, "
            "and each batch cost {c} to make. What is the profit?",
            "Ingredients for one batch of {k} {T.many} cost {c}. {A} makes {b} batches and "
            "sells them all at {p} per {T.one}. Profit?",
        ),
        steps=[
            "{T.many} baked | b * k | count | {T.many}",
            "Money from sales | s1 * p | money",
            "Cost of ingredients | b * c | money",
            "Profit | s2 - s3 | money",
        ],
        solve=lambda v: v.b * v.k * v.p - v.b * v.c,
        changes=(
            Change(
                "target",
                "{A} bakes {b} batches of {T.many} for a bake sale. Each batch makes {k} "
                "{T.many} and costs {c} in ingredients. {A.He} {A.v[sells]} every {T.one} for "
                "{p}. How much money {A.v[does]} {A.he} take in from sales?",
                steps=[
                    "{T.many} baked | b * k | count | {T.many}",
                    "Money from sales | s1 * p | money",
                ],
                solve=lambda v: v.b * v.k * v.p,
            ),
            Change(
                "added_step",
                "{A} bakes {b} batches of {T.many} for a bake sale. Each batch makes {k} "
                "{T.many} and costs {c} in ingredients. {A.He} {A.v[sells]} every {T.one} but "
                "{e} for {p}. How much profit {A.v[does]} {A.he} make?",
                slots=dict(e=count(2, 6)),
                steps=[
                    "{T.many} baked | b * k | count | {T.many}",
                    "{T.many} sold | s1 - e | count | {T.many}",
                    "Money from sales | s2 * p | money",
                    "Cost of ingredients | b * c | money",
                    "Profit | s3 - s4 | money",
                ],
                when=lambda v: (v.b * v.k - v.e) * v.p > v.b * v.c,
                solve=lambda v: (v.b * v.k - v.e) * v.p - v.b * v.c,
            ),
            Change(
                "reversed",
                "{A} bakes {b} batches of {T.many} for a bake sale. Each batch makes {k} "
                "{T.many} and costs {c} in ingredients. {A.He} {A.v[makes]} a profit of {g} "
                "selling all of them at one price. What is the price of one {T.one}?",
                derived=dict(g=Derived("b * k * p - b * c", "money")),
                steps=[
                    "Cost of ingredients | b * c | money",
                    "Money from sales | g + s1 | money",
                    "{T.many} baked | b * k | count | {T.many}",
                    "Price of one {T.one} | s2 / s3 | money",
                ],
                solve=lambda v: (v.g + v.b * v.c) / (v.b * v.k),
            ),
        ),
    ),
    Family(
        id="recipes/pizza-slices-left",
        topic="sharing equally",
        slots=dict(A=PERSON, n=count(2, 6), s=count(6, 12, 2), k=count(3, 9), e=count(2, 3)),
        when=lambda v: v.n * v.s > v.k * v.e,
        text="{A} orders {n} pizzas cut into {s} slices each. {k} friends eat {e} slices each. "
        "How many slices are left?",
        paraphrases=(
            "There are {n} pizzas at {A}'s party, {s} slices per pizza. Each of {k} friends "
            "eats {e} slices. How many slices remain?",
            "{k} friends each have {e} slices from the {n} pizzas {A} ordered, each cut into "
            "{s} slices. What is left over?",
        ),
        steps=[
            "Slices in all | n * s | count | slices",
            "Slices eaten | k * e | count | slices",
            "Slices left | s1 - s2 | count | slices",
        ],
        solve=lambda v: v.n * v.s - v.k * v.e,
        changes=(
            Change(
                "target",
                "{A} orders {n} pizzas cut into {s} slices each. {k} friends eat {e} slices "
                "each. How many slices do the friends eat?",
                steps=["Slices eaten | k * e | count | slices"],
                solve=lambda v: v.k * v.e,
            ),
            Change(
                "added_step",
                "{A} orders {n} pizzas cut into {s} slices each. {k} friends eat {e} slices "
                "each, and {A} eats {m} slices. How many slices are left?",
                slots=dict(m=count(2, 3)),
                when=lambda v: v.n * v.s > v.k * v.e + v.m,
                steps=[
                    "Slices in all | n * s | count | slices",
                    "Slices the friends eat | k * e | count | slices",
                    "Slices left after {A} eats {m} | s1 - s2 - m | count | slices",
                ],
                solve=lambda v: v.n * v.s - v.k * v.e - v.m,
            ),
            Change(
                "reversed",
                "{A} orders pizzas cut into {s} slices each. {k} friends eat {e} slices each "
                "and {r} slices are left. How many pizzas did {A} order?",
                derived=dict(r=Derived("n * s - k * e", "count")),
                steps=[
                    "Slices eaten | k * e | count | slices",
                    "Slices in all | s1 + r | count | slices",
                    "Pizzas | s2 / s | count | pizzas",
                ],
                solve=lambda v: (v.r + v.k * v.e) / v.s,
            ),
        ),
    ),
    Family(
        id="recipes/egg-cartons",
        topic="unit conversions",
        slots=dict(A=PERSON, e=count(2, 4), c=count(5, 14)),
        when=lambda v: v.e * v.c % 12 != 0,
        text="Each cake {A} bakes takes {e} eggs. {A.He} {A.v[bakes]} {c} cakes for a fair. "
        "Eggs come in cartons of a dozen. How many cartons {A.v[does]} {A.he} need to buy?",
        paraphrases=(
            "{A} is baking {c} cakes, {e} eggs per cake. If eggs are sold by the dozen, how "
            "many cartons must {A.he} get?",
            "For {c} cakes with {e} eggs in each, how many dozen-egg cartons should {A} buy?",
        ),
        steps=[
            "Eggs needed | c * e | count | eggs",
            "Cartons of 12 | ceil(s1 / 12) | count | cartons",
        ],
        solve=lambda v: -(-(v.c * v.e) // 12),
        changes=(
            Change(
                "target",
                "Each cake {A} bakes takes {e} eggs. {A.He} {A.v[bakes]} {c} cakes for a fair. "
                "How many eggs {A.v[does]} {A.he} need?",
                steps=["Eggs needed | c * e | count | eggs"],
                solve=lambda v: v.c * v.e,
            ),
            Change(
                "added_step",
                "Each cake {A} bakes takes {e} eggs. {A.He} {A.v[bakes]} {c} cakes for a fair. "
                "Eggs come in cartons of a dozen. How many eggs will be left over?",
                steps=[
                    "Eggs needed | c * e | count | eggs",
                    "Cartons of 12 | ceil(s1 / 12) | count | cartons",
                    "Eggs bought | s2 * 12 | count | eggs",
                    "Left over | s3 - s1 | count | eggs",
                ],
                solve=lambda v: -(-(v.c * v.e) // 12) * 12 - v.c * v.e,
            ),
            Change(
                "operation",
                "Each cake {A} bakes takes {e} eggs. Eggs come in cartons of a dozen, and {A} "
                "has {c} cartons. How many cakes can {A.he} bake?",
                steps=[
                    "Eggs in {c} cartons | c * 12 | count | eggs",
                    "Cakes | floor(s1 / e) | count | cakes",
                ],
                solve=lambda v: v.c * 12 // v.e,
            ),
        ),
    ),
    Family(
        id="recipes/punch-glasses",
        topic="recipes",
        slots=dict(
            A=PERSON,
            L=thing("liquid"),
            a=dec("1.5", 4, "0.5"),
            b=dec(1, 3, "0.5"),
            g=frac("1/4", "1/2"),
        ),
        when=lambda v: ((v.a + v.b) / v.g).denominator == 1,
        text="{A} mixes {a} liters of {L.one} with {b} liters of sparkling water for a party. "
        "Each glass holds {g} liter. How many glasses can {A.he} fill?",
        paraphrases=(
            "For the party, {A} pours {a} liters of {L.one} and {b} liters of sparkling water "
            "into a bowl. With {g} liter per glass, how many glasses is that?",
            "How many {g}-liter glasses does a mix of {a} liters of {L.one} and {b} liters of "
            "sparkling water fill for {A}?",
        ),
        steps=[
            "Liters of punch | a + b | number | liters",
            "Glasses of {g} liter | s1 / g | count | glasses",
        ],
        solve=lambda v: (v.a + v.b) / v.g,
        changes=(
            Change(
                "operation",
                "{A} has {a} liters of {L.one} and pours out {b} liters of it for a party. Each "
                "glass holds {g} liter. How many glasses {A.v[does]} {A.he} fill?",
                when=lambda v: v.a > v.b and ((v.a - v.b) / v.g).denominator == 1,
                steps=["Glasses of {g} liter from {b} liters | b / g | count | glasses"],
                solve=lambda v: v.b / v.g,
            ),
            Change(
                "added_step",
                "{A} mixes {a} liters of {L.one} with {b} liters of sparkling water for a party. "
                "Each glass holds {g} liter, and {k} guests drink two glasses each. How many "
                "glasses are left?",
                slots=dict(k=count(2, 4)),
                when=lambda v: ((v.a + v.b) / v.g).denominator == 1 and (v.a + v.b) / v.g > 2 * v.k,
                steps=[
                    "Liters of punch | a + b | number | liters",
                    "Glasses of {g} liter | s1 / g | count | glasses",
                    "Glasses the guests drink | 2 * k | count | glasses",
                    "Left | s2 - s3 | count | glasses",
                ],
                solve=lambda v: (v.a + v.b) / v.g - 2 * v.k,
            ),
            Change(
                "target",
                "{A} mixes {a} liters of {L.one} with {b} liters of sparkling water for a party. "
                "How many liters of punch {A.v[does]} {A.he} make?",
                steps=["Liters of punch | a + b | number | liters"],
                solve=lambda v: v.a + v.b,
            ),
        ),
    ),
    Family(
        id="recipes/double-recipe",
        topic="recipes",
        slots=dict(
            A=PERSON,
            I=thing("ingredient"),
            c=mixed("1.25", 3, "0.25"),
            k=count(2, 4),
            u=mixed("1.5", 3, "0.5"),
        ),
        text="A cake needs {c} cups of {I.one}. {A} makes {k} cakes and spills {u} cups. How "
        "many cups of {I.one} {A.v[does]} {A.he} use in all?",
        paraphrases=(
            "{A} bakes {k} cakes, each with {c} cups of {I.one}, and spills another {u} cups. "
            "How much {I.one} is gone, in cups?",
            "With {c} cups of {I.one} per cake and {u} cups spilled, how many cups does {A} go "
            "through baking {k} cakes?",
        ),
        steps=[
            "{I.one} for {k} cakes | k * c | number | cups",
            "With the spill | s1 + u | number | cups",
        ],
        solve=lambda v: v.k * v.c + v.u,
        changes=(
            Change(
                "operation",
                "A cake needs {c} cups of {I.one}. {A} makes {k} cakes, and {u} cups of the "
                "{I.one} come from an open bag. How many cups from new bags {A.v[does]} {A.he} "
                "use?",
                when=lambda v: v.k * v.c > v.u,
                steps=[
                    "{I.one} for {k} cakes | k * c | number | cups",
                    "Less the open bag | s1 - u | number | cups",
                ],
                solve=lambda v: v.k * v.c - v.u,
            ),
            Change(
                "target",
                "A cake needs {c} cups of {I.one}. {A} makes {k} cakes and spills {u} cups. How "
                "many cups of {I.one} go into the cakes?",
                steps=["{I.one} for {k} cakes | k * c | number | cups"],
                solve=lambda v: v.k * v.c,
            ),
            Change(
                "reversed",
                "A cake needs {c} cups of {I.one}. {A} uses {t} cups in all, {u} of them "
                "spilled. How many cakes {A.v[does]} {A.he} make?",
                derived=dict(t=Derived("k * c + u", "mixed")),
                steps=[
                    "{I.one} in the cakes | t - u | number | cups",
                    "Cakes | s1 / c | count | cakes",
                ],
                solve=lambda v: (v.t - v.u) / v.c,
            ),
        ),
    ),
    Family(
        id="sharing/equal-share",
        topic="sharing equally",
        slots=dict(A=PERSON, T=thing("fruit"), k=count(3, 8), e=count(3, 12)),
        text="{A} has {n} {T.many} and shares them equally among {k} friends. How many "
        "{T.many} does each friend get?",
        derived=dict(n=Derived("k * e", "count")),
        paraphrases=(
            "{k} friends split {A}'s {n} {T.many} so that everyone gets the same number. How "
            "many does each one get?",
            "If {A} divides {n} {T.many} evenly between {k} friends, what is each friend's share?",
        ),
        steps=["{n} {T.many} shared by {k} | n / k | count | {T.many}"],
        solve=lambda v: v.n / v.k,
        changes=(
            Change(
                "added_step",
                "{A} has {n} {T.many}, keeps {r} for {A.himself} and shares the rest equally "
                "among {k} friends. How many {T.many} does each friend get?",
                derived=dict(n=Derived("k * e + r", "count")),
                slots=dict(r=count(2, 6)),
                steps=[
                    "{T.many} to share after keeping {r} | n - r | count | {T.many}",
                    "Shared by {k} | s1 / k | count | {T.many}",
                ],
                solve=lambda v: (v.n - v.r) / v.k,
            ),
            Change(
                "reversed",
                "{A} shares some {T.many} equally among {k} friends, and each friend gets {e}. "
                "How many {T.many} did {A} share?",
                steps=["{k} friends with {e} each | k * e | count | {T.many}"],
                solve=lambda v: v.k * v.e,
            ),
            Change(
                "operation",
                "{A} has {n} {T.many}, and each of {k} friends gives {A.him} {e} more. How many "
                "{T.many} does {A} have now?",
                steps=[
                    "{T.many} from the friends | k * e | count | {T.many}",
                    "Now | n + s1 | count | {T.many}",
                ],
                solve=lambda v: v.n + v.k * v.e,
            ),
        ),
    ),
    Family(
        id="sharing/leftover",
        topic="sharing equally",
        slots=dict(A=PERSON, T=thing("toy"), n=count(20, 60), k=count(3, 8)),
        when=lambda v: v.n % v.k != 0,
        text="{A} shares {n} {T.many} equally among {k} children, giving each the same number "
        "and as many as possible. How many {T.many} are left over?",
        paraphrases=(
            "{n} {T.many} are handed out by {A} to {k} children, the same number each, as many "
            "as possible. How many are left?",
            "{A} deals out {n} {T.many} evenly to {k} kids until no more full round fits. How "
            "many {T.many} remain?",
        ),
        steps=[
            "Each child gets | floor(n / k) | count | {T.many}",
            "{T.many} handed out | s1 * k | count | {T.many}",
            "Left over | n - s2 | count | {T.many}",
        ],
        solve=lambda v: v.n % v.k,
        changes=(
            Change(
                "target",
                "{A} shares {n} {T.many} equally among {k} children, giving each the same number "
                "and as many as possible. How many {T.many} does each child get?",
                steps=["Each child gets | floor(n / k) | count | {T.many}"],
                solve=lambda v: v.n // v.k,
            ),
            Change(
                "added_step",
                "{A} shares {n} {T.many} equally among {k} children, as many each as possible. "
                "How many more {T.many} would {A} need so that each child could get one more?",
                steps=[
                    "Each child gets | floor(n / k) | count | {T.many}",
                    "For one more each | (s1 + 1) * k | count | {T.many}",
                    "More needed | s2 - n | count | {T.many}",
                ],
                solve=lambda v: (v.n // v.k + 1) * v.k - v.n,
            ),
            Change(
                "operation",
                "{A} has {n} {T.many} and buys enough for {k} children to get {n} each. How many "
                "{T.many} {A.v[does]} {A.he} buy?",
                steps=[
                    "{T.many} for {k} children with {n} each | k * n | count | {T.many}",
                    "To buy | s1 - n | count | {T.many}",
                ],
                solve=lambda v: v.k * v.n - v.n,
            ),
        ),
    ),
    Family(
        id="sharing/teams",
        topic="sharing equally",
        slots=dict(A=PERSON, s=count(20, 45), t=count(4, 6)),
        when=lambda v: v.s % v.t != 0,
        text="{A} splits {s} players into teams of {t}. Any players left over form one "
        "smaller team. How many teams are there?",
        paraphrases=(
            "{s} players turn up to {A}'s practice. Teams have {t} players, and the "
            "leftovers make one smaller team. How many teams?",
            "How many teams does {A} get from {s} players with {t} to a team, putting "
            "any extra players in one last team?",
        ),
        steps=["Teams of {t} for {s} players | ceil(s / t) | count | teams"],
        solve=lambda v: -(-v.s // v.t),
        changes=(
            Change(
                "target",
                "{A} splits {s} players into teams of {t}. Any players left over form one "
                "smaller team. How many players are on the smaller team?",
                steps=[
                    "Full teams | floor(s / t) | count | teams",
                    "Players on full teams | s1 * t | count | players",
                    "On the smaller team | s - s2 | count | players",
                ],
                solve=lambda v: v.s % v.t,
            ),
            Change(
                "operation",
                "{A} splits {s} players into teams of {t}. Players left over sit out. How "
                "many teams are there?",
                steps=["Full teams of {t} from {s} players | floor(s / t) | count | teams"],
                solve=lambda v: v.s // v.t,
            ),
            Change(
                "added_step",
                "{A} splits {s} players into teams of {t}, any leftovers forming one "
                "smaller team. Each team gets {b} balls. How many balls are needed?",
                slots=dict(b=count(2, 4)),
                steps=[
                    "Teams of {t} for {s} players | ceil(s / t) | count | teams",
                    "Balls | s1 * b | count | balls",
                ],
                solve=lambda v: -(-v.s // v.t) * v.b,
            ),
        ),
    ),
    Family(
        id="sharing/bags-of-sweets",
        topic="sharing equally",
        slots=dict(
            A=PERSON, B=PERSON, T=thing("baked"), b=count(2, 6), c=count(6, 20), k=count(2, 6)
        ),
        when=lambda v: v.b * v.c % (v.k + 2) == 0,
        text="{A} has {b} bags with {c} {T.many} in each. {A.He} {A.v[shares]} them equally with "
        "{B} and {k} other friends, keeping a share for {A.himself} too. How many {T.many} "
        "does each person get?",
        paraphrases=(
            "{b} bags, {c} {T.many} per bag: {A} divides them evenly among {A.himself}, {B} and "
            "{k} other friends. What is each person's share?",
            "{A}, {B} and {k} more friends share {b} bags of {c} {T.many} equally. How many "
            "{T.many} does each of them get?",
        ),
        steps=[
            "{T.many} in all | b * c | count | {T.many}",
            "People sharing: {A}, {B} and {k} others | k + 2 | count | people",
            "Each share | s1 / s2 | count | {T.many}",
        ],
        solve=lambda v: v.b * v.c / (v.k + 2),
        changes=(
            Change(
                "operation",
                "{A} has {b} bags with {c} {T.many} in each. {A.He} {A.v[shares]} them equally "
                "among {B} and {k} other friends, keeping none. How many {T.many} does each "
                "friend get?",
                when=lambda v: v.b * v.c % (v.k + 1) == 0,
                steps=[
                    "{T.many} in all | b * c | count | {T.many}",
                    "Friends sharing: {B} and {k} others | k + 1 | count | friends",
                    "Each share | s1 / s2 | count | {T.many}",
                ],
                solve=lambda v: v.b * v.c / (v.k + 1),
            ),
            Change(
                "target",
                "{A} has {b} bags with {c} {T.many} in each. How many {T.many} does {A} have?",
                steps=["{T.many} in all | b * c | count | {T.many}"],
                solve=lambda v: v.b * v.c,
            ),
            Change(
                "roles",
                "{B} has {b} bags with {c} {T.many} in each. {B} gives {A} {k} bags. How many "
                "{T.many} does {B} have left?",
                when=lambda v: v.b > v.k,
                steps=[
                    "Bags {B} keeps | b - k | count | bags",
                    "{T.many} left | s1 * c | count | {T.many}",
                ],
                solve=lambda v: (v.b - v.k) * v.c,
            ),
        ),
    ),
    Family(
        id="sharing/empty-seats",
        topic="sharing equally",
        slots=dict(A=PERSON, r=count(5, 15), s=count(8, 20), g=count(40, 200)),
        when=lambda v: v.r * v.s > v.g,
        text="The hall where {A} is giving a talk has {r} rows of {s} seats. {g} people come. "
        "How many seats are empty?",
        paraphrases=(
            "{g} people come to {A}'s talk in a hall with {s} seats in each of its {r} rows. "
            "How many seats stay empty?",
            "There are {r} rows with {s} chairs each for {A}'s talk, and {g} guests arrive. "
            "How many chairs are free?",
        ),
        steps=[
            "Seats | r * s | count | seats",
            "Empty | s1 - g | count | seats",
        ],
        solve=lambda v: v.r * v.s - v.g,
        changes=(
            Change(
                "target",
                "The hall where {A} is giving a talk has {r} rows of {s} seats. How many seats "
                "are there?",
                steps=["Seats | r * s | count | seats"],
                solve=lambda v: v.r * v.s,
            ),
            Change(
                "operation",
                "The hall where {A} is giving a talk has {r} rows of {s} seats, all taken, and "
                "{g} more people stand at the back. How many people are there?",
                steps=[
                    "Seated | r * s | count | people",
                    "With those standing | s1 + g | count | people",
                ],
                solve=lambda v: v.r * v.s + v.g,
            ),
            Change(
                "reversed",
                "The hall where {A} is giving a talk has rows of {s} seats. {g} people come and "
                "{e} seats are empty. How many rows are there?",
                derived=dict(e=Derived("r * s - g", "count")),
                steps=[
                    "Seats | g + e | count | seats",
                    "Rows of {s} | s1 / s | count | rows",
                ],
                solve=lambda v: (v.g + v.e) / v.s,
            ),
        ),
    ),
    Family(
        id="sharing/ribbon-pieces",
        topic="unit conversions",
        slots=dict(A=PERSON, L=dec("2.5", 6, "0.5"), p=count(20, 50, 5)),
        when=lambda v: (v.L * 100) % v.p != 0,
        text="{A} has a ribbon {L} meters long and cuts it into pieces of {p} centimeters. How "
        "many whole pieces {A.v[does]} {A.he} get?",
        paraphrases=(
            "A {L}-meter ribbon is cut by {A} into {p}-centimeter pieces. How many full pieces "
            "are there?",
            "How many {p} cm pieces can {A} cut from a ribbon of {L} m?",
        ),
        steps=[
            "{L} meters in centimeters | L * 100 | count | cm",
            "Whole pieces of {p} cm | floor(s1 / p) | count | pieces",
        ],
        solve=lambda v: v.L * 100 // v.p,
        changes=(
            Change(
                "target",
                "{A} has a ribbon {L} meters long and cuts it into pieces of {p} centimeters. How "
                "many centimeters are left over?",
                steps=[
                    "{L} meters in centimeters | L * 100 | count | cm",
                    "Whole pieces of {p} cm | floor(s1 / p) | count | pieces",
                    "Used | s2 * p | count | cm",
                    "Left over | s1 - s3 | count | cm",
                ],
                solve=lambda v: v.L * 100 % v.p,
            ),
            Change(
                "operation",
                "{A} has a ribbon {L} meters long and adds a piece of {p} centimeters. How many "
                "centimeters long is the ribbon now?",
                steps=[
                    "{L} meters in centimeters | L * 100 | count | cm",
                    "With the piece | s1 + p | count | cm",
                ],
                solve=lambda v: v.L * 100 + v.p,
            ),
            Change(
                "added_step",
                "{A} has a ribbon {L} meters long and cuts it into pieces of {p} centimeters. "
                "{A.He} {A.v[ties]} {k} pieces on each gift. How many gifts can {A.he} wrap?",
                slots=dict(k=count(2, 3)),
                steps=[
                    "{L} meters in centimeters | L * 100 | count | cm",
                    "Whole pieces of {p} cm | floor(s1 / p) | count | pieces",
                    "Gifts with {k} pieces each | floor(s2 / k) | count | gifts",
                ],
                solve=lambda v: (v.L * 100 // v.p) // v.k,
            ),
        ),
    ),
    Family(
        id="sharing/prize-money",
        topic="sharing equally",
        slots=dict(A=PERSON, B=PERSON, p=money(60, 300, 30)),
        when=lambda v: (v.p / 3 * 100).denominator == 1,
        text="{A} and {B} win {p} in a quiz. {A} gets twice as much as {B}. How much does {A} get?",
        paraphrases=(
            "A quiz prize of {p} is split between {A} and {B} so that {A}'s part is double "
            "{B}'s. What is {A}'s part?",
            "{B} and {A} share {p} of quiz winnings, {A} taking two shares for each one {B} "
            "takes. How much is {A}'s?",
        ),
        steps=[
            "Shares: 2 for {A}, 1 for {B} | 2 + 1 | count | shares",
            "One share | p / s1 | money",
            "{A} gets two shares | 2 * s2 | money",
        ],
        solve=lambda v: 2 * v.p / 3,
        changes=(
            Change(
                "roles",
                "{A} and {B} win {p} in a quiz. {B} gets twice as much as {A}. How much does {A} "
                "get?",
                steps=[
                    "Shares: 1 for {A}, 2 for {B} | 1 + 2 | count | shares",
                    "{A} gets one share | p / s1 | money",
                ],
                solve=lambda v: v.p / 3,
            ),
            Change(
                "operation",
                "{A} and {B} win {p} in a quiz. {A} gets {k} more than {B}. How much does {A} get?",
                slots=dict(k=money(10, 30, 10)),
                when=lambda v: v.p > v.k and ((v.p - v.k) / 2 * 100).denominator == 1,
                steps=[
                    "Without {A}'s extra | p - k | money",
                    "{B}'s half of that | s1 / 2 | money",
                    "{A} gets {k} more | s2 + k | money",
                ],
                solve=lambda v: (v.p - v.k) / 2 + v.k,
            ),
            Change(
                "target",
                "{A} and {B} win {p} in a quiz. {A} gets twice as much as {B}. How much more "
                "does {A} get than {B}?",
                steps=[
                    "Shares: 2 for {A}, 1 for {B} | 2 + 1 | count | shares",
                    "One share, the difference | p / s1 | money",
                ],
                solve=lambda v: v.p / 3,
            ),
        ),
    ),
    Family(
        id="sharing/pizza-fraction-order",
        topic="fractions of groups",
        slots=dict(A=PERSON, k=count(5, 20), f=frac("1/4", "1/3", "1/2")),
        when=lambda v: (v.k * v.f).denominator != 1,
        text="{A} is ordering pizza for {k} people. Each person eats {f} of a pizza. How many "
        "whole pizzas should {A} order?",
        paraphrases=(
            "Pizza night for {k} people: if each one eats {f} of a pizza, how many pizzas "
            "does {A} need to order?",
            "How many pizzas must {A} order so that {k} people can each have {f} of a pizza?",
        ),
        steps=[
            "Pizza eaten | k * f | number | pizzas",
            "Whole pizzas | ceil(s1) | count | pizzas",
        ],
        solve=lambda v: -(-(v.k * v.f) // 1),
        changes=(
            Change(
                "target",
                "{A} is ordering pizza for {k} people. Each person eats {f} of a pizza. How much "
                "pizza do they eat in all?",
                steps=["Pizza eaten | k * f | number | pizzas"],
                solve=lambda v: v.k * v.f,
            ),
            Change(
                "added_step",
                "{A} is ordering pizza for {k} people. Each person eats {f} of a pizza. Pizzas "
                "cost {p} each. How much does {A} spend on whole pizzas?",
                slots=dict(p=money(8, 14)),
                steps=[
                    "Pizza eaten | k * f | number | pizzas",
                    "Whole pizzas | ceil(s1) | count | pizzas",
                    "Cost | s2 * p | money",
                ],
                solve=lambda v: -(-(v.k * v.f) // 1) * v.p,
            ),
            Change(
                "reversed",
                "{A} orders {w} whole pizzas and each person eats {f} of a pizza. How many "
                "people can {A} feed?",
                derived=dict(w=Derived("ceil(k * f)", "count")),
                steps=["People fed | floor(w / f) | count | people"],
                solve=lambda v: v.w // v.f,
            ),
        ),
    ),
]
