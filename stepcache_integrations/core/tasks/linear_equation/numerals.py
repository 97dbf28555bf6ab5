"""Numbers and operators as a text writes them, read into the form the equation scanner reads
(the *point form*), and a rewritten point form written back in the text's own form.

People and models write "0,5x + 3 = 4,5", "\\( 0{,}2p = 1{,}6 \\)", "x = 3 : 1,5 = 2" (":" as
division), "0,5x + 3 = 4,5 | -3" (a step annotation). The point form writes a decimal comma as
a point, a dividing ":" as a division, and an annotation's "|" as a plain separator, so that
the scanner (:mod:`~stepcache_integrations.core.tasks.linear_equation.equation`) reads them; a
rewrite of the point form is written back with the text's own marks (a decimal comma stays a
comma, ``{,}`` stays ``{,}``, ":" stays ":").

A comma between digits is a decimal mark only where the text's language writes one
(:func:`~stepcache_integrations.core.text.language.decimal_mark_language`; an answer with no
telling words reads as the request does) and the number has a decimal's shape (one comma, no
space after it). Read as babel reads numbers in that language, strictly: "4.500" in German is
a grouped 4500 (the point form makes it unreadable: groups are not the family's), "4.5" in a
German text is a decimal point. Anywhere else a comma between digits stays as it is, and the
scanner reads no equation through it ("x = 2,3 and 4", "1,200"): the family does not take
what it cannot read one way only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from babel.numbers import NumberFormatError, parse_decimal

from stepcache_integrations.core.text.language import decimal_mark_language, decimal_symbol
from stepcache_integrations.core.text.memo import text_memo

__all__ = [
    "ANNOTATION_BAR",
    "DIVIDING_COLON",
    "Inherited",
    "PointForm",
    "comma_language",
    "point_form",
    "reading",
    "reading_language",
    "written_back",
]

#: Stand-ins of the point form, one character each (offsets are kept): the "|" of a step
#: annotation ("| -3"), a clean end of the equation before it, and a ":" that divides, which
#: the scanner reads as "/". Private-use characters: no text writes them.
ANNOTATION_BAR = "\ue000"
DIVIDING_COLON = "\ue001"

# Digits joined by decimal or group marks: "4,5", "0{,}2", "1.200", "1.000,5", "1,2,3".
_RUN = re.compile(r"(?<![\d.,])\d+(?:(?:[.,]|\{,\})\d+)+(?![\d{])")
_MARK = re.compile(r"[.,]|\{,\}")
_GROUP_SHAPE = re.compile(r"\.\d{3}(?!\d)")
# Mixed numbers ("1 5/6", "1\frac{5}{6}") and vulgar fractions ("1\u215a", "\u00bd"): the
# scanner reads them exactly, the rewriter writes no number in their form.
_MIXED_FORM = re.compile(
    r"[0-9][ \t]*\\[dt]?frac\{[0-9]+\}|[0-9][ \t]+[0-9]+/[0-9]|[\u00bc-\u00be\u2150-\u215f\u2189]"
)
# A step annotation at the end of a line: "| -3", "|:2", "| · 0,5", "| -3x", "| :(-2)".
_ANNOTATION = re.compile(
    r"\|(?=[ \t]*(?:[-+*/:\u2212\u00b7\u00d7\u22c5]|\\cdot)[ \t]*\(?[ \t]*[-\u2212]?[ \t]*"
    r"(?:\d+(?:(?:[.,]|\{,\})\d+)?[A-Za-z]?|[A-Za-z])[ \t]*\)?[ \t]*$)",
    re.MULTILINE,
)
_OPERAND_END = re.compile(r"(?:\d+(?:(?:[.,]|\{,\})\d+)?[A-Za-z]?|(?<![^\W\d_])[A-Za-z]|\))\Z")
_OPERAND_START = re.compile(r"[-\u2212]?[ \t]*(?:\d|[A-Za-z](?![^\W\d_])|\()")
# What may stand before the left operand of a dividing ":": the start of the line, an
# operator or an "=" (a word or a number there makes it a label: "Schritt 1: ...").
_BEFORE_OPERAND = frozenset("=+-*/(\u2212\u00b7\u00d7\u22c5:\u2248" + DIVIDING_COLON)


@dataclass(frozen=True)
class PointForm:
    """A text in the scanner's form, and how to write a rewrite of it back.

    ``marks`` are the decimal marks the text writes ("," / "{,}" / "."); ``unreadable`` says
    that some run of digits and marks is read no way or two ways, or some number is written
    in a form the rewriter does not write (a mixed number, a vulgar fraction): the text is
    not rewritten.
    """

    text: str
    language: str | None
    marks: frozenset[str]
    unreadable: bool

    @property
    def rewritable(self) -> bool:
        """Whether a rewrite can be written back: every number read one way, one mark."""
        return not self.unreadable and len(self.marks) <= 1

    @property
    def mark(self) -> str:
        """The decimal mark a new decimal is written with: the text's own, else its
        language's."""
        if self.marks:
            return next(iter(self.marks))
        return decimal_symbol(self.language) if self.language else "."


