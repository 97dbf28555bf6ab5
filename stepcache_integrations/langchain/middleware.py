"""``StepCacheMiddleware``: the cache for a LangChain agent on any model, without wrapping it.

``create_agent(model=..., tools=..., middleware=[StepCacheMiddleware()])`` puts every model
call of the agent through the same request path as :class:`~stepcache_integrations.
StepCacheLLM` (one adapter layer: conversation, namespace, tenants, records, tool-call
documents). Needs the ``agents`` extra (``langchain>=1.5``).

A miss is the agent's own model call, unchanged. A hit is replayed through the agent's model
step with a stand-in model that answers the cached message, so LangChain itself binds the
tools, parses a structured response and builds its tool message, exactly as on a miss; the
stand-in's run (named ``StepCacheHit``) is all a tracer sees of a hit.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain.agents.structured_output import AutoStrategy, ProviderStrategy, ToolStrategy
from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
    adispatch_custom_event,
    dispatch_custom_event,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict

from stepcache_integrations.adapter import (
    build_request,
    drive,
    drive_async,
    pure_tool_names,
    read_reply,
    resolve_tenant,
)
from stepcache_integrations.core.cache import StepCache, as_verifier
from stepcache_integrations.core.protocol import CacheRequest, ModelCall, ModelReply, ServeResult
from stepcache_integrations.core.tasks.tool_call import TOOLS
from stepcache_integrations.langchain.chat_model import STEPCACHE_EVENT
from stepcache_integrations.langchain.request import (
    TENANT_METADATA_KEY,
    ai_message,
    call_params,
    inner_identity,
    stored_text,
    to_conversation,
    to_messages,
)
from stepcache_integrations.langchain.streaming import INNER_MODEL_NAME_KEY, usage_metadata

__all__ = ["StepCacheMiddleware"]

Handler = Callable[[ModelRequest[Any]], ModelResponse[Any]]
AsyncHandler = Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]]


class CachedAnswer(BaseChatModel):
    """A stand-in model that answers one cached message (a hit, replayed through the agent's
    model step). It binds any tools (the answer is already known)."""

    message: AIMessage

    model_config = ConfigDict(arbitrary_types_allowed=True)

    @property
    def _llm_type(self) -> str:
        return "stepcache-hit"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, AIMessage]:
        return self.bind(**kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.message)])


def _schema_tools(response_format: Any) -> list[dict[str, Any]]:
    """The tools a structured response may be asked through (the agent binds them itself)."""
    if isinstance(response_format, AutoStrategy):
        response_format = ToolStrategy(schema=response_format.schema)
    if not isinstance(response_format, ToolStrategy):
        return []
    return [
        {"name": spec.name, "description": spec.description or "", "parameters": spec.json_schema}
        for spec in response_format.schema_specs
    ]


def _response_format_part(response_format: Any) -> Any:
    """The response format as namespace data (its strategy and JSON Schemas)."""
    if response_format is None:
        return None
    if isinstance(response_format, ProviderStrategy):
        return {"strategy": "provider", "schema": response_format.schema_spec.json_schema}
    if isinstance(response_format, ToolStrategy | AutoStrategy):
        kind = "tool" if isinstance(response_format, ToolStrategy) else "auto"
        return {"strategy": kind, "tools": _schema_tools(response_format)}
    return {"schema": convert_to_openai_tool(response_format)["function"]}


def _answer_of(response: ModelResponse[Any]) -> AIMessage:
    for message in response.result:
        if isinstance(message, AIMessage):
            return message
    raise TypeError("the agent's model step gave no AI message")


def _config_metadata() -> Mapping[str, Any]:
    """The running agent step's metadata (where a call's tenant is), if any."""
    try:
        from langgraph.config import get_config

        return get_config().get("metadata") or {}
    except Exception:  # outside a graph step: no per-call configuration
        return {}


@dataclass(frozen=True)
class _Prepared:
    request: CacheRequest
    tools: bool


class StepCacheMiddleware(AgentMiddleware[Any, Any, Any]):
    """Caches every model call of a LangChain agent, on any model.

    Args:
        step_cache: the :class:`~stepcache_integrations.StepCache` to use (shared with
            ``StepCacheLLM`` wrappers if you like; default: a new one).
        tenant: default tenant of the entries; a call's
            ``config={"metadata": {"stepcache_tenant": ...}}`` wins over it.
        model_id: a framework-neutral name of the model, replacing its LangChain identity in
            the namespace.
        verifiers: extra verifiers for plain answers (output parsers, callables, Verifiers).
        pure_tools: names of the agent's tools (or the tools) declared *pure*: whether the
            model calls one, and with which other arguments, does not depend on the values
            it copies from the request (see ``docs/agents.md``). A ``BaseTool`` can say so
            itself: ``metadata={"stepcache_pure": True}``.

    Example:
        .. code-block:: python

            from langchain.agents import create_agent
            from stepcache_integrations.langchain.middleware import StepCacheMiddleware

            agent = create_agent(
                model=ChatOpenAI(model="gpt-4o-mini"),
                tools=[get_weather],
                middleware=[StepCacheMiddleware()],
            )
            agent.invoke({"messages": [("user", "What's the weather in Paris?")]})
            agent.invoke({"messages": [("user", "What's the weather in Paris?")]})  # 0 calls

    Do not combine it with a ``StepCacheLLM`` model in one agent: each model call would be
    cached twice.
    """

    def __init__(
        self,
        step_cache: StepCache | None = None,
        *,
        tenant: str | None = None,
        model_id: str | None = None,
        verifiers: Sequence[Any] = (),
        pure_tools: Sequence[Any] = (),
    ) -> None:
        if step_cache is not None and not isinstance(step_cache, StepCache):
            raise ValueError(f"step_cache must be a StepCache, got {type(step_cache).__name__}")
        resolve_tenant(tenant, None, what="tenant")  # validates it
        if model_id is not None and not isinstance(model_id, str):
            raise ValueError(f"model_id must be a string, got {type(model_id).__name__}")
        self.step_cache = step_cache if step_cache is not None else StepCache()
        self.tenant = tenant
        self.model_id = model_id
        self.verifiers = [as_verifier(v) for v in verifiers]
        self.pure_tools = pure_tool_names(pure_tools)

    # -- the cache request -------------------------------------------------------------------

    def _messages(self, request: ModelRequest[Any]) -> list[BaseMessage]:
        system = [request.system_message] if request.system_message is not None else []
        return [*system, *request.messages]

    def _prepare(self, request: ModelRequest[Any]) -> _Prepared:
        tenant, reason = resolve_tenant(
            _config_metadata().get(TENANT_METADATA_KEY),
            self.tenant,
            what=f"config metadata {TENANT_METADATA_KEY!r}",
        )
        kwargs: dict[str, Any] = dict(request.model_settings)
        tools: list[Any] = [*request.tools, *_schema_tools(request.response_format)]
        if tools:
            kwargs["tools"] = tools
        if request.tool_choice is not None:
            kwargs["tool_choice"] = request.tool_choice
        conversation = to_conversation(self._messages(request), kwargs)
        model = {"id": self.model_id} if self.model_id else inner_identity(request.model)
        options: dict[str, Any] = {}
        response_format = _response_format_part(request.response_format)
        if response_format is not None:
            options["response_format"] = response_format
        cache_request = build_request(
            conversation,
            model=model,
            tenant=tenant,
            call=call_params(request.model_settings),
            options=options,
            verifiers=self.verifiers,
            bypass=reason,
            pure_tools=self.pure_tools,
        )
        return _Prepared(cache_request, bool(cache_request.options.get(TOOLS)))

    def _reply(self, response: ModelResponse[Any], tools: bool) -> ModelReply:
        message = _answer_of(response)
        usage = message.usage_metadata
        text = stored_text(message) if tools else message.text
        if usage is None:
            return ModelReply(text, raw=response)
        return ModelReply(text, usage.get("input_tokens"), usage.get("output_tokens"), response)

    def _retry(self, request: ModelRequest[Any], action: ModelCall) -> ModelRequest[Any]:
        if not action.extra_turns:
            return request
        messages = to_messages(request.messages, action.extra_turns)
        return request.override(messages=cast(list[AnyMessage], messages))

    # -- the answer ----------------------------------------------------------------------------

    def _record(self, message: AIMessage, result: ServeResult) -> AIMessage:
        metadata = {**message.response_metadata, "stepcache": result.record.to_dict()}
        return message.model_copy(
            update={"response_metadata": metadata, "usage_metadata": usage_metadata(result.record)}
        )

    def _annotated(self, response: ModelResponse[Any], result: ServeResult) -> ModelResponse[Any]:
        messages = [
            self._record(m, result) if isinstance(m, AIMessage) else m for m in response.result
        ]
        return ModelResponse(result=messages, structured_response=response.structured_response)

    def _replay(
        self, request: ModelRequest[Any], result: ServeResult, tools: bool
    ) -> ModelRequest[Any]:
        """The request answered by a stand-in model that gives the cached message."""
        metadata = {INNER_MODEL_NAME_KEY: str(getattr(request.model, "_llm_type", "model"))}
        if tools:
            message = ai_message(read_reply(result.text), response_metadata=metadata)
        else:
            message = AIMessage(content=result.text, response_metadata=metadata)
        stand_in = CachedAnswer(message=self._record(message, result), name="StepCacheHit")
        stand_in.profile = request.model.profile
        return request.override(model=stand_in)

    def _full(self, result: ServeResult) -> ModelResponse[Any] | None:
        raw = result.full_reply.raw if result.full_reply is not None else None
        return raw if isinstance(raw, ModelResponse) else None

    # -- the hooks -----------------------------------------------------------------------------

    def wrap_model_call(
        self, request: ModelRequest[Any], handler: Handler
    ) -> ModelResponse[Any] | AIMessage:
        prepared = self._prepare(request)

        def call(action: ModelCall) -> ModelReply:
            return self._reply(handler(self._retry(request, action)), prepared.tools)

        result = drive(self.step_cache.serve(prepared.request), call)
        _announce(result)
        full = self._full(result)
        if full is not None:
            return self._annotated(full, result)
        return self._annotated(handler(self._replay(request, result, prepared.tools)), result)

    async def awrap_model_call(
        self, request: ModelRequest[Any], handler: AsyncHandler
    ) -> ModelResponse[Any] | AIMessage:
        prepared = self._prepare(request)

        async def call(action: ModelCall) -> ModelReply:
            return self._reply(await handler(self._retry(request, action)), prepared.tools)

        result = await drive_async(self.step_cache.serve(prepared.request), call)
        await _aannounce(result)
        full = self._full(result)
        if full is not None:
            return self._annotated(full, result)
        replayed = await handler(self._replay(request, result, prepared.tools))
        return self._annotated(replayed, result)


def _announce(result: ServeResult) -> None:
    try:
        dispatch_custom_event(STEPCACHE_EVENT, result.record.to_dict())
    except Exception:  # no run to attach it to (the record is on the message anyway)
        return


async def _aannounce(result: ServeResult) -> None:
    try:
        await adispatch_custom_event(STEPCACHE_EVENT, result.record.to_dict())
    except Exception:  # no run to attach it to (the record is on the message anyway)
        return
