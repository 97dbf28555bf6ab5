"""Word problems that ask "who" or "which" decides, in the story's own words, and no
comparative.

"Ana scores 12 points and Bo scores 9 points. Who leads, and how many points did they score
together?" is answered "12 + 9 = 21 points together." and "Ana leads." With Ana at 7, Bo
leads. The question asks for a choice with "who" / "which" and a verb or noun of the story
("leads", "has to give marbles to", "pays the difference", "goes first"), never with "more",
"most", "if" or a threshold: a rule that looks for those words takes the request for one that
decides nothing, and lets a step that names the chosen person in the story's words stand.

Every total and every choice is worked out in this file from the numbers; the builder refuses
a new pair that does not change the choice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from tests.security.sound_reuse.cases.common import STREAMED, case, money

CLS = "wp_who_question_in_story_words"


@dataclass(frozen=True)
class Pick:
    """Two values ``a``, ``b`` of two people or things; ``first`` is chosen when ``a > b``."""

    name: str
    ask: Callable[[int, int], str]
    answer: Callable[[int, int, bool], str]
    cached: tuple[int, int]
    new: tuple[tuple[int, int], ...]


PICKS: list[Pick] = [
    Pick(
        "leads",
        lambda a, b: (
            f"Ana scores {a} points and Bo scores {b} points. Who leads, and how many points "
            "did they score together?"
        ),
        lambda a, b, first: (
            f"{a} + {b} = {a + b} points together.\n\n{'Ana' if first else 'Bo'} leads."
        ),
        (12, 9),
        ((7, 9), (4, 10)),
    ),
    Pick(
        "gives-marbles",
        lambda a, b: (
            f"Ana has {a} marbles and Bo has {b} marbles. Who has to give marbles to the other "
            "so they have the same, and how many marbles do they have together?"
        ),
        lambda a, b, first: (
            f"{a} + {b} = {a + b} marbles together.\n\n"
            + ("Ana has to give marbles to Bo." if first else "Bo has to give marbles to Ana.")
        ),
        (12, 8),
        ((6, 10), (3, 9)),
    ),
    Pick(
        "pays-back",
        lambda a, b: (
            f"Nina paid {money(a)} for the groceries and Omar paid {money(b)} for the taxi. "
            "They want to share the costs equally. Who pays the other back, and how much did "
            "they spend together?"
        ),
        lambda a, b, first: (
            f"{money(a)} + {money(b)} = {money(a + b)} together.\n\n"
            + ("Omar pays Nina back." if first else "Nina pays Omar back.")
        ),
        (60, 24),
        ((20, 50), (18, 40)),
    ),
    Pick(
        "keeps-the-trophy",
        lambda a, b: (
            f"In the derby for the trophy, the Foxes score {a} goals and the Bears score {b} "
            "goals. Which club keeps the trophy, and how many goals were scored?"
        ),
        lambda a, b, first: (
            f"{a} + {b} = {a + b} goals were scored.\n\n"
            f"The {'Foxes' if first else 'Bears'} keep the trophy."
        ),
        (30, 26),
        ((21, 27), (18, 25)),
    ),
    Pick(
        "heads-the-table",
        lambda a, b: (
            f"After the first round, team North has {a} points and team South has {b} points. "
            "Which team heads the table, and how many points do both teams have together?"
        ),
        lambda a, b, first: (
            f"{a} + {b} = {a + b} points together.\n\n"
            f"Team {'North' if first else 'South'} heads the table."
        ),
        (15, 11),
        ((9, 14), (10, 16)),
    ),
    Pick(
        "owes",
        lambda a, b: (
            f"Kai lent Lena {money(a)} and Lena lent Kai {money(b)}. Who owes the other money "
            "now, and how much did they lend each other in total?"
        ),
        lambda a, b, first: (
            f"{money(a)} + {money(b)} = {money(a + b)} in total.\n\n"
            + ("Lena owes Kai money." if first else "Kai owes Lena money.")
        ),
        (40, 15),
        ((10, 35), (12, 30)),
    ),
]


def all_cases() -> Iterator[dict[str, Any]]:
    n = 0
    for pick in PICKS:
        for new in pick.new:
            first_old, first_new = pick.cached[0] > pick.cached[1], new[0] > new[1]
            if first_old == first_new or new[0] == new[1]:
                raise ValueError(f"{pick.name} {new}: the choice does not change")
            n += 1
            yield case(
                f"wp-who-{n:03d}",
                CLS,
                pick.ask(*pick.cached),
                pick.answer(*pick.cached, first_old),
                pick.ask(*new),
                pick.answer(*new, first_new),
                paths=STREAMED,
                note=f"{pick.name}: the person or team chosen changes; the step naming it "
                "has no number",
            )
