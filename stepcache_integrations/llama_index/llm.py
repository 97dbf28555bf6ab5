"""``StepCacheLLM``: a LlamaIndex LLM that puts StepCache in front of any LlamaIndex LLM."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
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
)
from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr, SerializeAsAny
from llama_index.core.callbacks import CallbackManager
from llama_index.core.llms.function_calling import FunctionCallingLLM
from llama_index.core.llms.llm import LLM, ToolSelection
from llama_index.core.output_parsers import PydanticOutputParser
from llama_index.core.prompts import PromptTemplate
from llama_index.core.types import Model

from stepcache_integrations.core.cache import StepCache
from stepcache_integrations.core.drivers import drive, drive_async
from stepcache_integrations.core.protocol import (
    CacheRequest,
    Emit,
    ModelCall,
    ModelReply,
    ServeGenerator,
    ServeResult,
)
from stepcache_integrations.core.verifiers.base import Verifier
from stepcache_integrations.llama_index.events import CallReport
from stepcache_integrations.llama_index.request import (
    TENANT_KWARG,
    LlamaIndexParserVerifier,
    as_llama_verifier,
    build_request,
    chat_response,
    completion_response,
    inner_identity,
    reply_from,
    text_of,
    to_chat_messages,
    usage_of,
)

__all__ = ["StepCacheFunctionCallingLLM", "StepCacheLLM"]

Response = ChatResponse | CompletionResponse
R = TypeVar("R", bound=ChatResponse | CompletionResponse)

# Set while ``structured_predict`` runs, so the calls it makes are checked by a Pydantic
# parser for its output class (the program formats the prompt; only the wrapper sees both).
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

    def final(self, result: ServeResult, delta: str | None) -> R:
        raw = result.full_reply.raw if result.full_reply is not None else None
        if self.kind is ChatResponse:
            base = raw if isinstance(raw, ChatResponse) else None
            return cast(R, chat_response(result.text, result.record, delta=delta, base=base))
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


class _Relay(Generic[R]):
    """Passes the inner model's streamed chunks on and collects its reply.

    A full generation is passed through unchanged (tool-call blocks and provider fields
    included: agents read them from the chunks); a patch is shown after the verified prefix.
    """

    def __init__(self, shape: _Shape[R], shown: str, passthrough: bool) -> None:
        self.shape: _Shape[R] = shape
        self.before = shown
        self.passthrough = passthrough
        self.parts: list[str] = []
        self.last: Response | None = None
        self.usage: tuple[int | None, int | None] = (None, None)

    @property
    def shown(self) -> str:
        return self.before + "".join(self.parts)

    def push(self, inner: Response) -> R:
        so_far = "".join(self.parts)
        delta = inner.delta
        if delta is None:
            accumulated = text_of(inner)
            delta = accumulated[len(so_far) :] if accumulated.startswith(so_far) else ""
        self.parts.append(delta)
        self.last = inner
        usage = usage_of(inner)
        if usage != (None, None):
            self.usage = usage  # streams report usage on the last chunk, cumulatively
        if self.passthrough and self.shape.owns(inner):
            return cast(R, inner)
        return self.shape.chunk(self.shown, delta)

    def reply(self) -> ModelReply:
        return ModelReply("".join(self.parts), *self.usage, raw=self.last)


def _silent_callback_manager() -> CallbackManager:
    """A callback manager with no handlers at all.

    ``CallbackManager([])`` is not one: an empty list falls back to the handlers of
    ``Settings.callback_manager`` (and the global handler is always added).
    """
    manager = CallbackManager([])
    manager.handlers = []
    return manager


def _remaining(result: ServeResult) -> str:
    """Text of the answer not yet shown to a streaming caller."""
    if result.text.startswith(result.emitted):
        return result.text[len(result.emitted) :]
    return ""


class StepCacheLLM(LLM):
    """Step-level answer cache in front of any LlamaIndex LLM.

    Identical requests are answered from the cache; similar ones reuse every cached step that
    still verifies against the new request and regenerate only the failing block; answers
    that fail a check are repaired once and never cached. Every response carries the record
    in ``additional_kwargs["stepcache"]`` and the tokens really spent in ``raw["usage"]`` and
    ``additional_kwargs`` (``prompt_tokens``, ``completion_tokens``, ``total_tokens``).

    Args:
        llm: the wrapped LlamaIndex ``LLM``. A ``FunctionCallingLLM`` gives a
            :class:`StepCacheFunctionCallingLLM` (tool calls pass through, decision
            ``bypass``). The inner model gets its own empty ``CallbackManager``: the wrapper
            reports each request once (it adopts the inner's manager if you gave it one).
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

    Example:
        .. code-block:: python

            from llama_index.core import Settings
            from llama_index.llms.openai import OpenAI
            from stepcache_integrations.llama_index import StepCacheLLM

            Settings.llm = StepCacheLLM(llm=OpenAI(model="gpt-4o-mini"))
            Settings.llm.complete("Solve for x: 3x + 5 = 20. Answer step by step.")
            response = Settings.llm.complete("Solve for y: 3y + 5 = 20. Answer step by step.")
            response.additional_kwargs["stepcache"]["decision"]   # 'reuse': no model call
    """

    llm: SerializeAsAny[LLM] = Field(description="The wrapped LlamaIndex LLM.")
    step_cache: StepCache = Field(default_factory=StepCache, exclude=True)
    tenant: str | None = Field(default=None, description="Default tenant of the entries.")
    verifiers: list[Any] = Field(default_factory=list, exclude=True)
    json_schema: Any = Field(default=None, exclude=True)
    model_id: str | None = Field(default=None, description="Framework-neutral model name.")

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
        for name, value in (("tenant", tenant), ("model_id", model_id)):
            if value is not None and not isinstance(value, str):
                raise ValueError(f"{name} must be a string, got {type(value).__name__}")
        converted = [as_llama_verifier(v) for v in verifiers]
        for name in _INHERITED:
            value = getattr(llm, name, None)
            if name not in kwargs and value is not None:
                kwargs[name] = value
        kwargs.setdefault("callback_manager", llm.callback_manager)
        fields: dict[str, Any] = {
            "llm": llm,
            "step_cache": step_cache if step_cache is not None else StepCache(),
            "tenant": tenant,
            "verifiers": list(verifiers),
            "json_schema": json_schema,
            "model_id": model_id,
        }
        super().__init__(**fields, **kwargs)
        self._verifiers = converted
        # The wrapper reports each request once; the inner model reporting its calls to the
        # same handlers would count cache misses twice.
        llm.callback_manager = _silent_callback_manager()

    @classmethod
    def class_name(cls) -> str:
        """The serialisation name of this component."""
        return "StepCacheLLM"

    @property
    def metadata(self) -> LLMMetadata:
        """The inner model's metadata (context window, chat or not, function calling...)."""
        return self.llm.metadata

    # -- the cache request -------------------------------------------------------------------

    def _isolate_inner(self) -> None:
        # Someone may attach handlers to the inner model later (``Settings.llm = inner``):
        # they would see inner calls the wrapper already reports.
        manager = getattr(self.llm, "callback_manager", None)
        if not isinstance(manager, CallbackManager) or manager.handlers:
            self.llm.callback_manager = _silent_callback_manager()

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
        tenant = kwargs.pop(TENANT_KWARG, None)
        if tenant is not None and not isinstance(tenant, str):
            raise ValueError(f"{TENANT_KWARG} must be a string, got {type(tenant).__name__}")
        tenant = tenant or self.tenant
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
        if structured is not None:
            verifiers.append(LlamaIndexParserVerifier(PydanticOutputParser(output_cls=structured)))
        # A completion model formats ``complete`` and ``chat`` prompts differently; a chat
        # model turns a completion into one user message, the same request as a chat.
        mode = None
        if prompt is not None and not self.llm.metadata.is_chat_model:
            mode = {"completion": {"formatted": formatted}}
        request = build_request(
            self._identity(),
            conversation,
            kwargs=kwargs,
            tenant=tenant,
            options=options,
            verifiers=verifiers,
            mode=mode,
        )
        return _Call(conversation, prompt, formatted, kwargs, request)

    # -- calling the inner model -------------------------------------------------------------

    def _inner_response(self, call: _Call, action: ModelCall) -> Response:
        self._isolate_inner()
        if call.direct(action):
            return self.llm.complete(str(call.prompt), formatted=call.formatted, **call.kwargs)
        conversation = to_chat_messages(call.messages, action.extra_turns)
        return self.llm.chat(conversation, **call.kwargs)

    async def _ainner_response(self, call: _Call, action: ModelCall) -> Response:
        self._isolate_inner()
        if call.direct(action):
            return await self.llm.acomplete(
                str(call.prompt), formatted=call.formatted, **call.kwargs
            )
        conversation = to_chat_messages(call.messages, action.extra_turns)
        return await self.llm.achat(conversation, **call.kwargs)

    def _inner_stream(self, call: _Call, action: ModelCall) -> Iterator[Response]:
        """The inner model's chunks (one chunk when it cannot stream)."""
        self._isolate_inner()
        chunks: Iterator[Response]
        try:
            if call.direct(action):
                chunks = self.llm.stream_complete(
                    str(call.prompt), formatted=call.formatted, **call.kwargs
                )
            else:
                conversation = to_chat_messages(call.messages, action.extra_turns)
                chunks = self.llm.stream_chat(conversation, **call.kwargs)
            iterator: Iterator[Response] = iter(chunks)
            first: Response = next(iterator)
        except StopIteration:
            return
        except NotImplementedError:
            yield self._inner_response(call, action)
            return
        yield first
        yield from iterator

    async def _ainner_stream(self, call: _Call, action: ModelCall) -> AsyncIterator[Response]:
        self._isolate_inner()
        chunks: AsyncIterator[Response]
        try:
            if call.direct(action):
                chunks = await self.llm.astream_complete(
                    str(call.prompt), formatted=call.formatted, **call.kwargs
                )
            else:
                conversation = to_chat_messages(call.messages, action.extra_turns)
                chunks = await self.llm.astream_chat(conversation, **call.kwargs)
            iterator = chunks.__aiter__()
            first = await iterator.__anext__()
        except StopAsyncIteration:
            return
        except NotImplementedError:
            yield await self._ainner_response(call, action)
            return
        yield first
        async for chunk in iterator:
            yield chunk

    # -- running a request -------------------------------------------------------------------

    def _run(self, call: _Call, report: CallReport, shape: _Shape[R]) -> R:
        with report.callbacks.as_trace(report.trace_name):
            report.start()
            try:
                result = drive(
                    self.step_cache.serve(call.request),
                    lambda action: reply_from(self._inner_response(call, action)),
                )
            except BaseException as error:
                report.fail(error)
                raise
            response = shape.final(result, None)
            report.end(response, result.record)
        return response

    async def _arun(self, call: _Call, report: CallReport, shape: _Shape[R]) -> R:
        async def call_model(action: ModelCall) -> ModelReply:
            return reply_from(await self._ainner_response(call, action))

        with report.callbacks.as_trace(report.trace_name):
            report.start()
            try:
                result = await drive_async(self.step_cache.serve(call.request), call_model)
            except BaseException as error:
                report.fail(error)
                raise
            response = shape.final(result, None)
            report.end(response, result.record)
        return response

    def _stream(self, call: _Call, report: CallReport, shape: _Shape[R]) -> Iterator[R]:
        # As in LlamaIndex's own decorators: the start is reported when the stream is
        # created, the end when it is exhausted.
        with report.callbacks.as_trace(report.trace_name):
            report.start()
        return self._stream_body(call, report, shape)

    def _stream_body(self, call: _Call, report: CallReport, shape: _Shape[R]) -> Iterator[R]:
        try:
            flow: ServeGenerator = self.step_cache.serve(call.request)
            reply: ModelReply | None = None
            shown = ""
            try:
                while True:
                    action = flow.send(reply)
                    reply = None
                    if isinstance(action, Emit):
                        shown += action.text
                        chunk = shape.chunk(shown, action.text)
                        report.progress(chunk)
                        yield chunk
                    elif action.live:
                        relay = _Relay(shape, shown, passthrough=action.purpose == "full")
                        for inner in self._inner_stream(call, action):
                            chunk = relay.push(inner)
                            report.progress(chunk)
                            yield chunk
                        reply, shown = relay.reply(), relay.shown
                    else:
                        reply = reply_from(self._inner_response(call, action))
            except StopIteration as stop:
                result: ServeResult = stop.value
            finally:
                flow.close()
            closing = shape.final(result, _remaining(result))
        except BaseException as error:
            report.fail(error)
            raise
        report.progress(closing)
        report.end(closing, result.record)
        yield closing

    async def _astream(self, call: _Call, report: CallReport, shape: _Shape[R]) -> AsyncIterator[R]:
        with report.callbacks.as_trace(report.trace_name):
            report.start()
        return self._astream_body(call, report, shape)

    async def _astream_body(
        self, call: _Call, report: CallReport, shape: _Shape[R]
    ) -> AsyncIterator[R]:
        try:
            flow: ServeGenerator = self.step_cache.serve(call.request)
            reply: ModelReply | None = None
            shown = ""
            try:
                while True:
                    action = flow.send(reply)
                    reply = None
                    if isinstance(action, Emit):
                        shown += action.text
                        chunk = shape.chunk(shown, action.text)
                        report.progress(chunk)
                        yield chunk
                    elif action.live:
                        relay = _Relay(shape, shown, passthrough=action.purpose == "full")
                        async for inner in self._ainner_stream(call, action):
                            chunk = relay.push(inner)
                            report.progress(chunk)
                            yield chunk
                        reply, shown = relay.reply(), relay.shown
                    else:
                        reply = reply_from(await self._ainner_response(call, action))
            except StopIteration as stop:
                result: ServeResult = stop.value
            finally:
                flow.close()
            closing = shape.final(result, _remaining(result))
        except BaseException as error:
            report.fail(error)
            raise
        report.progress(closing)
        report.end(closing, result.record)
        yield closing

    # -- the LLM interface ---------------------------------------------------------------------

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        """Chat through the cache (``stepcache_tenant=...`` sets this call's tenant)."""
        call = self._prepare(kwargs, messages=messages)
        return self._run(call, CallReport(self, messages=call.messages, kwargs=call.kwargs), _CHAT)

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        """Complete through the cache (``stepcache_tenant=...`` sets this call's tenant)."""
        call = self._prepare(kwargs, prompt=prompt, formatted=formatted)
        report = CallReport(self, prompt=prompt, kwargs=call.kwargs)
        return self._run(call, report, _COMPLETION)

    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponseGen:
        """Stream a chat: reused steps arrive at once, regenerated ones as they come."""
        call = self._prepare(kwargs, messages=messages)
        report = CallReport(self, messages=call.messages, kwargs=call.kwargs)
        return cast(ChatResponseGen, self._stream(call, report, _CHAT))

    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        """Stream a completion: reused steps arrive at once, regenerated ones as they come."""
        call = self._prepare(kwargs, prompt=prompt, formatted=formatted)
        report = CallReport(self, prompt=prompt, kwargs=call.kwargs)
        return cast(CompletionResponseGen, self._stream(call, report, _COMPLETION))

    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        """Async :meth:`chat`."""
        call = self._prepare(kwargs, messages=messages)
        report = CallReport(self, messages=call.messages, kwargs=call.kwargs)
        return await self._arun(call, report, _CHAT)

    async def acomplete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponse:
        """Async :meth:`complete`."""
        call = self._prepare(kwargs, prompt=prompt, formatted=formatted)
        report = CallReport(self, prompt=prompt, kwargs=call.kwargs)
        return await self._arun(call, report, _COMPLETION)

    async def astream_chat(
        self, messages: Sequence[ChatMessage], **kwargs: Any
    ) -> ChatResponseAsyncGen:
        """Async :meth:`stream_chat`."""
        call = self._prepare(kwargs, messages=messages)
        report = CallReport(self, messages=call.messages, kwargs=call.kwargs)
        return cast(ChatResponseAsyncGen, await self._astream(call, report, _CHAT))

    async def astream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseAsyncGen:
        """Async :meth:`stream_complete`."""
        call = self._prepare(kwargs, prompt=prompt, formatted=formatted)
        report = CallReport(self, prompt=prompt, kwargs=call.kwargs)
        return cast(CompletionResponseAsyncGen, await self._astream(call, report, _COMPLETION))

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
        output arrives as a tool call: such calls bypass the cache.
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
    inner model's tool format; such requests bypass the cache (decision ``bypass``), so they
    are recorded and reported once, and the inner model's response reaches the agent intact.

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
        """The inner model's tool-calling arguments (its own tool format)."""
        return self._tools_llm()._prepare_chat_with_tools_compat(
            tools,
            user_msg=user_msg,
            chat_history=chat_history,
            verbose=verbose,
            allow_parallel_tool_calls=allow_parallel_tool_calls,
            tool_required=tool_required,
            **kwargs,
        )

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
        """The inner model reads its own tool calls."""
        return self._tools_llm().get_tool_calls_from_response(
            response, error_on_no_tool_call=error_on_no_tool_call, **kwargs
        )
