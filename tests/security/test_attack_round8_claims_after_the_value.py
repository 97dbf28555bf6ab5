"""Round 8 of the oracle attack (issue 33): words after an equation answer's value.

Each case caches one request with the answer of an ORACLE model (SIMULATED: every answer
right), then asks a second request that differs only in the equation's constants; anything
wrong that comes out was made by the cache.

**A claim about the value after it** ("So x is odd.", "Yes.", "Ja, x ist gerade.", "Não, é
negativo.") was read as the close of an answer whose value alone was asked: the line-by-line
patch kept the re-instantiated lines and the deterministic solver wrote the rest, ending at
"So x = 6." -- the question the request asked (is x even? a whole number? positive?) was
dropped, and served as passed. A slipping model's "x = 7 / So x is odd." was corrected to
"x = 6 / So x is odd.": a stale claim served as passed. Words after the value may answer what
was asked and nobody recomputes them: only words true of every solution ("So x = 4 is
correct.") say that the value was the answer; anything else is the model's to write.
"""

from __future__ import annotations

import pytest

from tests.security.slipping import served_by_slipping_model
from tests.security.word_paths import PATHS, Case, served_after


def _case(request: str, old: tuple[int, str], new: tuple[int, str], last: tuple[str, str]) -> Case:
    """``request`` (with ``{c}``) for 3x + 5 = c, answered line by line, its last line a claim."""
    (c_old, work_old), (c_new, work_new) = old, new
    return (
        request.format(c=c_old),
        f"3x + 5 = {c_old}\n{work_old}\n{last[0]}",
        request.format(c=c_new),
        f"3x + 5 = {c_new}\n{work_new}\n{last[1]}",
    )


CLAIMS = [
    _case(
        "Solve 3x + 5 = {c} and tell me whether x is odd or even.",
        (20, "3x = 15\nx = 5"),
        (23, "3x = 18\nx = 6"),
        ("So x is odd.", "So x is even."),
    ),
    _case(
        "Is the solution of 3x + 5 = {c} a whole number?",
        (20, "3x = 15\nx = 5"),
        (26, "3x = 21\nx = 7"),
        ("Yes.", "Yes."),
    ),
    _case(
        "Is the solution of 3x + 5 = {c} positive?",
        (20, "3x = 15\nx = 5"),
        (2, "3x = -3\nx = -1"),
        ("Yes, it is positive.", "No, it is negative."),
    ),
    _case(
        "Löse 3x + 5 = {c}. Ist x gerade?",
        (20, "3x = 15\nx = 5"),
        (23, "3x = 18\nx = 6"),
        ("Nein, x ist ungerade.", "Ja, x ist gerade."),
    ),
    _case(
        "Resolva 3x + 5 = {c}. x é par?",
        (20, "3x = 15\nx = 5"),
        (23, "3x = 18\nx = 6"),
        ("Não, x é ímpar.", "Sim, x é par."),
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", CLAIMS, ids=lambda case: case[2])
def test_a_claim_after_the_value_is_never_dropped_or_kept_stale(case: Case, path: str) -> None:
    served, decision = served_after(case, path)
    assert served.split() == case[3].split(), (decision, served)


@pytest.mark.parametrize("path", [path for path in PATHS if path != "global_cache"])
def test_words_true_of_every_solution_still_close_a_patch(path: str) -> None:
    """Control: "So x = 5 is correct." after the value says only that it is the value; the
    new value is not an integer, so its lines are the model's and the rest still reused (the
    global cache cannot call the model for the rest: a patch is a skip there)."""
    case = _case(
        "Solve 3x + 5 = {c} for x.",
        (20, "3x = 15\nx = 5"),
        (21, "3x = 16\nx = 16/3"),
        ("So x = 5 is correct.", "So x = 16/3 is correct."),
    )
    served, decision = served_after(case, path)
    assert decision in ("patch", "reuse"), (decision, served)
    assert served.split()[:8] == case[3].split()[:8], served  # the reused lines, rewritten
    assert "16/3" in served.split("\n")[2], served


@pytest.mark.parametrize(
    ("request_text", "wrong"),
    [
        ("Solve 3x + 5 = 23 and tell me whether x is odd or even.", "3x = 21\nx = 7\nSo x is odd."),
        ("Löse 3x + 5 = 23. Ist x gerade?", "3x = 21\nx = 7\nNein, x ist ungerade."),
        ("Resolva 3x + 5 = 23. x é par?", "3x = 21\nx = 7\nNão, x é ímpar."),
    ],
)
def test_a_slip_with_a_claim_after_its_value_is_never_corrected(
    request_text: str, wrong: str
) -> None:
    """The claim was made of the wrong value: correcting the value alone would serve it stale."""
    text, record = served_by_slipping_model(request_text, wrong)
    assert record["passed"] is False, (text, record)
    assert text == wrong


def test_a_slip_whose_words_say_only_that_it_is_the_value_is_still_corrected() -> None:
    """Control: the same slip closed by words true of every solution is corrected."""
    text, record = served_by_slipping_model(
        "Solve 3x + 5 = 23.", "3x = 21\nx = 7\nSo x = 7 is the solution."
    )
    assert record["passed"] is True, (text, record)
    assert text.split()[-4:] == ["6", "is", "the", "solution."], text
