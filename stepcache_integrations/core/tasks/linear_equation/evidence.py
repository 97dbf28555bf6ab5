"""What the model's own answer shows was asked: the equation's solution, or something else.

The request is not read for this (no grammar of phrasings): the model answered it, and its
answer shows the task. An answer that closes with a statement of the variable's value
(``x = 6``, ``**x = 17/3**``, ``Answer: x = 5``, ``\\[ x = 5 \\]``), with nothing after it that
states another number, an equation, a negation or a claim about the value ("So x is odd.",
"Yes."), says that the variable's value was asked for. Whether the *exact* value was asked
is read from the form the answer gives it in: a fraction or an expression is exact; an
integer or a decimal may be a rounding, so the equation's solution is known to be the answer
only when it is itself written exactly in that form (then every rounding to that precision is
the solution itself). "x = 6" for a solution
of 17/3 may answer "round x"; "x = 7" for a solution of 5 does not.

The engine hands the deterministic hooks the answer in hand (``VerifyContext.answer``): the
model's own answer being mended, or the cached answer whose verified steps a continuation
follows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from stepcache_integrations.core.tasks.linear_equation.asking import stated_outside
from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    ScannedEquation,
    chains_of,
    format_number,
    scan_equations,
)
from stepcache_integrations.core.tasks.linear_equation.numerals import reading
from stepcache_integrations.core.tasks.linear_equation.prose import LABEL, independent
from stepcache_integrations.core.tasks.linear_equation.written import numbers_in
from stepcache_integrations.core.text.polarity import is_polarity
from stepcache_integrations.core.text.quantities import read_quantities

__all__ = [
    "FinalStatement",
    "final_statement",
    "restates_another",
    "shows_solution",
    "solution_as_answered",
    "written_as",
]

# What may follow the final statement on its line: punctuation, markup, a tick.
_TAIL = re.compile(r"[\s.,;:!*`$_)\]}\u2713\u2714\u2705\u2611]*\Z")
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")


@dataclass(frozen=True)
class FinalStatement:
    """The answer's closing statement of the variable's value: the value, and the literal it
    is written as (``None`` for an expression such as ``15/3``). ``in_words``: the answer
    states the value again after it in words ("m = 4.\nm = four"), the form it ends in."""

    value: Fraction
    literal: str | None
    start: int
    end: int
    in_words: bool = False
    #: The value is written as one fraction of two whole numbers ("7/2", "\\frac{7}{2}", "-15/3"),
    #: the form a new value takes as "p/q"; a mixed number ("3 1/2"), a sum or a product is
    #: a form the solver does not write.
    fraction: bool = False


def _finals(eqs: Sequence[ScannedEquation], var: str) -> list[tuple[ScannedEquation, bool]]:
    found = []
    for eq in eqs:
        if eq.left_var == var and not eq.right.names:
            found.append((eq, True))
        elif eq.right_var == var and not eq.left.names:
            found.append((eq, False))
    return found


def _prose_of(line: str, eqs: Sequence[ScannedEquation], offset: int) -> str:
    pieces, cursor = [], 0
    for eq in eqs:
        start, end = eq.start - offset, eq.end - offset
        if end <= 0 or start >= len(line):
            continue
        pieces.append(line[cursor : max(cursor, start)])
        cursor = max(cursor, end)
    pieces.append(line[cursor:])
    return " ".join(pieces)


def _negated(text: str) -> bool:
    return any(is_polarity(word) for word in _WORD.findall(text))


def _checks_value(
    norm: str, eq: ScannedEquation, equation: LinearEquation, value: Fraction
) -> bool:
    """Whether the arithmetic ``eq`` (after the final statement) checks ``value`` in
    ``equation``: each of its numbers is a constant of the equation, the value (or its
    numerator or denominator), the coefficient times the value, or that plus the constant.
    "3(5) + 5 = 20" checks x = 5 in 3x + 5 = 20; "4 · 5 = 20" (what 4x is) does not."""
    a, b, c = equation.a, equation.b, equation.c
    known = {a, b, c, c - b, value, a * value, a * value + b, Fraction(0)}
    known |= {Fraction(value.numerator), Fraction(value.denominator)}
    written = {abs(number.signed) for number in numbers_in(equation.text)}
    known |= written
    # Each side of the equation as written, worked out on its own ("7(2.25) = 15.75 and
    # 3(2.25) + 10 = 16.75" for 7x = 3x + 10). Not the value with any number of the equation:
    # "5 * 5 = 25" or "5 + 20 = 25" after x = 5 works out what a request asked in words.
    known |= _sides_at(equation, value)
    known = {abs(k) for k in known}
    # A number the request writes outside its equation may be what the line works out with
    # ("what is x plus 15?" answered "5 + 15 = 20", which reads like a check of 3x + 5 = 20).
    outside = stated_outside(equation.source) if equation.source else frozenset()
    return all(
        abs(number.signed) in known and abs(number.signed) not in outside
        for number in numbers_in(norm, eq.start, eq.end)
    )


def _sides_at(equation: LinearEquation, value: Fraction) -> set[Fraction]:
    """The terms and values of each side of ``equation`` as written, at ``value``."""
    found: set[Fraction] = set()
    for eq in scan_equations(reading(equation.text, equation.answer_language))[1]:
        for side in (eq.left, eq.right):
            term = side.coefs.get(equation.variable, Fraction(0)) * value
            found |= {term, term + side.const, side.const}
    return found


def final_statement(
    answer: str, var: str, equation: LinearEquation | None = None
) -> FinalStatement | None:
    """The statement of ``var``'s value that closes ``answer``, when nothing after it states
    another number, another equation or a negation; ``None`` otherwise. Given the
    ``equation`` answered, an equation of arithmetic after it must check the value in it
    ("3(5) + 5 = 20"), not work out something else ("4 · 5 = 20" for "what is 4 times x?").
    The statement ends its line or its sentence ("x = 4. You can check it: ..."); after it the
    same value may be said again in words ("So x = 4 is correct.").

    Example:
        >>> final_statement("3x = 16\\nSo x = 16/3.", "x").value
        Fraction(16, 3)
        >>> final_statement("So x = 4 is not a solution.", "x") is None
        True
        >>> final_statement("x = 5\\nThen 2x = 10.", "x") is None
        True
        >>> final_statement("x = 6\\nSo x = 6 is correct.", "x").value
        Fraction(6, 1)
    """
    norm, eqs = scan_equations(answer)
    found = _closing(norm, eqs, var)
    if found is None:
        return None
    final, value, literal, end, line_end = found
    line_start = norm.rfind("\n", 0, final.start) + 1
    head = norm[line_start : final.start]
    label = LABEL.match(head)
    if _negated(_prose_of(head[label.end() if label else 0 :], eqs, line_start)):
        return None
    # After it: a check of the value ("3(5) + 5 = 20 \u2713"), the value said again, and
    # words, but no other equation in a variable, no other number and no negation.
    later = [eq for eq in eqs if eq.start >= line_end]
    if not all(_restates(eq, var, value) for eq in later if eq.names):
        return None
    arithmetic = [eq for eq in later if not eq.names]
    if not all(_is_check(norm, chain, equation, value) for chain in chains_of(arithmetic)):
        return None
    # A step label of a later line ("Step 4: The solution is ...") numbers the steps.
    rest = "\n".join(
        LABEL.sub("", line, count=1)
        for line in _prose_of(norm[line_end:], later, line_end).split("\n")
    )
    if _negated(rest):
        return None
    in_words = False
    said = list(rest)
    for quantity in read_quantities(rest):
        restates = quantity.kind in ("number", "fraction") and quantity.value == value
        if not restates and quantity.kind != "ordinal":
            return None
        in_words = in_words or (restates and quantity.form == "words")
        said[quantity.start : quantity.end] = " " * (quantity.end - quantity.start)
    checks = {norm.count("\n", line_end, eq.start) for eq in arithmetic}
    if _claims("".join(said), checks, var):
        return None
    fraction = _FRACTION.fullmatch(_value_text(norm, final, end)) is not None
    return FinalStatement(value, literal, final.start, end, in_words, fraction)


def _claims(rest: str, checks: set[int], var: str) -> bool:
    """Whether the prose ``rest`` after the value (its numbers blanked) makes a claim about
    it ("So x is odd.", "Yes.", "Ja, x ist gerade."): such words may answer what was asked,
    and nobody recomputes them for another value. A line's words are no claim when each is
    true of every solution ("So x = 4 is correct."), or when the line checks the value (the
    lines ``checks``, by index: "..., which matches", "passt"): they speak of the check."""
    return any(
        index not in checks and not all(independent(word, var) for word in _WORD.findall(line))
        for index, line in enumerate(rest.split("\n"))
    )


# One fraction of two whole numbers, as the scanner reads it ("\\frac{7}{2}" is "(7)/(2)").
_FRACTION = re.compile(r"[\s*_(]*[-\u2212]?[\s(]*\d+[\s)]*/[\s(]*\d+[\s)*_]*")


def _value_text(norm: str, final: ScannedEquation, end: int) -> str:
    """The text of the value in the statement ``final`` (with its chain, up to ``end``): what
    stands after its last "=" ("x = 15/3 = 5": "5"), or before its first ("7/2 = x")."""
    statement = norm[final.start : end]
    if final.left_var is not None:
        return statement.rsplit("=", 1)[-1]
    return statement.split("=", 1)[0]


# A sentence that ends after the value, with more text on its line ("x = 4. You can check").
_SENTENCE_END = re.compile(r"[*`$_)\]}]*[.!;](?=[ \t]+\S)")


def _closing(
    norm: str, eqs: Sequence[ScannedEquation], var: str
) -> tuple[ScannedEquation, Fraction, str | None, int, int] | None:
    """The last statement of ``var``'s value that ends its line or its sentence, with its
    value, literal, end and where what follows it starts; every later statement of ``var``
    must say the same value (checked by the caller)."""
    for final, left in reversed(_finals(eqs, var)):
        value = final.right.const if left else final.left.const
        literal = final.right_literal if left else final.left_literal
        end = final.end
        chained = True
        for eq in eqs:  # a chain: "x = 15/3 = 5"
            if final.start < eq.start < end and not eq.names:
                chained = chained and eq.left.const == eq.right.const
                end, literal = eq.end, eq.right_literal
        if not chained:
            return None
        line_end = norm.find("\n", end)
        line_end = len(norm) if line_end < 0 else line_end
        if _TAIL.match(norm[end:line_end]):
            return final, value, literal, end, line_end
        sentence = _SENTENCE_END.match(norm, end, line_end)
        if sentence is not None:
            return final, value, literal, end, sentence.end()
    return None


def _restates(eq: ScannedEquation, var: str, value: Fraction) -> bool:
    """Whether ``eq`` says the value again ("So x = 6 is correct.")."""
    if eq.names != {var}:
        return False
    if eq.left_var == var and not eq.right.names:
        return eq.right.const == value
    return eq.right_var == var and not eq.left.names and eq.left.const == value


def _is_check(
    norm: str, chain: list[ScannedEquation], equation: LinearEquation | None, value: Fraction
) -> bool:
    """Whether a chain of arithmetic after the final statement checks the value: true, with
    every number one the equation and the value account for, or the equation with the value
    put in, worked out, true or not ("2(6 + 3) = 2(9) = 20" checks a wrong x = 6 in
    2(x + 3) = 20: the model's own check of its slip shows what it solved for)."""
    true = all(eq.left.const == eq.right.const for eq in chain)
    if equation is None:
        return true
    if true and all(_checks_value(norm, eq, equation, value) for eq in chain):
        return True
    return _substitutes(norm, chain, equation, value)


def _substitutes(
    norm: str, chain: list[ScannedEquation], equation: LinearEquation, value: Fraction
) -> bool:
    """Whether ``chain`` starts from a side of ``equation`` with ``value`` put in for its
    variable (the value written in it) and ends at a side's value at ``value``."""
    sides = _side_values(equation, value)
    if sides is None:
        return False
    if chain[0].left.const not in sides or chain[-1].right.const not in sides:
        return False
    equals = norm.find("=", chain[0].start, chain[0].end)
    written = [abs(n.signed) for n in numbers_in(norm, chain[0].start, equals)]
    if abs(value) not in written:
        return False
    outside = stated_outside(equation.source) if equation.source else frozenset()
    return not any(
        abs(n.signed) in outside for n in numbers_in(norm, chain[0].start, chain[-1].end)
    )


def _side_values(equation: LinearEquation, value: Fraction) -> tuple[Fraction, Fraction] | None:
    """Each side of ``equation`` as written, worked out at ``value``."""
    asked = scan_equations(reading(equation.text, equation.answer_language))[1]
    if len(asked) != 1:
        return None
    var = equation.variable
    left, right = asked[0].left, asked[0].right
    return (
        left.coefs.get(var, Fraction(0)) * value + left.const,
        right.coefs.get(var, Fraction(0)) * value + right.const,
    )


def _representable(solution: Fraction, literal: str | None) -> bool:
    """Whether ``solution`` is written exactly in the form of ``literal`` (any rounding to
    that precision is then the solution itself)."""
    if literal is None:
        return True  # a fraction or an expression: an exact form
    digits = literal.lstrip("+-")
    if "." in digits:
        places = len(digits) - digits.index(".") - 1
        return bool((solution * 10**places).denominator == 1)
    if solution.denominator != 1:
        return False
    # "20" may be a rounding to tens: the solution must be a multiple of that unit too.
    zeros = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
    return bool(solution.numerator % 10**zeros == 0)


def written_as(value: Fraction, literal: str | None) -> str | None:
    """``value`` written in the form of ``literal`` (the answer's own statement of its value),
    or ``None`` when that form cannot write it exactly: a fraction or an expression
    (``literal`` is ``None``) writes any value exactly; an integer only integers (and "20",
    perhaps a rounding to tens, only multiples of ten); a decimal only values with no more
    places than it has, written with as many.

    Example:
        >>> written_as(Fraction(6), "5.0"), written_as(Fraction(17, 3), "5.0")
        ('6.0', None)
        >>> written_as(Fraction(-4), "5"), written_as(Fraction(17, 3), None)
        ('-4', '17/3')
    """
    if literal is None:
        return format_number(value)
    if not _representable(value, literal):
        return None
    digits = literal.lstrip("+-")
    if "." not in digits:
        return str(value.numerator)
    places = len(digits) - digits.index(".") - 1
    scaled = abs(value * 10**places).numerator
    shown = str(scaled).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{shown[:-places]}.{shown[-places:]}"


_Side = tuple[tuple[tuple[str, Fraction], ...], Fraction]


def restates_another(answer: str, equation: LinearEquation) -> bool:
    """Whether ``answer`` writes ``equation``'s variable side equal to another constant side
    ("3x + 5 = 40" in an answer to a request the family read as 3x + 5 = 20): the model read
    another equation than the family did ("= 20 times 2", "= 20 ± 1"), and its values are
    not slips of arithmetic to correct.

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
        >>> eq = parse_equation("Solve 3x + 5 = 20")
        >>> restates_another("3x + 5 = 40\\n3x = 35\\nx = 35/3", eq)
        True
        >>> restates_another("3x + 5 = 20\\n3x = 16\\nx = 16/3", eq)
        False
    """
    return _restates_another(reading(answer, equation.answer_language), equation)


def _restates_another(read: str, equation: LinearEquation) -> bool:
    """:func:`restates_another` of an answer already read (:func:`reading`)."""
    var = equation.variable
    asked = scan_equations(reading(equation.text, equation.answer_language))[1]
    if len(asked) != 1:
        return False
    asked_side = _side_against_a_constant(asked[0])
    if asked_side is None:
        return False  # the unknown on both sides: a line with one of them is a move or a slip
    for eq in scan_equations(read)[1]:
        if var in (eq.left_var, eq.right_var):
            continue  # "x = 1" states a value (a slip to correct), even of "x + 0 = 0"
        side = _side_against_a_constant(eq) if eq.names == {var} else None
        if side is not None and side[0] == asked_side[0] and side[1] != asked_side[1]:
            return True
    return False


def _side_against_a_constant(eq: ScannedEquation) -> tuple[_Side, Fraction] | None:
    """The side of ``eq`` that holds the unknown, as written (its coefficients and constant),
    and the constant it equals; ``None`` unless one side is a constant alone."""
    sides = ((eq.left, eq.right), (eq.right, eq.left))
    for unknown, constant in sides:
        if unknown.names and not constant.names:
            return (tuple(sorted(unknown.coefs.items())), unknown.const), constant.const
    return None


def solution_as_answered(answer: str, answered: LinearEquation, solution: Fraction) -> str | None:
    """``solution`` written as ``answer`` (an answer to ``answered``) writes its value, when
    the answer shows that the value was asked (:func:`shows_solution`) and its form writes
    ``solution`` exactly; ``None`` otherwise (the form may be a rounding the new value would
    need, or another task: the model's to answer).

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
        >>> old = parse_equation("3x + 5 = 20")
        >>> solution_as_answered("3x = 15\\nx = 5.0", old, Fraction(11, 2))
        '5.5'
        >>> solution_as_answered("3x = 15\\nx = 5.0", old, Fraction(17, 3)) is None
        True
    """
    # Read as the request writes its numbers ("x = 5,0" where its language writes a comma).
    read = reading(answer, answered.answer_language)  # once: both questions read this text
    final = final_statement(read, answered.variable, answered)
    if final is None or final.in_words:
        return None  # words ("m = four") are a form the solver does not write
    if _restates_another(read, answered):
        return None  # the model solved another equation: what was asked is not shown
    if not _representable(answered.solution, final.literal):
        return None  # a rounding? Only the request could tell, and it is not read
    if final.literal is None:
        # An exact form: a fraction stays a fraction ("7/2" -> "9/2", never "4.5"); a mixed
        # number or an expression ("3 1/2", "2 + 3/2") may be what was asked for.
        if not final.fraction:
            return None
        return str(solution)  # "9/2", "-4", "5"
    return written_as(solution, final.literal)


def shows_solution(answer: str, equation: LinearEquation) -> bool:
    """Whether ``answer`` shows that ``equation``'s solution is what was asked: it closes with
    a statement of the variable's value, in a form that writes the solution exactly.

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
        >>> eq = parse_equation("3x + 5 = 22")
        >>> shows_solution("3x = 18\\nx = 6", eq)  # 17/3 rounded? cannot tell
        False
        >>> shows_solution("3x = 18\\nx = 18/3", eq)  # a wrong exact value: x was asked
        True
    """
    read = reading(answer, equation.answer_language)
    final = final_statement(read, equation.variable, equation)
    return final is not None and _representable(equation.solution, final.literal)
