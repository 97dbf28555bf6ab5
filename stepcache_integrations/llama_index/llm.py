"""``StepCacheLLM``: a LlamaIndex LLM that puts StepCache in front of any LlamaIndex LLM."""

from __future__ import annotations

import functools
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Generator, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar, cast

from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    ChatResponseAsyncGen,
    ChatResponseGen,
    CompletionResponse,
    CompletionResponseAsyncGen,
    CompletionResponseGen,
    LLMMetadata,
    MessageRole,
    ToolCallBlock,
)
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr, SerializeAsAny

# LlamaIndex's documented import; the package re-exports it without ``__all__``.
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.span import active_span_id
from llama_index.core.llms.callbacks import llm_chat_callback, llm_completion_callback
from llama_index.core.llms.function_calling import FunctionCallingLLM
from llama_index.core.llms.llm import LLM, ToolSelection
from llama_index.core.output_parsers import PydanticOutputParser
from llama_index.core.prompts import PromptTemplate
from llama_index.core.types import Model

from stepcache_integrations.adapter import (
    CacheText,
    ConstrainJson,
    CopiedValuesOnly,
    Finished,
    ModelChunk,
    StreamedPiece,
    StreamEvent,
    ToolArgumentsVerifier,
    build_request,
    check_constrain_json,
    check_tenant,
    drive,
    drive_astream,
    drive_async,
    drive_stream,
    parsed_arguments,
    pure_tool_names,
    remaining_text,
    resolve_tenant,
    response_format_kwargs,
)
from stepcache_integrations.core.audit import AuditAsk
from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply, ServeResult
from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.core.tasks.tool_call import TOOLS
from stepcache_integrations.core.verifiers.base import Verifier
from stepcache_integrations.llama_index.events import (
    LegacyRelay,
    RelayedCall,
    StepCacheEvent,
    silent_callback_manager,
)
from stepcache_integrations.llama_index.request import (
    TENANT_KWARG,
    LlamaIndexParserVerifier,
    as_llama_verifier,
    call_params,
    chat_response,
    completion_response,
    inner_identity,
    reply_from,
    text_of,
    to_chat_messages,
    to_conversation,
    usage_of,
)

__all__ = ["StepCacheFunctionCallingLLM", "StepCacheLLM"]

dispatcher = get_dispatcher(__name__)

Response = ChatResponse | CompletionResponse
R = TypeVar("R", bound=ChatResponse | CompletionResponse)

# Set while ``structured_predict`` runs, so the calls it makes are checked by a Pydantic
# parser for its output class (the program formats the prompt; only the wrapper sees both).
# Relies on llama-index running the program's chat/complete inside the call (pinned by
# tests/llama_index/test_llama_index_contract.py).
_STRUCTURED_OUTPUT: ContextVar[type[Any] | None] = ContextVar(
    "stepcache_structured_output", default=None
)

# Prompt formatting LlamaIndex applies in ``predict`` and programs *before* ``chat`` /
# ``complete``: the wrapper takes the inner model's so they keep applying.
_INHERITED = (
    "system_prompt",
    "messages_to_prompt",
    "completion_to_prompt",
    "pydantic_program_mode",
    "output_parser",
    "query_wrapper_prompt",
)


class _Shape(Generic[R]):
    """Builds chat or completion responses, so one streaming loop serves both."""

    def __init__(self, kind: type[R]) -> None:
        self.kind: type[R] = kind

    def owns(self, response: Response) -> bool:
        return isinstance(response, self.kind)

    def chunk(self, text: str, delta: str) -> R:
        if self.kind is ChatResponse:
            return cast(
                R,
                ChatResponse(
                    message=ChatMessage(role=MessageRole.ASSISTANT, content=text), delta=delta
                ),
            )
        return cast(R, CompletionResponse(text=text, delta=delta))

    def final(self, result: ServeResult, delta: str | None, tools: bool = False) -> R:
        raw = result.full_reply.raw if result.full_reply is not None else None
        if self.kind is ChatResponse:
            base = raw if isinstance(raw, ChatResponse) else None
            response = chat_response(
                result.text, result.record, delta=delta, base=base, tools=tools
            )
            if tools and delta is not None:
                # Delivered whole: the delta is the turn's text (its calls are in its blocks).
                response = response.model_copy(update={"delta": response.message.content or ""})
            return cast(R, response)
        base_completion = raw if isinstance(raw, CompletionResponse) else None
        return cast(
            R,
            completion_response(result.text, result.record, delta=delta, base=base_completion),
        )


