"""The word-problem family: recognition, the arithmetic reader, tracing, re-instantiation and
the gate that lets only quantities change."""

from __future__ import annotations

from fractions import Fraction

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core.steps import ParagraphSegmenter, Step
from stepcache_integrations.core.tasks import WordProblemFamily, default_registry
from stepcache_integrations.core.tasks.word_problem import chain as chain_module
from stepcache_integrations.core.tasks.word_problem.arithmetic import format_decimal, read_step
from stepcache_integrations.core.tasks.word_problem.chain import trace
from stepcache_integrations.core.tasks.word_problem.request import (
    gone_values,
    is_word_problem,
    pair_quantities,
    request_quantities,
)
from stepcache_integrations.core.tasks.word_problem.verifier import WordProblemVerifier
from stepcache_integrations.core.text import compare as diff_prompts
from stepcache_integrations.core.verifiers.base import Verdict, VerifyContext
from stepcache_integrations.core.verifiers.staleness import accept_traced_numbers
from tests.conftest import ScriptedChatModel

FORMAT = (
    ' Solve it step by step, one line per step in the form "Step N: <calculation> = <result>", '
    'and end with the line "#### <answer>".'
)
BAKER = "A baker makes {n} rolls and sells {part} of them. How many rolls are left?" + FORMAT
FAMILY = WordProblemFamily()
VERIFIER = WordProblemVerifier()


def adapt(old: str, new: str, answer: str) -> tuple[str, int, str]:
    steps = ParagraphSegmenter().split(answer)
    found = FAMILY.adapt_answer(VerifyContext(new, old), steps)
    assert found is not None
    return "".join(s.text + s.separator for s in found.steps), found.valid, found.reason


# --- recognition --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prompt",
    [
        "Ana has 12 apples and eats three. How many apples are left?",
        "A tank holds 200 litres and is half full. How much water is in it?",
        "Tom is twice as old as Ben, who is 7. How old is Tom?",
        "A shirt costs $20 and is 25% off. Calculate the sale price of two shirts.",
    ],
)
def test_word_problems_are_recognised(prompt: str) -> None:
    assert is_word_problem(prompt, {})
    assert default_registry().recognise(prompt, {}).key == "word_problem"


@pytest.mark.parametrize(
    ("prompt", "options"),
    [
        ("Solve 3x + 5 = 20 for x.", {}),
        ("What is 2 + 2?", {}),  # arithmetic, but no story
        ("Tell me a joke about 3 cats and 2 dogs.", {}),  # no question about the quantities
        ("Return only a JSON object with the keys a and b for 3 apples and 2 pears. How many?", {}),
        ("Ana has 12 apples and eats three. How many apples are left?", {"json_schema": {}}),
        ("Ana has 12 apples, eats 3 and y = 2. How many apples are left for y?", {}),
        ("```python\nx = 3\n```\nHow many lines does this code have for 2 inputs?", {}),
    ],
)
def test_other_requests_are_not_word_problems(prompt: str, options: dict[str, object]) -> None:
    assert not is_word_problem(prompt, options)


# --- the arithmetic of a step ------------------------------------------------------------------


def test_reads_numbers_equations_units_and_labels() -> None:
    math = read_step(
        "Step 2: She sells 24 rolls \u00d7 3/4 = 18 rolls, so 24 \u2212 18 = 6 are left."
    )
    # A fraction written tight is one number of the reader ("3/4"), never two.
    assert [m.text for m in math.mentions] == ["24", "3/4", "18", "24", "18", "6"]
    assert (math.mentions[1].value, math.mentions[1].form) == (Fraction(3, 4), "fraction")
    assert [e.text for e in math.equations] == ["24 rolls \u00d7 3/4 = 18", "24 \u2212 18 = 6"]
    assert math.mentions[0].unit == "rolls"
    assert not math.unreadable


