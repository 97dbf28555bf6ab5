"""Unit tests of the linear-equation verifier: parsing, step and answer checks, fallback."""

from __future__ import annotations

from fractions import Fraction

import pytest

from stepcache_integrations.core.steps import ParagraphSegmenter, Step, join_steps
from stepcache_integrations.core.tasks.linear_equation.verifier import (
    TASK,
    LinearEquation,
    LinearEquationVerifier,
    canonical_steps,
    format_number,
    parse_equation,
)
from stepcache_integrations.core.text import RequestDelta as PromptDiff
from stepcache_integrations.core.text import compare as diff_prompts
from stepcache_integrations.core.verifiers.base import Outcome, Verdict, VerifyContext

F = Fraction
Num = Fraction | int
VERIFIER = LinearEquationVerifier()
REQUEST = "Solve for x: 3x + 5 = 20."


def ctx(request: str = REQUEST, **kwargs: object) -> VerifyContext:
    return VerifyContext(request, **kwargs)  # type: ignore[arg-type]


def step_verdict(text: str, request: str = REQUEST) -> Verdict:
    return VERIFIER.check_step(ctx(request), Step(text), 3, [])


# --- parse_equation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "var", "a", "b", "c", "solution"),
    [
        ("3x + 5 = 20", "x", 3, 5, 20, 5),
        ("3*x+5=20", "x", 3, 5, 20, 5),
        ("2y - 7 = 11", "y", 2, -7, 11, 9),
        ("-x + 4 = 10", "x", -1, 4, 10, -6),
        ("x - 3 = 0", "x", 1, -3, 0, 3),
        ("15 = 4z + 3", "z", 4, 3, 15, 3),
        ("5 + 2k = 17", "k", 2, 5, 17, 6),
        ("0.5x + 1.5 = 4", "x", F(1, 2), F(3, 2), 4, 5),
        ("x = 7", "x", 1, 0, 7, 7),
        ("3x + 2 = x + 10", "x", 2, 2, 10, 4),
        ("x + 10 = 3x + 2", "x", 2, 2, 10, 4),
        ("2a + 3 = 9", "a", 2, 3, 9, 3),
        ("Solve for x: 3x + 5 = 20.", "x", 3, 5, 20, 5),
        ("Find n if 4n - 2 = 10, show your steps", "n", 4, -2, 10, 3),
        ("What is Q if 1200Q - 400 = 2000?", "Q", 1200, -400, 2000, 2),
        ("2(x + 3) = 10", "x", 2, 6, 10, 2),
        ("x/2 + 1 = 4", "x", F(1, 2), 1, 4, 6),
        ("3x \u2212 5 = 10 (unicode minus)", "x", 3, -5, 10, 5),
        ("Solve $3 \\times x + 5 = 20$", "x", 3, 5, 20, 5),
        ("**Solve:** 7 = 2x + 1", "x", 2, 1, 7, 3),
        ('Solve 3x + 5 = 20 for x. Show your steps and end with "x = <value>".', "x", 3, 5, 20, 5),
    ],
)
def test_parse_written_forms(text: str, var: str, a: Num, b: Num, c: Num, solution: Num) -> None:
    eq = parse_equation(text)
    assert eq is not None
    assert (eq.variable, eq.a, eq.b, eq.c) == (var, F(a), F(b), F(c))
    assert eq.solution == F(solution)


def test_parse_keeps_the_matched_equation_text() -> None:
    eq = parse_equation("Please solve this equation for z: 15 = 4z + 3, thanks")
    assert eq is not None
    assert eq.text == "15 = 4z + 3"


@pytest.mark.parametrize(
    "text",
    [
        "Find a solution to 3x + 5 = 20",
        "Is a 3x + 5 = 20 hard?",
        "A quick one: 3x + 5 = 20",
        "I need x where 3x + 5 = 20",
    ],
)
def test_articles_are_not_variables(text: str) -> None:
    eq = parse_equation(text)
    assert eq is not None
    assert eq.variable == "x"
    assert eq.solution == 5


