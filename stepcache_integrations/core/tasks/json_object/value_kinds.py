"""Whether a new piece of a request may stand where a value the JSON answer copied stood.

A value the answer copied from the request, letter for letter ("12F", "Müller GmbH",
"bewölkt"), shows that the model writes what the request writes there. Text of the same kind
written in the same place is then copied the same way, and what must not be copied is text
that asks the model to work: a description to resolve ("the capital of Germany", "my home
town"), a calculation ("3 + 4", "5!"), a yes/no or a negation (a boolean's words, "not"),
another type (a number where text stood). :func:`read_stated` reads the new text as the
old value's kind:

- a number in words stays one in words of the request's language ("eight" -> "twelve", see
  :mod:`~stepcache_integrations.core.tasks.json_object.number_words`); a number in digits
  may lose its thousands marks ("1.150" -> "980": a number with no mark reads the same in
  every convention);
- text is read by :func:`~stepcache_integrations.core.text.stated.read_like` first (a city
  stays a city, a name a name, a code its shape); beyond it, text the answer copied may
  take text of the same shape word by word: in a value of several words, each word that
  changed is a proper word (a name, or a code of capitals and digits: a house number, a
  legal form) where a proper word stood ("221B Baker Street" -> "17 Baker Street", "Müller
  GmbH" -> "Schneider KG"); a value of one word keeps its class (a code of any shape stays a
  code: "12F" -> "7A", "TP1234" -> "LH400"; a name stays a name), and a lower-case word may
  become a name (a German noun: "bewölkt" -> "Regen"). The number of words stays. A city
  (GeoNames' own name), a country, currency, e-mail address, URL, number or date keeps its
  kind (``read_like`` alone), and nothing else becomes one ("DE" -> "Deutschland": the
  model may write the code the key asks for).

Example:
    >>> read_stated("17 Baker Street", "221B Baker Street", "221B Baker Street", "")
    '17 Baker Street'
    >>> read_stated("7A", "12F", "12F", ""), read_stated("Regen", "bewölkt", "bewölkt", "")
    ('7A', 'Regen')
    >>> read_stated("the capital", "Berlin HQ", "Berlin HQ", "") is None
    True
    >>> read_stated("980", 1150, "1.150", "Einwohner 1.150")
    980
"""

from __future__ import annotations

import json
import re

from stepcache_integrations.core.tasks.json_object.number_words import read_word_number
from stepcache_integrations.core.text.language import decimal_mark_language, decimal_symbol
from stepcache_integrations.core.text.polarity import is_polarity
from stepcache_integrations.core.text.slots import value_kind
from stepcache_integrations.core.text.stated import (
    Scalar,
    Span,
    beside_alternatives,
    number_readings,
    read_like,
    yes_no,
)

__all__ = ["read_stated", "recased_statements"]

_DIGITS = re.compile(r"-?\d+")
# The longest text read word by word; longer text is prose, not a copied value.
_MAX_TEXT = 200
# Kinds that keep their own rules (read_like): the relaxation below never applies to them.
_STRICT_KINDS = frozenset(
    {"city", "country", "currency", "email", "url", "date", "integer", "decimal"}
)


def read_stated(
    new: str, old: Scalar, old_text: str, request: str, backwards: bool = False
) -> Scalar | None:
    """``new`` (what replaced ``old_text``, where ``request`` stated ``old``) read as a value
    of ``old``'s kind; ``None`` when it is of another kind. ``backwards``: ``new`` is what
    ``old_text`` replaced (a change read back to the cached request), so a change of class
    admitted one way ("bewölkt" -> "Regen") is admitted read back too."""
    new = new.strip()
    counted = isinstance(old, int) and not isinstance(old, bool)
    if counted and read_word_number(old_text, request) == old:
        return read_word_number(new, request)
    if isinstance(old, int | float) and not isinstance(old, bool):
        if _DIGITS.fullmatch(new):
            # Digits without a mark read the same in every convention ("1.150" -> "980").
            return read_like(new, old, json.dumps(old))
        if _DIGITS.fullmatch(old_text):
            return _grouped(new, old, request)
    if isinstance(old, str) and old != old_text and _recase(old_text, old) == old:
        # The answer capitalised what the request wrote in small letters: the new text is
        # read as the old text was written, then capitalised the same way.
        read = read_stated(new, old_text, old_text, request, backwards)
        return _recase(read, old) if isinstance(read, str) else None
    value = read_like(new, old, old_text)
    if value is not None or not isinstance(old, str) or old != old_text:
        return value
    return new if _same_shape(new, old) or (backwards and _same_shape(old, new)) else None


