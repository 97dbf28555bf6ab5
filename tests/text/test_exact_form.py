"""exact_form: the text of the exact-match key keeps the whitespace that is meaning."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stepcache_integrations.core.text import compare, exact_form
from stepcache_integrations.core.text.layout import split_lines

LOOP_BODY = """Run this Python and tell me what it prints:
```python
total = 0
for n in range(3):
    total += n
    print(total)
```"""
AFTER_LOOP = LOOP_BODY.replace("    print(total)", "print(total)")


def test_two_programs_differing_only_in_indentation_keep_different_keys() -> None:
    assert exact_form(LOOP_BODY) != exact_form(AFTER_LOOP)
    assert not compare(LOOP_BODY, AFTER_LOOP).same


def test_indented_code_without_fences_keeps_its_indentation() -> None:
    inside = "What does this print?\nif flag:\n    x = 1\n    print(x)"
    outside = "What does this print?\nif flag:\n    x = 1\nprint(x)"
    assert exact_form(inside) != exact_form(outside)
    assert "\n    print(x)" in exact_form(inside)


def test_tabs_and_spaces_differ_in_code() -> None:
    tab = "Why does this fail?\n```make\nall:\n\techo hi\n```"
    spaces = "Why does this fail?\n```make\nall:\n    echo hi\n```"
    assert exact_form(tab) != exact_form(spaces)


def test_prose_whitespace_is_collapsed_and_ends_stripped() -> None:
    assert exact_form("  What   is\tthe capital of Chile?  \n") == "What is the capital of Chile?"
    assert exact_form("\n\nSolve  x\n\n") == "Solve x"


def test_line_breaks_in_prose_are_kept_and_blank_lines_dropped() -> None:
    assert exact_form("First line.\n\n\nSecond  line.") == "First line.\nSecond line."
    assert exact_form("a\r\nb") == exact_form("a\nb")


def test_whitespace_inside_quotes_is_kept() -> None:
    assert exact_form('Count the spaces in "a  b".') == 'Count the spaces in "a  b".'
    assert exact_form('Count the spaces in "a  b".') != exact_form('Count the spaces in "a b".')
    assert exact_form("Is `x  = 1` valid?") == "Is `x  = 1` valid?"


def test_no_case_folding_and_no_filler_removal() -> None:
    assert exact_form("Please list the primes") == "Please list the primes"
    assert exact_form("USD") != exact_form("usd")


def test_fenced_block_is_verbatim_and_blank_lines_inside_code_are_kept() -> None:
    text = "Review:\n```python\ndef f():\n\n    return 1  \n```"
    form = exact_form(text)
    assert "def f():\n\n    return 1  \n```" in form


def test_unclosed_fence_keeps_the_rest_verbatim() -> None:
    text = "Fix:\n```\nif x:\n    y  =  1"
    assert exact_form(text) == text


def test_a_single_line_has_no_code_layout() -> None:
    assert exact_form("    Solve x") == "Solve x"
    assert [line.kind for line in split_lines("    Solve x")] == ["prose"]


def test_line_kinds() -> None:
    kinds = [line.kind for line in split_lines("Fix:\n\n```py\n  x\n```\n    y\nz")]
    assert kinds == ["prose", "blank", "fence", "fenced", "fence", "indented", "prose"]


def test_a_fence_with_a_backtick_in_its_info_is_not_a_fence() -> None:
    assert [line.kind for line in split_lines("a\n```x`y\nb")] == ["prose", "prose", "prose"]


PIECES = [*"ab xy\t\n\r`~'\":.,!?-_#", "\u201c", "\u201d", "\u2018", "\u2019", "```", "    "]
TEXT = st.lists(
    st.sampled_from([*PIECES, "don't", "Please", "USD", "Boston", "3.5", "\n```py\n"]),
    max_size=40,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_exact_form_is_idempotent(text: str) -> None:
    once = exact_form(text)
    assert exact_form(once) == once


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_a_text_and_its_exact_form_are_the_same_request(text: str) -> None:
    assert compare(text, exact_form(text)).same
    assert compare(exact_form(text), text).same
