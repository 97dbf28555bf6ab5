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

import pytest

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