@pytest.mark.parametrize(
    "text",
    [
        "",
        "no equation here",
        "2x + 3 = 2x + 5",  # a == 0
        "2apples + 3 = 9",  # word variable
        "3 apples + 5 = 20",
        "Solve 2*speed + 3 = 9",
        "x + y = 10",  # two unknowns
        "If y = 2, solve 3x + y = 11",
        "x^2 = 4",
        "x^2 + 3 = 12",
        "x**2 = 4",
        "3x + 5 > 20",
        "f(x) = 3x + 5",
        "1/2x = 3",  # 1/(2x) is not linear
        "2x = 8 and 3y = 9",  # two different problems
        "Solve 3x + 5 = 20. Is x = 4 right?",  # disagreeing equations
        "2 + 2 = 4",
    ],
)
def test_parse_rejects(text: str) -> None:
    assert parse_equation(text) is None


def test_parse_ignores_arithmetic_and_agreeing_restatements() -> None:
    eq = parse_equation("Since 2 + 2 = 4, solve 3t = 9. Check that t = 3 works.")
    assert eq is not None
    assert (eq.variable, eq.solution) == ("t", F(3))


def test_linear_equation_validates() -> None:
    with pytest.raises(ValueError, match="non-zero"):
        LinearEquation("x", F(0), F(1), F(2), "0x + 1 = 2")
    with pytest.raises(ValueError, match="single letter"):
        LinearEquation("xy", F(1), F(1), F(2), "xy + 1 = 2")


def test_format_number() -> None:
    assert [format_number(F(n, d)) for n, d in [(5, 1), (-4, 1), (7, 2), (10, 3), (-1, 8)]] == [
        "5",
        "-4",
        "3.5",
        "10/3",
        "-0.125",
    ]


# --- applies_to -------------------------------------------------------------------------


def test_applies_to() -> None:
    assert VERIFIER.name == "linear"
    assert TASK == "linear_equation"
    assert VERIFIER.applies_to(REQUEST) is True
    assert VERIFIER.checks_answer(REQUEST) is True
    assert VERIFIER.applies_to("Write a haiku about 3 cats") is False
    assert VERIFIER.checks_answer("Write a haiku about 3 cats") is False


@pytest.mark.parametrize(
    "request_text",
    [
        "Record the equation 3x + 5 = 20 in x as JSON.",
        "Write the equation 3x + 5 = 20 as a JSON object instead of solving it.",
        "Return only a JSON object with keys lhs and rhs for 3x + 5 = 20.",
        "Do not solve 3x + 5 = 20; just rewrite it.",
        "Rewrite 3x + 5 = 20 without solving it.",
    ],
)
def test_task_is_none_when_the_prompt_asks_for_something_else(request_text: str) -> None:
    assert parse_equation(request_text) is not None  # the equation is there ...
    assert VERIFIER.applies_to(request_text) is False  # ... but solving it is not the task
    context = ctx(request_text)
    assert VERIFIER.check_answer(context, '{"a": 3}').outcome is Outcome.NOT_APPLICABLE
    assert VERIFIER.fallback(context) is None


@pytest.mark.parametrize(
    "request_text",
    [
        "Instead of a JSON object for a recipe, solve 3x + 5 = 20 for x.",
        "For a user profile with the keys name and age, do not return JSON: solve 3x + 5 = 20.",
        "Forget the JSON object for an order. What is x if 3x + 5 = 20?",
    ],
)
def test_task_when_json_is_only_mentioned_negatively(request_text: str) -> None:
    assert VERIFIER.applies_to(request_text) is True


# --- check_step ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Subtract 5 from both sides: 3x = 15.",
        "Step 1: Start with 3x + 5 = 20.",
        "3x + 5 - 5 = 20 - 5 → 3x = 15",
        "x = 15/3 = 5",
        "20 - 5 = 15",
        "Check: 3(5) + 5 = 20 ✓",
        "- x = 5",  # a bullet, not a minus
        "**x = 5**",
        "2) 3x = 15",
        "$x = \\frac{15}{3}$",
    ],
)
def test_step_passes(text: str) -> None:
    verdict = step_verdict(text)
    assert verdict.outcome is Outcome.PASS, verdict.reason
    assert verdict.step == 3


