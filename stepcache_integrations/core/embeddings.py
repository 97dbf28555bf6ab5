"""Embedders: text to unit vectors. The default needs no model and no network."""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from stepcache_integrations.core.text.memo import TextMemo

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


LITERAL_WEIGHT = 0.4
# Characters of recently embedded texts whose vectors are kept (a vector is 4 * dim bytes).
_MEMO_CHARS = 200_000
_MASKS = {"number": "<num>", "quoted": "<str>", "identifier": "<id>", "name": "<name>"}
_STOPWORDS = frozenset(
    {
        "a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with",
        "is", "are", "be", "this", "that", "it", "as", "by", "at", "please",
    }
)  # fmt: skip


class StructuralEmbedder:
    """Hashed bag of masked words and word pairs: prompts with the same structure but other
    numbers, names or identifiers land close together; another kind of task does not.

    Deterministic across processes (CRC32, not Python's salted ``hash``), so a persisted index
    stays valid. About 20 microseconds per prompt.

    Example:
        >>> e = StructuralEmbedder()
        >>> a, b = e.embed(["Solve for x: 3x + 5 = 20", "Solve for y: 2y + 7 = 11"])
        >>> float(a @ b) > 0.9
        True
    """

    def __init__(self, dim: int = 512) -> None:
        if dim < 16:
            raise ValueError(f"dim must be at least 16, got {dim}")
        self.dim = dim
        self._rows = TextMemo(self._raw_row, max_chars=_MEMO_CHARS)

    def _features(self, text: str) -> tuple[list[str], list[str]]:
        """Structural features (masked words, word pairs, operators) and literal tokens."""
        # "3x" is a coefficient and a variable: split it so both get masked.
        text = re.sub(r"(\d)([A-Za-z])\b", r"\1 \2", text[:20_000])
        words = []
        raw = []
        for kind, value in _feature_tokens(text):
            if kind == "word":
                lowered = value.lower()
                if lowered not in _STOPWORDS:
                    words.append(lowered)
            else:
                words.append(_MASKS[kind])
                raw.append(f"raw:{value}")
        features = list(words)
        features.extend(f"{a} {b}" for a, b in itertools.pairwise(words))
        # Operators carry the shape of equations and JSON requests.
        features.extend(f"op:{op}" for op in re.findall(r"[=+\-*/{}:]", text))
        return features, raw

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._rows(text)
        return normalise_rows(out)

    def _raw_row(self, text: str) -> Vectors:
        """The unnormalised vector of one text (remembered for recent texts: a request's
        prompt is embedded to search and again when its answer is stored)."""
        row = np.zeros(self.dim, dtype=np.float32)
        structural, literal = self._features(text)
        # Literal constants and names weigh little: among prompts of the same structure
        # the one with the same constants (a paraphrase of it) ranks first, while another
        # constant still lands close.
        for weight, features in ((1.0, structural), (LITERAL_WEIGHT, literal)):
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
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
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
