"""Embedders: text to unit vectors. The default needs no model and no network."""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from stepcache_integrations.core.text.memo import TextMemo
from stepcache_integrations.core.text.quantities import known_unit, read_quantities

__all__ = ["Embedder", "StructuralEmbedder", "normalise_rows"]

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns texts into a ``(len(texts), dim)`` float32 array.

    Example:
        >>> StructuralEmbedder().embed(["Solve 2x = 4", "Solve 3y = 9"]).shape
        (2, 512)
    """

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed ``texts``; rows need not be normalised (the cache normalises them)."""
        ...


def normalise_rows(vectors: npt.ArrayLike) -> Vectors:
    """L2-normalise each row; zero rows stay zero (no NaN)."""
    array = np.asarray(vectors, dtype=np.float32)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: Vectors = (array / norms).astype(np.float32)
    return normalised


LITERAL_WEIGHT = 0.7
# Literal names and things weigh a little more than literal numbers: a paraphrase keeps them
# (and should find its request), a variant of a template changes them (and still lands close).
WORD_LITERAL_WEIGHT = 0.6
# Characters of recently embedded texts whose vectors are kept (a vector is 4 * dim bytes).
_MEMO_CHARS = 200_000
_MASKS = {
    "number": "<num>",
    "quoted": "<str>",
    "identifier": "<id>",
    "name": "<name>",
    "thing": "<thing>",
}
# Words that shape no request: articles, pronouns, auxiliaries and question words ("How much
# do they spend?" and "What do they pay?" differ in them alone).
_STOPWORDS = frozenset(
    {
        "a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with",
        "is", "are", "be", "this", "that", "it", "as", "by", "at", "please",
        "do", "does", "did", "they", "them", "their", "he", "she", "him", "her", "his",
        "its", "we", "you", "i", "how", "what", "much", "many", "who", "whom", "which",
        "one", "ones", "there", "here", "than", "then", "so", "but", "if", "all", "will",
        "would", "can", "could", "should", "may", "might", "has", "have", "had", "was",
        "were", "been", "being", "am", "up",
    }
)  # fmt: skip
# Capitalised words that open sentences without naming anyone.
_OPENERS = frozenset(
    """how what which who whom whose where when why each every if in at on one after before
    then there this these those some any all both""".split()  # noqa: SIM905
)
_TITLE = re.compile(r"\b(Mr|Mrs|Ms|Dr|Prof|St)\.")
_PLURALS = (("ies", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"),
            ("oes", "o"), ("s", ""))  # fmt: skip


def _stem(word: str) -> str:
    """A word without its plural or third-person "s" ("kiwis", "costs"), roughly."""
    if word.endswith("ss"):
        return word
    for ending, replacement in _PLURALS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: len(word) - len(ending)] + replacement
    return word