#: The language an answer inherits (its request's), or how to tell it when it is needed: the
#: request's words are weighed only for an answer with a comma between digits.
Inherited = str | None | Callable[[], str | None]


def reading_language(text: str, inherited: Inherited = None) -> str | None:
    """The language whose decimal marks ``text`` is read with: ``inherited`` when it writes a
    decimal comma (an answer reads as its request: the family's own English steps for a
    German request write "0,5"), else the text's own when its words decide
    (:func:`~stepcache_integrations.core.text.language.decimal_mark_language`). ``None``: the
    decimal point.

    Example:
        >>> reading_language("x = 2,5", "de"), reading_language("x = 2,5")
        ('de', None)
        >>> reading_language("Also ist x = 2,5.")
        'de'
    """
    if not _needs_language(text):
        return inherited if isinstance(inherited, str) else None
    if callable(inherited):
        inherited = inherited()
    if inherited is not None and decimal_symbol(inherited) == ",":
        return inherited
    own = decimal_mark_language(text)
    return own if own is not None and decimal_symbol(own) == "," else None


def _needs_language(text: str) -> bool:
    """Whether some run of ``text`` reads differently by language: one with a comma, or a
    point before three digits ("4.500")."""
    if "," not in text and "." not in text:
        return False
    return any(
        "," in match.group() or _GROUP_SHAPE.search(match.group()) for match in _RUN.finditer(text)
    )


def _run_in_point_form(run: str, language: str | None, keep_length: bool) -> tuple[str, str | None]:
    """``run`` in the point form and the decimal mark it is written with; the mark is
    ``""`` when the run is read no way or two ways (it is then left unreadable)."""
    marks = _MARK.findall(run)
    if len(marks) != 1:
        return run, ""  # a grouped or listed run: not the family's
    mark = marks[0]
    if language is None:
        return run, ("." if mark == "." else "")
    plain = run.replace("{,}", ",")
    try:
        parse_decimal(plain, locale=language, strict=True)
        strict = True
    except NumberFormatError:
        strict = False
    if mark == ".":
        # A valid group in the language ("4.500" is 4500 in German) and a decimal in English:
        # read no way. Not a valid group ("4.5"): a decimal point.
        return (run.replace(".", ","), "") if strict else (run, ".")
    if not strict:
        return run, ""
    if mark == "{,}" and keep_length:
        return run, ""  # "{" is not read: offsets of a request are kept
    return run.replace(mark, "."), mark


