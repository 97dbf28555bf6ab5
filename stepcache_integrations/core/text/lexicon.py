"""The word lists behind "the same request": small, explicit, and each one documented.

Every list here is closed: a word that is not listed is never neutral. Lists are in the
lower-case comparison form (straight apostrophes).
"""

from __future__ import annotations

import re

__all__ = [
    "CAPITONYMS",
    "CONTRACTIONS",
    "GREETINGS",
    "LITERAL_TRIGGERS",
    "NEGATORS",
    "NEUTRAL_WORDS",
    "OPENERS",
    "REQUEST_VERBS",
    "THANKS",
    "WH_STARTS",
    "expand_contraction",
]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# -- politeness and filler -------------------------------------------------------------------

# A greeting is neutral when it opens a sentence and stands alone ("Hi!", "Hello,\n", "Hi,
# what is ..."): a greeting carries no instruction.
GREETINGS: tuple[tuple[str, ...], ...] = (
    ("hi", "there"),
    ("hello", "there"),
    ("hey", "there"),
    ("good", "morning"),
    ("good", "afternoon"),
    ("good", "evening"),
    ("hi",),
    ("hello",),
    ("hey",),
    ("greetings",),
)

# Thanks are neutral when they form a clause of their own ("Thanks!", ", thank you."): they
# ask for nothing. "Write a thank you note" keeps them (not a clause of their own).
THANKS: tuple[tuple[str, ...], ...] = (
    ("thank", "you", "in", "advance"),
    ("thank", "you", "very", "much"),
    ("thank", "you", "so", "much"),
    ("please", "and", "thank", "you"),
    ("please", "and", "thanks"),
    ("thanks", "in", "advance"),
    ("thanks", "a", "lot"),
    ("thanks", "so", "much"),
    ("many", "thanks"),
    ("thank", "you"),
    ("thanks",),
    ("thx",),
)

# A polite opener in front of a request verb asks for the same thing as the bare verb:
# "Could you list the primes" is "List the primes". Only before a listed verb, so "Can you
# see Mars tonight?" keeps its words. (Contractions are expanded first: "I'd" is "I would".)
OPENERS: tuple[tuple[str, ...], ...] = (
    ("i", "would", "like", "you", "to"),
    ("i", "want", "you", "to"),
    ("i", "need", "you", "to"),
    ("can", "you", "help", "me"),
    ("could", "you", "help", "me"),
    ("would", "you", "help", "me"),
    ("please", "help", "me"),
    ("help", "me"),
    ("can", "you"),
    ("could", "you"),
    ("would", "you"),
    ("will", "you"),
)

# "I'd like a list of ..." asks for "a list of ...".
WANT_OBJECT: tuple[str, ...] = ("i", "would", "like")
DETERMINERS = frozenset({"a", "an", "the", "some"})

# Words that start a question or statement after a greeting ("Hi, what is ...").
WH_STARTS = frozenset(
    {
        "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are",
        "do", "does", "did", "can", "could", "would", "will", "should", "i", "please",
    }
)  # fmt: skip

# Verbs that a polite opener may precede. Only the opener is neutral: the verb is kept.
# Verbs that mostly ask whether something is possible after "can you" ("Can you get sick
# from ...", "Can you go to jail for ...", "Can you build muscle without ...") are left out.
REQUEST_VERBS = _words(
    """
    advise analyse analyze answer brainstorm calculate chart clarify classify compare compile
    compose compute convert correct count create critique debug decode define demonstrate
    derive describe design detail determine discuss draft draw edit elaborate encode estimate
    evaluate explain extract find fix format generate give grade help identify illustrate
    implement list make name optimise optimize organise organize outline paraphrase parse
    plan plot propose proofread provide quiz rank rate recommend refactor remind rephrase
    repeat reply research respond review rewrite say search show simplify simulate sketch
    solve sort spell suggest summarise summarize tabulate teach tell transcribe translate
    verify visualise visualize walk write
    """
)

# -- where words are data, not instructions ----------------------------------------------------

# After one of these words, the rest of the request may be text to transform or inspect
# ("Translate: thank you", "Count the capital letters in Boston"): from there on, case,
# punctuation, filler and contractions all count.
LITERAL_TRIGGERS = _words(
    """
    abbreviate abbreviation abbreviations acronym acronyms alphabetical alphabetically
    alphabetize alphabetise anagram anagrams capitalise capitalised capitalize
    capitalized capitalisation capitalization case char chars character characters
    consonant consonants correct decode echo encode encrypt decrypt letter letters lowercase
    palindrome palindromes paraphrase phrase phrases pronounce proofread punctuate
    punctuation quote quoted repeat rephrase reverse reword rewrite rhyme rhymes say said
    saying says sentence spell spelled spelling spells spelt string strings
    syllable syllables text transcribe translate translated translates translating
    translation transliterate type typed uppercase vowel vowels word grammar
    grammatical
    """
)

