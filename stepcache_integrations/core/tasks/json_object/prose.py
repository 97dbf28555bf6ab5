"""Prose beside a carried-over JSON object that nobody can vouch for is left out, not served.

A JSON answer is the object; a model often writes a line before or after it ("Here's the
car listing as JSON:", "Let me know if you'd like the items broken out.", "Dates are kept in
ISO format."). When only values the request states changed and the object follows them (see
:mod:`~stepcache_integrations.core.tasks.json_object.tracing`), the object is checked against
the new request, but such a line is not: its words may say something about the old values
("Since you marked it as not pet safe, ..."). What cannot be vouched for is not served:
:func:`without_unvouched_prose` drops every line around the object that is more than
presentation (see :func:`~stepcache_integrations.core.tasks.json_object.changes.
presentation_only`: fences, presentation words, the values the new request states), and
keeps the rest of the answer as it was. The object stays the answer; a line beside it is
never rewritten by guess.

Only prose that is a side note is dropped: when the lines to drop are longer than the object
itself, the prose is more than a note beside it (an explanation the request may have asked
for), and nothing is dropped (the step is then regenerated as before).

Example:
    >>> from stepcache_integrations.core.steps import Step
    >>> obj = '{"make": "Toyota", "year": 2020}'
    >>> steps = [Step("Here's the car listing:\\n\\n```json\\n"), Step(obj, "\\n```")]
    >>> [step.text for step in without_unvouched_prose(steps, 1, (0, 32), (), "JSON: 2020")]
    ['```json\\n', '{"make": "Toyota", "year": 2020}']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.json_object.answer import locate_object
from stepcache_integrations.core.tasks.json_object.changes import presentation_only
from stepcache_integrations.core.tasks.output_format import asks_for_json, json_asked_at
from stepcache_integrations.core.text.stated import is_presentation_word, yes_no

__all__ = ["without_unvouched_prose"]

# A line with its end ("\n" kept with it), so that the text is rebuilt exactly.
_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE = re.compile(r"[.!?;\n]+(?=\s|$)|\n")


def _side_note(line: str, values: Sequence[str], asked: frozenset[str]) -> bool:
    """Whether ``line`` is more than presentation and takes up no word the request writes
    (``asked``, folded) and does not open with a yes or a no: the model's own note. A line
    that takes up the request's words may answer what the request asks in them ("Say
    whether she is an adult." -> "Anna is an adult:"), and a line that opens with a yes or a
    no answers a question in words of its own ("Is she old enough to vote?" -> "Yes.",
    "Não, ..."): it is not a note to leave out, and is regenerated when it may depend on
    the change."""
    if not line.strip() or presentation_only(line, values=values):
        return False
    rest = line
    for value in sorted(values, key=len, reverse=True):
        rest = rest.replace(value, " ")
    found = _WORD.findall(rest)
    if found and any(language != "json" for language, _ in yes_no(found[0])):
        return False  # JSON's own "true"/"false" state a value of the object, not an answer
    words = {word.casefold() for word in found if not is_presentation_word(word)}
    return not words & asked


def _kept(text: str, values: Sequence[str], asked: frozenset[str]) -> tuple[str, int]:
    """``text`` without its lines that are side notes (see :func:`_side_note`), and how
    many characters of prose were dropped. Blank lines next to a dropped line go with it."""
    lines = _LINE.findall(text)
    keep = [not _side_note(line, values, asked) for line in lines]
    dropped = sum(len(line.strip()) for line, kept in zip(lines, keep, strict=True) if not kept)
    if not dropped:
        return text, 0
    out: list[str] = []
    for index, (line, kept) in enumerate(zip(lines, keep, strict=True)):
        if not kept:
            continue
        if not line.strip() and _beside_dropped(lines, keep, index):
            continue
        out.append(line)
    return "".join(out), dropped


def _beside_dropped(lines: Sequence[str], keep: Sequence[bool], index: int) -> bool:
    """Whether the blank line ``index`` stands next to a dropped line."""
    return any(0 <= j < len(lines) and not keep[j] for j in (index - 1, index + 1))


def _object_keys(text: str) -> tuple[str, ...]:
    located = locate_object(text, whole_answer=False)
    return tuple(located.obj) if located.obj is not None else ()


def _mentions(text: str, part: str) -> bool:
    """Whether ``text`` writes ``part`` (a value or a key) as words of their own."""
    pattern = rf"(?<![^\W_]){re.escape(part)}(?![^\W_])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def _asked_beside(request: str, keys: Sequence[str], values: Sequence[str]) -> frozenset[str]:
    """The words (folded) of what ``request`` may ask beside the object: its sentences with
    no value it states (``values``), no key of the object (``keys``) and no mention of JSON
    ("Say first whether she is an adult."), the text after the last value it states
    ("..., age 31, and say whether she is an adult") and the text before its mention of JSON
    when it writes a value ("Tell me if Anna is an adult and make a JSON object for her, age
    31": it says something of the value; "For the onboarding sheet I need a JSON ..." only
    names the object), values left out.
    A line of the answer that takes one of them up may be what the request asked for there."""
    parts = [part for part in (*values, *keys) if part]
    chunks = [
        sentence
        for sentence in _SENTENCE.split(request)
        if not any(_mentions(sentence, part) for part in parts) and not asks_for_json(sentence)
    ]
    matches = [match for value in values if value for match in _finditer(request, value)]
    ends, starts = [match.end() for match in matches], [match.start() for match in matches]
    if ends:
        chunks.append(request[max(ends) :])
    mention = json_asked_at(request)
    if mention is not None and any(start < mention for start in starts):
        chunks.append(_without(request[:mention], values))
    words = {word.casefold() for chunk in chunks for word in _WORD.findall(chunk)}
    return frozenset(word for word in words if not is_presentation_word(word))


def _without(text: str, values: Sequence[str]) -> str:
    """``text`` with every value of ``values`` written in it blanked out."""
    for value in sorted((value for value in values if value), key=len, reverse=True):
        text = re.sub(rf"(?<![^\W_]){re.escape(value)}(?![^\W_])", " ", text)
    return text


def _finditer(text: str, part: str) -> list[re.Match[str]]:
    return list(re.finditer(rf"(?<![^\W_]){re.escape(part)}(?![^\W_])", text))


def without_unvouched_prose(
    steps: Sequence[Step],
    index: int,
    span: tuple[int, int],
    values: Sequence[str],
    request: str,
) -> list[Step]:
    """``steps`` (an answer whose step ``index`` holds the JSON object at ``span``) without
    the lines around the object that are side notes: more than presentation (``values``:
    how the new ``request`` writes the values it states), and taking up no word of the
    request; steps left empty are removed. The answer as it was when there is nothing to
    drop, or when the prose to drop is longer than the object (then it is more than a note
    beside it)."""
    start, end = span
    asked = _asked_beside(request, _object_keys(steps[index].text[start:end]), values)
    out: list[Step] = []
    dropped = 0
    for position, step in enumerate(steps):
        if position == index:
            before, lost_before = _kept(step.text[:start], values, asked)
            after, lost_after = _kept(step.text[end:], values, asked)
            separator, lost_separator = _kept(step.separator, values, asked)
            dropped += lost_before + lost_after + lost_separator
            out.append(Step(before + step.text[start:end] + after, separator))
            continue
        text, lost_text = _kept(step.text, values, asked)
        separator, lost_separator = _kept(step.separator, values, asked)
        dropped += lost_text + lost_separator
        if text.strip() or separator.strip():
            out.append(Step(text, separator))
    if not dropped or dropped > end - start:
        return list(steps)
    return out
