"""Steps: an answer split into ordered pieces that can be verified and reused one by one.

Segmentation is lossless: ``"".join(step.text + step.separator for step in steps)`` gives back
exactly the text that was split, so reused steps are stitched with their original separators.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = [
    "JsonSegmenter",
    "LineSegmenter",
    "ParagraphSegmenter",
    "Segmenter",
    "Step",
    "join_steps",
    "unclosed_fence",
]


@dataclass(frozen=True)
class Step:
    """One ordered piece of an answer.

    Example:
        >>> Step("x = 5", "\\n").text
        'x = 5'
    """

    text: str
    separator: str = ""

    def to_json(self) -> list[str]:
        """Serialise as ``[text, separator]`` (the stored-entry format)."""
        return [self.text, self.separator]


def join_steps(steps: Sequence[Step]) -> str:
    """Join steps back into one text with their original separators."""
    return "".join([step.text + step.separator for step in steps])  # a list joins faster


_FENCE_LINE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})", re.MULTILINE)


def unclosed_fence(text: str) -> bool:
    r"""Whether ``text`` opens a Markdown code fence (three or more backticks or tildes at
    the start of a line) that it never closes: a cut-off answer.

    Example:
        >>> unclosed_fence("```python\nprint(1)\n```")
        False
        >>> unclosed_fence("```json\n{\"a\": 1}")
        True
    """
    opener: str | None = None
    for match in _FENCE_LINE.finditer(text):
        mark = match.group(1)
        if opener is None:
            opener = mark
        elif mark[0] == opener[0] and len(mark) >= len(opener):
            # A closing fence is the same character, at least as long, with nothing after it.
            line_end = text.find("\n", match.end())
            rest = text[match.end() : line_end if line_end >= 0 else len(text)]
            if not rest.strip():
                opener = None
    return opener is not None


@runtime_checkable
class Segmenter(Protocol):
    """Splits an answer into steps; ``join_steps(split(text)) == text`` must hold.

    Example:
        >>> text = "First, add.\\n\\nThen divide."
        >>> join_steps(ParagraphSegmenter().split(text)) == text
        True
    """

    name: str

    def split(self, text: str) -> list[Step]:
        """Split ``text`` into ordered steps (lossless)."""
        ...


# A new step starts at a blank line, or at a line that opens a list item
# ("1.", "2)", "Step 3:", "-", "*", "•").
_LIST_ITEM = re.compile(r"(?im)^[ \t]*(?:\d+[.)]|step\s+\d+\s*[:.)-]|[-*•])[ \t]+")


class ParagraphSegmenter:
    """Default segmenter: paragraphs and list items become steps.

    Example:
        >>> [s.text for s in ParagraphSegmenter().split("Step 1: a\\nStep 2: b")]
        ['Step 1: a', 'Step 2: b']
    """

    name = "paragraph"

    def split(self, text: str) -> list[Step]:
        if not text:
            return []
        starts = {0}
        for match in re.finditer(r"\n[ \t]*\n+", text):
            starts.add(match.end())
        for match in _LIST_ITEM.finditer(text):
            starts.add(match.start())
        return _steps_from(text, sorted(s for s in starts if s < len(text)))


# Blocks that are one step however many lines they have: a fenced block, a LaTeX display
# ("\[ ... \]", "$$ ... $$") or environment ("\begin{aligned} ... \end{aligned}"). A block
# left open runs to the end of the text (it is not cut where nothing closes it).
_BLOCK = re.compile(
    r"(?ms)^[ \t]{0,3}(?P<fence>`{3,}|~{3,}).*?(?:^[ \t]{0,3}(?P=fence)[^\n]*$|\Z)"
    r"|\\\[.*?(?:\\\]|\Z)"
    r"|\$\$.*?(?:\$\$|\Z)"
    r"|\\begin\{(?P<env>[^}\n]*)\}.*?(?:\\end\{(?P=env)\}|\Z)"
)


def _inside_block(text: str) -> list[tuple[int, int]]:
    """The spans strictly inside which no step may start (each block's interior)."""
    return [(match.start(), match.end()) for match in _BLOCK.finditer(text)]


class LineSegmenter:
    r"""Paragraphs and list items, and within them each line that ``closes`` a unit: an
    answer written line by line ("2n + 9 = 25", "2n = 16", "n = 8") is a step a line, while
    a line that does not close (prose running on, a "Subtract 9:" before its equation) stays
    with the line after it. A fenced block or a LaTeX display is never cut.

    ``closes`` is asked about the text of the unit so far (from the start of the step to the
    end of the line); the family says what closes a unit of its answers.

    Example:
        >>> closes = lambda unit: unit.rstrip().endswith(";")
        >>> [s.text for s in LineSegmenter(closes).split("a;\nb\nc;\n$$\nd;\n$$")]
        ['a;', 'b\nc;', '$$\nd;\n$$']
    """

    name = "line"

    def __init__(self, closes: Callable[[str], bool]) -> None:
        self.closes = closes
        self._paragraphs = ParagraphSegmenter()

    def split(self, text: str) -> list[Step]:
        if not text:
            return []
        blocks = _inside_block(text)

        def cuttable(offset: int) -> bool:
            return not any(start < offset < end for start, end in blocks)

        starts: set[int] = set()
        offset = 0
        for step in self._paragraphs.split(text):
            if cuttable(offset):
                starts.add(offset)
            offset += len(step.text) + len(step.separator)
        unit = 0
        for line in re.finditer(r"[^\n]*\n", text):
            if line.start() in starts:
                unit = line.start()
            end = line.end()
            if end < len(text) and cuttable(end) and self.closes(text[unit:end]):
                starts.add(end)
                unit = end
        return _steps_from(text, sorted(starts))


def _steps_from(text: str, starts: Sequence[int]) -> list[Step]:
    """The steps that start at ``starts`` (sorted, the first 0), trailing whitespace kept
    as each one's separator (a whitespace-only piece joins the one before it)."""
    steps: list[Step] = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        chunk = text[start:end]
        body = chunk.rstrip()
        if not body and steps:
            prev = steps.pop()
            steps.append(Step(prev.text, prev.separator + chunk))
            continue
        steps.append(Step(body, chunk[len(body) :]))
    return steps


_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)


def find_json_object(text: str) -> tuple[int, int] | None:
    """Return the span of the first complete JSON object in ``text`` (fenced or bare)."""
    decoder = json.JSONDecoder()
    candidates: list[int] = []
    for fence in _FENCE.finditer(text):
        inner_start = fence.start(1)
        brace = text.find("{", inner_start, fence.end(1))
        if brace >= 0:
            candidates.append(brace)
    # Only a brace followed by a quote or a closing brace can open an object: skipping the
    # others keeps text with many stray braces linear instead of quadratic.
    candidates.extend(m.start() for m in re.finditer(r"\{(?=\s*[\"}])", text))
    for start in candidates:
        try:
            value, end = decoder.raw_decode(text, start)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(value, dict):
            return start, end
    return None


class JsonSegmenter:
    """One JSON object in the answer (also inside a code fence) is one step.

    Text around the object is kept as steps of its own so the split stays lossless.

    Example:
        >>> [s.text for s in JsonSegmenter().split('Here: {"a": 1}')]
        ['Here: ', '{"a": 1}']
    """

    name = "json"

    def split(self, text: str) -> list[Step]:
        if not text:
            return []
        span = find_json_object(text)
        if span is None:
            return [Step(text, "")]
        start, end = span
        steps: list[Step] = []
        if start:
            steps.append(Step(text[:start], ""))
        steps.append(Step(text[start:end], text[end:]))
        return steps
