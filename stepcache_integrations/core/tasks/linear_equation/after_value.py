"""The lines a cached answer writes after its value (a check the request asked for, a claim
about the value), carried over to the solver's continuation of a patch.

The solver's continuation writes the steps from the verified prefix to the value; it ends
there. What the cached answer wrote after its value was the model's answer to part of the
request too ("Please check your answer.": "Check: 3(5) + 5 = 20 ✓"), so it is never dropped:
it is re-instantiated for the new equation line by line (every number traced, every word
vouched for by :func:`~.rewrite.reinstantiate_steps`); a check the rewriter cannot trace is
written anew for the new solution, a line that only says the value again says the new one;
anything else (a claim: "..., and 5 is odd.") and the continuation is not written: the model
writes the rest. The canonical fallback does the same with the model's own answer, or leaves
it flagged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    format_number,
    scan_equations,
)
from stepcache_integrations.core.tasks.linear_equation.evidence import final_statement
from stepcache_integrations.core.tasks.linear_equation.numerals import (
    point_form,
    reading,
    reading_language,
    written_back,
)
from stepcache_integrations.core.tasks.linear_equation.prose import unknown_words
from stepcache_integrations.core.tasks.linear_equation.rewrite import reinstantiate_steps
from stepcache_integrations.core.text.quantities import read_quantities

__all__ = [
    "AfterValue",
    "checked_anew",
    "checks_after_value",
    "lines_after_value",
    "restated_anew",
]

# A letter or a digit after the value on its own line: the line says more than the value.
_SAYS_MORE = re.compile(r"[^\W_]")


@dataclass(frozen=True)
class AfterValue:
    """What follows a continuation: ``lines``, the answer's lines after its value that the
    verified prefix does not show, written for the new equation; ``reached``: the prefix
    already shows the value's line (the solver has no steps to write before them)."""

    reached: bool
    lines: list[str]


def lines_after_value(
    answer: str,
    answered: LinearEquation,
    target: LinearEquation,
    kept: frozenset[Fraction],
    prefix_lines: int,
    value: str,
    states_value: bool = False,
) -> AfterValue | None:
    """The lines of ``answer`` (to ``answered``) after the line that states its value and
    after the verified prefix (its first ``prefix_lines`` lines), re-instantiated for
    ``target`` (none when the value closes the answer), a check the rewriter cannot trace
    written anew (:func:`checked_anew`), the value said again said as ``value`` (the new
    solution as the answer writes it); ``None`` when one of them cannot be, or when the
    value's line says more after the value. ``states_value``: the prefix states the value
    (else one that ends on the value's line ends before the value).

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import (
        ...     parse_equation)
        >>> old, new = parse_equation("3x + 5 = 20"), parse_equation("3x + 5 = 23")
        >>> lines_after_value("3x = 15\\nx = 5\\nCheck: 3(5) + 5 = 20 ✓", old, new,
        ...                   frozenset(), 1, "6")
        AfterValue(reached=False, lines=['Check: 3(6) + 5 = 23 ✓'])
        >>> lines_after_value("3x = 15\\nx = 5\\nCheck: 3(5) + 5 = 20, and 5 is odd.",
        ...                   old, new, frozenset(), 1, "6") is None
        True
    """
    found = _after_value(answer, answered)
    if found is None:
        return None
    value_line, tail, _ = found
    reached = prefix_lines > value_line
    if reached and not states_value:
        if prefix_lines > value_line + 1:
            return None  # past the value's line, yet it does not state the value: unclear
        reached = False  # a sentence of the value's line before the value
    if reached:
        tail = tail[prefix_lines - value_line - 1 :]
    if not tail:
        return AfterValue(reached, [])
    texts, valid = reinstantiate_steps(tail, answered, target, kept)
    if valid == len(tail):
        return AfterValue(reached, texts)
    # A line the rewriter cannot trace may still be a check of the value: written anew.
    anew = [_written_anew(line, target, answer, answered.solution, value) for line in tail[valid:]]
    if any(line is None for line in anew):
        return None
    return AfterValue(reached, [*texts[:valid], *(line for line in anew if line is not None)])


# What a line checking the value may start with (its label: "**Check:** ", "Probe: ") and
# end with (a tick): no number, so nothing to recompute.
_HEAD = re.compile(r"[^\d(\-\u2212+.,]*")
_TICK = re.compile(r"[\u2713\u2714\u2705\u2611]")


def checked_anew(line: str, target: LinearEquation, answer: str) -> str | None:
    """``line`` of an answer after its value (already shown to check the value, by
    :func:`~.evidence.final_statement`) written anew as the check of ``target``'s solution:
    its label, each side of the equation with the solution put in, worked out, and its tick;
    a line without a letter or a digit (blank, markup) stays as it is. ``None`` when the line
    says anything but that it checks (a word that is not true of every solution: "..., and 5
    is odd."), states a value of the variable, or has no arithmetic to check with.

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import (
        ...     parse_equation)
        >>> new = parse_equation("Solve 8 - 3x = -13")
        >>> checked_anew("Check: 8 - 3(2) = 8 - 6 = 2 ✓", new, "x = 2")
        'Check: 8 - 3(7) = -13 ✓'
        >>> checked_anew("Check: 3(5) + 5 = 20, and 5 is odd.", new, "x = 5") is None
        True
    """
    if not _SAYS_MORE.search(line):
        return line  # blank, or markup alone ("\\]"): nothing to recompute
    var = target.variable
    equations = scan_equations(reading(line, target.answer_language))[1]
    if not equations or any(eq.names for eq in equations) or unknown_words(line, var):
        return None
    head = _HEAD.match(line)
    label = head.group() if head else ""
    if any(ch.isdigit() for ch in label):
        return None
    tick = " \u2713" if _TICK.search(line) else ""
    check = _check_of(target)
    if check is None:
        return None
    form = point_form(answer, reading_language(answer, target.answer_language()))
    return f"{label}{written_back(check, form)}{tick}"


