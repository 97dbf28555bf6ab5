"""Structured output through StepCache, offline: LangChain and LlamaIndex.

The models are SIMULATED (scripted extractors): they read "<Name> is <n> years old" in the
text and answer a ``Person`` as a tool call (function calling) or as JSON text (JSON mode).

- The second identical extraction makes no model call and returns an equal ``Person``.
- A text that differs only in a value the answer copied (a name) is re-instantiated: the
  output class is declared pure (``pure_tools=["Person"]``: its values are copied from the
  text and decide nothing else). Undeclared, a text with words beyond the object's values
  ("lives in London") asks the model, since those words might decide a value.
- A text that changed in any other way asks the model again.

Run: ``python cookbook/structured_output_example.py``
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock
from llama_index.core.llms import MockFunctionCallingLLM
from llama_index.core.prompts import PromptTemplate
from pydantic import BaseModel

from stepcache_integrations import StepCache, StepCacheLLM, StepCacheRecord
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM

PERSON = re.compile(r"([A-Z][a-z]+) is (\d+) years old")


class Person(BaseModel):
    """A person mentioned in a text."""

    name: str
    age: int


def found(text: str) -> dict[str, Any]:
    match = PERSON.search(text)
    return {"name": match[1], "age": int(match[2])} if match else {}


class ScriptedExtractor(BaseChatModel):
    """SIMULATED LangChain model: a tool call with the person, or JSON text in JSON mode."""

    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted-extractor"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls += 1
        person = found(str(messages[-1].content))
        if kwargs.get("tools"):
            name = kwargs["tools"][0]["function"]["name"]
            message = AIMessage(content="", tool_calls=[{"name": name, "args": person, "id": "c"}])
        else:
            message = AIMessage(content=json.dumps(person))
        return ChatResult(generations=[ChatGeneration(message=message)])


TEXTS = [
    "Ada is 36 years old and lives in London.",
    "Ada is 36 years old and lives in London.",  # identical: no model call
    "Grace is 36 years old and lives in London.",  # a copied value changed: re-instantiated
    "Ada is 37 years old, lives in Paris and has a cat.",  # changed otherwise: the model
]


def langchain_demo() -> None:
    print("LangChain: StepCacheLLM(...).with_structured_output(Person) (model SIMULATED)")
    records: list[StepCacheRecord] = []
    cache = StepCache()
    cache.add_listener(records.append)
    model = ScriptedExtractor()
    llm = StepCacheLLM(llm=model, step_cache=cache, pure_tools=["Person"])
    extract = llm.with_structured_output(Person)
    for text in TEXTS:
        calls = model.calls
        person = extract.invoke(f"Extract the person: {text}")
        print(
            f"  {records[-1].decision:<5} model calls: {model.calls - calls}  "
            f"{type(person).__name__}({person})"
        )


def llama_index_demo() -> None:
    print("LlamaIndex: StepCacheLLM(...).structured_predict(Person, ...) (model SIMULATED)")
    records: list[StepCacheRecord] = []
    cache = StepCache()
    cache.add_listener(records.append)
    calls = [0]

    def extractor(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        calls[0] += 1
        tool_name = kwargs["tools"][0].metadata.name
        person = found(str(messages[-1].content))
        call = ToolCallBlock(tool_call_id="c", tool_name=tool_name, tool_kwargs=person)
        return ChatMessage(role="assistant", blocks=[call])

    inner = MockFunctionCallingLLM(response_generator=extractor)
    llm = LlamaStepCacheLLM(llm=inner, step_cache=cache, pure_tools=["Person"])
    prompt = PromptTemplate("Extract the person: {text}")
    for text in TEXTS:
        before = calls[0]
        person = llm.structured_predict(Person, prompt, text=text)
        print(
            f"  {records[-1].decision:<5} model calls: {calls[0] - before}  "
            f"{type(person).__name__}({person})"
        )


def main() -> None:
    langchain_demo()
    llama_index_demo()


if __name__ == "__main__":
    main()
