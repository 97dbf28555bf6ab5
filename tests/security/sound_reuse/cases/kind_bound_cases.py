"""Word problems whose new values, or renamed things, leave the valid values of what a number
counts (issue 34): a renamed thing that cannot be split ("2.5 kittens"), a thing renamed into
a group ("3 cows and 2 herds: 5 animals") or out of the category the question counts, a share
past its whole ("120% correct", "60 of the 50 questions"), hours past the day, days past the
week, probabilities past 1; and stories in German and Portuguese that compare, decide or write
numbers the English way does not read, and in languages the family does not read.

Found by an outside attack with an oracle model (every answer right), served on every path;
the pairs are the security tests' (``tests/security/test_word_problem_kinds_are_never_stale.py``
and ``..._languages_are_never_stale.py``), so the corpus and the tests hold the same cases.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.security.sound_reuse.cases.common import STREAMED, case
from tests.security.test_word_problem_kinds_are_never_stale import ATTACKS as KIND_ATTACKS
from tests.security.test_word_problem_languages_are_never_stale import (
    ATTACKS as LANGUAGE_ATTACKS,
)

KINDS = "wp_kind_or_bound"
LANGUAGES = "wp_other_language"


def all_cases() -> Iterator[dict[str, Any]]:
    for cls, prefix, attacks in (
        (KINDS, "wp-kind", KIND_ATTACKS),
        (LANGUAGES, "wp-lang", LANGUAGE_ATTACKS),
    ):
        for n, name in enumerate(sorted(attacks), 1):
            cached, cached_answer, new, new_answer = attacks[name]
            yield case(
                f"{prefix}-{n:03d}",
                cls,
                cached,
                cached_answer,
                new,
                new_answer,
                paths=STREAMED,
                note=name,
            )
