"""One StepCache shared by LangChain and LlamaIndex wrappers: the namespace contract."""

from __future__ import annotations

from langchain_core.messages import BaseMessage
from llama_index.core.base.llms.types import ChatMessage

from stepcache_integrations import StepCache
from stepcache_integrations import StepCacheLLM as LangChainStepCacheLLM
from stepcache_integrations.adapter import Message, namespace_parts
from stepcache_integrations.core.namespace import make_namespace, tenant_namespace
from stepcache_integrations.llama_index import StepCacheLLM
from tests.conftest import ScriptedChatModel, ScriptedLLM, eq, last_user_text, solve_steps


def solver(messages: list[BaseMessage]) -> str:
    return solve_steps(last_user_text(messages) if len(messages) == 1 else str(messages[0].content))


def namespace_of(response: object) -> str:
    return str(response.additional_kwargs["stepcache"]["namespace"])  # type: ignore[attr-defined]


def test_model_id_namespace_is_the_framework_neutral_one() -> None:
    llm = StepCacheLLM(llm=ScriptedLLM(chat_model=True), model_id="shared-model")
    plain = llm.chat([ChatMessage(role="user", content=eq())], stepcache_tenant="acme")
    assert namespace_of(plain) == tenant_namespace(
        make_namespace(namespace_parts({"id": "shared-model"}, [])), "acme"
    )
    with_system = llm.chat(
        [ChatMessage(role="system", content="Be terse."), ChatMessage(role="user", content=eq())]
    )
    expected = namespace_parts({"id": "shared-model"}, [Message("system", "Be terse.")])
    assert namespace_of(with_system) == make_namespace(expected)
    # A completion on a chat model is the same request as a one-message chat.
    assert namespace_of(llm.complete(eq(), stepcache_tenant="acme")) == namespace_of(plain)


def test_model_id_replaces_the_framework_identity() -> None:
    cache = StepCache()
    first = StepCacheLLM(llm=ScriptedLLM(model_name="a"), step_cache=cache, model_id="m")
    second = StepCacheLLM(llm=ScriptedLLM(model_name="b"), step_cache=cache, model_id="m")
    first.chat([ChatMessage(role="user", content=eq())])
    again = second.chat([ChatMessage(role="user", content=eq())])
    assert again.additional_kwargs["stepcache"]["decision"] == "exact"


def test_without_model_id_the_frameworks_never_share() -> None:
    cache = StepCache()
    LangChainStepCacheLLM(llm=ScriptedChatModel(responder=solver), step_cache=cache).invoke(eq())
    llm = StepCacheLLM(llm=ScriptedLLM(chat_model=True), step_cache=cache)
    answer = llm.chat([ChatMessage(role="user", content=eq())])
    assert answer.additional_kwargs["stepcache"]["decision"] == "miss"


def test_langchain_and_llama_index_wrappers_share_one_cache() -> None:
    cache = StepCache()
    langchain_model = ScriptedChatModel(responder=solver)
    langchain = LangChainStepCacheLLM(llm=langchain_model, step_cache=cache, model_id="m")
    llama_model = ScriptedLLM(chat_model=True)
    llama = StepCacheLLM(llm=llama_model, step_cache=cache, model_id="m")
    langchain.invoke(eq())
    exact = llama.chat([ChatMessage(role="user", content=eq())])
    assert exact.additional_kwargs["stepcache"]["decision"] == "exact"
    reused = llama.complete(eq("y"))
    assert reused.additional_kwargs["stepcache"]["decision"] == "reuse"
    # A right side that changes sign is not re-instantiated: the solver writes the steps
    # (a patch); 3x + 2 = 20 would be re-instantiated in full (a reuse).
    patched = llama.chat([ChatMessage(role="user", content=eq(c=-1))])
    assert patched.additional_kwargs["stepcache"]["decision"] == "patch"
    back = langchain.invoke(eq(c=-1))
    assert back.response_metadata["stepcache"]["decision"] == "exact"
    # One model call in all: the LangChain miss. Everything after came from the shared cache.
    assert len(langchain_model.calls) == 1 and llama_model.calls == []