# -- case ------------------------------------------------------------------------------------

# Words whose capitalised form names something else (a language, tool, brand, place, month,
# person or party): "rust"/"Rust", "polish"/"Polish", "may"/"May", "jobs"/"Jobs". Their case
# is meaning. The list is generous on purpose: listing a word costs at most a model call.
CAPITONYMS = _words(
    """
    access alexa alpine amazon amber angular ant apple arch arrow art atom audition august
    aurora azure baker bath bear bell bill black blender block bob box brave brown buffalo
    bun bush cargo celery chad chase chef chile china chrome citizen confluence conservative
    cook cork crystal cursor dart dawn delta democrat democratic discord dodge dove eagle
    earth echo eclipse edge elastic ember eve excel express faith fiat fisher flask ford fox
    frank gap gates gemini georgia go god grace green guinea herb hope house hunter
    illustrator iris ivy jack jade jaguar java jersey job jobs jordan joy julia june king
    kindle labour labor lambda lent liberal lily lincoln lisp logo lotus march mark mars
    maven maya may mercurial mercury meta miller mint mobile moon nano next nice node notion
    office opera oracle orange outlook pandas pascal pat pearl phoenix pillow polish potter
    premiere puma puppet python rails raspberry ray react reading republican rose ruby rust
    safari sage salt seat senate shell signal sketch slack smart smith snap spark split
    square stripe sublime subway sue summer sun swan swift target teams telegram tesla
    threads tide titan trump turkey union unity vision visa white will windows wolf word
    young zoom
    """
)

# -- contractions ------------------------------------------------------------------------------

CONTRACTIONS: dict[str, tuple[str, ...]] = {
    "can't": ("can", "not"),
    "cannot": ("can", "not"),
    "won't": ("will", "not"),
    "shan't": ("shall", "not"),
    "let's": ("let", "us"),
    "i'm": ("i", "am"),
}
# "X's" is "X is" only after these words; elsewhere "'s" is a possessive ("Bob's").
_S_IS = _words(
    """
    everyone everything he here how it nothing she someone something that there this what
    when where who why
    """
)
_NT_STEMS = _words(
    """
    are could did does do had has have is might must need should was were would
    """
)
_SUFFIXES = {"'re": "are", "'ve": "have", "'ll": "will", "'d": "would"}
_CONTRACTION = re.compile(r"^([a-z]+)('[a-z]+)$")


def expand_contraction(word: str) -> tuple[str, ...] | None:
    """The expanded words of a contraction ("what's" -> what, is), else ``None``.

    ``word`` is in comparison form (lower case, straight apostrophe). The negation survives:
    "don't" -> do, not.
    """
    known = CONTRACTIONS.get(word)
    if known is not None:
        return known
    match = _CONTRACTION.match(word)
    if match is None:
        return None
    stem, suffix = match.groups()
    if suffix == "'t" and stem.endswith("n") and stem[:-1] in _NT_STEMS:
        return (stem[:-1], "not")
    if suffix == "'s" and stem in _S_IS:
        return (stem, "is")
    if suffix in _SUFFIXES:
        return (stem, _SUFFIXES[suffix])
    return None


# -- polarity ----------------------------------------------------------------------------------

# Negators: never neutral, never absorbed by a task family. Includes apostrophe-less forms.
NEGATORS = _words(
    """
    not no never none nobody nothing nowhere neither nor without cannot non nope nay
    hardly barely scarcely seldom rarely except excluding unless lacking lack lacks absent
    aint arent cant couldnt didnt doesnt dont hadnt hasnt havent isnt mustnt neednt shant
    shouldnt wasnt werent wont wouldnt
    """
)

# -- the neutral words -------------------------------------------------------------------------


def _phrase_words(*groups: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    return frozenset(word for group in groups for phrase in group for word in phrase)


# Every word that is neutral in some position: please, kindly, the words of the greetings,
# thanks and openers. Outside those positions each of them is meaning ("a", "you", "to").
NEUTRAL_WORDS = _phrase_words(GREETINGS, THANKS, OPENERS, (WANT_OBJECT,)) | {"please", "kindly"}
