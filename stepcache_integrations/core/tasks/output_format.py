"""What output format a prompt asks for, shared by the task verifiers so they agree.

"Return the record as JSON" asks for JSON; "instead of a JSON object, solve ..." and "do not
return JSON" mention it only to rule it out. :func:`json_dismissals` finds the clauses that do
nothing else, so a task can read the request without them.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["JsonDismissal", "asks_for_json", "json_dismissals"]

_SCAN_CHARS = 20_000
_JSON_MENTION = re.compile(r"(?i)(?<![a-z])json(?![a-z])")
_NEGATION = re.compile(
    r"(?i)\b(?:not|no|never|without|instead\s+of|rather\s+than|forget|skip)\b|n't"
)


def asks_for_json(request: str) -> bool:
    """``True`` when some mention of JSON in ``request`` is not negated.

    Example:
        >>> asks_for_json("Return only a JSON object with keys a and b.")
        True
        >>> asks_for_json("Instead of a JSON object, solve 2x = 4 for x.")
        False
    """
    head = request[:_SCAN_CHARS]
    for match in _JSON_MENTION.finditer(head):
        # Only the words just before the mention, within its clause, can negate it.
        before = re.split(r"[.!?;\n]", head[max(0, match.start() - 40) : match.start()])[-1]
        if not _NEGATION.search(before):
            return True
    return False


# --- clauses that only rule JSON out ---------------------------------------------------------
#
# A closed grammar: a frame that dismisses ("Instead of ...,", "Forget ...", "do not return
# ...:"), JSON named as the output, and at most a short description of that JSON (what it is
# for, its keys). Everything the frame encloses describes the output that is ruled out, so it
# asks nothing of the answer that is wanted. A description word that could still be about the
# wanted answer ("Instead of a JSON object with the final answer, ..."), or join another
# request to it ("... and in words"), leaves the clause to be read as a request.

# Words that may say what the wanted answer is or how it is given.
_ANSWER_WORDS = frozenset(
    """answer answers result results solution solutions solve solved solving value values
    step steps form forms format formats formatted final line lines round rounded rounding
    decimal decimals fraction fractions fractional place places precision precise exact
    exactly approximate approximately integer integers whole simplify simplified simplest
    explain explained explanation explanations word words written digit digits unit units
    percent percentage scientific notation sign negative positive same like usual previous
    earlier above below language variable unknown equation equations""".split()  # noqa: SIM905
)
# Words that say who the output is for or in what language ("for spanish readers", "for a
# five-year-old", "for my german homework"): that reader is the wanted answer's reader too.
_READER_WORDS = frozenset(
    """reader readers speaker speakers student students pupil pupils kid kids child children
    beginner beginners learner learners novice novices adult adults audience class classroom
    teacher teachers tutor professor homework exam quiz school college university grade
    grader year years old toddler baby mom dad mother father parent parents grandma grandpa
    friend friends boss manager native foreign language languages translation english french
    spanish german italian portuguese dutch russian chinese mandarin cantonese japanese korean
    arabic hindi bengali urdu turkish polish swedish norwegian danish finnish greek hebrew
    persian farsi thai vietnamese indonesian malay czech hungarian romanian ukrainian catalan
    latin swahili tagalog filipino""".split()  # noqa: SIM905
)
# Words that join another request or condition to the description.
_JOINING_WORDS = frozenset(
    """and or but nor then also plus as in into on at to by with without from than instead
    rather except only just so if when while because after before using via per where which
    who whose for not no never dont don't do does please show give write""".split()  # noqa: SIM905
)

_KIND = (
    r"(?:(?:an?|the|any)\s+)?json(?:\s+(?:object|objects|array|document|record|output|reply"
    r"|response|format|data|string))?"
)
_TOPIC_WORD = r"[a-z][a-z'\u2019-]*"
_TOPIC = rf"{_TOPIC_WORD}(?:\s+{_TOPIC_WORD}){{0,5}}"
_KEY = r"\"[a-z_][a-z_ -]{1,30}\"|`[a-z_][a-z_ -]{1,30}`|[a-z_]{2,30}"


def _keys(group: str) -> str:
    return (
        rf"with\s+the\s+(?:keys|fields|properties)\s+(?P<{group}>(?:{_KEY})"
        rf"(?:\s*,\s*(?:{_KEY}))*(?:,?\s+and\s+(?:{_KEY}))?)"
    )


