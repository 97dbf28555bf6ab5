"""Round 7 of the outside attack on the word-problem family (issue 34: kinds, bounds and
renames), with an oracle model (``AnswerBook``, SIMULATED: every answer right, so anything
wrong that is served was made by the cache).

Four classes were served stale on every path (``invoke``, ``stream``, ``ainvoke``, LangChain's
global cache, LlamaIndex):

- **a person renamed into one of another generation**: "His sister is 5 years younger than
  him" (Tom is 8) became "his grandmother", "his daughter", "his stepmother", "his teacher";
  "his father is 30 years older" became "his son". The arithmetic of the ages holds ("8 - 5 =
  3"), but a grandmother of 3, a daughter of 3 for a boy of 8 and a son of 38 are no valid
  ages of who they now are: the renamed word carried the relation the ages relied on. A
  sister renamed into a brother or a cousin, a father into a mother or a dad (the same
  generation) are still reused.
- **an age past a human life**: Tom of 98 (or 130) with a father 30 years older was served
  "128 years old" (or 160). Years that tell how old someone is lie within a human life; the
  same story with Tom of 48 is still reused.
- **a period named in a way the English reading of periods did not list**: "over a single
  week", "on any given day", "hours of his day", "nightly", "in February", and hours written
  "12 h" (the reading wanted "a", "per", "each"... right before the period, and two letters
  of a unit): 9 days of a week, 27 hours of a day and 32 days of February were served. A
  period is now read from its singular noun (and the lexicon's words for periods and their
  parts, and its one-letter symbols of time), whatever stands before it.
- **bounds of a period in German and Portuguese**: "40 Minuten und 35 Minuten in jeder
  Stunde", "40 minutos e 35 minutos em cada hora", "5 dias e 4 dias por semana", "12 Stunden
  und 15 Stunden am Tag" were re-instantiated to 75 minutes of an hour, 9 days of a week and
  27 hours of a day: the family read the units and periods that bound a time in English
  only. The same stories with values within the period are still reused.
"""

from __future__ import annotations

import pytest

from tests.security.word_paths import (
    PATHS,
    Case,
    assert_never_served_stale,
    assert_still_reused,
)

IMPOSSIBLE = "These numbers are impossible for this story.\n#### none"

YOUNGER = "Tom is 8 years old. His sister is 5 years younger than him. How old is his sister?"
YOUNGER_ANSWER = "His sister is 8 - 5 = <<8-5=3>>3 years old.\n#### 3"
OLDER = "Tom is 8 years old. His father is 30 years older than him. How old is his father?"
OLDER_ANSWER = "His father is 8 + 30 = <<8+30=38>>38 years old.\n#### 38"

DE_DAY = (
    "Ben schläft 8 Stunden und arbeitet 9 Stunden am Tag. Wie viele Stunden am Tag schläft "
    "und arbeitet er?"
)
PT_DAY = (
    "O Ben dorme 8 horas e trabalha 9 horas por dia. Quantas horas por dia ele dorme e trabalha?"
)
DE_HOUR = (
    "In jeder Stunde liest Lea 20 Minuten und schreibt 25 Minuten. Wie viele Minuten jeder "
    "Stunde nutzt sie?"
)
PT_HOUR = (
    "Em cada hora, a Lia lê 20 minutos e escreve 25 minutos. Quantos minutos de cada hora ela usa?"
)
PT_WEEK = (
    "A Ana corre 3 dias por semana e nada 2 dias por semana. Quantos dias por semana ela treina?"
)
SUM_17 = "8 + 9 = <<8+9=17>>17\n#### 17"
SUM_45 = "20 + 25 = <<20+25=45>>45\n#### 45"
SUM_5 = "3 + 2 = <<3+2=5>>5\n#### 5"


