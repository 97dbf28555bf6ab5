"""Word problems in German and Portuguese: what the family reads of them, and what it refuses.

A story in another language with other numbers is the same computation: its answer's
calculations are re-run like an English one's. What the family cannot read there is the
words: it vouches for a word of a re-instantiated step only when the story itself has it (in
one of its inflected forms) or it is one of the language's function and narration words, and
it never re-instantiates a story with a word that compares, chooses, decides, states an
outcome, or places a clock time or a date (closed lists, ``data/languages.toml``). Numbers
written with a decimal comma or a dot between thousands ("2,5", "1.200") read differently in
English, so a story or an answer with one is not re-instantiated either. A language the family
does not read at all is never recognised: the model answers.

Example:
    >>> language_of("Anna hat 12 Äpfel und isst 3 davon. Wie viele Äpfel bleiben übrig?")
    'de'
    >>> deciding_word("Wer hat mehr Äpfel, Anna oder Ben?", "de")
    'wer'
"""

from __future__ import annotations

import functools
import re
import tomllib
from fractions import Fraction
from importlib import resources
from typing import Any

from text_to_num import text2num

from stepcache_integrations.core.text.memo import text_memo
from stepcache_integrations.core.text.quantities import Quantity
from stepcache_integrations.core.text.stated import is_presentation_word

__all__ = [
    "READ",
    "asks_in_another_language",
    "deciding_word",
    "foreign_ages",
    "foreign_part_of",
    "foreign_percent",
    "foreign_periods",
    "foreign_quantities",
    "foreign_rate_period",
    "foreign_share_question",
    "foreign_time_unit",
    "foreign_unvouched",
    "language_of",
    "named_in",
    "reads_numbers_otherwise",
]

#: The languages besides English whose stories the family re-instantiates.
READ = ("de", "pt")
_WORD = re.compile(r"[^\W\d_]+")
# "2,5", "3,75" (a decimal comma) and "1.200" (a dot between thousands).
_OTHER_NOTATION = re.compile(r"\d,\d{1,2}(?!\d)|\d\.\d{3}(?!\d)")


@functools.cache
def _lexicon() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/languages.toml").read_text("utf-8")
    return tomllib.loads(text)


@functools.cache
def _words(language: str, key: str) -> frozenset[str]:
    return frozenset(_lexicon()[language].get(key, "").split())


@functools.cache
def _questions(language: str) -> re.Pattern[str]:
    alternatives = "|".join(
        re.escape(part.strip()).replace(r"\ ", r"\s+")
        for part in _lexicon()[language]["questions"].split("|")
        if part.strip()
    )
    return re.compile(rf"(?i)(?<![\w])(?:{alternatives})(?![\w])")


@text_memo(max_chars=400_000)
def language_of(text: str) -> str:
    """``"de"`` or ``"pt"`` when most of ``text``'s common words are of that language, else
    ``"en"`` (the family's reading of any other language is refused elsewhere: it asks no
    question the family recognises).

    Example:
        >>> language_of("Ana tem 12 maçãs e come 3 delas. Quantas maçãs sobram?")
        'pt'
        >>> language_of("Ana has 12 apples and eats 3. How many are left?")
        'en'
    """
    words = [word.lower() for word in _WORD.findall(text)]
    counts = {
        language: sum(word in _words(language, "stopwords") for word in words)
        for language in ("en", *READ)
    }
    best = max(READ, key=lambda language: counts[language])
    return best if counts[best] >= 2 and counts[best] > counts["en"] else "en"


def asks_in_another_language(request: str) -> bool:
    """Whether ``request`` asks a question of a word problem in German or Portuguese ("Wie
    viele ...?", "Quantas ...?").

    Example:
        >>> asks_in_another_language("Wie viele Äpfel bleiben übrig?")
        True
    """
    language = language_of(request)
    return language in READ and _questions(language).search(request) is not None


