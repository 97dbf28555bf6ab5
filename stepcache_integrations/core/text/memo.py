"""A small memo for per-text results, bounded by the characters it holds.

The analysis of a request is reused on every comparison with it, so it is worth keeping; but
prompts can be long (tens of thousands of characters), and a count of entries alone would not
bound memory. This memo keeps the most recently used texts up to a budget of characters. It
is the package's one memo of text analyses (:func:`text_memo` as a decorator): every memo can
be cleared at once (:func:`clear_all_memos`).

Example:
    >>> lengths = TextMemo(len, max_chars=100)
    >>> lengths("hello"), lengths("hello")
    (5, 5)
    >>> lengths.held_chars
    5
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

__all__ = ["TextMemo", "clear_all_memos", "text_memo"]

P = ParamSpec("P")
T = TypeVar("T")

_KEYWORDS = object()  # separates a key's keyword arguments from its positional ones
_ALL: weakref.WeakSet[TextMemo[..., Any]] = weakref.WeakSet()


def _chars(part: object) -> int:
    """The characters one argument holds: a text its length, a tuple of texts their lengths; a
    set of words (shared with the memo that built it) one per word, anything else one."""
    if isinstance(part, str):
        return len(part)
    if isinstance(part, tuple):
        return sum(len(item) if isinstance(item, str) else 1 for item in part)
    if isinstance(part, frozenset):
        return len(part)
    return 1


class TextMemo(Generic[P, T]):
    """``compute(text)``, remembered for the most recently used texts.

    Holds at most ``max_chars`` characters of texts; a text longer than a quarter of that is
    computed every time (one long text must not push out every other). Thread-safe. A
    ``compute`` of several arguments (texts, a language code, a set of words) is remembered
    for them together, and its key counts the characters of every text in it.

    Example:
        >>> upper = TextMemo(str.upper, max_chars=12)
        >>> upper("abc"), upper("def"), upper("ghi"), upper("jkl")
        ('ABC', 'DEF', 'GHI', 'JKL')
        >>> upper("mn"), upper.held_chars  # "abc" was dropped to stay within 12 characters
        ('MN', 11)
    """

    def __init__(self, compute: Callable[P, T], max_chars: int) -> None:
        if max_chars < 1:
            raise ValueError(f"max_chars must be positive, got {max_chars}")
        self._compute = compute
        self._max_chars = max_chars
        self._results: OrderedDict[Any, T] = OrderedDict()
        self._sizes: dict[Any, int] = {}
        self._held = 0
        self._lock = threading.Lock()
        # The function's name, docstring and module (its examples still run as doctests).
        functools.update_wrapper(self, compute)
        _ALL.add(self)

    @property
    def held_chars(self) -> int:
        """The characters of the texts held now."""
        return self._held

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> T:
        # One text is its own key (the common case, and the cheapest); any other arguments are
        # keyed together, keyword arguments after a marker no argument can equal.
        key: Any = args
        if kwargs:
            key = (args, _KEYWORDS, *sorted(kwargs.items()))
        elif len(args) == 1 and type(args[0]) is str:
            key = args[0]
        # A hit takes no lock: each OrderedDict operation is atomic, and a key dropped by
        # another thread between the two is computed again below.
        results = self._results
        try:
            found = results[key]
            results.move_to_end(key)
            return found
        except KeyError:
            pass
        result = self._compute(*args, **kwargs)
        size = sum(map(_chars, args)) + len(kwargs)
        if size * 4 > self._max_chars:
            return result
        with self._lock:
            if key not in self._results:
                self._results[key] = result
                self._sizes[key] = size
                self._held += size
                while self._held > self._max_chars:
                    dropped, _ = self._results.popitem(last=False)
                    self._held -= self._sizes.pop(dropped)
        return result

    def clear(self) -> None:
        """Forget every remembered result."""
        with self._lock:
            self._results.clear()
            self._sizes.clear()
            self._held = 0


def text_memo(max_chars: int) -> Callable[[Callable[P, T]], TextMemo[P, T]]:
    """A decorator: the function, remembered in a :class:`TextMemo` of ``max_chars``.

    Example:
        >>> @text_memo(max_chars=1_000)
        ... def shout(text: str, marks: int = 1) -> str:
        ...     return text.upper() + "!" * marks
        >>> shout("hi"), shout("hi", 3), shout.held_chars
        ('HI!', 'HI!!!', 5)
    """

    def wrap(compute: Callable[P, T]) -> TextMemo[P, T]:
        return TextMemo(compute, max_chars)

    return wrap


def clear_all_memos() -> None:
    """Forget the results of every :class:`TextMemo`."""
    for memo in list(_ALL):
        memo.clear()