_CHAT: _Shape[ChatResponse] = _Shape(ChatResponse)
_COMPLETION: _Shape[CompletionResponse] = _Shape(CompletionResponse)


@dataclass(frozen=True)
class _Call:
    """One wrapper call: the conversation, what the inner model gets, the cache request."""

    messages: list[ChatMessage]
    prompt: str | None  # set for complete() calls
    formatted: bool
    kwargs: dict[str, Any]  # for the inner model (the tenant keyword removed)
    request: CacheRequest

    def direct(self, action: ModelCall) -> bool:
        """A completion call with nothing added goes to the inner ``complete`` unchanged."""
        return self.prompt is not None and not action.extra_turns

    @property
    def tools(self) -> bool:
        """Tools are bound: replies are kept in the tool-call form the cache stores."""
        return bool(self.request.options.get(TOOLS))

    @property
    def whole(self) -> bool:
        """The answer is delivered in one piece: with tools bound it is checked whole before
        anyone sees (or acts on) it, so there is nothing to stream as it comes."""
        return self.tools and self.request.bypass_reason is None

    def reply(self, response: Response) -> ModelReply:
        return reply_from(response, tools=self.tools)


class _Shown:
    """The text a streaming caller has been shown so far."""

    def __init__(self) -> None:
        self.text = ""


class _Relay(Generic[R]):
    """Turns the inner model's streamed chunks into the wrapper's.

    A full generation is passed through unchanged (tool-call blocks and provider fields
    included: agents read them from the chunks); a patch is shown after the verified prefix.
    """

    def __init__(self, shape: _Shape[R], shown: _Shown, passthrough: bool) -> None:
        self.shape: _Shape[R] = shape
        self.shown = shown
        self.passthrough = passthrough
        self.so_far = ""

    def piece(self, inner: Response) -> StreamedPiece[R]:
        delta = inner.delta
        if delta is None:
            accumulated = text_of(inner)
            delta = accumulated[len(self.so_far) :] if accumulated.startswith(self.so_far) else ""
        self.so_far += delta
        self.shown.text += delta
        chunk = (
            cast(R, inner)
            if self.passthrough and self.shape.owns(inner)
            else self.shape.chunk(self.shown.text, delta)
        )
        input_tokens, output_tokens = usage_of(inner)
        return StreamedPiece(chunk, delta, input_tokens, output_tokens, raw=inner)


class _Reported:
    """One wrapper call as LlamaIndex's own callback decorators report it.

    The decorators send the wrapper's LLM start, progress and end events through the
    instrumentation dispatcher, in the wrapper call's span, and acquire the wrapper's own
    rate limiter; their legacy callback event goes to no handler (see
    :mod:`stepcache_integrations.llama_index.events` for why, and for what legacy handlers
    hear instead).
    """

    def __init__(self, llm: StepCacheLLM, body: Callable[[], Any]) -> None:
        self.callback_manager = silent_callback_manager()
        self.rate_limiter = llm.rate_limiter
        self._llm = llm
        self._body = body

    def to_payload(self) -> dict[str, Any]:
        return self._llm.to_payload()

    @llm_chat_callback()
    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> Any:
        return self._body()

    @llm_chat_callback()
    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> Any:
        return await self._body()

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> Any:
        return self._body()

    @llm_completion_callback()
    async def acomplete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> Any:
        return await self._body()


