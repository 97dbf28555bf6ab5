"""The places that ask "which numbers, did one change, is this a number" read numbers the way
the one number reader does: the notations each of them gained (number words, thousands
separators, mixed numbers) and the cases they kept."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.linear_equation.prose import unchecked_prose
from stepcache_integrations.core.tasks.linear_equation.rewrite import reinstantiate_steps
from stepcache_integrations.core.tasks.linear_equation.verifier import (
    LinearEquationVerifier,
    parse_equation,
)
from stepcache_integrations.core.tasks.soundness import unsound_part
from stepcache_integrations.core.tasks.tool_call.conditions import numbers
from stepcache_integrations.core.tasks.tool_call.literals import rewrite
from stepcache_integrations.core.text import compare
from stepcache_integrations.core.verifiers.base import Verdict, VerifyContext

# --- compare(): numbers_changed -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cached", "new"),
    [
        ("Pack nine crates onto the van.", "Pack eleven crates onto the van."),  # words
        ("Pack 9 crates onto the van.", "Pack nine crates onto the van."),  # notation
        ("Pack two thirds of the crates.", "Pack three quarters of the crates."),
        ("Read the third chapter aloud.", "Read the fourth chapter aloud."),
        ("Set the label to '2,400'.", "Set the label to '2400'."),  # quoted: as written
        ("Solve 2y + 3 = 11 for y.", "Solve 5y + 3 = 11 for y."),  # a coefficient
        ("Pack 9 crates onto the van.", "Pack -9 crates onto the van."),  # a sign
    ],
)
def test_a_changed_number_is_seen(cached: str, new: str) -> None:
    delta = compare(cached, new)
    assert not delta.same
    assert delta.numbers_changed


@pytest.mark.parametrize(
    ("cached", "new"),
    [
        ("Pack nine crates onto the van.", "Pack nine boxes onto the van."),
        ("Pack 9 crates onto the van.", "Load 9 crates onto the van."),
    ],
)
def test_an_edit_beside_the_numbers_leaves_them(cached: str, new: str) -> None:
    delta = compare(cached, new)
    assert not delta.same
    assert not delta.numbers_changed


# --- the soundness safety net -------------------------------------------------------------------


def _net(cached: str, new: str, step: str) -> Verdict | None:
    ctx = VerifyContext(new, cached, compare(cached, new))
    return unsound_part(ctx, [], Step(step), 0, [Step(step)], [])


def test_a_step_with_a_number_in_words_needs_a_verifier_when_numbers_changed() -> None:
    verdict = _net("Share 6 pies among us.", "Share 8 pies among us.", "Each gets three slices.")
    assert verdict is not None and verdict.failed
    assert "numbers that no task verifier checked" in verdict.reason


def test_a_step_that_only_orders_is_not_held_back_by_the_net() -> None:
    verdict = _net("Share 6 pies among us.", "Share 8 pies among us.", "First, cut the pies.")
    assert verdict is None


# --- linear equations: the value stated in prose ------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "answer"),
    [
        ("Solve 2y - 1 = 6 for y.", "Add 1 and halve: the answer is 3 1/2"),  # mixed number
        ("Solve y - 800 = 400 for y.", "Adding 800 to both sides, y is 1,200"),  # separators
        ("Solve 4y = 6 for y.", "Dividing by 4, the solution is 3/2."),
        ("Solve y + 2 = -1.5 for y.", "Subtracting 2, y is -3.5"),
    ],
)
def test_a_value_stated_in_figures_is_read(request_text: str, answer: str) -> None:
    verdict = LinearEquationVerifier().check_answer(VerifyContext(request_text), answer)
    assert verdict.passed, verdict.reason


@pytest.mark.parametrize(
    "answer",
    [
        "Dividing by 2, y is twice as large as 3, so y is twice 3",  # a word states no value
        "The answer is 3y.",  # a term, not a value
    ],
)
def test_words_and_terms_state_no_value(answer: str) -> None:
    verdict = LinearEquationVerifier().check_answer(VerifyContext("Solve 2y = 12 for y."), answer)
    assert verdict.failed
    assert "never states a final value" in verdict.reason


# A number in a step's words is vouched for only by the rewriter, which traces its role (the
# operand of a move whose kind is kept, or the solution) and writes its new value in its own
# form. Before, the family's prose check read a stated move's operand in any notation and
# vouched for the step as it stood; now that check vouches for no number in the words, in
# any notation, and the rewriter refuses what it cannot write back in the answer's own form
# (a thousands separator, number words): the step is the model's to write again.
@pytest.mark.parametrize(
    "step",
    [
        "Subtract 1200 from both sides: 2y = 300",
        "Subtract 1,200 from both sides: 2y = 300",  # a thousands separator
        "Subtract twelve hundred from both sides: 2y = 300",  # words
    ],
)
def test_the_prose_check_vouches_for_no_number_in_the_words(step: str) -> None:
    target = parse_equation("Solve 2y + 1200 = 1500 for y.")
    assert target is not None
    found = unchecked_prose(step, [], target)
    assert found is not None
    assert found.endswith("may depend on the equation's values")


@pytest.mark.parametrize(
    ("step", "rewritten"),
    [
        ("Subtract 1200 from both sides: 2y = 300", "Subtract 1300 from both sides: 2y = 200"),
        ("Subtract 1,200 from both sides: 2y = 300", None),  # a group the answer writes
        ("Subtract twelve hundred from both sides: 2y = 300", None),  # words
        ("Subtract 1,100 from both sides: 2y = 300", None),  # a move that does not turn
        ("Subtract 1200 from both sides, then 7: 2y = 300", None),  # a number of no move
        # A term is no constant: "1200y" is not the operand 1200 (it once read as one, and
        # became "Subtract 1300y").
        ("Subtract 1200y from both sides: 2y = 300", None),
    ],
)
def test_the_rewriter_writes_a_stated_operand_only_where_it_traces_it(
    step: str, rewritten: str | None
) -> None:
    old = parse_equation("Solve 2y + 1200 = 1500 for y.")
    new = parse_equation("Solve 2y + 1300 = 1500 for y.")
    assert old is not None and new is not None
    texts, valid = reinstantiate_steps([step], old, new)
    assert (texts[0], valid) == ((rewritten, 1) if rewritten is not None else (step, 0))


def test_a_changed_constant_with_separators_is_rewritten_as_a_whole_number() -> None:
    cached, new = "Solve y + 1,200 = 1,500 for y.", "Solve y + 1,300 = 1,500 for y."
    ctx = VerifyContext(new, cached, compare(cached, new))
    step = LinearEquationVerifier().adapt_step(ctx, Step("Not 1,200.75 but 1,200: y = 300"))
    assert step is not None
    assert step.text == "Not 1,200.75 but 1,300: y = 300"  # 1,200.75 is another number


# --- tool calls: numbers a rebound value may be compared with, new number arguments -----------


def test_every_number_word_may_be_a_threshold() -> None:
    found = numbers("Refund orders above fourteen dollars, or seventeen at most")
    assert "fourteen" in found and "seventeen" in found


def test_figures_joined_by_marks_are_one_number() -> None:
    assert numbers("due 2031-11-09 at 14:05, 1,500.25 max") == ["2031-11-09", "14:05", "1,500.25"]


@pytest.mark.parametrize(
    ("new", "value", "changed"),
    [
        ("-2.5", -2.5, 1),
        ("12", 12, 1),
        ("1,200", 3, 0),  # not how JSON writes a number: left for the checks to decline
        ("$12", 3, 0),
        ("twelve", 3, 0),
    ],
)
def test_a_number_argument_takes_a_new_number_in_plain_digits(
    new: str, value: float, changed: int
) -> None:
    rewritten, count = rewrite({"seats": 3}, {"3": new})
    assert rewritten == {"seats": value}
    assert type(rewritten["seats"]) is type(value)
    assert count == changed
