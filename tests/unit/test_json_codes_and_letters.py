"""A capital letter and a code's number may be values a JSON answer took from the request."""

from __future__ import annotations

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core.text.stated import is_operand
from tests.conftest import AnswerBook


def test_a_number_glued_to_a_capital_by_a_hyphen_is_part_of_a_code() -> None:
    assert not is_operand("seat C-14", 7, 9)
    assert not is_operand("desk 3F-07", 8, 10)


def test_a_small_letter_before_a_hyphen_is_still_an_equations_variable() -> None:
    assert is_operand("3x-5 = 20", 3, 4)
    assert is_operand("10 - 5", 5, 6)


def _serve(old: str, old_answer: str, new: str, new_answer: str) -> tuple[str, str]:
    book = AnswerBook({old: old_answer, new: new_answer})
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())
    llm.invoke(old)
    message = llm.invoke(new)
    return str(message.content), message.response_metadata["stepcache"]["decision"]


def test_a_changed_seat_code_follows_the_request() -> None:
    old = "JSON for a ticket: band Arctic Monkeys, seat C-14, price 89.50"
    new = "JSON for a ticket: band Arctic Monkeys, seat F-02, price 89.50"
    answer = '{"band": "Arctic Monkeys", "seat": "%s", "price": 89.5}'
    text, decision = _serve(old, answer % "C-14", new, answer % "F-02")
    assert decision == "reuse"
    assert text == answer % "F-02"


def test_a_changed_capital_letter_inside_a_value_follows_the_request() -> None:
    old = "Create a JSON object for a talk. Speaker: Grace Liu. Room: Hall C. Minutes: 40."
    new = "Create a JSON object for a talk. Speaker: Grace Liu. Room: Hall A. Minutes: 40."
    answer = '{"speaker": "Grace Liu", "room": "%s", "minutes": 40}'
    text, decision = _serve(old, answer % "Hall C", new, answer % "Hall A")
    assert decision == "reuse"
    assert text == answer % "Hall A"


def test_a_lone_capital_the_answer_does_not_hold_is_asked_again() -> None:
    """ "size M" -> "size L" where the answer wrote the size out: no value takes the letter
    in, and nothing is served from the cached answer."""
    old = "JSON for a shirt: colour navy, size M"
    new = "JSON for a shirt: colour navy, size L"
    text, decision = _serve(
        old, '{"colour": "navy", "size": "medium"}', new, '{"colour": "navy", "size": "large"}'
    )
    assert decision in ("skip", "patch"), decision
    assert "large" in text
