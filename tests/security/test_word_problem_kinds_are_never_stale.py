"""Kinds, bounds and renames (issue 34): a result whose equations hold but that is no valid
value of what it counts is never served.

An outside attack with an oracle model (every answer right, so anything wrong is the cache's)
was served, on every path, "each friend gets 2.5 kittens" (pizzas shared by 4 friends, renamed
into kittens), "5 animals" for 3 cows and 2 herds, "120% correct" for 60 of 50 questions, 27
hours of sleep and work in one day, 9 days of exercise in a week, and two exclusive chances
adding to 1.3. Each attack here is a cached request with the oracle's answer, then a new
request with the oracle's answer; it runs through ``invoke``, ``stream`` and ``ainvoke`` of
the LangChain ``StepCacheLLM``, LangChain's global cache and the LlamaIndex ``StepCacheLLM``,
and the served answer must be the oracle's. The controls (the same stories with values and
renames that stay valid) must still be re-instantiated without a model call.
"""

from __future__ import annotations

import pytest

from tests.security.word_paths import (
    PATHS,
    Case,
    assert_never_served_stale,
    assert_still_reused,
)

PIZZAS = "Mia buys 10 pizzas and shares them equally among 4 friends. How many pizzas does each friend get?"  # noqa: E501
PIZZAS_ANSWER = "10 / 4 = 2.5\nEach friend gets 2.5 pizzas.\n#### 2.5"
FARM = "A farmer has 3 cows and 2 goats. How many animals does the farmer have?"
FARM_ANSWER = "3 + 2 = 5\nThe farmer has 5 animals.\n#### 5"
QUIZ = "Ana answered 40 of the 50 questions correctly. What percent of the questions did she answer correctly?"  # noqa: E501
DAY = (
    "Ben sleeps 8 hours and works 9 hours in one day. How many hours a day does he sleep and work?"
)
WEEK = "Ana runs 3 days a week and swims 2 days a week on other days. How many days a week does she exercise?"  # noqa: E501
CHANCE = "The chance of rain tomorrow is 0.3 and the chance of snow is 0.2; they cannot both happen. What is the chance of rain or snow?"  # noqa: E501
IMPOSSIBLE = "These numbers are impossible for this story, so it has no answer.\n#### none"

