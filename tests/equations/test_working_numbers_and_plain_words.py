"""A cached answer re-instantiated for new constants keeps more of itself where that is sound.

- A number of the working takes the places its new value needs ("0,5x = 5" becomes "0,5x =
  1,5" when 8 became 4,5): the same quantity, written exactly. The final value keeps its form:
  "x = 10" never silently becomes "x = 2.5" (that step goes to the model).
- Words that say nothing about a value (courtesy, closed-class words, the vocabulary of the
  moves) are kept: "Klar, gerne!", "Some 4 aos dois lados", "Here's the solution:". A number
  word ("by two") is never kept: the rewriter cannot trace it.
Both wrappers with a SIMULATED oracle (tests.conftest.AnswerBook)."""

from __future__ import annotations

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.core.tasks.linear_equation.rewrite import reinstantiate_steps
from tests.conftest import AnswerBook


def test_a_working_number_takes_the_places_its_new_value_needs() -> None:
    old = parse_equation("Bestimme x:\n0,5x + 3 = 8")
    new = parse_equation("Bestimme x:\n0,5x + 3 = 4,5")
    assert old is not None and new is not None
    texts, valid = reinstantiate_steps(["0,5x + 3 = 8", "0,5x = 5", "x = 10"], old, new)
    assert (texts, valid) == (["0,5x + 3 = 4,5", "0,5x = 1,5", "x = 3"], 3)


@pytest.mark.parametrize(
    ("first", "second"),
    [("Solve 4x - 6 = 10", "Solve 4x - 6 = 4"), ("Solve 2x = 8", "Solve 2x = 5")],
)
def test_the_final_value_never_changes_its_form_silently(first: str, second: str) -> None:
    old, new = parse_equation(first), parse_equation(second)
    assert old is not None and new is not None
    steps = ["Add 6 to both sides: 4x = 16", "Divide by 4: x = 4"]
    if "2x" in first:
        steps = ["Divide both sides by 2: x = 4"]
    texts, valid = reinstantiate_steps(steps, old, new)
    # Every step up to the one stating the solution is rewritten; that one is not.
    assert valid == len(steps) - 1
    assert texts[-1] == steps[-1]


def test_a_value_no_decimal_writes_is_not_put_in_the_working() -> None:
    old, new = parse_equation("Solve 3x + 1 = 10"), parse_equation("Solve 3x + 1 = 11")
    assert old is not None and new is not None
    # 9 -> 10 is whole, but 9/3 -> 10/3 is no decimal: the value is the model's to write.
    texts, valid = reinstantiate_steps(["3x = 9", "x = 9/3 = 3"], old, new)
    assert valid == 1 and texts[0] == "3x = 10"


@pytest.mark.parametrize(
    ("steps", "valid"),
    [
        (["Klar, gerne!", "Addiere 6 auf beiden Seiten: 4x = 16", "Teile durch 4: x = 4"], 3),
        (["Claro! Vamos lá:", "Some 6 aos dois lados: 4x = 16", "Divida por 4: x = 4"], 3),
        (["Here's the solution:", "Add 6 to both sides: 4x = 16", "Divide by 4: x = 4"], 3),
        (["Sure!", "Add 6 to both sides: 4x = 16", "Divide both sides by four: x = 4"], 2),
    ],
)
def test_words_that_say_nothing_about_a_value_are_kept(steps: list[str], valid: int) -> None:
    old, new = parse_equation("Solve 4x - 6 = 10"), parse_equation("Solve 4x - 6 = 14")
    assert old is not None and new is not None
    texts, found = reinstantiate_steps(steps, old, new)
    assert found == valid
    assert texts[1].endswith("4x = 20")


def _serve(first: str, answer: str, second: str, correct: str) -> tuple[str, str]:
    book = AnswerBook({first: answer, second: correct})
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())
    llm.invoke(first)
    message = llm.invoke(second)
    record = message.response_metadata["stepcache"]
    return str(message.content), str(record["decision"])


def test_a_greeting_and_decimal_working_are_reused_end_to_end() -> None:
    first = "Hi, kannst du mir bei 0,4x - 1,2 = 2,8 helfen? Bitte mit Rechenweg."
    second = "Hi, kannst du mir bei 0,4x - 1,2 = 4,4 helfen? Bitte mit Rechenweg."
    answer = (
        "Klar, gerne!\n\n1. Addiere 1,2 auf beiden Seiten: 0,4x = 4\n2. Teile durch 0,4: x = 10"
    )
    correct = (
        "Klar, gerne!\n\n1. Addiere 1,2 auf beiden Seiten: 0,4x = 5,6\n2. Teile durch 0,4: x = 14"
    )
    text, decision = _serve(first, answer, second, correct)
    assert decision == "reuse"
    assert text.split() == correct.split()