def deciding_word(text: str, language: str, request: str = "") -> str | None:
    """The first word of ``text`` that compares, chooses, decides, states an outcome or
    places a time or a date, in ``language`` (``None``: none); a modal verb the ``request``
    asks with itself is no such word ("Wie viele Wochen muss Tim sparen?")."""
    deciding = _words(language, "deciding")
    asked = {w.lower() for w in _WORD.findall(request)} & _words(language, "modals")
    return next((w.lower() for w in _WORD.findall(text) if w.lower() in deciding - asked), None)


def named_in(text: str, language: str) -> int:
    """How many capitalised words of ``text`` may name someone, in a language that writes
    its nouns with capitals too: not one after a determiner, a preposition with an article
    or a number ("am Samstag", "48 Gläser").

    Example:
        >>> named_in("Lena und Tim teilen 12 Äpfel am Samstag. Die Oma backt.", "de")
        3
    """
    determiners = _words(language, "determiners")
    found: set[str] = set()
    previous = ""
    for match in re.finditer(r"[^\W_]+", text):
        word = match.group()
        named = word[0].isupper() and not word.isupper() and not previous.isdigit()
        if named and previous.lower() not in determiners:
            found.add(word)
        previous = word
    return len(found)


@functools.cache
def _time_words(key: str) -> dict[str, str]:
    """``key``'s table of every language read (``time_units`` or ``periods``): each word
    with the pint unit it names."""
    return {
        word: unit
        for language in READ
        for unit, words in _lexicon()[language].get(key, {}).items()
        for word in words.split()
    }


def foreign_time_unit(word: str) -> str | None:
    """The pint unit of time a German or Portuguese word names ("Stunden" -> "hour",
    "minutos" -> "minute"); ``None`` for any other word.

    Example:
        >>> foreign_time_unit("Stunden"), foreign_time_unit("dias"), foreign_time_unit("Äpfel")
        ('hour', 'day', None)
    """
    return _time_words("time_units").get(word.lower())


def foreign_periods(text: str, language: str | None = None) -> frozenset[str]:
    """The periods of time a German or Portuguese ``text`` names one of ("am Tag", "por
    semana", "täglich"): the pint units, for the bounds of the times the story counts.
    ``language``: the story's, when ``text`` is a part of it too short to tell.

    Example:
        >>> sorted(foreign_periods("Ben schläft 8 Stunden am Tag. Wie viele Stunden sind es?"))
        ['day']
        >>> sorted(foreign_periods("Em cada hora, a Lia lê 20 minutos."))
        ['hour']
    """
    if (language or language_of(text)) not in READ:
        return frozenset()
    periods = _time_words("periods")
    return frozenset(periods[w.lower()] for w in _WORD.findall(text) if w.lower() in periods)


_RATE_WORDS_MOST = 3  # "in jeder Stunde", "horas de sono por dia"
# A clause ends at a mark, not at the dot of an abbreviation ("6 Std. pro Tag").
_CLAUSE_END = re.compile(r"[,;:!?\n]|\.(?!\s*[^\W\d_A-ZÀ-Þ])")


def foreign_rate_period(after: str, language: str) -> str | None:
    """The period a time stated in ``language`` lies within, read from ``after``, the text
    right after its number: its unit, then at most three words of the language's rates (one
    of them may be any word: the thing, "Schlaf"), then a word that names one period ("6
    Stunden pro Tag" -> "day", "20 minutos a cada hora" -> "hour", "2 Stunden täglich" ->
    "day"), within one clause; ``None`` otherwise (pint units).

    Example:
        >>> foreign_rate_period(" dias por semana. Quantas horas?", "pt")
        'week'
        >>> foreign_rate_period(" Stunden Schlaf in jeder Nacht", "de")
        'day'
        >>> foreign_rate_period(" Stunden in 5 Tagen", "de") is None
        True
    """
    if language not in READ:
        return None
    clause = _CLAUSE_END.split(after, maxsplit=1)[0]
    words = [w.lower() for w in re.findall(r"[^\W_]+", clause)]
    if re.match(r"[\s-]*[^\W\d_]", clause) is None or len(words) < 2:
        return None  # no unit right after the number
    periods = _language_periods(language)
    rates = _words(language, "rates")
    free = 1  # the thing the time is spent on ("Stunden Schlaf pro Nacht")
    for word in words[1 : 2 + _RATE_WORDS_MOST]:
        if word in periods:
            return periods[word]
        if word not in rates:
            if not free or not word.isalpha():
                return None  # another number: "Stunden in 5 Tagen" is no rate
            free -= 1
    return None


