"""StepCache in a LlamaIndex query engine and chat engine, offline.

The inner model here is SIMULATED (a scripted LlamaIndex LLM that solves linear equations step
by step and reports token usage); in production it is any LlamaIndex LLM, e.g.
``OpenAI(model="gpt-4o-mini")``. The embedding model is LlamaIndex's ``MockEmbedding``.

A changed constant or a renamed variable is re-instantiated without a model call (reuse): the
prompt of a query or chat engine carries the retrieved context, and the text around the
equation is the same request, so the cached answer (the model's own, checked) shows what it
asks; every number of its steps is traced and written anew. A repeat is served exactly.

Run: ``python cookbook/llama_index_query_engine.py``
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from llama_index.core import Document, MockEmbedding, Settings, VectorStoreIndex
from llama_index.core.base.llms.types import (
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
)
from llama_index.core.callbacks import CallbackManager, TokenCountingHandler
from llama_index.core.chat_engine.types import ChatMode
from llama_index.core.llms import CustomLLM
from llama_index.core.llms.callbacks import llm_completion_callback
from pydantic import PrivateAttr

from stepcache_integrations import StepCache
from stepcache_integrations.llama_index import StepCacheLLM

EQUATION = re.compile(r"(\d+)([a-z]) \+ (\d+) = (\d+)")
QUESTION = "Solve for {v}: 3{v} + {b} = 20. Show each step as 'Step N:'."
DOCUMENTS = [
    "To solve a linear equation, isolate the variable: undo addition by subtracting the "
    "constant from both sides, then undo multiplication by dividing by the coefficient.",
    "Always check a solution by substituting it back into the original equation.",
]


class SimulatedTutor(CustomLLM):
    """SIMULATED model: solves the first ``a v + b = c`` in the prompt, counts its calls."""

    # Not a field: fields identify the model (and so the cache namespace).
    _calls: int = PrivateAttr(default=0)

    @property
    def calls(self) -> int:
        return self._calls

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="simulated-tutor", is_chat_model=True)

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self._calls += 1
        match = EQUATION.search(prompt)
        if match is None:
            text = "I can only solve linear equations."
        else:
            a, v, b, c = int(match[1]), match[2], int(match[3]), int(match[4])
            text = (
                f"Step 1: Start with {a}{v} + {b} = {c}.\n"
                f"Step 2: Subtract {b} from both sides: {a}{v} = {c - b}.\n"
                f"Step 3: Divide both sides by {a}: {v} = {Fraction(c - b, a)}."
            )
        usage = {"prompt_tokens": len(prompt) // 4, "completion_tokens": len(text) // 4}
        return CompletionResponse(text=text, raw={"usage": usage})

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        response = self.complete(prompt, formatted=formatted, **kwargs)
        yield CompletionResponse(text=response.text, delta=response.text, raw=response.raw)


def main() -> None:
    tokens = TokenCountingHandler(tokenizer=str.split)
    tutor = SimulatedTutor()
    cache = StepCache()
    Settings.embed_model = MockEmbedding(embed_dim=8)  # offline; any embedding model works
    Settings.callback_manager = CallbackManager([tokens])  # engines hand it to the LLM
    Settings.llm = StepCacheLLM(llm=tutor, step_cache=cache)
    records: list[Any] = []
    cache.add_listener(records.append)

    index = VectorStoreIndex.from_documents([Document(text=text) for text in DOCUMENTS])
    query_engine = index.as_query_engine()
    print("query engine (inner model SIMULATED):")
    for v, b in (("x", 5), ("x", 5), ("y", 5), ("x", 8)):
        answer = str(query_engine.query(QUESTION.format(v=v, b=b)))
        record = records[-1]
        final = re.findall(r"[a-z] = \S+", answer)[-1]
        print(
            f"  v={v} b={b} -> {record.decision:6} model_calls={record.model_calls} "
            f"tokens_used={record.tokens_used:4} answer: {final}"
        )

    chat_engine = index.as_chat_engine(chat_mode=ChatMode.CONTEXT)
    print("chat engine (a fresh conversation per question):")
    for v, b in (("z", 5), ("z", 11)):
        chat_engine.reset()
        answer = str(chat_engine.chat(QUESTION.format(v=v, b=b)))
        record = records[-1]
        final = re.findall(r"[a-z] = \S+", answer)[-1]
        print(f"  v={v} b={b} -> {record.decision:6} answer: {final}")

    stats = cache.stats()
    print("decisions:", {k: n for k, n in stats["decisions"].items() if n})
    print(
        f"SIMULATED model calls: {tutor.calls}; tokens counted by TokenCountingHandler: "
        f"{tokens.total_llm_token_count}; tokens saved: {stats['tokens_saved']}"
    )


if __name__ == "__main__":
    main()
