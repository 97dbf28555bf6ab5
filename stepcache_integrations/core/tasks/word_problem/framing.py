"""Where a word-problem request frames the problem rather than states it.

A request is the problem (the story, its quantities and its question) plus, around it, words
that only frame it: a lead ("Here is a word problem for you.", "Please help me with this
question:") and an instruction about the answer's form ('Write each step on its own line as
"Step N: <calculation> = <result>"'). A change in the framing changes no calculation; a change
anywhere in the problem may, even when it is one of the framing words: "3 apples for $2" and
"3 apples for $2 each" differ by "each", and "for" frames only in "a problem for you".

So framing is a property of a whole sentence, not of a word:

* a *framing sentence* is made only of :data:`FRAMING_WORDS` (and separators): no number, no
  name, nothing quoted, at least one word that names the task ("problem", "question",
  "solve", "answer"...);
* a *format sentence* quotes the form of the answer (a quoted text with a ``<placeholder>`` or
  ``####``): its counts ("one line per step") are about the answer's layout, not the problem.

Example:
    >>> request = "Here is a word problem for you. Ana has 3 pears. How many pears?"
    >>> [request[a:b] for a, b in framing_spans(request)]
    ['Here is a word problem for you.']
"""

from __future__ import annotations

import re

from stepcache_integrations.core.text.memo import text_memo

__all__ = [
    "FRAMING_WORDS",
    "NAMING_WORDS",
    "format_spans",
    "framing_spans",
    "inside",
    "sentence_spans",
]

#: Words that name the task of a word problem and nothing else. They are the family's
#: ``instruction_words``; none of them can carry a calculation.
NAMING_WORDS = frozenset(
    """solve problem question answer following help please kindly word here""".split()  # noqa: SIM905
)
#: Every word a framing sentence may be made of: the naming words and the filler of polite
#: framing ("Could you work this out for me?"). Outside a framing sentence none of them is
#: framing: "for", "with", "is", "you" and "me" can all be part of a problem.
FRAMING_WORDS = NAMING_WORDS | frozenset(
    """a an the this it is me you for with could would can work out hi hello thanks thank
    calculate compute find""".split()  # noqa: SIM905
)

# A sentence ends at . ! ? or : followed by a space or the end, or at a line break; quoted
# text ("Step N: <calculation> = <result>") is never cut.
_PIECE = re.compile(r'"[^"\n]*"?|[.!?:](?=\s|$)|\n|[^".!?:\n]+|.', re.DOTALL)
_WORD = re.compile(r"[^\W\d_]+")
_FORMAT_QUOTE = re.compile(r'"[^"\n]*(?:<[^>\n]*>|####)[^"\n]*"')


@text_memo(max_chars=400_000)
def sentence_spans(request: str) -> tuple[tuple[int, int], ...]:
    """The ``(start, end)`` of each sentence of ``request``, its final mark included.

    Example:
        >>> text = 'Ana has 3. Write "Step N: <x>". How many?'
        >>> [text[a:b] for a, b in sentence_spans(text)]
        ['Ana has 3.', 'Write "Step N: <x>".', 'How many?']
    """
    spans: list[tuple[int, int]] = []
    start = None
    for piece in _PIECE.finditer(request):
        text = piece.group()
        if start is None:
            if text.isspace():
                continue
            start = piece.start() + (len(text) - len(text.lstrip()))
        if text in (".", "!", "?", ":", "\n"):
            end = piece.end() if text != "\n" else piece.start()
            if request[start:end].strip():
                spans.append((start, end))
            start = None
    if start is not None and request[start:].strip():
        spans.append((start, len(request.rstrip())))
    return tuple(spans)


@text_memo(max_chars=400_000)
def framing_spans(request: str) -> tuple[tuple[int, int], ...]:
    """The sentences of ``request`` that only frame the problem (see the module docstring)."""
    found = []
    for start, end in sentence_spans(request):
        text = request[start:end]
        words = [word.lower() for word in _WORD.findall(text)]
        if (
            words
            and not any(ch.isdigit() for ch in text)
            and '"' not in text
            and not _has_name(text)
            and all(word in FRAMING_WORDS for word in words)
            and any(word in NAMING_WORDS for word in words)
        ):
            found.append((start, end))
    return tuple(found)


@text_memo(max_chars=400_000)
def format_spans(request: str) -> tuple[tuple[int, int], ...]:
    """The sentences of ``request`` that quote the form of the answer (see the module
    docstring)."""
    return tuple(
        (start, end)
        for start, end in sentence_spans(request)
        if _FORMAT_QUOTE.search(request, start, end) is not None
    )


def inside(position: int, spans: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``position`` lies in one of ``spans``."""
    return any(start <= position < end for start, end in spans)


def _has_name(text: str) -> bool:
    # A capitalised word inside the sentence (not its first word, not "I") may be a name of
    # the story ("Could you help Ana?"): not framing.
    words = _WORD.findall(text)
    return any(word[:1].isupper() and word.lower() != "i" for word in words[1:])