@functools.cache
def _language_periods(language: str) -> dict[str, str]:
    return {
        word: unit
        for unit, words in _lexicon()[language].get("periods", {}).items()
        for word in words.split()
    }


def foreign_part_of(between: str, language: str) -> bool:
    """Whether ``between``, the text between two numbers of a story in ``language``, makes
    the first a part of the second ("40 von 50", "40 das 50"): a word of the language's
    ``part_of`` and at most one determiner, nothing else.

    Example:
        >>> foreign_part_of(" von den ", "de"), foreign_part_of(" das ", "pt")
        (True, True)
        >>> foreign_part_of(" caixas de ", "pt")
        False
    """
    if language not in READ:
        return False
    words = between.lower().split()
    if not words or words[0] not in _words(language, "part_of"):
        return False
    rest = words[1:]
    return not rest or (len(rest) == 1 and rest[0] in _words(language, "determiners"))


@functools.cache
def _percent(language: str) -> re.Pattern[str]:
    phrases = "|".join(
        re.escape(part.strip()).replace(r"\ ", r"\s+")
        for part in _lexicon()[language].get("percent", "").split("|")
        if part.strip()
    )
    return re.compile(rf"(?i)\s*(?:{phrases})(?![\w])" if phrases else r"(?!)")


def foreign_percent(after: str, language: str) -> bool:
    """Whether ``after``, the text right after a number in ``language``, writes it as a share
    of 100 ("80 Prozent", "80 por cento").

    Example:
        >>> foreign_percent(" por cento das questões", "pt"), foreign_percent(" Fragen", "de")
        (True, False)
    """
    return language in READ and _percent(language).match(after) is not None


def foreign_share_question(text: str) -> tuple[bool, bool]:
    """Whether a German or Portuguese ``text`` asks for a share (a question of the language
    with a word of its ``shares``: "Wie viel Prozent ...?", "Que fração ...?"), and whether
    it asks in percent.

    Example:
        >>> foreign_share_question("O Rui acerta 40 de 50. Quantos por cento ele acerta?")
        (True, True)
        >>> foreign_share_question("Tim hat 3 Äpfel. Wie viele Äpfel hat er?")
        (False, False)
    """
    language = language_of(text)
    if language not in READ:
        return False, False
    asked = [s for s in re.split(r"(?<=[.!?])\s+", text) if _questions(language).search(s)]
    share = any({w.lower() for w in _WORD.findall(s)} & _words(language, "shares") for s in asked)
    percent = any(_percent(language).search(s) for s in asked)
    return share, share and percent


_AGE_REACH = 2  # "tem 70 anos", "anos ela terá"


def foreign_ages(text: str) -> bool:
    """Whether a German or Portuguese ``text`` counts years of an age: a word of years ("anos",
    "Jahre") within two words of one of the language's ``ages`` ("tem 70 anos", "quantos
    anos ela terá"). Over-reading costs only reuse: an age is held to a human life only where
    the cached value kept within it.

    Example:
        >>> foreign_ages("A avó Rosa tem 70 anos. Quantos anos terá ela daqui a 5 anos?")
        True
        >>> foreign_ages("O Rui poupa 50 reais por mês durante 3 anos. Quanto poupa?")
        False
    """
    language = language_of(text)
    if language not in READ:
        return False
    words = [w.lower() for w in re.findall(r"[^\W_]+", text)]
    years = {w for w, unit in _time_words("time_units").items() if unit == "year"}
    ages = _words(language, "ages")
    return any(
        word in years and ages & set(words[max(0, i - _AGE_REACH) : i + _AGE_REACH + 1])
        for i, word in enumerate(words)
    )


def reads_numbers_otherwise(text: str) -> bool:
    """Whether ``text`` writes a number with a decimal comma or a dot between thousands,
    which the family's reader reads the English way.

    Example:
        >>> reads_numbers_otherwise("Sie zahlt 2,50 €."), reads_numbers_otherwise("1 200 €")
        (True, False)
    """
    return _OTHER_NOTATION.search(text) is not None


