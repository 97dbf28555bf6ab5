"""What the LlamaIndex wrapper relies on in llama-index-core, one behaviour per test.

The wrapper takes the tenant as a call keyword (``stepcache_tenant=``), which reaches its
``chat`` directly on every path but one: tool calling, where llama-index builds the call of
``chat`` from what ``_prepare_chat_with_tools`` returns (the wrapper puts the tenant back
there, since an integration may drop unknown keywords). And ``structured_predict`` runs its
program inside the call, so the output class the wrapper keeps in a ContextVar while it runs
reaches the ``chat``/``complete`` the program makes (every answer is checked by the class).
Each test pins one of these behaviours on a bare probe model (no StepCache involved), so that
an upgrade changing them fails the test named for the behaviour.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, ChatResponse, ToolCallBlock
from llama_index.core.llms import MockFunctionCallingLLM
from llama_index.core.prompts import PromptTemplate
from llama_index.core.tools import FunctionTool
from pydantic import BaseModel, Field

MARK: ContextVar[str | None] = ContextVar("llama_contract_mark", default=None)


class Person(BaseModel):
    """A person mentioned in a text."""

    name: str
    age: int


def call_first_tool(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
    tools = kwargs.get("tools") or []
    if not tools:
        return ChatMessage(role="assistant", content="no tools")
    block = ToolCallBlock(
        tool_call_id="call-1",
        tool_name=tools[0].metadata.name,
        tool_kwargs={"name": "Ada", "age": 36},
    )
    return ChatMessage(role="assistant", blocks=[block])


class Probe(MockFunctionCallingLLM):
    """Records the keywords ``chat`` and its variants receive, and what :data:`MARK` holds
    then; ``_prepare_chat_with_tools`` adds a keyword of its own, as the wrapper does."""

    calls: list[dict[str, Any]] = Field(default_factory=list)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(response_generator=call_first_tool, is_chat_model=True, **kwargs)

    def _record(self, method: str, kwargs: dict[str, Any]) -> None:
        self.calls.append({"method": method, "kwargs": dict(kwargs), "mark": MARK.get()})

    def _prepare_chat_with_tools(self, tools: Sequence[Any], **kwargs: Any) -> dict[str, Any]:
        prepared = super()._prepare_chat_with_tools(tools, **kwargs)
        return {**prepared, "kept": "by chat"}

    def _seen(self, method: str, kwargs: dict[str, Any]) -> dict[str, Any]:
        """Record the call; the keywords for the mock (without the probe's own)."""
        self._record(method, kwargs)
        return {key: value for key, value in kwargs.items() if key != "kept"}

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return super().chat(messages, **self._seen("chat", kwargs))

    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        return await super().achat(messages, **self._seen("achat", kwargs))

    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> Any:
        return super().stream_chat(messages, **self._seen("stream_chat", kwargs))

    async def astream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> Any:
        return await super().astream_chat(messages, **self._seen("astream_chat", kwargs))

    def kept(self, method: str) -> list[Any]:
        return [c["kwargs"].get("kept") for c in self.calls if c["method"] == method]


def tool() -> FunctionTool:
    def remember(name: str, age: int) -> str:
        """Remember a person."""
        return f"{name} ({age})"

    return FunctionTool.from_defaults(fn=remember)


def test_llama_index_chat_with_tools_calls_chat_with_what__prepare_chat_with_tools_returned() -> (
    None
):
    probe = Probe()
    probe.chat_with_tools([tool()], user_msg="Ada is 36.")
    assert probe.kept("chat") == ["by chat"]


async def test_llama_index_achat_with_tools_calls_achat_with_what__prepare_returned() -> None:
    probe = Probe()
    await probe.achat_with_tools([tool()], user_msg="Ada is 36.")
    assert probe.kept("achat") == ["by chat"]


def test_llama_index_stream_chat_with_tools_calls_stream_chat_with_what__prepare_returned() -> None:
    probe = Probe()
    list(probe.stream_chat_with_tools([tool()], user_msg="Ada is 36."))
    assert probe.kept("stream_chat") == ["by chat"]


async def test_llama_index_astream_chat_with_tools_calls_astream_chat_with_what_prepare_returned() -> (  # noqa: E501
    None
):
    probe = Probe()
    chunks = await probe.astream_chat_with_tools([tool()], user_msg="Ada is 36.")
    [chunk async for chunk in chunks]
    assert probe.kept("astream_chat") == ["by chat"]


def test_llama_index_predict_and_call_goes_through_chat_with_tools() -> None:
    probe = Probe()
    probe.predict_and_call([tool()], user_msg="Ada is 36.")
    assert probe.kept("chat") == ["by chat"]


def test_llama_index_structured_predict_calls_the_models_chat_within_the_call() -> None:
    probe = Probe()
    token = MARK.set("structured_predict")
    try:
        person = probe.structured_predict(Person, PromptTemplate("Extract: {text}"), text="Ada")
    finally:
        MARK.reset(token)
    assert person == Person(name="Ada", age=36)
    assert [c["mark"] for c in probe.calls if c["method"] == "chat"] == ["structured_predict"]


async def test_llama_index_astructured_predict_calls_the_models_achat_within_the_call() -> None:
    probe = Probe()
    token = MARK.set("astructured_predict")
    try:
        person = await probe.astructured_predict(
            Person, PromptTemplate("Extract: {text}"), text="Ada"
        )
    finally:
        MARK.reset(token)
    assert person == Person(name="Ada", age=36)
    assert [c["mark"] for c in probe.calls if c["method"] == "achat"] == ["astructured_predict"]