@pytest.mark.parametrize(
    ("text", "reason_part"),
    [
        ("Subtract 5 from both sides: 3x = 14.", "'3x = 14' gives x = 14/3, but 3x + 5 = 20"),
        ("3y = 15", "'3y = 15' is an equation in y"),
        ("20 - 5 = 16", "'20 - 5 = 16' is false"),
        ("x = 15/3 = 6", "'15/3 = 6' is false"),
        ("x + 1 = x + 2", "no solution"),
    ],
)
def test_step_fails_with_reason(text: str, reason_part: str) -> None:
    verdict = step_verdict(text)
    assert verdict.outcome is Outcome.FAIL
    assert reason_part in verdict.reason
    assert verdict.verifier == "linear"


def test_step_in_another_variable_fails_even_with_the_right_value() -> None:
    verdict = step_verdict("y = 9", request="Solve 2y - 7 = 11")
    assert verdict.passed
    verdict = step_verdict("x = 9", request="Solve 2y - 7 = 11")
    assert verdict.failed
    assert "in x" in verdict.reason and "in y" in verdict.reason


@pytest.mark.parametrize(
    "text",
    [
        "Let's isolate x.",
        "x is the unknown we want",
        "We subtract 5 from both sides.",
        "x^2 = 4",  # an equation this parser does not understand is not judged
        "50% = half",
    ],
)
def test_step_not_applicable(text: str) -> None:
    assert step_verdict(text).outcome is Outcome.NOT_APPLICABLE


def test_step_not_applicable_without_equation_in_request() -> None:
    verdict = VERIFIER.check_step(ctx("Write a poem"), Step("3x = 15"), 0, [])
    assert verdict.outcome is Outcome.NOT_APPLICABLE


def test_step_rounded_decimal_value() -> None:
    assert step_verdict("x = 3.33", request="Solve 3x = 10").passed
    assert step_verdict("x = 3.3", request="Solve 3x = 10").failed


# --- check_answer --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "Step 1: 3x = 15\nStep 2: x = 5",
        "x = 5",
        "5 = x",
        "The answer is 5.",
        "Answer: 5",
        "So x is 5.",
        "**x = 5**",
        "we get $x = \\frac{10}{2}$",
        "x = 5.0",
        "First x = 20/4 = 5.",
    ],
)
def test_answer_passes(answer: str) -> None:
    verdict = VERIFIER.check_answer(ctx(), answer)
    assert verdict.outcome is Outcome.PASS, verdict.reason


def test_answer_wrong_final_value_reason() -> None:
    verdict = VERIFIER.check_answer(ctx(), "Step 1: 3x = 15\nSo x = 4.")
    assert verdict.failed
    assert verdict.reason == "final answer x = 4 but 3x + 5 = 20 gives x = 5"


def test_answer_last_statement_wins() -> None:
    assert VERIFIER.check_answer(ctx(), "Maybe x = 4? No: 3x = 15, so x = 5.").failed  # x = 4
    assert VERIFIER.check_answer(ctx(), "x = 5").passed
    assert VERIFIER.check_answer(ctx(), "x = 5. Hmm, actually x = 6").failed


def test_answer_without_final_value_fails() -> None:
    verdict = VERIFIER.check_answer(ctx(), "Subtract 5 from both sides: 3x = 15.")
    assert verdict.failed
    assert "never states a final value for x" in verdict.reason


def test_answer_with_wrong_intermediate_fails() -> None:
    verdict = VERIFIER.check_answer(ctx(), "Step 1: 3x = 14\nStep 2: x = 5")
    assert verdict.failed
    assert "wrong intermediate equation" in verdict.reason
    assert "'3x = 14'" in verdict.reason


def test_answer_in_wrong_variable_fails() -> None:
    verdict = VERIFIER.check_answer(ctx(), "y = 5")
    assert verdict.failed
    assert "final value for x" in verdict.reason


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("x = 10/3", True),
        ("x = 3.33", True),
        ("x = 3.333", True),
        ("x ≈ 3.33", True),
        ("x = 3.3", False),  # one decimal is not precise enough
        ("x = 3.34", False),  # not a rounding
        ("x = 3", False),
    ],
)
def test_answer_fractions_and_rounding(answer: str, passes: bool) -> None:
    verdict = VERIFIER.check_answer(ctx("Solve 3x = 10"), answer)
    assert verdict.passed is passes, verdict.reason