def test_reads_words_percentages_money_and_of() -> None:
    math = read_step("Half of 24 = 12, and 25% of $80 = $20.50 is not right.")
    values = [(m.text, m.value, m.form) for m in math.mentions]
    assert values[0] == ("Half", Fraction(1, 2), "words")
    assert ("25", Fraction(1, 4), "percent") in values
    assert math.mentions[-1].unit == "$" and math.mentions[-1].decimals == 2
    assert len(math.equations) == 2


def test_a_tight_fraction_binds_before_multiplication() -> None:
    math = read_step("72 \u00d7 1/4 = 18")
    (equation,) = math.equations
    from stepcache_integrations.core.tasks.word_problem.arithmetic import BinOp, Leaf

    first = equation.sides[0]
    assert isinstance(first, BinOp) and first.op == "*"
    assert first.right == Leaf(1)
    assert math.mentions[1].value == Fraction(1, 4)
    (spaced,) = read_step("72 \u00d7 1 / 4 = 18").equations
    assert spaced.sides[0] == BinOp("/", BinOp("*", Leaf(0), Leaf(1)), Leaf(2))


def test_what_cannot_be_read_is_reported() -> None:
    assert read_step("So 3x + 5 = 20.").unreadable
    assert read_step("The total = a lot").unreadable == ()  # no number: nothing to judge
    assert read_step("24 + = 6").unreadable


def test_format_decimal_is_exact() -> None:
    assert format_decimal(Fraction(15, 2), 2) == "7.50"
    assert format_decimal(Fraction(1234), grouped=True) == "1,234"
    assert format_decimal(Fraction(-1, 8)) == "-0.125"
    assert format_decimal(Fraction(1, 3)) is None


# --- verifying ---------------------------------------------------------------------------------

CTX = VerifyContext(BAKER.format(n=24, part="three quarters"))


def test_a_step_that_holds_and_is_traced_passes() -> None:
    assert VERIFIER.check_step(CTX, Step("Step 1: Sold: 24 \u00d7 3/4 = 18"), 0, []).passed


def test_a_wrong_equation_fails_the_step_and_the_answer() -> None:
    verdict = VERIFIER.check_step(CTX, Step("Step 1: Sold: 24 \u00d7 3/4 = 17"), 0, [])
    assert verdict.failed and "does not hold" in verdict.reason
    answer = "Step 1: Sold: 24 \u00d7 3/4 = 18\nStep 2: Left: 24 - 18 = 5\n#### 5"
    assert VERIFIER.check_answer(CTX, answer).failed


def test_an_untraced_number_is_not_vouched_for() -> None:
    verdict = VERIFIER.check_step(CTX, Step("Step 1: She also had 7 yesterday."), 0, [])
    assert verdict.outcome.value == "n/a"


def test_the_answer_must_end_with_the_line_the_prompt_asks_for() -> None:
    good = "Step 1: Sold: 24 \u00d7 3/4 = 18\nStep 2: Left: 24 - 18 = 6\n#### 6"
    assert VERIFIER.check_answer(CTX, good).passed
    prose = "Step 1: Sold: 24 \u00d7 3/4 = 18\nStep 2: Left: 24 - 18 = 6\nSo 6 rolls are left."
    assert VERIFIER.check_answer(CTX, prose).failed
    made_up = "Step 1: Sold: 24 \u00d7 3/4 = 18\nStep 2: Left: 24 - 18 = 6\n#### 7"
    assert "final number" in VERIFIER.check_answer(CTX, made_up).reason
    assert VERIFIER.check_answer(CTX, "I do not know.").failed


def test_without_the_format_a_final_sentence_is_fine() -> None:
    ctx = VerifyContext("Ana has 12 apples and eats three. How many apples are left?")
    assert VERIFIER.check_answer(ctx, "12 - 3 = 9, so 9 apples are left.").passed


def test_repair_instruction_names_the_mistake() -> None:
    failure = Verdict.fail(VERIFIER.name, "'24 - 18 = 5' does not hold: it is 6")
    text = VERIFIER.repair_instruction(CTX, "...", failure)
    assert text is not None and "24 - 18 = 5" in text and "step by step" in text


