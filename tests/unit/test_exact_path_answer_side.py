"""The exact path consults the cached answer.

A request whose comparison form matches a cached one is served the cached answer only when it
is that text, or a wording whose spelling changes the answer does not copy. A spelling the
answer copies ("Boston's best brew" for "Write a slogan for a cafe in Boston") sends the
request the normal way: nearest entries and their verification, or the model.
"""

from __future__ import annotations

from typing import Any

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core import engine
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import ScriptedChatModel, ScriptedLLM, last_user_text
from tests.reliability.support import Model, ask

SLOGAN = "Write a slogan for a cafe in Boston."
SLOGAN_LOWER = "Write a slogan for a cafe in boston."
BIRD = "What is a kestrel? Describe it in one line."
BIRD_LOWER = "what is a kestrel? Describe it in one line."


def slogan(prompt: str, *_: Any) -> str:
    """The oracle's answer: a slogan that copies the city as written."""
    city = prompt.rstrip(".").split()[-1]
    return f"{city}'s best brew, since 1990."


def test_a_spelling_the_cached_answer_copies_goes_to_the_model() -> None:
    # Any similarity: the cached entry is a candidate of the normal path too, and refused there.
    cache = StepCache(similarity_threshold=0.0)
    model = Model(slogan)
    assert ask(cache, SLOGAN, model).text == "Boston's best brew, since 1990."
    result = ask(cache, SLOGAN_LOWER, model)
    assert result.text == "boston's best brew, since 1990."
    assert result.record.decision not in ("exact", "reuse")
    assert "Boston" in result.record.reason and "boston" in result.record.reason
    assert len(model.calls) == 2
    # The new answer replaced the old one under the shared key; each text gets its own.
    assert ask(cache, SLOGAN_LOWER, model).text == "boston's best brew, since 1990."
    assert ask(cache, SLOGAN, model).text == "Boston's best brew, since 1990."


def test_a_spelling_the_cached_answer_does_not_copy_is_served_exactly() -> None:
    cache = StepCache()
    model = Model(lambda prompt, call: "A small falcon that hovers over fields.")
    ask(cache, BIRD, model)
    result = ask(cache, BIRD_LOWER, model)
    assert result.record.decision == "exact"
    assert len(model.calls) == 1


def test_an_identical_text_is_served_without_comparing_anything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cache = StepCache()
    model = Model(slogan)
    ask(cache, SLOGAN, model)

    def refuse(*args: object, **kwargs: object) -> bool:
        raise AssertionError("an identical request must not be compared")

    monkeypatch.setattr(engine, "same_request", refuse)
    monkeypatch.setattr(engine, "compare", refuse)
    result = ask(cache, SLOGAN, model)
    assert result.record.decision == "exact"
    assert len(model.calls) == 1


def test_both_wrappers_send_a_copied_spelling_to_the_model() -> None:
    chat = ScriptedChatModel(responder=lambda messages: slogan(last_user_text(messages)))
    langchain = StepCacheLLM(llm=chat, step_cache=StepCache())
    assert langchain.invoke(SLOGAN).content == "Boston's best brew, since 1990."
    again = langchain.invoke(SLOGAN_LOWER)
    assert again.content == "boston's best brew, since 1990."
    assert again.response_metadata["stepcache"]["decision"] != "exact"
    assert len(chat.calls) == 2

    llm = ScriptedLLM(responder=slogan)
    llama = LlamaStepCacheLLM(llm=llm, step_cache=StepCache())
    assert llama.complete(SLOGAN).text == "Boston's best brew, since 1990."
    response = llama.complete(SLOGAN_LOWER)
    assert response.text == "boston's best brew, since 1990."
    assert response.additional_kwargs["stepcache"]["decision"] != "exact"
    assert len(llm.calls) == 2