# The shortest text whose capitalisation is read as the same value: "us" is not "US".
_MIN_RECASED = 4


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _titled(text: str) -> str:
    return " ".join(_capitalised(word) for word in text.split(" "))


def _recase(text: str, like: str) -> str | None:
    """``text`` capitalised as ``like`` is its own written form capitalised: its first
    letter ("Sourdough loaf") or every word's ("Sourdough Loaf"); ``None`` when ``like`` is
    no such form of small letters."""
    plain = like.lower()
    if like == _capitalised(plain):
        return _capitalised(text)
    if like == _titled(plain):
        return _titled(text)
    return None


def recased_statements(request: str, value: str) -> tuple[Span, ...]:
    """Where ``request`` writes ``value`` in small letters, when ``value`` is that text with
    its first letter or every word capitalised ("sourdough loaf" for "Sourdough loaf"); not
    for short text ("us" is not "US") nor beside its alternatives.

    Example:
        >>> text = "can you make a json for this one: sourdough loaf, price 6.50"
        >>> [text[s:e] for s, e in recased_statements(text, "Sourdough loaf")]
        ['sourdough loaf']
        >>> recased_statements("give us the json", "US"), recased_statements("a b", "A b")
        ((), ())
    """
    if len(value) < _MIN_RECASED or value == value.lower() or "\n" in value:
        return ()
    pattern = re.compile(rf"(?<![^\W_]){re.escape(value)}(?![^\W_])", re.IGNORECASE)
    spans = [
        match.span()
        for match in pattern.finditer(request)
        if match.group() == match.group().lower() and _recase(match.group(), value) == value
    ]
    return tuple(span for span in spans if not beside_alternatives(request, span))


def _grouped(new: str, old: int | float, request: str) -> Scalar | None:
    """``new`` with thousands marks where ``old`` had none ("980" -> "1.150"), read in the
    convention of the request's language (a German text groups with points); ``None`` when
    the language does not decide it."""
    language = decimal_mark_language(request)
    if language is None:
        return None
    convention = "comma" if decimal_symbol(language) == "," else "point"
    readings = {(v, whole) for v, whole, c in number_readings(new) if c == convention}
    if len(readings) != 1:
        return read_like(new, old, json.dumps(old))
    value, whole = readings.pop()
    if isinstance(old, int) and not whole:
        return None
    # As ``read_like`` reads it: the kind and the sign stay.
    return read_like(str(value), old, json.dumps(old))


_CODE_WORD = re.compile(r"[A-Z0-9][A-Z0-9\-/]*")


def _word_class(word: str) -> str:
    """``"code"`` (capitals and digits: "12F", "221B", "SW", "KG"), ``"name"`` (a capital,
    then small letters: "Müller", "GmbH", "Regen"), ``"lower"`` or ``"other"``."""
    if _CODE_WORD.fullmatch(word):
        return "code"
    if word[:1].isupper() and any(c.islower() for c in word):
        return "name"
    return "lower" if word[:1].islower() else "other"


def _same_shape(new: str, old: str) -> bool:
    if not new or len(new) > _MAX_TEXT or any(c in new for c in '\n"`{}[]'):
        return False
    old_kind, new_kind = value_kind(old).split(":")[0], value_kind(new).split(":")[0]
    if old_kind in _STRICT_KINDS or new_kind in _STRICT_KINDS or new_kind == "expression":
        return False  # a city, a country, a currency, a number ... keeps its own kind
    old_words, new_words = old.split(), new.split()
    if len(old_words) != len(new_words):
        return False
    for before, after in zip(old_words, new_words, strict=True):
        if before == after:
            continue
        if yes_no(after) or is_polarity(after):
            return False  # a yes/no or a negation: more than a name
        was, now = _word_class(before), _word_class(after)
        if len(old_words) == 1:
            # One word alone: a code stays a code ("12F" -> "7A", never "Deutschland" for
            # "DE"), a name a name; a lower-case word may become a name ("bewölkt" ->
            # "Regen": a German noun).
            if not (was == now != "other" and now != "lower") and (was, now) != ("lower", "name"):
                return False
        elif was not in ("code", "name") or now not in ("code", "name"):
            return False  # in a longer value, proper words where proper words stood
    return True