# --- re-instantiating ---------------------------------------------------------------------------

ANSWER = "Step 1: Sold: 24 \u00d7 3/4 = 18\nStep 2: Left: 24 - 18 = 6\n#### 6"


def test_new_quantities_rewrite_every_number() -> None:
    old = BAKER.format(n=24, part="three quarters")
    new = BAKER.format(n=40, part="two fifths")
    text, valid, _ = adapt(old, new, ANSWER)
    assert valid == 2
    assert text == "Step 1: Sold: 40 \u00d7 2/5 = 16\nStep 2: Left: 40 - 16 = 24\n#### 24"


def test_quantities_in_words_and_words_in_the_answer() -> None:
    old = "Ana has twelve apples and eats three of them. How many apples are left?"
    new = "Ana has twenty apples and eats five of them. How many apples are left?"
    text, valid, _ = adapt(old, new, "She had twelve and ate three: 12 - 3 = 9.\nNine are left.")
    assert valid == 1  # one paragraph, one step
    assert text == "She had twenty and ate five: 20 - 5 = 15.\nFifteen are left."


@pytest.mark.parametrize(
    ("new", "reason"),
    [
        (BAKER.format(n=30, part="three quarters"), "becomes fractional"),  # 22.5 rolls
        ("A baker makes 24 rolls and sells three quarters of them. How many rolls are sold?"
         + FORMAT, "changed outside its quantities"),
        (BAKER.format(n="24 warm", part="three quarters"), "changed outside its quantities"),
        (BAKER.format(n=24, part="3"), "became"),  # a fraction became a count
    ],
)  # fmt: skip
def test_it_declines_when_unsure(new: str, reason: str) -> None:
    _, valid, why = adapt(BAKER.format(n=24, part="three quarters"), new, ANSWER)
    assert valid < 2 and reason in why


DECLINES = [
    pytest.param(
        "Ana has 12 apples and eats 3 of them. How many apples are left?",
        "Ana has 2 apples and eats 3 of them. How many apples are left?",
        "Step 1: 12 - 3 = 9\n#### 9",
        "negative",
        id="a value becomes negative",
    ),
    pytest.param(
        "Ana shares 12 apples among 3 friends and keeps 0 herself. How many apples each?",
        "Ana shares 12 apples among 0 friends and keeps 0 herself. How many apples each?",
        "Step 1: 12 \u00f7 3 = 4\n#### 4",
        "zero",
        id="division by zero",
    ),
    pytest.param(
        "Ana has 5 apples and Bo has 5 pears. How many fruits do they have?",
        "Ana has 7 apples and Bo has 9 pears. How many fruits do they have?",
        "Step 1: 5 + 5 = 10\n#### 10",
        "ambiguous",
        id="two quantities with one old value part",
    ),
    pytest.param(
        "A film lasts 60 minutes and a talk 30 minutes. How many hours in all?",
        "A film lasts 90 minutes and a talk 30 minutes. How many hours in all?",
        "Step 1: 60 + 30 = 90\nStep 2: 90 \u00f7 60 = 1.5\n#### 1.5",
        "constant",
        id="a conversion constant equal to a changed quantity",
    ),
    pytest.param(
        "A shop sells 2 cakes a day for 3 days. How many cakes does it sell?",
        "A shop sells 3 cakes a day for 4 days. How many cakes does it sell?",
        "Day 3: 2 \u00d7 3 = 6\n#### 6",
        "heading",
        id="a number that indexes",
    ),
    pytest.param(
        "On the third day Ana picks 12 apples and eats 4. How many apples are left?",
        "On the fifth day Ana picks 12 apples and eats 5. How many apples are left?",
        "On the third day: 12 - 4 = 8\n#### 8",
        "third",
        id="a changed quantity still named in words",
    ),
    pytest.param(
        "Ana names 3 red fruits for 2 friends. How many fruits does she name?",
        "Ana names 5 red fruits for 2 friends. How many fruits does she name?",
        "Apple, cherry and strawberry.\n\nStrawberry is a berry.",
        "no calculation uses '3'",
        id="a changed quantity no calculation uses",
    ),
]