STRICT = 'Solve 3x + 5 = 20 for x. Show your steps and end with the line "x = <value>".'


@pytest.mark.parametrize(
    ("answer", "passes"),
    [
        ("Step 1: 3x = 15\nStep 2: x = 5", True),
        ("Step 1: 3x = 15\nx = 15/3 = 5.", True),
        ("3x = 15\n**x = 5**\n\n", True),
        ("Step 1: 3x = 15\nSo the answer is 5.", False),  # prose, not the requested line
        ("x = 5\nCheck: that works because 15 + 5 is 20.", False),  # goes on after it
    ],
)
def test_answer_must_end_with_the_requested_line(answer: str, passes: bool) -> None:
    verdict = VERIFIER.check_answer(ctx(STRICT), answer)
    assert verdict.passed is passes, verdict.reason
    # Without the format instruction, the same answers only need a correct final value.
    assert VERIFIER.check_answer(ctx(), answer).passed


def test_answer_strict_reason_mentions_requested_line() -> None:
    verdict = VERIFIER.check_answer(ctx(STRICT), "x = 5\nThat was easy.")
    assert verdict.failed
    assert "must end with the line 'x = <value>'" in verdict.reason


def test_answer_not_applicable_without_equation() -> None:
    assert VERIFIER.check_answer(ctx("Tell me a joke"), "x = 4").outcome is Outcome.NOT_APPLICABLE


# --- repair_instruction --------------------------------------------------------------------


def test_repair_instruction_names_equation_and_failure() -> None:
    failure = VERIFIER.check_answer(ctx(), "x = 4")
    text = VERIFIER.repair_instruction(ctx(), "x = 4", failure)
    assert text is not None
    assert "3x + 5 = 20" in text
    assert failure.reason in text
    assert "'x = <value>'" in text
    assert VERIFIER.repair_instruction(ctx("hello"), "x = 4", failure) is None


# --- fallback --------------------------------------------------------------------------------


CANONICAL = (
    "Step 1: Start with 3x + 5 = 20.\n"
    "Step 2: Subtract 5 from both sides: 3x = 15.\n"
    "Step 3: Divide both sides by 3: x = 5."
)


def test_fallback_canonical_text() -> None:
    # Issue 33, "the answer says what was asked": the request's phrasing is not read, so the
    # canonical text is no longer written for a request with no answer in hand; the model's
    # own answer (ctx.answer) shows the task and is corrected in its own layout, and the
    # canonical text is written only where that answer has nothing to correct, with the value
    # in the answer's own form.
    assert VERIFIER.fallback(ctx()) is None
    assert VERIFIER.fallback(ctx(answer="x = 4")) == "x = 5"
    assert VERIFIER.fallback(ctx(answer="We guess boldly.\nx = 4")) == CANONICAL
    assert VERIFIER.fallback(ctx(answer="x = 5")) == CANONICAL
    assert VERIFIER.fallback(ctx(answer="x = 5.0")) == CANONICAL.replace("x = 5.", "x = 5.0.")
    # An answer that does not close with the value ("x = 6 (rounded)", a question) shows no
    # request for the exact value: the model's to answer.
    assert VERIFIER.fallback(ctx(answer="x = 6 (rounded)")) is None
    assert VERIFIER.fallback(ctx(answer="Maybe x = 4?")) is None


