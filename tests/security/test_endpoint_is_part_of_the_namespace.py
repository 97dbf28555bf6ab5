"""Two models that may answer differently never share entries.

Every field that selects another server or model is part of the namespace, for every model
class: base URL, organization, default headers and query parameters, an Azure endpoint,
deployment and API version. Credentials and transport settings are not: rotating a key keeps
the cache, and no secret reaches the namespace. The models are built with dummy keys and never
reach the network (the end-to-end tests use subclasses whose generation is simulated).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.language_models import BaseLanguageModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_openai import AzureChatOpenAI, AzureOpenAI, ChatOpenAI, OpenAI
from llama_index.core.llms import LLM, MockLLM
from llama_index.core.llms.mock import MockFunctionCallingLLM

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.adapter import namespace_parts
from stepcache_integrations.core.namespace import make_namespace
from stepcache_integrations.langchain.request import inner_identity as langchain_identity
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from stepcache_integrations.llama_index.request import inner_identity as llama_identity
from tests.conftest import ScriptedLLM

SECRETS = ("sk-secret-one", "sk-secret-two", "Bearer tok-1", "Bearer tok-2", "qs-key-1")


def namespace_of(identity: dict[str, Any]) -> str:
    return make_namespace(namespace_parts(identity, []))


def langchain_namespace(llm: BaseLanguageModel[Any]) -> str:
    identity = langchain_identity(llm)
    shown = json.dumps(identity, default=repr)
    assert not any(secret in shown for secret in SECRETS), shown
    return namespace_of(identity)


def llama_namespace(llm: LLM) -> str:
    identity = llama_identity(llm)
    shown = json.dumps(identity, default=repr)
    assert not any(secret in shown for secret in SECRETS), shown
    return namespace_of(identity)


# -- LangChain: ChatOpenAI, AzureChatOpenAI, OpenAI, AzureOpenAI -----------------------------


def chat(**fields: Any) -> ChatOpenAI:
    return ChatOpenAI(**{"model": "gpt-4o-mini", "api_key": "sk-secret-one", **fields})


def completion(**fields: Any) -> OpenAI:
    return OpenAI(**{"model": "gpt-3.5-turbo-instruct", "api_key": "sk-secret-one", **fields})


# The endpoint fields ChatOpenAI and the OpenAI completion model share.
OPENAI_ENDPOINTS = {
    "base_url": {"base_url": "http://localhost:8000/v1"},
    "organization": {"organization": "org-research"},
    "default_headers": {"default_headers": {"X-Route": "eu-west"}},
    "default_query": {"default_query": {"deployment": "canary"}},
}


@pytest.mark.parametrize("make", [chat, completion], ids=["ChatOpenAI", "OpenAI"])
@pytest.mark.parametrize("fields", OPENAI_ENDPOINTS.values(), ids=OPENAI_ENDPOINTS.keys())
def test_openai_endpoint_fields_split_the_namespace(
    make: Callable[..., BaseLanguageModel[Any]], fields: dict[str, Any]
) -> None:
    assert langchain_namespace(make(**fields)) != langchain_namespace(make())


def test_chat_openai_credentials_and_transport_keep_the_namespace() -> None:
    base = langchain_namespace(chat(default_headers={"Authorization": "Bearer tok-1"}))
    rotated = chat(
        api_key="sk-secret-two",
        default_headers={"Authorization": "Bearer tok-2"},
        max_retries=7,
        timeout=3.0,
    )
    assert langchain_namespace(rotated) == base
    query = langchain_namespace(chat(default_query={"api-key": "qs-key-1"}))
    assert query == langchain_namespace(chat())


def test_chat_openai_sees_the_base_url_of_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    default = langchain_namespace(chat())
    monkeypatch.setenv("OPENAI_BASE_URL", "http://gateway.internal/v1")
    assert langchain_namespace(chat()) != default


def test_a_base_url_differing_by_a_final_slash_or_credentials_is_one_endpoint() -> None:
    plain = langchain_namespace(chat(base_url="http://localhost:8000/v1"))
    assert langchain_namespace(chat(base_url="http://localhost:8000/v1/")) == plain
    with_user = chat(base_url="http://user:sk-secret-two@localhost:8000/v1")
    assert langchain_namespace(with_user) == plain


def azure_chat(**fields: Any) -> AzureChatOpenAI:
    base = {
        "azure_deployment": "gpt4o-prod",
        "azure_endpoint": "https://one.openai.azure.com",
        "api_version": "2024-06-01",
        "api_key": "sk-secret-one",
    }
    return AzureChatOpenAI(**{**base, **fields})


@pytest.mark.parametrize(
    "fields",
    [
        {"azure_deployment": "gpt4o-canary"},
        {"azure_endpoint": "https://two.openai.azure.com"},
        {"api_version": "2024-10-21"},
        {"default_headers": {"X-Route": "eu-west"}},
    ],
    ids=["deployment", "endpoint", "api_version", "default_headers"],
)
def test_azure_chat_openai_endpoint_fields_split_the_namespace(fields: dict[str, Any]) -> None:
    assert langchain_namespace(azure_chat(**fields)) != langchain_namespace(azure_chat())


def test_azure_chat_openai_credentials_keep_the_namespace() -> None:
    rotated = azure_chat(api_key="sk-secret-two", azure_ad_token="sk-secret-one")
    assert langchain_namespace(rotated) == langchain_namespace(azure_chat())


def test_openai_completion_credentials_keep_the_namespace() -> None:
    rotated = completion(api_key="sk-secret-two", max_retries=9)
    assert langchain_namespace(rotated) == langchain_namespace(completion())


def azure_completion(**fields: Any) -> AzureOpenAI:
    base = {
        "azure_deployment": "instruct-prod",
        "azure_endpoint": "https://one.openai.azure.com",
        "api_version": "2024-06-01",
        "api_key": "sk-secret-one",
    }
    return AzureOpenAI(**{**base, **fields})


@pytest.mark.parametrize(
    "fields",
    [
        {"azure_deployment": "instruct-canary"},
        {"azure_endpoint": "https://two.openai.azure.com"},
        {"api_version": "2024-10-21"},
    ],
    ids=["deployment", "endpoint", "api_version"],
)
def test_azure_openai_completion_endpoint_fields_split_the_namespace(
    fields: dict[str, Any],
) -> None:
    assert langchain_namespace(azure_completion(**fields)) != langchain_namespace(
        azure_completion()
    )
    rotated = azure_completion(api_key="sk-secret-two")
    assert langchain_namespace(rotated) == langchain_namespace(azure_completion())


# -- LlamaIndex: the installed LLM classes, and one shaped like OpenAILike ----------------------


def test_llama_index_mock_llms_are_identified_by_their_settings() -> None:
    assert llama_namespace(MockLLM(max_tokens=8)) != llama_namespace(MockLLM(max_tokens=16))
    assert llama_namespace(MockLLM(system_prompt="Be terse.")) != llama_namespace(MockLLM())
    assert llama_namespace(MockFunctionCallingLLM()) != llama_namespace(MockLLM())
    assert llama_namespace(MockFunctionCallingLLM()) == llama_namespace(MockFunctionCallingLLM())


class HostedLike(ScriptedLLM):
    """A LlamaIndex model with the fields of ``OpenAILike`` / ``AzureOpenAI`` (not installed
    here): where it sends, and its credentials. Its answers name its endpoint (simulated)."""

    api_base: str = "https://api.openai.com/v1"
    api_version: str | None = None
    engine: str | None = None
    api_key: str = "sk-secret-one"
    default_headers: dict[str, str] | None = None
    timeout: float = 60.0
    max_retries: int = 3


@pytest.mark.parametrize(
    "fields",
    [
        {"api_base": "http://localhost:8000/v1"},
        {"api_version": "2024-10-21"},
        {"engine": "gpt4o-canary"},
        {"default_headers": {"X-Route": "eu-west"}},
    ],
    ids=["api_base", "api_version", "engine", "default_headers"],
)
def test_llama_index_endpoint_fields_split_the_namespace(fields: dict[str, Any]) -> None:
    assert llama_namespace(HostedLike(**fields)) != llama_namespace(HostedLike())


def test_llama_index_credentials_and_transport_keep_the_namespace() -> None:
    base = llama_namespace(HostedLike(default_headers={"Authorization": "Bearer tok-1"}))
    rotated = HostedLike(
        api_key="sk-secret-two",
        default_headers={"Authorization": "Bearer tok-2"},
        timeout=5.0,
        max_retries=0,
    )
    assert llama_namespace(rotated) == base


# -- through the wrappers: no answer of one endpoint is served for another ---------------------


class OfflineChatOpenAI(ChatOpenAI):
    """``ChatOpenAI`` whose generation is simulated (no network): it answers with its
    endpoint, so an answer served from another endpoint's entry would show."""

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, **kwargs: Any
    ) -> ChatResult:
        text = f"simulated answer from {self.openai_api_base or 'the default endpoint'}"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