class StructuralEmbedder:
    """Hashed bag of masked words: prompts with the same structure but other numbers, names,
    things or identifiers land close together; another kind of task does not.

    Quantities are masked in every notation the number reader knows ("5", "five", "three
    quarters", "$1.25", "1.25 dollars"), names (capitalised words) and things (what a
    quantity counts: "5 kiwis") are masked too, and words are stemmed ("costs", "cost"), so
    that the variants of one templated request find each other: other people, other things,
    other numbers, other notations, another wording of the same story. Masked values weigh
    little as literal features: among prompts of one structure the one with the same values
    (a paraphrase of it) ranks first.

    Deterministic across processes (CRC32, not Python's salted ``hash``), so a persisted index
    stays valid. Some tens of microseconds per prompt.

    Example:
        >>> from stepcache_integrations import Policy
        >>> threshold = Policy().similarity_threshold  # a candidate above it is verified
        >>> e = StructuralEmbedder()
        >>> a, b = e.embed(["Solve for x: 3x + 5 = 20", "Solve for y: 2y + 7 = 11"])
        >>> float(a @ b) > threshold
        True
        >>> c, d = e.embed(["Riley buys 5 kiwis. Each kiwi costs $2. How much do they spend?",
        ...                 "Mei buys seven pears. Each pear costs $3. How much does she spend?"])
        >>> float(c @ d) > threshold
        True
    """

    def __init__(self, dim: int = 512) -> None:
        if dim < 16:
            raise ValueError(f"dim must be at least 16, got {dim}")
        self.dim = dim
        self._rows = TextMemo(self._raw_row, max_chars=_MEMO_CHARS)

    def _features(self, text: str) -> tuple[list[str], list[str], list[str]]:
        """Structural features (masked words, operators), literal numbers, and literal words
        (the masked names and things)."""
        # "3x" is a coefficient and a variable: split it so both get masked.
        text = re.sub(r"(\d)([A-Za-z])\b", r"\1 \2", text[:20_000])
        text = _TITLE.sub(r"\1", text)  # "Mr. Lindqvist": no sentence ends after "Mr"
        numbers: list[str] = []
        kept, cursor = [], 0
        things: set[str] = set()
        for quantity in read_quantities(text):
            kept.append(text[cursor : quantity.start])
            kept.append(" 0 ")  # one masked number, whatever its notation
            cursor = quantity.end
            numbers.append(f"raw:{quantity.value}")
            unit = quantity.unit
            if unit is not None and unit.isalpha() and not known_unit(unit):
                things.add(_stem(unit.lower()))
        kept.append(text[cursor:])
        text = "".join(kept)
        # Words of any script (a name is "S\u00e3o Paulo" as much as "Paris").
        lower = {word for word in re.findall(r"(?<![\w'])[^\W\d_]{2,}", text) if word.islower()}
        words: list[str] = []
        literal: list[str] = []
        for kind, value in _feature_tokens(text):
            if kind == "number":
                words.append(_MASKS["number"])
                continue
            if kind != "word":
                words.append(_MASKS[kind])
                literal.append(f"raw:{value}")
                continue
            low = value.lower()
            if low in _STOPWORDS:
                continue
            if value[0].isupper() and low not in lower and low not in _OPENERS:
                # A sentence's first word that the text never writes in lower case: a name.
                words.append(_MASKS["name"])
                literal.append(f"raw:{value}")
                continue
            stem = _stem(low)
            if stem in things:
                words.append(_MASKS["thing"])
                literal.append(f"raw:{stem}")
                continue
            words.append(stem)
        # Operators carry the shape of equations and JSON requests.
        words.extend(f"op:{op}" for op in re.findall(r"[=+\-*/{}:]", text))
        return words, numbers, literal

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._rows(text)
        return normalise_rows(out)

    def _raw_row(self, text: str) -> Vectors:
        """The unnormalised vector of one text (remembered for recent texts: a request's
        prompt is embedded to search and again when its answer is stored)."""
        row = np.zeros(self.dim, dtype=np.float32)
        structural, numbers, words = self._features(text)
        # Literal constants and names weigh little: among prompts of the same structure
        # the one with the same constants (a paraphrase of it) ranks first, while another
        # constant still lands close.
        for weight, features in (
            (1.0, structural),
            (LITERAL_WEIGHT, numbers),
            (WORD_LITERAL_WEIGHT, words),
        ):
            for feature in features:
                digest = zlib.crc32(feature.encode("utf-8", "surrogatepass"))
                sign = weight if digest & 1 else -weight
                row[(digest >> 1) % self.dim] += sign
        row.flags.writeable = False  # shared by every caller of the memo
        return row


# The embedder's own tokens. They only shape vectors (which cached requests are looked at);
# whether two requests are the same is decided by core.text, never here. Changing them changes
# every vector, and so needs a new embedder identity.
_FEATURE_TOKEN = re.compile(
    r"""(?P<quoted>"[^"\n]{1,200}"|'[^'\n]{1,200}'|`[^`\n]{1,200}`)"""
    r"|(?P<number>(?<![\w.])-?\d+(?:\.\d+)?(?![\w]))"
    r"|(?P<word>[^\W\d][\w]*(?:\.[^\W\d][\w]*)*)"
)
_CAMEL = re.compile(r"[a-z][A-Z]")


def _word_kind(word: str, sentence_start: bool) -> str:
    if len(word) == 1 and word.isalpha() and word not in {"a", "A", "I"}:
        return "identifier"
    if "_" in word or "." in word or _CAMEL.search(word) or any(ch.isdigit() for ch in word):
        return "identifier"
    if word[0].isupper() and not sentence_start and not word.isupper():
        return "name"
    return "word"


def _feature_tokens(text: str) -> list[tuple[str, str]]:
    """``(kind, text)`` of every token: quoted, number, identifier, name or word."""
    tokens: list[tuple[str, str]] = []
    sentence_start = True
    last_end = 0
    for match in _FEATURE_TOKEN.finditer(text):
        if re.search(r"[.!?:\n]", text[last_end : match.start()]):
            sentence_start = True
        last_end = match.end()
        kind, value = match.lastgroup or "word", match.group()
        if kind == "word":
            kind = _word_kind(value, sentence_start)
        tokens.append((kind, value))
        sentence_start = False
    return tokens