class StepCacheLLM(LLM):
    """Step-level answer cache in front of any LlamaIndex LLM.

    Identical requests are answered from the cache; similar ones reuse every cached step that
    still verifies against the new request and regenerate only the failing block; answers
    that fail a check are repaired once and never cached. Every response carries the record
    in ``additional_kwargs["stepcache"]`` and the tokens really spent in ``raw["usage"]`` and
    ``additional_kwargs`` (``prompt_tokens``, ``completion_tokens``, ``total_tokens``).

    The inner model is called through its public ``chat``/``complete`` (and their streaming
    and async forms) and is never modified: its callback manager, handlers and rate limiter
    keep working. The wrapper's calls are reported by LlamaIndex's own callback decorators
    and dispatcher (the inner model's spans nest in the wrapper's); legacy callback handlers
    hear of each real model call once (see ``docs/llama_index.md``).

    Args:
        llm: the wrapped LlamaIndex ``LLM``. A ``FunctionCallingLLM`` gives a
            :class:`StepCacheFunctionCallingLLM` (tool-calling turns and agents go through
            the cache).
        step_cache: a :class:`~stepcache_integrations.StepCache` to share between wrappers,
            LangChain's included (default: a new one per wrapper).
        tenant: entries are isolated per tenant; a call's ``stepcache_tenant=...`` keyword
            wins over it.
        verifiers: extra verifiers for this wrapper: LlamaIndex or LangChain output parsers,
            callables, ``Verifier`` objects.
        json_schema: a JSON Schema dict or Pydantic model JSON answers must satisfy.
        model_id: a framework-neutral name of the inner model (e.g. ``"gpt-4o-mini"``). It
            replaces the inner model's LlamaIndex identity in the namespace, so a LangChain
            wrapper given the same ``model_id`` and the same ``step_cache`` shares entries.
        pure_tools: names of tools (or the tools) declared *pure*: whether the model calls
            one, and with which other arguments, does not depend on the values it copies from
            the request, so a cached call of it is re-instantiated for another value even
            where other tools could take the value. See ``docs/agents.md``.

    Example:
        .. code-block:: python

            from llama_index.core import Settings
            from llama_index.core.llms import MockLLM
            from stepcache_integrations.llama_index import StepCacheLLM

            Settings.llm = StepCacheLLM(llm=MockLLM())   # any LlamaIndex LLM
            Settings.llm.complete("Solve for x: 3x + 5 = 20. Answer step by step.")
            response = Settings.llm.complete("Solve for x: 3x + 5 = 20. Answer step by step.")
            response.additional_kwargs["stepcache"]["decision"]   # 'exact': no model call
    """

    llm: SerializeAsAny[LLM] = Field(description="The wrapped LlamaIndex LLM.")
    step_cache: StepCache = Field(default_factory=StepCache, exclude=True)
    tenant: str | None = Field(default=None, description="Default tenant of the entries.")
    verifiers: list[Any] = Field(default_factory=list, exclude=True)
    json_schema: Any = Field(default=None, exclude=True)
    model_id: str | None = Field(default=None, description="Framework-neutral model name.")
    pure_tools: list[str] = Field(
        default_factory=list, description="Names of the tools declared pure."
    )
    constrain_json: ConstrainJson | None = Field(
        default=None,
        description='"openai" or "llama_cpp": hold chat calls to the JSON Schema a task '
        "requires, in that backend's response_format (default: never sent).",
    )

    model_config = ConfigDict(protected_namespaces=())

    _verifiers: list[Verifier] = PrivateAttr(default_factory=list)

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        # ``StepCacheLLM(llm=fc)`` must *be* a FunctionCallingLLM for agents (they check
        # ``isinstance`` and call ``achat_with_tools``), and must not claim to be one otherwise.
        inner = kwargs.get("llm", args[0] if args else None)
        if cls is StepCacheLLM and isinstance(inner, FunctionCallingLLM):
            return cast(Self, super().__new__(StepCacheFunctionCallingLLM))
        return super().__new__(cls)

    def __init__(
        self,
        llm: LLM,
        step_cache: StepCache | None = None,
        tenant: str | None = None,
        verifiers: Sequence[Any] = (),
        json_schema: Any = None,
        model_id: str | None = None,
        constrain_json: ConstrainJson | None = None,
        pure_tools: Sequence[Any] = (),
        **kwargs: Any,
    ) -> None:
        if not isinstance(llm, LLM):
            hint = (
                " (for LangChain models use stepcache_integrations.StepCacheLLM)"
                if type(llm).__module__.startswith("langchain")
                else ""
            )
            raise ValueError(f"llm must be a LlamaIndex LLM, got {type(llm).__name__}{hint}")
        if isinstance(self, FunctionCallingLLM) and not isinstance(llm, FunctionCallingLLM):
            raise ValueError(
                f"{type(self).__name__} needs a FunctionCallingLLM, got {type(llm).__name__}"
            )
        if step_cache is not None and not isinstance(step_cache, StepCache):
            raise ValueError(f"step_cache must be a StepCache, got {type(step_cache).__name__}")
        check_tenant(tenant)
        check_constrain_json(constrain_json)
        if model_id is not None and not isinstance(model_id, str):
            raise ValueError(f"model_id must be a string, got {type(model_id).__name__}")
        converted = [as_llama_verifier(v) for v in verifiers]
        pure = list(pure_tool_names(pure_tools))
        for name in _INHERITED:
            value = getattr(llm, name, None)
            if name not in kwargs and value is not None:
                kwargs[name] = value
        fields: dict[str, Any] = {
            "llm": llm,
            "step_cache": step_cache if step_cache is not None else StepCache(),
            "tenant": tenant,
            "verifiers": list(verifiers),
            "json_schema": json_schema,
            "model_id": model_id,
            "constrain_json": constrain_json,
            "pure_tools": pure,
        }
        super().__init__(**fields, **kwargs)
        self._verifiers = converted

    @classmethod
    def class_name(cls) -> str:
        """The serialisation name of this component."""
        return "StepCacheLLM"

    @property
    def metadata(self) -> LLMMetadata:
        """The inner model's metadata (context window, chat or not, function calling...)."""
        return self.llm.metadata

    # -- the cache request -------------------------------------------------------------------

    def _identity(self) -> dict[str, Any]:
        return {"id": self.model_id} if self.model_id else inner_identity(self.llm)

    def _prepare(
        self,
        kwargs: dict[str, Any],
        *,
        messages: Sequence[ChatMessage] | None = None,
        prompt: str | None = None,
        formatted: bool = False,
    ) -> _Call:
        kwargs = dict(kwargs)
        tenant, reason = resolve_tenant(
            kwargs.pop(TENANT_KWARG, None), self.tenant, what=TENANT_KWARG
        )
        if messages is not None:
            if isinstance(messages, str) or not all(isinstance(m, ChatMessage) for m in messages):
                raise ValueError("messages must be a sequence of ChatMessage objects")
            conversation = list(messages)
        else:
            if not isinstance(prompt, str):
                raise ValueError(f"prompt must be a string, got {type(prompt).__name__}")
            conversation = [ChatMessage(role=MessageRole.USER, content=prompt)]
        structured = _STRUCTURED_OUTPUT.get()
        schema = structured if structured is not None else self.json_schema
        options = {"json_schema": schema} if schema is not None else {}
        verifiers = list(self._verifiers)
        call_verifiers: list[Verifier] = []
        if structured is not None:
            # Text answers are parsed; an answer given as a tool call (a function-calling
            # model) has its arguments validated by the output class.
            verifiers.append(LlamaIndexParserVerifier(PydanticOutputParser(output_cls=structured)))
            verifiers.append(CopiedValuesOnly())
            call_verifiers.append(ToolArgumentsVerifier(structured))
        # A completion model formats ``complete`` and ``chat`` prompts differently; a chat
        # model turns a completion into one user message, the same request as a chat.
        call = call_params(kwargs)
        if prompt is not None and not self.llm.metadata.is_chat_model:
            call["completion"] = {"formatted": formatted}
        request = build_request(
            to_conversation(conversation, kwargs),
            model=self._identity(),
            tenant=tenant,
            call=call,
            options=options,
            verifiers=verifiers,
            call_verifiers=call_verifiers,
            bypass=reason,
            pure_tools=self.pure_tools,
        )
        return _Call(conversation, prompt, formatted, kwargs, request)

    # -- calling the inner model through its public API --------------------------------------

    def _chat_kwargs(self, call: _Call, action: ModelCall) -> dict[str, Any]:
        """The caller's keywords, plus the response format that holds the model to the task's
        schema when ``constrain_json`` is set and the caller set none."""
        if "response_format" in call.kwargs:
            return dict(call.kwargs)
        return {
            **call.kwargs,
            **response_format_kwargs(self.constrain_json, action.response_schema),
        }

    def _relayed(self, call: _Call, action: ModelCall) -> RelayedCall:
        relay = LegacyRelay(self.callback_manager, self.llm)
        if call.direct(action):
            return relay.start(prompt=call.prompt, kwargs=call.kwargs)
        return relay.start(
            messages=to_chat_messages(call.messages, action.extra_turns), kwargs=call.kwargs
        )

    def _inner_response(self, call: _Call, action: ModelCall) -> Response:
        reported = self._relayed(call, action)
        try:
            response: Response
            if call.direct(action):
                response = self.llm.complete(
                    str(call.prompt), formatted=call.formatted, **call.kwargs
                )
            else:
                conversation = to_chat_messages(call.messages, action.extra_turns)
                response = self.llm.chat(conversation, **self._chat_kwargs(call, action))
        except BaseException as error:
            reported.fail(error)
            raise
        reported.end(response)
        return response

    async def _ainner_response(self, call: _Call, action: ModelCall) -> Response:
        reported = self._relayed(call, action)
        try:
            response: Response
            if call.direct(action):
                response = await self.llm.acomplete(
                    str(call.prompt), formatted=call.formatted, **call.kwargs
                )
            else:
                conversation = to_chat_messages(call.messages, action.extra_turns)
                response = await self.llm.achat(conversation, **self._chat_kwargs(call, action))
        except BaseException as error:
            reported.fail(error)
            raise
        reported.end(response)
        return response

    def _inner_stream(self, call: _Call, action: ModelCall) -> Iterator[Response]:
        """The inner model's chunks (one chunk when it cannot stream)."""
        reported: RelayedCall | None = None
        chunks: Iterator[Response] | None = None
        last: Response | None = None
        try:
            try:
                stream: Iterator[Response]
                if call.direct(action):
                    stream = self.llm.stream_complete(
                        str(call.prompt), formatted=call.formatted, **call.kwargs
                    )
                else:
                    conversation = to_chat_messages(call.messages, action.extra_turns)
                    stream = self.llm.stream_chat(conversation, **self._chat_kwargs(call, action))
                iterator: Iterator[Response] = iter(stream)
                chunks = iterator
                first = next(iterator, None)  # some models refuse to stream only when read
            except NotImplementedError:
                yield self._inner_response(call, action)
                return
            # Reported once the model really streams (one that refuses is called instead).
            reported = self._relayed(call, action)
            if first is not None:
                last = first
                yield first
                for chunk in iterator:
                    last = chunk
                    yield chunk
        except BaseException as error:
            if reported is not None:
                reported.fail(error)
            raise
        finally:
            close = getattr(chunks, "close", None)
            if callable(close):
                close()
        if reported is not None:
            reported.end(last)

    async def _ainner_stream(self, call: _Call, action: ModelCall) -> AsyncIterator[Response]:
        reported: RelayedCall | None = None
        chunks: AsyncIterator[Response] | None = None
        last: Response | None = None
        try:
            try:
                if call.direct(action):
                    chunks = await self.llm.astream_complete(
                        str(call.prompt), formatted=call.formatted, **call.kwargs
                    )
                else:
                    conversation = to_chat_messages(call.messages, action.extra_turns)
                    chunks = await self.llm.astream_chat(
                        conversation, **self._chat_kwargs(call, action)
                    )
                first: Response | None = await anext(chunks, None)  # may refuse only when read
            except NotImplementedError:
                yield await self._ainner_response(call, action)
                return
            reported = self._relayed(call, action)
            if first is not None:
                last = first
                yield first
                async for chunk in chunks:
                    last = chunk
                    yield chunk
        except BaseException as error:
            if reported is not None:
                reported.fail(error)
            raise
        finally:
            aclose = getattr(chunks, "aclose", None)
            if callable(aclose):
                await aclose()
        if reported is not None:
            reported.end(last)

    # -- audits (StepCache(audit=...)) ---------------------------------------------------------

    def _auditing(self, call: _Call) -> AuditAsk:
        return functools.partial(self.stepcache_audit, call)

    @dispatcher.span
    def stepcache_audit(self, call: _Call, action: ModelCall) -> ModelReply:
        """The call's conversation asked of the inner model again for an audit, on the
        auditor's thread: through its public ``chat``/``complete`` (its rate limiter and
        events apply), inside a span of its own named ``StepCacheLLM.stepcache_audit``, so
        an instrumentation handler tells audits from the application's calls."""
        return call.reply(self._inner_response(call, action))

    # -- running a request ---------------------------------------------------------------------

    def _decided(self, record: StepCacheRecord, span_id: str | None) -> None:
        dispatcher.event(StepCacheEvent(record=record.to_dict(), span_id=span_id))

    def _run(self, call: _Call, shape: _Shape[R], span_id: str | None = None) -> R:
        result = drive(
            self.step_cache.serve(call.request, audit=self._auditing(call)),
            lambda action: call.reply(self._inner_response(call, action)),
        )
        self._decided(result.record, span_id or active_span_id.get())
        return shape.final(result, None if span_id is None else result.text, call.tools)

    async def _arun(self, call: _Call, shape: _Shape[R], span_id: str | None = None) -> R:
        async def call_model(action: ModelCall) -> ModelReply:
            return call.reply(await self._ainner_response(call, action))

        flow = self.step_cache.serve(call.request, audit=self._auditing(call))
        result = await drive_async(flow, call_model)
        self._decided(result.record, span_id or active_span_id.get())
        return shape.final(result, None if span_id is None else result.text, call.tools)

    def _stream(self, call: _Call, shape: _Shape[R]) -> Generator[R, None, None]:
        # A stream is read after the call returned: its events keep the call's span.
        span_id = active_span_id.get()
        return self._stream_body(call, shape, span_id)

    def _stream_body(
        self, call: _Call, shape: _Shape[R], span_id: str | None
    ) -> Generator[R, None, None]:
        if call.whole:
            yield self._run(call, shape, span_id)
            return
        shown = _Shown()

        def stream_model(action: ModelCall) -> Iterator[StreamedPiece[R]]:
            relay = _Relay(shape, shown, passthrough=action.purpose == "full")
            return (relay.piece(inner) for inner in self._inner_stream(call, action))

        events = drive_stream(
            self.step_cache.serve(call.request, audit=self._auditing(call)),
            lambda action: call.reply(self._inner_response(call, action)),
            stream_model,
            usage="last",
            on_finish=lambda result: self._decided(result.record, span_id),
        )
        try:
            for event in events:
                yield _to_caller(event, shape, shown)
        finally:
            events.close()

    def _astream(self, call: _Call, shape: _Shape[R]) -> AsyncGenerator[R, None]:
        span_id = active_span_id.get()
        return self._astream_body(call, shape, span_id)

    async def _astream_body(
        self, call: _Call, shape: _Shape[R], span_id: str | None
    ) -> AsyncGenerator[R, None]:
        if call.whole:
            yield await self._arun(call, shape, span_id)
            return
        shown = _Shown()

        async def stream_model(action: ModelCall) -> AsyncIterator[StreamedPiece[R]]:
            relay = _Relay(shape, shown, passthrough=action.purpose == "full")
            async for inner in self._ainner_stream(call, action):
                yield relay.piece(inner)

        async def call_model(action: ModelCall) -> ModelReply:
            return call.reply(await self._ainner_response(call, action))

        async def decided(result: ServeResult) -> None:
            self._decided(result.record, span_id)

        events = drive_astream(
            self.step_cache.serve(call.request, audit=self._auditing(call)),
            call_model,
            stream_model,
            usage="last",
            on_finish=decided,
        )
        try:
            async for event in events:
                yield _to_caller(event, shape, shown)
        finally:
            await events.aclose()

    # -- the LLM interface ---------------------------------------------------------------------

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        """Chat through the cache (``stepcache_tenant=...`` sets this call's tenant)."""
        call = self._prepare(kwargs, messages=messages)
        reported = _Reported(self, lambda: self._run(call, _CHAT))
        return cast(ChatResponse, reported.chat(call.messages, **call.kwargs))

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        """Complete through the cache (``stepcache_tenant=...`` sets this call's tenant)."""
        call = self._prepare(kwargs, prompt=prompt, formatted=formatted)
        reported = _Reported(self, lambda: self._run(call, _COMPLETION))
        return cast(CompletionResponse, reported.complete(prompt, formatted, **call.kwargs))

    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponseGen:
        """Stream a chat: reused steps arrive at once, regenerated ones as they come; the
        last chunk holds the whole answer and the record."""
        call = self._prepare(kwargs, messages=messages)
        reported = _Reported(self, lambda: self._stream(call, _CHAT))
        return cast(ChatResponseGen, reported.chat(call.messages, **call.kwargs))

    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        """Stream a completion: reused steps arrive at once, regenerated ones as they come;
        the last chunk holds the whole answer and the record."""
        call = self._prepare(kwargs, prompt=prompt, formatted=formatted)
        reported = _Reported(self, lambda: self._stream(call, _COMPLETION))
        return cast(CompletionResponseGen, reported.complete(prompt, formatted, **call.kwargs))

    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        """Async :meth:`chat`."""
        call = self._prepare(kwargs, messages=messages)
        reported = _Reported(self, lambda: self._arun(call, _CHAT))
        return cast(ChatResponse, await reported.achat(call.messages, **call.kwargs))

    async def acomplete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponse:
        """Async :meth:`complete`."""
        call = self._prepare(kwargs, prompt=prompt, formatted=formatted)
        reported = _Reported(self, lambda: self._arun(call, _COMPLETION))
        return cast(CompletionResponse, await reported.acomplete(prompt, formatted, **call.kwargs))

    async def astream_chat(
        self, messages: Sequence[ChatMessage], **kwargs: Any
    ) -> ChatResponseAsyncGen:
        """Async :meth:`stream_chat`."""
        call = self._prepare(kwargs, messages=messages)

        async def body() -> AsyncGenerator[ChatResponse, None]:
            return self._astream(call, _CHAT)

        reported = _Reported(self, body)
        return cast(ChatResponseAsyncGen, await reported.achat(call.messages, **call.kwargs))

    async def astream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseAsyncGen:
        """Async :meth:`stream_complete`."""
        call = self._prepare(kwargs, prompt=prompt, formatted=formatted)

        async def body() -> AsyncGenerator[CompletionResponse, None]:
            return self._astream(call, _COMPLETION)

        reported = _Reported(self, body)
        return cast(
            CompletionResponseAsyncGen,
            await reported.acomplete(prompt, formatted, **call.kwargs),
        )

    # -- structured output: verified by the output class's parser ------------------------------

    def structured_predict(
        self,
        output_cls: type[Model],
        prompt: PromptTemplate,
        llm_kwargs: dict[str, Any] | None = None,
        **prompt_args: Any,
    ) -> Model:
        """``LLM.structured_predict`` with every answer checked by a ``PydanticOutputParser``
        for ``output_cls`` (and its JSON Schema) before it is served or cached.

        With a function-calling inner model (and the default ``pydantic_program_mode``) the
        output arrives as a tool call: it is cached like any tool call, and its arguments are
        validated by ``output_cls``.
        """
        token = _STRUCTURED_OUTPUT.set(output_cls)
        try:
            output = super().structured_predict(output_cls, prompt, llm_kwargs, **prompt_args)
            return cast(Model, output)
        finally:
            _STRUCTURED_OUTPUT.reset(token)

    async def astructured_predict(
        self,
        output_cls: type[Model],
        prompt: PromptTemplate,
        llm_kwargs: dict[str, Any] | None = None,
        **prompt_args: Any,
    ) -> Model:
        """Async :meth:`structured_predict`."""
        token = _STRUCTURED_OUTPUT.set(output_cls)
        try:
            output = await super().astructured_predict(
                output_cls, prompt, llm_kwargs, **prompt_args
            )
            return cast(Model, output)
        finally:
            _STRUCTURED_OUTPUT.reset(token)


