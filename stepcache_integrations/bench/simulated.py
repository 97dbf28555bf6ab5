"""The SIMULATED backend: a deterministic LangChain chat model for fast benchmark runs.

A real ``BaseChatModel`` subclass (so caches, callbacks and ``StepCacheLLM`` treat it like any
provider). It answers the workload's prompts, and the continue / repair prompts a step cache
sends, with a realistic error rate (``Rates``), reports ``usage_metadata`` (input tokens about
len(prompt)/4, output tokens of its answer) and sleeps a latency per token so timings have the
shape of a small CPU model. Every response is marked ``simulated`` and the model's name starts
with SIMULATED, so no table can pass it off as a real model.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from stepcache_integrations.bench.simulated_answers import Rates, respond

__all__ = ["SIMULATED_LABEL", "SimulatedChatModel", "estimate_tokens"]

SIMULATED_LABEL = "SIMULATED"


def estimate_tokens(text: str) -> int:
    """About four characters per token, the usual rule of thumb for English text."""
    return max(1, math.ceil(len(text) / 4)) if text else 0


class SimulatedChatModel(BaseChatModel):
    """SIMULATED small instruct model; deterministic for a given ``seed`` and prompt.

    Example:
        >>> model = SimulatedChatModel(latency_scale=0)
        >>> model.invoke("Solve 2x + 1 = 7 for x.").response_metadata["simulated"]
        True
    """

    model_name: str = "SIMULATED-smollm2-135m"
    seed: int = 0
    equation_accuracy: float = Field(default=0.3, ge=0, le=1)
    json_accuracy: float = Field(default=0.8, ge=0, le=1)
    continuation_accuracy: float = Field(default=0.7, ge=0, le=1)
    repair_accuracy: float = Field(default=0.6, ge=0, le=1)
    word_accuracy: float = Field(default=0.4, ge=0, le=1)
    ms_per_output_token: float = Field(default=10.0, ge=0)
    ms_per_input_token: float = Field(default=0.5, ge=0)
    latency_scale: float = Field(default=1.0, ge=0)
    max_tokens: int = Field(default=256, gt=0)
    temperature: float = 0.0

    @property
    def _llm_type(self) -> str:
        return "simulated"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {
            "model_name": self.model_name,
            "seed": self.seed,
            "rates": self._rates().__dict__,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "simulated": True,
        }

    def _rates(self) -> Rates:
        return Rates(
            self.equation_accuracy,
            self.json_accuracy,
            self.continuation_accuracy,
            self.repair_accuracy,
            self.word_accuracy,
        )

    def _respond(
        self, messages: list[BaseMessage], stop: list[str] | None
    ) -> tuple[AIMessage, float]:
        """The answer message and the simulated latency (seconds) it should take."""
        conversation = "\n\n".join(message.text for message in messages)

        def draw(purpose: str) -> float:
            digest = hashlib.sha256(f"{self.seed}\0{purpose}\0{conversation}".encode()).digest()
            return int.from_bytes(digest[:8], "big") / 2**64

        text = respond(conversation, draw, self._rates())
        finish = "stop"
        for marker in stop or []:
            if marker and marker in text:
                text = text[: text.index(marker)]
        if estimate_tokens(text) > self.max_tokens:
            text, finish = text[: self.max_tokens * 4], "length"
        usage = UsageMetadata(
            input_tokens=estimate_tokens(conversation),
            output_tokens=estimate_tokens(text),
            total_tokens=estimate_tokens(conversation) + estimate_tokens(text),
        )
        seconds = (
            (
                usage["input_tokens"] * self.ms_per_input_token
                + usage["output_tokens"] * self.ms_per_output_token
            )
            * self.latency_scale
            / 1000
        )
        message = AIMessage(
            content=text,
            usage_metadata=usage,
            response_metadata={
                "model_name": self.model_name,
                "finish_reason": finish,
                "simulated": True,
                "simulated_latency_s": seconds,
            },
        )
        return message, seconds

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message, seconds = self._respond(messages, stop)
        if seconds:
            time.sleep(seconds)
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message, seconds = self._respond(messages, stop)
        if seconds:
            await asyncio.sleep(seconds)
        return ChatResult(generations=[ChatGeneration(message=message)])
