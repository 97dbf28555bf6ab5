"""Text that may make a tool call depend on a value: conditions, qualifiers, unexplained words.

When a cached call is re-instantiated for a new value, the rest of the call is kept: which
tool, its other arguments, the turn's text. That is sound only where nothing says the value
matters. This module reads the texts around a call (the request, the earlier turns, the tools'
descriptions, the text beside the calls) for what says it may:

- :func:`conditions`: words and marks that state a condition or a threshold ("if", "only",
  "above", "before", "at least", "<"), and, in a description, any number (a threshold);
- :func:`choices`: words of a request that offer alternatives ("or", "either"), and
  :func:`turn_conditions`: the conditions a request or another turn states;
- :func:`qualifiers`: words of a description that may narrow a tool to some values: a proper
  name or an acronym inside a sentence ("for US cities"), a quoted or back-quoted name, the
  name of another tool;
- :func:`unexplained`: words of a text that neither the request, nor the tools, nor plain
  narration ("Let me check ...") account for: information the model added, which may follow
  from the value ("Paris, the French capital");
- :func:`temporal`: whether a value is a date or a time (its place relative to today, past
  or future, may choose the tool, and nothing tells the cache what today is);
- :func:`split_signature`: a description that begins with the tool's Python signature (as
  LlamaIndex writes them) as that signature and the prose after it; :func:`signature_limits`
  reads the signature for the constraints it shows (``Le(le=500)``, a default value).

The lists err on the side of seeing a condition: a word here that states none only costs a
model call. Every text is read in its NFKC form without invisible format characters, so that
full-width letters or a zero-width space inside a word ("i\u200bf") hide nothing.

Example:
    >>> conditions("Amounts above 500 must use wire_transfer.")
    ['above', 'must', '500']
    >>> conditions("The current weather in a city.")
    []
    >>> qualifiers("Current weather for US cities.", tool_names=())
    ['US']
    >>> unexplained("Let me check the weather in Berlin.", known=["weather in Berlin?"])
    []
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from itertools import pairwise

__all__ = [
    "choices",
    "conditions",
    "identifier_words",
    "name_qualifiers",
    "names",
    "numbers",
    "qualifiers",
    "readable",
    "signature_limits",
    "split_signature",
    "temporal",
    "turn_conditions",
    "unexplained",
    "words",
]

_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019]*(?:-[A-Za-z]+)*|\d+(?:[.,:/-]\d+)*")
_IDENTIFIER_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*|\(\s*|[-*]\s+)$")
_SYMBOLS = ("<", ">", "\u2264", "\u2265", "\u2260", "=", "%")
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_TEMPORAL = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}|\d{4}/\d{1,2}/\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}"
    r"|\d{1,2}:\d{2}|\b(?:19|20)\d{2}\b"
    rf"|\b(?:{_MONTHS}|{_WEEKDAYS})\b",
    re.IGNORECASE,
)
# A constraint a Python signature shows: a number (a bound, a default), or annotated
# metadata (``Le(le=500)``, ``MaxLen(...)``, a pattern).
_SIGNATURE_LIMIT = re.compile(r"\d|metadata=\[(?!\])|pattern|Literal\[")

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
        "older", "newer", "recent", "today", "tomorrow", "yesterday",
        # scale and locality
        "large", "small", "big", "huge", "tiny", "high", "low", "long", "short", "cheap",
        "expensive", "premium", "local", "domestic", "international", "foreign",
        "overseas", "abroad", "nearby", "remote",
        # causal links
        "so", "because", "therefore", "thus", "hence", "means", "due",
    }
)  # fmt: skip
_HIDDEN = frozenset({"Cf", "Mn"})  # invisible format characters, marks on letters
_RELATIVE_DAYS = frozenset({"today", "tomorrow", "yesterday"})
# A number written in words is a threshold in a description as much as one in digits.
_NUMBER_WORDS = frozenset(
    {
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
        "eighty", "ninety", "hundred", "thousand", "million", "billion", "dozen", "half",
        "twice", "double", "triple",
    }
)  # fmt: skip
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
# Parts of a tool's or a parameter's name that narrow it to a region ("weather_us").
_REGIONS = frozenset({"us", "usa", "uk", "eu", "emea", "apac", "latam", "intl"})
# Acronyms that name a data format, not a group of values.
_TECHNICAL = frozenset({"I", "ID", "IDs", "URL", "URLs", "URI", "API", "JSON", "HTTP", "HTTPS"})
# Plain narration beside a tool call: function words and the verbs of looking things up.
_NARRATION = frozenset(
    {
        "a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "i", "i'm",
        "i'll", "i've", "i'd", "me", "my", "we", "we'll", "us", "our", "you", "your",
        "you're", "they", "them", "their", "there", "here", "is", "are", "was", "were", "be",
        "been", "being", "am", "do", "does", "did", "have", "has", "had", "will", "would",
        "shall", "should", "can", "could", "may", "might", "to", "of", "in", "on", "at",
        "for", "from", "with", "by", "about", "into", "via", "and", "but", "not", "let",
        "let's", "now", "then", "first", "next", "just", "also", "please", "okay", "ok",
        "sure", "right", "what", "which", "who", "how", "where", "some", "any", "all",
        "each", "both", "up", "one", "check", "checking", "look", "looking", "get",
        "getting", "fetch", "fetching", "find", "finding", "search", "searching", "call",
        "calling", "use", "using", "run", "running", "retrieve", "retrieving", "query",
        "querying", "help", "see", "tool", "tools", "function", "result", "results",
        "information", "details", "request", "that's", "what's", "go", "going", "try",
        "current", "currently",
    }
)  # fmt: skip


def temporal(text: str) -> bool:
    """Whether ``text`` is, or holds, a date or a time ("2025-06-01", "14:30", "June",
    "Friday", "2024").

    Example:
        >>> temporal("2025-06-01"), temporal("on Friday"), temporal("Paris")
        (True, True, False)
    """
    return bool(_TEMPORAL.search(readable(text)))


def split_signature(description: str, name: str) -> tuple[str, str]:
    """``(signature, prose)``: a leading line ``name(...)`` (a Python signature, as
    LlamaIndex begins a ``FunctionTool``'s description with) apart from the rest; ``("",
    description)`` when there is none.

    Example:
        >>> split_signature("f(x: int) -> str\\nDoubles x.", "f")
        ('f(x: int) -> str', 'Doubles x.')
    """
    first, _, rest = readable(description).partition("\n")
    if name and first.startswith(name + "(") and ")" in first:
        return first, rest
    return "", description


def signature_limits(signature: str) -> list[str]:
    """What in a Python signature narrows its parameters' values: numbers (bounds and
    defaults), annotated metadata, patterns, ``Literal`` choices."""
    return [match.group(0) for match in _SIGNATURE_LIMIT.finditer(readable(signature))]


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


def _stem(word: str) -> str:
    # A light stem, applied to both sides of a comparison ("cities" and "city" meet).
    word = word.lower().replace("\u2019", "'")
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def conditions(text: str, *, numbers: bool = True) -> list[str]:
    """The words, word pairs and marks of ``text`` that state a condition or a threshold,
    in order; with ``numbers``, every number too (in a tool's description a number is a
    threshold until shown otherwise; in a request it is a value)."""
    text = readable(text)
    # A hyphenated word is read whole and in parts ("big-ticket" says "big").
    lowered = [part for word in words(text) for part in _parts(word.lower())]
    found = [word for word in lowered if word in _CONDITION_WORDS]
    found += [" ".join(pair) for pair in pairwise(lowered) if pair in _CONDITION_PAIRS]
    found += [symbol for symbol in _SYMBOLS if symbol in text]
    found += _mixed_scripts(text)
    if numbers:
        found += [word for word in lowered if word[0].isdigit() or word in _NUMBER_WORDS]
    return found


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
    found = re.findall(r"\d+(?:[-/:.,]\d+)*", text)
    return found + [word for word in (w.lower() for w in words(text)) if word in _NUMBER_WORDS]


def turn_conditions(text: str) -> list[str]:
    """The conditions a conversation turn (a request, a system prompt) states: as
    :func:`conditions` without numbers (there they are values), and without the days a turn
    is about ("today", "tomorrow": they compare nothing; a date that follows from them is
    not spelled out, and a date is rebound only into pure tools)."""
    return [word for word in conditions(text, numbers=False) if word not in _RELATIVE_DAYS]


def identifier_words(name: str) -> str:
    """An identifier as words: ``get_future_weather``, ``maxAmount500`` ->
    ``"get future weather"``, ``"max amount 500"``."""
    return " ".join(part.lower() for part in _IDENTIFIER_PART.findall(readable(name)))


def qualifiers(text: str, *, tool_names: Iterable[str]) -> list[str]:
    """The parts of a description that may narrow its tool to some values: a capitalised
    word inside a sentence or an acronym ("US", "EU", "YYYY-MM-DD"), a quoted or back-quoted
    name, and the name of one of ``tool_names`` (another tool)."""
    text = readable(text)
    found: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group(0)
        if word in _TECHNICAL or not any(char.isupper() for char in word):
            continue
        acronym = sum(char.isupper() for char in word) > 1
        if acronym or not _SENTENCE_START.search(text[: match.start()]):
            found.append(word)
    found += re.findall(r"`[^`]+`|\"[^\"]+\"|(?<!\w)'[^'\n]+'(?!\w)", text)
    found += [name for name in tool_names if names(text, name)]
    return found


def name_qualifiers(name: str) -> list[str]:
    """The parts of an identifier that narrow it to some values: a region ("weather_us")."""
    return [part for part in identifier_words(name).split() if part in _REGIONS]


def names(text: str, name: str) -> bool:
    """Whether ``text`` names the tool ``name`` (as a whole identifier)."""
    pattern = rf"(?<!\w){re.escape(name)}(?!\w)"
    return bool(name) and re.search(pattern, readable(text)) is not None


def unexplained(text: str, *, known: Iterable[str]) -> list[str]:
    """The words of ``text`` that no text of ``known`` (the request, the tools' names and
    descriptions) has and that are not plain narration, in order."""
    vocabulary = {_stem(word) for word in _NARRATION}
    for source in known:
        vocabulary.update(_stem(word) for word in words(source))
        vocabulary.update(_stem(part) for part in identifier_words(source).split())
    return [word for word in words(text) if _stem(word) not in vocabulary]
