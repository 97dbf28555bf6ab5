"""The user page on "the same request" says what the code does."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from stepcache_integrations.core.text import NEUTRAL_WORDS, compare
from stepcache_integrations.core.text.lexicon import CAPITONYMS, PROPER_ONLY

PAGE = Path(__file__).parents[2] / "docs" / "same_request.md"


def test_the_examples_on_the_page_hold() -> None:
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, re.S)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner()
    for block in blocks:
        runner.run(parser.get_doctest(block, {}, PAGE.name, str(PAGE), 0))
    outcome = runner.summarize(verbose=False)
    assert outcome.attempted >= 10
    assert outcome.failed == 0


def test_the_counts_on_the_page_are_current() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert f"({len(NEUTRAL_WORDS)} words)" in text
    assert f"about {round(len(CAPITONYMS), -2)} such" in text
    assert f"about {round(len(PROPER_ONLY), -2)} words" in text


def test_every_example_pair_in_the_tables_holds() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for a, b in re.findall(r"`([^`|]+)` = `([^`|]+)`", text):
        assert compare(a, b).same, (a, b)
    for a, b in re.findall(r"`([^`|]+)` ≠ `([^`|]+)`", text):
        assert not compare(a, b).same, (a, b)
