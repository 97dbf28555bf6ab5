"""Word-problem requests: recognising them, and pairing the quantities of two of them.

A word problem is prose that states several quantities and asks a question about them ("A
baker makes 24 rolls... How many are left?"); an equation to solve or a request for JSON is
another family's. Two requests can share an answer's reasoning only when they differ in their
quantities alone: :func:`pair_quantities` pairs them one to one, in order, and refuses
anything else.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from stepcache_integrations.core.tasks.output_format import asks_for_json
from stepcache_integrations.core.tasks.word_problem.languages import (
    asks_in_another_language,
    foreign_quantities,
    language_of,
)
from stepcache_integrations.core.text.quantities import Quantity, read_quantities

__all__ = [
    "MAX_REQUEST_CHARS",
    "gone_values",
    "is_word_problem",
    "pair_quantities",
    "quantity_parts",
    "request_quantities",
    "same_value",
    "skeleton",
    "unpaired",
]

MAX_REQUEST_CHARS = 4000
_MIN_WORDS = 8
_QUESTION = re.compile(
    r"(?i)\bhow\s+(?:many|much|long|far|old|fast|often|tall|big|heavy|wide|deep|high|large)\b"
    r"|\b(?:what|which)\s+(?:[\w'\u2019]+\s+){0,5}?"
    r"(?:is|was|are|were|will|would|does|do|did|must|should|can|could|has|have|had)\b[^.?!]*\?"
    r"|\b(?:find|calculate|compute|determine|work\s+out|figure\s+out)\b"
)
# An equation ("3x + 5 = 20", "y = 2") or code: another task, not prose arithmetic. A format
# template such as "<calculation> = <result>" is prose.
_NOT_PROSE = re.compile(r"[\w)]\s*=\s*[-\w(]|```|\bdef\s|\bfunction\b|[{}]|\d[a-zA-Z]\b")
_WORD = re.compile(r"[^\W\d_]{2,}")


def request_quantities(request: str) -> tuple[Quantity, ...]:
    """The quantities of a request, in order: digits and English number words, and in a
    German or Portuguese request its own number words ("zwölf", "vinte e cinco")."""
    text = request[:MAX_REQUEST_CHARS]
    found = read_quantities(text)
    language = language_of(text)
    if language == "en":
        return tuple(found)
    spans = [(q.start, q.end) for q in found]
    words = [
        q
        for q in foreign_quantities(text, language)
        if not any(a < q.end and q.start < b for a, b in spans)
    ]
    return tuple(sorted([*found, *words], key=lambda q: q.start))


def is_word_problem(request: str, options: Mapping[str, Any]) -> bool:
    """Prose with at least two quantities and a question about them; not an equation, code
    or a JSON request.

    Example:
        >>> is_word_problem("Ana has 12 apples and eats three. How many are left?", {})
        True
        >>> is_word_problem("Solve 3x + 5 = 20 for x.", {})
        False
    """
    if not isinstance(request, str) or len(request) > MAX_REQUEST_CHARS:
        return False
    if options.get("json_schema") is not None or asks_for_json(request):
        return False
    if _NOT_PROSE.search(request) or len(_WORD.findall(request)) < _MIN_WORDS:
        return False
    if _QUESTION.search(request) is None and not asks_in_another_language(request):
        return False
    counted = [q for q in request_quantities(request) if q.kind != "ordinal"]
    return len(counted) >= 2


def skeleton(request: str, quantities: tuple[Quantity, ...]) -> list[str]:
    """The text between the quantities, whitespace collapsed: what must not change."""
    parts, cursor = [], 0
    for quantity in quantities:
        parts.append(" ".join(request[cursor : quantity.start].split()))
        cursor = quantity.end
    parts.append(" ".join(request[cursor:].split()))
    return parts


def pair_quantities(
    cached: str, new: str
) -> tuple[tuple[Quantity, ...], tuple[Quantity, ...]] | str:
    """The quantities of both requests, paired by position, or why they cannot be paired.

    Only the quantities may differ: the two texts must be identical outside the quantities
    (modulo whitespace), with the same number of quantities, each of the same dimension (the
    same unit, or amounts of the same currency: "$70", "70 dollars", "seventy dollars") and
    of the same kind, or the same value in another notation ("three quarters", "3/4", "0.75"
    and "75%" are one value in four notations, but "3 of them" is no fraction of them).

    Example:
        >>> old, new = pair_quantities("Bo has 3 cats and 2 dogs. How many pets?",
        ...                            "Bo has five cats and 2 dogs. How many pets?")
        >>> [(a.text, b.text) for a, b in zip(old, new)]
        [('3', 'five'), ('2', '2')]
        >>> pair_quantities("Bo has 3 cats. How many?", "Bo has 3 dogs. How many?")
        'the request changed outside its quantities'
    """
    old_q, new_q = request_quantities(cached), request_quantities(new)
    if len(old_q) != len(new_q):
        return f"the request has {len(new_q)} quantities where the cached one had {len(old_q)}"
    if skeleton(cached, old_q) != skeleton(new, new_q):
        return "the request changed outside its quantities"
    for a, b in zip(old_q, new_q, strict=True):
        problem = unpaired(a, b)
        if problem is not None:
            return problem
    return old_q, new_q


# Kinds that one value may be written in: "three quarters", "3/4", "0.75", "75%".
_NOTATIONS = frozenset({"number", "fraction", "percent"})


def unpaired(old: Quantity, new: Quantity) -> str | None:
    """Why ``new`` cannot stand where ``old`` stood (``None`` when it can): another kind
    than a notation of a value, or another dimension."""
    if _dimension(old) != _dimension(new):
        return f"'{old.text}' counted {old.unit} and '{new.text}' counts {new.unit}"
    if old.kind != new.kind and not (
        {old.kind, new.kind} <= _NOTATIONS and _amount(old) == _amount(new)
    ):
        # Another kind is another role ("three quarters of them" / "3 of them"), unless it
        # is the same value in another notation ("three quarters" / "0.75").
        return f"'{old.text}' ({old.kind}) became '{new.text}' ({new.kind})"
    return None


def same_value(old: Quantity, new: Quantity) -> bool:
    """Whether two paired quantities are one value (in any notation: "$0.75" and "seventy-five
    cents", "three quarters" and "0.75")."""
    return unpaired(old, new) is None and _amount(old) == _amount(new)


def _dimension(quantity: Quantity) -> str | None:
    return _CURRENCY_OF.get(quantity.unit or "", quantity.unit)


# Units that are amounts of money, and the currency they count in.
_CURRENCY_OF = {"$": "$", "cents": "$", "€": "€", "£": "£", "¥": "¥"}
_PER_CURRENCY_UNIT = {"cents": Fraction(1, 100)}


def _amount(quantity: Quantity) -> Fraction:
    """The value in the dimension's own unit (cents are hundredths of a dollar)."""
    return quantity.value * _PER_CURRENCY_UNIT.get(quantity.unit or "", Fraction(1))


def quantity_parts(quantity: Quantity, like: Quantity | None = None) -> dict[str, Fraction]:
    """The values a quantity contributes to arithmetic: the whole; for a fraction its
    numerator and denominator ("three quarters": 3/4, 3 and 4), for a percentage its number
    ("25%": 1/4 and 25), for a count of dozens its count ("5 dozen": 60 and 5), for cents
    their amount in dollars ("75 cents": 75 and 0.75).

    With ``like`` (the cached request's quantity that ``quantity`` stands in place of), the
    parts are ``like``'s, taken on ``quantity``'s value: "0.6" in place of "three quarters"
    gives 3/5, 3 and 5; "$0.80" in place of "75 cents" gives 80 and 0.8.

    Example:
        >>> [f"{k}={v}" for k, v in quantity_parts(read_quantities("three quarters")[0]).items()]
        ['value=3/4', 'numerator=3', 'denominator=4']
    """
    shape = like if like is not None else quantity
    value = _amount(quantity) / _PER_CURRENCY_UNIT.get(shape.unit or "", Fraction(1))
    parts = {"value": value}
    if shape.kind == "percent":
        parts["percent"] = value * 100
    elif shape.kind in ("fraction", "multiplier") and shape.value.denominator != 1:
        parts["numerator"] = Fraction(value.numerator)
        parts["denominator"] = Fraction(value.denominator)
    if shape.scale != 1:
        parts["count"] = value / shape.scale
    if shape.unit == "cents":
        parts["dollars"] = value / 100
    return parts


def gone_values(cached: str | None, new: str) -> frozenset[Fraction]:
    """Values the cached request stated and the new one does not (empty without a cached
    request): a number equal to one of them is not trusted as a constant."""
    if cached is None:
        return frozenset()
    now = {v for q in request_quantities(new) for v in quantity_parts(q).values()}
    return frozenset(
        v for q in request_quantities(cached) for v in quantity_parts(q).values() if v not in now
    )