@text_memo(max_chars=400_000)
def _stems(text: str, language: str) -> frozenset[str]:
    found: set[str] = set()
    for word in _WORD.findall(text):
        found |= _forms(word.lower(), language)
    return frozenset(found)


def _forms(word: str, language: str) -> set[str]:
    forms = {word}
    for ending in _words(language, "endings"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            forms.add(word[: len(word) - len(ending)])
    return forms


def foreign_unvouched(text: str, request: str, language: str, preface: bool = False) -> str | None:
    """Closed world, for a re-instantiated step of a story in ``language``: its first word
    that may depend on the new values (a deciding word) or that the family does not know
    (neither the story's own, in an inflected form, nor a function or narration word of the
    language); ``None`` when every word is vouched for. A ``preface`` (a step before the
    answer states any number) may also use the words that only present an answer ("Claro!",
    "Lösung": the shared presentation lexicon).

    Example:
        >>> story = "Anna hat 12 Äpfel und isst 3 davon. Wie viele Äpfel bleiben übrig?"
        >>> foreign_unvouched("Anna isst 3 Äpfel: 12 - 3 = 9. Es bleiben 9.", story, "de")
        >>> foreign_unvouched("Anna hat mehr: 12 - 3 = 9.", story, "de")
        "'mehr' compares, chooses or decides, and new values may change it"
    """
    deciding = _words(language, "deciding")
    function = _words(language, "function")
    story = _stems(request, language)
    deciding = deciding - ({w.lower() for w in _WORD.findall(request)} & _words(language, "modals"))
    for word in _WORD.findall(text):
        low = word.lower()
        if low in deciding:
            return f"'{word}' compares, chooses or decides, and new values may change it"
        if low in function or _forms(low, language) & story:
            continue
        if preface and is_presentation_word(low):
            continue
        return f"'{word}' is not a word the family knows to be independent of the values"
    return None


_MAX_NUMBER_WORDS = 5  # "vinte e cinco", "zweihundertdreiundvierzig"
_TOKEN_SPAN = re.compile(r"[^\W\d_]+")


@text_memo(max_chars=400_000)
def foreign_quantities(text: str, language: str) -> tuple[Quantity, ...]:
    """The numbers ``text`` writes in words of ``language`` ("zwölf", "vinte e cinco"), read
    with text2num, as quantities; "ein" or "um" (one, and "a") is an article, not one.

    Example:
        >>> [(q.text, int(q.value), q.unit) for q in foreign_quantities(
        ...     "Ana tem vinte e cinco maçãs e um cão.", "pt")]
        [('vinte e cinco', 25, 'maçãs')]
    """
    words = list(_TOKEN_SPAN.finditer(text))
    found: list[Quantity] = []
    i = 0
    while i < len(words):
        read = _longest_number(text, words, i, language)
        if read is None:
            i += 1
            continue
        end, value = read
        start, stop = words[i].start(), words[end - 1].end()
        unit = words[end].group().lower() if end < len(words) else None
        found.append(
            Quantity(Fraction(value), "number", text[start:stop], start, stop, unit, form="words")
        )
        i = end
    return tuple(found)


def _longest_number(
    text: str, words: list[re.Match[str]], at: int, language: str
) -> tuple[int, int] | None:
    """The longest run of words from ``at`` (joined as the text joins them, by spaces) that
    text2num reads as a number other than one: (the index after it, its value)."""
    for end in range(min(len(words), at + _MAX_NUMBER_WORDS), at, -1):
        span = text[words[at].start() : words[end - 1].end()]
        if any(not (gap.isspace()) for gap in _gaps(text, words, at, end)):
            continue
        try:
            value = text2num(span.lower(), language)
        except (ValueError, IndexError, KeyError):
            continue
        if value != 1:
            return end, value
    return None


def _gaps(text: str, words: list[re.Match[str]], at: int, end: int) -> list[str]:
    return [text[words[k].end() : words[k + 1].start()] for k in range(at, end - 1)]
