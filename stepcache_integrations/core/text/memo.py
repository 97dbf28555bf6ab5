"""A small memo for per-text results, bounded by the characters it holds.

The analysis of a request is reused on every comparison with it, so it is worth keeping; but
prompts can be long (tens of thousands of characters), and a count of entries alone would not
bound memory. This memo keeps the most recently used texts up to a budget of characters.

Example:
    >>> lengths = TextMemo(len, max_chars=100)
    >>> lengths("hello"), lengths("hello")
    (5, 5)
    >>> lengths.held_chars
    5
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["TextMemo", "clear_all_memos"]

T = TypeVar("T")

_ALL: weakref.WeakSet[TextMemo[Any]] = weakref.WeakSet()


class TextMemo(Generic[T]):
    """``compute(text)``, remembered for the most recently used texts.

    Holds at most ``max_chars`` characters of texts; a text longer than a quarter of that is
    computed every time (one long text must not push out every other). Thread-safe.

    Example:
        >>> upper = TextMemo(str.upper, max_chars=12)
        >>> upper("abc"), upper("def"), upper("ghi"), upper("jkl")
        ('ABC', 'DEF', 'GHI', 'JKL')
        >>> upper("mn"), upper.held_chars  # "abc" was dropped to stay within 12 characters
        ('MN', 11)
    """

    def __init__(self, compute: Callable[[str], T], max_chars: int) -> None:
        if max_chars < 1:
            raise ValueError(f"max_chars must be positive, got {max_chars}")
        self._compute = compute
        self._max_chars = max_chars
        self._results: OrderedDict[str, T] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()
        _ALL.add(self)

    @property
    def held_chars(self) -> int:
        """The characters of the texts held now."""
        return self._held

    def __call__(self, text: str) -> T:
        with self._lock:
            if text in self._results:
                self._results.move_to_end(text)
                return self._results[text]
        result = self._compute(text)
        if len(text) * 4 > self._max_chars:
            return result
        with self._lock:
            if text not in self._results:
                self._results[text] = result
                self._held += len(text)
                while self._held > self._max_chars:
                    dropped, _ = self._results.popitem(last=False)
                    self._held -= len(dropped)
        return result

    def clear(self) -> None:
        """Forget every remembered result."""
        with self._lock:
            self._results.clear()
            self._held = 0


def clear_all_memos() -> None:
    """Forget the results of every :class:`TextMemo`."""
    for memo in list(_ALL):
        memo.clear()
