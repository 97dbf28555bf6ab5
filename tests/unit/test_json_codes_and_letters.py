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


def test_a_value_that_is_a_common_word_is_traced_right_after_its_key() -> None:
    """ "es" is a word of many requests ("es" in Spanish, German): it states the language
    only right after the key's name."""
    old = "Subscriber as JSON.\nemail: r.gomez@posteo.net\nlanguage: es\nopt-in: yes"
    new = old.replace("language: es", "language: en")
    answer = '{"email": "r.gomez@posteo.net", "language": "%s", "opt_in": true}'
    text, decision = _serve(old, answer % "es", new, answer % "en")
    assert decision == "reuse"
    assert text == answer % "en"


def test_a_common_word_not_after_its_key_is_not_traced() -> None:
    from stepcache_integrations.core.tasks.json_object.tracing import trace

    request = "Make JSON for the book Es, in es language, by King"
    obj = {"title": "Es", "language": "es", "author": "King"}
    assert ("language",) not in {slot.path for slot in trace(request, obj)}
