"""The exact path consults the cached answer.

A request whose comparison form matches a cached one is served the cached answer only when it
is that text, or a wording whose spelling changes the answer does not copy. A spelling the
answer copies ("mkdir Kestrel" for "Kestrel is my folder name") sends the request the normal
way: nearest entries and their verification, or the model.
"""

from __future__ import annotations

from typing import Any

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core import engine
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import ScriptedChatModel, ScriptedLLM, last_user_text
from tests.reliability.support import Model, ask

FOLDER = "Kestrel is my folder name. Give the command that creates it."
FOLDER_LOWER = "kestrel is my folder name. Give the command that creates it."
BIRD = "Kestrel is a bird. Describe it in one line."
BIRD_LOWER = "kestrel is a bird. Describe it in one line."


def mkdir(prompt: str, *_: Any) -> str:
    """The oracle's answer: a command that copies the folder name as written."""
    return f"mkdir {prompt.split()[0]}"


def test_a_spelling_the_cached_answer_copies_goes_to_the_model() -> None:
    cache = StepCache()
    model = Model(mkdir)
    assert ask(cache, FOLDER, model).text == "mkdir Kestrel"
    result = ask(cache, FOLDER_LOWER, model)
    assert result.text == "mkdir kestrel"
    assert result.record.decision not in ("exact", "reuse")
    assert "Kestrel" in result.record.reason and "kestrel" in result.record.reason
    assert len(model.calls) == 2
    # The new answer replaced the old one under the shared key; each text gets its own.
    assert ask(cache, FOLDER_LOWER, model).text == "mkdir kestrel"
    assert ask(cache, FOLDER, model).text == "mkdir Kestrel"


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
    model = Model(mkdir)
    ask(cache, FOLDER, model)

    def refuse(*args: object, **kwargs: object) -> bool:
        raise AssertionError("an identical request must not be compared")

    monkeypatch.setattr(engine, "same_request", refuse)
    monkeypatch.setattr(engine, "compare", refuse)
    result = ask(cache, FOLDER, model)
    assert result.record.decision == "exact"
    assert len(model.calls) == 1


def test_both_wrappers_send_a_copied_spelling_to_the_model() -> None:
    chat = ScriptedChatModel(responder=lambda messages: mkdir(last_user_text(messages)))
    langchain = StepCacheLLM(llm=chat, step_cache=StepCache())
    assert langchain.invoke(FOLDER).content == "mkdir Kestrel"
    again = langchain.invoke(FOLDER_LOWER)
    assert again.content == "mkdir kestrel"
    assert again.response_metadata["stepcache"]["decision"] != "exact"
    assert len(chat.calls) == 2

    llm = ScriptedLLM(responder=mkdir)
    llama = LlamaStepCacheLLM(llm=llm, step_cache=StepCache())
    assert llama.complete(FOLDER).text == "mkdir Kestrel"
    response = llama.complete(FOLDER_LOWER)
    assert response.text == "mkdir kestrel"
    assert response.additional_kwargs["stepcache"]["decision"] != "exact"
    assert len(llm.calls) == 2
