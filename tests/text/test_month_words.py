"""English month words come from CLDR (babel) once, for every reader of dates."""

from __future__ import annotations

import calendar
import re

from stepcache_integrations.core.text.stated_dates import ENGLISH_MONTHS


def test_every_month_with_its_abbreviations() -> None:
    names = {calendar.month_name[n].lower() for n in range(1, 13)}
    abbreviations = {calendar.month_abbr[n].lower() for n in range(1, 13)}
    assert set(ENGLISH_MONTHS) == names | abbreviations | {"sept"}
    assert len(ENGLISH_MONTHS) == len(set(ENGLISH_MONTHS))


def test_a_longer_word_comes_before_its_prefix_so_a_pattern_takes_the_whole_word() -> None:
    position = {word: index for index, word in enumerate(ENGLISH_MONTHS)}
    for word in ENGLISH_MONTHS:
        for other in ENGLISH_MONTHS:
            if other != word and word.startswith(other):
                assert position[word] < position[other], (word, other)
    pattern = re.compile(rf"(?:{'|'.join(ENGLISH_MONTHS)})")
    found = pattern.match("september 5")
    assert found is not None
    assert found.group() == "september"
