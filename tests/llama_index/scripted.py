"""A scripted LlamaIndex LLM for tests: deterministic answers, reported usage, word streaming."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.base.llms.types import (
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
)
from llama_index.core.llms import CustomLLM
from llama_index.core.llms.callbacks import llm_completion_callback
from pydantic import Field

from stepcache_integrations.core.embeddings import StructuralEmbedder
from tests.support.scripted import solve_steps

Responder = Callable[[str], str]

EQ = "Solve for {v}: {a}{v} + {b} = {c}. Show each step as 'Step N:'."


def eq(v: str = "x", a: int = 3, b: int = 5, c: int = 20) -> str:
    return EQ.format(v=v, a=a, b=b, c=c)


def respond(prompt: str) -> str:
    """Solves the first equation in the prompt; answers JSON when JSON is asked for."""
    if "JSON" in prompt:
        numbers = [int(n) for n in re.findall(r"-?\d+", prompt.split("JSON", 1)[1])][:3]
        numbers += [0] * (3 - len(numbers))
        return json.dumps(dict(zip("abc", numbers, strict=True)))
    return solve_steps(prompt)


def usage(prompt: str, text: str) -> dict[str, int]:
    prompt_tokens, completion_tokens = max(1, len(prompt) // 4), max(1, len(text) // 4)
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


class ScriptedLLM(CustomLLM):
    """Answers ``responder(prompt)``; records prompts; reports usage in ``raw["usage"]``."""

    responder: Responder = Field(default=respond, exclude=True)
    calls: list[str] = Field(default_factory=list, exclude=True)
    model_name: str = "scripted-li-1"
    chat_model: bool = False
    temperature: float = 0.0

    @classmethod
    def class_name(cls) -> str:
        return "ScriptedLLM"

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name=self.model_name, is_chat_model=self.chat_model)

    def _answer(self, prompt: str) -> tuple[str, dict[str, int]]:
        self.calls.append(prompt)
        text = self.responder(prompt)
        return text, usage(prompt, text)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        text, spent = self._answer(prompt)
        return CompletionResponse(text=text, raw={"usage": spent})

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        text, spent = self._answer(prompt)

        def words() -> CompletionResponseGen:
            shown = ""
            pieces = [p for p in re.split(r"(\s+)", text) if p]
            for position, piece in enumerate(pieces):
                shown += piece
                last = position == len(pieces) - 1
                yield CompletionResponse(
                    text=shown, delta=piece, raw={"usage": spent} if last else None
                )

        return words()


class StructuralEmbedding(BaseEmbedding):
    """A LlamaIndex embedding model over the core's offline structural embedder."""

    @classmethod
    def class_name(cls) -> str:
        return "StructuralEmbedding"

    def _get_text_embedding(self, text: str) -> list[float]:
        return [float(v) for v in StructuralEmbedder().embed([text])[0]]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._get_text_embedding(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_text_embedding(query)
