"""TextMemo: remembered per-text results, bounded by characters."""

from __future__ import annotations

import threading

import pytest

from stepcache_integrations.core.tasks.word_problem.prose import story_words
from stepcache_integrations.core.text import clear_caches, tokenise
from stepcache_integrations.core.text.memo import TextMemo, text_memo


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


def test_several_arguments_are_remembered_together_and_count_their_texts() -> None:
    calls: list[tuple[str, frozenset[str], bool]] = []

    @text_memo(max_chars=100)
    def described(text: str, words: frozenset[str], loud: bool = False) -> str:
        calls.append((text, words, loud))
        return f"{text}:{len(words)}:{loud}"

    story = frozenset({"apples", "pears"})
    assert described("ab", story) == described("ab", story) == "ab:2:False"
    assert described("ab", story, loud=True) == "ab:2:True"  # another key: computed
    assert described("ab", frozenset({"x"})) == "ab:1:False"
    assert len(calls) == 3
    # "ab" and a set of two words; "ab", the set and a keyword; "ab" and a set of one word.
    assert described.held_chars == (2 + 2) + (2 + 2 + 1) + (2 + 1)
    assert described.__name__ == "described"  # the function's name and docstring are kept


def test_a_memo_of_several_arguments_keeps_its_budget() -> None:
    memo = TextMemo(lambda a, b: a + b, max_chars=20)
    for n in range(10):
        memo(f"a{n}", f"b{n}")
    assert memo.held_chars <= 20
    assert memo("a9", "b9") == "a9b9"


def test_clear_caches_forgets_the_readers_memos() -> None:
    text = "Ann has 3 apples and buys twelve more pears."
    first = story_words(text)
    assert story_words(text) is first  # remembered
    clear_caches()
    again = story_words(text)
    assert again is not first  # recomputed: the family's memo was cleared with the rest
    assert again == first
