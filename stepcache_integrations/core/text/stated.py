"""Where a text states a value: a number, a piece of text or a yes/no, in any language.

A JSON answer's value is *stated* by a request when the request writes that very value:
the same number ("31"; "24,99" is 24.99, a decimal comma), the same text ("Lisbon", "Ana
Silva"), or a yes/no word of its language for a boolean ("ja", "sim", "yes"). No phrasing is
read: only where the value is written and what it is (:func:`statements`). A number that is
an operand ("3x + 5 = 20", "10 - 5"), part of a date, time or range ("2024-03-15", "10:30",
"3-5"), or written ambiguously ("1,200": a thousand and two hundred, or 1.2) states nothing.

:func:`read_like` reads a new piece of text as a value of the kind an old one was: a plain
integer for an integer, a number for a number, a yes/no of the same language for a boolean,
and text of the same kind for text (see :func:`~stepcache_integrations.core.text.slots.same_kind`:
a city stays a city, "Lisbon" may become "Madrid", never "the capital of Germany"; a name a
name; a code keeps its shape), in the same shape (one lower-case word stays one word).

The lexicons (yes/no words, the words that only present an object) are data files in
``lexicons/``; what a value's kind is (a city, a country, a code, a date that exists) comes
from :mod:`~stepcache_integrations.core.text.slots`.

Example:
    >>> text = "Gere um JSON com nome Ana, idade 31, preço 24,99 e ativo: sim."
    >>> [text[s:e] for s, e in statements(text, 24.99)], statements(text, 31) == ((33, 35),)
    (['24,99'], True)
    >>> [text[s:e] for s, e in statements(text, True)]
    ['sim']
    >>> read_like("25,49", 24.99, "24,99"), read_like("32", 31), read_like("32.5", 31)
    (25.49, 32, None)
    >>> read_like("Madrid", "Lisbon"), read_like("the capital of Germany", "Lisbon")
    ('Madrid', None)
"""

from __future__ import annotations

import functools
import json
import re
from decimal import Decimal, InvalidOperation
from importlib import resources

from stepcache_integrations.core.text.polarity import is_polarity
from stepcache_integrations.core.text.slots import same_kind
from stepcache_integrations.core.text.stated_dates import date_statements, iso_date, read_date_like

__all__ = [
    "Scalar",
    "Span",
    "beside_alternatives",
    "is_operand",
    "is_presentation_word",
    "number_statements",
    "read_like",
    "statements",
    "yes_no",
]

Span = tuple[int, int]
Scalar = str | int | float | bool

# The longest text value treated as a slot; longer text is prose, not a stated value.
_MAX_TEXT = 200


# --------------------------------------------------------------------------- lexicons


@functools.cache
def _lexicon(name: str) -> dict[str, object]:
    raw = (
        resources.files("stepcache_integrations.core.text.lexicons")
        .joinpath(name)
        .read_text(encoding="utf-8")
    )
    data = json.loads(raw)
    if not isinstance(data, dict):  # pragma: no cover - the shipped files are objects
        raise ValueError(f"lexicon {name} must be a JSON object")
    return {key: value for key, value in data.items() if not key.startswith("_")}


@functools.cache
def _yes_no_words() -> dict[str, tuple[tuple[str, bool], ...]]:
    """Each yes/no word (lower case): the languages it belongs to, with its value."""
    found: dict[str, list[tuple[str, bool]]] = {}
    for language, entry in _lexicon("yes_no.json").items():
        if not isinstance(entry, dict):  # pragma: no cover - the shipped file is well formed
            continue
        for side, value in (("yes", True), ("no", False)):
            for word in entry.get(side, ()):
                found.setdefault(str(word).lower(), []).append((language, value))
    return {word: tuple(pairs) for word, pairs in found.items()}


def yes_no(word: str) -> tuple[tuple[str, bool], ...]:
    """The ``(language, value)`` readings of ``word`` as a yes/no (empty when it is none).

    Example:
        >>> yes_no("Sim"), yes_no("nein"), yes_no("maybe")
        ((('pt', True),), (('de', False),), ())
    """
    return _yes_no_words().get(word.lower(), ())


@functools.cache
def _presentation_words() -> frozenset[str]:
    words: set[str] = set()
    for entry in _lexicon("presentation.json").values():
        if isinstance(entry, list):
            words.update(str(word).lower() for word in entry)
    # A negation is never presentation, whatever a list says.
    return frozenset(word for word in words if not is_polarity(word))


