"""LangChain's standard unit tests for chat models, run against StepCacheLLM."""

from __future__ import annotations

from typing import Any

from langchain_openai import ChatOpenAI
from langchain_tests.unit_tests import ChatModelUnitTests

from stepcache_integrations import StepCacheLLM


class TestStepCacheLLMStandard(ChatModelUnitTests):
    @property
    def chat_model_class(self) -> type[StepCacheLLM]:
        return StepCacheLLM

    @property
    def chat_model_params(self) -> dict[str, Any]:
        # A real partner model as the inner one (no request is sent by these tests).
        return {"llm": ChatOpenAI(model="gpt-4o-mini", api_key="test-key")}

    @property
    def has_tool_calling(self) -> bool:
        return True

    @property
    def has_structured_output(self) -> bool:
        return True
