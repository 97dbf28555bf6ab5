"""Promise: a model that reports nonsense token counts never breaks the caller or stats().

Counts that are not non-negative finite integers (strings, NaN, negatives) are treated as
unknown and estimated, on every path of both adapters; the answer the caller paid for is
returned and cached, and ``stats()`` stays finite.
"""

from __future__ import annotations

import math
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseLLM
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult, Generation, LLMResult
from llama_index.core.base.llms.types import ChatMessage, CompletionResponse

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import ScriptedChatModel, ScriptedLLM

BAD_COUNTS: list[Any] = ["12", float("nan"), -3, float("inf"), 1.5, True]


class BadUsageLLM(BaseLLM):
    """A completion model whose provider reports broken token counts."""

    counts: list[Any]

    @property
    def _llm_type(self) -> str:
        return "bad-usage"

    def _generate(
        self,
        prompts: list[str],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> LLMResult:
        usage = {"prompt_tokens": self.counts[0], "completion_tokens": self.counts[1]}
        return LLMResult(
            generations=[[Generation(text="Paris is the capital of France.")]],
            llm_output={"token_usage": usage},
        )


class BadUsageChat(ScriptedChatModel):
    bad: Any = None

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        message = AIMessage(
            content="Paris is the capital of France.",
            usage_metadata={
                "input_tokens": self.bad,
                "output_tokens": self.bad,
                "total_tokens": self.bad,
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


def finite(stats: dict[str, Any]) -> bool:
    values = [stats["tokens_used"], stats["tokens_saved"], *stats["latency_ms"].values()]
    return all(isinstance(v, int | float) and math.isfinite(v) for v in values)


def test_a_completion_model_with_broken_counts() -> None:
    for bad in BAD_COUNTS:
        cache = StepCache()
        llm = StepCacheLLM(llm=BadUsageLLM(counts=[bad, bad]), step_cache=cache)
        answer = llm.invoke("What is the capital of France?")
        record = answer.response_metadata["stepcache"]
        assert answer.content == "Paris is the capital of France."
        assert record["tokens_estimated"] is True and record["stored"] is True
        assert isinstance(record["tokens_used"], int) and record["tokens_used"] > 0
        assert finite(cache.stats())


def test_a_chat_model_with_broken_counts_on_every_path() -> None:
    # LangChain's message model validates usage itself (strings and NaN cannot get in);
    # negative counts still can.
    for bad in (-3, -1_000_000):
        cache = StepCache()
        llm = StepCacheLLM(llm=BadUsageChat(responder=lambda m: "", bad=bad), step_cache=cache)
        invoked = llm.invoke("What is the capital of France?")
        streamed = list(llm.stream("What is the capital of Spain?"))
        assert invoked.response_metadata["stepcache"]["tokens_estimated"] is True
        assert streamed[-1].response_metadata["stepcache"]["tokens_estimated"] is True
        assert finite(cache.stats())


async def test_async_paths_with_broken_counts() -> None:
    cache = StepCache()
    llm = StepCacheLLM(llm=BadUsageChat(responder=lambda m: "", bad=-5), step_cache=cache)
    answer = await llm.ainvoke("What is the capital of Italy?")
    assert answer.response_metadata["stepcache"]["tokens_estimated"] is True
    assert finite(cache.stats())


def test_a_llama_index_model_with_broken_counts() -> None:
    class BadLlama(ScriptedLLM):
        def _completion(self, prompt: str) -> CompletionResponse:
            text, _ = self._answer(prompt)
            usage = {"prompt_tokens": float("nan"), "completion_tokens": "lots"}
            return CompletionResponse(text=text, raw={"usage": usage})

    cache = StepCache()
    llm = LlamaStepCacheLLM(llm=BadLlama(responder=lambda p: "Lisbon."), step_cache=cache)
    response = llm.complete("What is the capital of Portugal?")
    assert response.additional_kwargs["stepcache"]["tokens_estimated"] is True
    chat = llm.chat([ChatMessage(role="user", content="And of Spain?")])
    assert chat.additional_kwargs["stepcache"]["decision"] == "miss"
    assert finite(cache.stats())
