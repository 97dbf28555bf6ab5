"""Promise: where the call's tenant cannot be known, the cache is not used at all.

LangChain may call a chat model's ``_stream`` without its run manager (it does so when it
streams an ``invoke`` implicitly); without the call's configuration the wrapper cannot know
the tenant, and must not fall back to its default tenant's entries.
"""

from __future__ import annotations

from langchain_core.language_models.chat_models import generate_from_stream
from langchain_core.messages import HumanMessage

from stepcache_integrations import StepCache, StepCacheLLM
from tests.conftest import ScriptedChatModel


def test_a_call_path_without_the_call_configuration_bypasses() -> None:
    model = ScriptedChatModel(responder=lambda m: "acme's private answer")
    llm = StepCacheLLM(llm=model, step_cache=StepCache(), tenant="acme")
    llm.invoke("What is my balance?")  # cached for acme
    # LangChain's own helper over the hook, as its implicit streaming path calls it.
    result = generate_from_stream(llm._stream([HumanMessage("What is my balance?")]))
    record = result.generations[0].message.response_metadata["stepcache"]
    assert record["decision"] == "bypass"
    assert "tenant" in record["reason"]
    assert record["tenant"] is None


def test_an_empty_or_non_string_tenant_is_a_clear_error() -> None:
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=lambda m: "x"))
    for bad in ("", 7):
        try:
            llm.invoke("hi", config={"metadata": {"stepcache_tenant": bad}})
        except ValueError as error:
            assert "stepcache_tenant" in str(error)
        else:
            raise AssertionError(f"tenant {bad!r} was accepted")
