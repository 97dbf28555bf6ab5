"""The deterministic solution speaks the request's language: a German or Portuguese request
whose model's answer cannot be corrected in place gets the solver's steps in German or
Portuguese (words from the lexicon ``solving_steps.json``), with its decimal marks; an English
one, and one in a language the lexicon lacks, in English. Every step still holds."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.tasks.linear_equation.equation import (
    canonical_steps,
    parse_equation,
    scan_equations,
    step_words,
)
from stepcache_integrations.core.tasks.linear_equation.numerals import reading
from stepcache_integrations.core.tasks.linear_equation.rewrite import reinstantiate_steps
from stepcache_integrations.core.tasks.linear_equation.verifier import LinearEquationVerifier
from stepcache_integrations.core.verifiers.base import VerifyContext


@pytest.mark.parametrize(
    ("request_text", "answer", "label", "words"),
    [
        ("Löse 3x + 5 = 20 nach x auf.", "x = 5,0", "Schritt 1: ", ("subtrahieren", "dividieren")),
        ("Resolva 3x + 5 = 20.", "x = 5,0", "Passo 1: ", ("Subtraímos", "Dividimos")),
        ("Solve 3x + 5 = 20 for x.", "x = 5.0", "Step 1: ", ("Subtract", "Divide")),
    ],
)
def test_the_fallback_writes_the_requests_language(
    request_text: str, answer: str, label: str, words: tuple[str, ...]
) -> None:
    verifier = LinearEquationVerifier()
    # An answer with nothing to correct in place: the solver's steps, valued in its form.
    fallback = verifier.fallback(VerifyContext(request_text, answer=answer))
    assert fallback is not None
    assert fallback.startswith(label)
    assert all(word in fallback for word in words)
    assert fallback.endswith("x = 5,0." if "," in answer else "x = 5.0.")
    assert verifier.check_answer(VerifyContext(request_text), fallback).passed


@pytest.mark.parametrize(
    "request_text",
    [
        "Löse 0,5x - 1,5 = 2 nach x auf.",
        "Resolva -4k + 2,5 = -10,5.",
        "Löse 7 - 2y = 3y + 12.",
        "Qual a solução de 5(x + 13) = 8?",
    ],
)
def test_every_localized_step_holds(request_text: str) -> None:
    equation = parse_equation(request_text)
    assert equation is not None
    language = equation.answer_language()
    assert language in ("de", "pt")
    lines = canonical_steps(equation)
    assert lines[0] == step_words(language)["start"].format(equation=equation.text)
    for line in lines:
        for eq in scan_equations(reading(line, language))[1]:
            form = eq.normal_form(equation.variable)
            assert form[0] != 0 and (form[2] - form[1]) / form[0] == equation.solution


def test_a_language_the_lexicon_lacks_is_english() -> None:
    assert step_words("fi") == step_words("en")
    assert step_words(None)["label"] == "Step {k}: "


@pytest.mark.parametrize(
    ("old_request", "new_request"),
    [
        ("Löse 3x + 5 = 20 nach x auf.", "Löse 3x + 8 = 20 nach x auf."),
        ("Resolva 3x + 5 = 20.", "Resolva 3x + 8 = 20."),
        ("Solve 3x + 5 = 20.", "Solve 3x + 8 = 20."),
    ],
)
def test_a_cached_deterministic_answer_is_reinstantiated(
    old_request: str, new_request: str
) -> None:
    # Its words are words the rewriter vouches for: a changed constant reuses every step.
    old, new = parse_equation(old_request), parse_equation(new_request)
    assert old is not None and new is not None
    label = step_words(old.answer_language())["label"]
    steps = [label.format(k=k) + line for k, line in enumerate(canonical_steps(old), 1)]
    texts, valid = reinstantiate_steps(steps, old, new)
    assert valid == len(steps)
    assert texts[-1].endswith("x = 4.")
