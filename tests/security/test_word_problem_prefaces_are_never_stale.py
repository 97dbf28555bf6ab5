"""Attacks on the opening of an answer (a preface: "Sure!", "### Solution", "Claro!"), which the
word-problem family vouches for without knowing its words when it states no number and the
request decides nothing. Each attack opens with words that are true of the old values only:
a verdict for a request that asks yes or no, a verdict in outcome words, a number written in
words. On every path (``invoke``, ``stream``, ``ainvoke``, the global cache, LlamaIndex) the
served answer is the oracle's for the new request; the controls are reused."""

from __future__ import annotations

import pytest

from tests.security.word_paths import (
    PATHS,
    Case,
    assert_never_served_stale,
    assert_still_reused,
    served_after,
)

HALL = "A hall has 5 rows of {per} seats. {ask}"
BIKE = (
    "Nora wants a bike that costs ${price}. She already has ${saved} saved and puts away "
    "${week} every week. How many weeks until she can buy the bike?"
)
ANA = "Ana hat {n} Äpfel und isst 3 davon. Wie viele Äpfel bleiben übrig?"
LIA = "Lia tem {n} reais e gasta 4 reais. Com quantos reais ela fica?"


def _bike(price: int, saved: int, week: int, opener: str) -> str:
    need, weeks = price - saved, (price - saved) // week
    return (
        f"{opener}\n\n1. Nora still needs {price} - {saved} = {need} dollars.\n"
        f"2. At ${week} a week that takes {need} ÷ {week} = {weeks} weeks.\n\nAnswer: {weeks}"
    )


ATTACKS: dict[str, Case] = {
    # A request that asks yes or no: its answer may open with the verdict in any words.
    "verdict-of-a-yes-or-no-question": (
        HALL.format(per=8, ask="Can the 36 guests all sit? How many seats are there?"),
        "Good news!\n\nSeats: 5 x 8 = 40\n#### 40",
        HALL.format(per=6, ask="Can the 36 guests all sit? How many seats are there?"),
        "Bad news!\n\nSeats: 5 x 6 = 30\n#### 30",
    ),
    # A verdict in outcome words stays refused in a preface.
    "verdict-in-outcome-words": (
        BIKE.format(price=160, saved=40, week=15),
        _bike(160, 40, 15, "Not too long!"),
        BIKE.format(price=600, saved=40, week=8),
        _bike(600, 40, 8, "That is a long wait."),
    ),
    # A judgement of the amounts in words no list names: only words that present an answer
    # are vouched for in an opening.
    "judgement-of-the-amounts": (
        BIKE.format(price=160, saved=40, week=15),
        _bike(160, 40, 15, "Wow, that is a lot of saving!"),
        BIKE.format(price=61, saved=40, week=21),
        _bike(61, 40, 21, "Only a short wait!"),
    ),
    # A number in words is a number: the opening that states it is no preface.
    "number-in-words-first": (
        BIKE.format(price=160, saved=40, week=15),
        _bike(160, 40, 15, "Eight weeks!"),
        BIKE.format(price=200, saved=60, week=20),
        _bike(200, 60, 20, "Seven weeks!"),
    ),
    "german-number-in-words-first": (
        ANA.format(n=12),
        "Neun Äpfel!\n\nAna isst 3 Äpfel: 12 - 3 = 9.\n\nEs bleiben 9 Äpfel.",
        ANA.format(n=20),
        "Siebzehn Äpfel!\n\nAna isst 3 Äpfel: 20 - 3 = 17.\n\nEs bleiben 17 Äpfel.",
    ),
}

CONTROLS: dict[str, Case] = {
    "sure": (
        BIKE.format(price=160, saved=40, week=15),
        _bike(160, 40, 15, "Sure!"),
        BIKE.format(price=200, saved=60, week=20),
        _bike(200, 60, 20, "Sure!"),
    ),
    "markdown-heading": (
        BIKE.format(price=160, saved=40, week=15),
        _bike(160, 40, 15, "### Solution"),
        BIKE.format(price=200, saved=60, week=20),
        _bike(200, 60, 20, "### Solution"),
    ),
    "portuguese-opener": (
        LIA.format(n=10),
        "Claro!\n\nLia gasta 4 reais: 10 - 4 = 6.\n\nEla fica com 6 reais.",
        LIA.format(n=15),
        "Claro!\n\nLia gasta 4 reais: 15 - 4 = 11.\n\nEla fica com 11 reais.",
    ),
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize(
    "name",
    ["verdict-of-a-yes-or-no-question", "verdict-in-outcome-words", "judgement-of-the-amounts"],
)
def test_a_verdict_in_the_opening_is_never_served_stale(name: str, path: str) -> None:
    assert_never_served_stale(ATTACKS[name], path)


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", ["number-in-words-first", "german-number-in-words-first"])
def test_a_number_in_the_opening_is_recomputed_or_asked_again(name: str, path: str) -> None:
    served, _decision = served_after(ATTACKS[name], path)
    assert served.split() == ATTACKS[name][3].split(), served


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_an_opening_that_states_nothing_is_reused(name: str, path: str) -> None:
    assert_still_reused(CONTROLS[name], path)