@functools.cache
def _alternative_words() -> frozenset[str]:
    words: set[str] = set()
    for entry in _lexicon("alternatives.json").values():
        if isinstance(entry, list):
            words.update(str(word).lower() for word in entry)
    return frozenset(words)


# Marks that join alternatives ("true/false", "yes | no").
_ALTERNATIVE_MARKS = ("/", "|")


def beside_alternatives(text: str, span: Span) -> bool:
    """Whether ``text[span]`` is written beside an alternative to it: a slash or bar, or a
    word that joins options ("or", "oder", "ou"), right before or after it. Such a value is
    one of the options a request lists ("a field adult (yes/no)", "volljaehrig (true oder
    false)"), a description of a type, never a statement of the value.

    Example:
        >>> text = "a field adult (yes/no), age 31 or 32, city Lisbon"
        >>> [beside_alternatives(text, (s, s + len(w))) for w in ("no", "31", "Lisbon")
        ...  for s in [text.index(w)]]
        [True, True, False]
    """
    start, end = span
    before, after = text[:start].rstrip(" \t"), text[end:].lstrip(" \t")
    if before.endswith(_ALTERNATIVE_MARKS) or after.startswith(_ALTERNATIVE_MARKS):
        return True
    last = _WORD.findall(before[-20:])
    first = _WORD.match(after)
    words = _alternative_words()
    return bool(
        (last and before.endswith(last[-1]) and last[-1].lower() in words)
        or (first is not None and first.group().lower() in words)
    )


def is_presentation_word(word: str) -> bool:
    """Whether ``word`` only presents an answer ("here", "hier", "aqui", "JSON") and says
    nothing about its content.

    Example:
        >>> is_presentation_word("Aqui"), is_presentation_word("adult"), is_presentation_word("no")
        (True, False, False)
    """
    return word.lower() in _presentation_words()


# --------------------------------------------------------------------------- numbers

# A number as people write one: a sign glued to it, digits, and groups after points or
# commas (a decimal part, or thousands: "24,99", "48.200", "1,299.50", "1.250,00"). Whether
# it states a value is decided around it (see _plain_number) and by its readings.
_NUMBER = re.compile(r"(?<![\w.,])-?\d+(?:[.,]\d+)*(?![\w])")
_PLAIN_NUMBER = re.compile(r"-?(?P<int>\d+)(?:(?P<sep>[.,])(?P<frac>\d+))?")
# The two ways people group digits: a point for decimals and commas for thousands
# ("1,299.50"), or a comma for decimals and points for thousands ("1.250,00").
_CONVENTIONS = {"point": (".", ","), "comma": (",", ".")}
_GROUPED = {
    name: re.compile(
        rf"-?(?P<int>\d{{1,3}}(?:{re.escape(group)}\d{{3}})+)(?:{re.escape(point)}(?P<frac>\d+))?"
    )
    for name, (point, group) in _CONVENTIONS.items()
}
# Characters that make a number next to them an operand, not a stated value.
_OPERATORS = frozenset("+-*/^=<>\u00d7\u00f7")  # and the multiplication and division signs
# Characters that glue a number to another one: a date, a time, a range, a fraction.
_GLUE = frozenset("-/:")
# A name of two letters or more right before "=" ("age=31", "price = 2.5"), digits after it
# included ("co2=612", "pm25=14"): it is set to the number. A lone letter ("x = 5", "x2 = 5")
# is an equation's unknown, and a digit an expression's.
_KEY_BEFORE = re.compile(r"(?<![\w.])[^\W\d]\w*[^\W\d]\d*[ \t]*$")

#: A reading of a written number: its value, whether it is written as an integer, and the
#: convention it was read in ("plain": no thousands; "point" or "comma": the decimal mark).
Reading = tuple[Decimal, bool, str]


def _decimal(sign: str, whole: str, frac: str | None) -> Decimal | None:
    try:
        return Decimal(f"{sign}{whole}.{frac}" if frac is not None else f"{sign}{whole}")
    except InvalidOperation:  # pragma: no cover - the patterns only let digits through
        return None


