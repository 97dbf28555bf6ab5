"""Attacks on the word-problem family's sound reuse, as an outsider who wants a stale answer
served would write them: a cached answer whose words (a condition, a comparison, a choice, a
rounding, a conclusion) or numbers (a constant that equals a quantity) depend on the values,
then a request with other values that keep the arithmetic valid but change what the words
should say. Through both wrappers with an oracle that answers every call right, the served
answer is always the oracle's answer for the new request."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import pytest

from stepcache_integrations import StepCache, StepCacheLLM, StepCacheRecord
from stepcache_integrations.core.text.quantities import number_to_words
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import ScriptedChatModel, ScriptedLLM
from tests.word_problems.prose_problems import (
    Problem,
    Values,
    X,
    num,
    per_thing,
    same_answer,
    totals,
    usd,
)
from tests.word_problems.test_prose_dependence import WRAPPERS

Solve = Callable[[Values], list[str]]


def _v(**kwargs: int | str) -> Values:
    return {k: Fraction(str(v)) for k, v in kwargs.items()}


def _problem(pid: str, kind: str, text: str, solve: Solve, *pairs: tuple[Values, Values],
             money: tuple[str, ...] = (), words: tuple[str, ...] = ()) -> Problem:  # fmt: skip
    def render(v: Values) -> dict[str, str]:
        shown = {k: usd(v[k]) for k in money}
        shown.update({k: number_to_words(int(v[k])) for k in words})
        return shown

    return Problem(pid, kind, text, solve, tuple(pairs), render)


def _beads(verb: str) -> Solve:
    def solve(v: Values) -> list[str]:
        red, blue = v["red"], v["blue"]
        hi, lo, colour, other = (
            (red, blue, "red", "blue") if red > blue else (blue, red, "blue", "red")
        )
        return [
            f"Step 1: {num(hi)} {colour} beads {verb} {num(lo)} {other} beads.",
            f"Step 2: All the beads: {num(red)} + {num(blue)} = {num(red + blue)}",
            f"#### {num(red + blue)}",
        ]

    return solve


BEADS = "Ana has {red} red beads and {blue} blue beads. Which colour does she have more of, and how many beads does she have?"  # noqa: E501
SWAP = (_v(red=20, blue=13), _v(red=13, blue=20))

# Words the family does not know that compare: the oracle's first step names the larger colour.
SYNONYMS = [
    _problem(f"synonym-{verb}", "comparison synonym", BEADS, _beads(verb), SWAP)
    for verb in ("outnumber", "surpass", "top", "beat", "dwarf", "exceed", "are more than")
]


def _labelled(v: Values) -> list[str]:
    red, blue = v["red"], v["blue"]
    colour = "red" if red > blue else "blue"
    return [
        f"Step 1: Larger colour {colour}: {num(red)} + {num(blue)} = {num(red + blue)}",
        f"#### {num(red + blue)}",
    ]


def _restated(v: Values) -> list[str]:
    t = totals(v)
    return [
        *t.lines,
        f"Step 3: Blue {usd(t.blue)} and red {usd(t.red)}: she takes {t.colour} for {usd(t.cheap)}",
        f"#### {usd(t.cheap)}",
    ]


def _silent_rounding(v: Values) -> list[str]:
    people = v["pupils"] + v["teachers"]
    buses = math.ceil(people / v["seats"])
    return [
        f"Step 1: People: {num(v['pupils'])} + {num(v['teachers'])} = {num(people)}",
        f"Step 2: Buses: {num(people)} ÷ {num(v['seats'])} = {num(people / v['seats'])}",
        f"Step 3: Cost: {buses} {X} {usd(v['cost'])} = {usd(buses * v['cost'])}",
        f"#### {usd(buses * v['cost'])}",
    ]


def _legs(v: Values) -> list[str]:
    return per_thing(v, "legs", ("Cow", "cows", 4), ("Hen", "hens", 2))


def _drips(v: Values) -> list[str]:
    minutes = v["hours"] * 60
    return [
        f"Step 1: Minutes: {num(v['hours'])} {X} 60 = {num(minutes)}",
        f"Step 2: Millilitres: {num(minutes)} {X} {num(v['ml'])} = {num(minutes * v['ml'])}",
        f"#### {num(minutes * v['ml'])}",
    ]


def _percent_words(v: Values) -> list[str]:
    given = v["pct"] / 100 * v["cards"]
    return [
        f"Step 1: Given away: {num(v['pct'])}/100 {X} {num(v['cards'])} = {num(given)}",
        f"Step 2: Kept: {num(v['cards'])} - {num(given)} = {num(v['cards'] - given)}",
        f"#### {num(v['cards'] - given)}",
    ]


def _checked_choice(v: Values) -> list[str]:
    # Uses the dearer total in a check, then takes the cheaper one without a word of why.
    t = totals(v)
    return [
        *t.lines,
        f"Step 3: Check: {usd(t.dear)} - {usd(t.cheap)} = {usd(t.dear - t.cheap)}",
        f"Step 4: She takes {t.colour}: {usd(t.cheap)}",
        f"#### {usd(t.cheap)}",
    ]


def _splurge(v: Values) -> list[str]:
    # Names the dearer colour with a word the family does not know, and never uses the other.
    dear = max(v["b"], v["r"])
    return [
        f"Step 1: Splurge: {num(v['n'])} {X} {usd(dear)} = {usd(v['n'] * dear)}",
        f"#### {usd(v['n'] * dear)}",
    ]


def _above(v: Values) -> list[str]:
    cost = v["n"] * v["p"]
    if cost > v["limit"]:
        return [
            f"Step 1: Order: {num(v['n'])} {X} {usd(v['p'])} = {usd(cost)}",
            f"Step 2: {usd(cost)} is above {usd(v['limit'])}, so delivery is free: "
            f"{usd(cost)} + $0 = {usd(cost)}",
            f"#### {usd(cost)}",
        ]
    return [
        f"Step 1: Order: {num(v['n'])} {X} {usd(v['p'])} = {usd(cost)}",
        f"Step 2: {usd(cost)} is not above {usd(v['limit'])}, so delivery costs "
        f"{usd(v['fee'])}: {usd(cost)} + {usd(v['fee'])} = {usd(cost + v['fee'])}",
        f"#### {usd(cost + v['fee'])}",
    ]


def _bulk(v: Values) -> list[str]:
    price = v["p"] - v["off"] if v["n"] >= v["least"] else v["p"]
    first = (
        f"Step 1: Price each: {usd(v['p'])} - {usd(v['off'])} = {usd(price)}"
        if v["n"] >= v["least"]
        else f"Step 1: Price each: {usd(v['p'])} - $0 = {usd(price)}"
    )
    return [
        first,
        f"Step 2: Cost: {num(v['n'])} {X} {usd(price)} = {usd(v['n'] * price)}",
        f"#### {usd(v['n'] * price)}",
    ]


def _under_by(v: Values) -> list[str]:
    cost = v["n"] * v["p"]
    if cost < v["limit"]:
        return [
            f"Step 1: Order: {num(v['n'])} {X} {usd(v['p'])} = {usd(cost)}",
            f"Step 2: Under the limit by: {usd(v['limit'])} - {usd(cost)} = "
            f"{usd(v['limit'] - cost)}",
            f"Step 3: Total: {usd(cost)} + {usd(v['fee'])} = {usd(cost + v['fee'])}",
            f"#### {usd(cost + v['fee'])}",
        ]
    return [
        f"Step 1: Order: {num(v['n'])} {X} {usd(v['p'])} = {usd(cost)}",
        f"Step 2: Total: {usd(cost)} + $0 = {usd(cost)}",
        f"#### {usd(cost)}",
    ]


def _buses_ordinal(v: Values) -> list[str]:
    trips = math.ceil(v["people"] / v["seats"])
    word = {1: "first", 2: "second", 3: "third", 4: "fourth"}[trips]
    return [
        f"Step 1: Trips: {num(v['people'])} ÷ {num(v['seats'])} = {num(v['people'] / v['seats'])}",
        f"Step 2: The last people go on the {word} trip.",
        f"Step 3: Fuel: {num(v['people'])} {X} {usd(v['fuel'])} = {usd(v['people'] * v['fuel'])}",
        f"#### {usd(v['people'] * v['fuel'])}",
    ]


def _yes(v: Values) -> list[str]:
    seats = v["rows"] * v["per"]
    answer = "yes, they all get a seat" if seats >= v["guests"] else "no, some must stand"
    return [
        f"Step 1: Seats: {num(v['rows'])} {X} {num(v['per'])} = {num(seats)}",
        f"Step 2: {num(seats)} against {num(v['guests'])} guests: {answer}.",
        f"Step 3: Seats left: {num(seats)} - {num(v['guests'])} = {num(seats - v['guests'])}",
        f"#### {num(seats - v['guests'])}",
    ]


def _interval(v: Values) -> list[str]:
    length = v["hours"] * 60 + v["extra"]
    need = "needs" if length > 90 else "does not need"
    return [
        f"Step 1: Minutes: {num(v['hours'])} {X} 60 + {num(v['extra'])} = {num(length)}",
        f"Step 2: {num(length)} minutes is more than 90, so the film {need} an interval.",
        f"#### {num(length)}",
    ]


def _larger(v: Values) -> list[str]:
    # Picks the larger of two of its values in the final line, without a word of why.
    left = v["rolls"] - v["sold"] - v["gift"]
    return [
        f"Step 1: Not sold: {num(v['rolls'])} - {num(v['sold'])} = {num(v['rolls'] - v['sold'])}",
        f"Step 2: Left: {num(v['rolls'] - v['sold'])} - {num(v['gift'])} = {num(left)}",
        f"#### {num(max(left, v['gift']))}",
    ]


def _larger_said_twice(v: Values) -> list[str]:
    # The same choice, stated in a sentence and again on the "####" line.
    lines = _larger(v)
    return [*lines[:-1], f"So the answer is {lines[-1].removeprefix('#### ')}.", lines[-1]]


def _conditional(v: Values) -> list[str]:
    # Decides by the request's condition without a word, past a check that uses both totals.
    t = totals(v)
    paid = t.blue if t.blue < v["limit"] else t.red
    return [
        *t.lines,
        f"Step 3: Check: {usd(v['limit'])} + {usd(t.red)} + {usd(t.blue)} = "
        f"{usd(v['limit'] + t.red + t.blue)}",
        f"Step 4: She pays {usd(paid)}.",
        f"#### {usd(paid)}",
    ]


ATTACKS: list[Problem] = [
    *SYNONYMS,
    _problem("label", "comparison in a label", BEADS, _labelled, SWAP),
    _problem(
        "restated-choice",
        "choice restating both totals",
        "Blue pens cost {b} and red pens cost {r}. Ana buys {n} pens of the cheaper colour. "
        "How much does she pay?",
        _restated,
        (_v(b=12, r=15, n=3), _v(b=15, r=12, n=3)),
        money=("b", "r"),
    ),
    _problem(
        "silent-rounding",
        "rounding without a word",
        "{pupils} pupils and {teachers} teachers go on a trip. A bus seats {seats} people and "
        "costs {cost}. How much do the buses cost?",
        _silent_rounding,
        # 30 + 2 = 32, 32 / 20 = 1.6 -> 2 buses: the 2 is also the 2 teachers.
        (
            _v(pupils=30, teachers=2, seats=20, cost=100),
            _v(pupils=50, teachers=2, seats=20, cost=100),
        ),
        money=("cost",),
    ),
    _problem(
        "legs",
        "uncued constant",
        "A farm has {cows} cows and {hens} hens. How many legs do they have?",
        _legs,
        (_v(cows=2, hens=4), _v(cows=3, hens=5)),
    ),
    _problem(
        "drips",
        "cued constant",
        "A tap drips {ml} millilitres a minute for {hours} hours. How many millilitres does "
        "it drip?",
        _drips,
        (_v(ml=60, hours=2), _v(ml=45, hours=3)),
    ),
    _problem(
        "percent-words",
        "constant 100 in words",
        "Mia has {cards} cards and gives away {pct} percent of them. How many cards does she keep?",
        _percent_words,
        (_v(cards=100, pct=40), _v(cards=80, pct=20)),
        (_v(cards=100, pct=40), _v(cards=100, pct=20)),  # the 100s stay: nothing is rebound
        words=("cards", "pct"),
    ),
    _problem(
        "larger-in-the-final-line",
        "choice in the final line",
        "A baker makes {rolls} rolls, sells {sold} and gives {gift} to a neighbour. Which is "
        "larger, the rolls she gives away or the rolls she has left, and how many is that?",
        _larger,
        (_v(rolls=40, sold=20, gift=7), _v(rolls=40, sold=20, gift=15)),  # 13 -> 15 given
        (_v(rolls=40, sold=20, gift=15), _v(rolls=40, sold=25, gift=7)),  # 15 -> 8 left
    ),
    _problem(
        "larger-said-twice",
        "choice in the final lines",
        "A baker makes {rolls} rolls, sells {sold} and gives {gift} to a neighbour. Which is "
        "larger, the rolls she gives away or the rolls she has left, and how many is that?",
        _larger_said_twice,
        (_v(rolls=40, sold=20, gift=7), _v(rolls=40, sold=20, gift=15)),
    ),
    _problem(
        "silent-condition",
        "condition decided without a word",
        "Blue mugs cost {b} and red mugs cost {r}. Ana buys {n} blue mugs if that costs under "
        "{limit}, else {n} red mugs. How much does she pay?",
        _conditional,
        (_v(b=12, r=10, n=3, limit=40), _v(b=14, r=10, n=3, limit=40)),  # 36 -> 42: red
        money=("b", "r", "limit"),
    ),
    _problem(
        "checked-choice",
        "choice past a check",
        "Blue mugs cost {b} and red mugs cost {r}. Ana buys {n} mugs of the cheaper colour. "
        "How much does she pay?",
        _checked_choice,
        (_v(b=12, r=15, n=3), _v(b=15, r=12, n=3)),
        money=("b", "r"),
    ),
    _problem(
        "splurge",
        "choice named by an unknown word",
        "Blue hats cost {b} and red hats cost {r}. Ana buys {n} hats of the dearer colour. "
        "How much does she pay?",
        _splurge,
        (_v(b=12, r=15, n=3), _v(b=15, r=12, n=3)),
        money=("b", "r"),
    ),
    _problem(
        "free-above",
        "threshold",
        "Delivery is free above {limit}, else it costs {fee}. Bo buys {n} plants at {p} each. "
        "How much does he pay?",
        _above,
        (_v(limit=50, fee=6, n=4, p=15), _v(limit=50, fee=6, n=3, p=15)),
        (_v(limit=50, fee=6, n=3, p=15), _v(limit=50, fee=6, n=4, p=15)),
        money=("limit", "fee", "p"),
    ),
    _problem(
        "bulk",
        "condition hidden in the arithmetic",
        "Pens cost {p} each, and {off} less each when you buy at least {least}. Ana buys {n} "
        "pens. How much does she pay?",
        _bulk,
        (_v(p=5, off=1, least=10, n=12), _v(p=5, off=1, least=10, n=8)),
        money=("p", "off"),
    ),
    _problem(
        "under-by",
        "threshold named by the request's word",
        "Delivery costs {fee} on orders under {limit}. Ana buys {n} books at {p} each. How "
        "much does she pay?",
        _under_by,
        (_v(fee=5, limit=50, n=3, p=12), _v(fee=5, limit=50, n=5, p=12)),
        (_v(fee=5, limit=50, n=3, p=12), _v(fee=5, limit=50, n=2, p=14)),
        money=("fee", "limit", "p"),
    ),
    _problem(
        "ordinal",
        "ordinal conclusion",
        "A boat takes {seats} people a trip, and {people} people wait. Fuel costs {fuel} a "
        "person. How much does the fuel cost?",
        _buses_ordinal,
        (_v(seats=8, people=20, fuel=2), _v(seats=8, people=30, fuel=2)),
        money=("fuel",),
    ),
    _problem(
        "yes-no",
        "yes or no",
        "A hall has {rows} rows of {per} seats and {guests} guests come. Do they all get a "
        "seat, and how many seats are left?",
        _yes,
        (_v(rows=5, per=8, guests=36), _v(rows=5, per=8, guests=38)),
        (_v(rows=5, per=8, guests=36), _v(rows=4, per=8, guests=30)),
    ),
    _problem(
        "constant-comparison",
        "comparison with a constant",
        "A film has {hours} hours of scenes and {extra} minutes of credits. How many minutes "
        "long is it, and does it need an interval?",
        _interval,
        (_v(hours=1, extra=45), _v(hours=1, extra=20)),
    ),
]
CASES = [
    pytest.param(problem, old, new, id=f"{problem.id}-{i}")
    for problem in ATTACKS
    for i, (old, new) in enumerate(problem.pairs)
]


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize(("problem", "old", "new"), CASES)
def test_no_attack_gets_a_stale_answer_served(
    wrapper: str, problem: Problem, old: Values, new: Values
) -> None:
    run = WRAPPERS[wrapper]()
    _, first = run.ask(run.oracle.ask(problem, old))
    assert first["stored"], first  # the stale answer is there to be served
    text, record = run.ask(run.oracle.ask(problem, new))
    assert same_answer(text, problem.answer(new)), (record["decision"], record["verdicts"], text)


FRAMED = "Ana buys 12 apples. A shop sells 3 apples for $2. How much does she pay, in dollars?"
FRAMED_ANSWER = f"Step 1: Bags: 12 ÷ 3 = 4\nStep 2: Cost: 4 {X} $2 = $8\n#### $8"
LEAD_ATTACKS = [
    ("Here is a word problem for you.", "Here is a word problem for each of you."),
    ("Please solve this problem.", "Please solve this problem per person."),
    ("Please help me with this question:", "Please help me with this question by Bo:"),
    ("Could you work this out, please?", "Could you work this out in pairs, please?"),
    ("Please answer the following.", "Please answer the following and double it."),
]


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize(("lead", "changed"), LEAD_ATTACKS)
def test_a_lead_changed_into_a_calculation_is_answered_afresh(
    wrapper: str, lead: str, changed: str
) -> None:
    run = WRAPPERS[wrapper]()
    run.ask(run.oracle.learn(f"{lead} {FRAMED}", FRAMED_ANSWER))
    calls = run.oracle.calls
    _, record = run.ask(run.oracle.learn(f"{changed} {FRAMED}", FRAMED_ANSWER + "\n(asked)"))
    assert record["decision"] in ("skip", "miss"), record
    assert run.oracle.calls == calls + 1


KITES = (
    "Lena's kite flies {a} metres high and Omar's kite flies {b} metres high. The higher "
    "kite gets a ribbon. Whose kite gets the ribbon, and how high do they fly in all?"
)
SCORERS = (
    "Priya scores {a} goals and Tom scores {b} goals this season. Who tops the scorers' list, "
    "and how many goals did they score in all?"
)


def _kites(a: int, b: int) -> str:
    # No "#### <answer>" line: the choice is written in words alone, in its own paragraph.
    winner = "Lena's" if a > b else "Omar's"
    return f"{a} + {b} = {a + b} metres in all.\n\n{winner} kite gets the ribbon."


def _scorers(a: int, b: int) -> str:
    # "Who ...?" with no ranking word: the choice is the story's own verb and a name.
    return f"{a} + {b} = {a + b} goals in all.\n\n{'Priya' if a > b else 'Tom'} tops the list."


CHOICES = [(KITES, _kites), (SCORERS, _scorers)]


@pytest.mark.parametrize("wrapper", ["langchain", "llama_index"])
@pytest.mark.parametrize(("old", "new"), [((40, 55), (55, 40)), ((40, 55), (61, 30))])
@pytest.mark.parametrize(("template", "solve"), CHOICES, ids=["ranking-word", "who-question"])
def test_a_choice_written_in_words_alone_is_never_kept(
    template: str,
    solve: Callable[[int, int], str],
    wrapper: str,
    old: tuple[int, int],
    new: tuple[int, int],
) -> None:
    """The request asks which thing is chosen; the answer names it in a sentence with no
    number. New values may choose the other thing: that sentence is never served as cached."""
    answers = {template.format(a=a, b=b): solve(a, b) for a, b in (old, new)}

    def respond(prompt: str) -> str:
        (answer,) = [text for request, text in answers.items() if request in prompt]
        return answer

    cache = StepCache()
    records: list[StepCacheRecord] = []
    cache.add_listener(records.append)
    if wrapper == "langchain":
        chat = ScriptedChatModel(responder=lambda m: respond("\n".join(str(x.content) for x in m)))
        llm = StepCacheLLM(llm=chat, step_cache=cache)
        ask = lambda prompt: str(llm.invoke(prompt).content)  # noqa: E731
    else:
        index_llm = LlamaStepCacheLLM(llm=ScriptedLLM(responder=respond), step_cache=cache)
        ask = lambda prompt: index_llm.complete(prompt).text  # noqa: E731
    first, second = (template.format(a=a, b=b) for a, b in (old, new))
    assert ask(first) == solve(*old)
    assert records[0].stored  # the answer that would be stale is there to be served
    assert ask(second) == solve(*new), records[1]
