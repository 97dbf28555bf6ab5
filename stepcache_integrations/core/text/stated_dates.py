"""Where a text states a date, in any of the ways people write one, in several languages.

A JSON answer often writes a date of its request in its own form: "April 12, 2025",
"12.04.2025", "5. Mai 2025" or "12 de abril de 2025" become ``"2025-04-12"``. The date is
still the request's: :func:`date_statements` finds every date a text writes with its span,
and :func:`read_date_like` reads a new date written where an old one stood, in the old
one's convention (day or month first), for the answer's form. No phrasing is read: dates
written with month names are read by ``dateparser`` (offline, in the languages listed in
:data:`LANGUAGES`), numeric ones by their layout.

Example:
    >>> text = "Gala on April 12, 2025; Termin am 5. Mai 2025; ida 03/04/2025."
    >>> for (s, e), d, r in date_statements(text):
    ...     print(text[s:e], d.isoformat(), r)
    April 12, 2025 2025-04-12 words
    5. Mai 2025 2025-05-05 words
    03/04/2025 2025-04-03 dmy
    03/04/2025 2025-03-04 mdy
    >>> read_date_like("May 3, 2025", "2025-04-12", "April 12, 2025")
    '2025-05-03'
    >>> read_date_like("19.04.2025", "2025-04-12", "12.04.2025")
    '2025-04-19'
    >>> read_date_like("Mai 3", "2025-04-12", "April 12, 2025") is None
    True
"""

from __future__ import annotations

import functools
import re
from datetime import date
from typing import TYPE_CHECKING

from babel.dates import get_month_names

from stepcache_integrations.core.text.memo import text_memo

if TYPE_CHECKING:
    from dateparser.date import DateDataParser

__all__ = [
    "ENGLISH_MONTHS",
    "LANGUAGES",
    "DateStatement",
    "date_statements",
    "iso_date",
    "read_date_like",
]

#: The languages month names are read in (dateparser's codes).
LANGUAGES = ("en", "de", "pt", "es", "fr", "it", "nl")

# The English month names, in order (CLDR, by babel): dateparser's keys of month names.
_MONTHS = tuple(str(name).lower() for name in get_month_names("wide", locale="en").values())
#: The English month names and their abbreviations as the US and Britain write them, lower
#: case, longest first (a regular expression's alternatives): "september", "sept", "sep".
ENGLISH_MONTHS: tuple[str, ...] = tuple(
    sorted(
        {
            str(name).lower().rstrip(".")
            for locale in ("en", "en_GB")  # "Sept" is British
            for width in ("wide", "abbreviated")
            for name in get_month_names(width, locale=locale).values()
        },
        key=lambda name: (-len(name), name),
    )
)

Span = tuple[int, int]
#: A date a text writes: its span, the date, and how it was read ("ymd", "dmy", "mdy" for
#: numeric dates; "words" for a date with a month name).
DateStatement = tuple[Span, date, str]

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
# Three numbers joined by one mark: 2025-04-12, 12.04.2025, 04/12/2025.
_NUMERIC = re.compile(r"(?<![\w.,/-])(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?![\w]|[./-]\d)")
# A year a date with a month name ends with.
_YEAR = re.compile(r"(?<![\w.,/-])(?:1[6-9]|20|21)\d\d(?![\w]|[./-]\d)")
# How far before its year a date with a month name may start ("Wednesday, 12 de abril de").
_WINDOW = 40
# Bounded work: a text with more years than this has its first ones read only.
_MAX_YEARS = 10


