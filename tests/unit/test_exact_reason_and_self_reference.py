"""The exact path: its reason says whether the text was identical, and a request about its own
text is served only to its identical text.

"identical request" is the reason only for the very same text; another wording served by the
exact path (politeness, a sentence's capital, a final mark) says so. A request that counts,
quotes or judges its own words ("Count the commas.", "Thanks! Which words in here are
nouns?") goes to the model when a word or mark differs. Entries keyed under an older version
of the comparison rules are never found by a key, only by their identical text.
"""

from __future__ import annotations

import pytest

from stepcache_integrations import StepCache
from stepcache_integrations.core import engine, entries
from tests.reliability.support import Model, ask


def commas(prompt: str, *_: object) -> str:
    """The oracle: the number of commas in the request itself."""
    return f"Your message has {prompt.count(',')} commas."


def test_the_identical_text_is_served_as_an_identical_request() -> None:
    cache = StepCache()
    model = Model(lambda prompt, call: "DNS maps names to addresses.")
    ask(cache, "Explain how DNS works.", model)
    result = ask(cache, "Explain how DNS works.", model)
    assert (result.record.decision, result.record.reason) == ("exact", engine.IDENTICAL)
    assert len(model.calls) == 1


def test_another_wording_is_served_with_a_reason_that_names_the_normalisation() -> None:
    cache = StepCache()
    model = Model(lambda prompt, call: "DNS maps names to addresses.")
    ask(cache, "Explain how DNS works.", model)
    result = ask(cache, "Please explain how DNS works, thanks!", model)
    assert result.record.decision == "exact"
    assert result.record.reason == engine.SAME_REQUEST
    assert result.record.reason != engine.IDENTICAL
    assert len(model.calls) == 1


def test_a_request_about_its_own_marks_is_not_served_to_a_politer_wording() -> None:
    cache = StepCache(similarity_threshold=0.0)
    model = Model(commas)
    assert ask(cache, "How many commas are in my message?", model).text == (
        "Your message has 0 commas."
    )
    result = ask(cache, "Hello, how many commas are in my message, please?", model)
    assert result.text == "Your message has 2 commas."
    assert result.record.decision not in ("exact", "reuse")
    assert len(model.calls) == 2
    # Each text keeps being answered for itself.
    again = ask(cache, "How many commas are in my message?", model)
    assert again.text == "Your message has 0 commas."


def test_a_request_about_its_own_words_is_not_served_without_its_greeting() -> None:
    cache = StepCache(similarity_threshold=0.0)

    def nouns(prompt: str, *_: object) -> str:
        return "Thanks, words." if prompt.startswith("Thanks") else "words."

    model = Model(nouns)
    ask(cache, "Thanks! Which words in here are nouns?", model)
    result = ask(cache, "Which words in here are nouns?", model)
    assert result.text == "words."
    assert result.record.decision not in ("exact", "reuse")
    assert len(model.calls) == 2


def test_an_entry_keyed_under_older_rules_is_found_only_by_its_identical_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = StepCache()
    model = Model(lambda prompt, call: "DNS maps names to addresses.")
    monkeypatch.setattr(entries, "REQUEST_FORM_VERSION", entries.REQUEST_FORM_VERSION - 1)
    ask(cache, "Hi! Explain how DNS works.", model)
    monkeypatch.undo()
    # Under the current rules the key of this wording would match; the stored key is older.
    assert entries.prompt_key("ns", "Explain how DNS works.") == entries.prompt_key(
        "ns", "Hi! Explain how DNS works."
    )
    same = ask(cache, "Hi! Explain how DNS works.", model)
    assert (same.record.decision, same.record.reason) == ("exact", engine.IDENTICAL)
    assert len(model.calls) == 1
    # Not by the key: the request goes the way of a new wording (here the nearest entry,
    # compared under the current rules).
    other = ask(cache, "Explain how DNS works.", model)
    assert other.record.decision != "exact"
