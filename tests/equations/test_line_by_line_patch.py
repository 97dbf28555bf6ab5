"""An answer written line by line, whose constants changed so that the final value takes
another form (an integer became a fraction or a decimal): the lines the rewriter carries over
are reused, and only the rest is asked of the model (a patch, no longer a skip). Both
wrappers, SIMULATED models."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.equations.devset import WRAPPERS, Responder

# (first request, its answer, second request, the answer to it, the rewritten prefix shown)
CASES = [
    (
        "Show your steps, one per line: 2n + 9 = 25",
        "2n + 9 = 25\n2n = 25 - 9\n2n = 16\nn = 8",
        "Show your steps, one per line: 2n + 11 = 40",
        "2n + 11 = 40\n2n = 40 - 11\n2n = 29\nn = 14.5",
        "2n + 11 = 40\n2n = 40 - 11\n2n = 29\n",
    ),
    (
        "Löse bitte Zeile für Zeile: 4x - 3 = 9",
        "4x - 3 = 9\n4x = 12\nx = 3",
        "Löse bitte Zeile für Zeile: 4x - 3 = 10",
        "4x - 3 = 10\n4x = 13\nx = 3,25",
        "4x - 3 = 10\n4x = 13\n",
    ),
]


def responder(answers: dict[str, str], shown: list[Sequence[str]]) -> Responder:
    """The right answer to each request; after shown lines, the lines not shown yet."""

    def respond(request: str, follow_ups: Sequence[str]) -> str:
        shown.append(list(follow_ups))
        full = answers[request]
        if follow_ups:
            lines = full.split("\n")
            done = sum(1 for line in lines if line in follow_ups[0].split("\n"))
            return "\n".join(lines[done:])
        return full

    return respond


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize(("first", "answer", "second", "right", "prefix"), CASES)
def test_the_carried_lines_are_reused_and_the_rest_is_the_models(
    wrapper: str, first: str, answer: str, second: str, right: str, prefix: str
) -> None:
    shown: list[Sequence[str]] = []
    ask = WRAPPERS[wrapper](responder({first: answer, second: right}, shown))
    ask(first)
    text, record = ask(second)
    assert record["decision"] == "patch", record
    assert record["patched_by"] == "model"  # the new value's form is the model's to write
    assert record["steps_reused"] == prefix.count("\n")
    assert record["passed"] is True
    assert text == right
    # The patch call shows the re-instantiated lines (new constants), never the cached ones.
    assert shown[-1][0] == prefix
    assert "Continue" in shown[-1][1]