def iso_date(value: str) -> date | None:
    """``value`` as a date when it is one written as ISO 8601 does ("2025-04-12").

    Example:
        >>> iso_date("2025-04-12"), iso_date("2025-02-30"), iso_date("12.04.2025")
        (datetime.date(2025, 4, 12), None, None)
    """
    if _ISO.fullmatch(value) is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _made(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _numeric_readings(first: str, mark: str, middle: str, last: str) -> list[tuple[date, str]]:
    """The dates three joined numbers may be: year first (ISO), else day or month first (a
    point is always day first: "12.04.2025"). Two-digit years are read as no date."""
    a, b, c = int(first), int(middle), int(last)
    if len(first) == 4:
        made = _made(a, b, c)
        return [(made, "ymd")] if made is not None else []
    if len(last) != 4:
        return []
    readings = [(_made(c, b, a), "dmy")]
    if mark != ".":
        readings.append((_made(c, a, b), "mdy"))
    return [(made, how) for made, how in readings if made is not None]


@functools.cache
def _parser() -> DateDataParser:
    """dateparser's parser for :data:`LANGUAGES`, built once (importing it costs time)."""
    from dateparser.date import DateDataParser

    return DateDataParser(
        languages=list(LANGUAGES),
        settings={"STRICT_PARSING": True, "REQUIRE_PARTS": ["day", "month", "year"]},
    )


def _words_date(text: str) -> date | None:
    """``text`` read as one whole date with a month name, or ``None``."""
    if not any(char.isalpha() for char in text):
        return None
    try:
        found = _parser().get_date_data(text)
    except (ValueError, TypeError, OverflowError):  # dateparser's errors on odd input
        return None
    moment = getattr(found, "date_obj", None)
    return moment.date() if moment is not None else None


_TOKEN = re.compile(r"\d+|[^\W\d_]+")


@functools.cache
def _month_names() -> frozenset[str]:
    """The month names of :data:`LANGUAGES`, in lower case, from dateparser's own data."""
    from dateparser.languages.loader import default_loader

    names: set[str] = set()
    for language in LANGUAGES:
        info = default_loader.get_locale(language).info
        for month in _MONTHS:
            names.update(str(name).lower().rstrip(".") for name in info.get(month, ()))
    return frozenset(name for name in names if name)


def _starts(text: str, start: int, end: int) -> list[int]:
    """Where a date with a month name ending at ``end`` may start: at a number (its day) or
    at a month name, nearest first; none when no month name lies between (no parse is
    tried: most years of a text are no such date)."""
    tokens = list(_TOKEN.finditer(text, start, end))
    months = _month_names()
    if not any(token.group().lower() in months for token in tokens):
        return []
    return [
        token.start()
        for token in reversed(tokens)
        if token.group().isdigit() or token.group().lower() in months
    ]


def _words_dates(text: str, taken: list[Span]) -> list[DateStatement]:
    """The dates with a month name: for each year, the shortest text before it, on its
    line, that reads as a whole date."""
    found: list[DateStatement] = []
    for number, year in enumerate(_YEAR.finditer(text)):
        if number >= _MAX_YEARS:
            break
        end = year.end()
        if any(start <= year.start() < stop for start, stop in taken):
            continue
        line_start = text.rfind("\n", 0, year.start()) + 1
        window_start = max(line_start, year.start() - _WINDOW)
        for start in _starts(text, window_start, year.start()):
            made = _words_date(text[start:end])
            if made is not None:
                found.append(((start, end), made, "words"))
                break
    return found


@text_memo(max_chars=200_000)
def date_statements(text: str) -> tuple[DateStatement, ...]:
    """Every date ``text`` writes: numeric ones once per way they may be read (day or month
    first), and those with a month name in any language of :data:`LANGUAGES`."""
    found: list[DateStatement] = []
    for match in _NUMERIC.finditer(text):
        for made, how in _numeric_readings(*match.groups()):
            found.append((match.span(), made, how))
    found.extend(_words_dates(text, [span for span, _, _ in found]))
    return tuple(sorted(found, key=lambda item: item[0]))


def _read(text: str) -> list[tuple[date, str]]:
    """``text`` (all of it) read as a date, each way it may be read."""
    numeric = _NUMERIC.fullmatch(text.strip())
    if numeric is not None:
        return _numeric_readings(*numeric.groups())
    made = _words_date(text.strip()) if _YEAR.search(text) else None
    return [(made, "words")] if made is not None else []


def read_date_like(new: str, old: str, old_text: str) -> str | None:
    """``new`` (text written where a request wrote ``old_text``, a date the answer wrote as
    ``old``, ISO 8601) read as a date the way ``old_text`` was read, written as ``old`` is;
    ``None`` when it is no whole date, or may be two dates.

    Example:
        >>> read_date_like("05/03/2025", "2025-04-03", "03/04/2025")
        '2025-03-05'
        >>> read_date_like("next Friday", "2025-04-12", "April 12, 2025") is None
        True
    """
    wanted = iso_date(old)
    if wanted is None:
        return None
    ways = {how for made, how in _read(old_text) if made == wanted}
    if not ways:
        return None
    dates = {made for made, how in _read(new) if how in ways}
    return dates.pop().isoformat() if len(dates) == 1 else None
