"""Word problems that ask who won or lost, answered with the story's own event word.

"Ana scores 12 points and Bo scores 9 points. Who won, and how many points did they score
together?" is answered "12 + 9 = 21 points together." and "Ana won." Asked again with Ana
scoring 7, the total is recomputed (16), but the winner is now Bo. A step that names the
winner with the request's own verb ("won", "wins", "lost", "loses") carries no number: the
values it depends on are the request's, and nothing re-evaluates who is ahead. The request
asks to decide with "who" / "which" and an event verb, not with a comparative ("more",
"most") or a threshold word.

Every total and every winner here is worked out from the numbers in this file: a case whose
new numbers do not change the winner is no case, and the builder refuses it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from tests.security.sound_reuse.cases.common import STREAMED, case

CLS = "wp_outcome_event_word"


@dataclass(frozen=True)
class Contest:
    """Two sides scoring ``a`` and ``b``; ``ask`` the request for two scores, ``answer`` the
    correct answer for two scores (the winner named in words)."""

    name: str
    ask: Callable[[int, int], str]
    answer: Callable[[int, int], str]
    cached: tuple[int, int]
    new: tuple[tuple[int, int], ...]
    lower_wins: bool = False  # golf, a race in minutes: the lower score wins


def _winner(a: int, b: int, first: str, second: str, lower_wins: bool = False) -> str:
    if a == b:
        raise ValueError("a tie is no case here")
    return first if (a > b) != lower_wins else second


CONTESTS: list[Contest] = [
    Contest(
        "points-won",
        lambda a, b: (
            f"Ana scores {a} points and Bo scores {b} points. Who won, and how many points did "
            "they score together?"
        ),
        lambda a, b: f"{a} + {b} = {a + b} points together.\n\n{_winner(a, b, 'Ana', 'Bo')} won.",
        (12, 9),
        ((7, 9), (5, 11), (8, 10)),
    ),
    Contest(
        "votes-wins",
        lambda a, b: (
            f"In the class election, Priya gets {a} votes and Tomas gets {b} votes. Who wins, "
            "and how many votes were cast?"
        ),
        lambda a, b: f"Votes cast: {a} + {b} = {a + b}.\n\n{_winner(a, b, 'Priya', 'Tomas')} wins.",
        (14, 11),
        ((9, 16), (10, 13)),
    ),
    Contest(
        "goals-lost",
        lambda a, b: (
            f"The Hawks scored {a} goals and the Owls scored {b} goals. Which team lost, and "
            "how many goals were scored in the match?"
        ),
        lambda a, b: (
            f"Goals in the match: {a} + {b} = {a + b}.\n\n"
            f"The {_winner(a, b, 'Owls', 'Hawks')} lost."
        ),
        (4, 2),
        ((1, 3), (2, 5)),
    ),
    Contest(
        "runs-won",
        lambda a, b: (
            f"In a cricket match, the Lions made {a} runs and the Tigers made {b} runs. Which "
            "team won, and how many runs were made in all?"
        ),
        lambda a, b: (
            f"Runs made: {a} + {b} = {a + b} in all.\n\nThe {_winner(a, b, 'Lions', 'Tigers')} won."
        ),
        (245, 230),
        ((210, 236), (198, 250)),
    ),
    Contest(
        "chess-loses",
        lambda a, b: (
            f"Over the season, Mei wins {a} chess games against Jon and Jon wins {b} games "
            "against Mei. Who loses the season, and how many games did they play?"
        ),
        lambda a, b: f"{a} + {b} = {a + b} games.\n\n{_winner(a, b, 'Jon', 'Mei')} loses.",
        (9, 6),
        ((5, 8), (4, 10)),
    ),
    Contest(
        "race-won",
        lambda a, b: (
            f"Leo runs the race in {a} minutes and Sara runs it in {b} minutes. Who won, and "
            "how many minutes did they run in total?"
        ),
        lambda a, b: (
            f"{a} + {b} = {a + b} minutes in total.\n\n"
            f"{_winner(a, b, 'Leo', 'Sara', lower_wins=True)} won."
        ),
        (31, 35),
        ((38, 33), (40, 36)),
        lower_wins=True,
    ),
    Contest(
        "quiz-won",
        lambda a, b: (
            f"In the quiz, the Red team answered {a} questions right and the Blue team "
            f"answered {b} right. Which team won, and how many questions did the teams answer "
            "right altogether?"
        ),
        lambda a, b: (
            f"Altogether: {a} + {b} = {a + b} questions.\n\n"
            f"The {_winner(a, b, 'Red', 'Blue')} team won."
        ),
        (18, 15),
        ((13, 17), (12, 19)),
    ),
]


def _check(contest: Contest, old: tuple[int, int], new: tuple[int, int]) -> None:
    def who(pair: tuple[int, int]) -> bool:
        return (pair[0] > pair[1]) != contest.lower_wins

    if who(old) == who(new):
        raise ValueError(f"{contest.name} {new}: the winner does not change")


def all_cases() -> Iterator[dict[str, Any]]:
    n = 0
    for contest in CONTESTS:
        for new in contest.new:
            _check(contest, contest.cached, new)
            n += 1
            yield case(
                f"wp-event-{n:03d}",
                CLS,
                contest.ask(*contest.cached),
                contest.answer(*contest.cached),
                contest.ask(*new),
                contest.answer(*new),
                paths=STREAMED,
                note=f"{contest.name}: the winner changes, the step naming it has no number",
            )