class StepCacheFunctionCallingLLM(StepCacheLLM, FunctionCallingLLM):
    """What ``StepCacheLLM(llm=...)`` is when the inner model is a ``FunctionCallingLLM``.

    Tool calling (``chat_with_tools``, ``achat_with_tools``, their streaming versions,
    ``predict_and_call``, LlamaIndex agents) goes through the wrapper's ``chat`` with the
    inner model's tool format, and through the cache: a repeated turn gets the cached calls
    as ``ToolCallBlock`` blocks with fresh ids (read by :meth:`get_tool_calls_from_response`),
    a call whose arguments copied a changed value is re-instantiated, and a miss returns the
    inner model's own response intact. See ``docs/agents.md``.

    Example:
        .. code-block:: python

            from llama_index.core.agent.workflow import FunctionAgent
            from llama_index.llms.openai import OpenAI

            llm = StepCacheLLM(llm=OpenAI(model="gpt-4o-mini"))
            isinstance(llm, StepCacheFunctionCallingLLM)   # True
            agent = FunctionAgent(tools=[...], llm=llm)

        Type checkers see ``StepCacheLLM(...)`` as a ``StepCacheLLM``; to call the tool methods
        directly with static types, construct ``StepCacheFunctionCallingLLM(llm=...)``.
    """

    def _tools_llm(self) -> FunctionCallingLLM:
        if not isinstance(self.llm, FunctionCallingLLM):
            raise TypeError(f"{type(self.llm).__name__} is not a FunctionCallingLLM")
        return self.llm

    def _prepare_chat_with_tools(
        self,
        tools: Sequence[Any],
        user_msg: str | ChatMessage | None = None,
        chat_history: list[ChatMessage] | None = None,
        verbose: bool = False,
        allow_parallel_tool_calls: bool = False,
        tool_required: bool = False,
        **kwargs: Any,
    ) -> dict[str, Any]:
        """The inner model's tool-calling arguments (its own tool format), with the call's
        tenant kept for the wrapper's ``chat`` (an integration may drop unknown keywords):
        llama-index calls ``chat`` with what this returns (pinned by
        ``tests/llama_index/test_llama_index_contract.py``)."""
        tenant = kwargs.pop(TENANT_KWARG, None)
        prepared = self._tools_llm()._prepare_chat_with_tools_compat(
            tools,
            user_msg=user_msg,
            chat_history=chat_history,
            verbose=verbose,
            allow_parallel_tool_calls=allow_parallel_tool_calls,
            tool_required=tool_required,
            **kwargs,
        )
        if tenant is not None:
            prepared[TENANT_KWARG] = tenant
        return prepared

    def _validate_chat_with_tools_response(
        self,
        response: ChatResponse,
        tools: Sequence[Any],
        allow_parallel_tool_calls: bool = False,
        **kwargs: Any,
    ) -> ChatResponse:
        return self._tools_llm()._validate_chat_with_tools_response(
            response, tools, allow_parallel_tool_calls=allow_parallel_tool_calls, **kwargs
        )

    def get_tool_calls_from_response(
        self,
        response: ChatResponse,
        error_on_no_tool_call: bool = True,
        **kwargs: Any,
    ) -> list[ToolSelection]:
        """The inner model reads its own tool calls; the calls of an answer served from the
        cache are ``ToolCallBlock`` blocks, read here when the inner model finds none."""
        selections = self._tools_llm().get_tool_calls_from_response(
            response, error_on_no_tool_call=False, **kwargs
        )
        if not selections:
            selections = [
                ToolSelection(
                    tool_id=block.tool_call_id or "",
                    tool_name=block.tool_name,
                    tool_kwargs=dict(parsed_arguments(block.tool_kwargs) or {}),
                )
                for block in response.message.blocks
                if isinstance(block, ToolCallBlock)
            ]
        if not selections and error_on_no_tool_call:
            raise ValueError(f"Expected at least one tool call, but got {len(selections)}")
        return selections


def _to_caller(event: StreamEvent[R], shape: _Shape[R], shown: _Shown) -> R:
    """One event of the request path as the wrapper's chunk; the last one holds the whole
    answer, its record and the request's usage."""
    if isinstance(event, Finished):
        result = event.result
        return shape.final(result, remaining_text(result))
    if isinstance(event, CacheText):
        shown.text += event.text
        return shape.chunk(shown.text, event.text)
    assert isinstance(event, ModelChunk)
    return event.chunk
