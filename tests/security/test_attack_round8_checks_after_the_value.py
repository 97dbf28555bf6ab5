"""Round 8 of the oracle attack (issue 33): a check after an equation answer's value, in a
line-by-line patch.

Each case caches one request with the answer of an ORACLE model (SIMULATED: every answer
right), then asks a second request that differs only in the equation's constants; anything
wrong that comes out was made by the cache.

**The check dropped by the solver's continuation.** When a line before the value could not be
re-instantiated ("3x = 15, since 20 - 5 = 15"), the deterministic solver wrote the rest of the
patch, which ends at the value: the cached answer's check line ("Check: 3(5) + 5 = 20 ✓",
"Probe: ...", "Prova real: ...") was dropped although the request asked for it ("Please check
your answer."), and a claim written on the check line ("..., and 5 is odd.") with it; served
as passed. The solver's continuation carries the lines after the value over, re-instantiated
for the new constants ("Check: 3(6) + 5 = 23 ✓"); a line it cannot carry over (a claim about
the value) is the model's to write: the continuation is not taken.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.linear_equation.after_value import restated_anew
from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.core.tasks.linear_equation.verifier import LinearEquationVerifier
from stepcache_integrations.core.verifiers.base import VerifyContext
from tests.security.word_paths import PATHS, Case, served_after


def _case(request: str, old: tuple[int, str], new: tuple[int, str]) -> Case:
    """``request`` (with ``{c}``) for 3x + 5 = c; each answer's lines (with ``{c}``)."""
    (c_old, text_old), (c_new, text_new) = old, new
    return (
        request.format(c=c_old),
        text_old.format(c=c_old),
        request.format(c=c_new),
        text_new.format(c=c_new),
    )


CHECKED = [
    _case(
        "What is x if 3x + 5 = {c}? Please check your answer.",
        (20, "3x + 5 = {c}\n3x = 15, since {c} - 5 = 15\nx = 5\nCheck: 3(5) + 5 = {c} ✓"),
        (23, "3x + 5 = {c}\n3x = 18, since {c} - 5 = 18\nx = 6\nCheck: 3(6) + 5 = {c} ✓"),
    ),
    _case(
        "Solve 3x + 5 = {c} and say whether x is odd.",
        (20, "3x + 5 = {c}\n3x = 15\nx = 5\nCheck: 3(5) + 5 = {c}, and 5 is odd."),
        (23, "3x + 5 = {c}\n3x = 18\nx = 6\nCheck: 3(6) + 5 = {c}, and 6 is even."),
    ),
    _case(
        "Bestimme x aus 3x + 5 = {c} und mache die Probe.",
        (20, "3x + 5 = {c}\n3x = 15, denn {c} - 5 = 15\nx = 5\nProbe: 3 · 5 + 5 = {c}"),
        (23, "3x + 5 = {c}\n3x = 18, denn {c} - 5 = 18\nx = 6\nProbe: 3 · 6 + 5 = {c}"),
    ),
    _case(
        "Qual é o valor de x em 3x + 5 = {c}? Faça a prova real.",
        (20, "3x + 5 = {c}\n3x = 15, pois {c} - 5 = 15\nx = 5\nProva real: 3 · 5 + 5 = {c}"),
        (23, "3x + 5 = {c}\n3x = 18, pois {c} - 5 = 18\nx = 6\nProva real: 3 · 6 + 5 = {c}"),
    ),
]


# The lines after the value that the rewriter carries over ("Check: ..."), and the one it
# cannot (a claim about the value: "..., and 5 is odd."), which the model writes again.
CARRIED = [case for case in CHECKED if "odd" not in case[1]]
CLAIMED = [case for case in CHECKED if "odd" in case[1]]


def _after_value(answer: str) -> list[str]:
    """The oracle's lines after its value line ("x = 6")."""
    lines = answer.split("\n")
    at = next(i for i, line in enumerate(lines) if line.replace(" ", "").startswith("x="))
    return lines[at + 1 :]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", CARRIED, ids=lambda case: case[2])
def test_a_check_after_the_value_is_never_dropped(case: Case, path: str) -> None:
    """The solver may write the steps to the value in its own words; the check the request
    asked for follows it, for the new value and constants, and the whole answer holds."""
    served, decision = served_after(case, path)
    wanted = " ".join(_after_value(case[3])).split()
    assert wanted and served.split()[-len(wanted) :] == wanted, (decision, served)
    stale = " ".join(_after_value(case[1])).split()
    assert stale != wanted and " ".join(stale) not in " ".join(served.split()), (decision, served)
    checked = LinearEquationVerifier().check_answer(VerifyContext(case[2]), served)
    assert checked.passed, (decision, served, checked.reason)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", CLAIMED, ids=lambda case: case[2])
def test_a_claim_after_the_value_goes_to_the_model(case: Case, path: str) -> None:
    served, decision = served_after(case, path)
    assert served.split() == case[3].split(), (decision, served)


@pytest.mark.parametrize("path", PATHS)
def test_a_check_the_rewriter_carries_over_is_still_reused(path: str) -> None:
    """Control: every line traced (the check too), the answer is reused whole."""
    case = _case(
        "What is x if 3x + 5 = {c}? Please check your answer.",
        (20, "3x + 5 = {c}\n3x = 15\nx = 5\nCheck: 3(5) + 5 = {c} ✓"),
        (23, "3x + 5 = {c}\n3x = 18\nx = 6\nCheck: 3(6) + 5 = {c} ✓"),
    )
    served, decision = served_after(case, path)
    assert served.split() == case[3].split(), (decision, served)
    assert decision == "reuse", (decision, served)


