"""Hypothesis: word problems with conditions, thresholds, comparisons and roundings over random
values, phrased in random ways, through a default cache with an oracle: the served answer is
always the oracle's answer for the new request (when the cache reuses or patches, no part of it
is stale; otherwise the model answered)."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.word_problems.prose_problems import Problem, Values, X, num, same_answer, totals, usd
from tests.word_problems.test_prose_dependence import WRAPPERS

# How an answer may say that the order total is over the limit, and that it is not.
STYLES = (
    ("is more than", "is not more than"),
    ("exceeds", "does not exceed"),
    ("is over", "is not over"),
    (">", "≤"),
    ("is greater than", "is no more than"),
)
CONCLUSIONS = (
    ("so shipping is free", "so she pays {ship} for shipping"),
    ("which means free shipping", "which means {ship} for shipping"),
    ("and shipping is free", "and shipping costs {ship}"),
)


def threshold(style: int, conclusion: int) -> Problem:
    over, not_over = STYLES[style]
    free, paid = CONCLUSIONS[conclusion]

    def solve(v: Values) -> list[str]:
        cost = v["n"] * v["p"]
        lines = [f"Step 1: Books: {num(v['n'])} {X} {usd(v['p'])} = {usd(cost)}"]
        if cost > v["limit"]:
            total = cost
            lines.append(
                f"Step 2: {usd(cost)} {over} {usd(v['limit'])}, {free}: {usd(cost)} + $0 = "
                f"{usd(cost)}"
            )
        else:
            total = cost + v["ship"]
            said = paid.format(ship=usd(v["ship"]))
            lines.append(
                f"Step 2: {usd(cost)} {not_over} {usd(v['limit'])}, {said}: {usd(cost)} + "
                f"{usd(v['ship'])} = {usd(total)}"
            )
        return [*lines, f"#### {usd(total)}"]

    return Problem(
        f"threshold-{style}-{conclusion}",
        "threshold",
        "Shipping costs {ship}, and orders over {limit} ship free. Ana buys {n} books at {p} "
        "each. How much does she pay in all?",
        solve,
        render=lambda v: {k: usd(v[k]) for k in ("ship", "limit", "p")},
    )


def comparison(v: Values) -> list[str]:
    t = totals(v)
    if t.blue == t.red:
        verdict = f"Step 3: {usd(t.blue)} is equal to {usd(t.red)}, so both colours cost the same."
    else:
        verdict = (
            f"Step 3: {usd(t.cheap)} is less than {usd(t.dear)}, so the {t.colour} ones are "
            "cheaper."
        )
    return [*t.lines, verdict, f"#### {usd(t.cheap)}"]


COMPARISON = Problem(
    "comparison",
    "choice",
    "A blue mug costs {b} and a red mug costs {r}. Ana buys {n} mugs of the cheaper colour. "
    "How much does she pay?",
    comparison,
    render=lambda v: {k: usd(v[k]) for k in ("b", "r")},
)


def rounding(mode: str) -> Problem:
    def solve(v: Values) -> list[str]:
        share = v["items"] / v["size"]
        whole = {
            "up": math.ceil(share),
            "down": math.floor(share),
            "nearest": math.floor(share + Fraction(1, 2)),
        }[mode]
        said = "to the nearest whole number" if mode == "nearest" else mode
        return [
            f"Step 1: Groups: {num(v['items'])} ÷ {num(v['size'])} = {num(share)}",
            f"Step 2: {num(share)}, rounded {said}, is {whole} groups.",
            f"Step 3: Cost: {whole} {X} {usd(v['cost'])} = {usd(whole * v['cost'])}",
            f"#### {usd(whole * v['cost'])}",
        ]

    return Problem(
        f"rounding-{mode}",
        "rounding",
        "A club splits {items} members into groups of {size}, rounding the number of groups "
        + mode
        + ". Each group costs {cost}. How much do the groups cost?",
        solve,
        render=lambda v: {"cost": usd(v["cost"])},
    )


ROUNDINGS = {mode: rounding(mode) for mode in ("up", "down", "nearest")}
SIZES = (2, 4, 5, 8, 10)  # every share is a finite decimal


@st.composite
def cases(draw: st.DrawFn) -> tuple[Problem, Values, Values]:
    kind = draw(st.sampled_from(["threshold", "comparison", "rounding"]))
    if kind == "threshold":
        problem = threshold(draw(st.integers(0, len(STYLES) - 1)), draw(st.integers(0, 2)))
        limit = Fraction(draw(st.sampled_from([30, 40, 50, 60, 75])))
        ship = Fraction(draw(st.integers(3, 9)))

        def values() -> Values:
            return {
                "ship": ship,
                "limit": limit,
                "n": Fraction(draw(st.integers(2, 6))),
                "p": Fraction(draw(st.integers(6, 25))),
            }

    elif kind == "comparison":
        problem = COMPARISON

        def values() -> Values:
            return {
                "b": Fraction(draw(st.integers(3, 20))),
                "r": Fraction(draw(st.integers(3, 20))),
                "n": Fraction(draw(st.integers(2, 5))),
            }

    else:
        problem = ROUNDINGS[draw(st.sampled_from(sorted(ROUNDINGS)))]
        size = Fraction(draw(st.sampled_from(SIZES)))

        def values() -> Values:
            return {
                "items": Fraction(draw(st.integers(11, 90))),
                "size": size,
                "cost": Fraction(draw(st.integers(10, 60))),
            }

    return problem, values(), values()


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), wrapper=st.sampled_from(sorted(WRAPPERS)))
def test_never_a_stale_part_served(case: tuple[Problem, Values, Values], wrapper: str) -> None:
    problem, old, new = case
    run = WRAPPERS[wrapper]()
    run.ask(run.oracle.ask(problem, old))
    calls = run.oracle.calls
    text, record = run.ask(run.oracle.ask(problem, new))
    event(f"{problem.kind}: {record['decision']}")
    assert same_answer(text, problem.answer(new)), (old, new, record["verdicts"], text)
    if record["decision"] == "reuse":
        assert run.oracle.calls == calls
