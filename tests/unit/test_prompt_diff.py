from __future__ import annotations

from stepcache_integrations.core.prompt_diff import content_tokens, diff_prompts, normalise_prompt


def test_renamed_variable_is_a_substitution() -> None:
    diff = diff_prompts("Solve for x: 3x + 5 = 20", "Solve for y: 3y + 5 = 20")
    assert diff.substitutions == {"x": "y"}
    assert diff.removed == {"x"}
    assert not diff.numbers_changed


def test_changed_constant_is_detected() -> None:
    diff = diff_prompts("Solve for x: 3x + 5 = 20", "Solve for x: 3x + 7 = 20")
    assert diff.substitutions == {"5": "7"}
    assert diff.numbers_changed


def test_paraphrase_removes_no_content_token() -> None:
    diff = diff_prompts("Solve for x: 3x + 5 = 20", "Please find x when 3x + 5 = 20")
    assert diff.identical_content


def test_names_and_quoted_strings_are_content() -> None:
    kinds = {t.text: t.kind for t in content_tokens('Greet Bob with "hello" in snake_case.')}
    assert kinds["Bob"] == "name"
    assert kinds['"hello"'] == "quoted"
    assert kinds["snake_case"] == "identifier"
    assert kinds["Greet"] == "word"  # sentence start is not a name


def test_conflicting_substitutions_are_dropped() -> None:
    diff = diff_prompts("a 1 b 1", "a 2 b 3")
    assert "1" not in diff.substitutions
    assert diff.removed == {"1"}


def test_normalise_prompt_collapses_whitespace() -> None:
    assert normalise_prompt("  Solve \n x  ") == "Solve x"