def _dividing_colons(text: str) -> str:
    """``text`` with each ":" between two operands of one equation as :data:`DIVIDING_COLON`
    ("x = 3 : 1,5 = 2", "3x:3 = 15:3"); a label's colon ("Schritt 1: 3x = 15", "Probe: ...")
    is not one."""
    out = list(text)
    for match in re.finditer(":", text):
        at = match.start()
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at)
        line = text[line_start : len(text) if line_end < 0 else line_end]
        if "=" not in line and "\u2248" not in line:
            continue
        before = text[line_start:at]
        after = text[at + 1 : len(text) if line_end < 0 else line_end]
        stripped = before.rstrip(" \t")
        if (len(stripped) < len(before)) != (after[:1] in (" ", "\t")):
            continue  # spaced on one side only: "1: 3x", a label
        operand = _OPERAND_END.search(stripped)
        if operand is None or _OPERAND_START.match(after.lstrip(" \t")) is None:
            continue
        ahead = stripped[: operand.start()].rstrip(" \t")
        if ahead and ahead[-1] not in _BEFORE_OPERAND:
            continue
        out[at] = DIVIDING_COLON
    return "".join(out)


def point_form(text: str, language: str | None, keep_length: bool = False) -> PointForm:
    """``text`` in the scanner's form, read with ``language``'s decimal marks (``None``: the
    point). With ``keep_length`` every offset is kept (a request's spans): ``{,}`` is then
    left unread.

    Example:
        >>> form = point_form("0,5x + 3 = 4,5 | -3\\nx = 3 : 1,5 = 2", "de")
        >>> form.text.replace(ANNOTATION_BAR, "|").replace(DIVIDING_COLON, "/")
        '0.5x + 3 = 4.5 | -3\\nx = 3 / 1.5 = 2'
        >>> point_form("x = 2,3 and 4", None).unreadable
        True
    """
    if "|" in text:
        text = _ANNOTATION.sub(ANNOTATION_BAR, text)
    if ":" in text:
        text = _dividing_colons(text)
    marks: set[str] = set()
    unreadable = _MIXED_FORM.search(text) is not None
    if "," in text or "." in text:
        pieces: list[str] = []
        cursor = 0
        for match in _RUN.finditer(text):
            written, mark = _run_in_point_form(match.group(), language, keep_length)
            pieces += [text[cursor : match.start()], written]
            cursor = match.end()
            if mark:
                marks.add(mark)
            else:
                unreadable = True
        pieces.append(text[cursor:])
        text = "".join(pieces)
    return PointForm(text, language, frozenset(marks), unreadable)


def reading(text: str, inherited: Inherited = None) -> str:
    """The point form of ``text`` as read with :func:`reading_language` (for checking: the
    length may change).

    Example:
        >>> reading("\\\\( 0{,}2p = 1{,}6 \\\\)", "de")
        '\\\\( 0.2p = 1.6 \\\\)'
    """
    return _point_text(text, reading_language(text, inherited))


@text_memo(max_chars=400_000)
def _point_text(text: str, language: str | None) -> str:
    return point_form(text, language).text


def comma_language(text: str) -> str | None:
    """The language of ``text`` when its words clearly say it writes a decimal comma
    (:func:`~stepcache_integrations.core.text.language.decimal_mark_language`), else ``None``.

    Example:
        >>> comma_language("Löse 6x - 5 = 40 nach x auf."), comma_language("Solve 6x = 5.")
        ('de', None)
    """
    language = decimal_mark_language(text)
    return language if language is not None and decimal_symbol(language) == "," else None


_DECIMAL = re.compile(r"(?<![\d.])(\d+)\.(\d+)(?![\d])")


def written_back(rewritten: str, form: PointForm) -> str:
    """``rewritten`` (an edit of ``form.text``) in the marks of the text ``form`` was read
    from: decimals with its decimal mark, the stand-ins as the characters they stand for.

    Example:
        >>> form = point_form("0,5x = 1,5 | :0,5", "de")
        >>> written_back(form.text.replace("1.5", "1.25"), form)
        '0,5x = 1,25 | :0,5'
    """
    mark = form.mark
    if mark != ".":
        rewritten = _DECIMAL.sub(lambda m: f"{m.group(1)}{mark}{m.group(2)}", rewritten)
    return rewritten.replace(ANNOTATION_BAR, "|").replace(DIVIDING_COLON, ":")