def _check_of(target: LinearEquation) -> str | None:
    """``target``'s equation with its solution put in for the variable, each side worked out
    ("8 - 3(7) = -13"; "8(-4) + 1 = -31, 5(-4) - 11 = -31"); ``None`` when the solution is not
    a whole number or a decimal (a fraction put in reads two ways)."""
    solution = target.solution
    shown = format_number(solution)
    if "/" in shown:
        return None
    var = target.variable
    sides = target.text.split("=")
    if len(sides) != 2:
        return None
    put = re.compile(rf"(?<![^\W\d_]){re.escape(var)}(?![^\W\d_])")
    worked: list[str] = []
    for side in sides:
        side = side.strip()
        scanned = scan_equations(f"{side} = 0")[1]
        if len(scanned) != 1 or scanned[0].names - {var}:
            return None
        term = scanned[0].left
        value = term.coefs.get(var, Fraction(0)) * solution + term.const
        if var in scanned[0].names:  # a side that is a constant alone is its own value
            worked.append(f"{put.sub(f'({shown})', side)} = {format_number(value)}")
    return ", ".join(worked) if worked else None


def checks_after_value(answer: str, target: LinearEquation, value: str) -> list[str] | None:
    """The lines of the model's ``answer`` to ``target`` after its value, each a check written
    anew for ``target``'s solution (:func:`checked_anew`) or the value said again as ``value``
    (``[]`` when the value closes the answer); ``None`` when one of them is neither (a
    solution written anew would drop it).

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import (
        ...     parse_equation)
        >>> eq = parse_equation("3x + 5 = 23")
        >>> checks_after_value("3x = 15\\nx = 5.\\n", eq, "6")
        []
        >>> checks_after_value("x = 5\\nCheck: 3(5) + 5 = 20 ✓\\nThe value of x is 5.", eq, "6")
        ['Check: 3(6) + 5 = 23 ✓', 'The value of x is 6.']
        >>> checks_after_value("x = 5\\nCheck: 3(5) + 5 = 20, and 5 is odd.", eq, "6") is None
        True
    """
    found = _after_value(answer, target)
    if found is None:
        return None
    anew = [_written_anew(line, target, answer, found[2], value) for line in found[1]]
    return None if any(line is None for line in anew) else [line for line in anew if line]


def _after_value(answer: str, answered: LinearEquation) -> tuple[int, list[str], Fraction] | None:
    """The index of the line of ``answer`` that states its value, the lines after it (no
    blank ones at the end) and the value; ``None`` when no line closes with the value."""
    read = reading(answer, answered.answer_language)
    final = final_statement(read, answered.variable, answered)
    if final is None:
        return None
    # The statement's offsets are in the scanner's text of the answer (markup read).
    read = scan_equations(read)[0]
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
    return value_line, tail, final.value


def _written_anew(
    line: str, target: LinearEquation, answer: str, old: Fraction, value: str
) -> str | None:
    """``line`` after the value written for ``target``: as a check, or as the value said
    again."""
    checked = checked_anew(line, target, answer)
    return checked if checked is not None else restated_anew(line, target, old, value)


def restated_anew(line: str, target: LinearEquation, old: Fraction, value: str) -> str | None:
    """``line``, which says the value ``old`` again ("So x = 4 is correct.", "O valor de x é
    4."), saying ``value`` instead; ``None`` when it says anything else: another number, an
    equation that is not the value's, a word not true of every solution.

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import (
        ...     parse_equation)
        >>> eq = parse_equation("Solve 3x + 5 = 23")
        >>> restated_anew("So **x = 5** is correct.", eq, Fraction(5), "6")
        'So **x = 6** is correct.'
        >>> restated_anew("So x = 5 is odd.", eq, Fraction(5), "6") is None
        True
    """
    var = target.variable
    if unknown_words(line, var):
        return None
    language = reading_language(line, target.answer_language)
    read = point_form(line, language)
    if not read.rewritable:
        return None
    for eq in scan_equations(read.text)[1]:
        if eq.names != {var} or {eq.left.const, eq.right.const} != {Fraction(0), old}:
            return None
    found = read_quantities(read.text)
    said = [q for q in found if q.kind in ("number", "fraction") and q.form == "digits"]
    if not said or len(said) != len(found) or any(q.value != old for q in said):
        return None
    out, cursor = [], 0
    for quantity in said:
        out += [read.text[cursor : quantity.start], value]
        cursor = quantity.end
    return written_back("".join([*out, read.text[cursor:]]), read)
