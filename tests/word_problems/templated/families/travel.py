"""Travel, time, rates and unit conversions."""

from __future__ import annotations

from tests.word_problems.templated.model import (
    PERSON,
    Change,
    Derived,
    Family,
    count,
    dec,
    mixed,
    money,
    pct,
    thing,
)

FAMILIES = [
    Family(
        id="travel/distance-at-speed",
        topic="travel",
        slots=dict(A=PERSON, C=thing("city"), s=count(40, 90, 5), t=dec("1.5", 5, "0.5")),
        text="{A} drives to {C} at {s} kilometers per hour for {t} hours. How far {A.v[does]} "
        "{A.he} "
        "drive?",
        paraphrases=(
            "On the way to {C}, {A} keeps a steady {s} km per hour for {t} hours. What "
            "distance {A.v[does]} {A.he} cover?",
            "How many kilometers is the drive to {C} if {A} travels {t} hours at {s} kilometers "
            "an hour?",
        ),
        steps=["{t} hours at {s} km/h | t[hours] * s[km/h] | number | km"],
        solve=lambda v: v.s * v.t,
        changes=(
            Change(
                "reversed",
                "{A} drives {d} kilometers to {C} at {s} kilometers per hour. How many hours "
                "does the drive take?",
                derived=dict(d=Derived("s * t", "decimal")),
                steps=["{d} km at {s} km/h | d / s | number | hours"],
                solve=lambda v: v.d / v.s,
            ),
            Change(
                "added_step",
                "{A} drives to {C} at {s} kilometers per hour for {t} hours, then walks {w} "
                "kilometers to the hotel. How far {A.v[does]} {A.he} travel?",
                slots=dict(w=dec(1, 3, "0.5")),
                steps=[
                    "{t} hours at {s} km/h | t[hours] * s[km/h] | number | km",
                    "With the walk | s1 + w | number | km",
                ],
                solve=lambda v: v.s * v.t + v.w,
            ),
            Change(
                "target",
                "{A} drives to {C} at {s} kilometers per hour for {t} hours. How many minutes "
                "{A.v[does]} {A.he} drive?",
                steps=["{t} hours in minutes | t * 60 | count | minutes"],
                solve=lambda v: v.t * 60,
            ),
        ),
    ),
    Family(
        id="travel/trip-time-minutes",
        topic="time",
        slots=dict(A=PERSON, C=thing("city"), d=count(30, 240, 10), s=count(40, 80, 10)),
        when=lambda v: (v.d * 60 / v.s).denominator == 1,
        text="The train {A} takes to {C} covers {d} kilometers at an average of {s} kilometers "
        "per hour. How many minutes does the trip take?",
        paraphrases=(
            "{A} rides a train {d} km to {C}. It averages {s} km/h. How long is the trip in "
            "minutes?",
            "At {s} kilometers per hour, how many minutes does {A}'s {d}-kilometer train ride "
            "to {C} last?",
        ),
        steps=[
            "Hours for {d} km at {s} km/h | d / s | number | hours",
            "In minutes | s1 * 60 | count | minutes",
        ],
        solve=lambda v: v.d / v.s * 60,
        changes=(
            Change(
                "target",
                "The train {A} takes to {C} covers {d} kilometers at an average of {s} "
                "kilometers per hour. How many hours does the trip take?",
                steps=["Hours for {d} km at {s} km/h | d / s | number | hours"],
                solve=lambda v: v.d / v.s,
            ),
            Change(
                "added_step",
                "The train {A} takes to {C} covers {d} kilometers at an average of {s} "
                "kilometers per hour and stops for {w} minutes on the way. How many minutes "
                "does the trip take?",
                slots=dict(w=count(5, 20, 5)),
                steps=[
                    "Hours for {d} km at {s} km/h | d / s | number | hours",
                    "Moving, in minutes | s1 * 60 | count | minutes",
                    "With the stop | s2 + w | count | minutes",
                ],
                solve=lambda v: v.d / v.s * 60 + v.w,
            ),
            Change(
                "reversed",
                "The train {A} takes to {C} covers {d} kilometers in {m} minutes. What is its "
                "average speed in kilometers per hour?",
                derived=dict(m=Derived("d / s * 60", "count")),
                steps=[
                    "{m} minutes in hours | m / 60 | number | hours",
                    "Speed | d / s1 | number | km/h",
                ],
                solve=lambda v: v.d / (v.m / 60),
            ),
        ),
    ),
    Family(
        id="travel/fuel-cost",
        topic="travel",
        slots=dict(
            A=PERSON,
            C=thing("city"),
            d=count(100, 600, 50),
            u=count(5, 9),
            c=money("1.5", 2, "0.1"),
        ),
        text="{A} drives {d} kilometers to {C}. The car uses {u} liters of fuel per 100 "
        "kilometers, and fuel costs {c} per liter. How much does the fuel cost?",
        paraphrases=(
            "For a {d} km trip to {C}, {A}'s car burns {u} liters every 100 km. At {c} a liter, "
            "what is the fuel bill?",
            "Fuel is {c} per liter and {A}'s car needs {u} liters per 100 kilometers. What "
            "does the {d}-kilometer drive to {C} cost in fuel?",
        ),
        steps=[
            "Fuel used | d / 100 * u | number | liters",
            "Fuel cost at {c} a liter | s1 * c | money",
        ],
        solve=lambda v: v.d / 100 * v.u * v.c,
        changes=(
            Change(
                "target",
                "{A} drives {d} kilometers to {C}. The car uses {u} liters of fuel per 100 "
                "kilometers. How many liters of fuel does the trip use?",
                steps=["Fuel used | d / 100 * u | number | liters"],
                solve=lambda v: v.d / 100 * v.u,
            ),
            Change(
                "added_step",
                "{A} drives {d} kilometers to {C} and back. The car uses {u} liters of fuel per "
                "100 kilometers, and fuel costs {c} per liter. How much does the fuel cost?",
                steps=[
                    "There and back | 2 * d | count | km",
                    "Fuel used | s1 / 100 * u | number | liters",
                    "Fuel cost at {c} a liter | s2 * c | money",
                ],
                solve=lambda v: 2 * v.d / 100 * v.u * v.c,
            ),
            Change(
                "operation",
                "{A} drives {d} kilometers to {C}. The car uses {u} liters of fuel per 100 "
                "kilometers, and {A} shares the fuel cost of {c} per liter equally with one "
                "friend. How much does {A} pay?",
                when=lambda v: (v.d / 100 * v.u * v.c / 2 * 100).denominator == 1,
                steps=[
                    "Fuel used | d / 100 * u | number | liters",
                    "Fuel cost at {c} a liter | s1 * c | money",
                    "{A}'s half | s2 / 2 | money",
                ],
                solve=lambda v: v.d / 100 * v.u * v.c / 2,
            ),
        ),
    ),
    Family(
        id="travel/commute-week",
        topic="travel",
        slots=dict(A=PERSON, d=dec("2.5", 12, "0.5"), k=count(3, 6)),
        text="{A} rides a bike {d} kilometers to work and the same way back, {k} days a week. "
        "How many kilometers {A.v[does]} {A.he} ride in a week?",
        paraphrases=(
            "Work is {d} km from {A}'s home. {A.He} {A.v[cycles]} there and back {k} days each "
            "week. What is the weekly distance?",
            "How far does {A} cycle in a week, riding {d} kilometers each way to work on {k} days?",
        ),
        steps=[
            "One day there and back | 2 * d | number | km",
            "For {k} days | k * s1 | number | km",
        ],
        solve=lambda v: 2 * v.d * v.k,
        changes=(
            Change(
                "operation",
                "{A} rides a bike {d} kilometers to work, {k} days a week, and takes the bus "
                "home. How many kilometers {A.v[does]} {A.he} ride in a week?",
                steps=["{k} rides of {d} km | k * d | number | km"],
                solve=lambda v: v.d * v.k,
            ),
            Change(
                "added_step",
                "{A} rides a bike {d} kilometers to work and the same way back, {k} days a week. "
                "How many kilometers {A.v[does]} {A.he} ride in {w} weeks?",
                slots=dict(w=count(2, 4)),
                steps=[
                    "One day there and back | 2 * d | number | km",
                    "For {k} days | k * s1 | number | km",
                    "For {w} weeks | w * s2 | number | km",
                ],
                solve=lambda v: 2 * v.d * v.k * v.w,
            ),
            Change(
                "reversed",
                "{A} rides a bike to work and the same way back, {k} days a week, {t} "
                "kilometers in all each week. How far is work?",
                derived=dict(t=Derived("2 * d * k", "decimal")),
                steps=[
                    "Each day | t / k | number | km",
                    "One way | s1 / 2 | number | km",
                ],
                solve=lambda v: v.t / v.k / 2,
            ),
        ),
    ),
    Family(
        id="travel/buses-needed",
        topic="travel",
        slots=dict(
            A=PERSON, V=thing("vehicle"), n=count(50, 250), c=count(20, 50, 5), p=money(80, 200, 10)
        ),
        when=lambda v: v.n % v.c != 0,
        text="{A} is organising a trip for {n} people. Each {V.one} holds {c} people and costs "
        "{p} to hire. How much {A.v[does]} {A.he} spend on {V.many}?",
        paraphrases=(
            "A trip for {n} people needs {V.many} that seat {c} each, at {p} per {V.one}. What "
            "does {A} pay for them?",
            "{A} hires {V.many} ({c} seats, {p} each) to carry {n} people. What is the cost?",
        ),
        steps=[
            "{V.many} for {n} people | ceil(n / c) | count | {V.many}",
            "Hire cost | s1 * p | money",
        ],
        solve=lambda v: -(-v.n // v.c) * v.p,
        changes=(
            Change(
                "target",
                "{A} is organising a trip for {n} people. Each {V.one} holds {c} people. How "
                "many empty seats will there be?",
                steps=[
                    "{V.many} for {n} people | ceil(n / c) | count | {V.many}",
                    "Seats | s1 * c | count | seats",
                    "Empty | s2 - n | count | seats",
                ],
                solve=lambda v: -(-v.n // v.c) * v.c - v.n,
            ),
            Change(
                "added_step",
                "{A} is organising a trip for {n} people. Each {V.one} holds {c} people and "
                "costs {p} to hire. The cost is split equally among the {n} people. How much "
                "does each person pay?",
                when=lambda v: (-(-v.n // v.c) * v.p / v.n * 100).denominator == 1,
                steps=[
                    "{V.many} for {n} people | ceil(n / c) | count | {V.many}",
                    "Hire cost | s1 * p | money",
                    "Each person's part | s2 / n | money",
                ],
                solve=lambda v: -(-v.n // v.c) * v.p / v.n,
            ),
            Change(
                "operation",
                "{A} has {p} to hire {V.many} for a trip. Each {V.one} holds {c} people and costs "
                "{h}. How many people can go?",
                slots=dict(h=money(30, 70, 10)),
                steps=[
                    "{V.many} {A} can hire | floor(p / h) | count | {V.many}",
                    "People | s1 * c | count | people",
                ],
                solve=lambda v: v.p // v.h * v.c,
            ),
        ),
    ),
    Family(
        id="travel/average-speed",
        topic="rates",
        slots=dict(
            A=PERSON, a=count(60, 180, 20), t=count(2, 3), b=count(40, 160, 20), u=count(2, 3)
        ),
        when=lambda v: ((v.a + v.b) / (v.t + v.u) * 2).denominator == 1,
        text="{A} cycles {a} kilometers in {t} hours, rests, then cycles {b} kilometers in {u} "
        "hours. What is {A.his} average speed while cycling, in kilometers per hour?",
        paraphrases=(
            "On a two-part ride {A} does {a} km in {t} hours and then {b} km in {u} hours. "
            "Average speed over the cycling time?",
            "What average speed, in km per hour, does {A} keep over a ride of {a} km ({t} "
            "hours) followed by {b} km ({u} hours)?",
        ),
        steps=[
            "Distance | a + b | count | km",
            "Time cycling | t + u | count | hours",
            "Average speed | s1 / s2 | number | km/h",
        ],
        solve=lambda v: (v.a + v.b) / (v.t + v.u),
        changes=(
            Change(
                "target",
                "{A} cycles {a} kilometers in {t} hours, rests, then cycles {b} kilometers in "
                "{u} hours. How far {A.v[does]} {A.he} cycle in all?",
                steps=["Distance | a + b | count | km"],
                solve=lambda v: v.a + v.b,
            ),
            Change(
                "operation",
                "{A} cycles {a} kilometers in {t} hours. What is {A.his} speed on that part, in "
                "kilometers per hour?",
                when=lambda v: (v.a / v.t * 2).denominator == 1,
                steps=["Speed | a / t | number | km/h"],
                solve=lambda v: v.a / v.t,
            ),
            Change(
                "added_step",
                "{A} cycles {a} kilometers in {t} hours, rests for {r} hours, then cycles {b} "
                "kilometers in {u} hours. What is {A.his} average speed over the whole trip, "
                "rest included, in kilometers per hour?",
                slots=dict(r=count(2, 3)),
                when=lambda v: ((v.a + v.b) / (v.t + v.u + v.r) * 4).denominator == 1,
                steps=[
                    "Distance | a + b | count | km",
                    "Time with the rest | t + u + r | count | hours",
                    "Average speed | s1 / s2 | number | km/h",
                ],
                solve=lambda v: (v.a + v.b) / (v.t + v.u + v.r),
            ),
        ),
    ),
    Family(
        id="travel/luggage-allowance",
        topic="travel",
        slots=dict(
            A=PERSON,
            L=count(15, 30),
            s=dec("2.5", 5, "0.5"),
            n=count(3, 8),
            w=dec("0.5", "1.5", "0.25"),
        ),
        when=lambda v: v.s + v.n * v.w < v.L,
        text="{A}'s suitcase may weigh {L} kilograms. The empty case weighs {s} kilograms, "
        "and {A.he} {A.v[packs]} {n} items of {w} kilograms each. How many more kilograms "
        "can {A.he} pack?",
        paraphrases=(
            "The airline allows {A} {L} kg. {A.His} case weighs {s} kg empty and holds {n} "
            "items of {w} kg. How much more weight is allowed?",
            "With a limit of {L} kilograms, a {s}-kilogram case and {n} items weighing {w} "
            "kilograms each, how many kilograms does {A} have to spare?",
        ),
        steps=[
            "The items weigh | n * w | number | kg",
            "Case and items | s + s1 | number | kg",
            "Still allowed | L - s2 | number | kg",
        ],
        solve=lambda v: v.L - v.s - v.n * v.w,
        changes=(
            Change(
                "target",
                "{A}'s suitcase may weigh {L} kilograms. The empty case weighs {s} kilograms, "
                "and {A.he} {A.v[packs]} {n} items of {w} kilograms each. How much does the "
                "packed case weigh?",
                steps=[
                    "The items weigh | n * w | number | kg",
                    "Case and items | s + s1 | number | kg",
                ],
                solve=lambda v: v.s + v.n * v.w,
            ),
            Change(
                "reversed",
                "{A}'s suitcase may weigh {L} kilograms. The empty case weighs {s} kilograms. "
                "How many items of {w} kilograms can {A.he} pack?",
                steps=[
                    "Room for items | L - s | number | kg",
                    "Items of {w} kg | floor(s1 / w) | count | items",
                ],
                solve=lambda v: (v.L - v.s) // v.w,
            ),
            Change(
                "operation",
                "{A}'s suitcase weighs {s} kilograms empty, and {A.he} {A.v[packs]} {n} items of "
                "{w} kilograms each, then takes out one of them. How much does the case weigh?",
                steps=[
                    "Items left | n - 1 | count | items",
                    "They weigh | s1 * w | number | kg",
                    "With the case | s + s2 | number | kg",
                ],
                solve=lambda v: v.s + (v.n - 1) * v.w,
            ),
        ),
    ),
    Family(
        id="travel/hotel-stay",
        topic="travel",
        slots=dict(A=PERSON, C=thing("city"), n=count(2, 7), r=money(60, 150, 10), t=pct(5, 15, 5)),
        text="{A} stays {n} nights at a hotel in {C} at {r} a night. A tax of {t} is added to "
        "the bill. What does {A} pay?",
        paraphrases=(
            "A hotel in {C} charges {r} per night plus {t} tax. {A} stays {n} nights. What is "
            "the bill?",
            "What is {A}'s hotel bill in {C} for {n} nights at {r} each, with {t} tax on top?",
        ),
        steps=[
            "Nights | n * r | money",
            "Tax of {t} | t% * s1 | money",
            "Bill | s1 + s2 | money",
        ],
        solve=lambda v: v.n * v.r * (1 + v.t / 100),
        changes=(
            Change(
                "target",
                "{A} stays {n} nights at a hotel in {C} at {r} a night. A tax of {t} is added "
                "to the bill. How much is the tax?",
                steps=["Nights | n * r | money", "Tax of {t} | t% * s1 | money"],
                solve=lambda v: v.n * v.r * v.t / 100,
            ),
            Change(
                "operation",
                "{A} stays {n} nights at a hotel in {C} at {r} a night and gets {t} off the "
                "bill as a member. What does {A} pay?",
                steps=[
                    "Nights | n * r | money",
                    "Member discount of {t} | t% * s1 | money",
                    "Bill | s1 - s2 | money",
                ],
                solve=lambda v: v.n * v.r * (1 - v.t / 100),
            ),
            Change(
                "added_step",
                "{A} stays {n} nights at a hotel in {C} at {r} a night, plus {b} a night for "
                "breakfast. A tax of {t} is added to the bill. What does {A} pay?",
                slots=dict(b=money(10, 20, 10)),
                steps=[
                    "Each night with breakfast | r + b | money",
                    "Nights | n * s1 | money",
                    "Tax of {t} | t% * s2 | money",
                    "Bill | s2 + s3 | money",
                ],
                solve=lambda v: v.n * (v.r + v.b) * (1 + v.t / 100),
            ),
        ),
    ),
    Family(
        id="travel/two-legs-minutes",
        topic="time",
        slots=dict(
            A=PERSON,
            C=thing("city"),
            a=count(15, 50, 5),
            w=count(10, 30, 5),
            h=mixed("1.25", 3, "0.25"),
        ),
        text="To get to {C}, {A} takes a {a}-minute bus ride, waits {w} minutes, and then "
        "rides a train for {h} hours. How many minutes does the journey take?",
        paraphrases=(
            "{A}'s journey to {C}: bus for {a} minutes, a {w}-minute wait, then {h} hours by "
            "train. Total time in minutes?",
            "How long, in minutes, is {A}'s trip to {C} if the bus takes {a} minutes, the wait "
            "is {w} minutes and the train takes {h} hours?",
        ),
        steps=[
            "The train in minutes | h * 60 | count | minutes",
            "Journey | a + w + s1 | count | minutes",
        ],
        solve=lambda v: v.a + v.w + v.h * 60,
        changes=(
            Change(
                "target",
                "To get to {C}, {A} takes a {a}-minute bus ride, waits {w} minutes, and then "
                "rides a train for {h} hours. How many minutes longer is the train ride than "
                "the bus ride?",
                steps=[
                    "The train in minutes | h * 60 | count | minutes",
                    "Longer by | s1 - a | count | minutes",
                ],
                solve=lambda v: v.h * 60 - v.a,
            ),
            Change(
                "operation",
                "To get to {C}, {A} takes a {a}-minute bus ride and then rides a train for {h} "
                "hours; the train makes up {w} minutes of a delay. How many minutes of travel "
                "are left after the bus and the time made up?",
                steps=[
                    "The train in minutes | h * 60 | count | minutes",
                    "Journey less the time made up | a + s1 - w | count | minutes",
                ],
                solve=lambda v: v.a + v.h * 60 - v.w,
            ),
            Change(
                "added_step",
                "To get to {C} and back, {A} takes a {a}-minute bus ride, waits {w} minutes, "
                "and then rides a train for {h} hours, each way. How many minutes {A.v[does]} "
                "{A.he} "
                "travel in all?",
                steps=[
                    "The train in minutes | h * 60 | count | minutes",
                    "One way | a + w + s1 | count | minutes",
                    "Both ways | 2 * s2 | count | minutes",
                ],
                solve=lambda v: 2 * (v.a + v.w + v.h * 60),
            ),
        ),
    ),
    Family(
        id="time/practice-hours",
        topic="time",
        slots=dict(A=PERSON, m=count(20, 90, 5), d=count(3, 7)),
        when=lambda v: (v.m * v.d / 60 * 4).denominator == 1,
        text="{A} practises the piano for {m} minutes a day, {d} days a week. How many hours "
        "{A.v[does]} {A.he} practise each week?",
        paraphrases=(
            "Each week {A} sits at the piano {d} days, {m} minutes each time. How many hours "
            "is that?",
            "How many hours a week does {A} spend on piano practice at {m} minutes a day for "
            "{d} days?",
        ),
        steps=[
            "Minutes a week | m * d | count | minutes",
            "In hours | s1 / 60 | number | hours",
        ],
        solve=lambda v: v.m * v.d / 60,
        changes=(
            Change(
                "target",
                "{A} practises the piano for {m} minutes a day, {d} days a week. How many "
                "minutes {A.v[does]} {A.he} practise each week?",
                steps=["Minutes a week | m * d | count | minutes"],
                solve=lambda v: v.m * v.d,
            ),
            Change(
                "added_step",
                "{A} practises the piano for {m} minutes a day, {d} days a week. How many hours "
                "{A.v[does]} {A.he} practise in {w} weeks?",
                slots=dict(w=count(2, 4)),
                steps=[
                    "Minutes a week | m * d | count | minutes",
                    "For {w} weeks | w * s1 | count | minutes",
                    "In hours | s2 / 60 | number | hours",
                ],
                solve=lambda v: v.m * v.d * v.w / 60,
            ),
            Change(
                "reversed",
                "{A} practises the piano the same number of minutes each day, {d} days a week, "
                "for {h} hours a week. How many minutes a day {A.v[does]} {A.he} practise?",
                derived=dict(h=Derived("m * d / 60", "decimal")),
                steps=[
                    "{h} hours in minutes | h * 60 | count | minutes",
                    "Each day | s1 / d | count | minutes",
                ],
                solve=lambda v: v.h * 60 / v.d,
            ),
        ),
    ),
    Family(
        id="time/free-time-left",
        topic="time",
        slots=dict(A=PERSON, h=dec(2, 5, "0.5"), a=count(20, 60, 5), b=count(15, 50, 5)),
        when=lambda v: v.h * 60 > v.a + v.b,
        text="{A} has {h} hours of free time on Saturday. {A.He} {A.v[reads]} for {a} minutes "
        "and plays chess for {b} minutes. How many minutes of free time are left?",
        paraphrases=(
            "Out of {h} free hours, {A} spends {a} minutes reading and {b} minutes on chess. "
            "How many minutes remain?",
            "{A} gets {h} hours to {A.himself} on Saturday: {a} minutes go to a book, {b} "
            "minutes to chess. Minutes left?",
        ),
        steps=[
            "{h} hours in minutes | h * 60 | count | minutes",
            "Left after reading and chess | s1 - a - b | count | minutes",
        ],
        solve=lambda v: v.h * 60 - v.a - v.b,
        changes=(
            Change(
                "target",
                "{A} has {h} hours of free time on Saturday. {A.He} {A.v[reads]} for {a} minutes "
                "and plays chess for {b} minutes. How many minutes {A.v[does]} {A.he} spend on "
                "the two?",
                steps=["Reading and chess | a + b | count | minutes"],
                solve=lambda v: v.a + v.b,
            ),
            Change(
                "operation",
                "{A} has {h} hours of free time on Saturday. {A.He} {A.v[gets]} {a} more "
                "minutes when practice is cancelled, and plays chess for {b} minutes. How many "
                "minutes of free time are left?",
                steps=[
                    "{h} hours in minutes | h * 60 | count | minutes",
                    "With the cancelled practice, less chess | s1 + a - b | count | minutes",
                ],
                solve=lambda v: v.h * 60 + v.a - v.b,
            ),
            Change(
                "added_step",
                "{A} has {h} hours of free time on Saturday. {A.He} {A.v[reads]} for {a} "
                "minutes, plays chess for {b} minutes, and splits the rest equally between two "
                "films. How many minutes go to each film?",
                when=lambda v: v.h * 60 > v.a + v.b and (v.h * 60 - v.a - v.b) % 2 == 0,
                steps=[
                    "{h} hours in minutes | h * 60 | count | minutes",
                    "Left after reading and chess | s1 - a - b | count | minutes",
                    "Each film | s2 / 2 | count | minutes",
                ],
                solve=lambda v: (v.h * 60 - v.a - v.b) / 2,
            ),
        ),
    ),
    Family(
        id="time/project-days",
        topic="time",
        slots=dict(A=PERSON, K=thing("craft"), w=count(2, 6), d=count(2, 6)),
        text="It takes {A} {w} weeks and {d} days to finish a set of {K.many}. How many days "
        "is that?",
        paraphrases=(
            "A set of {K.many} keeps {A} busy for {w} weeks and {d} days. How many days in all?",
            "{A} needs {w} weeks plus {d} days for a set of {K.many}. Express that in days.",
        ),
        steps=[
            "{w} weeks in days | w * 7 | count | days",
            "With {d} more days | s1 + d | count | days",
        ],
        solve=lambda v: v.w * 7 + v.d,
        changes=(
            Change(
                "operation",
                "It takes {A} {w} weeks, less {d} days, to finish a set of {K.many}. How many "
                "days is that?",
                steps=[
                    "{w} weeks in days | w * 7 | count | days",
                    "Less {d} days | s1 - d | count | days",
                ],
                solve=lambda v: v.w * 7 - v.d,
            ),
            Change(
                "added_step",
                "It takes {A} {w} weeks and {d} days to finish a set of {K.many}, working {h} "
                "hours a day. How many hours {A.v[does]} {A.he} work?",
                slots=dict(h=count(2, 5)),
                steps=[
                    "{w} weeks in days | w * 7 | count | days",
                    "With {d} more days | s1 + d | count | days",
                    "Hours | s2 * h | count | hours",
                ],
                solve=lambda v: (v.w * 7 + v.d) * v.h,
            ),
            Change(
                "reversed",
                "It takes {A} {t} days to finish a set of {K.many}. Written in whole weeks and "
                "days, how many days are there beyond the whole weeks?",
                derived=dict(t=Derived("w * 7 + d", "count")),
                steps=[
                    "Whole weeks | floor(t / 7) | count | weeks",
                    "Days over | t - s1 * 7 | count | days",
                ],
                solve=lambda v: v.t % 7,
            ),
        ),
    ),
    Family(
        id="time/book-days",
        topic="time",
        slots=dict(A=PERSON, B=thing("book"), n=count(120, 480, 10), p=count(15, 40, 5)),
        when=lambda v: v.n % v.p != 0,
        text="{A}'s new {B.one} has {n} pages. {A.He} {A.v[reads]} {p} pages a day. How many days "
        "does it take {A.him} to finish it?",
        paraphrases=(
            "Reading {p} pages a day, how many days does {A} need for a {B.one} of {n} pages?",
            "{A} starts a {n}-page {B.one} and gets through {p} pages each day. On which day "
            "{A.v[does]} {A.he} finish it, counting the first day as day 1?",
        ),
        steps=["Days for {n} pages at {p} a day | ceil(n / p) | count | days"],
        solve=lambda v: -(-v.n // v.p),
        changes=(
            Change(
                "target",
                "{A}'s new {B.one} has {n} pages. {A.He} {A.v[reads]} {p} pages a day. How many "
                "pages {A.v[does]} {A.he} read on the last day?",
                steps=[
                    "Full days | floor(n / p) | count | days",
                    "Pages in full days | s1 * p | count | pages",
                    "On the last day | n - s2 | count | pages",
                ],
                solve=lambda v: v.n % v.p,
            ),
            Change(
                "added_step",
                "{A}'s new {B.one} has {n} pages. {A.He} {A.v[reads]} {p} pages a day and "
                "already read {r} pages. How many more days does it take {A.him} to finish it?",
                slots=dict(r=count(10, 60, 10)),
                when=lambda v: (v.n - v.r) % v.p != 0,
                steps=[
                    "Pages left | n - r | count | pages",
                    "Days at {p} a day | ceil(s1 / p) | count | days",
                ],
                solve=lambda v: -(-(v.n - v.r) // v.p),
            ),
            Change(
                "operation",
                "{A}'s new {B.one} has {n} pages. {A.He} {A.v[reads]} {p} pages a day for {d} "
                "days. How many pages are left?",
                slots=dict(d=count(2, 4)),
                when=lambda v: v.n > v.p * v.d,
                steps=[
                    "Pages read | p * d | count | pages",
                    "Left | n - s1 | count | pages",
                ],
                solve=lambda v: v.n - v.p * v.d,
            ),
        ),
    ),
    Family(
        id="time/film-marathon",
        topic="time",
        slots=dict(A=PERSON, n=count(2, 5), h=mixed("1.5", "2.75", "0.25"), b=count(10, 20, 5)),
        text="{A} watches {n} films that are {h} hours long each, with a {b}-minute break "
        "between films. How many minutes does the marathon last?",
        paraphrases=(
            "A film marathon: {n} films of {h} hours each, and {b} minutes of break between one "
            "film and the next. How many minutes does {A} spend?",
            "How long, in minutes, is {A}'s marathon of {n} films lasting {h} hours apiece with "
            "{b}-minute breaks in between?",
        ),
        steps=[
            "Film time in minutes | n * h * 60 | count | minutes",
            "Breaks between {n} films | (n - 1) * b | count | minutes",
            "Marathon | s1 + s2 | count | minutes",
        ],
        solve=lambda v: v.n * v.h * 60 + (v.n - 1) * v.b,
        changes=(
            Change(
                "operation",
                "{A} watches {n} films that are {h} hours long each, with a {b}-minute break "
                "after every film. How many minutes does the marathon last?",
                steps=[
                    "Film time in minutes | n * h * 60 | count | minutes",
                    "Breaks after {n} films | n * b | count | minutes",
                    "Marathon | s1 + s2 | count | minutes",
                ],
                solve=lambda v: v.n * v.h * 60 + v.n * v.b,
            ),
            Change(
                "target",
                "{A} watches {n} films that are {h} hours long each, with a {b}-minute break "
                "between films. How many minutes of breaks are there?",
                steps=["Breaks between {n} films | (n - 1) * b | count | minutes"],
                solve=lambda v: (v.n - 1) * v.b,
            ),
            Change(
                "added_step",
                "{A} watches {n} films that are {h} hours long each, with a {b}-minute break "
                "between films. How many hours does the marathon last?",
                steps=[
                    "Film time in minutes | n * h * 60 | count | minutes",
                    "Breaks between {n} films | (n - 1) * b | count | minutes",
                    "Marathon | s1 + s2 | count | minutes",
                    "In hours | s3 / 60 | number | hours",
                ],
                when=lambda v: ((v.n * v.h * 60 + (v.n - 1) * v.b) / 60 * 12).denominator == 1,
                solve=lambda v: (v.n * v.h * 60 + (v.n - 1) * v.b) / 60,
            ),
        ),
    ),
    Family(
        id="rates/fill-tank",
        topic="rates",
        slots=dict(A=PERSON, V=count(60, 400, 20), r=count(4, 20, 2)),
        when=lambda v: (v.V / v.r * 4).denominator == 1,
        text="{A} fills a water tank that holds {V} liters with a hose that delivers {r} liters "
        "a minute. How many minutes does it take?",
        paraphrases=(
            "A hose gives {r} liters per minute. How long, in minutes, does {A} need to fill a "
            "{V}-liter tank?",
            "{A}'s tank takes {V} liters; the hose runs at {r} liters each minute. Minutes to "
            "fill it?",
        ),
        steps=["{V} liters at {r} a minute | V / r | number | minutes"],
        solve=lambda v: v.V / v.r,
        changes=(
            Change(
                "added_step",
                "{A} fills a water tank that holds {V} liters with a hose that delivers {r} "
                "liters a minute, but the tank leaks {k} liters a minute. How many minutes does "
                "it take?",
                slots=dict(k=count(2, 3)),
                when=lambda v: v.r > v.k and (v.V / (v.r - v.k) * 4).denominator == 1,
                steps=[
                    "It fills at | r - k | count | liters a minute",
                    "{V} liters at {s1} a minute | V / s1 | number | minutes",
                ],
                solve=lambda v: v.V / (v.r - v.k),
            ),
            Change(
                "reversed",
                "{A} fills a water tank with a hose that delivers {r} liters a minute. It takes "
                "{m} minutes. How many liters does the tank hold?",
                derived=dict(m=Derived("V / r", "decimal")),
                steps=["{m} minutes at {r} liters | m * r | count | liters"],
                solve=lambda v: v.m * v.r,
            ),
            Change(
                "operation",
                "{A} fills a water tank that holds {V} liters with two hoses, each delivering {r} "
                "liters a minute. How many minutes does it take?",
                when=lambda v: (v.V / (2 * v.r) * 4).denominator == 1,
                steps=[
                    "Both hoses | 2 * r | count | liters a minute",
                    "{V} liters at {s1} a minute | V / s1 | number | minutes",
                ],
                solve=lambda v: v.V / (2 * v.r),
            ),
        ),
    ),
    Family(
        id="rates/typing-essay",
        topic="rates",
        slots=dict(A=PERSON, w=count(30, 70, 5), E=count(600, 2400, 100)),
        when=lambda v: (v.E / v.w * 4).denominator == 1,
        text="{A} types {w} words a minute. How many minutes does it take {A.him} to type an "
        "essay of {E} words?",
        paraphrases=(
            "At a typing speed of {w} words per minute, how long does {A} need for a "
            "{E}-word essay?",
            "{A}'s essay is {E} words long, and {A.he} {A.v[types]} {w} words each minute. "
            "Minutes needed?",
        ),
        steps=["{E} words at {w} a minute | E / w | number | minutes"],
        solve=lambda v: v.E / v.w,
        changes=(
            Change(
                "reversed",
                "{A} types an essay in {m} minutes at {w} words a minute. How many words long "
                "is it?",
                derived=dict(m=Derived("E / w", "decimal")),
                steps=["{m} minutes at {w} words | m * w | count | words"],
                solve=lambda v: v.m * v.w,
            ),
            Change(
                "added_step",
                "{A} types {w} words a minute. How many minutes does it take {A.him} to type "
                "two essays of {E} words each?",
                when=lambda v: (2 * v.E / v.w * 4).denominator == 1,
                steps=[
                    "Words | 2 * E | count | words",
                    "At {w} a minute | s1 / w | number | minutes",
                ],
                solve=lambda v: 2 * v.E / v.w,
            ),
            Change(
                "target",
                "{A} types {w} words a minute. How many words {A.v[does]} {A.he} type in {m} "
                "minutes?",
                slots=dict(m=count(10, 30, 5)),
                steps=["{m} minutes at {w} words | m * w | count | words"],
                solve=lambda v: v.m * v.w,
            ),
        ),
    ),
    Family(
        id="rates/printing",
        topic="rates",
        slots=dict(A=PERSON, p=count(10, 40, 5), c=count(10, 60, 5), k=count(4, 20)),
        when=lambda v: (v.c * v.k / v.p * 4).denominator == 1,
        text="{A} prints {c} copies of a {k}-page booklet on a printer that prints {p} pages a "
        "minute. How many minutes does the printing take?",
        paraphrases=(
            "A printer does {p} pages per minute. {A} needs {c} copies of a booklet with {k} "
            "pages. How long does it take, in minutes?",
            "How many minutes for {A} to print {c} booklets of {k} pages at {p} pages each minute?",
        ),
        steps=[
            "Pages | c * k | count | pages",
            "At {p} pages a minute | s1 / p | number | minutes",
        ],
        solve=lambda v: v.c * v.k / v.p,
        changes=(
            Change(
                "target",
                "{A} prints {c} copies of a {k}-page booklet. How many pages is that?",
                steps=["Pages | c * k | count | pages"],
                solve=lambda v: v.c * v.k,
            ),
            Change(
                "operation",
                "{A} prints {c} copies of a {k}-page booklet, double-sided, so two pages go on "
                "each sheet. How many sheets {A.v[does]} {A.he} use?",
                when=lambda v: v.c * v.k % 2 == 0,
                steps=[
                    "Pages | c * k | count | pages",
                    "Sheets | s1 / 2 | count | sheets",
                ],
                solve=lambda v: v.c * v.k / 2,
            ),
            Change(
                "added_step",
                "{A} prints {c} copies of a {k}-page booklet on a printer that prints {p} pages "
                "a minute, and spends {s} minutes stapling. How many minutes does the job take?",
                slots=dict(s=count(5, 15, 5)),
                steps=[
                    "Pages | c * k | count | pages",
                    "At {p} pages a minute | s1 / p | number | minutes",
                    "With stapling | s2 + s | number | minutes",
                ],
                solve=lambda v: v.c * v.k / v.p + v.s,
            ),
        ),
    ),
    Family(
        id="rates/unit-rate-price",
        topic="rates",
        slots=dict(A=PERSON, T=thing("stationery"), k=count(2, 6), p=money(2, 12), m=count(7, 20)),
        when=lambda v: (v.p / v.k * 100).denominator == 1,
        text="{k} {T.many} cost {p}. At the same price, how much do {m} {T.many} cost {A}?",
        paraphrases=(
            "{A} sees {T.many} priced at {p} for {k}. What would {m} of them cost?",
            "If {p} buys {k} {T.many}, how much does {A} pay for {m}?",
        ),
        steps=[
            "One {T.one} | p / k | money",
            "{m} {T.many} | m * s1 | money",
        ],
        solve=lambda v: v.m * v.p / v.k,
        changes=(
            Change(
                "reversed",
                "{k} {T.many} cost {p}. At the same price, how many {T.many} can {A} buy for {b}?",
                derived=dict(b=Derived("m * p / k", "money")),
                steps=[
                    "One {T.one} | p / k | money",
                    "{T.many} for {b} | b / s1 | count | {T.many}",
                ],
                solve=lambda v: v.b / (v.p / v.k),
            ),
            Change(
                "target",
                "{k} {T.many} cost {p}. How much does one {T.one} cost {A}?",
                steps=["One {T.one} | p / k | money"],
                solve=lambda v: v.p / v.k,
            ),
            Change(
                "added_step",
                "{k} {T.many} cost {p}. At the same price, how much change does {A} get from "
                "{b} after buying {m} {T.many}?",
                slots=dict(b=money(40, 100, 20)),
                when=lambda v: v.b > v.m * v.p / v.k,
                steps=[
                    "One {T.one} | p / k | money",
                    "{m} {T.many} | m * s1 | money",
                    "Change from {b} | b - s2 | money",
                ],
                solve=lambda v: v.b - v.m * v.p / v.k,
            ),
        ),
    ),
    Family(
        id="rates/two-workers",
        topic="work done",
        slots=dict(
            A=PERSON, B=PERSON, K=thing("craft"), a=count(2, 8), b=count(2, 8), N=count(20, 120, 4)
        ),
        when=lambda v: (v.N / (v.a + v.b) * 4).denominator == 1,
        text="{A} {K.does} {a} {K.many} an hour and {B} {K.does} {b} an hour. Working "
        "together, how many hours do they need for {N} {K.many}?",
        paraphrases=(
            "Together, {A} ({a} {K.many} per hour) and {B} ({b} per hour) take on an order of "
            "{N} {K.many}. How many hours will it take?",
            "How long do {A} and {B} need, side by side, to finish {N} {K.many} if {A} makes {a} "
            "an hour and {B} makes {b}?",
        ),
        steps=[
            "Together per hour | a + b | count | {K.many}",
            "Hours for {N} | N / s1 | number | hours",
        ],
        solve=lambda v: v.N / (v.a + v.b),
        changes=(
            Change(
                "operation",
                "{A} {K.does} {a} {K.many} an hour. How many hours does {A} need alone for {N} "
                "{K.many}?",
                when=lambda v: (v.N / v.a * 4).denominator == 1,
                steps=["Hours for {N} at {a} an hour | N / a | number | hours"],
                solve=lambda v: v.N / v.a,
            ),
            Change(
                "target",
                "{A} {K.does} {a} {K.many} an hour and {B} {K.does} {b} an hour. How many "
                "{K.many} do they make together in {h} hours?",
                slots=dict(h=count(2, 6)),
                steps=[
                    "Together per hour | a + b | count | {K.many}",
                    "In {h} hours | h * s1 | count | {K.many}",
                ],
                solve=lambda v: v.h * (v.a + v.b),
            ),
            Change(
                "roles",
                "{A} {K.does} {a} {K.many} an hour and {B} {K.does} {b} an hour. After {h} hours "
                "of working together, how many more {K.many} has {B} made than {A}?",
                slots=dict(h=count(2, 6)),
                when=lambda v: v.b > v.a,
                steps=[
                    "{B} makes more per hour | b - a | count | {K.many}",
                    "In {h} hours | h * s1 | count | {K.many}",
                ],
                solve=lambda v: v.h * (v.b - v.a),
            ),
        ),
    ),
    Family(
        id="rates/factory-output",
        topic="rates",
        slots=dict(A=PERSON, T=thing("toy"), r=count(40, 150, 10), h=count(6, 10), d=count(3, 6)),
        text="A machine in {A}'s workshop makes {r} {T.many} an hour. It runs {h} hours a day. "
        "How many {T.many} does it make in {d} days?",
        paraphrases=(
            "{A}'s machine turns out {r} {T.many} per hour, {h} hours each day. What is its "
            "output over {d} days?",
            "How many {T.many} come out of a machine that makes {r} an hour, running {h} hours "
            "a day for {d} days in {A}'s workshop?",
        ),
        steps=[
            "Each day | r * h | count | {T.many}",
            "In {d} days | d * s1 | count | {T.many}",
        ],
        solve=lambda v: v.r * v.h * v.d,
        changes=(
            Change(
                "added_step",
                "A machine in {A}'s workshop makes {r} {T.many} an hour. It runs {h} hours a day. "
                "{A} packs them in boxes of {k}. How many boxes {A.v[does]} {A.he} fill in {d} "
                "days?",
                slots=dict(k=count(10, 50, 10)),
                when=lambda v: v.r * v.h * v.d % v.k == 0,
                steps=[
                    "Each day | r * h | count | {T.many}",
                    "In {d} days | d * s1 | count | {T.many}",
                    "Boxes of {k} | s2 / k | count | boxes",
                ],
                solve=lambda v: v.r * v.h * v.d / v.k,
            ),
            Change(
                "reversed",
                "A machine in {A}'s workshop makes {r} {T.many} an hour and runs {h} hours a day. "
                "How many days does it take to make {N} {T.many}?",
                derived=dict(N=Derived("r * h * d", "count")),
                steps=[
                    "Each day | r * h | count | {T.many}",
                    "Days for {N} | N / s1 | count | days",
                ],
                solve=lambda v: v.N / (v.r * v.h),
            ),
            Change(
                "operation",
                "A machine in {A}'s workshop makes {r} {T.many} an hour. It runs {h} hours a day, "
                "and {f} {T.many} a day fail the check. How many good {T.many} does it make in "
                "{d} days?",
                slots=dict(f=count(5, 20, 5)),
                steps=[
                    "Good ones each day | r * h - f | count | {T.many}",
                    "In {d} days | d * s1 | count | {T.many}",
                ],
                solve=lambda v: (v.r * v.h - v.f) * v.d,
            ),
        ),
    ),
    Family(
        id="units/ribbon-meters",
        topic="unit conversions",
        slots=dict(A=PERSON, n=count(4, 20), c=count(35, 95, 5)),
        text="{A} cuts {n} pieces of string, each {c} centimeters long. How many meters of "
        "string {A.v[does]} {A.he} use?",
        paraphrases=(
            "Each of {A}'s {n} pieces of string is {c} cm long. What is the total length in "
            "meters?",
            "How many meters of string go into {n} pieces of {c} centimeters that {A} cuts?",
        ),
        steps=[
            "Centimeters | n * c | count | cm",
            "In meters | s1 / 100 | number | m",
        ],
        solve=lambda v: v.n * v.c / 100,
        changes=(
            Change(
                "target",
                "{A} cuts {n} pieces of string, each {c} centimeters long. How many centimeters "
                "of string {A.v[does]} {A.he} use?",
                steps=["Centimeters | n * c | count | cm"],
                solve=lambda v: v.n * v.c,
            ),
            Change(
                "reversed",
                "{A} cuts pieces of string, each {c} centimeters long, using {L} meters of "
                "string. How many pieces {A.v[does]} {A.he} cut?",
                derived=dict(L=Derived("n * c / 100", "decimal")),
                steps=[
                    "{L} meters in centimeters | L * 100 | count | cm",
                    "Pieces of {c} cm | s1 / c | count | pieces",
                ],
                solve=lambda v: v.L * 100 / v.c,
            ),
            Change(
                "added_step",
                "{A} cuts {n} pieces of string, each {c} centimeters long, from a {R}-meter "
                "roll. How many meters are left on the roll?",
                slots=dict(R=count(20, 30, 5)),
                when=lambda v: v.n * v.c < v.R * 100,
                steps=[
                    "Centimeters | n * c | count | cm",
                    "In meters | s1 / 100 | number | m",
                    "Left on the roll | R - s2 | number | m",
                ],
                solve=lambda v: v.R - v.n * v.c / 100,
            ),
        ),
    ),
    Family(
        id="units/grams-kilos",
        topic="unit conversions",
        slots=dict(A=PERSON, I=thing("ingredient"), n=count(3, 12), g=count(250, 750, 50)),
        text="{A} buys {n} bags of {I.one}, each weighing {g} grams. How many kilograms of "
        "{I.one} {A.v[does]} {A.he} buy?",
        paraphrases=(
            "There are {g} grams of {I.one} in each of the {n} bags {A} brings home. What is the "
            "total in kilograms?",
            "How many kilograms are {n} bags of {I.one} at {g} g each, bought by {A}?",
        ),
        steps=[
            "Grams | n * g | count | g",
            "In kilograms | s1 / 1000 | number | kg",
        ],
        solve=lambda v: v.n * v.g / 1000,
        changes=(
            Change(
                "added_step",
                "{A} buys {n} bags of {I.one}, each weighing {g} grams, and uses {u} kilograms. "
                "How many kilograms of {I.one} are left?",
                slots=dict(u=dec(1, 2, "0.5")),
                when=lambda v: v.n * v.g / 1000 > v.u,
                steps=[
                    "Grams | n * g | count | g",
                    "In kilograms | s1 / 1000 | number | kg",
                    "Left after {u} kg | s2 - u | number | kg",
                ],
                solve=lambda v: v.n * v.g / 1000 - v.u,
            ),
            Change(
                "target",
                "{A} buys {n} bags of {I.one}, each weighing {g} grams. How many grams of "
                "{I.one} {A.v[does]} {A.he} buy?",
                steps=["Grams | n * g | count | g"],
                solve=lambda v: v.n * v.g,
            ),
            Change(
                "reversed",
                "{A} buys {W} kilograms of {I.one} in bags of {g} grams. How many bags {A.v[does]} "
                "{A.he} buy?",
                derived=dict(W=Derived("n * g / 1000", "decimal")),
                steps=[
                    "{W} kg in grams | W * 1000 | count | g",
                    "Bags of {g} g | s1 / g | count | bags",
                ],
                solve=lambda v: v.W * 1000 / v.g,
            ),
        ),
    ),
    Family(
        id="units/height-inches",
        topic="unit conversions",
        slots=dict(A=PERSON, B=PERSON, f=count(4, 5), i=count(2, 11), g=count(2, 9)),
        text="{A} is {f} feet {i} inches tall. {B} is {g} inches taller. How tall is {B} in "
        "inches?",
        paraphrases=(
            "{B} stands {g} inches taller than {A}, who is {f} feet {i} inches. What is {B}'s "
            "height in inches?",
            "If {A} measures {f} ft {i} in and {B} is {g} inches taller, how many inches tall "
            "is {B}?",
        ),
        steps=[
            "{A}'s height in inches | f * 12 + i | count | inches",
            "{B} is {g} inches taller | s1 + g | count | inches",
        ],
        solve=lambda v: v.f * 12 + v.i + v.g,
        changes=(
            Change(
                "operation",
                "{A} is {f} feet {i} inches tall. {B} is {g} inches shorter. How tall is {B} in "
                "inches?",
                steps=[
                    "{A}'s height in inches | f * 12 + i | count | inches",
                    "{B} is {g} inches shorter | s1 - g | count | inches",
                ],
                solve=lambda v: v.f * 12 + v.i - v.g,
            ),
            Change(
                "roles",
                "{B} is {f} feet {i} inches tall. {A} is {g} inches taller. How tall is {B} in "
                "inches?",
                steps=["{B}'s height in inches | f * 12 + i | count | inches"],
                solve=lambda v: v.f * 12 + v.i,
            ),
            Change(
                "target",
                "{A} is {f} feet {i} inches tall. How tall is {A} in inches?",
                steps=["{A}'s height in inches | f * 12 + i | count | inches"],
                solve=lambda v: v.f * 12 + v.i,
            ),
        ),
    ),
    Family(
        id="units/bottle-glasses",
        topic="unit conversions",
        slots=dict(A=PERSON, L=thing("liquid"), b=dec("1.5", 3, "0.5"), m=count(150, 300, 50)),
        when=lambda v: v.b * 1000 % v.m != 0,
        text="{A} has a {b}-liter bottle of {L.one}. How many full glasses of {m} milliliters "
        "can {A.he} pour?",
        paraphrases=(
            "A bottle holds {b} liters of {L.one}. {A} pours glasses of {m} ml. How many glasses "
            "are full?",
            "How many {m}-milliliter glasses can {A} fill from {b} liters of {L.one}?",
        ),
        steps=[
            "{b} liters in milliliters | b * 1000 | count | ml",
            "Full glasses of {m} ml | floor(s1 / m) | count | glasses",
        ],
        solve=lambda v: v.b * 1000 // v.m,
        changes=(
            Change(
                "target",
                "{A} has a {b}-liter bottle of {L.one} and pours glasses of {m} milliliters. How "
                "many milliliters are left after the full glasses?",
                steps=[
                    "{b} liters in milliliters | b * 1000 | count | ml",
                    "Full glasses of {m} ml | floor(s1 / m) | count | glasses",
                    "Poured | s2 * m | count | ml",
                    "Left | s1 - s3 | count | ml",
                ],
                solve=lambda v: v.b * 1000 % v.m,
            ),
            Change(
                "operation",
                "{A} has a {b}-liter bottle of {L.one} and adds {m} milliliters more. How many "
                "milliliters does the bottle hold now?",
                steps=[
                    "{b} liters in milliliters | b * 1000 | count | ml",
                    "With {m} ml more | s1 + m | count | ml",
                ],
                solve=lambda v: v.b * 1000 + v.m,
            ),
            Change(
                "added_step",
                "{A} has {k} bottles of {L.one}, {b} liters each. How many full glasses of {m} "
                "milliliters can {A.he} pour?",
                slots=dict(k=count(2, 4)),
                when=lambda v: v.k * v.b * 1000 % v.m != 0,
                steps=[
                    "{b} liters in milliliters | b * 1000 | count | ml",
                    "In {k} bottles | k * s1 | count | ml",
                    "Full glasses of {m} ml | floor(s2 / m) | count | glasses",
                ],
                solve=lambda v: v.k * v.b * 1000 // v.m,
            ),
        ),
    ),
    Family(
        id="units/dozens-left",
        topic="unit conversions",
        slots=dict(A=PERSON, T=thing("baked"), d=count(2, 8), u=count(5, 20)),
        when=lambda v: v.d * 12 > v.u,
        text="{A} buys {d} dozen {T.many} for a meeting. {u} {T.many} are eaten. How many "
        "are left?",
        paraphrases=(
            "For a meeting {A} brings {d} dozen {T.many}, and people eat {u} of them. How many "
            "remain?",
            "Of the {d} dozen {T.many} {A} bought, {u} get eaten. What is left over?",
        ),
        steps=[
            "{d} dozen | d * 12 | count | {T.many}",
            "Left | s1 - u | count | {T.many}",
        ],
        solve=lambda v: v.d * 12 - v.u,
        changes=(
            Change(
                "operation",
                "{A} buys {d} dozen {T.many} for a meeting, and a colleague brings {u} more. How "
                "many {T.many} are there?",
                steps=[
                    "{d} dozen | d * 12 | count | {T.many}",
                    "With {u} more | s1 + u | count | {T.many}",
                ],
                solve=lambda v: v.d * 12 + v.u,
            ),
            Change(
                "added_step",
                "{A} buys {d} dozen {T.many} for a meeting. {u} {T.many} are eaten, and the rest "
                "are shared equally by {k} people to take home. How many does each take?",
                slots=dict(k=count(2, 6)),
                when=lambda v: v.d * 12 > v.u and (v.d * 12 - v.u) % v.k == 0,
                steps=[
                    "{d} dozen | d * 12 | count | {T.many}",
                    "Left | s1 - u | count | {T.many}",
                    "Each of {k} people | s2 / k | count | {T.many}",
                ],
                solve=lambda v: (v.d * 12 - v.u) / v.k,
            ),
            Change(
                "target",
                "{A} buys {d} dozen {T.many} for a meeting. How many {T.many} is that?",
                steps=["{d} dozen | d * 12 | count | {T.many}"],
                solve=lambda v: v.d * 12,
            ),
        ),
    ),
    Family(
        id="units/laps-kilometers",
        topic="sports",
        slots=dict(A=PERSON, m=count(200, 800, 100), n=count(4, 20)),
        text="{A} runs {n} laps of a {m}-meter track. How many kilometers {A.v[does]} {A.he} run?",
        paraphrases=(
            "The track is {m} meters around, and {A} completes {n} laps. Distance in kilometers?",
            "How many km does {A} cover running {n} times around a track of {m} m?",
        ),
        steps=[
            "Meters | n * m | count | m",
            "In kilometers | s1 / 1000 | number | km",
        ],
        solve=lambda v: v.n * v.m / 1000,
        changes=(
            Change(
                "reversed",
                "{A} runs {k} kilometers on a {m}-meter track. How many laps {A.v[does]} {A.he} "
                "run?",
                derived=dict(k=Derived("n * m / 1000", "decimal")),
                steps=[
                    "{k} km in meters | k * 1000 | count | m",
                    "Laps of {m} m | s1 / m | count | laps",
                ],
                solve=lambda v: v.k * 1000 / v.m,
            ),
            Change(
                "added_step",
                "{A} runs {n} laps of a {m}-meter track on each of {d} days. How many kilometers "
                "{A.v[does]} {A.he} run?",
                slots=dict(d=count(2, 5)),
                steps=[
                    "Meters a day | n * m | count | m",
                    "For {d} days | d * s1 | count | m",
                    "In kilometers | s2 / 1000 | number | km",
                ],
                solve=lambda v: v.d * v.n * v.m / 1000,
            ),
            Change(
                "target",
                "{A} runs {n} laps of a {m}-meter track. How many meters {A.v[does]} {A.he} run?",
                steps=["Meters | n * m | count | m"],
                solve=lambda v: v.n * v.m,
            ),
        ),
    ),
    Family(
        id="units/seconds-laps",
        topic="time",
        slots=dict(A=PERSON, s=count(50, 110, 5), n=count(4, 12)),
        when=lambda v: (v.s * v.n / 60 * 4).denominator == 1,
        text="Each lap of the pool takes {A} {s} seconds. How many minutes {A.v[does]} {A.he} swim "
        "for {n} laps?",
        paraphrases=(
            "{A} swims {n} laps at {s} seconds per lap. How many minutes is that?",
            "At {s} seconds a lap, how long in minutes are {A}'s {n} laps?",
        ),
        steps=[
            "Seconds | n * s | count | seconds",
            "In minutes | s1 / 60 | number | minutes",
        ],
        solve=lambda v: v.n * v.s / 60,
        changes=(
            Change(
                "target",
                "Each lap of the pool takes {A} {s} seconds. How many seconds {A.v[does]} {A.he} "
                "swim "
                "for {n} laps?",
                steps=["Seconds | n * s | count | seconds"],
                solve=lambda v: v.n * v.s,
            ),
            Change(
                "added_step",
                "Each lap of the pool takes {A} {s} seconds, and {A.he} {A.v[rests]} {r} seconds "
                "after every lap. How many minutes {A.v[does]} {A.he} spend for {n} laps?",
                slots=dict(r=count(10, 30, 10)),
                when=lambda v: ((v.s + v.r) * v.n / 60 * 4).denominator == 1,
                steps=[
                    "Each lap with the rest | s + r | count | seconds",
                    "Seconds | n * s1 | count | seconds",
                    "In minutes | s2 / 60 | number | minutes",
                ],
                solve=lambda v: (v.s + v.r) * v.n / 60,
            ),
            Change(
                "reversed",
                "Each lap of the pool takes {A} {s} seconds. How many laps {A.v[does]} {A.he} "
                "swim in "
                "{t} minutes?",
                derived=dict(t=Derived("n * s / 60", "decimal")),
                steps=[
                    "{t} minutes in seconds | t * 60 | count | seconds",
                    "Laps | s1 / s | count | laps",
                ],
                solve=lambda v: v.t * 60 / v.s,
            ),
        ),
    ),
    Family(
        id="rates/leaky-bucket-percent",
        topic="percentages",
        slots=dict(A=PERSON, b=count(60, 100, 5), u=count(5, 15)),
        when=lambda v: (v.b / v.u * 4).denominator == 1,
        text="{A}'s phone battery is at {b}% and drops by {u} percentage points an hour while "
        "{A.he} {A.v[navigates]}. How many hours until it is empty?",
        paraphrases=(
            "Navigation drains {A}'s phone by {u} percentage points per hour. Starting at {b}%, "
            "how many hours does the battery last?",
            "With {b}% battery left and a drain of {u} points an hour, how long can {A} "
            "navigate, in hours?",
        ),
        steps=["{b} points at {u} an hour | b / u | number | hours"],
        solve=lambda v: v.b / v.u,
        changes=(
            Change(
                "target",
                "{A}'s phone battery is at {b}% and drops by {u} percentage points an hour while "
                "{A.he} {A.v[navigates]}. What is the battery level after {h} hours?",
                slots=dict(h=count(2, 4)),
                when=lambda v: v.b > v.u * v.h,
                steps=[
                    "Drop in {h} hours | u * h | count | points",
                    "Level | b - s1 | number | percent",
                ],
                solve=lambda v: v.b - v.u * v.h,
            ),
            Change(
                "added_step",
                "{A}'s phone battery is at {b}% and drops by {u} percentage points an hour while "
                "{A.he} {A.v[navigates]}. The phone switches off at {k}%. How many hours can "
                "{A.he} navigate?",
                slots=dict(k=count(5, 20, 5)),
                when=lambda v: v.b > v.k and ((v.b - v.k) / v.u * 4).denominator == 1,
                steps=[
                    "Usable points | b - k | count | points",
                    "At {u} an hour | s1 / u | number | hours",
                ],
                solve=lambda v: (v.b - v.k) / v.u,
            ),
            Change(
                "operation",
                "{A}'s phone battery is at {b}% and gains {u} percentage points an hour while "
                "charging slowly. How many hours until it is full?",
                when=lambda v: ((100 - v.b) / v.u * 4).denominator == 1 and v.b < 100,
                steps=[
                    "Points to full | 100 - b | count | points",
                    "At {u} an hour | s1 / u | number | hours",
                ],
                solve=lambda v: (100 - v.b) / v.u,
            ),
        ),
    ),
]