_DESCRIBED = (
    rf"(?:\s+(?:for|about|describing|representing|of)\s+(?P<topic>{_TOPIC}))?"
    rf"(?:\s+{_keys('keys')})?"
)
# ASCII only: a case-blind "[a-z]" would otherwise also match letters that fold to ASCII ones
# ("\u017f", a long s, folds to "s"), which the word checks below would not see as one word.
_DISMISSALS = (
    # "Instead of a JSON object for a recipe, solve ..."
    re.compile(rf"(?ai)(?:instead\s+of|rather\s+than)\s+{_KIND}{_DESCRIBED}\s*,"),
    # "Forget the JSON object for a recipe. What is x if ...?"
    re.compile(
        rf"(?ai)(?:forget|skip|ignore|never\s+mind)(?:\s+about)?\s+{_KIND}{_DESCRIBED}"
        r"\s*(?:[.!;:]|$)"
    ),
    # 'For a recipe with the keys "dish" and "servings", do not return JSON: solve ...'
    re.compile(
        rf"(?ai)(?:for\s+(?P<for_topic>{_TOPIC})\s+{_keys('for_keys')}\s*,\s*)?"
        r"(?:do\s+not|don['\u2019]t|never)\s+(?:return|give|write|produce|output|send|use|make"
        r"|create|reply\s+with|respond\s+with|answer\s+(?:with|in))\s+(?:me\s+)?"
        rf"{_KIND}{_DESCRIBED}\s*[:;,.]"
    ),
)
_DESCRIPTIONS = ("topic", "keys", "for_topic", "for_keys")
_SENTENCE_END = re.compile(r"(?:^|[.!?:;\n])\s*$")
_QUOTED = re.compile(r"\"[^\"]*\"|`[^`]*`")


def _only_describes(match: re.Match[str]) -> bool:
    """Whether the description words of a dismissal are plain words of a topic or key list."""
    for group in _DESCRIPTIONS:
        text = match.groupdict().get(group)
        if not text:
            continue
        if group.endswith("topic") and any(ch.isupper() for ch in text):
            # A name, a language or a nationality ("for French readers", "for my German
            # homework") may be the wanted answer's audience or language too.
            return False
        words = re.findall(r"[a-z'\u2019-]+", _QUOTED.sub(" ", text.lower()))
        if group.endswith("keys"):  # the "and" before a list's last key
            words = [word for word in words if word != "and"]
        for position, word in enumerate(words):
            # Each part of a compound may say how the answer is given ("spelled-out-in-words");
            # a joining word is a word of its own ("to-do" joins nothing).
            parts = word.split("-")
            if word in _JOINING_WORDS or any(part in _ANSWER_WORDS for part in parts):
                return False
            if group.endswith("topic") and any(part in _READER_WORDS for part in parts):
                return False
            if len(word) < 2 and not (position == 0 and word == "a"):
                return False  # a one-letter name: the variable, perhaps
    return True


class JsonDismissal(NamedTuple):
    """A clause that only rules JSON out: its span, and whether it describes the JSON (a topic
    or keys), which what follows may point back to ("..., give me that").

    Example:
        >>> json_dismissals("Forget the JSON. Solve 2x = 4.")
        (JsonDismissal(start=0, end=16, described=False),)
    """

    start: int
    end: int
    described: bool


def json_dismissals(request: str) -> tuple[JsonDismissal, ...]:
    """The clauses of ``request`` that only rule JSON out, each starting a sentence ("Instead
    of a JSON object for a recipe,", "Forget the JSON object.", "do not return JSON:").

    Example:
        >>> text = "Instead of a JSON object for a recipe, solve 2x = 4 for x."
        >>> [(text[d.start : d.end], d.described) for d in json_dismissals(text)]
        [('Instead of a JSON object for a recipe,', True)]
        >>> json_dismissals("Instead of a JSON object with the final answer, solve 2x = 4.")
        ()
    """
    head = request[:_SCAN_CHARS]
    found: list[JsonDismissal] = []
    for pattern in _DISMISSALS:
        for match in pattern.finditer(head):
            if _SENTENCE_END.search(head[: match.start()]) and _only_describes(match):
                described = any(match.groupdict().get(group) for group in _DESCRIPTIONS)
                found.append(JsonDismissal(match.start(), match.end(), described))
    return tuple(sorted(found))
