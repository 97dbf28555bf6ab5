"""One wrapper call's model calls: the inner model through its public API, four ways.

:class:`InnerCall` answers the request path's :class:`ModelCall` actions for one call of the
wrapper: the caller's messages plus the turns the cache adds, sent through the inner model's
``invoke`` / ``ainvoke`` / ``stream`` / ``astream`` (``generate`` for a completion model) with
callbacks nested under the wrapper's run. A JSON-mode structured output is asked through the
inner model's own structured-output binding; a reply that calls tools is kept in the
tool-call form the cache stores.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel, BaseLLM
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import LLMResult
from langchain_core.runnables import RunnableConfig

from stepcache_integrations.adapter import (
    ConstrainJson,
    StreamedPiece,
    response_format_kwargs,
    usage_from_mapping,
)
from stepcache_integrations.core.protocol import ModelCall, ModelReply
from stepcache_integrations.langchain.request import stored_text, to_messages, to_prompt
from stepcache_integrations.langchain.runs import RunContext
from stepcache_integrations.langchain.streaming import for_caller, piece
from stepcache_integrations.langchain.structured import StructuredOutput

__all__ = ["InnerCall"]


@dataclass(frozen=True)
class InnerCall:
    """How one wrapper call reaches the inner model."""

    llm: BaseChatModel | BaseLLM
    messages: list[BaseMessage]
    stop: list[str] | None
    kwargs: dict[str, Any]  # for the inner model: delivery keywords removed
    context: RunContext
    structured: StructuredOutput | None = None
    tools: bool = False  # replies are stored in the tool-call form
    constrain_json: ConstrainJson | None = None  # the backend's response_format style

    def _kwargs(self, action: ModelCall) -> dict[str, Any]:
        """The inner call's keywords: the caller's, plus the response format that holds the
        model to the task's schema when that is enabled and the caller set none."""
        if "response_format" in self.kwargs:
            return self.kwargs
        return {
            **self.kwargs,
            **response_format_kwargs(self.constrain_json, action.response_schema),
        }

    def _reply(self, message: BaseMessage) -> ModelReply:
        usage = getattr(message, "usage_metadata", None) or {}
        text = stored_text(message) if self.tools else message.text
        return ModelReply(text, usage.get("input_tokens"), usage.get("output_tokens"), raw=message)

    def _json_mode(self) -> StructuredOutput | None:
        structured = self.structured
        return (
            structured
            if structured is not None and structured.method != "function_calling"
            else None
        )

    def call(self, action: ModelCall) -> ModelReply:
        return self._invoke(action, self.context.config())

    def audit(self, action: ModelCall) -> ModelReply:
        """The caller's conversation asked again for an audit (``StepCache(audit=...)``), on
        the auditor's thread: the inner model's public API, its run named
        ``stepcache_audit`` and tagged ``stepcache:audit`` under the wrapper call's run (the
        inner model's rate limiter and callbacks apply as to any call)."""
        return self._invoke(action, self.context.audit_config())

    def _invoke(self, action: ModelCall, config: RunnableConfig) -> ModelReply:
        conversation = to_messages(self.messages, action.extra_turns)
        structured = self._json_mode()
        if structured is not None:
            output = structured.inner(self.llm).invoke(conversation, config)
            return self._reply(structured.raw_message(output))
        if isinstance(self.llm, BaseChatModel):
            message = self.llm.invoke(conversation, config, stop=self.stop, **self._kwargs(action))
            return self._reply(message)
        prompt = to_prompt(self.llm, conversation)
        generated = self.llm.generate(
            [prompt],
            stop=self.stop,
            callbacks=config.get("callbacks"),
            tags=config.get("tags"),
            metadata=config.get("metadata"),
            run_name=config.get("run_name"),
            **self.kwargs,
        )
        return _llm_reply(generated)

    async def acall(self, action: ModelCall) -> ModelReply:
        conversation = to_messages(self.messages, action.extra_turns)
        config = self.context.config()
        structured = self._json_mode()
        if structured is not None:
            output = await structured.inner(self.llm).ainvoke(conversation, config)
            return self._reply(structured.raw_message(output))
        if isinstance(self.llm, BaseChatModel):
            message = await self.llm.ainvoke(
                conversation, config, stop=self.stop, **self._kwargs(action)
            )
            return self._reply(message)
        prompt = to_prompt(self.llm, conversation)
        generated = await self.llm.agenerate(
            [prompt], stop=self.stop, callbacks=self.context.child, **self.kwargs
        )
        return _llm_reply(generated)

    def _one_piece(self, reply: ModelReply) -> StreamedPiece[AIMessageChunk]:
        """A reply that was not streamed, as the only piece of a stream."""
        chunk = for_caller(reply.raw) if isinstance(reply.raw, BaseMessage) else None
        return StreamedPiece(
            chunk if chunk is not None else AIMessageChunk(content=reply.text),
            reply.text,
            reply.input_tokens,
            reply.output_tokens,
        )

    def stream(self, action: ModelCall) -> Iterator[StreamedPiece[AIMessageChunk]]:
        if self._json_mode() is not None:
            # The provider's JSON mode is asked through its structured-output binding, which
            # answers in one piece.
            yield self._one_piece(self.call(action))
            return
        conversation = to_messages(self.messages, action.extra_turns)
        config = self.context.config()
        source: Iterator[Any]
        if isinstance(self.llm, BaseChatModel):
            source = self.llm.stream(conversation, config, stop=self.stop, **self._kwargs(action))
        else:
            prompt = to_prompt(self.llm, conversation)
            source = self.llm.stream(prompt, config, stop=self.stop, **self.kwargs)
        try:
            for item in source:
                yield piece(item)
        finally:
            close = getattr(source, "close", None)
            if callable(close):
                close()

    async def astream(self, action: ModelCall) -> AsyncIterator[StreamedPiece[AIMessageChunk]]:
        if self._json_mode() is not None:
            yield self._one_piece(await self.acall(action))
            return
        conversation = to_messages(self.messages, action.extra_turns)
        config = self.context.config()
        source: AsyncIterator[Any]
        if isinstance(self.llm, BaseChatModel):
            source = self.llm.astream(conversation, config, stop=self.stop, **self._kwargs(action))
        else:
            prompt = to_prompt(self.llm, conversation)
            source = self.llm.astream(prompt, config, stop=self.stop, **self.kwargs)
        try:
            async for item in source:
                yield piece(item)
        finally:
            aclose = getattr(source, "aclose", None)
            if callable(aclose):
                await aclose()


def _llm_reply(result: LLMResult) -> ModelReply:
    usage = (result.llm_output or {}).get("token_usage")
    input_tokens, output_tokens = usage_from_mapping(usage)
    return ModelReply(result.generations[0][0].text, input_tokens, output_tokens)