def number_readings(text: str) -> tuple[Reading, ...]:
    """Every value ``text`` (one written number) may be: "31" is 31; "24,99" is 24.99;
    "48.200" is 48200 with points for thousands, never 48.2 (three decimals are written by
    no one who means 48.2); "1,299.50" is 1299.5; leading zeros are no number.

    Example:
        >>> [(str(v), i, c) for v, i, c in number_readings("48.200")]
        [('48200', True, 'comma')]
        >>> [(str(v), c) for v, _, c in number_readings("1.250,00") + number_readings("24,99")]
        [('1250.00', 'comma'), ('24.99', 'plain')]
    """
    sign = "-" if text.startswith("-") else ""
    found: list[Reading] = []
    plain = _PLAIN_NUMBER.fullmatch(text)
    if plain is not None:
        whole, frac = plain.group("int"), plain.group("frac")
        if not (len(whole) > 1 and whole.startswith("0")) and (frac is None or len(frac) != 3):
            value = _decimal(sign, whole, frac)
            if value is not None:
                found.append((value, frac is None, "plain"))
    for name, pattern in _GROUPED.items():
        grouped = pattern.fullmatch(text)
        if grouped is None or grouped.group("int").startswith("0"):
            continue
        group = _CONVENTIONS[name][1]
        value = _decimal(sign, grouped.group("int").replace(group, ""), grouped.group("frac"))
        if value is not None:
            found.append((value, grouped.group("frac") is None, name))
    return tuple(found)


def _value_of(text: str) -> tuple[Decimal, bool] | None:
    """The value of a plain number and whether it is written as an integer; ``None`` when it
    is no plain number or is written ambiguously (leading zeros; a group of three digits
    after a comma or point may be thousands)."""
    readings = [(value, whole) for value, whole, convention in number_readings(text)
                if convention == "plain"]  # fmt: skip
    return readings[0] if readings else None


