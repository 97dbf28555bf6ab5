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

from stepcache_integrations.core.steps import LineSegmenter, Step
from stepcache_integrations.core.tasks.linear_equation.equation import scan_equations

__all__ = ["EQUATION_SEGMENTER", "EquationSegmenter", "ends_with_equation"]

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


# A sentence's end inside a line: its closing mark, the space after it, and a capital that
# opens the next sentence ("... gives 0.5x = 5. Dividing ..."). A point between digits
# ("2.5") has no space after it; an abbreviation ("e.g. x") is not after an equation.
_SENTENCE_END = re.compile(r"[.!?](?=\s+[^\W\d_])")
# A display, a fence or an environment is one step, never cut inside.
_BLOCK_MARK = re.compile(r"\\\[|\$\$|```|~~~|\\begin\{")


class EquationSegmenter:
    """Lines that end with an equation (:class:`LineSegmenter`), and within a line each
    sentence that ends with one: an answer written as one paragraph ("Subtracting 3 from both
    sides gives 0.5x = 5. Dividing both sides by 0.5 gives x = 10.") is then a step a
    sentence, so a patch regenerates only the sentences from the first that cannot be reused.

    Example:
        >>> text = "Subtract 3 from both sides: 2x = 4. Then divide by 2: x = 2."
        >>> [step.text for step in EQUATION_SEGMENTER.split(text)]
        ['Subtract 3 from both sides: 2x = 4.', 'Then divide by 2: x = 2.']
    """

    name = "line"

    def __init__(self) -> None:
        self._lines = LineSegmenter(ends_with_equation)

    def split(self, text: str) -> list[Step]:
        steps: list[Step] = []
        for step in self._lines.split(text):
            steps += _sentences(step)
        return steps


def _sentences(step: Step) -> list[Step]:
    """``step`` cut after each sentence that ends with an equation (not inside a block)."""
    text = step.text
    if _BLOCK_MARK.search(text):
        return [step]
    pieces: list[Step] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        unit = text[start : match.end()]
        if not ends_with_equation(unit):
            continue
        body = text[start : match.end()]
        rest = text[match.end() :]
        gap = len(rest) - len(rest.lstrip())
        pieces.append(Step(body, rest[:gap]))
        start = match.end() + gap
    if not pieces:
        return [step]
    pieces.append(Step(text[start:], step.separator))
    return pieces


EQUATION_SEGMENTER = EquationSegmenter()
