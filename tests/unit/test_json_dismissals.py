"""A clause that only rules JSON out, and an equation request that starts with one.

"Instead of a JSON object for my packing list, solve ..." asks for the solution and nothing
else: the equation family's own answer is the answer (the model's, when it fails its check,
is replaced by the solver's). A dismissal that also says something of the wanted answer ("with
the final answer", "and in words"), or that is not a clause of its own, leaves the request to
the model. The requests here are written for this test, not taken from the benchmark.
"""

from __future__ import annotations

import pytest

from stepcache_integrations import Policy, StepCache
from stepcache_integrations.core.tasks.linear_equation.asking import asks_only_to_solve
from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.core.tasks.output_format import json_dismissals
from tests.conftest import solve_steps
from tests.unit.test_engine import PlainModel

DISMISSED = [
    (
        "Instead of a JSON array for my packing list, work out 4m - 3 = 13 for m.",
        "Instead of a JSON array for my packing list,",
    ),
    ("Rather than JSON, solve 2k + 1 = 9.", "Rather than JSON,"),
    (
        "Forget about the JSON document describing the garden. What is m if 4m - 3 = 13?",
        "Forget about the JSON document describing the garden.",
    ),
    (
        "Never mind the JSON record for a library loan; find q in 5q = 35.",
        "Never mind the JSON record for a library loan;",
    ),
    (
        "For a concert ticket with the fields `venue`, `row` and `seat_code`, don't return JSON:"
        " solve 6p - 4 = 20 for p.",
        "For a concert ticket with the fields `venue`, `row` and `seat_code`, don't return JSON:",
    ),
    ("Do not give me a JSON object. Solve 2k + 1 = 9 for k.", "Do not give me a JSON object."),
    (
        "Hello. Instead of a JSON reply about a bicycle, solve 3n + 2 = 17 for n.",
        "Instead of a JSON reply about a bicycle,",
    ),
]

# Each rules JSON out and says something more: of the answer wanted, or joined to it.
NOT_ONLY_DISMISSED = [
    "Instead of a JSON object with the final answer, solve 4m - 3 = 13 for m.",
    "Instead of a JSON object for a recipe and in words, solve 4m - 3 = 13 for m.",
    "Instead of a JSON array rounded to decimals, solve 4m - 3 = 13 for m.",
    "Instead of a JSON object for m, solve 4m - 3 = 13 for m.",
    "Instead of a JSON object for 3 people, solve 4m - 3 = 13 for m.",
    "For a ticket with the keys name, answer and row, do not return JSON: solve 6p - 4 = 20.",
    "Solve it, instead of JSON, for m: 4m - 3 = 13.",  # not the start of a sentence
    "Instead of a poem, solve 4m - 3 = 13 for m.",  # not JSON: perhaps another answer form
]


@pytest.mark.parametrize(("request_text", "clause"), DISMISSED)
def test_a_clause_that_only_rules_json_out_is_found(request_text: str, clause: str) -> None:
    assert [request_text[d.start : d.end] for d in json_dismissals(request_text)] == [clause]
    equation = parse_equation(request_text)
    assert equation is not None
    assert asks_only_to_solve(request_text, equation)


@pytest.mark.parametrize("request_text", NOT_ONLY_DISMISSED)
def test_a_dismissal_that_says_more_is_a_request(request_text: str) -> None:
    assert json_dismissals(request_text) == ()
    equation = parse_equation(request_text)
    assert equation is not None
    assert not asks_only_to_solve(request_text, equation)


def test_what_follows_a_dismissal_is_still_read() -> None:
    request = "Instead of a JSON object for a garden, solve 4m - 3 = 13 for m as a fraction."
    equation = parse_equation(request)
    assert equation is not None and json_dismissals(request)
    assert not asks_only_to_solve(request, equation)


def test_a_long_request_without_a_clause_end_is_no_dismissal() -> None:
    # The grammar's repeats are bounded or consume a separator each time, so a long run of
    # words that never closes the clause is read to its end (no backtracking blow-up).
    request = "Instead of a JSON object with the keys " + " ".join(["ab"] * 5000) + " and"
    assert json_dismissals(request) == ()
    listed = "Instead of a JSON object with the keys " + ", ".join(["ab"] * 1000) + " and"
    assert json_dismissals(listed) == ((0, len(listed) - len(" ab and"), True),)


def _cache() -> StepCache:
    # Threshold 1.0: every request is a miss, so what is tested is the answer to the request
    # itself (a near one is never reused across a dismissal: its words are not accounted for).
    return StepCache(policy=Policy(similarity_threshold=1.0, adaptive_answers=False))


@pytest.mark.parametrize(("request_text", "clause"), DISMISSED)
def test_the_solver_answers_a_request_that_dismisses_json(request_text: str, clause: str) -> None:
    model = PlainModel(lambda prompt, call: solve_steps(prompt, wrong=True))
    result = model.ask(_cache(), request_text)
    equation = parse_equation(request_text)
    assert equation is not None
    assert result.record.passed and result.record.fallback
    value = equation.solution
    assert result.text.rstrip().rstrip(".").endswith(f"{equation.variable} = {value}")


@pytest.mark.parametrize("request_text", NOT_ONLY_DISMISSED)
def test_a_request_that_says_more_keeps_the_models_answer(request_text: str) -> None:
    model = PlainModel(lambda prompt, call: solve_steps(prompt, wrong=True))
    result = model.ask(_cache(), request_text)
    assert not result.record.fallback
    assert result.record.passed is False  # the model's wrong equations, flagged