@pytest.mark.parametrize(
    ("request_text", "lines"),
    [
        (
            "2y - 7 = 11",
            [
                "Start with 2y - 7 = 11.",
                "Add 7 to both sides: 2y = 18.",
                "Divide both sides by 2: y = 9.",
            ],
        ),
        ("4z = 12", ["Start with 4z = 12.", "Divide both sides by 4: z = 3."]),
        ("x + 3 = 8", ["Start with x + 3 = 8.", "Subtract 3 from both sides: x = 5."]),
        (
            "-x + 4 = 10",
            [
                "Start with -x + 4 = 10.",
                "Subtract 4 from both sides: -x = 6.",
                "Multiply both sides by -1: x = -6.",
            ],
        ),
        (
            "3x + 2 = x + 10",
            [
                "Start with 3x + 2 = x + 10.",
                "Collect like terms: 2x + 2 = 10.",
                "Subtract 2 from both sides: 2x = 8.",
                "Divide both sides by 2: x = 4.",
            ],
        ),
        ("2x = 7", ["Start with 2x = 7.", "Divide both sides by 2: x = 3.5."]),
        ("3x = 10", ["Start with 3x = 10.", "Divide both sides by 3: x = 10/3."]),
        ("x = 7", ["Start with x = 7.", "So x = 7."]),
        (
            "15 = 4z + 3",
            [
                "Start with 15 = 4z + 3.",
                "Subtract 3 from both sides: 4z = 12.",
                "Divide both sides by 4: z = 3.",
            ],
        ),
    ],
)
def test_fallback_steps(request_text: str, lines: list[str]) -> None:
    eq = parse_equation(request_text)
    assert eq is not None
    assert canonical_steps(eq) == lines
    # The fallback reads the task from the model's answer (issue 33): one that states the
    # value, with nothing to correct, gets the canonical steps (none without an answer).
    assert VERIFIER.fallback(ctx(request_text)) is None
    model = f"{eq.variable} = {format_number(eq.solution)}"
    answer = VERIFIER.fallback(ctx(request_text, answer=model))
    assert answer == "\n".join(f"Step {k}: {line}" for k, line in enumerate(lines, 1))
    assert VERIFIER.check_answer(ctx(request_text), answer).passed
    steps = ParagraphSegmenter().split(answer)
    assert len(steps) == len(lines)
    for index, step in enumerate(steps):
        assert VERIFIER.check_step(ctx(request_text), step, index, steps).passed


def test_fallback_none_without_equation() -> None:
    assert VERIFIER.fallback(ctx("Summarise this text")) is None


# --- continue_steps ---------------------------------------------------------------------------


def test_continue_after_step_numbered_prefix() -> None:
    # The cached answer whose prefix is shown is handed over as ctx.answer (issue 33): it
    # shows that the value is asked, and in which form. Without it, no continuation.
    steps = ParagraphSegmenter().split(CANONICAL)
    prefix = steps[:1]
    assert VERIFIER.continue_steps(ctx(), prefix) is None
    text = VERIFIER.continue_steps(ctx(answer=CANONICAL), prefix)
    assert text == (
        "Step 2: Subtract 5 from both sides: 3x = 15.\nStep 3: Divide both sides by 3: x = 5."
    )
    assert VERIFIER.check_answer(ctx(), join_steps(prefix) + text).passed


def test_continue_after_adapted_prefix_for_changed_constant() -> None:
    old, new = "Solve 3x + 5 = 20 for x.", "Solve 3x + 7 = 20 for x."
    steps = ParagraphSegmenter().split(CANONICAL)
    # The cached answer wrote its value as an integer ("x = 5"), which does not show that an
    # exact 13/3 is asked (it also answers "round x"): no continuation, the model answers.
    context = ctx(new, cached_request=old, diff=diff_prompts(old, new), answer=CANONICAL)
    adapted = VERIFIER.adapt_step(context, steps[0])
    assert adapted is not None
    assert VERIFIER.check_step(context, adapted, 0, steps).passed
    assert VERIFIER.continue_steps(context, [adapted]) is None
    # A cached answer that wrote the exact value as a fraction shows it: the solver writes it.
    exact = CANONICAL.replace("x = 5.", "x = 15/3.")
    context = ctx(new, cached_request=old, diff=diff_prompts(old, new), answer=exact)
    text = VERIFIER.continue_steps(context, [adapted])
    assert text is not None
    assert text.startswith("Step 2: Subtract 7 from both sides: 3x = 13.")
    assert text.endswith("x = 13/3.")
    assert VERIFIER.check_answer(context, join_steps([adapted]) + text).passed


def test_continue_adds_separator_and_follows_list_numbering() -> None:
    prefix = [Step("1. Subtract 5: 3x = 15", "")]
    cached = "1. Subtract 5: 3x = 15\n2. Divide by 3: x = 5"
    text = VERIFIER.continue_steps(ctx(answer=cached), prefix)
    assert text == "\n2. Divide both sides by 3: x = 5."
    assert VERIFIER.check_answer(ctx(), join_steps(prefix) + (text or "")).passed