@pytest.mark.parametrize(("old", "new", "answer", "reason"), DECLINES)
def test_it_declines_from_the_step_it_cannot_carry_over(
    old: str, new: str, answer: str, reason: str
) -> None:
    _, valid, why = adapt(old, new, answer)
    assert valid == 0 and reason in why


def test_two_quantities_with_one_old_value_that_stay_together_are_rewritten() -> None:
    old = "Ana has 5 apples and Bo has 5 pears. How many fruits do they have?"
    same = "Ana has 7 apples and Bo has 7 pears. How many fruits do they have?"
    rewritten = adapt(old, same, "Step 1: 5 + 5 = 10\n#### 10")
    assert rewritten[:2] == ("Step 1: 7 + 7 = 14\n#### 14", 1)


def test_money_keeps_its_cents() -> None:
    old = "A pen costs $2 and Ana buys 3 pens. How much does she pay, in dollars?"
    new = "A pen costs $2.25 and Ana buys 3 pens. How much does she pay, in dollars?"
    text, valid, _ = adapt(old, new, "Step 1: 3 \u00d7 $2 = $6\n#### $6")
    assert valid == 1 and text == "Step 1: 3 \u00d7 $2.25 = $6.75\n#### $6.75"


def test_an_error_while_reinstantiating_declines_rather_than_reusing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object, **kwargs: object) -> list[object]:
        raise RuntimeError("bug")

    monkeypatch.setattr("stepcache_integrations.core.tasks.word_problem.family.trace", broken)
    _, valid, why = adapt(
        BAKER.format(n=24, part="three quarters"), BAKER.format(n=40, part="a half"), ANSWER
    )
    assert valid == 0 and "failed" in why


def test_trace_refuses_quantities_that_do_not_pair() -> None:
    with pytest.raises(ValueError, match="pair one to one"):
        trace(["1 + 1 = 2"], request_quantities("Ana has 1 and Bo 1. How many?"), [])


def test_gone_values_are_what_the_new_request_no_longer_states() -> None:
    old, new = BAKER.format(n=24, part="a half"), BAKER.format(n=30, part="a half")
    assert gone_values(old, new) == {Fraction(24)}
    assert gone_values(None, new) == frozenset()


def test_pairing_reasons() -> None:
    assert isinstance(
        pair_quantities(BAKER.format(n=1, part="a half"), BAKER.format(n=2, part="a half")), tuple
    )
    assert "quantities" in str(
        pair_quantities("Ana has 3 cats. How many?", "Ana has 3 cats and 2 dogs. How many?")
    )
    assert "counted" in str(
        pair_quantities("Ana pays $3. How much?", "Ana pays 3 euros. How much?")
    ) or "changed outside" in str(
        pair_quantities("Ana pays $3. How much?", "Ana pays 3 euros. How much?")
    )


# --- through the cache -------------------------------------------------------------------------


def responder(messages: list[object]) -> str:
    prompt = str(messages[0].content)
    n = request_quantities(prompt)[0].value
    part = request_quantities(prompt)[1].value
    sold = n * part
    return (
        f"Step 1: Sold: {n} \u00d7 {part.numerator}/{part.denominator} = {sold}\n"
        f"Step 2: Left: {n} - {sold} = {n - sold}\n#### {n - sold}"
    )


