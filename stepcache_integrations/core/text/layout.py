"""Where whitespace carries meaning: the lines of a request and the exact-match form.

Whitespace is meaning in code: inside fenced code blocks (lines between ```` ``` ```` or
``~~~`` fences) and on indented lines, where leading indentation and line breaks are syntax
(two Python programs that differ only in indentation are different programs). Everywhere else
runs of whitespace are layout. Whitespace inside a quoted string on one line (``"a  b"``) is
also kept: the quoted text is the user's literal data.

Example:
    >>> exact_form("  Solve   3x + 5 = 20  ")
    'Solve 3x + 5 = 20'
    >>> nested = exact_form("Run this:\\n    if x:\\n        y()")
    >>> nested == exact_form("Run this:\\n    if x:\\n    y()")
    False
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "PROSE_TOKEN",
    "QUOTED_SPAN",
    "Line",
    "LineKind",
    "exact_form",
    "prose_tokens",
    "split_lines",
]

LineKind = Literal["prose", "blank", "indented", "fence", "fenced"]

# A quoted span on one line. Straight single quotes need care: an apostrophe inside or at the
# end of a word ("don't", "dogs'") is not a quote, so an opening quote is never preceded by a
# letter and a closing one never followed by one; an apostrophe followed by a letter may sit
# inside the span ('it's fine').
QUOTED_SPAN = re.compile(
    r'"[^"\r\n]*"'
    r"|“[^”\r\n]*”"
    r"|«[^»\r\n]*»"
    r"|(?P<ticks>`+)[^`\r\n]+?(?P=ticks)(?!`)"
    r"|(?<![\w'\u2019])'(?:[^'\r\n]|'(?=\w))*'(?!\w)"
    r"|(?<![\w'\u2019])\u2018(?:[^\u2019\r\n]|\u2019(?=\w))*\u2019(?!\w)"
)

# One token of prose (the tokeniser's scanner, shared so that exact matching and comparison
# agree on where quoted spans are).
_URL = r"(?P<url>(?:https?://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]}])"
_EMAIL = r"(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
_QUOTED = rf"(?P<quoted>{QUOTED_SPAN.pattern})"
_PATH = (
    r"(?P<path>(?<![\w)])(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*/?"
    r"|\w+(?:/[\w.-]+){2,}|\w+/[\w-]+\.\w+|[A-Za-z]:\\\S*)"
)
# Where a number token ends ("1,200" and "3.5" are one token): the scanner's grammar, not a
# number reader. What a number token is worth, and whether a text holds a number, is read by
# the number reader (core.text.quantities).
_NUMBER = r"(?P<number>\d+(?:,\d{3}(?!\d))*(?:\.\d+)?|\.\d+)"
_WORD = r"(?P<word>[^\W\d]\w*(?:['\u2019][^\W\d_]+|-[^\W\d_]\w*|\.\w+)*)"
_PUNCT = r"(?P<punct>(?P<mark>[^\w\s])(?P=mark)*)"
PROSE_TOKEN = re.compile("|".join((_URL, _EMAIL, _QUOTED, _PATH, _NUMBER, _WORD, _PUNCT)))
# Without the URL, e-mail and path alternatives, for the many lines that cannot hold one (no
# "@", "/", "\\" or "www."): those alternatives cost most of the scan.
_PLAIN_PROSE_TOKEN = re.compile("|".join((_QUOTED, _NUMBER, _WORD, _PUNCT)))


def prose_tokens(line: str) -> Iterator[re.Match[str]]:
    """The tokens of one prose line, as :data:`PROSE_TOKEN` finds them."""
    if "@" in line or "/" in line or "\\" in line or "www." in line:
        return PROSE_TOKEN.finditer(line)
    return _PLAIN_PROSE_TOKEN.finditer(line)


_FENCE_OPEN = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_LINE = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")


@dataclass(frozen=True)
class Line:
    """One line of a request: its text (without the line break), offset and kind.

    ``kind`` is ``"fence"`` for a fence line, ``"fenced"`` for a line inside a fenced block,
    ``"indented"`` for a line that starts with a space or tab outside a fence (code-like),
    ``"blank"`` for a whitespace-only line, ``"prose"`` otherwise. A request with a single
    non-blank line has no code layout: that line is ``"prose"``.

    Example:
        >>> [line.kind for line in split_lines("Fix:\\n```\\nx = 1\\n```")]
        ['prose', 'fence', 'fenced', 'fence']
    """

    text: str
    start: int
    kind: LineKind

    @property
    def is_code(self) -> bool:
        """Whether whitespace on this line is meaning (fenced or indented)."""
        return self.kind in ("fence", "fenced", "indented")


def _raw_lines(text: str) -> list[tuple[str, int]]:
    lines: list[tuple[str, int]] = []
    for match in _LINE.finditer(text):
        if match.start() == len(text) and lines and not match.group(0):
            break
        lines.append((match.group(1), match.start()))
        if not match.group(2):
            break
    return lines


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip(" \t")
    if len(line) - len(line.lstrip(" ")) > 3 or not stripped:
        return False
    return set(stripped) == {fence[0]} and len(stripped) >= len(fence)


def split_lines(text: str) -> tuple[Line, ...]:
    """The lines of ``text`` with their kinds (any line break style; offsets into ``text``)."""
    raw = _raw_lines(text)
    single = sum(1 for line, _ in raw if line.strip()) <= 1
    lines: list[Line] = []
    fence: str | None = None
    for line, start in raw:
        if fence is not None:
            closing = _closes(line, fence)
            lines.append(Line(line, start, "fence" if closing else "fenced"))
            if closing:
                fence = None
            continue
        if not line.strip():
            lines.append(Line(line, start, "blank"))
            continue
        if single:
            lines.append(Line(line, start, "prose"))
            continue
        opening = _FENCE_OPEN.match(line)
        if opening and not (opening.group("fence")[0] == "`" and "`" in opening.group("info")):
            fence = opening.group("fence")
            lines.append(Line(line, start, "fence"))
        elif line[0] in " \t":
            lines.append(Line(line, start, "indented"))
        else:
            lines.append(Line(line, start, "prose"))
    return tuple(lines)


def collapse_prose(line: str) -> str:
    """The tokens of a prose line separated as written: a run of whitespace between two
    tokens becomes one space, whitespace inside a quoted span is kept, the ends go."""
    out: list[str] = []
    cursor = 0
    for match in prose_tokens(line):
        gap = line[cursor : match.start()]
        if gap:
            out.append(" " if gap.isspace() else gap)
        out.append(match.group())
        cursor = match.end()
    return "".join(out).strip()


def exact_form(text: str) -> str:
    """The canonical text for exact matching: layout whitespace normalised, meaning kept.

    Fenced code blocks are kept verbatim; indented lines keep their indentation (trailing
    whitespace dropped); line breaks are kept; blank lines are kept only between two code
    lines; whitespace runs elsewhere become one space; the ends are stripped. No case folding
    and no other change: two texts with the same exact form are the same request.

    Example:
        >>> exact_form("What is   the capital\\tof France?\\n\\n")
        'What is the capital of France?'
    """
    lines = split_lines(text)
    keep_blank = _blank_lines_between_code(lines)
    rendered: list[str] = []
    for index, line in enumerate(lines):
        if line.kind in ("fence", "fenced"):
            rendered.append(line.text)
        elif line.kind == "indented":
            rendered.append(line.text.rstrip())
        elif line.kind == "prose":
            rendered.append(collapse_prose(line.text))
        elif index in keep_blank:
            rendered.append("")
    while rendered and not rendered[0].strip():
        rendered.pop(0)
    while rendered and not rendered[-1].strip():
        rendered.pop()
    if len(rendered) == 1:
        return rendered[0].strip()
    return "\n".join(rendered).rstrip()


def _blank_lines_between_code(lines: tuple[Line, ...]) -> set[int]:
    """Indexes of blank lines whose nearest non-blank neighbours are both code lines."""
    kept: set[int] = set()
    previous_is_code = False
    pending: list[int] = []
    for index, line in enumerate(lines):
        if line.kind == "blank":
            if previous_is_code:
                pending.append(index)
            continue
        if line.is_code:
            kept.update(pending)
        pending = []
        previous_is_code = line.is_code
    return kept
