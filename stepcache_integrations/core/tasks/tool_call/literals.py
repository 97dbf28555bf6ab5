"""The values inside tool-call arguments: where they come from and how they are rewritten.

A value is *found* in a request when the request spells it out verbatim: a string as written
(same case, on word boundaries), a number in the form JSON writes it. Booleans and ``null``
are never found: they are something the model decided, not something it copied.

Example:
    >>> found_in("Paris", "What's the weather in Paris?"), found_in("paris", "in Paris")
    (True, False)
    >>> found_in(3, "Book 3 seats"), found_in(3, "Book 13 seats"), found_in(True, "yes")
    (True, False, False)
    >>> rewrite({"city": "Paris", "days": 3}, {"Paris": "Berlin", "3": "5"})
    ({'city': 'Berlin', 'days': 5}, 2)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from stepcache_integrations.core.text.quantities import read_number

__all__ = ["changed_leaves", "found_in", "leaves", "occurrences", "rewrite", "unfound"]


def leaves(value: Any) -> Iterator[Any]:
    """Every scalar inside ``value`` (object keys are the tool's names, not values)."""
    if isinstance(value, Mapping):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def changed_leaves(old: Any, new: Any) -> Iterator[tuple[Any, Any]]:
    """The pairs of scalars at the same place of two values of one shape (a value and its
    :func:`rewrite`) that differ.

    Example:
        >>> list(changed_leaves({"city": "Paris", "days": [3]}, {"city": "Lyon", "days": [3]}))
        [('Paris', 'Lyon')]
    """
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key, item in old.items():
            yield from changed_leaves(item, new.get(key))
    elif isinstance(old, list | tuple) and isinstance(new, list | tuple):
        for before, after in zip(old, new, strict=False):
            yield from changed_leaves(before, after)
    elif old != new or type(old) is not type(new):
        yield old, new


def _pattern(literal: str) -> re.Pattern[str]:
    """``literal`` on word boundaries (a boundary only where the literal has a word edge).

    Not a number reader: a value is found only verbatim, as JSON writes it ("1200" is not in
    "1,200"), because only a verbatim copy is rewritten when the request's text changes."""
    head = r"(?<![\w.])" if literal[:1].isalnum() or literal[:1] == "_" else ""
    tail = r"(?![\w]|\.\d)" if literal[-1:].isalnum() or literal[-1:] == "_" else ""
    return re.compile(head + re.escape(literal) + tail)


def occurrences(literal: str, text: str) -> int:
    """How often ``literal`` occurs in ``text`` on word boundaries.

    Example:
        >>> occurrences("Paris", "Paris or Parisian, Paris."), occurrences("", "x")
        (2, 0)
    """
    if not literal:
        return 0
    return len(_pattern(literal).findall(text))


def _number_text(value: int | float) -> str:
    return json.dumps(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def found_in(value: Any, text: str) -> bool:
    """Whether a scalar argument value is spelled out in ``text``."""
    if isinstance(value, str):
        return occurrences(value, text) > 0
    if _is_number(value):
        return occurrences(_number_text(value), text) > 0
    return False


def unfound(arguments: Any, text: str) -> list[Any]:
    """The scalar values of ``arguments`` that ``text`` does not spell out."""
    return [value for value in leaves(arguments) if not found_in(value, text)]


def _new_number(text: str) -> int | float | None:
    """The JSON number a replacement text gives a number argument: a number alone written in
    plain digits ("5", "-3.5"), as the number reader reads it; ``None`` for any other text
    ("1,200", "$5", "5 million", "five": another notation than the one JSON writes)."""
    found = read_number(text)
    if found is None or found.form != "digits" or found.grouped or found.scale != 1:
        return None
    if found.unit is not None:
        return None
    return int(found.value) if found.decimals == 0 else float(found.value)


def rewrite(value: Any, replacements: Mapping[str, str]) -> tuple[Any, int]:
    """``value`` with every verbatim copy of an old literal replaced by its new text, and
    how many values changed.

    Strings are rewritten wherever an old literal occurs on word boundaries (all at once, so
    one replacement never feeds another); a number is rewritten when it is written exactly
    as an old literal and the new text is a number.
    """
    if not replacements:
        return value, 0
    ordered = sorted(replacements, key=len, reverse=True)
    pattern = re.compile("|".join(_pattern(old).pattern for old in ordered))
    return _rewrite(value, replacements, pattern)


def _rewrite(
    value: Any, replacements: Mapping[str, str], pattern: re.Pattern[str]
) -> tuple[Any, int]:
    if isinstance(value, Mapping):
        changed = 0
        result: dict[str, Any] = {}
        for key, item in value.items():
            result[key], count = _rewrite(item, replacements, pattern)
            changed += count
        return result, changed
    if isinstance(value, list | tuple):
        items = []
        changed = 0
        for item in value:
            new, count = _rewrite(item, replacements, pattern)
            items.append(new)
            changed += count
        return items, changed
    if isinstance(value, str):
        new_text = pattern.sub(lambda match: replacements[match.group(0)], value)
        return new_text, int(new_text != value)
    if _is_number(value):
        replacement = replacements.get(_number_text(value))
        number = _new_number(replacement) if replacement is not None else None
        if number is not None:
            return number, 1
    return value, 0
