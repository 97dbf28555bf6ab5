"""The tokeniser: kinds, offsets and comparison forms."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from stepcache_integrations.core.text import tokenise
from stepcache_integrations.core.text.layout import PROSE_TOKEN, prose_tokens


def kinds(text: str) -> dict[str, str]:
    return {token.text: token.kind for token in tokenise(text)}


def norms(text: str) -> list[str]:
    return [token.norm for token in tokenise(text)]


def test_kinds() -> None:
    found = kinds('Greet Bob with "hello" in snake_case using iPhone, USD and 3.5 kg.')
    assert found["Greet"] == "word"  # a sentence start is not a name
    assert found["Bob"] == "name"
    assert found['"hello"'] == "quoted"
    assert found["snake_case"] == "identifier"
    assert found["iPhone"] == "identifier"
    assert found["USD"] == "acronym"
    assert found["3.5"] == "number"
    assert found[","] == "punct"


def test_offsets_point_into_the_original_text() -> None:
    text = "Convert  100 USD\r\nto   JPY, please."
    for token in tokenise(text):
        if token.kind != "word" or token.text in text[token.start : token.end]:
            assert text[token.start : token.end] == token.text


def test_coefficients_split_from_their_variable() -> None:
    assert [t.text for t in tokenise("3x + 5 = 20")] == ["3", "x", "+", "5", "=", "20"]


def test_units_split_from_their_number_and_identifiers_stay_whole() -> None:
    assert [t.text for t in tokenise("5km and mp3 and v1.2")] == ["5", "km", "and", "mp3", "and",
                                                                 "v1.2"]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It's up", ["it", "is", "up"]),
        ("I don't know", ["I", "do", "not", "know"]),
        ("I can't, I won't", ["I", "can", "not", ",", "I", "will", "not"]),
        ("cannot", ["can", "not"]),
        ("Let's go", ["let", "us", "go"]),
        ("I'm here, they're there, we've been, you'll see, I'd like",
         ["I", "am", "here", ",", "they", "are", "there", ",", "we", "have", "been", ",", "you",
          "will", "see", ",", "I", "would", "like"]),
        ("Bob's car", ["Bob's", "car"]),
        ("don\u2019t", ["do", "not"]),
    ],
)  # fmt: skip
def test_contractions_expand_and_keep_the_negation(text: str, expected: list[str]) -> None:
    assert norms(text) == expected


def test_case_folds_only_where_it_cannot_matter() -> None:
    assert norms("Boston") == norms("boston")
    assert norms("Is it far to Boston") == norms("is it far to boston")
    assert norms("USD") != norms("usd")
    assert norms("US") != norms("us")
    assert norms("Tell me about Rust") != norms("Tell me about rust")
    assert norms("x") != norms("X")


def test_a_capitalised_request_verb_opening_a_sentence_folds() -> None:
    assert norms("Sketch a cat") == norms("sketch a cat")
    assert norms("Is it Sketch") != norms("is it sketch")


@pytest.mark.parametrize(
    "text",
    [
        "Translate: Boston",
        "Translate Boston into French",
        'Spell "Boston"',
        "Count the letters in Boston",
        "Repeat: Boston",
        "Note \u201cBoston",
    ],
)
def test_literal_text_keeps_case(text: str) -> None:
    assert norms(text) != norms(text.replace("Boston", "boston"))
    assert tokenise(text)[-1].literal


def test_literal_text_keeps_contractions() -> None:
    assert norms("Rewrite: I'm tired") != norms("Rewrite: I am tired")


def test_a_time_is_not_a_colon_that_starts_literal_text() -> None:
    assert not tokenise("Meet at 3:30 in Boston")[-1].literal


def test_code_lines_are_tokens_with_their_indentation() -> None:
    tokens = tokenise("Run:\n```\nif x:\n    y()\n```")
    code = [t for t in tokens if t.kind == "code"]
    assert [t.norm for t in code] == ["\n", "```", "\n", "if", "x", ":", "\n    ", "y", "()", "\n",
                                      "```"]  # fmt: skip
    assert all(t.literal for t in code)


def test_urls_paths_and_emails_are_single_identifiers() -> None:
    found = kinds("See https://example.org/a?b=1, /usr/local/bin and ann@example.org.")
    assert found["https://example.org/a?b=1"] == "identifier"
    assert found["/usr/local/bin"] == "identifier"
    assert found["ann@example.org"] == "identifier"


def test_quotes_and_apostrophes() -> None:
    found = kinds("Is 'it's fine' what the dogs' owner said?")
    assert found["'it's fine'"] == "quoted"
    assert "dogs" in found


def test_sentence_and_line_starts() -> None:
    tokens = tokenise("Solve x. Then y\nand z")
    starts = [t.text for t in tokens if t.sentence_start]
    assert starts == ["Solve", "Then", "and"]
    assert [t.text for t in tokens if t.line_start] == ["Solve", "and"]


def test_bare_quoted_text() -> None:
    bare = [t.bare for t in tokenise("Say 'hi' or \"yo\" or `ls -a` or \u201cok\u201d")
            if t.kind == "quoted"]  # fmt: skip
    assert bare == ["hi", "yo", "ls -a", "ok"]


def test_tokenise_is_cached() -> None:
    text = "A request tokenised twice: 17 words or so."
    assert tokenise(text) is tokenise(text)


def test_empty_and_whitespace_requests() -> None:
    assert tokenise("") == ()
    assert tokenise(" \n\t ") == ()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="@/\\"), max_size=60))
def test_the_plain_scanner_finds_what_the_full_one_finds(line: str) -> None:
    assume("www." not in line)
    full = [(m.lastgroup, m.span()) for m in PROSE_TOKEN.finditer(line)]
    assert [(m.lastgroup, m.span()) for m in prose_tokens(line)] == full
