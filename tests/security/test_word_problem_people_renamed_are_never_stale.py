"""Attacks on the reading of a re-instantiated step's words by structure (issue 34): where only
people were renamed, only a name can still name them; a relation the story gives may be
restated after its amount. An outsider mounts them to get a stale word served: a nickname the
renaming never saw, a noun that tells a person who changed gender, a comparison of values the
story does not give. Each case is a cached request with the oracle's answer (SIMULATED: every
answer right) and a new request with the oracle's answer; on every path the served answer
must be the new request's, written by the model.

The cases are written here, for these attacks (not taken from any corpus).
"""

from __future__ import annotations

import pytest

from tests.security.word_paths import PATHS, Case, served_after

CASES: dict[str, Case] = {
    "a nickname of the old name": (
        "Katherine walks 9 miles and has walked 4 already. How many miles are left for "
        "Katherine to walk?",
        "Kate has walked 4 miles, so 9 - 4 = 5 miles remain.\n#### 5",
        "Bruno walks 9 miles and has walked 4 already. How many miles are left for Bruno to walk?",
        "Bruno has walked 4 miles, so 9 - 4 = 5 miles remain.\n#### 5",
    ),
    "a surname the renaming never saw": (
        "Mr. Keith walks 9 miles and has walked 4 already. How many miles are left for "
        "Keith to walk?",
        "Mr. Keith Hughes has walked 4 miles, so 9 - 4 = 5 miles remain.\n#### 5",
        "Mr. Ortiz walks 9 miles and has walked 4 already. How many miles are left for "
        "Ortiz to walk?",
        "Mr. Ortiz has walked 4 miles, so 9 - 4 = 5 miles remain.\n#### 5",
    ),
    "a person who changed gender, told by a noun": (
        "Lotte walks 9 miles, and she has walked 4. How many miles are left for Lotte?",
        "The girl has 9 - 4 = 5 miles left.\n#### 5",
        "Bruno walks 9 miles, and he has walked 4. How many miles are left for Bruno?",
        "The boy has 9 - 4 = 5 miles left.\n#### 5",
    ),
    "a comparison the story does not give, after its amount": (
        "Rory has 30 beans and Gigi has 25 beans. How many beans do they have together?",
        "Rory has 30 beans, more beans than Gigi who has 25, so 30 + 25 = 55 beans.\n#### 55",
        "Rory has 20 beans and Gigi has 25 beans. How many beans do they have together?",
        "Rory has 20 beans and Gigi has 25, so 20 + 25 = 45 beans.\n#### 45",
    ),
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_stale_word_about_a_person_or_a_relation_is_never_served(name: str, path: str) -> None:
    case = CASES[name]
    served, decision = served_after(case, path)
    assert " ".join(served.split()) == " ".join(case[3].split()), (decision, served)