def _plain_number(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` stands alone: no operand of an operator, not
    glued to another number (a date, a time, a range)."""
    if is_operand(text, start, end):
        return False
    glued_after = end + 1 < len(text) and text[end] in _GLUE and text[end + 1].isdigit()
    glued_before = start >= 2 and text[start - 1] in _GLUE and text[start - 2].isdigit()
    return not (glued_after or glued_before)


def is_operand(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` is an operand: an operator next to it
    ("3x + 5 = 20", "10 - 5", "4!"). A hyphen, slash or colon glued between two numbers
    ("2024-03-15", "10:30") joins them instead, and is no operator here.

    Example:
        >>> is_operand("3x + 5 = 20", 5, 6), is_operand("2024-03-15", 5, 7)
        (True, False)
        >>> is_operand("age=31", 4, 6), is_operand("x = 5", 4, 5), is_operand("2x = 8", 5, 6)
        (False, True, True)
        >>> is_operand("seat C-14", 7, 9), is_operand("3x-5 = 20", 3, 4)
        (False, True)
        >>> is_operand("co2=612", 4, 7), is_operand("x2 = 5", 5, 6)
        (False, True)
    """

    def glued(index: int) -> bool:
        if not (0 < index < len(text) - 1 and text[index] in _GLUE):
            return False
        # A code joins a capital letter to its number too ("C-14", "3F-07", "CAM-0042");
        # an equation's variable is a small letter ("3x-5 = 20" has an operator).
        left = text[index - 1]
        return (left.isdigit() or (text[index] == "-" and left.isupper())) and text[
            index + 1
        ].isdigit()

    if text[end : end + 1] == "!":
        return True
    before_at, after_at = start - 1, end
    while before_at >= 0 and text[before_at] in " \t":
        before_at -= 1
    while after_at < len(text) and text[after_at] in " \t":
        after_at += 1
    before = text[before_at] if before_at >= 0 else ""
    after = text[after_at] if after_at < len(text) else ""
    sign = before == "-" and before_at == start - 1
    if sign and (before_at == 0 or not text[before_at - 1].strip()):
        before = ""  # a sign glued to the number, not an operator
    if before == "=" and _KEY_BEFORE.search(text, 0, before_at):
        before = ""  # "age=31": a name set to a value, not an equation's side
    return (before in _OPERATORS and not glued(before_at)) or (
        after in _OPERATORS and not glued(after_at)
    )


def number_statements(text: str) -> tuple[tuple[Span, Decimal, bool], ...]:
    """Every plain number ``text`` states, once per reading (see :func:`number_readings`):
    its span, value, and whether it is an integer.

    Example:
        >>> [(v, i) for _, v, i in number_statements("Anna (31) pays 24,99 for 3x + 5 = 20")]
        [(Decimal('31'), True), (Decimal('24.99'), False)]
    """
    found: list[tuple[Span, Decimal, bool]] = []
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        previous = text[start - 1] if start else " "
        if text[start] == "-" and not (previous.isspace() or previous in "(:["):
            start += 1  # a hyphen glued to what comes before it is no sign
        if not _plain_number(text, start, end):
            continue
        found.extend(
            ((start, end), value, whole) for value, whole, _ in number_readings(text[start:end])
        )
    return tuple(found)


def _number_spans(text: str, value: int | float) -> tuple[Span, ...]:
    try:
        wanted = Decimal(repr(value))
    except InvalidOperation:  # pragma: no cover - repr of a finite number is a decimal
        return ()
    integer = isinstance(value, int)
    # An integer may be written with a decimal part of zeros ("1.250,00" for 1250).
    return tuple(
        dict.fromkeys(
            span
            for span, number, is_integer in number_statements(text)
            if number == wanted and (is_integer == integer or (integer and number % 1 == 0))
        )
    )


# --------------------------------------------------------------------------- text and yes/no

_WORD = re.compile(r"[^\W\d_]+")


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _text_spans(text: str, value: str) -> tuple[Span, ...]:
    """Where ``value`` is written in ``text`` as words of their own (not inside a longer
    word). A plain search: no pattern is compiled per value."""
    if not value.strip() or len(value) > _MAX_TEXT or "\n" in value:
        return ()
    bounded_start, bounded_end = _is_word_char(value[0]), _is_word_char(value[-1])
    spans: list[Span] = []
    start = text.find(value)
    while start >= 0:
        end = start + len(value)
        if not (bounded_start and start and _is_word_char(text[start - 1])) and not (
            bounded_end and end < len(text) and _is_word_char(text[end])
        ):
            spans.append((start, end))
        start = text.find(value, start + 1)
    return tuple(spans)


def _yes_no_spans(text: str, value: bool) -> tuple[Span, ...]:
    spans: list[Span] = []
    for match in _WORD.finditer(text):
        if not any(reading == value for _, reading in yes_no(match.group())):
            continue
        # A yes/no that states a value stands alone: punctuation or the end follows it, not
        # another word ("no more than 3" states nothing).
        following = text[match.end() :].lstrip(" \t")
        if following[:1].isalnum():
            continue
        spans.append(match.span())
    return tuple(spans)


def statements(text: str, value: object) -> tuple[Span, ...]:
    """Every place ``text`` states ``value`` (a JSON scalar), in the value's own kind.

    Example:
        >>> statements("name Anna, age 31", "Anna"), statements("age 31.5", 31)
        (((5, 9),), ())
    """
    spans: tuple[Span, ...] = ()
    if isinstance(value, bool):
        spans = _yes_no_spans(text, value)
    elif isinstance(value, int | float):
        spans = _number_spans(text, value)
    elif isinstance(value, str):
        spans = _text_spans(text, value)
        written = iso_date(value)
        if written is not None:
            # A date the answer writes in its own form ("2025-04-12" for "12 de abril").
            dates = (span for span, made, _ in date_statements(text) if made == written)
            spans = tuple(dict.fromkeys((*spans, *dates)))
    # A value listed beside its alternatives is a type's description, not a statement.
    return tuple(span for span in spans if not beside_alternatives(text, span))


# --------------------------------------------------------------------------- reading a new value


def _word_shapes(text: str) -> list[str] | None:
    """Each word's shape ("Aa" capitalised, "a" lower case, "A" capitals), or ``None`` when
    ``text`` is not made of words alone."""
    words = text.split()
    shapes: list[str] = []
    for word in words:
        letters = word.replace("-", "").replace("'", "").replace("\u2019", "").replace(".", "")
        if not letters or not letters.isalpha():
            return None
        if letters.isupper() and len(letters) > 1:
            shapes.append("A")
        elif letters[0].isupper():
            shapes.append("Aa")
        elif letters.islower():
            shapes.append("a")
        else:
            return None
    return shapes


def _skeleton(text: str) -> str:
    """Runs of capitals, of lower-case letters and of digits collapsed ("TP1234" -> "A9")."""
    out: list[str] = []
    for char in text:
        mark = "A" if char.isupper() else "a" if char.isalpha() else "9" if char.isdigit() else char
        if not out or out[-1] != mark or mark not in "Aa9":
            out.append(mark)
    return "".join(out)


def _same_name_kind(
    words: list[str], shapes: list[str], old_words: list[str], old_shapes: list[str]
) -> bool:
    """A name stays a name: capitalised words, with a lower-case particle only where the old
    name had that very particle ("Rio de Janeiro"), never at either end."""
    particles = {w for w, s in zip(old_words, old_shapes, strict=True) if s == "a"}
    if shapes[0] != "Aa" or shapes[-1] != "Aa":
        return False
    return all(
        s == "Aa" or (s == "a" and w in particles) for w, s in zip(words, shapes, strict=True)
    )


def _same_text_kind(new: str, old: str) -> bool:
    if not new.strip() or len(new) > _MAX_TEXT or any(c in new for c in '\n"`{}[]'):
        return False
    old_shapes, new_shapes = _word_shapes(old), _word_shapes(new)
    if old_shapes is None or new_shapes is None:
        return old_shapes is None and new_shapes is None and _skeleton(new) == _skeleton(old)
    if old_shapes[0] == "Aa":
        return _same_name_kind(new.split(), new_shapes, old.split(), old_shapes)
    if set(old_shapes) == {"A"}:
        return set(new_shapes) == {"A"} and len(new_shapes) == len(old_shapes)
    if set(old_shapes) == {"a"}:
        # One lower-case word stays one word; a phrase stays a phrase.
        return set(new_shapes) == {"a"} and (len(new_shapes) == 1) == (len(old_shapes) == 1)
    return new_shapes == old_shapes


def _number_like(new: str, old: int | float, old_text: str) -> tuple[Decimal, bool] | None:
    """``new`` read in the convention ``old_text`` was read in to give ``old`` ("48.200" for
    48200: points for thousands, so "51.300" is 51300); ``None`` when no single value."""
    wanted = Decimal(repr(old))
    conventions = {c for value, _, c in number_readings(old_text) if value == wanted}
    if not conventions:
        return None
    if "plain" in conventions:
        # Read without thousands, a new number may group them in the convention whose
        # decimal mark the old one used ("24,99" -> "1.024,99"), and in no other.
        mark = next((c for c in ".," if c in old_text), None)
        conventions |= {name for name, (point, _) in _CONVENTIONS.items() if point == mark}
    values = {(v, i) for v, i, c in number_readings(new) if c in conventions}
    return values.pop() if len(values) == 1 else None


def _plain_spelling(text: str) -> str:
    """A written number without its thousands marks, for :func:`same_kind` ("48.200" is an
    integer, as "48200" is)."""
    for name, pattern in _GROUPED.items():
        grouped = pattern.fullmatch(text)
        if grouped is not None:
            point, group = _CONVENTIONS[name]
            return text.replace(group, "").replace(point, ".")
    return text


def _yes_no_like(new: str, old_text: str) -> bool | None:
    """``new`` as a yes/no of the language of ``old_text`` (any language without it)."""
    languages = {language for language, _ in yes_no(old_text)} if old_text else None
    values = {value for lang, value in yes_no(new) if languages is None or lang in languages}
    return values.pop() if len(values) == 1 else None


def _read_number(new: str, old: int | float, old_text: str) -> int | float | None:
    """``new`` as a number of the kind of ``old`` (written ``old_text``): an integer stays
    an integer, a decimal a decimal, and the sign stays (a positive count never becomes
    zero); read in the convention ``old_text`` was read in."""
    read = _number_like(new, old, old_text)
    if read is None or not same_kind(_plain_spelling(old_text), _plain_spelling(new)):
        return None
    value, is_integer = read
    if isinstance(old, int):
        return int(value) if value % 1 == 0 else None
    return int(value) if is_integer else float(value)


def read_like(new: str, old: object, old_text: str = "") -> Scalar | None:
    """``new`` (text that replaced where a request stated ``old``) read as a value of the
    kind ``old`` is, or ``None`` when it is of another kind. ``old_text`` is how the request
    wrote ``old`` (for a boolean: the yes/no word, whose language ``new`` must share).

    Example:
        >>> read_like("nein", True, "ja"), read_like("no", True, "ja"), read_like("33", 31)
        (False, None, 33)
        >>> read_like("3 + 4", 7), read_like("EUR", "USD"), read_like("Madrid", "sales")
        (None, 'EUR', None)
    """
    new = new.strip()
    if isinstance(old, bool):
        return _yes_no_like(new, old_text)
    if isinstance(old, int | float):
        return _read_number(new, old, old_text or json.dumps(old))
    if isinstance(old, str):
        if iso_date(old) is not None:
            return read_date_like(new, old, old_text or old)
        return new if same_kind(old, new) and _same_text_kind(new, old) else None
    return None
