"""School, sports and ages."""

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


def _bigger_team(v: Values) -> list[str]:
    return [
        "{A}'s team scores | a * 2 + b * 3 | count | points",
        "{B}'s team scores | c * 2 + d * 3 | count | points",
        "{s1} is more than {s2}, so {A}'s team wins"
        if v.a * 2 + v.b * 3 > v.c * 2 + v.d * 3
        else "{s2} is more than {s1}, so {B}'s team wins",
        "The winning margin | s1 - s2 | count | points"
        if v.a * 2 + v.b * 3 > v.c * 2 + v.d * 3
        else "The winning margin | s2 - s1 | count | points",
    ]


FAMILIES = [
    Family(
        id="school/class-supplies",
        topic="school",
        slots=dict(
            A=PERSON, T=thing("stationery"), s=count(18, 32), k=count(2, 5), b=count(8, 24, 4)
        ),
        when=lambda v: v.s * v.k % v.b != 0,
        text="{A} teaches a class of {s} students. Every student needs {k} {T.many}, and "
        "{T.many} come in packs of {b}. How many packs does {A} buy?",
        paraphrases=(
            "Each of the {s} students in {A}'s class gets {k} {T.many}. If a pack holds {b}, how "
            "many packs does {A} need?",
            "{A} must give {k} {T.many} to each of {s} students. Packs have {b} {T.many}. Packs "
            "needed?",
        ),
        steps=[
            "{T.many} needed | s * k | count | {T.many}",
            "Packs of {b} | ceil(s1 / b) | count | packs",
        ],
        solve=lambda v: -(-(v.s * v.k) // v.b),
        changes=(
            Change(
                "target",
                "{A} teaches a class of {s} students. Every student needs {k} {T.many}, and "
                "{T.many} come in packs of {b}. How many {T.many} will be left over?",
                steps=[
                    "{T.many} needed | s * k | count | {T.many}",
                    "Packs of {b} | ceil(s1 / b) | count | packs",
                    "{T.many} bought | s2 * b | count | {T.many}",
                    "Left over | s3 - s1 | count | {T.many}",
                ],
                solve=lambda v: -(-(v.s * v.k) // v.b) * v.b - v.s * v.k,
            ),
            Change(
                "added_step",
                "{A} teaches a class of {s} students. Every student needs {k} {T.many}, and "
                "{T.many} come in packs of {b} costing {p} each. How much does {A} spend?",
                slots=dict(p=money(2, 6)),
                steps=[
                    "{T.many} needed | s * k | count | {T.many}",
                    "Packs of {b} | ceil(s1 / b) | count | packs",
                    "Cost | s2 * p | money",
                ],
                solve=lambda v: -(-(v.s * v.k) // v.b) * v.p,
            ),
            Change(
                "operation",
                "{A} teaches a class of {s} students and has {b} packs of {k} {T.many}. How many "
                "{T.many} can each student get, sharing them equally?",
                when=lambda v: v.b * v.k >= v.s,
                steps=[
                    "{T.many} | b * k | count | {T.many}",
                    "Each student | floor(s1 / s) | count | {T.many}",
                ],
                solve=lambda v: v.b * v.k // v.s,
            ),
        ),
    ),
    Family(
        id="school/test-score",
        topic="school",
        slots=dict(A=PERSON, q=count(20, 50, 5), w=count(2, 5), c=count(10, 45)),
        when=lambda v: v.c < v.q,
        text="A test has {q} questions worth {w} points each. {A} answers {c} questions "
        "correctly. How many points {A.v[does]} {A.he} score?",
        paraphrases=(
            "{A} gets {c} of the {q} questions right on a test where each question is worth {w} "
            "points. What is {A.his} score?",
            "On a {q}-question test, every correct answer earns {w} points. {A} has {c} correct "
            "answers. Score?",
        ),
        steps=["{c} correct answers at {w} points | c * w | count | points"],
        solve=lambda v: v.c * v.w,
        changes=(
            Change(
                "target",
                "A test has {q} questions worth {w} points each. {A} answers {c} questions "
                "correctly. How many points {A.v[does]} {A.he} miss?",
                steps=[
                    "Questions missed | q - c | count | questions",
                    "Points missed | s1 * w | count | points",
                ],
                solve=lambda v: (v.q - v.c) * v.w,
            ),
            Change(
                "added_step",
                "A test has {q} questions worth {w} points each. {A} answers {c} questions "
                "correctly. What percent of the points {A.v[does]} {A.he} score?",
                when=lambda v: v.c < v.q and (v.c * 100 / v.q * 10).denominator == 1,
                steps=[
                    "{A}'s points | c * w | count | points",
                    "Points possible | q * w | count | points",
                    "Percent | s1 / s2 * 100 | percent",
                ],
                solve=lambda v: v.c * 100 / v.q,
            ),
            Change(
                "operation",
                "A test has {q} questions worth {w} points each, and one point is taken off for "
                "each wrong answer. {A} answers {c} questions correctly and the rest wrongly. "
                "How many points {A.v[does]} {A.he} score?",
                when=lambda v: v.c < v.q and v.c * v.w > v.q - v.c,
                steps=[
                    "Points for {c} correct | c * w | count | points",
                    "Wrong answers | q - c | count | answers",
                    "Score | s1 - s2 | count | points",
                ],
                solve=lambda v: v.c * v.w - (v.q - v.c),
            ),
        ),
    ),
    Family(
        id="school/average-of-three",
        topic="school",
        slots=dict(A=PERSON, a=count(60, 100), b=count(60, 100), c=count(60, 100)),
        when=lambda v: (v.a + v.b + v.c) % 3 == 0,
        text="{A} scored {a}, {b} and {c} on three tests. What is {A.his} average score?",
        paraphrases=(
            "Three test results for {A}: {a}, {b}, {c}. Find the mean.",
            "What is the average of {A}'s three test scores, {a}, {b} and {c}?",
        ),
        steps=[
            "Total | a + b + c | count | points",
            "Average | s1 / 3 | count | points",
        ],
        solve=lambda v: (v.a + v.b + v.c) / 3,
        changes=(
            Change(
                "reversed",
                "{A} scored {a} and {b} on two tests. What must {A.he} score on the third test "
                "for an average of {m}?",
                derived=dict(m=Derived("(a + b + c) / 3", "count")),
                steps=[
                    "Total needed | m * 3 | count | points",
                    "Third test | s1 - a - b | count | points",
                ],
                solve=lambda v: 3 * v.m - v.a - v.b,
            ),
            Change(
                "target",
                "{A} scored {a}, {b} and {c} on three tests. What is {A.his} total score?",
                steps=["Total | a + b + c | count | points"],
                solve=lambda v: v.a + v.b + v.c,
            ),
            Change(
                "added_step",
                "{A} scored {a}, {b} and {c} on three tests and {d} on a fourth. What is {A.his} "
                "average score over the four tests?",
                slots=dict(d=count(60, 100)),
                when=lambda v: (v.a + v.b + v.c + v.d) % 4 == 0,
                steps=[
                    "Total | a + b + c + d | count | points",
                    "Average | s1 / 4 | count | points",
                ],
                solve=lambda v: (v.a + v.b + v.c + v.d) / 4,
            ),
        ),
    ),
    Family(
        id="school/field-trip",
        topic="school",
        slots=dict(
            A=PERSON, P=thing("city"), s=count(20, 40), p=money(5, 15), f=money(100, 300, 20)
        ),
        when=lambda v: ((v.s * v.p + v.f) / v.s * 100).denominator == 1,
        text="{A} plans a class trip to a museum in {P} for {s} students. Tickets are {p} each "
        "and the bus costs {f}. If each student pays an equal share, how much does each "
        "student pay?",
        paraphrases=(
            "A museum trip to {P}: {s} students, {p} per ticket, {f} for the bus. {A} splits the "
            "cost evenly among the students. What is each share?",
            "{A}'s {s} students are going to a museum in {P}. With {p} tickets and a {f} bus, "
            "shared equally, what does one student pay?",
        ),
        steps=[
            "Tickets | s * p | money",
            "With the bus | s1 + f | money",
            "Each of {s} students | s2 / s | money",
        ],
        solve=lambda v: (v.s * v.p + v.f) / v.s,
        changes=(
            Change(
                "target",
                "{A} plans a class trip to a museum in {P} for {s} students. Tickets are {p} "
                "each and the bus costs {f}. What does the trip cost in all?",
                steps=["Tickets | s * p | money", "With the bus | s1 + f | money"],
                solve=lambda v: v.s * v.p + v.f,
            ),
            Change(
                "operation",
                "{A} plans a class trip to a museum in {P} for {s} students. Tickets are {p} "
                "each, and a sponsor pays {f} of the cost. What does the class pay?",
                when=lambda v: v.s * v.p > v.f,
                steps=["Tickets | s * p | money", "Less the sponsor | s1 - f | money"],
                solve=lambda v: v.s * v.p - v.f,
            ),
            Change(
                "added_step",
                "{A} plans a class trip to a museum in {P} for {s} students and {t} teachers. "
                "Tickets are {p} each for everyone and the bus costs {f}. What does the trip "
                "cost in all?",
                slots=dict(t=count(2, 4)),
                steps=[
                    "People | s + t | count | people",
                    "Tickets | s1 * p | money",
                    "With the bus | s2 + f | money",
                ],
                solve=lambda v: (v.s + v.t) * v.p + v.f,
            ),
        ),
    ),
    Family(
        id="school/library-books",
        topic="school",
        slots=dict(
            A=PERSON, B=thing("book"), n=count(200, 900, 10), l=count(20, 90), r=count(10, 60)
        ),
        when=lambda v: v.l > v.r,
        text="The school library that {A} runs has {n} {B.many}. On Monday {l} {B.many} are "
        "borrowed and {r} are returned. How many {B.many} are in the library now?",
        paraphrases=(
            "{A}'s library starts Monday with {n} {B.many}. Students borrow {l} and bring back "
            "{r}. How many are on the shelves?",
            "How many {B.many} does {A}'s school library hold after {l} are taken out and {r} "
            "come back, if it had {n}?",
        ),
        steps=[
            "After the loans | n - l | count | {B.many}",
            "After the returns | s1 + r | count | {B.many}",
        ],
        solve=lambda v: v.n - v.l + v.r,
        changes=(
            Change(
                "operation",
                "The school library that {A} runs has {n} {B.many}. On Monday {l} {B.many} are "
                "borrowed and on Tuesday {r} more are borrowed. How many {B.many} are in the "
                "library now?",
                steps=[
                    "After Monday | n - l | count | {B.many}",
                    "After Tuesday | s1 - r | count | {B.many}",
                ],
                solve=lambda v: v.n - v.l - v.r,
            ),
            Change(
                "reversed",
                "The school library that {A} runs ends Monday with {e} {B.many}. During the day "
                "{l} {B.many} were borrowed and {r} returned. How many {B.many} did it have in "
                "the morning?",
                derived=dict(e=Derived("n - l + r", "count")),
                steps=[
                    "Before the returns | e - r | count | {B.many}",
                    "Before the loans | s1 + l | count | {B.many}",
                ],
                solve=lambda v: v.e - v.r + v.l,
            ),
            Change(
                "target",
                "The school library that {A} runs has {n} {B.many}. On Monday {l} {B.many} are "
                "borrowed and {r} are returned. How many more {B.many} go out than come back?",
                steps=["Difference | l - r | count | {B.many}"],
                solve=lambda v: v.l - v.r,
            ),
        ),
    ),
    Family(
        id="school/reading-week",
        topic="school",
        slots=dict(A=PERSON, p=count(10, 30), q=count(20, 60, 5)),
        text="{A} reads {p} pages on each school day and {q} pages on each weekend day. How "
        "many pages {A.v[does]} {A.he} read in a week?",
        paraphrases=(
            "On the five school days {A} reads {p} pages a day, and on Saturday and Sunday {q} "
            "pages a day. Pages per week?",
            "How many pages a week does {A} read at {p} a day Monday to Friday and {q} a day at "
            "the weekend?",
        ),
        steps=[
            "School days | 5 * p | count | pages",
            "Weekend | 2 * q | count | pages",
            "Week | s1 + s2 | count | pages",
        ],
        solve=lambda v: 5 * v.p + 2 * v.q,
        changes=(
            Change(
                "target",
                "{A} reads {p} pages on each school day and {q} pages on each weekend day. How "
                "many more pages {A.v[does]} {A.he} read at the weekend than on the school days?",
                when=lambda v: 2 * v.q > 5 * v.p,
                steps=[
                    "School days | 5 * p | count | pages",
                    "Weekend | 2 * q | count | pages",
                    "More at the weekend | s2 - s1 | count | pages",
                ],
                solve=lambda v: 2 * v.q - 5 * v.p,
            ),
            Change(
                "added_step",
                "{A} reads {p} pages on each school day and {q} pages on each weekend day. How "
                "many pages {A.v[does]} {A.he} read in {w} weeks?",
                slots=dict(w=count(2, 4)),
                steps=[
                    "School days | 5 * p | count | pages",
                    "Weekend | 2 * q | count | pages",
                    "Week | s1 + s2 | count | pages",
                    "{w} weeks | w * s3 | count | pages",
                ],
                solve=lambda v: v.w * (5 * v.p + 2 * v.q),
            ),
            Change(
                "operation",
                "{A} reads {p} pages on each school day and skips reading at the weekend. How "
                "many pages {A.v[does]} {A.he} read in a week?",
                steps=["School days | 5 * p | count | pages"],
                solve=lambda v: 5 * v.p,
            ),
        ),
    ),
    Family(
        id="school/percent-correct",
        topic="percentages",
        slots=dict(A=PERSON, q=count(20, 50, 5), c=count(10, 50)),
        when=lambda v: v.c < v.q and (v.c * 100 / v.q).denominator == 1,
        text="{A} gets {c} out of {q} quiz questions right. What percent {A.v[does]} {A.he} get "
        "right?",
        paraphrases=(
            "On a quiz of {q} questions {A} answers {c} correctly. What is that as a percentage?",
            "What percentage of {q} questions did {A} answer correctly, with {c} right?",
        ),
        steps=["{c} out of {q} as a percent | c / q * 100 | percent"],
        solve=lambda v: v.c * 100 / v.q,
        changes=(
            Change(
                "target",
                "{A} gets {c} out of {q} quiz questions right. What percent {A.v[does]} {A.he} get "
                "wrong?",
                steps=[
                    "Wrong answers | q - c | count | questions",
                    "As a percent of {q} | s1 / q * 100 | percent",
                ],
                solve=lambda v: (v.q - v.c) * 100 / v.q,
            ),
            Change(
                "reversed",
                "{A} gets {r} of {q} quiz questions right. How many questions {A.v[does]} {A.he} "
                "get "
                "right?",
                derived=dict(r=Derived("c / q * 100", "percent")),
                steps=["{r} of {q} | r% * q | count | questions"],
                solve=lambda v: v.r / 100 * v.q,
            ),
            Change(
                "added_step",
                "{A} gets {c} out of {q} quiz questions right. A pass needs {m}% of the "
                "questions. How many more right answers would {A.he} need to reach it?",
                slots=dict(m=count(70, 90, 10)),
                when=lambda v: v.c < v.m * v.q / 100 and (v.m * v.q / 100).denominator == 1,
                steps=[
                    "Right answers for a pass | m% * q | count | questions",
                    "More needed | s1 - c | count | questions",
                ],
                solve=lambda v: v.m * v.q / 100 - v.c,
            ),
        ),
    ),
    Family(
        id="school/chairs-rows",
        topic="school",
        slots=dict(A=PERSON, r=count(4, 10), c=count(5, 12), s=count(20, 80)),
        when=lambda v: v.s > v.r * v.c,
        text="{A} sets out {r} rows of {c} chairs for an assembly, but {s} students come. How "
        "many more chairs {A.v[does]} {A.he} need?",
        paraphrases=(
            "There are {r} rows with {c} chairs each in {A}'s hall, and {s} students arrive. "
            "How many extra chairs are needed?",
            "{s} students and only {r} rows of {c} chairs: how many chairs is {A} short?",
        ),
        steps=[
            "Chairs set out | r * c | count | chairs",
            "More needed | s - s1 | count | chairs",
        ],
        solve=lambda v: v.s - v.r * v.c,
        changes=(
            Change(
                "added_step",
                "{A} sets out {r} rows of {c} chairs for an assembly, but {s} students come. How "
                "many more full rows of {c} chairs {A.v[does]} {A.he} need to add?",
                when=lambda v: v.s > v.r * v.c and (v.s - v.r * v.c) % v.c != 0,
                steps=[
                    "Chairs set out | r * c | count | chairs",
                    "More needed | s - s1 | count | chairs",
                    "Rows of {c} | ceil(s2 / c) | count | rows",
                ],
                solve=lambda v: -(-(v.s - v.r * v.c) // v.c),
            ),
            Change(
                "target",
                "{A} sets out {r} rows of {c} chairs for an assembly. How many chairs {A.v[does]} "
                "{A.he} set out?",
                steps=["Chairs set out | r * c | count | chairs"],
                solve=lambda v: v.r * v.c,
            ),
            Change(
                "operation",
                "{A} sets out {r} rows of {c} chairs for an assembly, and only {k} students come. "
                "How many chairs stay empty?",
                slots=dict(k=count(10, 30)),
                when=lambda v: v.k < v.r * v.c,
                steps=[
                    "Chairs set out | r * c | count | chairs",
                    "Empty | s1 - k | count | chairs",
                ],
                solve=lambda v: v.r * v.c - v.k,
            ),
        ),
    ),
    Family(
        id="school/class-fraction",
        topic="fractions of groups",
        slots=dict(
            A=PERSON, n=count(20, 36), f=frac("1/2", "1/3", "2/3", "1/4", "3/4", "2/5", "3/5")
        ),
        when=lambda v: (v.n * v.f).denominator == 1,
        text="{A}'s class has {n} students, and {f} of them walk to school. How many students "
        "do not walk?",
        paraphrases=(
            "Of the {n} students in {A}'s class, {f} walk to school. How many get there another "
            "way?",
            "In a class of {n}, {A} finds that {f} of the students walk to school. How many "
            "students don't?",
        ),
        steps=[
            "Walkers: {f} of {n} | f * n | count | students",
            "Not walking | n - s1 | count | students",
        ],
        solve=lambda v: v.n - v.f * v.n,
        changes=(
            Change(
                "target",
                "{A}'s class has {n} students, and {f} of them walk to school. How many "
                "students walk?",
                steps=["Walkers: {f} of {n} | f * n | count | students"],
                solve=lambda v: v.f * v.n,
            ),
            Change(
                "reversed",
                "In {A}'s class, {f} of the students walk to school, which is {w} students. How "
                "many students are in the class?",
                derived=dict(w=Derived("f * n", "count")),
                steps=["{w} is {f} of the class | w / f | count | students"],
                solve=lambda v: v.w / v.f,
            ),
            Change(
                "added_step",
                "{A}'s class has {n} students. {f} of them walk to school, and half of the rest "
                "come by bus. How many come by bus?",
                when=lambda v: (v.n * v.f).denominator == 1 and (v.n - v.n * v.f) % 2 == 0,
                steps=[
                    "Walkers: {f} of {n} | f * n | count | students",
                    "The rest | n - s1 | count | students",
                    "Half of them by bus | s2 / 2 | count | students",
                ],
                solve=lambda v: (v.n - v.f * v.n) / 2,
            ),
        ),
    ),
    Family(
        id="school/raffle-tickets",
        topic="school",
        slots=dict(A=PERSON, B=PERSON, a=count(10, 40), k=count(3, 15), p=money(1, 3, "0.5")),
        text="{A} sells {a} raffle tickets for the school fair. {B} sells {k} more than {A}. "
        "Tickets cost {p} each. How much money do they raise together?",
        paraphrases=(
            "For the school fair {A} sells {a} raffle tickets and {B} sells {k} more than that. "
            "At {p} per ticket, how much do the two raise?",
            "Raffle tickets are {p} each. {A} sold {a}; {B} sold {k} more. What did they raise "
            "together?",
        ),
        steps=[
            "{B} sells | a + k | count | tickets",
            "Together | a + s1 | count | tickets",
            "Money raised | s2 * p | money",
        ],
        solve=lambda v: (2 * v.a + v.k) * v.p,
        changes=(
            Change(
                "operation",
                "{A} sells {a} raffle tickets for the school fair. {B} sells {k} fewer than {A}. "
                "Tickets cost {p} each. How much money do they raise together?",
                when=lambda v: v.a > v.k,
                steps=[
                    "{B} sells | a - k | count | tickets",
                    "Together | a + s1 | count | tickets",
                    "Money raised | s2 * p | money",
                ],
                solve=lambda v: (2 * v.a - v.k) * v.p,
            ),
            Change(
                "target",
                "{A} sells {a} raffle tickets for the school fair. {B} sells {k} more than {A}. "
                "Tickets cost {p} each. How much money does {B} raise?",
                steps=["{B} sells | a + k | count | tickets", "{B} raises | s1 * p | money"],
                solve=lambda v: (v.a + v.k) * v.p,
            ),
            Change(
                "roles",
                "{B} sells {a} raffle tickets for the school fair. {A} sells {k} more than {B}. "
                "Tickets cost {p} each. How much money does {B} raise?",
                steps=["{B} raises for {a} tickets | a * p | money"],
                solve=lambda v: v.a * v.p,
            ),
        ),
    ),
    Family(
        id="sports/basketball-points",
        topic="sports",
        slots=dict(A=PERSON, a=count(2, 10), b=count(2, 6), c=count(2, 8)),
        text="In a basketball game {A} makes {a} two-point shots, {b} three-point shots and {c} "
        "free throws worth one point each. How many points {A.v[does]} {A.he} score?",
        paraphrases=(
            "{A}'s game: {a} baskets for two points, {b} for three, and {c} free throws of one "
            "point. Total points?",
            "How many points does {A} score with {c} one-point free throws, {b} three-pointers "
            "and {a} two-pointers?",
        ),
        steps=[
            "Two-point shots | a * 2 | count | points",
            "Three-point shots | b * 3 | count | points",
            "With free throws | s1 + s2 + c | count | points",
        ],
        solve=lambda v: 2 * v.a + 3 * v.b + v.c,
        changes=(
            Change(
                "target",
                "In a basketball game {A} makes {a} two-point shots, {b} three-point shots and "
                "{c} free throws worth one point each. How many shots {A.v[does]} {A.he} make?",
                steps=["Shots | a + b + c | count | shots"],
                solve=lambda v: v.a + v.b + v.c,
            ),
            Change(
                "operation",
                "In a basketball game {A} makes {a} three-point shots, {b} two-point shots and "
                "{c} free throws worth one point each. How many points {A.v[does]} {A.he} score?",
                steps=[
                    "Three-point shots | a * 3 | count | points",
                    "Two-point shots | b * 2 | count | points",
                    "With free throws | s1 + s2 + c | count | points",
                ],
                solve=lambda v: 3 * v.a + 2 * v.b + v.c,
            ),
            Change(
                "added_step",
                "In a basketball game {A} makes {a} two-point shots, {b} three-point shots and "
                "{c} free throws worth one point each. {A.His} team scores {t} points. How many "
                "points do the rest of the team score?",
                slots=dict(t=count(60, 90)),
                steps=[
                    "Two-point shots | a * 2 | count | points",
                    "Three-point shots | b * 3 | count | points",
                    "With free throws | s1 + s2 + c | count | points",
                    "The rest of the team | t - s3 | count | points",
                ],
                solve=lambda v: v.t - (2 * v.a + 3 * v.b + v.c),
            ),
        ),
    ),
    Family(
        id="sports/match-winner",
        topic="sports",
        slots=dict(
            A=PERSON, B=PERSON, a=count(8, 20), b=count(2, 8), c=count(8, 20), d=count(2, 8)
        ),
        when=lambda v: v.a * 2 + v.b * 3 > v.c * 2 + v.d * 3,
        text="{A}'s team makes {a} two-point baskets and {b} three-pointers. {B}'s team makes "
        "{c} two-point baskets and {d} three-pointers. By how many points does the winning "
        "team win?",
        paraphrases=(
            "Two teams: {A}'s with {a} two-pointers and {b} three-pointers, {B}'s with {c} "
            "two-pointers and {d} three-pointers. What is the winning margin?",
            "How many points separate the teams if {A}'s scores {a} twos and {b} threes and "
            "{B}'s scores {c} twos and {d} threes?",
        ),
        steps=_bigger_team,
        solve=lambda v: (v.a * 2 + v.b * 3) - (v.c * 2 + v.d * 3),
        changes=(
            Change(
                "branch",
                "{A}'s team makes {a} two-point baskets and {b} three-pointers. {B}'s team makes "
                "{c} two-point baskets and {d} three-pointers. By how many points does the "
                "winning team win?",
                when=lambda v: v.a * 2 + v.b * 3 < v.c * 2 + v.d * 3,
                steps=_bigger_team,
                solve=lambda v: (v.c * 2 + v.d * 3) - (v.a * 2 + v.b * 3),
            ),
            Change(
                "target",
                "{A}'s team makes {a} two-point baskets and {b} three-pointers. {B}'s team makes "
                "{c} two-point baskets and {d} three-pointers. How many points are scored in "
                "the game?",
                steps=[
                    "{A}'s team scores | a * 2 + b * 3 | count | points",
                    "{B}'s team scores | c * 2 + d * 3 | count | points",
                    "In the game | s1 + s2 | count | points",
                ],
                solve=lambda v: v.a * 2 + v.b * 3 + v.c * 2 + v.d * 3,
            ),
            Change(
                "roles",
                "{A}'s team makes {c} two-point baskets and {d} three-pointers. {B}'s team makes "
                "{a} two-point baskets and {b} three-pointers. How many points does {A}'s team "
                "score?",
                steps=["{A}'s team scores | c * 2 + d * 3 | count | points"],
                solve=lambda v: v.c * 2 + v.d * 3,
            ),
        ),
    ),
    Family(
        id="sports/uniform-cost",
        topic="sports",
        slots=dict(A=PERSON, T=thing("sport"), n=count(10, 22), p=money(15, 35), q=money(8, 18)),
        text="{A} buys a {T.one} at {p} and a pair of shorts at {q} for each of {n} "
        "players. What is the total cost?",
        paraphrases=(
            "Each of the {n} players on {A}'s team gets a {T.one} ({p}) and shorts ({q}). "
            "How much does the coach spend?",
            "What does {A} pay for {n} sets of a {p} {T.one} plus {q} shorts?",
        ),
        steps=[
            "One set | p + q | money",
            "For {n} players | n * s1 | money",
        ],
        solve=lambda v: v.n * (v.p + v.q),
        changes=(
            Change(
                "added_step",
                "{A} buys a {T.one} at {p} and a pair of shorts at {q} for each of {n} "
                "players, and gets {d} off the whole order. What is the total cost?",
                slots=dict(d=pct(10, 20, 5)),
                steps=[
                    "One set | p + q | money",
                    "For {n} players | n * s1 | money",
                    "Discount of {d} | d% * s2 | money",
                    "Total | s2 - s3 | money",
                ],
                solve=lambda v: v.n * (v.p + v.q) * (1 - v.d / 100),
            ),
            Change(
                "target",
                "{A} buys a {T.one} at {p} and a pair of shorts at {q} for each of {n} "
                "players. How much do the shorts cost in all?",
                steps=["Shorts for {n} players | n * q | money"],
                solve=lambda v: v.n * v.q,
            ),
            Change(
                "reversed",
                "{A} buys a {T.one} at {p} and a pair of shorts at {q} for each player and "
                "spends {t}. How many players are there?",
                derived=dict(t=Derived("n * (p + q)", "money")),
                steps=["One set | p + q | money", "Players | t / s1 | count | players"],
                solve=lambda v: v.t / (v.p + v.q),
            ),
        ),
    ),
    Family(
        id="sports/win-percent",
        topic="percentages",
        slots=dict(A=PERSON, g=count(10, 40, 5), w=count(4, 36)),
        when=lambda v: v.w < v.g and (v.w * 100 / v.g).denominator == 1,
        text="{A}'s team plays {g} games this season and wins {w}. What percent of its games "
        "does the team win?",
        paraphrases=(
            "Out of {g} games, the team {A} plays for wins {w}. What is its winning percentage?",
            "What percentage of {g} games did {A}'s team win, with {w} wins?",
        ),
        steps=["{w} of {g} games | w / g * 100 | percent"],
        solve=lambda v: v.w * 100 / v.g,
        changes=(
            Change(
                "target",
                "{A}'s team plays {g} games this season and wins {w}. How many games does it "
                "lose, if none end in a draw?",
                steps=["Lost | g - w | count | games"],
                solve=lambda v: v.g - v.w,
            ),
            Change(
                "operation",
                "{A}'s team plays {g} games this season and loses {w}, with no draws. What "
                "percent of its games does the team win?",
                steps=[
                    "Won | g - w | count | games",
                    "{s1} of {g} games | s1 / g * 100 | percent",
                ],
                solve=lambda v: (v.g - v.w) * 100 / v.g,
            ),
            Change(
                "reversed",
                "{A}'s team plays {g} games this season and wins {r} of them. How many games "
                "does it win?",
                derived=dict(r=Derived("w / g * 100", "percent")),
                steps=["{r} of {g} | r% * g | count | games"],
                solve=lambda v: v.r / 100 * v.g,
            ),
        ),
    ),
    Family(
        id="sports/training-hours",
        topic="sports",
        slots=dict(A=PERSON, m=count(30, 90, 15), d=count(3, 6), w=count(4, 12)),
        when=lambda v: (v.m * v.d * v.w / 60 * 4).denominator == 1,
        text="{A} trains for {m} minutes a day, {d} days a week, for {w} weeks before a race. "
        "How many hours {A.v[does]} {A.he} train?",
        paraphrases=(
            "Before the race {A} trains {d} days each week for {w} weeks, {m} minutes a session. "
            "How many hours in total?",
            "How many hours of training does {A} do at {m} minutes a day, {d} days a week, over "
            "{w} weeks?",
        ),
        steps=[
            "Minutes a week | m * d | count | minutes",
            "For {w} weeks | w * s1 | count | minutes",
            "In hours | s2 / 60 | number | hours",
        ],
        solve=lambda v: v.m * v.d * v.w / 60,
        changes=(
            Change(
                "target",
                "{A} trains for {m} minutes a day, {d} days a week, for {w} weeks before a race. "
                "How many training sessions {A.v[does]} {A.he} do?",
                steps=["Sessions | d * w | count | sessions"],
                solve=lambda v: v.d * v.w,
            ),
            Change(
                "operation",
                "{A} trains for {m} minutes a day, {d} days a week, for {w} weeks, and doubles "
                "each session in the last week. How many minutes {A.v[does]} {A.he} train?",
                steps=[
                    "Minutes a week | m * d | count | minutes",
                    "The last week, doubled | 2 * s1 | count | minutes",
                    "All weeks | (w - 1) * s1 + s2 | count | minutes",
                ],
                solve=lambda v: (v.w + 1) * v.m * v.d,
            ),
            Change(
                "added_step",
                "{A} trains for {m} minutes a day, {d} days a week, for {w} weeks before a race, "
                "burning {c} calories a minute. How many calories {A.v[does]} {A.he} burn?",
                slots=dict(c=count(6, 12)),
                steps=[
                    "Minutes a week | m * d | count | minutes",
                    "For {w} weeks | w * s1 | count | minutes",
                    "Calories | s2 * c | count | calories",
                ],
                solve=lambda v: v.m * v.d * v.w * v.c,
            ),
        ),
    ),
    Family(
        id="sports/round-robin",
        topic="sports",
        slots=dict(A=PERSON, n=count(4, 12), t=count(30, 60, 15)),
        text="{A} organises a tournament where each of {n} teams plays every other team once. "
        "Each game lasts {t} minutes. How many minutes of play are there?",
        paraphrases=(
            "In {A}'s tournament, {n} teams each meet every other team once, in games of {t} "
            "minutes. Total minutes of play?",
            "How many minutes of games are in a tournament of {n} teams, all playing each other "
            "once, if every game takes {t} minutes, as {A} plans?",
        ),
        steps=[
            "Games | n * (n - 1) / 2 | count | games",
            "Minutes | s1 * t | count | minutes",
        ],
        solve=lambda v: v.n * (v.n - 1) / 2 * v.t,
        changes=(
            Change(
                "operation",
                "{A} organises a tournament where each of {n} teams plays every other team twice, "
                "home and away. Each game lasts {t} minutes. How many minutes of play are there?",
                steps=[
                    "Games | n * (n - 1) | count | games",
                    "Minutes | s1 * t | count | minutes",
                ],
                solve=lambda v: v.n * (v.n - 1) * v.t,
            ),
            Change(
                "target",
                "{A} organises a tournament where each of {n} teams plays every other team once. "
                "How many games does each team play?",
                steps=["Games per team | n - 1 | count | games"],
                solve=lambda v: v.n - 1,
            ),
            Change(
                "added_step",
                "{A} organises a tournament where each of {n} teams plays every other team once, "
                "on {f} fields at the same time. Each game lasts {t} minutes. How many minutes "
                "does the tournament take, at least?",
                slots=dict(f=count(2, 3)),
                steps=[
                    "Games | n * (n - 1) / 2 | count | games",
                    "Rounds on {f} fields | ceil(s1 / f) | count | rounds",
                    "Minutes | s2 * t | count | minutes",
                ],
                solve=lambda v: -(-(v.n * (v.n - 1) / 2) // v.f) * v.t,
            ),
        ),
    ),
    Family(
        id="sports/relay-time",
        topic="sports",
        slots=dict(
            A=PERSON, B=PERSON, a=count(50, 70), b=count(50, 70), c=count(50, 70), d=count(50, 70)
        ),
        text="In a relay, {A} runs the first leg in {a} seconds, {B} the second in {b} seconds, "
        "and two teammates run {c} and {d} seconds. What is the team's total time in seconds?",
        paraphrases=(
            "{A} ({a} s), {B} ({b} s) and two more runners ({c} s and {d} s) make up a relay. "
            "What is the total time in seconds?",
            "How many seconds does a relay take if {A} runs {a} seconds, {B} {b} seconds and "
            "the other two {c} and {d} seconds?",
        ),
        steps=["Total | a + b + c + d | count | seconds"],
        solve=lambda v: v.a + v.b + v.c + v.d,
        changes=(
            Change(
                "target",
                "In a relay, {A} runs the first leg in {a} seconds, {B} the second in {b} "
                "seconds, and two teammates run {c} and {d} seconds. What is the average leg "
                "time in seconds?",
                when=lambda v: ((v.a + v.b + v.c + v.d) / 4 * 4).denominator == 1,
                steps=[
                    "Total | a + b + c + d | count | seconds",
                    "Average of 4 legs | s1 / 4 | number | seconds",
                ],
                solve=lambda v: (v.a + v.b + v.c + v.d) / 4,
            ),
            Change(
                "roles",
                "In a relay, {A} runs the first leg in {a} seconds and {B} the second in {b} "
                "seconds. How many seconds faster is {A} than {B}?",
                when=lambda v: v.b > v.a,
                steps=["Faster by | b - a | count | seconds"],
                solve=lambda v: v.b - v.a,
            ),
            Change(
                "added_step",
                "In a relay, {A} runs the first leg in {a} seconds, {B} the second in {b} "
                "seconds, and two teammates run {c} and {d} seconds. The record is {r} seconds. "
                "By how many seconds do they miss it?",
                slots=dict(r=count(180, 200)),
                when=lambda v: v.a + v.b + v.c + v.d > v.r,
                steps=[
                    "Total | a + b + c + d | count | seconds",
                    "Over the record | s1 - r | count | seconds",
                ],
                solve=lambda v: v.a + v.b + v.c + v.d - v.r,
            ),
        ),
    ),
    Family(
        id="sports/goals-needed",
        topic="sports",
        slots=dict(A=PERSON, g=count(20, 40), n=count(8, 15), a=count(2, 3)),
        when=lambda v: v.g > v.n * v.a,
        text="{A} wants to score {g} goals this season. {A.He} {A.v[has]} played {n} games and "
        "scored {a} goals in each. How many more goals {A.v[does]} {A.he} need?",
        paraphrases=(
            "{A}'s goal for the season is {g} goals. After {n} games with {a} goals per game, "
            "how many goals are still missing?",
            "With {a} goals in each of {n} games so far, how many more does {A} need to reach {g}?",
        ),
        steps=[
            "Goals so far | n * a | count | goals",
            "Still needed | g - s1 | count | goals",
        ],
        solve=lambda v: v.g - v.n * v.a,
        changes=(
            Change(
                "added_step",
                "{A} wants to score {g} goals this season. {A.He} {A.v[has]} played {n} games "
                "and scored {a} goals in each, and {r} games are left. How many goals a game "
                "{A.v[does]} {A.he} need on average?",
                slots=dict(r=count(4, 10)),
                when=lambda v: v.g > v.n * v.a and ((v.g - v.n * v.a) / v.r * 4).denominator == 1,
                steps=[
                    "Goals so far | n * a | count | goals",
                    "Still needed | g - s1 | count | goals",
                    "Per game over {r} games | s2 / r | number | goals",
                ],
                solve=lambda v: (v.g - v.n * v.a) / v.r,
            ),
            Change(
                "target",
                "{A} has played {n} games this season and scored {a} goals in each. How many "
                "goals {A.v[has]} {A.he} scored?",
                steps=["Goals so far | n * a | count | goals"],
                solve=lambda v: v.n * v.a,
            ),
            Change(
                "operation",
                "{A} wants to score {g} goals this season. {A.He} {A.v[has]} played {n} games and "
                "scored {a} goals in each, and already beat the target. By how many goals "
                "{A.v[is]} "
                "{A.he} over it?",
                when=lambda v: v.n * v.a > v.g,
                steps=[
                    "Goals so far | n * a | count | goals",
                    "Over the target | s1 - g | count | goals",
                ],
                solve=lambda v: v.n * v.a - v.g,
            ),
        ),
    ),
    Family(
        id="ages/older-in-years",
        topic="ages",
        slots=dict(A=PERSON, B=PERSON, b=count(6, 40), k=count(2, 12), y=count(2, 10)),
        text="{A} is {k} years older than {B}. {B} is {b} years old. How old will {A} be in {y} "
        "years?",
        paraphrases=(
            "{B} is {b}, and {A} is {k} years older. What age will {A} be {y} years from now?",
            "In {y} years, how old will {A} be, if {A.he} {A.v[is]} {k} years older than {B}, who "
            "is {b}?",
        ),
        steps=[
            "{A} is now | b + k | count | years",
            "In {y} years | s1 + y | count | years",
        ],
        solve=lambda v: v.b + v.k + v.y,
        changes=(
            Change(
                "operation",
                "{A} is {k} years younger than {B}. {B} is {b} years old. How old will {A} be in "
                "{y} years?",
                when=lambda v: v.b > v.k,
                steps=[
                    "{A} is now | b - k | count | years",
                    "In {y} years | s1 + y | count | years",
                ],
                solve=lambda v: v.b - v.k + v.y,
            ),
            Change(
                "roles",
                "{B} is {k} years older than {A}. {B} is {b} years old. How old will {A} be in "
                "{y} years?",
                when=lambda v: v.b > v.k,
                steps=[
                    "{A} is now | b - k | count | years",
                    "In {y} years | s1 + y | count | years",
                ],
                solve=lambda v: v.b - v.k + v.y,
            ),
            Change(
                "target",
                "{A} is {k} years older than {B}. {B} is {b} years old. How old was {A} {y} years "
                "ago?",
                when=lambda v: v.b + v.k > v.y,
                steps=[
                    "{A} is now | b + k | count | years",
                    "{y} years ago | s1 - y | count | years",
                ],
                solve=lambda v: v.b + v.k - v.y,
            ),
        ),
    ),
    Family(
        id="ages/times-as-old",
        topic="ages",
        slots=dict(A=PERSON, B=PERSON, b=count(3, 15), m=count(2, 4)),
        text="{A} is {m} times as old as {B}. {B} is {b}. What is the sum of their ages?",
        paraphrases=(
            "{B} is {b} years old, and {A} is {m} times {B}'s age. Add their ages together.",
            "How old are {A} and {B} together, if {B} is {b} and {A} is {m} times as old?",
        ),
        steps=[
            "{A} is | m * b | count | years",
            "Together | s1 + b | count | years",
        ],
        solve=lambda v: v.m * v.b + v.b,
        changes=(
            Change(
                "target",
                "{A} is {m} times as old as {B}. {B} is {b}. How much older is {A} than {B}?",
                steps=["{A} is | m * b | count | years", "Older by | s1 - b | count | years"],
                solve=lambda v: v.m * v.b - v.b,
            ),
            Change(
                "reversed",
                "{A} is {m} times as old as {B}. Together they are {t} years old. How old is {B}?",
                derived=dict(t=Derived("m * b + b", "count")),
                steps=[
                    "Parts: {m} for {A}, 1 for {B} | m + 1 | count | parts",
                    "{B} is one part | t / s1 | count | years",
                ],
                solve=lambda v: v.t / (v.m + 1),
            ),
            Change(
                "added_step",
                "{A} is {m} times as old as {B}. {B} is {b}. What will the sum of their ages be "
                "in {y} years?",
                slots=dict(y=count(2, 10)),
                steps=[
                    "{A} is | m * b | count | years",
                    "Together now | s1 + b | count | years",
                    "In {y} years, both older by {y} | s2 + 2 * y | count | years",
                ],
                solve=lambda v: v.m * v.b + v.b + 2 * v.y,
            ),
        ),
    ),
    Family(
        id="ages/years-ago",
        topic="ages",
        slots=dict(A=PERSON, a=count(20, 60), y=count(3, 15)),
        when=lambda v: v.a > v.y,
        text="{A} is {a} years old. How old {A.v[was]} {A.he} {y} years ago?",
        paraphrases=(
            "{y} years ago, how old was {A}, who is {a} now?",
            "{A} turned {a} this year. What was {A.his} age {y} years back?",
        ),
        steps=["{y} years before {a} | a - y | count | years"],
        solve=lambda v: v.a - v.y,
        changes=(
            Change(
                "operation",
                "{A} is {a} years old. How old will {A.he} be in {y} years?",
                steps=["{y} years after {a} | a + y | count | years"],
                solve=lambda v: v.a + v.y,
            ),
            Change(
                "added_step",
                "{A} is {a} years old. How old {A.v[was]} {A.he} {y} years ago, in months?",
                steps=[
                    "{y} years before {a} | a - y | count | years",
                    "In months | s1 * 12 | count | months",
                ],
                solve=lambda v: (v.a - v.y) * 12,
            ),
            Change(
                "target",
                "{A} is {a} years old. In how many years will {A.he} be {t}?",
                slots=dict(t=count(65, 90, 5)),
                steps=["Years until {t} | t - a | count | years"],
                solve=lambda v: v.t - v.a,
            ),
        ),
    ),
    Family(
        id="ages/sum-three",
        topic="ages",
        slots=dict(A=PERSON, B=PERSON, C=PERSON, a=count(8, 15), k=count(2, 6), m=count(2, 3)),
        text="{A} is {a}. {B} is {k} years older than {A}, and {C} is {m} times as old as {B}. "
        "How old are the three together?",
        paraphrases=(
            "{B} is {k} years older than {A}, who is {a}. {C}'s age is {m} times {B}'s. Sum of "
            "the three ages?",
            "What do the ages of {A} ({a}), {B} ({k} years older than {A}) and {C} ({m} times "
            "{B}'s age) add up to?",
        ),
        steps=[
            "{B} is | a + k | count | years",
            "{C} is | m * s1 | count | years",
            "Together | a + s1 + s2 | count | years",
        ],
        solve=lambda v: v.a + (v.a + v.k) + v.m * (v.a + v.k),
        changes=(
            Change(
                "target",
                "{A} is {a}. {B} is {k} years older than {A}, and {C} is {m} times as old as {B}. "
                "How old is {C}?",
                steps=["{B} is | a + k | count | years", "{C} is | m * s1 | count | years"],
                solve=lambda v: v.m * (v.a + v.k),
            ),
            Change(
                "operation",
                "{A} is {a}. {B} is {k} years younger than {A}, and {C} is {m} times as old as "
                "{B}. How old are the three together?",
                when=lambda v: v.a > v.k,
                steps=[
                    "{B} is | a - k | count | years",
                    "{C} is | m * s1 | count | years",
                    "Together | a + s1 + s2 | count | years",
                ],
                solve=lambda v: v.a + (v.a - v.k) + v.m * (v.a - v.k),
            ),
            Change(
                "roles",
                "{B} is {a}. {A} is {k} years older than {B}, and {C} is {m} times as old as {B}. "
                "How old are the three together?",
                steps=[
                    "{A} is | a + k | count | years",
                    "{C} is | m * a | count | years",
                    "Together | a + s1 + s2 | count | years",
                ],
                solve=lambda v: v.a + (v.a + v.k) + v.m * v.a,
            ),
        ),
    ),
    Family(
        id="ages/half-age",
        topic="ages",
        slots=dict(A=PERSON, B=PERSON, a=count(20, 50, 2), y=count(2, 8)),
        text="{B} is half as old as {A}, who is {a}. How old will {B} be in {y} years?",
        paraphrases=(
            "{A} is {a} and {B} is half {A}'s age. What is {B}'s age {y} years from now?",
            "In {y} years, how old is {B}, who is half as old as {a}-year-old {A}?",
        ),
        steps=["{B} is | a / 2 | count | years", "In {y} years | s1 + y | count | years"],
        solve=lambda v: v.a / 2 + v.y,
        changes=(
            Change(
                "operation",
                "{B} is twice as old as {A}, who is {a}. How old will {B} be in {y} years?",
                steps=["{B} is | a * 2 | count | years", "In {y} years | s1 + y | count | years"],
                solve=lambda v: v.a * 2 + v.y,
            ),
            Change(
                "roles",
                "{A} is half as old as {B}, who is {a}. How old will {B} be in {y} years?",
                steps=["{B} in {y} years | a + y | count | years"],
                solve=lambda v: v.a + v.y,
            ),
            Change(
                "target",
                "{B} is half as old as {A}, who is {a}. How old will {A} be when {B} is {A}'s "
                "age now?",
                steps=[
                    "{B} is | a / 2 | count | years",
                    "Years until {B} is {a} | a - s1 | count | years",
                    "{A} then | a + s2 | count | years",
                ],
                solve=lambda v: v.a + v.a / 2,
            ),
        ),
    ),
]
