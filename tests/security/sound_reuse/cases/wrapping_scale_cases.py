# ruff: noqa: E501  (each request and answer on one line, as the corpus writes it)
"""Word problems over a scale that wraps around, carries or is bounded: clock times, dates,
headings and turns, positions counted within a day or a year, quantities in two units that carry,
a substance heated past its change of state.

Found by the fourth outside attack (an oracle model: every answer right, so anything wrong is the
cache's) in two rounds: the word-problem family re-instantiated these as plain sums ("9 am + 5
hours = 14 am", "March 34", "April 31", "380 degrees", "1 year and 14 months") with "every cached
step verified". Each pair is a cached request and its correct answer, then the new request and
its correct answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.security.sound_reuse.cases.common import STREAMED, case

CLS = "wp_wrapping_scale"

# (what wraps, cached request, its answer, new request, its answer)
PAIRS: list[tuple[str, str, str, str, str]] = [
    (
        "clock past noon",
        "A meeting starts at 9 am and lasts 2 hours. What time does it end?",
        "9 am + 2 hours = 11 am.\n\nThe meeting ends at 11 am.",
        "A meeting starts at 9 am and lasts 5 hours. What time does it end?",
        "9 am + 5 hours = 2 pm.\n\nThe meeting ends at 2 pm.",
    ),
    (
        "noon is 12 pm",
        "A store opens at 8 am and stays open for 3 hours. What time does it close?",
        "8 am + 3 hours = 11 am\n\nThe store closes at 11 am.",
        "A store opens at 8 am and stays open for 4 hours. What time does it close?",
        "8 am + 4 hours = 12 pm (noon)\n\nThe store closes at 12 pm.",
    ),
    (
        "past midnight",
        "A party starts at 8 pm and lasts 3 hours. What time does it end?",
        "8 pm + 3 hours = 11 pm\n\nThe party ends at 11 pm.",
        "A party starts at 8 pm and lasts 6 hours. What time does it end?",
        "8 pm + 6 hours = 2 am the next day\n\nThe party ends at 2 am.",
    ),
    (
        "12-hour clock face",
        "A clock shows 7 o'clock. Ana waits 2 hours, then 3 more hours. What time does the clock show?",
        "7 + 2 + 3 = 12\n\nThe clock shows 12 o'clock.",
        "A clock shows 7 o'clock. Ana waits 4 hours, then 3 more hours. What time does the clock show?",
        "7 + 4 + 3 = 14, and 14 - 12 = 2\n\nThe clock shows 2 o'clock.",
    ),
    (
        "end of the month",
        "Ana's party is on March 20 and her trip starts 5 days later. What is the date of the trip?",
        "20 + 5 = 25\n\nThe trip starts on March 25.",
        "Ana's party is on March 29 and her trip starts 5 days later. What is the date of the trip?",
        "29 + 5 = 34, and March has 31 days.\n\nThe trip starts on April 3.",
    ),
    (
        "end of the year",
        "On December 20 Ana starts a 5 day holiday. On what date does it end?",
        "20 + 5 = 25\n\nIt ends on December 25.",
        "On December 20 Ana starts a 15 day holiday. On what date does it end?",
        "20 + 15 = 35, and December has 31 days, so 35 - 31 = 4\n\nIt ends on January 4.",
    ),
    (
        "a renamed month has fewer days",
        "A plant is watered on March 25 and again 6 days later. On what date is it watered again?",
        "25 + 6 = 31\n\nIt is watered again on March 31.",
        "A plant is watered on April 25 and again 6 days later. On what date is it watered again?",
        "25 + 6 = 31, and April has 30 days\n\nIt is watered again on May 1.",
    ),
    (
        "a renamed month: February",
        "Ana's party is on March 20 and her trip starts 10 days later. What is the date of the trip?",
        "20 + 10 = 30\n\nThe trip starts on March 30.",
        "Ana's party is on February 20 and her trip starts 10 days later. What is the date of the trip?",
        "20 + 10 = 30, but February has 28 days in a common year, so 30 - 28 = 2\n\nThe trip starts on March 2.",
    ),
    (
        "compass heading past 360",
        "A ship sails on a heading of 300 degrees and turns 40 degrees clockwise. What is its new heading?",
        "300 + 40 = 340\n\nThe new heading is 340 degrees.",
        "A ship sails on a heading of 300 degrees and turns 80 degrees clockwise. What is its new heading?",
        "300 + 80 = 380, and 380 - 360 = 20\n\nThe new heading is 20 degrees.",
    ),
    (
        "hh:mm past the hour",
        "A bus leaves at 10:40 and the ride takes 15 minutes. At what time does it arrive?",
        "10:40 + 15 minutes = 10:55\n\nThe bus arrives at 10:55.",
        "A bus leaves at 10:40 and the ride takes 35 minutes. At what time does it arrive?",
        "10:40 + 35 minutes = 11:15\n\nThe bus arrives at 11:15.",
    ),
    (
        "weekday past the week",
        "Today is Monday. Omar's parcel comes in 3 days. On which day does it come?",
        "Monday + 3 days = Thursday\n\nThe parcel comes on Thursday.",
        "Today is Monday. Omar's parcel comes in 9 days. On which day does it come?",
        "9 days = 1 week + 2 days, and Monday + 2 days = Wednesday\n\nThe parcel comes on Wednesday.",
    ),
    (
        "date past the month",
        "Lena's course starts on 28 June and lasts 2 days. It ends 2 days after it starts. On what day of June does it end?",
        "28 + 2 = 30\n\nIt ends on June 30.",
        "Lena's course starts on 28 June and lasts 4 days. It ends 4 days after it starts. On what day of June does it end?",
        "28 + 4 = 32, and June has 30 days, so it ends on July 2, not in June.\n\nIt ends on July 2.",
    ),
    (
        "a turn past 360",
        "A wheel is rotated 200 degrees and then 100 degrees more. How many degrees is it from where it started?",
        "200 + 100 = 300\n\nIt is 300 degrees from where it started.",
        "A wheel is rotated 200 degrees and then 250 degrees more. How many degrees is it from where it started?",
        "200 + 250 = 450, and 450 - 360 = 90\n\nIt is 90 degrees from where it started.",
    ),
    (
        "hour in the morning past noon",
        "A shop opens at 9 in the morning and stays open for 2 hours. At what hour does it close?",
        "9 + 2 = 11\n\nIt closes at 11 in the morning.",
        "A shop opens at 9 in the morning and stays open for 5 hours. At what hour does it close?",
        "9 + 5 = 14, which is 2 in the afternoon\n\nIt closes at 2 in the afternoon.",
    ),
    (
        "clock strikes (12h, no am/pm)",
        "The clock strikes 9. Ana sleeps for 2 hours. When she wakes, the clock strikes how many times?",
        "9 + 2 = 11\n\nThe clock strikes 11 times.",
        "The clock strikes 9. Ana sleeps for 5 hours. When she wakes, the clock strikes how many times?",
        "9 + 5 = 14, and 14 - 12 = 2\n\nThe clock strikes 2 times.",
    ),
    (
        "clock strikes (12h)",
        "A clock strikes 8 at the start of the party. The party lasts 3 hours. How many times does the clock strike when it ends?",
        "8 + 3 = 11\n\nThe clock strikes 11 times.",
        "A clock strikes 8 at the start of the party. The party lasts 6 hours. How many times does the clock strike when it ends?",
        "8 + 6 = 14, and 14 - 12 = 2\n\nThe clock strikes 2 times.",
    ),
    (
        "hour hand",
        "The hour hand of a clock points at 9. It moves forward 2 hours. At how many does it point now?",
        "9 + 2 = 11\n\nIt points at 11.",
        "The hour hand of a clock points at 9. It moves forward 5 hours. At how many does it point now?",
        "9 + 5 = 14, and 14 - 12 = 2\n\nIt points at 2.",
    ),
    (
        "'It is 10 now' (no am/pm)",
        "It is 10 now. Ana's bus comes in 2 hours. At how many will the clock show when it comes?",
        "10 + 2 = 12\n\nThe clock shows 12.",
        "It is 10 now. Ana's bus comes in 5 hours. At how many will the clock show when it comes?",
        "10 + 5 = 15, and 15 - 12 = 3\n\nThe clock shows 3.",
    ),
    (
        "quarter past",
        "Ana starts at quarter past 9 and works for 2 hours. At quarter past how many does she stop?",
        "9 + 2 = 11\n\nThe answer is 11.",
        "Ana starts at quarter past 9 and works for 5 hours. At quarter past how many does she stop?",
        "9 + 5 = 14, and 14 - 12 = 2\n\nThe answer is 2.",
    ),
    (
        "24h clock in hours",
        "The clock reads 14 hours. Omar works 6 hours more. The clock then reads how many hours?",
        "14 + 6 = 20\n\nThe clock reads 20 hours.",
        "The clock reads 20 hours. Omar works 6 hours more. The clock then reads how many hours?",
        "20 + 6 = 26, and 26 - 24 = 2\n\nThe clock reads 2 hours.",
    ),
    (
        "military time 1400 hours",
        "A clock shows 1400 hours. A flight lasts 300 more. How many hours does the clock show when it lands?",
        "1400 + 300 = 1700\n\nThe clock shows 1700 hours.",
        "A clock shows 2200 hours. A flight lasts 300 more. How many hours does the clock show when it lands?",
        "2200 + 300 = 2500, and 2500 - 2400 = 100\n\nThe clock shows 0100 hours.",
    ),
    (
        "military time 1430 hours",
        "A clock shows 1430 hours. A flight takes 300 more. How many hours does the clock show when it lands?",
        "1430 + 300 = 1730\n\nThe answer is 1730 hours.",
        "A clock shows 2230 hours. A flight takes 300 more. How many hours does the clock show when it lands?",
        "2230 + 300 = 2530, and 2530 - 2400 = 130\n\nThe answer is 0130 hours.",
    ),
    (
        "time zone",
        "It is 15 hours in London and Tokyo is 8 hours ahead. How many hours is it in Tokyo?",
        "15 + 8 = 23\n\nThe answer is 23.",
        "It is 20 hours in London and Tokyo is 8 hours ahead. How many hours is it in Tokyo?",
        "20 + 8 = 28, and 28 - 24 = 4\n\nThe answer is 4.",
    ),
    (
        "hour of the day (shift)",
        "A shift starts at hour 8 of the day and lasts 10 hours. At hour number how many does it end?",
        "8 + 10 = 18\n\nThe answer is 18.",
        "A shift starts at hour 8 of the day and lasts 20 hours. At hour number how many does it end?",
        "8 + 20 = 28, and 28 - 24 = 4\n\nThe answer is 4.",
    ),
    (
        "minutes after the hour",
        "The bus leaves 40 minutes after the hour and the ride takes 15 minutes. How many minutes after the hour does it arrive?",
        "40 + 15 = 55\n\nThe answer is 55.",
        "The bus leaves 40 minutes after the hour and the ride takes 35 minutes. How many minutes after the hour does it arrive?",
        "40 + 35 = 75, and 75 - 60 = 15\n\nThe answer is 15.",
    ),
    (
        "hours+minutes carry",
        "A film lasts 1 hour and 40 minutes and the trailer 10 minutes. How long is the showing, in hours and minutes?",
        "40 + 10 = 50\n\nThe showing is 1 hour and 50 minutes.",
        "A film lasts 1 hour and 40 minutes and the trailer 30 minutes. How long is the showing, in hours and minutes?",
        "40 + 30 = 70 minutes = 1 hour 10 minutes\n\nThe showing is 2 hours and 10 minutes.",
    ),
    (
        "years+months carry",
        "A baby is 1 year and 8 months old. How old is the baby 3 months later?",
        "8 + 3 = 11\n\nThe baby is 1 year and 11 months old.",
        "A baby is 1 year and 8 months old. How old is the baby 6 months later?",
        "8 + 6 = 14 months = 1 year 2 months\n\nThe baby is 2 years and 2 months old.",
    ),
    (
        "month number",
        "A baby is born in month 9 of the year. Her checkup is 2 months later. In month number how many of the year is the checkup?",
        "9 + 2 = 11\n\nThe answer is 11.",
        "A baby is born in month 9 of the year. Her checkup is 5 months later. In month number how many of the year is the checkup?",
        "9 + 5 = 14, and 14 - 12 = 2\n\nThe answer is 2.",
    ),
    (
        "day of the year",
        "It is day 360 of the year and Ana leaves in 3 days. On day number how many of the year does she leave?",
        "360 + 3 = 363\n\nThe answer is 363.",
        "It is day 360 of the year and Ana leaves in 10 days. On day number how many of the year does she leave?",
        "360 + 10 = 370, and 370 - 365 = 5\n\nThe answer is 5 (day 5 of the next year).",
    ),
    (
        "angle: faces/turns (no 'heading')",
        "A robot faces 300 degrees and turns 40 degrees more. How many degrees does it face now?",
        "300 + 40 = 340\n\nIt faces 340 degrees.",
        "A robot faces 300 degrees and turns 80 degrees more. How many degrees does it face now?",
        "300 + 80 = 380, and 380 - 360 = 20\n\nIt faces 20 degrees.",
    ),
    (
        "angle: turns right",
        "Ana faces 270 degrees and turns right by 60 degrees. How many degrees does she face now?",
        "270 + 60 = 330\n\nShe faces 330 degrees.",
        "Ana faces 270 degrees and turns right by 120 degrees. How many degrees does she face now?",
        "270 + 120 = 390, and 390 - 360 = 30\n\nShe faces 30 degrees.",
    ),
    (
        "angle: spins",
        "A spinner points at 300 degrees and spins 40 degrees further. How many degrees does it point at?",
        "300 + 40 = 340\n\nIt points at 340 degrees.",
        "A spinner points at 300 degrees and spins 80 degrees further. How many degrees does it point at?",
        "300 + 80 = 380, and 380 - 360 = 20\n\nIt points at 20 degrees.",
    ),
    (
        "angle: sweeps",
        "A lighthouse beam points at 300 degrees and sweeps 40 degrees further. How many degrees does it point at?",
        "300 + 40 = 340\n\nIt points at 340 degrees.",
        "A lighthouse beam points at 300 degrees and sweeps 100 degrees further. How many degrees does it point at?",
        "300 + 100 = 400, and 400 - 360 = 40\n\nIt points at 40 degrees.",
    ),
    (
        "bounded: boiling water",
        "Water is at 70 degrees Celsius and is heated by 20 degrees. How many degrees is it now, at sea level?",
        "70 + 20 = 90\n\nIt is 90 degrees.",
        "Water is at 90 degrees Celsius and is heated by 20 degrees. How many degrees is it now, at sea level?",
        "90 + 20 = 110, but water boils at 100 degrees at sea level\n\nIt is 100 degrees.",
    ),
]


def all_cases() -> Iterator[dict[str, Any]]:
    for n, (_, cached, cached_answer, new, new_answer) in enumerate(PAIRS, 1):
        yield case(f"wp-wrap-{n:03d}", CLS, cached, cached_answer, new, new_answer, paths=STREAMED)