def test_continue_plain_prefix_and_paragraph_separator() -> None:
    prefix = [Step("Let's solve it.", "\n\n")]
    text = VERIFIER.continue_steps(ctx(answer="Let's solve it.\n\nx = 5"), prefix)
    assert text is not None
    assert text.startswith("Start with 3x + 5 = 20.\n\nSubtract 5")
    assert VERIFIER.check_answer(ctx(), join_steps(prefix) + text).passed


def test_continue_when_prefix_already_has_value() -> None:
    prefix = [Step("Step 1: x = 5", "\n")]
    text = VERIFIER.continue_steps(ctx(answer="Step 1: x = 5\nStep 2: x = 5"), prefix)
    assert text == "Step 2: So x = 5."


def test_continue_empty_prefix_is_fallback() -> None:
    # Both read the task from the answer in hand (issue 33): none, no deterministic text.
    assert VERIFIER.continue_steps(ctx(), []) is None
    assert VERIFIER.fallback(ctx()) is None
    # With an answer that shows the value and has nothing to correct, both write the same
    # canonical steps.
    assert VERIFIER.continue_steps(ctx(answer="x = 5"), []) == CANONICAL
    assert VERIFIER.fallback(ctx(answer="x = 5")) == CANONICAL


def test_continue_refuses_wrong_prefix() -> None:
    wrong = [Step("Step 1: 3x = 14", "\n")]
    assert VERIFIER.continue_steps(ctx(answer=CANONICAL), wrong) is None
    assert VERIFIER.continue_steps(ctx("Tell me a joke", answer=CANONICAL), []) is None


# --- adapt_step --------------------------------------------------------------------------------


def adapt(text: str, substitutions: dict[str, str]) -> Step | None:
    diff = PromptDiff(substitutions=substitutions)
    return VERIFIER.adapt_step(ctx(diff=diff), Step(text, "\n"))


def test_adapt_renames_variable_on_whole_tokens() -> None:
    adapted = adapt("Next, divide 3x = 15 by 3: x = 5 (x_1 and x2 untouched).", {"x": "y"})
    assert adapted == Step("Next, divide 3y = 15 by 3: y = 5 (x_1 and x2 untouched).", "\n")


def test_adapt_changes_constants_on_whole_tokens() -> None:
    adapted = adapt("Step 5: Subtract 5 from 15: 3x + 5 = 20, 0.5 and 5.5 stay.", {"5": "7"})
    assert adapted is not None
    assert adapted.text == "Step 5: Subtract 7 from 15: 3x + 7 = 20, 0.5 and 5.5 stay."


def test_adapt_applies_substitutions_simultaneously() -> None:
    adapted = adapt("x + y = 3", {"x": "y", "y": "x"})
    assert adapted is not None and adapted.text == "y + x = 3"


def test_adapt_none_when_nothing_changes() -> None:
    assert adapt("Divide by 3.", {"x": "y"}) is None
    assert adapt("next", {"x": "y"}) is None
    assert VERIFIER.adapt_step(ctx(), Step("3x = 15")) is None  # no diff at all


# --- robustness ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "(" * 50_000 + "x = 5",
        "1" * 30_000 + "x = 5",
        "=" * 100_000,
        "x = 5 " * 10_000,
        ("1+" * 40 + "1 = ") * 2_000,
        "x is " + "9" * 10_000,
        "The answer is " + "9" * 5_000,
        "x = 0." + "3" * 30_000,
        "\\frac{" * 10_000,
        "1/0 = x",
        "x = 5/0",
    ],
)
def test_pathological_inputs_do_not_raise(text: str) -> None:
    parse_equation(text)
    assert VERIFIER.check_step(ctx(), Step(text), 0, []).outcome in set(Outcome)
    assert VERIFIER.check_answer(ctx(), text).outcome in set(Outcome)
    assert VERIFIER.check_answer(ctx(text), text).outcome in set(Outcome)
    continuation = VERIFIER.continue_steps(ctx(), [Step(text)])
    assert continuation is None or isinstance(continuation, str)


def test_long_answer_keeps_its_final_value() -> None:
    answer = "Step 1: 3x = 15\n" + "Thinking.\n" * 5_000 + "x = 5"
    assert VERIFIER.check_answer(ctx(), answer).passed
    assert VERIFIER.check_answer(ctx(), answer[:-1] + "6").failed