def test_an_old_quantity_that_a_new_calculation_gives_again_is_served() -> None:
    """Re-instantiated "32 - 8 = 24" mentions 24, which the new prompt no longer states: the
    staleness check accepts it because the family traced every number of the step."""
    model = ScriptedChatModel(responder=responder)
    llm = StepCacheLLM(llm=model, step_cache=StepCache())
    llm.invoke(BAKER.format(n=24, part="three quarters"))
    reply = llm.invoke(BAKER.format(n=32, part="a quarter"))
    record = reply.response_metadata["stepcache"]
    assert record["decision"] == "reuse" and record["steps_adapted"] == 2
    assert reply.content == "Step 1: Sold: 32 \u00d7 1/4 = 8\nStep 2: Left: 32 - 8 = 24\n#### 24"
    assert len(model.calls) == 1


def test_a_stop_is_on_the_record_with_the_familys_reason() -> None:
    model = ScriptedChatModel(responder=responder)
    llm = StepCacheLLM(llm=model, step_cache=StepCache())
    llm.invoke(BAKER.format(n=24, part="three quarters"))
    reply = llm.invoke(BAKER.format(n=30, part="three quarters"))  # 22.5 rolls: not whole
    record = reply.response_metadata["stepcache"]
    reasons = [v["reason"] for v in record["verdicts"] if v["verifier"] == "word_problem"]
    assert any("becomes fractional" in reason for reason in reasons)
    # The model answers (its answer, 22.5 rolls, may be repaired too).
    assert record["decision"] in ("skip", "patch") and len(model.calls) >= 2


def test_staleness_forgives_traced_numbers_only() -> None:
    old, new = "Ana has 24 rolls. How many?", "Ana has 32 rolls. How many?"
    ctx = VerifyContext(new, old, diff_prompts(old, new))
    stale = Verdict.fail("staleness", "mentions '24', no longer in the prompt", step=0)
    assert accept_traced_numbers(ctx, Step("32 - 8 = 24"), stale).passed
    renamed_old, renamed_new = "Greet Alice 24 times. How many?", "Greet Bob 32 times. How many?"
    ctx = VerifyContext(renamed_new, renamed_old, diff_prompts(renamed_old, renamed_new))
    # A name the prompt no longer has stays stale, whatever the numbers.
    assert accept_traced_numbers(ctx, Step("Then greet Alice: 32 - 8 = 24"), stale).failed


def test_chain_module_constants_need_their_units() -> None:
    assert chain_module._constant(Fraction(60), "it took 2 hours") is True
    assert chain_module._constant(Fraction(60), "she has 60 apples") is False
    assert chain_module._constant(Fraction(1), "anything") is True


# -- a factor of an amount of money is no amount of money ---------------------------------------


def _carried(cached: str, new: str, steps: list[str]) -> list[str | None]:
    traces = trace(steps, request_quantities(cached), request_quantities(new), request=new)
    return [t.text if t.problem is None else None for t in traces]


def test_a_bare_factor_of_money_is_the_count_not_the_price_of_the_same_value() -> None:
    cached = "Nadia orders 6 lanterns at $6 each. How much does she pay?"
    new = "Nadia orders 8 lanterns at $5 each. How much does she pay?"
    steps = ["The 6 lanterns: 6 * $6.00 = $36.00.", "She pays $36.00."]
    assert _carried(cached, new, steps) == [
        "The 8 lanterns: 8 * $5.00 = $40.00.",
        "She pays $40.00.",
    ]


def test_two_amounts_of_money_of_the_same_value_stay_ambiguous() -> None:
    # The $3.00 may be either price; only the bare 3 is known to be no amount of money.
    cached = "A cap costs $3 and a scarf costs $3 more than the cap. Teo buys 3 caps. Total?"
    new = "A cap costs $4 and a scarf costs $2 more than the cap. Teo buys 5 caps. Total?"
    assert _carried(cached, new, ["3 * $3.00 = $9.00."]) == [None]
    # Without money written, nothing tells the count from the price.
    cached = "Nadia orders 6 lanterns at $6 each. How much does she pay?"
    new = "Nadia orders 8 lanterns at $5 each. How much does she pay?"
    assert _carried(cached, new, ["6 * 6 = 36 dollars."]) == [None]