# The same class at the verifier: the solver's continuation and its fallback write steps that
# end at the value; what the answer wrote after it is carried over or nothing is written.

OLD = "What is x if 3x + 5 = 20? Please check your answer."
NEW = "What is x if 3x + 5 = 23? Please check your answer."
VERIFIER = LinearEquationVerifier()


def _continued(answer: str, prefix: list[str]) -> str | None:
    ctx = VerifyContext(NEW, cached_request=OLD, answer=answer)
    return VERIFIER.continue_steps(ctx, [Step(text, "\n") for text in prefix])


def test_the_continuation_carries_the_check_over_for_the_new_value() -> None:
    answer = "3x + 5 = 20\n3x = 15, since 20 - 5 = 15\nx = 5\nCheck: 3(5) + 5 = 20 ✓"
    continued = _continued(answer, ["3x + 5 = 23"])
    assert continued is not None
    lines = continued.split("\n")
    assert lines[-1] == "Check: 3(6) + 5 = 23 ✓"
    assert lines[-2].endswith("x = 6.")
    assert VERIFIER.check_answer(VerifyContext(NEW), "3x + 5 = 23\n" + continued).passed


@pytest.mark.parametrize(
    "answer",
    [
        # a claim about the value on the check line: nobody rewrites it for 6
        "3x + 5 = 20\n3x = 15, since 20 - 5 = 15\nx = 5\nCheck: 3(5) + 5 = 20, and 5 is odd.",
        # the check on the value's own line, after it
        "3x + 5 = 20\n3x = 15, since 20 - 5 = 15\nx = 5. Check: 3(5) + 5 = 20 ✓",
    ],
)
def test_a_line_after_the_value_that_cannot_be_carried_over_stops_the_continuation(
    answer: str,
) -> None:
    assert _continued(answer, ["3x + 5 = 23"]) is None


def test_a_prefix_that_reaches_the_value_is_continued_by_the_lines_after_it() -> None:
    """What failed is after the value: the continuation is those lines, for the new value
    (not the value stated again, with the check dropped)."""
    answer = "3x + 5 = 20\n3x = 15\nx = 5\nCheck: 3(5) + 5 = 20 ✓"
    assert _continued(answer, ["3x + 5 = 23", "3x = 18", "x = 6"]) == "Check: 3(6) + 5 = 23 ✓"
    claimed = "3x + 5 = 20\n3x = 15\nx = 5\nCheck: 3(5) + 5 = 20, and 5 is odd."
    assert _continued(claimed, ["3x + 5 = 23", "3x = 18", "x = 6"]) is None


@pytest.mark.parametrize(
    "wrong",
    [
        "3x + 5 = 23\n3x = 15, since 20 - 5 = 15\nx = 5\nCheck: 3(5) + 5 = 20, and 5 is odd.",
        "We subtract five: 3x = 17\nx = 17/3\nCheck: 3 · 17/3 + 5 = 22, so it works out nicely.",
    ],
)
def test_the_canonical_fallback_never_drops_a_claim_after_the_value(wrong: str) -> None:
    """A slip the corrector cannot mend line by line, with a claim after the value: the
    canonical steps would end at the value and drop it, so the answer stays flagged."""
    fallback = VERIFIER.fallback(VerifyContext(NEW, answer=wrong))
    assert fallback is None, fallback


def test_the_canonical_fallback_writes_the_models_check_anew() -> None:
    """The check the model wrote after its (wrong) value comes along, for the solution."""
    wrong = "3x + 5 = 23\n3x = 15, since 20 - 5 = 15\nx = 5\nCheck: 3(5) + 5 = 20 ✓"
    fallback = VERIFIER.fallback(VerifyContext(NEW, answer=wrong))
    assert fallback is not None
    assert fallback.split("\n")[-1] == "Check: 3(6) + 5 = 23 ✓", fallback
    assert VERIFIER.check_answer(VerifyContext(NEW), fallback).passed


def test_the_canonical_fallback_still_writes_an_answer_that_ends_at_its_value() -> None:
    """Control: nothing after the value, the canonical steps say all the answer said."""
    wrong = "3x + 5 = 23\n3x = 15, since 20 - 5 = 15\nx = 5"
    fallback = VERIFIER.fallback(VerifyContext(NEW, answer=wrong))
    assert fallback is not None and fallback.rstrip(".").endswith("x = 6")
    assert VERIFIER.check_answer(VerifyContext(NEW), fallback).passed


@pytest.mark.parametrize(
    "line",
    [
        "So x = 5 is odd.",  # a claim about the value
        "So x = 5, and 2x = 10.",  # another equation
        "So x = 5, about 20 in all.",  # another number
        "So x = five.",  # the value in words: a form the solver does not write
    ],
)
def test_only_the_value_said_again_is_said_for_the_new_value(line: str) -> None:
    target = parse_equation(NEW)
    assert target is not None
    assert restated_anew(line, target, Fraction(5), "6") is None


def test_the_value_said_again_says_the_new_value() -> None:
    target = parse_equation(NEW)
    assert target is not None
    assert restated_anew("So x = 5 is correct.", target, Fraction(5), "6") == "So x = 6 is correct."
