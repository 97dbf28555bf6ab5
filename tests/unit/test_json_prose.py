"""Prose beside a carried-over JSON object: side notes are left out, never served stale."""

from __future__ import annotations

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.json_object.prose import without_unvouched_prose
from tests.conftest import AnswerBook

OBJ = '{"year": 2020, "make": "Toyota"}'


def _texts(steps: list[Step]) -> list[tuple[str, str]]:
    return [(step.text, step.separator) for step in steps]


def test_a_side_note_after_the_object_is_left_out() -> None:
    steps = [Step("```json\n"), Step(OBJ, "\n```\n\nTell me if it should nest.")]
    kept = without_unvouched_prose(steps, 1, (0, len(OBJ)), ("2020",), "JSON: year 2020")
    assert _texts(kept) == [("```json\n", ""), (OBJ, "\n```\n")]


def test_a_lead_in_line_is_left_out_and_the_fence_kept() -> None:
    steps = [Step("Here's the car listing:\n\n```json\n"), Step(OBJ, "\n```")]
    kept = without_unvouched_prose(steps, 1, (0, len(OBJ)), (), "Build JSON: year 2020")
    assert _texts(kept) == [("```json\n", ""), (OBJ, "\n```")]


def test_presentation_and_stated_values_stay() -> None:
    steps = [Step("Here is the JSON for Toyota:\n\n```json\n"), Step(OBJ, "\n```")]
    kept = without_unvouched_prose(steps, 1, (0, len(OBJ)), ("Toyota",), "JSON: Toyota, 2020")
    assert kept == steps


def test_a_line_that_takes_up_what_a_sentence_of_the_request_asks_stays() -> None:
    """ "Say whether it is a classic." is no side note: the line answers it, and is left
    for the soundness check (which regenerates it after a change)."""
    request = "Create a JSON object for a Toyota from 2020. Say whether it is a classic."
    steps = [Step("It is not a classic:\n"), Step(OBJ)]
    assert without_unvouched_prose(steps, 1, (0, len(OBJ)), ("2020",), request) == steps


def test_prose_longer_than_the_object_is_more_than_a_note() -> None:
    note = "I kept the year as a number. " * 5
    steps = [Step(OBJ, "\n\n" + note)]
    assert without_unvouched_prose(steps, 0, (0, len(OBJ)), (), "JSON: 2020") == steps


def test_a_lead_in_step_left_empty_is_removed() -> None:
    steps = [Step("Here you go:\n"), Step(OBJ)]
    kept = without_unvouched_prose(steps, 1, (0, len(OBJ)), (), "JSON: year 2020")
    assert _texts(kept) == [(OBJ, "")]


def test_a_changed_value_is_served_without_the_side_note_that_was_about_the_old_one() -> None:
    old = "Build a JSON object: item pet bowl, price 12.50, pet safe: no."
    new = "Build a JSON object: item pet bowl, price 12.50, pet safe: yes."
    obj = '{\n  "item": "pet bowl",\n  "price": 12.5,\n  "pet_safe": %s\n}'
    note = "\n\nBetter warn buyers about this one."
    book = AnswerBook(
        {
            old: "```json\n" + obj % "false" + "\n```" + note,
            new: "```json\n" + obj % "true" + "\n```",
        }
    )
    model = book.chat_model()
    llm = StepCacheLLM(llm=model, step_cache=StepCache())
    llm.invoke(old)
    message = llm.invoke(new)
    record = message.response_metadata["stepcache"]
    assert record["decision"] == "reuse", record
    assert message.content == "```json\n" + obj % "true" + "\n```\n"
    assert "warn" not in str(message.content)


def test_a_side_note_that_takes_up_the_changed_words_is_regenerated() -> None:
    """ "pet safe" is what the request says after its last value: a note about it is not
    left out, and since it may depend on the flipped boolean it is never served as it was."""
    old = "Build a JSON object: item pet bowl, price 12.50, pet safe: no."
    new = "Build a JSON object: item pet bowl, price 12.50, pet safe: yes."
    obj = '{\n  "item": "pet bowl",\n  "price": 12.5,\n  "pet_safe": %s\n}'
    book = AnswerBook(
        {
            old: "```json\n" + obj % "false" + "\n```\n\nNot pet safe: warn.",
            new: "```json\n" + obj % "true" + "\n```\n\nPet safe.",
        }
    )
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())
    llm.invoke(old)
    message = llm.invoke(new)
    assert message.response_metadata["stepcache"]["decision"] != "reuse"
    assert (
        str(message.content).split() == ("```json\n" + obj % "true" + "\n```\n\nPet safe.").split()
    )


def test_a_line_that_takes_up_what_the_request_asks_after_its_values_stays() -> None:
    """One sentence holds the values and, after them, what else it asks."""
    request = "Create a JSON object for a Toyota from 2020 and say whether it is a classic."
    steps = [Step(OBJ, "\nIt is not a classic.")]
    assert without_unvouched_prose(steps, 0, (0, len(OBJ)), ("2020",), request) == steps


def test_a_key_inside_a_longer_word_does_not_make_a_sentence_data() -> None:
    """ "id" in "did" is no key: the sentence still asks something beside the object."""
    request = "JSON with keys id and year: 7, 2020. Did it win a prize? Tell me first."
    obj = '{"id": 7, "year": 2020}'
    steps = [Step("It did win a prize:\n"), Step(obj)]
    assert without_unvouched_prose(steps, 1, (0, len(obj)), ("7", "2020"), request) == steps
