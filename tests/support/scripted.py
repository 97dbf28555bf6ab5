"""Scripted models for tests only: deterministic answers chosen by a function of the prompt."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field

Responder = Callable[[list[BaseMessage]], str]


class ScriptedChatModel(BaseChatModel):
    """Answers with ``responder(messages)``; counts calls; reports usage; streams by words."""

    responder: Responder
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    model_name: str = "scripted-1"
    temperature: float = 0.0

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "temperature": self.temperature}

    def _answer(self, messages: list[BaseMessage]) -> AIMessage:
        self.calls.append(list(messages))
        text = self.responder(messages)
        prompt_chars = sum(len(str(m.content)) for m in messages)
        return AIMessage(
            content=text,
            usage_metadata={
                "input_tokens": max(1, prompt_chars // 4),
                "output_tokens": max(1, len(text) // 4),
                "total_tokens": max(1, prompt_chars // 4) + max(1, len(text) // 4),
            },
        )

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._answer(messages))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        message = self._answer(messages)
        words = re.split(r"(\s+)", str(message.content))
        for word in words:
            if word:
                yield ChatGenerationChunk(message=AIMessageChunk(content=word))
        yield ChatGenerationChunk(
            message=AIMessageChunk(content="", usage_metadata=message.usage_metadata)
        )


_EQUATION = re.compile(r"(-?\d*)\s*\*?\s*([a-z])\s*([+-])\s*(\d+)\s*=\s*(-?\d+)")


def fmt(value: Fraction) -> str:
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def solve_steps(prompt: str, wrong: bool = False) -> str:
    """A step-by-step solution of ``a v + b = c`` (or ``a v - b = c``) found in ``prompt``."""
    match = _EQUATION.search(prompt)
    if match is None:
        return "I cannot find an equation."
    a_text, var, sign, b_text, c_text = match.groups()
    a = int(a_text) if a_text not in ("", "-") else (-1 if a_text == "-" else 1)
    b = int(b_text) * (1 if sign == "+" else -1)
    c = int(c_text)
    rhs = c - b
    solution = Fraction(rhs, a) + (1 if wrong else 0)
    move = f"Subtract {b} from both sides" if b >= 0 else f"Add {-b} to both sides"
    return (
        f"Step 1: Start with {match.group(0)}.\n"
        f"Step 2: {move}: {a}{var} = {rhs}.\n"
        f"Step 3: Divide both sides by {a}: {var} = {fmt(solution)}."
    )


def last_user_text(messages: list[BaseMessage]) -> str:
    return str(messages[-1].content)
