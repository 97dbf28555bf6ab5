"""Embedders: text to unit vectors. The default needs no model and no network."""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from stepcache_integrations.core.prompt_diff import content_tokens

__all__ = ["Embedder", "StructuralEmbedder", "normalise_rows"]

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns texts into a ``(len(texts), dim)`` float32 array."""

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

    def _features(self, text: str) -> tuple[list[str], list[str]]:
        """Structural features (masked words, word pairs, operators) and literal tokens."""
        # "3x" is a coefficient and a variable: split it so both get masked.
        text = re.sub(r"(\d)([A-Za-z])\b", r"\1 \2", text[:20_000])
        words = []
        raw = []
        for token in content_tokens(text):
            if token.kind == "word":
                lowered = token.text.lower()
                if lowered not in _STOPWORDS:
                    words.append(lowered)
            else:
                words.append(_MASKS[token.kind])
                raw.append(f"raw:{token.text}")
        features = list(words)
        features.extend(f"{a} {b}" for a, b in itertools.pairwise(words))
        # Operators carry the shape of equations and JSON requests.
        features.extend(f"op:{op}" for op in re.findall(r"[=+\-*/{}:]", text))
        return features, raw

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            structural, literal = self._features(text)
            # Literal constants and names weigh little: among prompts of the same structure
            # the one with the same constants (a paraphrase of it) ranks first, while another
            # constant still lands close.
            for weight, features in ((1.0, structural), (LITERAL_WEIGHT, literal)):
                for feature in features:
                    digest = zlib.crc32(feature.encode("utf-8", "surrogatepass"))
                    sign = weight if digest & 1 else -weight
                    out[row, (digest >> 1) % self.dim] += sign
        return normalise_rows(out)
