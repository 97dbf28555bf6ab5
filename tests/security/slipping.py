"""A request answered once by a model that slips (its answer is ``wrong``), through a fresh
cache: what the cache served and its record. Shared by the security tests of the equation
fallback (what it corrects, and what it must leave flagged)."""

from __future__ import annotations

from stepcache_integrations import StepCache, StepCacheLLM
from tests.conftest import ScriptedChatModel


def served_by_slipping_model(request: str, wrong: str) -> tuple[str, dict[str, object]]:
    """The text served for ``request`` when the model answers ``wrong``, and the record."""
    model = ScriptedChatModel(responder=lambda messages: wrong, model_name="weak-1")
    message = StepCacheLLM(llm=model, step_cache=StepCache()).invoke(request)
    assert isinstance(message.content, str)
    return message.content, dict(message.response_metadata["stepcache"])
