"""Word problems over a scale that wraps around are never served a stale re-instantiation.

A clock time, a date, a weekday and a compass heading wrap around (12 or 24 hours, the days
of a month, 7 days, 360 degrees): adding them as plain numbers writes "9 am + 5 hours = 14 am"
or "March 34", and renaming a month changes the days it has ("April 31"). An outside attack
with an oracle model (every answer right, so anything wrong is the cache's) found the
word-problem family re-instantiating such answers with "every cached step verified"; the
first nine pairs are its findings, the rest written for this test (the attack's second round
is in the sound-reuse corpus, class ``wp_wrapping_scale``). The control pairs: the same kind
of sum without a wrapping scale, and a quantity in two units that the answer converts into
one, are still re-instantiated.
"""

from __future__ import annotations

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook

# (cached request, its answer, new request, its answer)
WRAPPING = [
    (
        "A meeting starts at 9 am and lasts 2 hours. What time does it end?",
        "9 am + 2 hours = 11 am.\n\nThe meeting ends at 11 am.",
        "A meeting starts at 9 am and lasts 5 hours. What time does it end?",
        "9 am + 5 hours = 2 pm.\n\nThe meeting ends at 2 pm.",
    ),
    (
        "A store opens at 8 am and stays open for 3 hours. What time does it close?",
        "8 am + 3 hours = 11 am\n\nThe store closes at 11 am.",
        "A store opens at 8 am and stays open for 4 hours. What time does it close?",
        "8 am + 4 hours = 12 pm (noon)\n\nThe store closes at 12 pm.",
    ),
    (
        "A party starts at 8 pm and lasts 3 hours. What time does it end?",
        "8 pm + 3 hours = 11 pm\n\nThe party ends at 11 pm.",
        "A party starts at 8 pm and lasts 6 hours. What time does it end?",
        "8 pm + 6 hours = 2 am the next day\n\nThe party ends at 2 am.",
    ),
    (
        "A clock shows 7 o'clock. Ana waits 2 hours, then 3 more hours. What time does the clock"
        " show?",
        "7 + 2 + 3 = 12\n\nThe clock shows 12 o'clock.",
        "A clock shows 7 o'clock. Ana waits 4 hours, then 3 more hours. What time does the clock"
        " show?",
        "7 + 4 + 3 = 14, and 14 - 12 = 2\n\nThe clock shows 2 o'clock.",
    ),
    (
        "Ana's party is on March 20 and her trip starts 5 days later. What is the date of the"
        " trip?",
        "20 + 5 = 25\n\nThe trip starts on March 25.",
        "Ana's party is on March 29 and her trip starts 5 days later. What is the date of the"
        " trip?",
        "29 + 5 = 34, and March has 31 days.\n\nThe trip starts on April 3.",
    ),
    (
        "On December 20 Ana starts a 5 day holiday. On what date does it end?",
        "20 + 5 = 25\n\nIt ends on December 25.",
        "On December 20 Ana starts a 15 day holiday. On what date does it end?",
        "20 + 15 = 35, and December has 31 days, so 35 - 31 = 4\n\nIt ends on January 4.",
    ),
    (
        "A plant is watered on March 25 and again 6 days later. On what date is it watered again?",
        "25 + 6 = 31\n\nIt is watered again on March 31.",
        "A plant is watered on April 25 and again 6 days later. On what date is it watered again?",
        "25 + 6 = 31, and April has 30 days\n\nIt is watered again on May 1.",
    ),
    (
        "Ana's party is on March 20 and her trip starts 10 days later. What is the date of the"
        " trip?",
        "20 + 10 = 30\n\nThe trip starts on March 30.",
        "Ana's party is on February 20 and her trip starts 10 days later. What is the date of the"
        " trip?",
        "20 + 10 = 30, but February has 28 days in a common year, so 30 - 28 = 2\n\n"
        "The trip starts on March 2.",
    ),
    (
        "A ship sails on a heading of 300 degrees and turns 40 degrees clockwise. What is its new"
        " heading?",
        "300 + 40 = 340\n\nThe new heading is 340 degrees.",
        "A ship sails on a heading of 300 degrees and turns 80 degrees clockwise. What is its new"
        " heading?",
        "300 + 80 = 380, and 380 - 360 = 20\n\nThe new heading is 20 degrees.",
    ),
    (
        "A bus leaves at 10:40 and the ride takes 15 minutes. At what time does it arrive?",
        "10:40 + 15 minutes = 10:55\n\nThe bus arrives at 10:55.",
        "A bus leaves at 10:40 and the ride takes 35 minutes. At what time does it arrive?",
        "10:40 + 35 minutes = 11:15\n\nThe bus arrives at 11:15.",
    ),
    (
        "Today is Monday. Omar's parcel comes in 3 days. On which day does it come?",
        "Monday + 3 days = Thursday\n\nThe parcel comes on Thursday.",
        "Today is Monday. Omar's parcel comes in 9 days. On which day does it come?",
        "9 days = 1 week + 2 days, and Monday + 2 days = Wednesday\n\n"
        "The parcel comes on Wednesday.",
    ),
    (
        "Lena's course starts on 28 June and lasts 2 days. It ends 2 days after it starts. On"
        " what day of June does it end?",
        "28 + 2 = 30\n\nIt ends on June 30.",
        "Lena's course starts on 28 June and lasts 4 days. It ends 4 days after it starts. On"
        " what day of June does it end?",
        "28 + 4 = 32, and June has 30 days, so it ends on July 2, not in June.\n\n"
        "It ends on July 2.",
    ),
    (
        "A wheel is rotated 200 degrees and then 100 degrees more. How many degrees is it from"
        " where it started?",
        "200 + 100 = 300\n\nIt is 300 degrees from where it started.",
        "A wheel is rotated 200 degrees and then 250 degrees more. How many degrees is it from"
        " where it started?",
        "200 + 250 = 450, and 450 - 360 = 90\n\nIt is 90 degrees from where it started.",
    ),
    (
        "A shop opens at 9 in the morning and stays open for 2 hours. At what hour does it close?",
        "9 + 2 = 11\n\nIt closes at 11 in the morning.",
        "A shop opens at 9 in the morning and stays open for 5 hours. At what hour does it close?",
        "9 + 5 = 14, which is 2 in the afternoon\n\nIt closes at 2 in the afternoon.",
    ),
]

