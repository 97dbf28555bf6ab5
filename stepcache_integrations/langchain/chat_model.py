"""``StepCacheLLM``: a LangChain chat model that puts StepCache in front of any model."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid4

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
)
from langchain_core.language_models import BaseChatModel, BaseLLM
from langchain_core.language_models.base import LangSmithParams
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult, LLMResult
from langchain_core.runnables import Runnable, RunnableBinding, RunnableConfig, ensure_config
from langchain_core.runnables.config import (
    get_async_callback_manager_for_config,
    get_callback_manager_for_config,
)
from pydantic import ConfigDict, Field, model_validator

from stepcache_integrations.core.cache import StepCache, as_verifier
from stepcache_integrations.core.drivers import drive, drive_async
from stepcache_integrations.core.protocol import (
    CacheRequest,
    Emit,
    ModelCall,
    ModelReply,
    ServeGenerator,
    ServeResult,
)
from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.langchain.request import (
    TENANT_METADATA_KEY,
    build_request,
    to_messages,
    to_prompt,
)

__all__ = ["STEPCACHE_EVENT", "StepCacheLLM"]

STEPCACHE_EVENT = "stepcache"


@dataclass(frozen=True)
class _StreamCall:
    """The config and run id of a ``stream``/``astream`` call.

    LangChain calls ``_stream``/``_astream`` without the run manager, so the per-call tenant
    and the decision event would be lost; ``stream``/``astream`` leave them here.
    """

    config: RunnableConfig
    run_id: UUID


_STREAM_CALL: ContextVar[_StreamCall | None] = ContextVar("stepcache_stream_call", default=None)


def _with_run_id(config: RunnableConfig | None) -> tuple[RunnableConfig, _StreamCall]:
    config = ensure_config(config)
    run_id = config.get("run_id") or uuid4()
    config = RunnableConfig(**{**config, "run_id": run_id})
    return config, _StreamCall(config, run_id)


def _usage(message: BaseMessage) -> tuple[int | None, int | None]:
    usage = getattr(message, "usage_metadata", None)
    if not usage:
        return None, None
    return usage.get("input_tokens"), usage.get("output_tokens")


def _usage_metadata(record: StepCacheRecord) -> UsageMetadata:
    return UsageMetadata(
        input_tokens=record.tokens_input,
        output_tokens=record.tokens_output,
        total_tokens=record.tokens_used,
    )


class StepCacheLLM(BaseChatModel):
    """Step-level answer cache in front of any LangChain chat model or LLM.

    Identical requests are answered from the cache; similar ones reuse every cached step that
    still verifies against the new request and regenerate only the failing block; answers
    that fail a check are repaired once, never cached. Every response carries the record of
    what happened in ``response_metadata["stepcache"]`` and the tokens really spent in
    ``usage_metadata``.

    Setup:
        .. code-block:: bash

            pip install -e .  # in a checkout of stepcache-integrations

    Key init args:
        llm: the wrapped ``BaseChatModel`` or ``BaseLLM``.
        step_cache: a :class:`~stepcache_integrations.StepCache` to share between wrappers
            (default: a new one per wrapper). Not ``cache``: that stays LangChain's own
            exact cache field.
        tenant: entries are isolated per tenant; a call's
            ``config={"metadata": {"stepcache_tenant": ...}}`` wins over it.
        verifiers: extra verifiers for this wrapper (output parsers, callables, Verifiers).
        json_schema: a JSON Schema dict or Pydantic model JSON answers must satisfy.
        model_id: a name for the inner model that replaces its framework-specific identity
            in the namespace; wrappers of LangChain and LlamaIndex with the same ``model_id``
            (and one shared ``StepCache``) share entries.

    Instantiate:
        .. code-block:: python

            from langchain_openai import ChatOpenAI
            from stepcache_integrations import StepCache, StepCacheLLM

            llm = StepCacheLLM(llm=ChatOpenAI(model="gpt-4o-mini"), step_cache=StepCache())

    Invoke:
        .. code-block:: python

            llm.invoke("Solve for x: 3x + 5 = 20. Answer step by step.")
            msg = llm.invoke("Solve for y: 3y + 5 = 20. Answer step by step.")
            msg.response_metadata["stepcache"]["decision"]   # 'reuse': no model call

    Stream:
        .. code-block:: python

            for chunk in llm.stream("Solve for z: 3z + 5 = 20"):
                print(chunk.content, end="")   # reused steps arrive at once

    Tool calling:
        ``bind_tools`` binds the inner model's tool format to this wrapper; tool-calling
        requests go straight to the inner model (decision ``bypass``).
    """

    llm: BaseChatModel | BaseLLM
    step_cache: StepCache = Field(default_factory=StepCache)
    tenant: str | None = None
    model_id: str | None = None
    verifiers: list[Any] = Field(default_factory=list)
    json_schema: Any = None

    model_config = ConfigDict(arbitrary_types_allowed=True)

    @model_validator(mode="before")
    @classmethod
    def _check_types(cls, data: Any) -> Any:
        if isinstance(data, dict):
            llm = data.get("llm")
            if not isinstance(llm, BaseChatModel | BaseLLM):
                raise ValueError(
                    f"llm must be a LangChain BaseChatModel or BaseLLM, got {type(llm).__name__}"
                )
            cache = data.get("step_cache")
            if cache is not None and not isinstance(cache, StepCache):
                raise ValueError(f"step_cache must be a StepCache, got {type(cache).__name__}")
        return data

    @model_validator(mode="after")
    def _inherit_from_inner(self) -> StepCacheLLM:
        self._verifiers = [as_verifier(v) for v in self.verifiers]
        if self.profile is None and isinstance(self.llm, BaseChatModel):
            self.profile = self.llm.profile
        return self

    # -- identity: what LangChain's caches, tracing and the namespace see ----------------------

    @property
    def _llm_type(self) -> str:
        return f"stepcache-{getattr(self.llm, '_llm_type', type(self.llm).__name__)}"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        # Include the inner model's parameters: LangChain's own cache keys on these, and two
        # wrappers around different models must never share its entries.
        inner = getattr(self.llm, "_identifying_params", {})
        return {
            "inner_type": getattr(self.llm, "_llm_type", type(self.llm).__name__),
            "inner": dict(inner),
            "tenant": self.tenant,
        }

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        params = self.llm._get_ls_params(stop=stop, **kwargs)
        params["ls_model_type"] = "chat"
        return params

    def bind_tools(
        self,
        tools: Sequence[Any],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[Any, AIMessage]:
        """Bind tools in the inner model's format; tool-calling calls bypass the cache."""
        if not isinstance(self.llm, BaseChatModel):
            raise NotImplementedError(f"{type(self.llm).__name__} does not support tools")
        bound = self.llm.bind_tools(tools, tool_choice=tool_choice, **kwargs)
        if isinstance(bound, RunnableBinding) and bound.bound is self.llm:
            # Keep this wrapper in the loop so the call is recorded (as a bypass).
            return self.bind(**bound.kwargs)
        return bound

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[Any, Any]:
        """Delegated to the inner model (its tool / JSON-mode plumbing, not cached).

        For cached structured output, prompt for JSON and pass the Pydantic model as
        ``json_schema`` (or a ``PydanticOutputParser`` as a verifier).
        """
        return self.llm.with_structured_output(schema, **kwargs)

    # -- the cache request -------------------------------------------------------------------

    def _request(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None,
        run_manager: CallbackManagerForLLMRun | AsyncCallbackManagerForLLMRun | None,
        kwargs: dict[str, Any],
    ) -> CacheRequest:
        if run_manager is not None:
            metadata = run_manager.metadata
        else:
            call = _STREAM_CALL.get()
            metadata = dict(call.config.get("metadata") or {}) if call else {}
        tenant = metadata.get(TENANT_METADATA_KEY) or self.tenant
        options = {"json_schema": self.json_schema} if self.json_schema is not None else {}
        return build_request(
            self.llm,
            messages,
            stop=stop,
            kwargs=kwargs,
            tenant=tenant,
            options=options,
            verifiers=self._verifiers,
            model_id=self.model_id,
        )

    def _model_name(self) -> str:
        for attribute in ("model_name", "model", "model_id"):
            value = getattr(self.llm, attribute, None)
            if isinstance(value, str):
                return value
        return str(getattr(self.llm, "_llm_type", type(self.llm).__name__))

    def _message(self, result: ServeResult) -> AIMessage:
        record = result.record.to_dict()
        metadata = {"model_name": self._model_name(), "stepcache": record}
        raw = result.full_reply.raw if result.full_reply else None
        if isinstance(raw, AIMessage):
            # The inner model's own message (tool calls, ids, provider metadata) with the
            # record and the tokens this request really spent.
            return raw.model_copy(
                update={
                    "response_metadata": {**raw.response_metadata, **metadata},
                    "usage_metadata": _usage_metadata(result.record),
                }
            )
        return AIMessage(
            content=result.text,
            response_metadata=metadata,
            usage_metadata=_usage_metadata(result.record),
        )

    # -- calling the inner model -------------------------------------------------------------

    def _inner_call(
        self, messages: list[BaseMessage], stop: list[str] | None, kwargs: dict[str, Any]
    ) -> Callable[[ModelCall], ModelReply]:
        def call(action: ModelCall) -> ModelReply:
            conversation = to_messages(messages, action.extra_turns)
            # run_manager=None: this wrapper is the LLM run; streamed tokens reach callbacks
            # through our own chunks, so the inner model must not report them a second time.
            if isinstance(self.llm, BaseChatModel):
                return _chat_reply(self.llm._generate(conversation, stop=stop, **kwargs))
            assert isinstance(self.llm, BaseLLM)
            prompt = to_prompt(self.llm, conversation)
            return _llm_reply(self.llm._generate([prompt], stop=stop, **kwargs))

        return call

    def _inner_acall(
        self, messages: list[BaseMessage], stop: list[str] | None, kwargs: dict[str, Any]
    ) -> Callable[[ModelCall], Any]:
        async def call(action: ModelCall) -> ModelReply:
            conversation = to_messages(messages, action.extra_turns)
            if isinstance(self.llm, BaseChatModel):
                return _chat_reply(await self.llm._agenerate(conversation, stop=stop, **kwargs))
            assert isinstance(self.llm, BaseLLM)
            prompt = to_prompt(self.llm, conversation)
            return _llm_reply(await self.llm._agenerate([prompt], stop=stop, **kwargs))

        return call

    def _inner_stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None,
        kwargs: dict[str, Any],
    ) -> Iterator[ChatGenerationChunk]:
        """The inner model's chunks (a single chunk when it cannot stream)."""
        if isinstance(self.llm, BaseChatModel):
            if type(self.llm)._stream is BaseChatModel._stream:
                yield _whole_as_chunk(self.llm._generate(messages, stop=stop, **kwargs))
                return
            yield from self.llm._stream(messages, stop=stop, **kwargs)
            return
        assert isinstance(self.llm, BaseLLM)
        prompt = to_prompt(self.llm, messages)
        try:
            for text_chunk in self.llm._stream(prompt, stop=stop, **kwargs):
                yield ChatGenerationChunk(message=AIMessageChunk(content=text_chunk.text))
        except NotImplementedError:
            llm_result = self.llm._generate([prompt], stop=stop, **kwargs)
            yield ChatGenerationChunk(
                message=AIMessageChunk(content=llm_result.generations[0][0].text)
            )

    async def _inner_astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None,
        kwargs: dict[str, Any],
    ) -> AsyncIterator[ChatGenerationChunk]:
        if isinstance(self.llm, BaseChatModel):
            if (
                type(self.llm)._astream is BaseChatModel._astream
                and type(self.llm)._stream is BaseChatModel._stream
            ):
                yield _whole_as_chunk(await self.llm._agenerate(messages, stop=stop, **kwargs))
                return
            async for chunk in self.llm._astream(messages, stop=stop, **kwargs):
                yield chunk
            return
        assert isinstance(self.llm, BaseLLM)
        prompt = to_prompt(self.llm, messages)
        try:
            async for text_chunk in self.llm._astream(prompt, stop=stop, **kwargs):
                yield ChatGenerationChunk(message=AIMessageChunk(content=text_chunk.text))
        except NotImplementedError:
            llm_result = await self.llm._agenerate([prompt], stop=stop, **kwargs)
            yield ChatGenerationChunk(
                message=AIMessageChunk(content=llm_result.generations[0][0].text)
            )

    # -- decisions as callback events --------------------------------------------------------

    def _announce(
        self, run_manager: CallbackManagerForLLMRun | None, record: StepCacheRecord
    ) -> None:
        target = _event_target(run_manager)
        if target is not None:
            config, run_id = target
            manager = get_callback_manager_for_config(config)
            manager.on_custom_event(STEPCACHE_EVENT, record.to_dict(), run_id=run_id)

    async def _aannounce(
        self, run_manager: AsyncCallbackManagerForLLMRun | None, record: StepCacheRecord
    ) -> None:
        target = _event_target(run_manager)
        if target is not None:
            config, run_id = target
            manager = get_async_callback_manager_for_config(config)
            await manager.on_custom_event(STEPCACHE_EVENT, record.to_dict(), run_id=run_id)

    # -- streaming entry points: keep the call's config reachable from _stream / _astream -----

    def stream(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        stop: list[str] | None = None,
        **kwargs: Any,
    ) -> Iterator[AIMessageChunk]:
        config, call = _with_run_id(config)
        _STREAM_CALL.set(call)
        try:
            yield from super().stream(input, config, stop=stop, **kwargs)
        finally:
            _STREAM_CALL.set(None)

    async def astream(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        stop: list[str] | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[AIMessageChunk]:
        config, call = _with_run_id(config)
        _STREAM_CALL.set(call)
        try:
            async for chunk in super().astream(input, config, stop=stop, **kwargs):
                yield chunk
        finally:
            _STREAM_CALL.set(None)

    # -- BaseChatModel hooks: the cache lives in all four --------------------------------------

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        request = self._request(messages, stop, run_manager, kwargs)
        result = drive(self.step_cache.serve(request), self._inner_call(messages, stop, kwargs))
        self._announce(run_manager, result.record)
        return ChatResult(generations=[ChatGeneration(message=self._message(result))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        request = self._request(messages, stop, run_manager, kwargs)
        result = await drive_async(
            self.step_cache.serve(request), self._inner_acall(messages, stop, kwargs)
        )
        await self._aannounce(run_manager, result.record)
        return ChatResult(generations=[ChatGeneration(message=self._message(result))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        request = self._request(messages, stop, run_manager, kwargs)
        flow = self.step_cache.serve(request)
        call = self._inner_call(messages, stop, kwargs)
        reply: ModelReply | None = None
        try:
            while True:
                action = flow.send(reply)
                reply = None
                if isinstance(action, Emit):
                    yield ChatGenerationChunk(message=AIMessageChunk(content=action.text))
                elif action.live:
                    conversation = to_messages(messages, action.extra_turns)
                    reply = yield from _relay(self._inner_stream(conversation, stop, kwargs))
                else:
                    reply = call(action)
        except StopIteration as stop_iteration:
            result: ServeResult = stop_iteration.value
        finally:
            flow.close()
        self._announce(run_manager, result.record)
        yield self._closing_chunk(result)

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        request = self._request(messages, stop, run_manager, kwargs)
        flow: ServeGenerator = self.step_cache.serve(request)
        call = self._inner_acall(messages, stop, kwargs)
        reply: ModelReply | None = None
        try:
            while True:
                action = flow.send(reply)
                reply = None
                if isinstance(action, Emit):
                    yield ChatGenerationChunk(message=AIMessageChunk(content=action.text))
                elif action.live:
                    conversation = to_messages(messages, action.extra_turns)
                    parts: list[str] = []
                    usage: list[tuple[int | None, int | None]] = []
                    async for chunk in self._inner_astream(conversation, stop, kwargs):
                        parts.append(chunk.message.text)
                        usage.append(_usage(chunk.message))
                        yield _without_usage(chunk)
                    reply = _reply_from_parts(parts, usage)
                else:
                    reply = await call(action)
        except StopIteration as stop_iteration:
            result: ServeResult = stop_iteration.value
        finally:
            flow.close()
        await self._aannounce(run_manager, result.record)
        yield self._closing_chunk(result)

    def _closing_chunk(self, result: ServeResult) -> ChatGenerationChunk:
        """The last chunk: any text not yet shown, the record and the real usage."""
        remaining = (
            result.text[len(result.emitted) :] if result.text.startswith(result.emitted) else ""
        )
        return ChatGenerationChunk(
            message=AIMessageChunk(
                content=remaining,
                response_metadata={
                    "model_name": self._model_name(),
                    "stepcache": result.record.to_dict(),
                },
                usage_metadata=_usage_metadata(result.record),
            )
        )


def _whole_as_chunk(result: ChatResult) -> ChatGenerationChunk:
    """A model that cannot stream answers in one chunk."""
    message = result.generations[0].message
    fields = message.model_dump(include={"content", "usage_metadata", "response_metadata"})
    return ChatGenerationChunk(message=AIMessageChunk(**fields))


def _chat_reply(result: ChatResult) -> ModelReply:
    message = result.generations[0].message
    input_tokens, output_tokens = _usage(message)
    return ModelReply(str(message.text), input_tokens, output_tokens, raw=message)


def _llm_reply(result: LLMResult) -> ModelReply:
    usage = (result.llm_output or {}).get("token_usage", {})
    return ModelReply(
        result.generations[0][0].text, usage.get("prompt_tokens"), usage.get("completion_tokens")
    )


def _event_target(
    run_manager: CallbackManagerForLLMRun | AsyncCallbackManagerForLLMRun | None,
) -> tuple[RunnableConfig, UUID] | None:
    """Where the decision event goes: this LLM run's handlers and id."""
    if run_manager is not None:
        config = RunnableConfig(
            callbacks=run_manager.handlers, tags=run_manager.tags, metadata=run_manager.metadata
        )
        return config, run_manager.run_id
    call = _STREAM_CALL.get()
    return None if call is None else (call.config, call.run_id)


def _without_usage(chunk: ChatGenerationChunk) -> ChatGenerationChunk:
    # Usage is reported once, on the closing chunk, for the whole request; everything else
    # (text, tool-call chunks of a bypassed call) passes through unchanged.
    return ChatGenerationChunk(message=chunk.message.model_copy(update={"usage_metadata": None}))


def _reply_from_parts(parts: list[str], usage: list[tuple[int | None, int | None]]) -> ModelReply:
    inputs = [u[0] for u in usage if u[0] is not None]
    outputs = [u[1] for u in usage if u[1] is not None]
    return ModelReply(
        "".join(parts),
        sum(inputs) if inputs else None,
        sum(outputs) if outputs else None,
    )


def _relay(chunks: Iterator[ChatGenerationChunk]) -> Any:
    """Yield the inner model's text chunks as they come; return the whole reply."""
    parts: list[str] = []
    usage: list[tuple[int | None, int | None]] = []
    for chunk in chunks:
        parts.append(chunk.message.text)
        usage.append(_usage(chunk.message))
        yield _without_usage(chunk)
    return _reply_from_parts(parts, usage)