PROMPT = "Which model are you? Answer in one line."


def test_langchain_wrappers_of_two_endpoints_never_share_an_answer() -> None:
    cache = StepCache()
    local = OfflineChatOpenAI(model="m", api_key="sk-secret-one", base_url="http://a:8000/v1")
    other = OfflineChatOpenAI(model="m", api_key="sk-secret-one", base_url="http://b:8000/v1")
    first = StepCacheLLM(llm=local, step_cache=cache).invoke(PROMPT)
    assert first.content == "simulated answer from http://a:8000/v1"
    second = StepCacheLLM(llm=other, step_cache=cache).invoke(PROMPT)
    assert second.content == "simulated answer from http://b:8000/v1"
    assert second.response_metadata["stepcache"]["decision"] == "miss"
    rotated = OfflineChatOpenAI(model="m", api_key="sk-secret-two", base_url="http://a:8000/v1")
    third = StepCacheLLM(llm=rotated, step_cache=cache).invoke(PROMPT)
    assert third.response_metadata["stepcache"]["decision"] == "exact"
    assert third.content == first.content


def test_llama_index_wrappers_of_two_endpoints_never_share_an_answer() -> None:
    cache = StepCache()

    def wrapper(**fields: Any) -> tuple[LlamaStepCacheLLM, HostedLike]:
        model = HostedLike(**fields)
        model.responder = lambda prompt: f"simulated answer from {model.api_base}"
        return LlamaStepCacheLLM(llm=model, step_cache=cache), model

    first, _ = wrapper(api_base="http://a:8000/v1")
    assert first.complete(PROMPT).text == "simulated answer from http://a:8000/v1"
    second, other = wrapper(api_base="http://b:8000/v1")
    answer = second.complete(PROMPT)
    assert answer.text == "simulated answer from http://b:8000/v1"
    assert answer.additional_kwargs["stepcache"]["decision"] == "miss"
    assert len(other.calls) == 1
    rotated, rotated_model = wrapper(api_base="http://a:8000/v1", api_key="sk-secret-two")
    again = rotated.complete(PROMPT)
    assert again.additional_kwargs["stepcache"]["decision"] == "exact"
    assert rotated_model.calls == []


def test_model_id_still_shares_entries_across_frameworks() -> None:
    cache = StepCache()
    hosted = OfflineChatOpenAI(model="m", api_key="sk-secret-one", base_url="http://a:8000/v1")
    StepCacheLLM(llm=hosted, step_cache=cache, model_id="shared").invoke(PROMPT)
    llama_model = ScriptedLLM(chat_model=True)
    llama = LlamaStepCacheLLM(llm=llama_model, step_cache=cache, model_id="shared")
    answer = llama.complete(PROMPT)
    assert answer.additional_kwargs["stepcache"]["decision"] == "exact"
    assert answer.text == "simulated answer from http://a:8000/v1"
    assert llama_model.calls == []
