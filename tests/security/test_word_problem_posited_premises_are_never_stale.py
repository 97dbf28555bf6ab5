"""Attacks on a premise the question rests on ("If one potato can be cut into 5 wedges, how
many ...?", "... if they all get the same number?"), which the word-problem family reads as
posited by the asker when it states only an ability, an equality or a time: the answer
decides nothing by it. Each attack is a posited premise whose truth new values change, or a
premise that still decides (a limit, a comparison): on every path (``invoke``, ``stream``,
``ainvoke``, the global cache, LlamaIndex) the served answer is the oracle's for the new
request. The controls are reused."""

from __future__ import annotations

import pytest

from tests.security.word_paths import PATHS, Case, assert_still_reused, served_after

BUS = (
    "A bus can seat 40 people and costs $100. {pupils} pupils and 2 teachers go on a trip. "
    "If they can all sit together, how much does the trip cost?"
)
SHARE = (
    "Ana shares {n} apples among 4 friends. How many apples does each get if they all get the "
    "same number?"
)
CARRY = "Bo has {n} boxes to move. If he can only carry 4 at a time, how many trips does he make?"
FISH = (
    "Kyle, Tasha and Carla caught {total} fish. If Kyle and Tasha caught the same number of "
    "fish and Carla caught {carla}, how many fish did Kyle catch?"
)
POTATO = (
    "Cy has {n} potatoes. He cuts 4 of them into wedges and makes chips with the rest. If one "
    "potato can be cut into 5 wedges or make 30 chips, how many chips does Cy make?"
)

ATTACKS: dict[str, Case] = {
    # An ability posited, which the new values make false: the answer decides by it in words.
    "posited-ability-no-longer-true": (
        BUS.format(pupils=36),
        "Step 1: People: 36 + 2 = 38\nStep 2: They all fit in one bus: 1 x $100 = $100\n#### $100",
        BUS.format(pupils=50),
        "Step 1: People: 50 + 2 = 52\nStep 2: They need two buses: 2 x $100 = $200\n#### $200",
    ),
    # An equal share posited, which new values cannot give in whole apples.
    "posited-equality-with-a-remainder": (
        SHARE.format(n=12),
        "Each friend gets 12 / 4 = 3 apples.\n#### 3",
        SHARE.format(n=14),
        "14 / 4 = 3 with 2 left over, so each friend gets 3 apples.\n#### 3",
    ),
    # A limit ("only ... at a time") still decides: the trips are rounded up.
    "limit-in-a-premise": (
        CARRY.format(n=12),
        "He makes 12 / 4 = 3 trips.\n#### 3",
        CARRY.format(n=14),
        "14 / 4 = 3.5, so he makes 4 trips.\n#### 4",
    ),
}

CONTROLS: dict[str, Case] = {
    "posited-equality": (
        FISH.format(total=36, carla=10),
        "Kyle and Tasha caught 36 - 10 = 26 fish.\nKyle caught 26 / 2 = 13 fish.\n#### 13",
        FISH.format(total=40, carla=12),
        "Kyle and Tasha caught 40 - 12 = 28 fish.\nKyle caught 28 / 2 = 14 fish.\n#### 14",
    ),
    "posited-ability": (
        POTATO.format(n=10),
        "Cy makes chips with 10 - 4 = 6 potatoes.\nCy makes 6 x 30 = 180 chips.\n#### 180",
        POTATO.format(n=15),
        "Cy makes chips with 15 - 4 = 11 potatoes.\nCy makes 11 x 30 = 330 chips.\n#### 330",
    ),
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_posited_premise_never_gets_a_stale_answer(name: str, path: str) -> None:
    served, decision = served_after(ATTACKS[name], path)
    assert served.split() == ATTACKS[name][3].split(), (decision, served)


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_a_premise_that_decides_nothing_is_reused(name: str, path: str) -> None:
    assert_still_reused(CONTROLS[name], path)