def _sum_past(template: str, old: tuple[int, int], new: tuple[int, int]) -> Case:
    """A story of two times within a period (``template`` with ``{a}`` and ``{b}``): the
    cached values sum within the period, the new ones past it."""
    (a, b), (c, d) = old, new
    return (
        template.format(a=a, b=b),
        f"{a} + {b} = <<{a}+{b}={a + b}>>{a + b}\n#### {a + b}",
        template.format(a=c, b=d),
        IMPOSSIBLE,
    )


def _sum_within(template: str, old: tuple[int, int], new: tuple[int, int]) -> Case:
    """The same story with new values whose sum stays within the period."""
    cached, answer, request, _ = _sum_past(template, old, new)
    c, d = new
    return cached, answer, request, f"{c} + {d} = <<{c}+{d}={c + d}>>{c + d}\n#### {c + d}"


SINGLE_WEEK = (
    "Over a single week, Ana runs on {a} days and swims on {b} other days. On how many days "
    "does she exercise?"
)
GIVEN_DAY = "On any given day, Ben sleeps {a} hours and works {b} hours. How many hours is that?"
HIS_DAY = (
    "Ben spends {a} hours of his day sleeping and {b} hours of his day working. How many "
    "hours is that?"
)
NIGHTLY = (
    "Ben sleeps {a} hours nightly and reads {b} hours nightly. How many hours of the night is that?"
)
SYMBOL = "Ben sleeps {a} h and works {b} h a day. How many h is that?"
FEBRUARY = "In February, Ana works {a} days and travels {b} other days. How many days is that?"

ATTACKS: dict[str, Case] = {
    "a week named without an article before it": _sum_past(SINGLE_WEEK, (3, 2), (5, 4)),
    "a day named after 'any given'": _sum_past(GIVEN_DAY, (8, 9), (12, 15)),
    "a day named after a possessive": _sum_past(HIS_DAY, (8, 9), (12, 15)),
    "a night, a part of a day": _sum_past(NIGHTLY, (6, 2), (18, 9)),
    "days of a month named by its name": _sum_past(FEBRUARY, (15, 10), (20, 12)),
    "hours written with their symbol": _sum_past(SYMBOL, (8, 9), (12, 15)),
    "a sister renamed into a grandmother": (
        YOUNGER,
        YOUNGER_ANSWER,
        YOUNGER.replace("sister", "grandmother"),
        "A grandmother cannot be younger than her grandson.\n#### none",
    ),
    "a sister renamed into a daughter": (
        YOUNGER,
        YOUNGER_ANSWER,
        YOUNGER.replace("sister", "daughter"),
        "A boy of 8 has no daughter of 3.\n#### none",
    ),
    "a father renamed into a son": (
        OLDER,
        OLDER_ANSWER,
        OLDER.replace("father", "son"),
        "A son cannot be 30 years older than his father.\n#### none",
    ),
    "a sister renamed into a stepmother": (
        YOUNGER,
        YOUNGER_ANSWER,
        YOUNGER.replace("sister", "stepmother"),
        "A stepmother of 3 cannot be: the numbers do not fit.\n#### none",
    ),
    "a sister renamed into a teacher": (
        YOUNGER,
        YOUNGER_ANSWER,
        YOUNGER.replace("sister", "teacher"),
        "A teacher of 3 cannot be: the numbers do not fit.\n#### none",
    ),
    "an age past a human life, computed": (
        OLDER,
        OLDER_ANSWER,
        OLDER.replace("8 years", "98 years"),
        "No one is 128 years old: the numbers do not fit.\n#### none",
    ),
    "an age past a human life, stated": (
        OLDER,
        OLDER_ANSWER,
        OLDER.replace("8 years", "130 years"),
        "No one is 130 years old: the numbers do not fit.\n#### none",
    ),
    "German: hours past the day": (
        DE_DAY,
        SUM_17,
        DE_DAY.replace("8 Stunden", "12 Stunden").replace("9 Stunden", "15 Stunden"),
        IMPOSSIBLE,
    ),
    "Portuguese: hours past the day": (
        PT_DAY,
        SUM_17,
        PT_DAY.replace("8 horas", "12 horas").replace("9 horas", "15 horas"),
        IMPOSSIBLE,
    ),
    "German: minutes past the hour": (
        DE_HOUR,
        SUM_45,
        DE_HOUR.replace("20 Minuten", "40 Minuten").replace("25 Minuten", "35 Minuten"),
        IMPOSSIBLE,
    ),
    "Portuguese: minutes past the hour": (
        PT_HOUR,
        SUM_45,
        PT_HOUR.replace("20 minutos", "40 minutos").replace("25 minutos", "35 minutos"),
        IMPOSSIBLE,
    ),
    "Portuguese: days past the week": (
        PT_WEEK,
        SUM_5,
        PT_WEEK.replace("3 dias", "5 dias").replace("2 dias", "4 dias"),
        IMPOSSIBLE,
    ),
}

