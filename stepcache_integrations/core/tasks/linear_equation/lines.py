"""How an equation answer is split into steps: the lines of an answer written line by line.

Models answer an equation one line at a time ("2n + 9 = 25", "2n = 16", "n = 8"; "Step 1: ...
3x = 15."; "Answer: x = 5"): each such line is a step, so a cached answer whose constants
changed keeps the lines the rewriter re-instantiates and regenerates from the first it cannot
(a patch), instead of failing as one block. A line closes a step when it ends with an equation
(nothing but closing marks after it); a line that does not (prose running on, "Subtract 9
from both sides:" before its equation) stays with the lines after it, so a step's words are
always read with the equation they lead to. A LaTeX display or a fenced block is one step.
"""

from __future__ import annotations

import re

from stepcache_integrations.core.steps import LineSegmenter
from stepcache_integrations.core.tasks.linear_equation.equation import scan_equations

__all__ = ["EQUATION_SEGMENTER", "ends_with_equation"]

_DIGIT_COMMA = re.compile(r"(\d),(\d)")
# What may follow the last equation of a line that ends with it: a full stop, closing
# brackets, emphasis, a check mark, LaTeX's closing delimiters (normalised to spaces). A
# comma, a colon or a word means the sentence runs on.
_CLOSING = re.compile(r"[\s.!?)\]}*_`$\\\u2713\u2714\u2705]*")


def ends_with_equation(unit: str) -> bool:
    """Whether ``unit`` (one or more lines of an answer) ends with an equation.

    Example:
        >>> ends_with_equation("Step 2: Divide both sides by 2: n = 8.")
        True
        >>> ends_with_equation("We get 2n = 16, and then")
        False
        >>> ends_with_equation("Adicione 1,5 a ambos os lados → -4m = 22,5")
        True
        >>> ends_with_equation("Subtract 9 from both sides:")
        False
    """
    # A comma between digits is one number's ("22,5" in German or Portuguese, "1,000" in
    # English): read as a point, it neither hides an equation nor ends one early. Only where
    # a step ends depends on it; every step is read in the request's language when checked.
    norm, found = scan_equations(_DIGIT_COMMA.sub(r"\1.\2", unit))
    return bool(found) and _CLOSING.fullmatch(norm, found[-1].end) is not None


EQUATION_SEGMENTER = LineSegmenter(ends_with_equation)
