"""Words that state a condition or a choice: the one word list the tool-call family keeps.

The family reads the texts around a re-instantiated call closed-world where it decides alone
(see :mod:`.vocabulary`). Texts it cannot read that way: the request and the earlier turns
(the system prompt included) of a call of tools the caller declared *pure* (a declaration made
once for a tool speaks for its spec and the other pure tools, never for what one conversation
says), and the text beside the calls of a pure tool, whose spec is not read. There, and only
there, this module looks for what says the value matters:

- :func:`conditions`: words and marks that state a condition, a threshold or a cause ("if",
  "only", "above", "before", "at least", "<", "so");
- :func:`choices`: words of a request that offer alternatives ("or", "either", "whichever");
- :func:`numbers`: the numbers of a request (another number beside a rebound one may be its
  threshold, in any words or language);
- :func:`temporal`: whether a value is a date or a time (its place relative to today, past or
  future, may make a tool refuse it or another tool fit, and nothing tells the cache what
  today is).

Every text is read in its NFKC form without invisible format characters and with letters of
other scripts that look like Latin ones read as those (:func:`readable`), so that full-width
letters, a zero-width space inside a word ("i\u200bf") or a Cyrillic "\u0456f" hide nothing;
a word that still mixes Latin letters with another script's counts as a condition. A word
here that states none only costs a model call.

Example:
    >>> conditions("Amounts above 500 must use wire_transfer.")
    ['above', 'must']
    >>> conditions("The current weather in a city, today.")
    []
    >>> choices("Paris or Berlin, whichever is warmer")
    ['or', 'whichever']
"""

from __future__ import annotations

import re
import unicodedata
from itertools import pairwise

from stepcache_integrations.core.text.quantities import is_number_word, read_figures
from stepcache_integrations.core.text.stated_dates import ENGLISH_MONTHS

__all__ = ["choices", "conditions", "numbers", "readable", "temporal", "words"]

# Words, and runs of digits with their marks, as the word tokens of a turn: the numbers a
# condition compares are read by the number reader (see numbers()).
_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019]*(?:-[A-Za-z]+)*|\d+(?:[.,:/-]\d+)*")
# The marks that join figures into one number of a date, a time or a code ("2025-07-08",
# "14:30", "1/2"): the number a rebound value may be part of.
_JOINERS = frozenset("-/:.,")
_SYMBOLS = ("<", ">", "\u2264", "\u2265", "\u2260", "=", "%")
_MONTHS = "|".join(ENGLISH_MONTHS)
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
# Dates, times, years, months and weekdays: what a call may be about in time (not numbers).
_TEMPORAL = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}|\d{4}/\d{1,2}/\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}"
    r"|\d{1,2}:\d{2}|\b(?:19|20)\d{2}\b"
    rf"|\b(?:{_MONTHS}|{_WEEKDAYS})\b",
    re.IGNORECASE,
)
# Conditions, selections, comparisons and thresholds, time relations, scale and locality,
# and causal links: any of them can tie a choice to a value.
_CONDITION_WORDS = frozenset(
    {
        # conditions and selections
        "if", "unless", "when", "whenever", "otherwise", "else", "instead", "except",
        "excluding", "only", "solely", "exclusively", "must", "never", "depending", "depends",
        "depend", "dependent", "whichever", "whether", "either", "provided", "assuming",
        "rather",
        # comparisons and thresholds
        "above", "below", "over", "under", "beyond", "exceed", "exceeds", "exceeding",
        "exceeded", "greater", "larger", "bigger", "higher", "more", "less", "fewer",
        "smaller", "lower", "least", "most", "max", "min", "maximum", "minimum", "limit",
        "limits", "limited", "threshold", "between", "within", "range", "cap", "capped",
        # time relations
        "before", "after", "earlier", "later", "past", "future", "prior", "since", "until",
        "upcoming", "previous", "historical", "history", "forecast", "ago", "expired", "passed",
        "overdue", "elapsed",
        "older", "newer", "recent", "tomorrow", "yesterday",
        # scale and locality
        "large", "small", "big", "huge", "tiny", "high", "low", "long", "short", "cheap",
        "expensive", "premium", "local", "domestic", "international", "foreign",
        "overseas", "abroad", "nearby", "remote",
        # causal links
        "so", "because", "therefore", "thus", "hence", "means", "due",
    }
)  # fmt: skip
_HIDDEN = frozenset({"Cf", "Mn"})  # invisible format characters, marks on letters
# A number written in words may be a threshold as much as one in digits ("at five hundred").
_CONDITION_PAIRS = frozenset(
    {
        ("up", "to"), ("at", "least"), ("at", "most"), ("no", "more"), ("or", "more"),
        ("or", "less"), ("or", "fewer"), ("and", "up"), ("in", "case"), ("based", "on"),
        ("as", "long"),
    }
)  # fmt: skip
# Words of a request that offer alternatives or make a clause conditional ("wire it should it
# top 500", "once it reaches").
_CHOICE_WORDS = frozenset(
    {"or", "either", "whichever", "appropriate", "suitable", "respective", "corresponding",
     "accordingly", "matching", "relevant", "best", "should", "once", "lest", "whatever"}
)  # fmt: skip
# Letters of other scripts that look like Latin ones: a model reads "\u0456f" as "if".
_LOOKALIKES = str.maketrans(
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u04bb\u0501\u051b\u051d"
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0406\u0408\u0405"
    "\u03b1\u03bf\u03c1\u03c5\u03b9\u03ba\u03bd\u0391\u0392\u0395\u0396\u0397\u0399\u039a"
    "\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7"
    "\u0131\u0237\u0251\u0261\u0269\u04cf\u0585\u057d",
    "aeopcyxijshdqwABEKMHOPCTXIJSaopuiknABEZHIKMNOPTYXijagilou",
)


