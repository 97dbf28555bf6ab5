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
from stepcache_integrations.core.text.quantities import Quantity, read_quantities

__all__ = [
    "MAX_REQUEST_CHARS",
    "gone_values",
    "is_word_problem",
    "pair_quantities",
    "quantity_parts",
    "request_quantities",
    "skeleton",
]

MAX_REQUEST_CHARS = 4000
_MIN_WORDS = 8
_QUESTION = re.compile(
    r"(?i)\bhow\s+(?:many|much|long|far|old|fast|often)\b"
    r"|\b(?:what|which)\s+(?:is|was|are|were|will|would)\b[^.?!]*\?"
    r"|\b(?:find|calculate|compute|determine|work\s+out|figure\s+out)\b"
)
# An equation ("3x + 5 = 20", "y = 2") or code: another task, not prose arithmetic. A format
# template such as "<calculation> = <result>" is prose.
_NOT_PROSE = re.compile(r"[\w)]\s*=\s*[-\w(]|```|\bdef\s|\bfunction\b|[{}]|\d[a-zA-Z]\b")
_WORD = re.compile(r"[^\W\d_]{2,}")


def request_quantities(request: str) -> tuple[Quantity, ...]:
    """The quantities of a request, in order."""
    return tuple(read_quantities(request[:MAX_REQUEST_CHARS]))


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
    if _QUESTION.search(request) is None:
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
    (modulo whitespace), with the same number of quantities of the same kinds and units.

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
        if a.kind != b.kind:
            return f"'{a.text}' ({a.kind}) became '{b.text}' ({b.kind})"
        if a.unit != b.unit:
            return f"'{a.text}' counted {a.unit} and '{b.text}' counts {b.unit}"
    return old_q, new_q


def quantity_parts(quantity: Quantity) -> dict[str, Fraction]:
    """The values a quantity contributes to arithmetic: the whole, and for a fraction its
    numerator and denominator ("three quarters": 3/4, 3 and 4), for a percentage its number
    ("25%": 1/4 and 25).

    Example:
        >>> [f"{k}={v}" for k, v in quantity_parts(read_quantities("three quarters")[0]).items()]
        ['value=3/4', 'numerator=3', 'denominator=4']
    """
    parts = {"value": quantity.value}
    if quantity.kind == "percent":
        parts["percent"] = quantity.value * 100
    elif quantity.kind in ("fraction", "multiplier") and quantity.value.denominator != 1:
        parts["numerator"] = Fraction(quantity.value.numerator)
        parts["denominator"] = Fraction(quantity.value.denominator)
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
