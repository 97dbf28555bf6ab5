"""The lines a cached answer writes after its value (a check the request asked for, a claim
about the value), carried over to the solver's continuation of a patch.

The solver's continuation writes the steps from the verified prefix to the value; it ends
there. What the cached answer wrote after its value was the model's answer to part of the
request too ("Please check your answer.": "Check: 3(5) + 5 = 20 ✓"), so it is never dropped:
it is re-instantiated for the new equation line by line (every number traced, every word
vouched for by :func:`~.rewrite.reinstantiate_steps`),
or the continuation is not written and the model writes the rest.
"""

from __future__ import annotations

import re
from fractions import Fraction

from stepcache_integrations.core.tasks.linear_equation.equation import LinearEquation
from stepcache_integrations.core.tasks.linear_equation.evidence import final_statement
from stepcache_integrations.core.tasks.linear_equation.numerals import reading
from stepcache_integrations.core.tasks.linear_equation.rewrite import reinstantiate_steps

__all__ = ["ends_at_value", "lines_after_value"]

# A letter or a digit after the value on its own line: the line says more than the value.
_SAYS_MORE = re.compile(r"[^\W_]")


def lines_after_value(
    answer: str,
    answered: LinearEquation,
    target: LinearEquation,
    kept: frozenset[Fraction],
    prefix_lines: int,
) -> list[str] | None:
    """The lines of ``answer`` (to ``answered``) after the line that states its value,
    re-instantiated for ``target`` (``[]`` when the value closes the answer); ``None`` when one
    of them cannot be, when the value's line says more after the value, or when the verified
    prefix (``prefix_lines`` lines of the answer) already reaches the value's line (a
    continuation would state the value again and drop what failed after it).

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import (
        ...     parse_equation)
        >>> old, new = parse_equation("3x + 5 = 20"), parse_equation("3x + 5 = 23")
        >>> lines_after_value("3x = 15\\nx = 5\\nCheck: 3(5) + 5 = 20 ✓", old, new,
        ...                   frozenset(), 1)
        ['Check: 3(6) + 5 = 23 ✓']
        >>> lines_after_value("3x = 15\\nx = 5\\nCheck: 3(5) + 5 = 20, and 5 is odd.",
        ...                   old, new, frozenset(), 1) is None
        True
    """
    found = _after_value(answer, answered)
    if found is None:
        return None
    value_line, tail = found
    if not tail:
        return []
    if prefix_lines > value_line:
        return None
    texts, valid = reinstantiate_steps(tail, answered, target, kept)
    return texts if valid == len(tail) else None


def ends_at_value(answer: str, answered: LinearEquation) -> bool:
    """Whether ``answer`` (to ``answered``) ends with the line that states its value: nothing
    after it that a solution written anew would have to say again.

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import (
        ...     parse_equation)
        >>> eq = parse_equation("3x + 5 = 20")
        >>> ends_at_value("3x = 15\\nx = 5.\\n", eq)
        True
        >>> ends_at_value("x = 5\\nCheck: 3(5) + 5 = 20", eq)
        False
    """
    found = _after_value(answer, answered)
    return found is not None and not found[1]


def _after_value(answer: str, answered: LinearEquation) -> tuple[int, list[str]] | None:
    """The index of the line of ``answer`` that states its value and the lines after it (no
    blank ones at the end); ``None`` when no line closes with the value."""
    read = reading(answer, answered.answer_language)
    final = final_statement(read, answered.variable, answered)
    if final is None:
        return None
    read_lines, lines = read.split("\n"), answer.split("\n")
    if len(read_lines) != len(lines):
        return None  # the reading moved a line: the answer's own lines cannot be told apart
    value_line = read.count("\n", 0, final.end)
    line_start = read.rfind("\n", 0, final.end) + 1
    if _SAYS_MORE.search(read_lines[value_line], final.end - line_start):
        return None
    tail = lines[value_line + 1 :]
    while tail and not tail[-1].strip():
        tail.pop()
    return value_line, tail