ATTACKS: dict[str, Case] = {
    "a thing that may be split renamed into one that may not": (
        PIZZAS,
        PIZZAS_ANSWER,
        PIZZAS.replace("pizzas", "kittens"),
        "Kittens cannot be split: each friend gets 2 kittens and 2 are left over.\n#### 2",
    ),
    "a thing renamed into a group": (
        FARM,
        FARM_ANSWER,
        FARM.replace("goats", "herds"),
        "A herd is a group of animals of unknown size: the count cannot be found.\n#### none",
    ),
    "a thing renamed out of the category the question counts": (
        FARM,
        FARM_ANSWER,
        FARM.replace("goats", "chairs"),
        "Chairs are no animals: the farmer has 3 animals.\n#### 3",
    ),
    "a fraction of a thing renamed into one that may not be split": (
        "Ana eats 3/4 of a pie and Bo eats 1/2 of a pie. How much pie do they eat?",
        "3/4 + 1/2 = 5/4\nThey eat 5/4 of a pie.\n#### 5/4",
        "Ana eats 3/4 of a puppy and Bo eats 1/2 of a puppy. How much puppy do they eat?",
        IMPOSSIBLE,
    ),
    "more right answers than questions asked": (
        QUIZ,
        "40 / 50 * 100 = 80\nShe answered 80% correctly.\n#### 80",
        QUIZ.replace("40", "60"),
        IMPOSSIBLE,
    ),
    "a share past its whole, written in percent": (
        QUIZ,
        "She answered 40/50 = 80% of the questions correctly.\n#### 80",
        QUIZ.replace("40", "60"),
        IMPOSSIBLE,
    ),
    "a share past its whole, in two steps": (
        QUIZ,
        "40 / 50 = 0.8\n0.8 * 100 = 80\nShe answered 80% correctly.\n#### 80",
        QUIZ.replace("40", "60"),
        IMPOSSIBLE,
    ),
    "hours past the day": (
        DAY,
        "8 + 9 = 17\nHe sleeps and works 17 hours a day.\n#### 17",
        DAY.replace("8 hours", "12 hours").replace("9 hours", "15 hours"),
        "A day has only 24 hours, and 12 + 15 = 27: impossible.\n#### none",
    ),
    "a quantity of hours past the day": (
        "Ben sleeps 8 hours a day. How many hours does he sleep in 3 days?",
        "8 * 3 = 24\nHe sleeps 24 hours.\n#### 24",
        "Ben sleeps 26 hours a day. How many hours does he sleep in 3 days?",
        IMPOSSIBLE,
    ),
    "days past the week": (
        WEEK,
        "3 + 2 = 5\nShe exercises 5 days a week.\n#### 5",
        WEEK.replace("3 days", "5 days").replace("2 days", "4 days"),
        "A week has 7 days, and 5 + 4 = 9: impossible.\n#### none",
    ),
    "exclusive chances past 1": (
        CHANCE,
        "0.3 + 0.2 = 0.5\nThe chance is 0.5.\n#### 0.5",
        CHANCE.replace("0.3", "0.6").replace("0.2", "0.7"),
        "Two exclusive chances cannot add to more than 1.\n#### none",
    ),
    "chances in percent past the whole": (
        "There is a 30% chance of rain and a 20% chance of snow, never both. What is the "
        "chance of rain or snow, in percent?",
        "30% + 20% = 50%\n#### 50",
        "There is a 60% chance of rain and a 70% chance of snow, never both. What is the "
        "chance of rain or snow, in percent?",
        IMPOSSIBLE,
    ),
    "a fraction of a whole past the whole": (
        "Ana has 24 figs and eats 3/4 of them. How many figs does she eat?",
        "24 * 3/4 = 18\nShe eats 18 figs.\n#### 18",
        "Ana has 24 figs and eats 5/4 of them. How many figs does she eat?",
        IMPOSSIBLE,
    ),
    "a whole count of people made fractional": (
        "A van seats 8 people. How many vans do 24 people need?",
        "24 / 8 = 3\nThey need 3 vans.\n#### 3",
        "A van seats 8 people. How many vans do 24.5 people need?",
        IMPOSSIBLE,
    ),
}

# The same stories with values and renames that stay valid: still re-instantiated.
CONTROLS: dict[str, Case] = {
    "a thing that may be split renamed into another": (
        PIZZAS,
        PIZZAS_ANSWER,
        PIZZAS.replace("pizzas", "cakes"),
        "10 / 4 = 2.5\nEach friend gets 2.5 cakes.\n#### 2.5",
    ),
    "an animal renamed into an animal": (
        FARM,
        FARM_ANSWER,
        FARM.replace("goats", "sheep"),
        "3 + 2 = 5\nThe farmer has 5 animals.\n#### 5",
    ),
    "a share within its whole": (
        QUIZ,
        "She answered 40/50 = 80% of the questions correctly.\n#### 80",
        QUIZ.replace("40", "45"),
        "She answered 45/50 = 90% of the questions correctly.\n#### 90",
    ),
    "hours within the day": (
        DAY,
        "8 + 9 = 17\nHe sleeps and works 17 hours a day.\n#### 17",
        DAY.replace("8 hours", "7 hours"),
        "7 + 9 = 16\nHe sleeps and works 16 hours a day.\n#### 16",
    ),
    "hours of several days past 24": (
        "Ben sleeps 6 hours a day. How many hours does he sleep in 3 days?",
        "6 * 3 = 18\nHe sleeps 18 hours.\n#### 18",
        "Ben sleeps 9 hours a day. How many hours does he sleep in 3 days?",
        "9 * 3 = 27\nHe sleeps 27 hours.\n#### 27",
    ),
    "chances within 1": (
        CHANCE,
        "0.3 + 0.2 = 0.5\nThe chance is 0.5.\n#### 0.5",
        CHANCE.replace("0.3", "0.4"),
        "0.4 + 0.2 = 0.6\nThe chance is 0.6.\n#### 0.6",
    ),
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_an_invalid_value_of_its_kind_is_never_served(name: str, path: str) -> None:
    case = ATTACKS[name]
    assert_never_served_stale(case, path)


@pytest.mark.parametrize("path", ["invoke", "llama_index"])
@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_a_valid_value_of_its_kind_is_still_reused(name: str, path: str) -> None:
    case = CONTROLS[name]
    assert_still_reused(case, path)
