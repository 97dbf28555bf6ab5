"""``StepCacheLLM``: a LangChain chat model that puts StepCache in front of any model."""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, cast
from uuid import uuid4

from langchain_core.caches import BaseCache
from langchain_core.callbacks import (
    AsyncCallbackManager,
    AsyncCallbackManagerForLLMRun,
    CallbackManager,
    CallbackManagerForLLMRun,
)
from langchain_core.globals import get_llm_cache
from langchain_core.language_models import BaseChatModel, BaseLLM
from langchain_core.language_models.base import LangSmithParams
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    message_chunk_to_message,
)
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable, RunnableBinding, RunnableConfig, ensure_config
from langchain_core.utils.utils import LC_ID_PREFIX
from pydantic import ConfigDict, Field, model_validator

from stepcache_integrations.adapter import (
    TENANT_UNKNOWN,
    ConstrainJson,
    build_request,
    check_constrain_json,
    drive,
    drive_astream,
    drive_async,
    drive_stream,
    pure_tool_names,
    read_reply,
    resolve_tenant,
)
from stepcache_integrations.core.cache import StepCache, as_verifier
from stepcache_integrations.core.protocol import CacheRequest, ServeResult
from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.core.tasks.tool_call import TOOLS
from stepcache_integrations.langchain.cache import StepCacheLangChainCache
from stepcache_integrations.langchain.inner import InnerCall
from stepcache_integrations.langchain.request import (
    PURE_TOOLS_KWARG,
    TENANT_KWARG,
    TENANT_METADATA_KEY,
    ai_message,
    call_params,
    declared_pure,
    inner_identity,
    to_conversation,
)
from stepcache_integrations.langchain.runs import RunContext, configured_manager
from stepcache_integrations.langchain.streaming import (
    INNER_MODEL_NAME_KEY,
    caller_chunks,
    caller_chunks_async,
    caller_metadata,
    usage_metadata,
    whole_chunk,
)
from stepcache_integrations.langchain.structured import (
    METHODS,
    STRUCTURED_OUTPUT_KWARG,
    StructuredOutput,
    tool_parser,
    with_parser,
)

__all__ = ["STEPCACHE_EVENT", "StepCacheLLM"]

STEPCACHE_EVENT = "stepcache"
"""Name of the custom callback event carrying each request's record."""

# The context of the ``stream``/``astream`` call now running on this thread or task, with
# the wrapper it belongs to. Set only while that call's code runs (never while its stream
# waits for its reader), so nothing is left behind by a stream that is not read to the end.
# It exists because langchain-core calls ``_stream``/``_astream`` without the run manager,
# from within the iteration of ``stream``/``astream`` (pinned, behaviour by behaviour, by
# tests/unit/test_langchain_contract.py). The ``stepcache_tenant=`` call keyword needs none
# of it: LangChain hands call keywords to ``_stream`` itself.
_STREAM_CALL: ContextVar[tuple[int, RunContext] | None] = ContextVar(
    "stepcache_stream_call", default=None
)

# Call kwargs that choose how the wrapper delivers, not what the inner model is asked.
_NOT_FOR_INNER = (
    "stream",
    "run_manager",
    "callbacks",
    STRUCTURED_OUTPUT_KWARG,
    PURE_TOOLS_KWARG,
    TENANT_KWARG,
)

_INNER_CACHE_ERROR = (
    "the inner model answers through LangChain's own cache ({where}), which keys on the "
    "messages alone and is shared by every tenant: one tenant could get another's answer. "
    "Pass cache=False to the inner model (e.g. ChatOpenAI(..., cache=False)); StepCacheLLM "
    "already caches per tenant"
)
_DOUBLE_CACHE_ERROR = (
    "the inner model answers through StepCacheLangChainCache (its cache= or set_llm_cache) "
    "while StepCacheLLM caches it already: every answer would be looked up, checked, stored "
    "and counted twice. Pass cache=False to the inner model (e.g. ChatOpenAI(..., "
    "cache=False)); the two can share one StepCache"
)


