"""TextMemo: remembered per-text results, bounded by characters."""

from __future__ import annotations

import threading

import pytest

from stepcache_integrations.core.text import clear_caches, tokenise
from stepcache_integrations.core.text.memo import TextMemo


def test_results_are_remembered_and_computed_once() -> None:
    calls: list[str] = []

    def compute(text: str) -> int:
        calls.append(text)
        return len(text)

    memo = TextMemo(compute, max_chars=100)
    assert memo("abc") == memo("abc") == 3
    assert calls == ["abc"]


def test_the_character_budget_drops_the_least_recently_used() -> None:
    calls: list[str] = []

    def compute(text: str) -> str:
        calls.append(text)
        return text.upper()

    memo = TextMemo(compute, max_chars=40)
    a, b, c, d, e = (letter * 10 for letter in "abcde")
    for text in (a, b, a, c, d):  # "a" used again: "b" is now the least recent
        memo(text)
    assert memo.held_chars == 40
    memo(e)  # over budget: "b" goes
    assert memo.held_chars == 40
    calls.clear()
    for text in (a, c, d, e, b):
        memo(text)
    assert calls == [b]


def test_a_long_text_is_computed_but_not_held() -> None:
    memo = TextMemo(len, max_chars=40)
    assert memo("x" * 11) == 11
    assert memo.held_chars == 0


def test_clear_and_a_bad_budget() -> None:
    memo = TextMemo(len, max_chars=10)
    memo("abc")
    memo.clear()
    assert memo.held_chars == 0
    with pytest.raises(ValueError, match="max_chars"):
        TextMemo(len, max_chars=0)


def test_threads_share_one_memo() -> None:
    memo = TextMemo(str.lower, max_chars=1_000)
    texts = [f"Text {n}" for n in range(50)]
    results: list[list[str]] = []

    def work() -> None:
        results.append([memo(text) for text in texts])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(found == [t.lower() for t in texts] for found in results)
    assert memo.held_chars == sum(map(len, texts))


def test_clear_caches_forgets_tokenisations() -> None:
    text = "A text to forget: 42 tokens or fewer."
    first = tokenise(text)
    assert tokenise(text) is first
    clear_caches()
    again = tokenise(text)
    assert again == first and again is not first