def temporal(text: str) -> bool:
    """Whether ``text`` is, or holds, a date or a time ("2025-06-01", "14:30", "June",
    "Friday", "2024").

    Example:
        >>> temporal("2025-06-01"), temporal("on Friday"), temporal("Paris")
        (True, True, False)
    """
    return bool(_TEMPORAL.search(readable(text)))


def readable(text: str) -> str:
    """``text`` as the checks read it: NFKC-normalised, without invisible format characters
    (zero-width spaces and joiners, direction marks) and marks on letters ("\u00eff"), with
    letters that look like Latin ones (Cyrillic, Greek, a dotless i) read as those.

    Example:
        >>> readable("i\u200bf \uff41bove \u0456f")
        'if above if'
    """
    normal = unicodedata.normalize("NFKC", text).translate(_LOOKALIKES)
    bare = unicodedata.normalize("NFKD", normal)
    return "".join(char for char in bare if unicodedata.category(char) not in _HIDDEN)


def _mixed_scripts(text: str) -> list[str]:
    """Words that still mix Latin letters with another script's: look-alikes the table does
    not know, which a model may read as a condition."""
    found = []
    for word in re.findall(r"\w+", text):
        scripts = {unicodedata.name(char, "?").split()[0] for char in word if char.isalpha()}
        if "LATIN" in scripts and len(scripts) > 1:
            found.append(word)
    return found


def words(text: str) -> list[str]:
    """The words and numbers of ``text`` (read as :func:`readable` gives it)."""
    return _WORD.findall(readable(text))


def conditions(text: str) -> list[str]:
    """The words, word pairs and marks of ``text`` that state a condition, a threshold or a
    cause, in order (not the day a turn is about: "today" compares nothing)."""
    text = readable(text)
    # A hyphenated word is read whole and in parts ("big-ticket" says "big").
    lowered = [part for word in words(text) for part in _parts(word.lower())]
    found = [word for word in lowered if word in _CONDITION_WORDS]
    found += [" ".join(pair) for pair in pairwise(lowered) if pair in _CONDITION_PAIRS]
    found += [symbol for symbol in _SYMBOLS if symbol in text]
    return found + _mixed_scripts(text)


def _parts(word: str) -> list[str]:
    return [word, *word.split("-")] if "-" in word else [word]


def choices(text: str) -> list[str]:
    """The words of a request that offer alternatives ("Paris or Berlin", "whichever")."""
    return [word for word in (w.lower() for w in words(text)) if word in _CHOICE_WORDS]


def numbers(text: str) -> list[str]:
    """The numbers of ``text``: each run of digits joined by separators without a letter
    ("2025-07-08", "14:30", "1,000.5" are one number each), and numbers in words.

    Example:
        >>> numbers("Pay 300,wire:500 on 2025-07-08, five hundred max")
        ['300', '500', '2025-07-08', 'five', 'hundred']
    """
    text = readable(text)
    runs: list[tuple[int, int]] = []
    for figure in read_figures(text):
        if runs and figure.start == runs[-1][1] + 1 and text[runs[-1][1]] in _JOINERS:
            runs[-1] = (runs[-1][0], figure.end)
        else:
            runs.append((figure.start, figure.end))
    found = [text[start:end] for start, end in runs]
    return found + [word for word in (w.lower() for w in words(text)) if is_number_word(word)]