class StepCacheLLM(BaseChatModel):
    """Step-level answer cache in front of any LangChain chat model or LLM.

    Identical requests are answered from the cache; similar ones reuse every cached step that
    still verifies against the new request and regenerate only the failing block; answers
    that fail a check are repaired once, never cached. Every response carries the record of
    what happened in ``response_metadata["stepcache"]`` and the tokens really spent in
    ``usage_metadata``.

    The inner model is called through its public ``invoke``/``stream`` (``generate`` for a
    completion model), with callbacks nested under the wrapper's run: tracers, rate limiters
    and callbacks of the inner model keep working, and a cache hit makes no inner call at
    all. See ``docs/langchain.md``.

    Setup:
        .. code-block:: bash

            pip install -e .

    Key init args:
        llm: the wrapped ``BaseChatModel`` or ``BaseLLM``.
        step_cache: a :class:`~stepcache_integrations.StepCache` to share between wrappers
            (default: a new one per wrapper).
        tenant: entries are isolated per tenant; a call's own tenant wins over it: the call
            keyword ``llm.invoke(prompt, stepcache_tenant="acme")`` (every path, streaming
            included) or ``config={"metadata": {"stepcache_tenant": ...}}``.
        verifiers: extra verifiers for this wrapper (output parsers, callables, Verifiers).
        json_schema: a JSON Schema dict or Pydantic model JSON answers must satisfy.
        model_id: a name for the inner model that replaces its framework-specific identity
            in the namespace; wrappers of LangChain and LlamaIndex with the same ``model_id``
            (and one shared ``StepCache``) share entries.
        pure_tools: names of bound tools (or the tools) declared *pure*: whether the model
            calls one, and with which other arguments, does not depend on the values it
            copies from the request, so a cached call of it is re-instantiated for another
            value even where other tools could take the value. A ``BaseTool`` can say so
            itself: ``metadata={"stepcache_pure": True}``. See ``docs/agents.md``.
        constrain_json: ``"openai"`` or ``"llama_cpp"``: when a task knows the exact shape of
            the answer (only a JSON object with the requested keys and fixed values), model
            calls carry that backend's ``response_format`` with the JSON Schema, so a model
            with constrained decoding cannot miss a key (default ``None``: never sent). The
            answer is still verified.
        cache: LangChain's own response cache is refused (``cache=True`` or a ``BaseCache``
            raise ``ValueError``): it keys on the wrapper's parameters, not on the call's
            tenant. The wrapper never consults ``set_llm_cache``'s global cache either.

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
            # the record is on the last content chunk, hence on the aggregated message

    Tool calling and agents:
        ``bind_tools`` binds the inner model's tool format to this wrapper, and tool-calling
        turns go through the cache: ``create_agent(model=StepCacheLLM(llm=...), tools=...)``
        answers a repeated task's turns from the cache (fresh call ids, 0 tokens) and
        re-instantiates a tool call whose arguments copied a changed value (a city, a date,
        an id). See ``docs/agents.md``.

    Structured output:
        ``with_structured_output(Schema)`` is cached and verified against the schema; a hit
        returns exactly what a miss returns. See ``docs/structured_output.md``.
    """

    llm: BaseChatModel | BaseLLM
    step_cache: StepCache = Field(default_factory=StepCache)
    tenant: str | None = None
    model_id: str | None = None
    verifiers: list[Any] = Field(default_factory=list)
    json_schema: Any = None
    constrain_json: ConstrainJson | None = None
    pure_tools: list[str] = Field(default_factory=list)
    cache: BaseCache | bool | None = Field(default=False, exclude=True)

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
            tenant = data.get("tenant")
            if tenant is not None and (not isinstance(tenant, str) or not tenant):
                raise ValueError(f"tenant must be a non-empty string, got {tenant!r}")
            check_constrain_json(data.get("constrain_json"))
            if "pure_tools" in data:
                data = {**data, "pure_tools": list(pure_tool_names(data["pure_tools"]))}
            if "cache" in data:
                if data["cache"] is None:
                    data = {**data, "cache": False}
                elif data["cache"] is not False:
                    raise ValueError(
                        "StepCacheLLM does not take LangChain's cache=: that cache keys on the "
                        "wrapper's parameters, not on each call's tenant, so one tenant could "
                        "get another's answer. StepCacheLLM already caches (per tenant); leave "
                        "cache unset, or give cache= to the inner model if you use no tenants"
                    )
        return data

    @model_validator(mode="after")
    def _inherit_from_inner(self) -> StepCacheLLM:
        self._verifiers = [as_verifier(v) for v in self.verifiers]
        if self.profile is None and isinstance(self.llm, BaseChatModel):
            self.profile = self.llm.profile
        return self

    # -- identity: what LangChain's tracing and the namespace see ------------------------------

    @property
    def _llm_type(self) -> str:
        return f"stepcache-{getattr(self.llm, '_llm_type', type(self.llm).__name__)}"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        inner = getattr(self.llm, "_identifying_params", {})
        return {
            "inner_type": getattr(self.llm, "_llm_type", type(self.llm).__name__),
            "inner": dict(inner),
            "tenant": self.tenant,
        }

    def _get_ls_params(self, stop: list[str] | None = None, **kwargs: Any) -> LangSmithParams:
        kwargs.pop(TENANT_KWARG, None)  # the wrapper's own keyword, unknown to the inner model
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
        """Bind tools in the inner model's format; tool-calling calls go through the cache.

        An identical request (messages, tool results and tools) is answered with the cached
        calls (fresh call ids, 0 tokens); a request that differs only in values the cached
        calls copied from it gets them re-instantiated. A ``BaseTool`` whose metadata declares
        it pure (``{"stepcache_pure": True}``) counts as one of ``pure_tools``. See
        ``docs/agents.md``.
        """
        if not isinstance(self.llm, BaseChatModel):
            raise NotImplementedError(f"{type(self.llm).__name__} does not support tools")
        bound = self.llm.bind_tools(tools, tool_choice=tool_choice, **kwargs)
        if isinstance(bound, RunnableBinding) and bound.bound is self.llm:
            # Keep this wrapper in the loop: the call goes through the cache. The inner
            # model's tool format drops a tool's metadata: its pure declaration goes along.
            pure = [tool.name for tool in tools if declared_pure(tool)]
            return self.bind(**bound.kwargs, **({PURE_TOOLS_KWARG: pure} if pure else {}))
        return bound

    def with_structured_output(
        self,
        schema: Any,
        *,
        include_raw: bool = False,
        method: str | None = None,
        strict: bool | None = None,
        **kwargs: Any,
    ) -> Runnable[Any, Any]:
        """Structured output through the cache: a Pydantic model, a TypedDict or a JSON
        Schema, with ``include_raw`` as in LangChain.

        ``method="function_calling"`` (the default) asks for the schema as a tool call;
        ``"json_schema"`` and ``"json_mode"`` use the inner model's JSON mode. Every answer is
        checked against the schema before it is served or cached, and a hit returns exactly
        what a miss returns (same types). See ``docs/structured_output.md``.

        Example:
            .. code-block:: python

                from pydantic import BaseModel

                class Person(BaseModel):
                    name: str
                    age: int

                extract = StepCacheLLM(llm=ChatOpenAI()).with_structured_output(Person)
                extract.invoke("Ada is 36.")   # Person(name='Ada', age=36), cached
        """
        method = method or "function_calling"
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
        if schema is None and method != "json_mode":
            raise ValueError(f"method={method!r} needs a schema")
        structured = StructuredOutput(schema, method, strict, dict(kwargs))
        if method == "function_calling":
            extra = {"strict": strict} if strict is not None else {}
            bound = self.bind_tools(
                [schema],
                tool_choice="any",
                ls_structured_output_format={"kwargs": {"method": method}, "schema": schema},
                **extra,
                **kwargs,
            ).bind(**{STRUCTURED_OUTPUT_KWARG: structured})
            parser = tool_parser(schema)
        else:
            bound = self.bind(**{STRUCTURED_OUTPUT_KWARG: structured})
            parser = structured.parser()
        return with_parser(bound, parser, include_raw=include_raw)

    # -- streaming decisions -------------------------------------------------------------------

    def _should_stream(
        self,
        *,
        async_api: bool,
        run_manager: CallbackManagerForLLMRun | AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> bool:
        # LangChain asks this twice: in stream()/astream() (no run manager; they then call
        # _stream/_astream, whose context stream()/astream() provide), and inside invoke when a
        # streaming handler or stream=True asks for tokens. There it would call _stream
        # WITHOUT the run manager, losing the call's tenant and callbacks: answering False
        # makes it call _generate with the run manager, which streams itself (_wants_tokens).
        if run_manager is not None:
            return False
        return super()._should_stream(async_api=async_api, run_manager=run_manager, **kwargs)

    def _wants_tokens(
        self,
        run_manager: CallbackManagerForLLMRun | AsyncCallbackManagerForLLMRun,
        kwargs: dict[str, Any],
        *,
        async_api: bool,
    ) -> bool:
        """Whether LangChain would have streamed this invoke (LangChain's own rule)."""
        return super()._should_stream(async_api=async_api, run_manager=run_manager, **kwargs)

    # -- the cache request ---------------------------------------------------------------------

    def _check_inner_cache(self, tenant: str | None) -> None:
        cache = getattr(self.llm, "cache", None)
        # LangChain's rule: the model's own BaseCache, else the global one unless cache=False.
        answering = cache if isinstance(cache, BaseCache) else None
        if answering is None and cache is not False:
            answering = get_llm_cache()
        if isinstance(answering, StepCacheLangChainCache):
            raise ValueError(_DOUBLE_CACHE_ERROR)
        if tenant is None:
            return
        if isinstance(cache, BaseCache) or cache is True:
            raise ValueError(_INNER_CACHE_ERROR.format(where="its cache= field"))
        if cache is None and get_llm_cache() is not None:
            raise ValueError(_INNER_CACHE_ERROR.format(where="set_llm_cache"))

    def _request(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None,
        kwargs: dict[str, Any],
        context: RunContext,
        structured: StructuredOutput | None = None,
    ) -> CacheRequest:
        tenant, reason = resolve_tenant(
            _call_tenant(kwargs.get(TENANT_KWARG), context.tenant),
            self.tenant,
            what=f"the call's {TENANT_KWARG!r}",
        )
        self._check_inner_cache(tenant)
        options = {"json_schema": self.json_schema} if self.json_schema is not None else {}
        call_checks = []
        if structured is not None:
            options.update(structured.options())
            call_checks.extend(structured.verifiers())
        return build_request(
            to_conversation(messages, kwargs),
            model={"id": self.model_id} if self.model_id else inner_identity(self.llm),
            tenant=tenant,
            call=call_params(kwargs),
            stop=stop,
            options=options,
            verifiers=self._verifiers,
            call_verifiers=call_checks,
            bypass=reason,
            pure_tools=[*self.pure_tools, *(kwargs.get(PURE_TOOLS_KWARG) or ())],
        )

    def _stream_context(self) -> RunContext:
        call = _STREAM_CALL.get()
        if call is None or call[0] != id(self):
            return RunContext.unknown()
        return call[1]

    def _model_name(self) -> str:
        for attribute in ("model_name", "model", "model_id"):
            value = getattr(self.llm, attribute, None)
            if isinstance(value, str):
                return value
        return str(getattr(self.llm, "_llm_type", type(self.llm).__name__))

    def _message(self, result: ServeResult, tools: bool = False) -> AIMessage:
        record = {"stepcache": result.record.to_dict()}
        usage = usage_metadata(result.record)
        raw = result.full_reply.raw if result.full_reply else None
        if isinstance(raw, AIMessage):
            # The inner model's own message (tool calls, provider metadata) with the record
            # and the tokens this request really spent; its id becomes the wrapper run's.
            return raw.model_copy(
                update={
                    "id": None,
                    "response_metadata": {**caller_metadata(raw.response_metadata), **record},
                    "usage_metadata": usage,
                }
            )
        metadata = {INNER_MODEL_NAME_KEY: self._model_name(), **record}
        if tools:
            # From the cache (or mended): the tool calls get fresh ids.
            return ai_message(
                read_reply(result.text), response_metadata=metadata, usage_metadata=usage
            )
        return AIMessage(content=result.text, response_metadata=metadata, usage_metadata=usage)

    # -- calling the inner model through its public API ----------------------------------------

    def _prepare(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None,
        kwargs: dict[str, Any],
        context: RunContext,
    ) -> tuple[CacheRequest, InnerCall]:
        """The cache request of one call, and how its model calls reach the inner model."""
        structured = kwargs.get(STRUCTURED_OUTPUT_KWARG)
        if structured is not None and not isinstance(structured, StructuredOutput):
            raise ValueError(f"{STRUCTURED_OUTPUT_KWARG} must be set by with_structured_output")
        request = self._request(messages, stop, kwargs, context, structured)
        inner = InnerCall(
            self.llm,
            messages,
            stop,
            {k: v for k, v in kwargs.items() if k not in _NOT_FOR_INNER},
            context,
            structured,
            tools=bool(request.options.get(TOOLS)),
            constrain_json=self.constrain_json,
        )
        return request, inner

    # -- decisions as callback events ----------------------------------------------------------

    def _announce(self, context: RunContext, record: StepCacheRecord) -> None:
        events = context.events
        if isinstance(events, CallbackManager) and context.run_id is not None:
            events.on_custom_event(STEPCACHE_EVENT, record.to_dict(), run_id=context.run_id)

    async def _aannounce(self, context: RunContext, record: StepCacheRecord) -> None:
        events = context.events
        if events is None or context.run_id is None:
            return
        if isinstance(events, AsyncCallbackManager):
            await events.on_custom_event(STEPCACHE_EVENT, record.to_dict(), run_id=context.run_id)
        else:
            self._announce(context, record)

    # -- public streaming entry points: keep the call's context reachable from _stream ----------

    def stream(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        stop: list[str] | None = None,
        **kwargs: Any,
    ) -> Iterator[AIMessageChunk]:
        config = ensure_config(config)
        run_id = config.get("run_id") or uuid4()
        manager = configured_manager(config, asynchronous=False)
        call = (id(self), RunContext.of_stream(manager, config.get("metadata"), run_id))
        config = RunnableConfig(**{**config, "callbacks": manager, "run_id": run_id})
        chunks = cast(
            Generator[AIMessageChunk, None, None],
            super().stream(input, config, stop=stop, **kwargs),
        )
        try:
            while True:
                token = _STREAM_CALL.set(call)
                try:
                    chunk = next(chunks)
                except StopIteration:
                    return
                finally:
                    _STREAM_CALL.reset(token)
                yield chunk
        finally:
            chunks.close()

    async def astream(
        self,
        input: Any,
        config: RunnableConfig | None = None,
        *,
        stop: list[str] | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[AIMessageChunk]:
        config = ensure_config(config)
        run_id = config.get("run_id") or uuid4()
        manager = configured_manager(config, asynchronous=True)
        call = (id(self), RunContext.of_stream(manager, config.get("metadata"), run_id))
        config = RunnableConfig(**{**config, "callbacks": manager, "run_id": run_id})
        chunks = super().astream(input, config, stop=stop, **kwargs)
        try:
            while True:
                token = _STREAM_CALL.set(call)
                try:
                    chunk = await chunks.__anext__()
                except StopAsyncIteration:
                    return
                finally:
                    _STREAM_CALL.reset(token)
                yield chunk
        finally:
            await _aclose(chunks)

    # -- BaseChatModel hooks: the cache lives in all four ---------------------------------------

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        context = RunContext.of_run(run_manager) if run_manager else RunContext.unknown()
        request, inner = self._prepare(messages, stop, kwargs, context)
        flow = self.step_cache.serve(request, audit=inner.audit)
        if (
            run_manager is not None
            and not _whole(request)
            and self._wants_tokens(run_manager, kwargs, async_api=False)
        ):
            events = drive_stream(
                flow,
                inner.call,
                inner.stream,
                usage="sum",
                on_finish=lambda result: self._announce(context, result.record),
            )
            chunk_id = f"{LC_ID_PREFIX}-{run_manager.run_id}"
            total: AIMessageChunk | None = None
            for chunk in caller_chunks(events):
                chunk = chunk.model_copy(update={"id": chunk_id})
                run_manager.on_llm_new_token(chunk.text, chunk=ChatGenerationChunk(message=chunk))
                total = chunk if total is None else total + chunk
            assert total is not None  # the closing chunk is always produced
            message = message_chunk_to_message(total)
        else:
            result = drive(flow, inner.call)
            self._announce(context, result.record)
            message = self._message(result, inner.tools)
            if run_manager is not None and self._wants_tokens(run_manager, kwargs, async_api=False):
                chunk = whole_chunk(message, f"{LC_ID_PREFIX}-{run_manager.run_id}")
                run_manager.on_llm_new_token(chunk.text, chunk=ChatGenerationChunk(message=chunk))
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        context = RunContext.of_run(run_manager) if run_manager else RunContext.unknown()
        request, inner = self._prepare(messages, stop, kwargs, context)
        flow = self.step_cache.serve(request, audit=inner.audit)
        if (
            run_manager is not None
            and not _whole(request)
            and self._wants_tokens(run_manager, kwargs, async_api=True)
        ):

            async def announce(result: ServeResult) -> None:
                await self._aannounce(context, result.record)

            events = drive_astream(
                flow, inner.acall, inner.astream, usage="sum", on_finish=announce
            )
            chunk_id = f"{LC_ID_PREFIX}-{run_manager.run_id}"
            total: AIMessageChunk | None = None
            async for chunk in caller_chunks_async(events):
                chunk = chunk.model_copy(update={"id": chunk_id})
                await run_manager.on_llm_new_token(
                    chunk.text, chunk=ChatGenerationChunk(message=chunk)
                )
                total = chunk if total is None else total + chunk
            assert total is not None  # the closing chunk is always produced
            message = message_chunk_to_message(total)
        else:
            result = await drive_async(flow, inner.acall)
            await self._aannounce(context, result.record)
            message = self._message(result, inner.tools)
            if run_manager is not None and self._wants_tokens(run_manager, kwargs, async_api=True):
                chunk = whole_chunk(message, f"{LC_ID_PREFIX}-{run_manager.run_id}")
                await run_manager.on_llm_new_token(
                    chunk.text, chunk=ChatGenerationChunk(message=chunk)
                )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        context = RunContext.of_run(run_manager) if run_manager else self._stream_context()
        request, inner = self._prepare(messages, stop, kwargs, context)
        if _whole(request):
            result = drive(self.step_cache.serve(request, audit=inner.audit), inner.call)
            self._announce(context, result.record)
            yield ChatGenerationChunk(message=whole_chunk(self._message(result, inner.tools)))
            return
        events = drive_stream(
            self.step_cache.serve(request, audit=inner.audit),
            inner.call,
            inner.stream,
            usage="sum",
            on_finish=lambda result: self._announce(context, result.record),
        )
        chunks = caller_chunks(events)
        try:
            for chunk in chunks:
                yield ChatGenerationChunk(message=chunk)
        finally:
            chunks.close()

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        context = RunContext.of_run(run_manager) if run_manager else self._stream_context()
        request, inner = self._prepare(messages, stop, kwargs, context)
        if _whole(request):
            flow = self.step_cache.serve(request, audit=inner.audit)
            result = await drive_async(flow, inner.acall)
            await self._aannounce(context, result.record)
            yield ChatGenerationChunk(message=whole_chunk(self._message(result, inner.tools)))
            return

        async def announce(result: ServeResult) -> None:
            await self._aannounce(context, result.record)

        events = drive_astream(
            self.step_cache.serve(request, audit=inner.audit),
            inner.acall,
            inner.astream,
            usage="sum",
            on_finish=announce,
        )
        chunks = caller_chunks_async(events)
        try:
            async for chunk in chunks:
                yield ChatGenerationChunk(message=chunk)
        finally:
            await chunks.aclose()


def _call_tenant(keyword: Any, configured: Any) -> Any:
    """The call's own tenant: the ``stepcache_tenant=`` keyword, else the configuration's
    metadata (``TENANT_UNKNOWN`` where it cannot be read). Both, naming two tenants: refused."""
    if keyword is None:
        return configured
    if configured not in (None, TENANT_UNKNOWN) and configured != keyword:
        raise ValueError(
            f"the call names two tenants: {TENANT_KWARG}={keyword!r} and config metadata "
            f"{TENANT_METADATA_KEY!r}={configured!r}; give one"
        )
    return keyword


def _whole(request: CacheRequest) -> bool:
    """Whether the answer is delivered in one piece: with tools bound it is checked whole
    before anyone sees (or acts on) it, so there is nothing to stream as it comes."""
    return bool(request.options.get(TOOLS)) and request.bypass_reason is None


async def _aclose(iterator: object) -> None:
    aclose = getattr(iterator, "aclose", None)
    if callable(aclose):
        await aclose()
