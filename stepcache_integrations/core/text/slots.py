"""What kind of value a slot of a request holds, read from the value's own text.

A cached answer that copied a value from its request ("weather in Paris" -> ``city="Paris"``)
may take the new request's value in its place only when the new value is of the kind the
answer relied on: a name stays a name (a description such as "the capital of Germany" is not a
city, nor is a country), a plain number stays a plain number in the same notation (an integer
is not "2.5", nor "3 + 4", nor "5!"), an e-mail address stays an address, a date keeps its
layout. :func:`value_kind` names the kind; :func:`same_kind` compares two values.

Countries are told apart with ISO 3166 (``pycountry``): a country's name in any of the
languages ISO 3166 is translated into is a ``"country"``, never a plain ``"name"`` (regions are
not: Paris, Berlin and Madrid are regions of ISO 3166-2 as well as cities).

Example:
    >>> value_kind("Paris"), value_kind("the capital of Germany"), value_kind("Deutschland")
    ('name', 'text', 'country')
    >>> value_kind("42"), value_kind("2.5"), value_kind("3 + 4"), value_kind("5!")
    ('integer', 'decimal', 'expression', 'expression')
    >>> same_kind("Paris", "Rio de Janeiro"), same_kind("3", "12"), same_kind("3", "a dozen")
    (True, True, False)
"""

from __future__ import annotations

import functools
import gettext
import re
from importlib import resources

__all__ = ["same_kind", "value_kind"]

_LEXICONS = "stepcache_integrations.core.text.lexicons"
_INTEGER = re.compile(r"[-+\u2212]?\d+")
_DECIMAL = re.compile(r"[-+\u2212]?\d+[.,]\d+")
_EMAIL = re.compile(r"[^\s@]+@[^\s@]+\.[^\s@]+")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
# An operator between or after numbers, or a factorial mark: a calculation, not a number.
_EXPRESSION = re.compile(r"\d\s*(?:[-+*/^\u00d7\u00f7\u2212=%]|!)|[-+*/^\u00d7\u00f7]\s*\d")
_DIGIT_LAYOUT = re.compile(r"\d+")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")


def value_kind(text: str) -> str:
    """The kind of ``text`` as a slot's value: ``"integer"``, ``"decimal"``,
    ``"expression"``, ``"email"``, ``"url"``, ``"date:<layout>"`` (digits and separators,
    "9999-99-99"), ``"code"`` (letters and digits in capitals, "EUR", "LH1234"), ``"country"``,
    ``"name"`` (capitalised words, with the particles of names between them) or
    ``"text"`` (anything else: a description, a phrase, a number in words)."""
    value = " ".join(text.split())
    if not value:
        return "text"
    if _INTEGER.fullmatch(value):
        return "integer"
    if _DECIMAL.fullmatch(value):
        return "decimal"
    if _EMAIL.fullmatch(value):
        return "email"
    if _URL.fullmatch(value):
        return "url"
    if re.fullmatch(r"\d+(?:[./-]\d+)+", value):
        return "date:" + _DIGIT_LAYOUT.sub(lambda m: "9" * len(m.group(0)), value)
    if _EXPRESSION.search(value):
        return "expression"
    if re.fullmatch(r"[A-Z0-9]+(?:[-_][A-Z0-9]+)*", value) and any(c.isalpha() for c in value):
        return "code"
    if value.casefold() in _countries():
        return "country"
    if _is_name(value):
        return "name"
    return "text"


def same_kind(old: str, new: str) -> bool:
    """Whether ``new`` may stand where ``old`` stood: both of one :func:`value_kind`."""
    return value_kind(old) == value_kind(new)


def _is_name(value: str) -> bool:
    """Capitalised words, with name particles only between two of them."""
    words = value.split(" ")
    if not words[0][:1].isupper() or not words[-1][:1].isupper():
        return False
    particles = _particles()
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
def _particles() -> frozenset[str]:
    text = resources.files(_LEXICONS).joinpath("name_particles.txt").read_text("utf-8")
    return frozenset(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


@functools.cache
def _countries() -> frozenset[str]:
    """Every country name ISO 3166 knows, in every language it is translated into, folded."""
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
    return frozenset(folded)


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