# Sums of the same shape over quantities that do not wrap: re-instantiated as before.
CONTROL = [
    (
        "A film lasts 2 hours and the trailer 1 hour. How many hours is the showing?",
        "2 + 1 = 3\n\nThe showing is 3 hours.",
        "A film lasts 4 hours and the trailer 1 hour. How many hours is the showing?",
        "4 + 1 = 5\n\nThe showing is 5 hours.",
    ),
    (
        "Ana is 5 feet 2 inches tall. How tall is she in inches?",
        "5 * 12 + 2 = 62\n\nAna is 62 inches tall.",
        "Ana is 5 feet 4 inches tall. How tall is she in inches?",
        "5 * 12 + 4 = 64\n\nAna is 64 inches tall.",
    ),
    (
        "Ana reads 20 pages and then 5 more pages. How many pages does she read?",
        "20 + 5 = 25\n\nShe reads 25 pages.",
        "Ana reads 29 pages and then 5 more pages. How many pages does she read?",
        "29 + 5 = 34\n\nShe reads 34 pages.",
    ),
]


def _serve(wrapper: str, first: str, first_answer: str, second: str, second_answer: str) -> str:
    """The decision for ``second`` after ``first`` through a fresh cache of ``wrapper``, whose
    served answer must be the oracle's for ``second``."""
    book = AnswerBook({first: first_answer, second: second_answer})
    if wrapper == "langchain":
        chat = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())
        chat.invoke(first)
        message = chat.invoke(second)
        served, decision = str(message.content), message.response_metadata["stepcache"]["decision"]
    else:
        llama = LlamaStepCacheLLM(llm=book.llama_llm(), step_cache=StepCache())
        llama.complete(first)
        response = llama.complete(second)
        served, decision = response.text, response.additional_kwargs["stepcache"]["decision"]
    assert served.split() == second_answer.split(), (decision, served)
    return str(decision)


@pytest.mark.parametrize("wrapper", ["langchain", "llama_index"])
@pytest.mark.parametrize("pair", WRAPPING)
def test_a_wrapping_scale_is_never_re_instantiated_stale(
    wrapper: str, pair: tuple[str, str, str, str]
) -> None:
    assert _serve(wrapper, *pair) not in ("exact", "reuse", "patch")


@pytest.mark.parametrize("wrapper", ["langchain", "llama_index"])
@pytest.mark.parametrize("pair", CONTROL)
def test_the_same_sum_without_a_wrapping_scale_is_still_re_instantiated(
    wrapper: str, pair: tuple[str, str, str, str]
) -> None:
    assert _serve(wrapper, *pair) == "reuse"
