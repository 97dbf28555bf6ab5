"""Word problems whose answer's prose depends on the quantities: conditions and thresholds,
comparisons and choices, rounding, implicit constants, equal quantities, words that carry
computation, swapped values.

Each template is a function of its quantities that returns the request and the answer a
careful model writes (the arithmetic spelled out, then the conclusion in words). A pair binds
the template to two sets of quantities whose conclusions differ.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from tests.security.sound_reuse.cases.common import case, money, num

Template = Callable[..., tuple[str, str]]


def paras(*parts: str) -> str:
    return "\n\n".join(parts)


# -- conditions and thresholds ------------------------------------------------------------------


def free_delivery(n: int, price: int) -> tuple[str, str]:
    prompt = (
        "A bookshop offers free delivery on orders over $50; otherwise delivery costs $6. "
        f"Sam buys {n} books at ${price} each. How much does Sam pay in total?"
    )
    total = n * price
    first = f"{n} books cost {n} \u00d7 {money(price)} = {money(total)}."
    if total > 50:
        return prompt, paras(
            first, f"{money(total)} is over $50, so delivery is free.", f"Sam pays {money(total)}."
        )
    return prompt, paras(
        first,
        f"{money(total)} is not over $50, so Sam pays the $6 delivery fee: "
        f"{money(total)} + $6 = {money(total + 6)}.",
        f"Sam pays {money(total + 6)}.",
    )


def trip_minimum(a: int, b: int, compound: bool = True) -> tuple[str, str]:
    prompt = (
        "A school trip goes ahead only if at least 20 students sign up. "
        f"{a} students signed up on Monday and {b} on Tuesday. "
        + (
            "How many students signed up, and does the trip go ahead?"
            if compound
            else "Does the trip go ahead?"
        )
    )
    s = a + b
    verdict = (
        f"{s} is at least 20, so the trip goes ahead."
        if s >= 20
        else f"{s} is fewer than 20, so the trip does not go ahead."
    )
    return prompt, paras(f"{a} + {b} = {s} students signed up.", verdict)


def lift(people: int, weight: int, compound: bool = True) -> tuple[str, str]:
    prompt = (
        f"A lift can carry at most 600 kg. {people} people who weigh about {weight} kg each "
        "get in. "
        + (
            "How much do they weigh together, and is the lift overloaded?"
            if compound
            else "Is the lift overloaded?"
        )
    )
    t = people * weight
    verdict = (
        f"{t} kg exceeds the 600 kg limit, so the lift is overloaded."
        if t > 600
        else f"{t} kg does not exceed the 600 kg limit, so the lift is not overloaded."
    )
    return prompt, paras(f"{people} \u00d7 {weight} = {t} kg.", verdict)


def zoo_children(a1: int, a2: int) -> tuple[str, str]:
    prompt = (
        "At the zoo, children under 5 get in free and everyone else pays $12. A family "
        f"brings two children aged {a1} and {a2}. How much do the children's tickets cost?"
    )
    parts, paying = [], 0
    for age in (a1, a2):
        if age < 5:
            parts.append(f"The {age}-year-old is under 5, so they get in free.")
        else:
            parts.append(f"The {age}-year-old is not under 5, so they pay $12.")
            paying += 1
    if paying == 2:
        parts.append("The children's tickets cost $12 + $12 = $24.")
    else:
        parts.append(f"The children's tickets cost ${12 * paying}.")
    return prompt, paras(*parts)


def bulk_discount(n: int) -> tuple[str, str]:
    prompt = (
        "Pens cost $2 each, and orders of more than 10 pens get 20% off. "
        f"Tom buys {n} pens. How much does he pay?"
    )
    t = 2 * n
    if n > 10:
        d = Fraction(t) * Fraction(20, 100)
        return prompt, paras(
            f"{n} \u00d7 $2 = {money(t)}.",
            f"{n} is more than 10, so Tom gets 20% off: 20% of {money(t)} is 0.2 \u00d7 {t} = "
            f"{money(d)}.",
            f"{money(t)} - {money(d)} = {money(t - d)}.",
            f"Tom pays {money(t - d)}.",
        )
    return prompt, paras(
        f"{n} \u00d7 $2 = {money(t)}.",
        f"{n} is not more than 10, so there is no discount.",
        f"Tom pays {money(t)}.",
    )


def pass_mark(s1: int, s2: int, s3: int, compound: bool = True) -> tuple[str, str]:
    prompt = (
        f"The pass mark for the quiz is 50 points. Ravi scored {s1}, {s2} and {s3} points in "
        "the three rounds. "
        + (
            "How many points did he score in total, and did he pass?"
            if compound
            else "Did he pass?"
        )
    )
    t = s1 + s2 + s3
    verdict = (
        f"{t} is at least 50, so Ravi passed."
        if t >= 50
        else f"{t} is below 50, so Ravi did not pass."
    )
    return prompt, paras(f"{s1} + {s2} + {s3} = {t} points.", verdict)


def snack_budget(w1: int, w2: int, compound: bool = True) -> tuple[str, str]:
    prompt = (
        f"Our snack budget for the month is $100. We spent ${w1} in the first week and ${w2} "
        "in the second week. "
        + (
            "How much have we spent so far, and are we over budget?"
            if compound
            else "Are we over budget?"
        )
    )
    t = w1 + w2
    verdict = (
        f"${t} is more than the $100 budget, so we are over budget."
        if t > 100
        else f"${t} is under the $100 budget, so we are not over budget."
    )
    return prompt, paras(f"${w1} + ${w2} = ${t}.", verdict)


def battery(flight: int, layover: int, compound: bool = True) -> tuple[str, str]:
    prompt = (
        f"Ana's phone battery lasts 10 hours. Her flight takes {flight} hours and she has a "
        f"{layover}-hour layover. "
        + (
            "How many hours is the trip, and will the battery last without charging?"
            if compound
            else "Will the battery last the whole trip without charging?"
        )
    )
    t = flight + layover
    verdict = (
        f"{t} hours is less than 10 hours, so the battery will last."
        if t < 10
        else f"{t} hours is more than 10 hours, so the battery will not last the whole trip."
    )
    return prompt, paras(f"{flight} + {layover} = {t} hours.", verdict)


def baggage(clothes: int, books: int, compound: bool = True) -> tuple[str, str]:
    prompt = (
        f"The baggage allowance is 23 kg. Liam packs {clothes} kg of clothes and {books} kg of "
        "books. "
        + (
            "How much does his bag weigh, and is it within the allowance?"
            if compound
            else "Is his bag within the allowance?"
        )
    )
    t = clothes + books
    verdict = (
        f"{t} kg is within the 23 kg allowance."
        if t <= 23
        else f"{t} kg is over the 23 kg allowance, so his bag is too heavy."
    )
    return prompt, paras(f"{clothes} + {books} = {t} kg.", verdict)


def voting(born: int, compound: bool = True) -> tuple[str, str]:
    prompt = (
        f"You must be at least 18 to vote. Sara was born in {born} and her birthday has "
        "already passed this year. "
        + (
            "How old is she in 2025, and can she vote in that year's election?"
            if compound
            else "Can she vote in an election held in 2025?"
        )
    )
    age = 2025 - born
    verdict = (
        f"She is {age}, which is at least 18, so she can vote."
        if age >= 18
        else f"She is {age}, which is under 18, so she cannot vote yet."
    )
    return prompt, paras(f"2025 - {born} = {age}.", verdict)


def parking(hours: int) -> tuple[str, str]:
    prompt = (
        "Parking costs $3 an hour, with a flat rate of $10 for stays over 4 hours. "
        f"Ana parks for {hours} hours. How much does she pay?"
    )
    if hours > 4:
        return prompt, paras(
            f"{hours} hours is over 4 hours, so the flat rate applies.", "Ana pays $10."
        )
    return prompt, paras(
        f"{hours} hours is not over 4 hours, so she pays by the hour: "
        f"{hours} \u00d7 $3 = ${3 * hours}.",
        f"Ana pays ${3 * hours}.",
    )


def notebooks_money(have: int, n: int, price: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"Leo has ${have}. He wants {n} notebooks that cost ${price} each. " + (
        "How much do they cost, and does he have enough money?"
        if compound
        else "Does he have enough money?"
    )
    t = n * price
    verdict = (
        f"${t} is not more than ${have}, so Leo has enough money."
        if t <= have
        else f"${t} is more than ${have}, so Leo does not have enough money."
    )
    return prompt, paras(f"{n} \u00d7 ${price} = ${t}.", verdict)


def cafe_table(group: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"Each table at the café seats 8 people. A group of {group} people arrives. " + (
        "How many people are in the group, and can they all sit at one table?"
        if compound
        else "Can they all sit at one table?"
    )
    verdict = (
        f"{group} is more than 8, so they cannot all sit at one table; they need a second one."
        if group > 8
        else f"{group} is not more than 8, so they can all sit at one table."
    )
    return prompt, paras(f"The group has {group} people and a table seats 8.", verdict)


def fuel_tank(km: int, compound: bool = True) -> tuple[str, str]:
    prompt = "Mia's car uses 6 liters of fuel per 100 km and its tank holds 45 liters. " + (
        f"How many liters does a {km} km trip need, and is a full tank enough?"
        if compound
        else f"Is a full tank enough for a {km} km trip?"
    )
    liters = Fraction(km * 6, 100)
    verdict = (
        f"{num(liters)} liters is less than 45 liters, so a full tank is enough."
        if liters <= 45
        else f"{num(liters)} liters is more than 45 liters, so a full tank is not enough."
    )
    return prompt, paras(f"{km} \u00d7 6 / 100 = {num(liters)} liters.", verdict)


def tshirts_shipping(n: int) -> tuple[str, str]:
    prompt = (
        "Shipping is free for orders of more than 3 items; otherwise it costs $4.50. "
        f"Nora orders {n} T-shirts at $9 each. What is her total?"
    )
    t = 9 * n
    if n > 3:
        return prompt, paras(
            f"{n} \u00d7 $9 = ${t}.",
            f"{n} items is more than 3, so shipping is free.",
            f"Nora's total is ${t}.",
        )
    return prompt, paras(
        f"{n} \u00d7 $9 = ${t}.",
        f"{n} items is not more than 3, so shipping costs $4.50: ${t} + $4.50 = {money(t + 4.5)}.",
        f"Nora's total is {money(t + 4.5)}.",
    )


def overtime(hours: int) -> tuple[str, str]:
    prompt = (
        "Workers earn $20 an hour, and hours over 40 in a week are paid at $30 an hour. "
        f"Dan worked {hours} hours this week. How much did he earn?"
    )
    if hours > 40:
        extra = hours - 40
        return prompt, paras(
            "40 \u00d7 $20 = $800 for the first 40 hours.",
            f"{hours} - 40 = {extra} overtime hours, and {extra} \u00d7 $30 = ${30 * extra}.",
            f"$800 + ${30 * extra} = ${800 + 30 * extra}.",
            f"Dan earned ${800 + 30 * extra}.",
        )
    return prompt, paras(
        f"{hours} hours is not over 40, so there is no overtime: "
        f"{hours} \u00d7 $20 = ${20 * hours}.",
        f"Dan earned ${20 * hours}.",
    )


THRESHOLDS: list[tuple[Template, list[tuple[tuple[Any, ...], tuple[Any, ...]]]]] = [
    (free_delivery, [((3, 18), (2, 18)), ((2, 15), (4, 15))]),
    (trip_minimum, [((14, 9), (8, 9)), ((6, 7), (12, 11))]),
    (lift, [((7, 80), (8, 80)), ((9, 75), (6, 75))]),
    (zoo_children, [((3, 7), (6, 7)), ((2, 9), (5, 9))]),
    (bulk_discount, [((12,), (8,)), ((9,), (15,))]),
    (pass_mark, [((18, 15, 20), (18, 15, 12)), ((10, 14, 11), (20, 14, 19))]),
    (snack_budget, [((45, 38), (65, 48)), ((70, 40), (30, 25))]),
    (battery, [((7, 2), (8, 3)), ((9, 4), (5, 3))]),
    (baggage, [((12, 9), (14, 11)), ((15, 10), (11, 7))]),
    (voting, [((2006,), (2008,)), ((2009,), (2001,))]),
    (parking, [((3,), (5,)), ((6,), (2,))]),
    (notebooks_money, [((20, 3, 6), (20, 4, 6)), ((30, 6, 6), (30, 4, 6))]),
    (cafe_table, [((10,), (6,)), ((7,), (11,))]),
    (fuel_tank, [((600,), (900,)), ((800,), (500,))]),
    (tshirts_shipping, [((5,), (2,)), ((3,), (6,))]),
    (overtime, [((36,), (44,)), ((45,), (48,))]),
]


# -- comparisons and choices --------------------------------------------------------------------


def shirts(blue: int, red: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"A blue shirt costs ${blue} and a red shirt costs ${red}. " + (
        "How much do the two shirts cost, and which one is cheaper?"
        if compound
        else "Which shirt is cheaper?"
    )
    if blue < red:
        verdict = f"${blue} is less than ${red}, so the blue shirt is cheaper."
    else:
        verdict = f"${red} is less than ${blue}, so the red shirt is cheaper."
    costs = f"The blue shirt costs ${blue} and the red shirt costs ${red}."
    if compound:
        costs += f" Together they cost ${blue} + ${red} = ${blue + red}."
    return prompt, paras(costs, verdict)


def rolls(na: int, pa: int, nb: int, pb: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"Pack A has {na} rolls for ${pa} and pack B has {nb} rolls for ${pb}. " + (
        "How much does one roll cost in each pack, and which pack is cheaper per roll?"
        if compound
        else "Which pack is cheaper per roll?"
    )
    ua, ub = Fraction(pa, na), Fraction(pb, nb)
    cheaper = "A" if ua < ub else "B"
    return prompt, paras(
        f"Pack A: ${pa} / {na} = {money(ua)} per roll.",
        f"Pack B: ${pb} / {nb} = {money(ub)} per roll.",
        f"Pack {cheaper} is cheaper per roll.",
    )


def laps(n: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"Ana ran {n} laps of a 400 m track and Ben ran 1000 m. " + (
        "How many meters did Ana run, and who ran farther?" if compound else "Who ran farther?"
    )
    d = 400 * n
    verdict = (
        f"{d} m is more than 1000 m, so Ana ran farther."
        if d > 1000
        else f"{d} m is less than 1000 m, so Ben ran farther."
    )
    return prompt, paras(f"Ana ran {n} \u00d7 400 = {d} m.", verdict)


def train_bus(dt: int, ht: int, db: int, hb: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"A train covers {dt} km in {ht} hours and a bus covers {db} km in {hb} hours. " + (
        "How fast does each go, and which is faster?" if compound else "Which is faster?"
    )
    st, sb = Fraction(dt, ht), Fraction(db, hb)
    faster = "train" if st > sb else "bus"
    return prompt, paras(
        f"The train goes {dt} / {ht} = {num(st)} km per hour.",
        f"The bus goes {db} / {hb} = {num(sb)} km per hour.",
        f"The {faster} is faster.",
    )


def rooms(a1: int, a2: int, b1: int, b2: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"Room A is {a1} m by {a2} m and room B is {b1} m by {b2} m. " + (
        "How many square meters is each room, and which one is larger?"
        if compound
        else "Which room has the larger floor area?"
    )
    a, b = a1 * a2, b1 * b2
    return prompt, paras(
        f"Room A: {a1} \u00d7 {a2} = {a} square meters.",
        f"Room B: {b1} \u00d7 {b2} = {b} square meters.",
        f"Room {'A' if a > b else 'B'} is larger.",
    )


def phone_plans(monthly: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"Plan A costs ${monthly} a month and plan B costs $300 a year. " + (
        "How much does plan A cost in a year, and which plan is cheaper?"
        if compound
        else "Which plan is cheaper over a year?"
    )
    year = 12 * monthly
    return prompt, paras(
        f"Plan A: ${monthly} \u00d7 12 = ${year} a year.",
        "Plan B: $300 a year.",
        f"Plan {'A' if year < 300 else 'B'} is cheaper.",
    )


def bus_rides(n: int, compound: bool = True) -> tuple[str, str]:
    prompt = (
        "A single bus ticket costs $2.80 and a day pass costs $8. "
        f"Kim will take {n} rides today. "
        + (
            "How much would single tickets cost, and should she buy them or a day pass?"
            if compound
            else "Should she buy single tickets or a day pass?"
        )
    )
    t = Fraction(28, 10) * n
    verdict = (
        f"{money(t)} is more than $8, so the day pass is cheaper."
        if t > 8
        else f"{money(t)} is less than $8, so single tickets are cheaper."
    )
    return prompt, paras(f"{n} \u00d7 $2.80 = {money(t)}.", verdict)


def born(a: int, b: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"Ana was born in {a} and Ben was born in {b}. " + (
        "How old is each of them in 2025, and who is older?" if compound else "Who is older?"
    )
    if a < b:
        verdict = f"Ana was born in {a}, before Ben ({b}), so Ana is older."
    else:
        verdict = f"Ben was born in {b}, before Ana ({a}), so Ben is older."
    if not compound:
        return prompt, verdict
    return prompt, paras(
        f"In 2025 Ana is 2025 - {a} = {2025 - a} and Ben is 2025 - {b} = {2025 - b}.", verdict
    )


def fruit_prices(apples: int, pears: int, plums: int) -> tuple[str, str]:
    prompt = (
        f"Apples cost ${apples} a kilo, pears ${pears} a kilo and plums ${plums} a kilo. "
        "List them from cheapest to most expensive."
    )
    ordered = sorted([("apples", apples), ("pears", pears), ("plums", plums)], key=lambda x: x[1])
    items = [f"{name} (${price})" for name, price in ordered]
    text = ", ".join(items)
    return prompt, text[0].upper() + text[1:] + "."


def savings(t: int, w: int, s: int, v: int) -> tuple[str, str]:
    prompt = (
        f"Tom saves ${t} a week for {w} weeks. Sara saves ${s} a week for {v} weeks. "
        "Who saves more?"
    )
    tt, ss = t * w, s * v
    return prompt, paras(
        f"Tom: ${t} \u00d7 {w} = ${tt}.",
        f"Sara: ${s} \u00d7 {v} = ${ss}.",
        f"{'Tom' if tt > ss else 'Sara'} saves more.",
    )


def class_vote(yes: int, no: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"In a class vote, {yes} students voted yes and {no} voted no. " + (
        "How many students voted, and did the proposal pass?"
        if compound
        else "Did the proposal pass?"
    )
    if yes > no:
        verdict = f"{yes} is more than {no}, so the proposal passed."
    else:
        verdict = f"{yes} is fewer than {no}, so the proposal did not pass."
    if not compound:
        return prompt, verdict
    return prompt, paras(f"{yes} + {no} = {yes + no} students voted.", verdict)


def closer(ben: int, ana: int, compound: bool = True) -> tuple[str, str]:
    prompt = f"Ben lives {ben} km from school and Ana lives {ana} km from school. " + (
        "How much farther does one live than the other, and who lives closer?"
        if compound
        else "Who lives closer to school?"
    )
    if ben < ana:
        verdict = f"{ben} km is less than {ana} km, so Ben lives closer."
    else:
        verdict = f"{ana} km is less than {ben} km, so Ana lives closer."
    if not compound:
        return prompt, verdict
    far, near = max(ben, ana), min(ben, ana)
    return prompt, paras(f"{far} - {near} = {far - near} km farther.", verdict)


COMPARISONS: list[tuple[Template, list[tuple[tuple[Any, ...], tuple[Any, ...]]]]] = [
    (shirts, [((18, 22), (25, 22)), ((30, 24), (19, 24))]),
    (rolls, [((6, 3, 10, 4), (6, 3, 10, 6)), ((4, 2, 12, 9), (4, 4, 12, 9))]),
    (laps, [((3,), (2,)), ((2,), (4,))]),
    (train_bus, [((180, 2, 150, 3), (180, 4, 150, 3)), ((240, 3, 100, 2), (240, 6, 100, 2))]),
    (rooms, [((4, 5, 3, 6), (4, 5, 3, 8)), ((3, 7, 4, 6), (3, 9, 4, 6))]),
    (phone_plans, [((30,), (20,)), ((22,), (28,))]),
    (bus_rides, [((3,), (2,)), ((2,), (4,))]),
    (born, [((1990, 1995), (1998, 1995)), ((2001, 1996), (1993, 1996))]),
    (fruit_prices, [((3, 2, 4), (1, 2, 4)), ((5, 3, 4), (5, 6, 4))]),
    (savings, [((15, 8, 20, 5), (15, 6, 20, 5)), ((10, 9, 12, 8), (10, 11, 12, 8))]),
    (class_vote, [((14, 11), (9, 11)), ((8, 13), (16, 13))]),
    (closer, [((3, 5), (7, 5)), ((9, 4), (2, 4))]),
]


# -- rounding -----------------------------------------------------------------------------------


def ceil(value: Fraction) -> int:
    return -((-value.numerator) // value.denominator)


def minibuses(students: int, drivers: int) -> tuple[str, str]:
    prompt = (
        f"{students} students and 2 teachers are going on a trip. Each minibus holds 8 people, "
        f"and {drivers} drivers are available. How many minibuses do they need, and are there "
        "enough drivers?"
    )
    people = students + 2
    need = ceil(Fraction(people, 8))
    verdict = (
        f"There are {drivers} drivers, so there are enough drivers."
        if need <= drivers
        else f"There are only {drivers} drivers, so there are not enough drivers."
    )
    return prompt, paras(
        f"{students} + 2 = {people} people.",
        f"{people} / 8 = {num(Fraction(people, 8))}, so they need to round up to {need} minibuses.",
        verdict,
    )


def crates(apples: int, pickers: int) -> tuple[str, str]:
    prompt = (
        f"A farm picks {apples} apples. A crate holds 12 apples and each of the {pickers} "
        "pickers carries one crate to the barn. How many crates are needed, and can the "
        "pickers carry them all in one trip?"
    )
    need = ceil(Fraction(apples, 12))
    verdict = (
        f"With {pickers} pickers carrying one crate each, they can carry them all in one trip."
        if need <= pickers
        else f"With only {pickers} pickers, they cannot carry them all in one trip."
    )
    return prompt, paras(
        f"{apples} / 12 = {num(Fraction(apples, 12))}, so round up to {need} crates.", verdict
    )


def paint(area: int, have: int) -> tuple[str, str]:
    prompt = (
        f"A wall is {area} square meters. One can of paint covers 10 square meters, and Ravi "
        f"already has {have} cans. How many cans does he need, and does he have enough?"
    )
    need = ceil(Fraction(area, 10))
    verdict = (
        f"He has {have} cans, so he has enough."
        if need <= have
        else f"He has only {have} cans, so he does not have enough."
    )
    return prompt, paras(
        f"{area} / 10 = {num(Fraction(area, 10))}, so he needs {need} cans.", verdict
    )


def pizzas(people: int, frozen: int) -> tuple[str, str]:
    prompt = (
        f"{people} people are at a party and each eats 3 slices. A pizza has 8 slices, and "
        f"there are {frozen} pizzas in the freezer. Are there enough pizzas?"
    )
    slices = 3 * people
    need = ceil(Fraction(slices, 8))
    verdict = (
        f"There are {frozen} pizzas in the freezer, so there are enough."
        if need <= frozen
        else f"There are only {frozen} pizzas in the freezer, so there are not enough."
    )
    return prompt, paras(
        f"{people} \u00d7 3 = {slices} slices.",
        f"{slices} / 8 = {num(Fraction(slices, 8))}, so they need {need} pizzas.",
        verdict,
    )


def theatre(guests: int, rows: int) -> tuple[str, str]:
    prompt = (
        f"A theatre row has 20 seats. {guests} guests are coming and {rows} rows are reserved. "
        "How many rows do the guests need, and are the reserved rows enough?"
    )
    need = ceil(Fraction(guests, 20))
    verdict = (
        f"{rows} rows are reserved, so the reserved rows are enough."
        if need <= rows
        else f"Only {rows} rows are reserved, so the reserved rows are not enough."
    )
    return prompt, paras(
        f"{guests} / 20 = {num(Fraction(guests, 20))}, so the guests need {need} rows.", verdict
    )


def ferry(cars: int, trips: int) -> tuple[str, str]:
    prompt = (
        f"A ferry carries 40 cars per trip and makes {trips} trips a day. {cars} cars are "
        "waiting this morning. How many trips are needed, and can all the cars cross today?"
    )
    need = ceil(Fraction(cars, 40))
    verdict = (
        f"The ferry makes {trips} trips a day, so all the cars can cross today."
        if need <= trips
        else f"The ferry makes only {trips} trips a day, so not all the cars can cross today."
    )
    return prompt, paras(
        f"{cars} / 40 = {num(Fraction(cars, 40))}, so {need} trips are needed.", verdict
    )


def tiles(count: int, stock: int) -> tuple[str, str]:
    prompt = (
        f"A floor needs {count} tiles. Tiles come in packs of 25, and the shop has {stock} "
        "packs in stock. How many packs are needed, and does the shop have enough?"
    )
    need = ceil(Fraction(count, 25))
    verdict = (
        f"The shop has {stock} packs, so it has enough."
        if need <= stock
        else f"The shop has only {stock} packs, so it does not have enough."
    )
    return prompt, paras(
        f"{count} / 25 = {num(Fraction(count, 25))}, so {need} packs are needed.", verdict
    )


def loaves(flour: int, tins: int) -> tuple[str, str]:
    prompt = (
        f"A baker has {flour} g of flour and each loaf needs 500 g. She has {tins} tins. "
        "How many whole loaves can the flour make, and are there enough tins for them?"
    )
    whole = flour // 500
    verdict = (
        f"She has {tins} tins, so there are enough tins."
        if whole <= tins
        else f"She has only {tins} tins, so there are not enough tins."
    )
    return prompt, paras(
        f"{flour} / 500 = {num(Fraction(flour, 500))}, so the flour makes {whole} whole loaves.",
        verdict,
    )


ROUNDING: list[tuple[Template, list[tuple[tuple[Any, ...], tuple[Any, ...]]]]] = [
    (minibuses, [((28, 4), (32, 4)), ((36, 5), (42, 5))]),
    (crates, [((45, 4), (55, 4)), ((30, 3), (40, 3))]),
    (paint, [((26, 3), (34, 3)), ((44, 5), (52, 5))]),
    (pizzas, [((12, 5), (14, 5)), ((15, 6), (17, 6))]),
    (theatre, [((55, 3), (65, 3)), ((75, 4), (85, 4))]),
    (ferry, [((230, 6), (250, 6)), ((190, 5), (210, 5))]),
    (tiles, [((160, 7), (180, 7)), ((110, 5), (130, 5))]),
    (loaves, [((2200, 4), (2600, 4)), ((3100, 6), (3600, 6))]),
]


# -- implicit constants equal to a quantity ------------------------------------------------------


def percent_of(count: int, pct: int, thing: str = "cards", who: str = "Mia") -> tuple[str, str]:
    prompt = (
        f"{who} has {count} {thing} and gives away {pct}% of them. "
        f"How many {thing} does {who} give away?"
    )
    r = Fraction(pct * count, 100)
    return prompt, paras(
        f"{pct}% of {count} is {pct}/100 \u00d7 {count} = {num(r)}.",
        f"{who} gives away {num(r)} {thing}.",
    )


def test_score(questions: int, pct: int) -> tuple[str, str]:
    prompt = (
        f"A test has {questions} questions and Ana got {pct}% of them right. "
        "How many questions did she get right?"
    )
    r = Fraction(pct * questions, 100)
    return prompt, paras(
        f"{pct}% of {questions} = {pct}/100 \u00d7 {questions} = {num(r)}.",
        f"Ana got {num(r)} questions right.",
    )


def videos(n: int, minutes: int) -> tuple[str, str]:
    prompt = (
        f"Each video is {minutes} minutes long. Ana watches {n} videos. How many hours is that?"
    )
    total = n * minutes
    return prompt, paras(
        f"{n} \u00d7 {minutes} = {total} minutes.",
        f"{total} / 60 = {num(Fraction(total, 60))} hours.",
    )


def parts_per_minute(rate: int, hours: int) -> tuple[str, str]:
    prompt = f"A machine makes {rate} parts a minute. How many parts does it make in {hours} hours?"
    minutes = 60 * hours
    return prompt, paras(
        f"{hours} hours is {hours} \u00d7 60 = {minutes} minutes.",
        f"{minutes} \u00d7 {rate} = {minutes * rate} parts.",
    )


def pages_weeks(pages: int, weeks: int) -> tuple[str, str]:
    prompt = f"Leo reads {pages} pages a day. How many pages does he read in {weeks} weeks?"
    days = 7 * weeks
    return prompt, paras(
        f"{weeks} weeks is {weeks} \u00d7 7 = {days} days.",
        f"{days} \u00d7 {pages} = {days * pages} pages.",
    )


def gym_days(price: int, weeks: int) -> tuple[str, str]:
    prompt = (
        f"A gym day pass costs ${price}. Ravi goes every day for {weeks} weeks. "
        "How much does he spend?"
    )
    days = 7 * weeks
    return prompt, paras(
        f"{weeks} weeks is {weeks} \u00d7 7 = {days} days.",
        f"{days} \u00d7 ${price} = ${days * price}.",
    )


def monthly_savings(amount: int, years: int) -> tuple[str, str]:
    prompt = f"Sam saves ${amount} a month. How much does he save in {years} years?"
    months = 12 * years
    return prompt, paras(
        f"{years} years is {years} \u00d7 12 = {months} months.",
        f"{months} \u00d7 ${amount} = ${months * amount}.",
    )


def dozens(per_box: int, boxes: int) -> tuple[str, str]:
    prompt = f"A box holds {per_box} eggs. How many dozen eggs are in {boxes} boxes?"
    eggs = per_box * boxes
    return prompt, paras(
        f"{boxes} \u00d7 {per_box} = {eggs} eggs.",
        f"{eggs} / 12 = {num(Fraction(eggs, 12))} dozen.",
    )


def pump(rate: int, days: int) -> tuple[str, str]:
    prompt = f"A pump moves {rate} liters an hour. How many liters does it move in {days} days?"
    hours = 24 * days
    return prompt, paras(
        f"{days} days is {days} \u00d7 24 = {hours} hours.",
        f"{hours} \u00d7 {rate} = {hours * rate} liters.",
    )


def weekly_savings(amount: int) -> tuple[str, str]:
    prompt = f"Maya puts ${amount} into savings every week. How much does she save in a year?"
    return prompt, paras(
        "A year has 52 weeks.",
        f"52 \u00d7 ${amount} = ${52 * amount}.",
        f"Maya saves ${52 * amount}.",
    )


def daily_loaves(per_day: int) -> tuple[str, str]:
    prompt = (
        f"A bakery sells {per_day} loaves a day. "
        "How many loaves does it sell in a year of 365 days?"
    )
    return prompt, paras(f"{per_day} \u00d7 365 = {per_day * 365} loaves.")


def bottles(ml: int, n: int) -> tuple[str, str]:
    prompt = f"Each bottle holds {ml} ml of water. How many liters are in {n} bottles?"
    total = ml * n
    return prompt, paras(
        f"{n} \u00d7 {ml} = {total} ml.", f"{total} / 1000 = {num(Fraction(total, 1000))} liters."
    )


def rice_bags(grams: int, n: int) -> tuple[str, str]:
    prompt = f"A bag of rice weighs {grams} g. How many kilograms do {n} bags weigh?"
    total = grams * n
    return prompt, paras(
        f"{n} \u00d7 {grams} = {total} g.", f"{total} / 1000 = {num(Fraction(total, 1000))} kg."
    )


def socks(price: int, pairs: int) -> tuple[str, str]:
    prompt = (
        f"A pair of socks costs ${price}. How much do {pairs} pairs cost, and how many socks "
        "is that?"
    )
    return prompt, paras(
        f"{pairs} \u00d7 ${price} = ${pairs * price}.",
        f"Each pair has 2 socks: {pairs} \u00d7 2 = {pairs * 2} socks.",
    )


def melons(n: int) -> tuple[str, str]:
    prompt = f"Ana buys {n} melons and cuts each one in half. How many halves does she have?"
    return prompt, paras(f"{n} \u00d7 2 = {2 * n} halves.")


def planks(cm: int, n: int) -> tuple[str, str]:
    prompt = f"A plank is {cm} cm long. How many meters long are {n} planks laid end to end?"
    total = cm * n
    return prompt, paras(
        f"{n} \u00d7 {cm} = {total} cm.", f"{total} / 100 = {num(Fraction(total, 100))} m."
    )


def jars(oz: int, n: int) -> tuple[str, str]:
    prompt = f"A jar of honey weighs {oz} ounces. How many pounds do {n} jars weigh?"
    total = oz * n
    return prompt, paras(
        f"{n} \u00d7 {oz} = {total} ounces.", f"{total} / 16 = {num(Fraction(total, 16))} pounds."
    )


CONSTANTS: list[tuple[Template, list[tuple[tuple[Any, ...], tuple[Any, ...]]]]] = [
    (
        percent_of,
        [((100, 40), (70, 20)), ((100, 25, "marbles", "Leo"), (80, 15, "marbles", "Leo"))],
    ),
    (test_score, [((100, 85), (60, 85)), ((100, 70), (40, 70))]),
    (videos, [((3, 60), (3, 45))]),
    (parts_per_minute, [((60, 2), (45, 2))]),
    (pages_weeks, [((7, 3), (9, 3))]),
    (gym_days, [((7, 2), (5, 2))]),
    (monthly_savings, [((12, 2), (15, 2))]),
    (dozens, [((12, 5), (10, 5))]),
    (pump, [((24, 2), (30, 2))]),
    (weekly_savings, [((52,), (40,))]),
    (daily_loaves, [((365,), (200,))]),
    (bottles, [((1000, 4), (750, 4))]),
    (rice_bags, [((1000, 6), (500, 6))]),
    (socks, [((2, 6), (3, 6))]),
    (melons, [((2,), (5,))]),
    (planks, [((100, 3), (80, 3))]),
    (jars, [((16, 3), (12, 3))]),
]


# -- two equal quantities -------------------------------------------------------------------------


def boys_girls(boys: int, girls: int) -> tuple[str, str]:
    prompt = (
        f"A class has {boys} boys and {girls} girls. 5 boys are absent today. "
        "How many students are in class?"
    )
    present = boys - 5
    return prompt, paras(
        f"{boys} - 5 = {present} boys are in class.",
        f"{present} + {girls} = {present + girls} students are in class.",
    )


def marbles(red: int, blue: int) -> tuple[str, str]:
    prompt = (
        f"Ana has {red} red marbles and {blue} blue marbles. She gives away 2 red marbles and "
        "gets 3 more blue ones. How many red and how many blue marbles does she have now?"
    )
    return prompt, paras(f"Red: {red} - 2 = {red - 2}.", f"Blue: {blue} + 3 = {blue + 3}.")


def pens_pencils(pens: int, pencils: int) -> tuple[str, str]:
    prompt = (
        f"A shop sold {pens} pens and {pencils} pencils on Monday. On Tuesday it sold 5 more "
        "pens than on Monday and 3 fewer pencils. How many of each did it sell on Tuesday?"
    )
    return prompt, paras(
        f"Pens: {pens} + 5 = {pens + 5}.", f"Pencils: {pencils} - 3 = {pencils - 3}."
    )


def wallets(tom: int, ben: int) -> tuple[str, str]:
    prompt = (
        f"Tom has ${tom} and Ben has ${ben}. Tom spends $3 and Ben earns $4. "
        "How much does each of them have now?"
    )
    return prompt, paras(f"Tom: ${tom} - $3 = ${tom - 3}.", f"Ben: ${ben} + $4 = ${ben + 4}.")


def recipe(flour: int, sugar: int) -> tuple[str, str]:
    prompt = (
        f"A recipe uses {flour} cups of flour and {sugar} cups of sugar for 12 cookies. "
        "How much flour and sugar do I need for 36 cookies?"
    )
    return prompt, paras(
        "36 / 12 = 3 batches.",
        f"Flour: 3 \u00d7 {flour} = {3 * flour} cups.",
        f"Sugar: 3 \u00d7 {sugar} = {3 * sugar} cups.",
    )


def rounds(r1: int, r2: int) -> tuple[str, str]:
    prompt = (
        f"Ana scored {r1} points in round 1 and {r2} points in round 2. In round 3 she scored "
        "twice her round 1 score. What is her total?"
    )
    r3 = 2 * r1
    return prompt, paras(
        f"Round 3: 2 \u00d7 {r1} = {r3}.", f"Total: {r1} + {r2} + {r3} = {r1 + r2 + r3} points."
    )


def notebooks_left(money_: int, n: int, price: int) -> tuple[str, str]:
    prompt = (
        f"Mia had ${money_}. She bought {n} notebooks at ${price} each. "
        "How much money does she have left?"
    )
    spent = n * price
    return prompt, paras(
        f"{n} \u00d7 ${price} = ${spent}.", f"${money_} - ${spent} = ${money_ - spent}."
    )


def garden(width: int, length: int) -> tuple[str, str]:
    prompt = (
        f"A garden is {width} m wide and {length} m long. A path 1 m wide runs along its "
        "length on one side. What is the area of the garden plus the path?"
    )
    return prompt, paras(
        f"With the path the width is {width} + 1 = {width + 1} m.",
        f"{width + 1} \u00d7 {length} = {(width + 1) * length} square meters.",
    )


EQUALS: list[tuple[Template, list[tuple[tuple[Any, ...], tuple[Any, ...]]]]] = [
    (boys_girls, [((20, 20), (20, 24)), ((20, 20), (24, 20))]),
    (marbles, [((6, 6), (6, 8)), ((6, 6), (9, 6))]),
    (pens_pencils, [((12, 12), (12, 15)), ((12, 12), (10, 12))]),
    (wallets, [((8, 8), (8, 10)), ((8, 8), (11, 8))]),
    (recipe, [((2, 2), (2, 1)), ((2, 2), (3, 2))]),
    (rounds, [((10, 10), (7, 10)), ((10, 10), (10, 6))]),
    (notebooks_left, [((40, 4, 4), (40, 5, 4)), ((40, 4, 4), (40, 4, 6))]),
    (garden, [((5, 5), (5, 7)), ((5, 5), (8, 5))]),
]


# -- swapped values -----------------------------------------------------------------------------


def goals(ana: int, ben: int) -> tuple[str, str]:
    prompt = (
        f"Ana scored {ana} goals and Ben scored {ben} goals this season. Who scored more, and "
        "how many goals did they score together?"
    )
    who = "Ana" if ana > ben else "Ben"
    return prompt, paras(f"{ana} + {ben} = {ana + ben} goals together.", f"{who} scored more.")


def boxes(red: int, green: int) -> tuple[str, str]:
    prompt = (
        f"A red box weighs {red} kg and a green box weighs {green} kg. The heavier box goes at "
        "the bottom of the stack. Which box goes at the bottom, and what do they weigh together?"
    )
    bottom = "red" if red > green else "green"
    return prompt, paras(
        f"{red} + {green} = {red + green} kg together.", f"The {bottom} box goes at the bottom."
    )


def afford(mia: int, leo: int) -> tuple[str, str]:
    prompt = f"Mia has ${mia} and Leo has ${leo}. A concert ticket costs $30. Who can afford it?"
    parts = []
    for name, amount in (("Mia", mia), ("Leo", leo)):
        if amount >= 30:
            parts.append(f"{name} has ${amount}, which is at least $30, so {name} can afford it.")
        else:
            parts.append(f"{name} has ${amount}, which is less than $30, so {name} cannot.")
    return prompt, paras(*parts)


def trains(a: int, b: int) -> tuple[str, str]:
    prompt = (
        f"Train A leaves at 9:00 and takes {a} hours. Train B leaves at 10:00 and takes {b} "
        "hours. Which train arrives first?"
    )
    arrive_a, arrive_b = 9 + a, 10 + b
    first = "A" if arrive_a < arrive_b else "B"
    return prompt, paras(
        f"Train A arrives at 9 + {a} = {arrive_a}:00.",
        f"Train B arrives at 10 + {b} = {arrive_b}:00.",
        f"Train {first} arrives first.",
    )


def ages(ana: int, ben: int) -> tuple[str, str]:
    prompt = f"Ana is {ana} and Ben is {ben}. Who is older, and how old will each be in 5 years?"
    older = "Ana" if ana > ben else "Ben"
    return prompt, paras(
        f"In 5 years Ana will be {ana} + 5 = {ana + 5} and Ben will be {ben} + 5 = {ben + 5}.",
        f"{older} is older.",
    )


SWAPS: list[tuple[Template, list[tuple[tuple[Any, ...], tuple[Any, ...]]]]] = [
    (goals, [((7, 9), (9, 7)), ((12, 4), (4, 12))]),
    (boxes, [((12, 15), (15, 12))]),
    (afford, [((25, 40), (40, 25))]),
    (trains, [((3, 1), (1, 3))]),
    (ages, [((12, 9), (9, 12))]),
]


# -- words that carry computation ------------------------------------------------------------

INSTRUCTION_WORD_PAIRS: list[tuple[str, str, str, str]] = [
    (
        "Lily buys 3 notebooks for $6. How much does she spend?",
        "Lily spends $6.",
        "Lily buys 3 notebooks for $6 each. How much does she spend?",
        paras("3 \u00d7 $6 = $18.", "Lily spends $18."),
    ),
    (
        "Lily buys 4 notebooks for $5 each. How much does she spend?",
        paras("4 \u00d7 $5 = $20.", "Lily spends $20."),
        "Lily buys 4 notebooks for $5. How much does she spend?",
        "Lily spends $5.",
    ),
    (
        "Tom orders 4 pizzas and pays $12 each. How much does he pay in total?",
        paras("4 \u00d7 $12 = $48.", "Tom pays $48 in total."),
        "Tom orders 4 pizzas and pays $12. How much does he pay in total?",
        "Tom pays $12 in total.",
    ),
    (
        "5 boxes weigh 20 kg. What is the total weight?",
        "The total weight is 20 kg.",
        "5 boxes weigh 20 kg each. What is the total weight?",
        paras("5 \u00d7 20 = 100 kg.", "The total weight is 100 kg."),
    ),
    (
        "A worker earns $90 per day for 5 days. How much does he earn?",
        paras("5 \u00d7 $90 = $450.", "He earns $450."),
        "A worker earns $90 for 5 days. How much does he earn?",
        "He earns $90.",
    ),
    (
        "A tour costs $8 per person for a group of 5. What is the total cost?",
        paras("5 \u00d7 $8 = $40.", "The total cost is $40."),
        "A tour costs $8 for a group of 5. What is the total cost?",
        "The total cost is $8.",
    ),
    (
        "Ben has 4 bags with 6 apples each. How many apples does he have?",
        paras("4 \u00d7 6 = 24 apples.", "Ben has 24 apples."),
        "Ben has 4 bags with 6 apples. How many apples does he have?",
        "Ben has 6 apples.",
    ),
    (
        "Ana has 6 stickers and Ben has twice as many. How many stickers do they have together?",
        paras("Ben has 2 \u00d7 6 = 12 stickers.", "6 + 12 = 18 stickers together."),
        "Ana has 6 stickers and Ben has as many. How many stickers do they have together?",
        paras("Ben has 6 stickers.", "6 + 6 = 12 stickers together."),
    ),
    (
        "There are 3 classes with 25 students in each. How many students are there?",
        paras("3 \u00d7 25 = 75 students.", "There are 75 students."),
        "There are 3 classes with 25 students. How many students are there?",
        "There are 25 students.",
    ),
    (
        "A school buys 12 tablets and pays $300 for each. What is the total cost?",
        paras("12 \u00d7 $300 = $3600.", "The total cost is $3600."),
        "A school buys 12 tablets and pays $300. What is the total cost?",
        "The total cost is $300.",
    ),
    (
        "Ana, Ben and Cal each have 7 marbles. How many marbles do they have?",
        paras("3 \u00d7 7 = 21 marbles.", "They have 21 marbles."),
        "Ana, Ben and Cal have 7 marbles. How many marbles do they have?",
        "They have 7 marbles.",
    ),
    (
        "A plumber charges $60 per hour for a 3-hour job. How much is the bill?",
        paras("3 \u00d7 $60 = $180.", "The bill is $180."),
        "A plumber charges $60 for a 3-hour job. How much is the bill?",
        "The bill is $60.",
    ),
    (
        "A printer prints 30 pages per minute for 4 minutes. How many pages does it print?",
        paras("4 \u00d7 30 = 120 pages.", "It prints 120 pages."),
        "A printer prints 30 pages in 4 minutes. How many pages does it print?",
        "It prints 30 pages.",
    ),
    (
        "Tickets cost $15 for a family of 4. How much does the family pay?",
        "The family pays $15.",
        "Tickets cost $15 each for a family of 4. How much does the family pay?",
        paras("4 \u00d7 $15 = $60.", "The family pays $60."),
    ),
    (
        "Kim runs 5 km a day for 6 days. How far does she run?",
        paras("6 \u00d7 5 = 30 km.", "Kim runs 30 km."),
        "Kim runs 5 km in 6 days. How far does she run?",
        "Kim runs 5 km.",
    ),
    (
        "A crate holds 24 bottles. A shop gets 5 crates. How many bottles does it get?",
        paras("5 \u00d7 24 = 120 bottles.", "The shop gets 120 bottles."),
        "A crate holds 24 bottles. A shop gets 5 crates for each day. How many bottles does it "
        "get?",
        paras("5 \u00d7 24 = 120 bottles a day.", "The shop gets 120 bottles each day."),
    ),
    (
        "Nina pays $45 for 3 lessons. How much does she pay?",
        "Nina pays $45.",
        "Nina pays $45 per lesson for 3 lessons. How much does she pay?",
        paras("3 \u00d7 $45 = $135.", "Nina pays $135."),
    ),
    (
        "A bus ticket costs $3 and 8 friends travel together. How much do the tickets cost?",
        paras("8 \u00d7 $3 = $24.", "The tickets cost $24."),
        "A bus ticket costs $3 for 8 friends travelling together. How much do the tickets cost?",
        "The tickets cost $3.",
    ),
]


def _expand(
    cls: str,
    prefix: str,
    table: list[tuple[Template, list[tuple[tuple[Any, ...], tuple[Any, ...]]]]],
) -> Iterator[dict[str, Any]]:
    """Every pair of every template; a template that can also ask only the yes/no question
    (``compound=False``) gives its first pair in that form too."""
    n = 0
    for template, pairs in table:
        forms: list[dict[str, Any]] = [{}]
        if "compound" in inspect.signature(template).parameters:
            forms.append({"compound": False})
        for index, (old, new) in enumerate(pairs):
            for form in forms if index == 0 else forms[:1]:
                n += 1
                p1, a1 = template(*old, **form)
                p2, a2 = template(*new, **form)
                if a1 == a2 or p1 == p2:
                    raise ValueError(f"{template.__name__}{old}->{new} is not a change")
                yield case(f"{prefix}-{n:03d}", cls, p1, a1, p2, a2)


# -- a rule stated in the system prompt ----------------------------------------------------

SYSTEM_RULES: list[tuple[str, str, str, str, str]] = [
    (
        "You are the assistant of an online bookshop. Orders over $50 ship free; otherwise "
        "shipping is $6.",
        "I'm buying 3 books at $18 each. How much will I pay in total?",
        paras("3 \u00d7 $18 = $54.", "$54 is over $50, so shipping is free.", "You pay $54."),
        "I'm buying 2 books at $18 each. How much will I pay in total?",
        paras(
            "2 \u00d7 $18 = $36.",
            "$36 is not over $50, so shipping is $6: $36 + $6 = $42.",
            "You pay $42.",
        ),
    ),
    (
        "You help staff of a gym. Members who visit at least 12 times a month get a free "
        "protein shake.",
        "Lea came 3 times a week for 4 weeks. How many visits is that, and does she get the "
        "free shake?",
        paras("3 \u00d7 4 = 12 visits.", "12 is at least 12, so Lea gets the free shake."),
        "Lea came 2 times a week for 4 weeks. How many visits is that, and does she get the "
        "free shake?",
        paras("2 \u00d7 4 = 8 visits.", "8 is fewer than 12, so Lea does not get the free shake."),
    ),
    (
        "You are a payroll assistant. Overtime is paid for hours above 40 in a week.",
        "Omar worked 9 hours a day for 5 days. How many hours is that, and does he get overtime?",
        paras("9 \u00d7 5 = 45 hours.", "45 is above 40, so Omar gets overtime."),
        "Omar worked 7 hours a day for 5 days. How many hours is that, and does he get overtime?",
        paras("7 \u00d7 5 = 35 hours.", "35 is not above 40, so Omar does not get overtime."),
    ),
]


# -- a changed question target, or a negation inside a word ---------------------------------

TARGETS: list[tuple[str, str, str, str]] = [
    (
        "A theatre has 240 seats and sold 185 tickets. How many tickets are unsold?",
        paras("240 - 185 = 55.", "55 tickets are unsold."),
        "A theatre has 240 seats and sold 185 tickets. How many tickets are sold?",
        "185 tickets are sold.",
    ),
    (
        "A class has 28 students and 5 are absent. How many students are present?",
        paras("28 - 5 = 23.", "23 students are present."),
        "A class has 28 students and 5 are absent. How many students are absent?",
        "5 students are absent.",
    ),
    (
        "A bus has 40 seats and 26 are occupied. How many seats are unoccupied?",
        paras("40 - 26 = 14.", "14 seats are unoccupied."),
        "A bus has 40 seats and 26 are occupied. How many seats are occupied?",
        "26 seats are occupied.",
    ),
    (
        "A jacket costs $80 before a 25% discount. How much is the discount?",
        paras("25% of $80 = 0.25 \u00d7 80 = $20.", "The discount is $20."),
        "A jacket costs $80 before a 25% discount. How much is the jacket after the discount?",
        paras("25% of $80 = 0.25 \u00d7 80 = $20.", "$80 - $20 = $60.", "The jacket costs $60."),
    ),
    (
        "Four friends share a $48 bill equally. How much does each friend pay?",
        paras("$48 / 4 = $12.", "Each friend pays $12."),
        "Four friends share a $48 bill equally. How much do the friends pay in total?",
        "The friends pay $48 in total.",
    ),
    (
        "Nina had $50 and spent $18 on a book. How much money does she have left?",
        paras("$50 - $18 = $32.", "Nina has $32 left."),
        "Nina had $50 and spent $18 on a book. How much money did she spend?",
        "Nina spent $18.",
    ),
    (
        "Of 60 eggs in a crate, 7 are broken. How many eggs are not broken?",
        paras("60 - 7 = 53.", "53 eggs are not broken."),
        "Of 60 eggs in a crate, 7 are broken. How many eggs are broken?",
        "7 eggs are broken.",
    ),
    (
        "A project has 36 tasks and 29 are complete. How many tasks are incomplete?",
        paras("36 - 29 = 7.", "7 tasks are incomplete."),
        "A project has 36 tasks and 29 are complete. How many tasks are complete?",
        "29 tasks are complete.",
    ),
]


def all_cases() -> Iterator[dict[str, Any]]:
    yield from _expand("wp_condition_threshold", "wp-threshold", THRESHOLDS)
    for n, (system, p1, a1, p2, a2) in enumerate(SYSTEM_RULES, start=1):
        yield case(f"wp-system-{n:03d}", "wp_condition_threshold", p1, a1, p2, a2, system=system)
    for n, (p1, a1, p2, a2) in enumerate(TARGETS, start=1):
        yield case(f"wp-target-{n:03d}", "wp_changed_question_target", p1, a1, p2, a2)
    yield from _expand("wp_comparison_choice", "wp-choice", COMPARISONS)
    yield from _expand("wp_rounding", "wp-rounding", ROUNDING)
    yield from _expand("wp_implicit_constant", "wp-constant", CONSTANTS)
    yield from _expand("wp_equal_quantities", "wp-equal", EQUALS)
    yield from _expand("wp_swapped_values", "wp-swap", SWAPS)
    for n, (p1, a1, p2, a2) in enumerate(INSTRUCTION_WORD_PAIRS, start=1):
        yield case(f"wp-words-{n:03d}", "wp_computation_words", p1, a1, p2, a2)