# The same stories with renames and values that stay valid: still re-instantiated.
CONTROLS: dict[str, Case] = {
    "a week named without an article, within it": _sum_within(SINGLE_WEEK, (3, 2), (4, 2)),
    "a day after 'any given', within it": _sum_within(GIVEN_DAY, (8, 9), (7, 9)),
    "a day after a possessive, within it": _sum_within(HIS_DAY, (8, 9), (7, 9)),
    "a night, within the day": _sum_within(NIGHTLY, (6, 2), (7, 2)),
    "days of a named month, within it": _sum_within(FEBRUARY, (15, 10), (14, 10)),
    "hours written with their symbol, within the day": _sum_within(SYMBOL, (8, 9), (7, 9)),
    "a sister renamed into a brother": (
        YOUNGER,
        YOUNGER_ANSWER,
        YOUNGER.replace("sister", "brother"),
        YOUNGER_ANSWER.replace("sister", "brother"),
    ),
    "a sister renamed into a cousin": (
        YOUNGER,
        YOUNGER_ANSWER,
        YOUNGER.replace("sister", "cousin"),
        YOUNGER_ANSWER.replace("sister", "cousin"),
    ),
    "a father renamed into a mother": (
        OLDER,
        OLDER_ANSWER,
        OLDER.replace("father", "mother"),
        OLDER_ANSWER.replace("father", "mother"),
    ),
    "a father renamed into a dad": (
        OLDER,
        OLDER_ANSWER,
        OLDER.replace("father", "dad"),
        OLDER_ANSWER.replace("father", "dad"),
    ),
    "an age within a human life": (
        OLDER,
        OLDER_ANSWER,
        OLDER.replace("8 years", "48 years"),
        "His father is 48 + 30 = <<48+30=78>>78 years old.\n#### 78",
    ),
    "an older father": (
        OLDER,
        OLDER_ANSWER,
        OLDER.replace("30", "28"),
        "His father is 8 + 28 = <<8+28=36>>36 years old.\n#### 36",
    ),
    "German: hours within the day": (
        DE_DAY,
        SUM_17,
        DE_DAY.replace("8 Stunden", "7 Stunden"),
        "7 + 9 = <<7+9=16>>16\n#### 16",
    ),
    "Portuguese: hours within the day": (
        PT_DAY,
        SUM_17,
        PT_DAY.replace("8 horas", "7 horas"),
        "7 + 9 = <<7+9=16>>16\n#### 16",
    ),
    "German: minutes within the hour": (
        DE_HOUR,
        SUM_45,
        DE_HOUR.replace("20 Minuten", "30 Minuten"),
        "30 + 25 = <<30+25=55>>55\n#### 55",
    ),
    "Portuguese: minutes within the hour": (
        PT_HOUR,
        SUM_45,
        PT_HOUR.replace("20 minutos", "30 minutos"),
        "30 + 25 = <<30+25=55>>55\n#### 55",
    ),
    "Portuguese: days within the week": (
        PT_WEEK,
        SUM_5,
        PT_WEEK.replace("3 dias", "4 dias"),
        "4 + 2 = <<4+2=6>>6\n#### 6",
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
