"""Each case through one path of the package, with the oracle as the model (SIMULATED).

Three paths, each with a fresh :class:`~stepcache_integrations.StepCache` per case: the cached
request first, then the new one, and every answer the cache served judged against the oracle's
answer to the request it was served for.

- ``langchain``: :class:`~stepcache_integrations.StepCacheLLM` around a scripted LangChain chat
  model (``bind_tools`` for tool cases, ``json_schema=`` for schema cases);
- ``llama_index``: :class:`stepcache_integrations.llama_index.StepCacheLLM` around LlamaIndex's
  ``MockFunctionCallingLLM`` answering from the oracle (``chat`` / ``chat_with_tools``);
- ``middleware``: ``langchain.agents.create_agent`` with a :class:`StepCacheMiddleware`; the
  tools are real tools returning the case's tool results, and every model turn of the agent
  run is judged;
- ``langchain_stream``: the ``langchain`` path with ``stream`` instead of ``invoke`` (the chunks
  joined; the record is on the last content chunk);
- ``langchain_cache``: LangChain's global cache (``set_llm_cache(StepCacheLangChainCache(
  ...))``) in front of the plain scripted chat model (``bind_tools`` for tool cases, the
  cache's ``json_schema=`` for schema cases): the cache can serve only what needs no model
  call, so patches and partial answers are misses there.

Endpoint cases (``options.models``) build the inner models the case names (ChatOpenAI,
AzureChatOpenAI, an OpenAI-like LlamaIndex model) with dummy keys; they answer offline from
the oracle of their own endpoint and never touch the network.
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain.agents import create_agent
from langchain_core.globals import set_llm_cache
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.tools import StructuredTool
from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    MessageRole,
    TextBlock,
    ToolCallBlock,
)
from llama_index.core.llms import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool, ToolMetadata
from pydantic import BaseModel, Field, create_model

from stepcache_integrations import StepCache, StepCacheLangChainCache, StepCacheLLM
from stepcache_integrations.langchain.middleware import StepCacheMiddleware
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import (
    OfflineAzureChatOpenAI,
    OfflineChatOpenAI,
    OfflineOpenAILike,
    ScriptedToolModel,
)
from tests.security.sound_reuse.oracle import (
    Answer,
    Case,
    Oracle,
    Request,
    Side,
    Turn,
    UnknownRequest,
    judge,
    tool_signature,
)


@dataclass(frozen=True)
class Served:
    """One answer the cache served, judged."""

    case: Case
    path: str
    side: str  # "cached" or "new"
    turn: int  # the model turn of the run (agent runs have several)
    decision: str
    reason: str
    wrong: str | None  # why it is not the oracle's answer (None: right)
    namespace: str = ""
    stored: bool = False  # the cache stored this answer

    def line(self) -> str:
        return (
            f"{self.case.id} [{self.case.cls}] {self.path} {self.side} turn {self.turn}: "
            f"decision={self.decision} reason={self.reason!r}: {self.wrong}"
        )


# -- LangChain ----------------------------------------------------------------------------------


def langchain_turn(message: BaseMessage) -> Turn:
    role = {"system": "system", "human": "user", "ai": "assistant", "tool": "tool"}[message.type]
    calls = [(c["name"], c["args"]) for c in getattr(message, "tool_calls", None) or []]
    return Turn.of(role, message.text, calls)


def langchain_request(messages: Sequence[BaseMessage], kwargs: Mapping[str, Any]) -> Request:
    return Request(
        tuple(langchain_turn(m) for m in messages), tool_signature(kwargs.get("tools") or [])
    )


def langchain_message(answer: Answer) -> AIMessage:
    calls = [
        {"name": c["name"], "args": c["args"], "id": f"call_{i}"}
        for i, c in enumerate(answer.call_dicts())
    ]
    return AIMessage(content=answer.text, tool_calls=calls)


def langchain_messages(case: Case, side: Side) -> list[BaseMessage]:
    out: list[BaseMessage] = [SystemMessage(case.system)] if case.system else []
    call_ids: list[str] = []
    for message in side.messages:
        role, content = message["role"], str(message.get("content", ""))
        if role == "user":
            out.append(HumanMessage(content))
        elif role == "assistant":
            calls = []
            for call in message.get("tool_calls", ()):
                call_ids.append(f"call_{len(call_ids) + 1}")
                calls.append({"name": call["name"], "args": call["args"], "id": call_ids[-1]})
            out.append(AIMessage(content=content, tool_calls=calls))
        elif role == "tool":
            answered = sum(isinstance(m, ToolMessage) for m in out)
            out.append(ToolMessage(content=content, tool_call_id=call_ids[answered]))
        else:
            raise ValueError(f"{case.id}: unknown role {role!r}")
    return out


def served_from_langchain(message: BaseMessage) -> tuple[Answer, dict[str, Any]]:
    calls = tuple(
        (c["name"], json.dumps(c["args"], sort_keys=True, separators=(",", ":")))
        for c in getattr(message, "tool_calls", None) or []
    )
    record = message.response_metadata.get("stepcache", {})
    return Answer(message.text, calls), record


def oracle_responder(oracle: Oracle) -> Callable[[list[BaseMessage], dict[str, Any]], AIMessage]:
    def respond(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        return langchain_message(oracle.answer(langchain_request(messages, kwargs)))

    return respond


def endpoint_model(spec: Mapping[str, Any], respond: Callable[..., str]) -> Any:
    classes: dict[str, type[Any]] = {
        "ChatOpenAI": OfflineChatOpenAI,
        "AzureChatOpenAI": OfflineAzureChatOpenAI,
        "OpenAILike": OfflineOpenAILike,
    }
    return classes[spec["class"]](responder=respond, **spec["kwargs"])


def endpoint_models(case: Case, framework: str) -> dict[str, Any]:
    """The case's two inner models (``cached``, ``new``), built from its endpoint specs with
    one responder shared by both (so the models differ only in the fields the case sets):
    each model answers as the oracle of its own endpoint."""
    oracles = {
        "cached": Oracle.for_case(case, [case.cached]),
        "new": Oracle.for_case(case, [case.new]),
    }
    owners: dict[int, str] = {}
    to_request = langchain_request if framework == "langchain" else llama_request

    def respond(model: Any, messages: Sequence[Any], kwargs: Mapping[str, Any]) -> str:
        return oracles[owners[id(model)]].answer(to_request(messages, kwargs)).text

    models = {}
    for side_name in ("cached", "new"):
        model = endpoint_model(case.models[framework][side_name], respond)
        owners[id(model)] = side_name
        models[side_name] = model
    return models


def langchain_models(case: Case) -> dict[str, Any]:
    """The LangChain chat model of each side: the case's endpoint models, or one scripted
    model answering from the oracle of both requests."""
    if case.models:
        return endpoint_models(case, "langchain")
    shared = ScriptedToolModel(responder=oracle_responder(Oracle.for_case(case)))
    return {"cached": shared, "new": shared}


def run_langchain(case: Case, fresh: bool = False, stream: bool = False) -> list[Served]:
    path = "langchain_stream" if stream else "langchain"
    caches = {"cached": StepCache()}
    caches["new"] = StepCache() if fresh else caches["cached"]
    served: list[Served] = []
    models = langchain_models(case)
    for side_name, side in (("cached", case.cached), ("new", case.new)):
        llm = StepCacheLLM(
            llm=models[side_name], step_cache=caches[side_name], json_schema=case.json_schema
        )
        runnable: Any = llm
        tools = case.tools_of(side)
        if tools:
            runnable = llm.bind_tools(list(tools), tool_choice=case.tool_choice)
        request = langchain_messages(case, side)
        record: dict[str, Any]
        if stream:
            chunks = list(runnable.stream(request))
            message = functools.reduce(operator.add, chunks)
            record = next(
                (
                    c.response_metadata["stepcache"]
                    for c in chunks
                    if "stepcache" in c.response_metadata
                ),
                {},
            )
            answer, _ = served_from_langchain(message)
        else:
            answer, record = served_from_langchain(runnable.invoke(request))
        served.append(_judged(case, path, side_name, 0, answer, side.answer, record))
    return served


def run_langchain_stream(case: Case, fresh: bool = False) -> list[Served]:
    return run_langchain(case, fresh, stream=True)


# -- LangChain's global cache --------------------------------------------------------------------


def run_langchain_cache(case: Case, fresh: bool = False) -> list[Served]:
    """The case through ``set_llm_cache(StepCacheLangChainCache(...))`` and a plain model: the
    global cache is set for the two calls only (and always unset afterwards)."""

    def llm_cache() -> StepCacheLangChainCache:
        return StepCacheLangChainCache(StepCache(), json_schema=case.json_schema)

    llm_caches = {"cached": llm_cache()}
    llm_caches["new"] = llm_cache() if fresh else llm_caches["cached"]
    served: list[Served] = []
    models = langchain_models(case)
    for side_name, side in (("cached", case.cached), ("new", case.new)):
        runnable: Any = models[side_name]
        tools = case.tools_of(side)
        if tools:
            runnable = runnable.bind_tools(list(tools), tool_choice=case.tool_choice)
        set_llm_cache(llm_caches[side_name])
        try:
            message = runnable.invoke(langchain_messages(case, side))
        finally:
            set_llm_cache(None)
        answer, record = served_from_langchain(message)
        served.append(_judged(case, "langchain_cache", side_name, 0, answer, side.answer, record))
    return served


# -- LlamaIndex ---------------------------------------------------------------------------------

_TYPES: dict[str, Any] = {"string": str, "number": float, "integer": int, "boolean": bool}


def schema_model(name: str, parameters: Mapping[str, Any]) -> type[BaseModel]:
    """A Pydantic model with the fields of a tool's JSON Schema (LlamaIndex tools need one)."""
    required = set(parameters.get("required", ()))
    fields: dict[str, Any] = {}
    for key, prop in parameters.get("properties", {}).items():
        kind: Any = _TYPES.get(prop.get("type", "string"), str)
        if "enum" in prop:
            kind = Literal[tuple(prop["enum"])]
        description = prop.get("description")
        if key in required:
            fields[key] = (kind, Field(description=description))
        else:
            fields[key] = (kind | None, Field(default=None, description=description))
    model: type[BaseModel] = create_model(name, **fields)
    return model


def llama_tools(tools: Sequence[Mapping[str, Any]]) -> list[FunctionTool]:
    out = []
    for tool in tools:
        function = tool["function"]
        metadata = ToolMetadata(
            name=function["name"],
            description=function.get("description", ""),
            fn_schema=schema_model(function["name"], function.get("parameters", {})),
        )
        out.append(FunctionTool(fn=lambda **kw: "done", metadata=metadata))
    return out


def llama_turn(message: ChatMessage) -> Turn:
    role = {
        MessageRole.SYSTEM: "system",
        MessageRole.USER: "user",
        MessageRole.ASSISTANT: "assistant",
        MessageRole.TOOL: "tool",
    }[MessageRole(message.role)]
    calls = []
    for block in message.blocks:
        if isinstance(block, ToolCallBlock):
            args = block.tool_kwargs
            calls.append((block.tool_name, json.loads(args) if isinstance(args, str) else args))
    return Turn.of(role, message.content or "", calls)


def llama_request(messages: Sequence[ChatMessage], kwargs: Mapping[str, Any]) -> Request:
    tools = [
        {"name": t.metadata.name, "description": t.metadata.description}
        for t in kwargs.get("tools") or []
    ]
    return Request(tuple(llama_turn(m) for m in messages), tool_signature(tools))


def llama_message(answer: Answer) -> ChatMessage:
    blocks: list[Any] = [TextBlock(text=answer.text)] if answer.text else []
    for i, call in enumerate(answer.call_dicts()):
        blocks.append(
            ToolCallBlock(
                tool_call_id=f"call_{i}", tool_name=call["name"], tool_kwargs=call["args"]
            )
        )
    if not blocks:
        blocks = [TextBlock(text="")]
    return ChatMessage(role=MessageRole.ASSISTANT, blocks=blocks)


def llama_messages(case: Case, side: Side) -> list[ChatMessage]:
    out = [ChatMessage(role=MessageRole.SYSTEM, content=case.system)] if case.system else []
    call_ids: list[str] = []
    for message in side.messages:
        role, content = message["role"], str(message.get("content", ""))
        if role == "user":
            out.append(ChatMessage(role=MessageRole.USER, content=content))
        elif role == "assistant":
            blocks: list[Any] = [TextBlock(text=content)] if content else []
            for call in message.get("tool_calls", ()):
                call_ids.append(f"call_{len(call_ids) + 1}")
                blocks.append(
                    ToolCallBlock(
                        tool_call_id=call_ids[-1], tool_name=call["name"], tool_kwargs=call["args"]
                    )
                )
            out.append(ChatMessage(role=MessageRole.ASSISTANT, blocks=blocks))
        elif role == "tool":
            answered = sum(m.role == MessageRole.TOOL for m in out)
            out.append(
                ChatMessage(
                    role=MessageRole.TOOL,
                    content=content,
                    additional_kwargs={"tool_call_id": call_ids[answered]},
                )
            )
    return out


def run_llama_index(case: Case, fresh: bool = False) -> list[Served]:
    caches = {"cached": StepCache()}
    caches["new"] = StepCache() if fresh else caches["cached"]
    served: list[Served] = []
    models: dict[str, Any]
    if case.models:
        models = endpoint_models(case, "llama_index")
    else:
        oracle = Oracle.for_case(case)

        def generate(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
            return llama_message(oracle.answer(llama_request(messages, kwargs)))

        shared = MockFunctionCallingLLM(response_generator=generate, is_chat_model=True)
        models = {"cached": shared, "new": shared}
    for side_name, side in (("cached", case.cached), ("new", case.new)):
        llm: Any = LlamaStepCacheLLM(
            llm=models[side_name], step_cache=caches[side_name], json_schema=case.json_schema
        )
        messages = llama_messages(case, side)
        tools = case.tools_of(side)
        response: ChatResponse
        if tools:
            response = llm.chat_with_tools(
                tools=llama_tools(tools),
                chat_history=messages,
                tool_required=case.tool_choice is not None,
            )
            selections = llm.get_tool_calls_from_response(response, error_on_no_tool_call=False)
            calls = tuple(
                (s.tool_name, json.dumps(s.tool_kwargs, sort_keys=True, separators=(",", ":")))
                for s in selections
            )
        else:
            response = llm.chat(messages)
            calls = ()
        text = "".join(b.text for b in response.message.blocks if isinstance(b, TextBlock))
        record = response.additional_kwargs.get("stepcache", {})
        answer = Answer(text, calls)
        served.append(_judged(case, "llama_index", side_name, 0, answer, side.answer, record))
    return served


# -- the agent middleware -----------------------------------------------------------------------


def agent_tools(case: Case, side: Side) -> list[StructuredTool]:
    """Real tools with the case's schemas; each returns the side's stated result."""
    out = []
    for tool in case.tools_of(side):
        function = tool["function"]
        name = function["name"]
        result = side.tool_results.get(name, f"{name}: done")

        def run(_result: str = result, **kwargs: Any) -> str:
            return _result

        out.append(
            StructuredTool.from_function(
                func=run,
                name=name,
                description=function.get("description", ""),
                args_schema=function.get("parameters", {"type": "object", "properties": {}}),
            )
        )
    return out


def run_middleware(case: Case, fresh: bool = False) -> list[Served]:
    caches = {"cached": StepCache()}
    caches["new"] = StepCache() if fresh else caches["cached"]
    served: list[Served] = []
    oracles: dict[str, Oracle] = {}
    models: dict[str, Any]
    if case.models:
        models = endpoint_models(case, "langchain")
        oracles = {
            "cached": Oracle.for_case(case, [case.cached]),
            "new": Oracle.for_case(case, [case.new]),
        }
    else:
        oracle = Oracle.for_case(case)
        shared = ScriptedToolModel(responder=oracle_responder(oracle))
        models = {"cached": shared, "new": shared}
        oracles = {"cached": oracle, "new": oracle}
    for side_name, side in (("cached", case.cached), ("new", case.new)):
        tools = agent_tools(case, side)
        agent = create_agent(
            model=models[side_name],
            tools=tools,
            system_prompt=case.system,
            middleware=[StepCacheMiddleware(caches[side_name])],
        )
        start = [m for m in langchain_messages(case, side) if not isinstance(m, SystemMessage)]
        state: Any = agent.invoke({"messages": start})  # type: ignore[call-overload]
        messages: list[BaseMessage] = state["messages"]
        system = [SystemMessage(case.system)] if case.system else []
        signature = tool_signature(case.tools_of(side))
        turn = 0
        for index, message in enumerate(messages):
            if index < len(start) or not isinstance(message, AIMessage):
                continue
            before = Request(
                tuple(langchain_turn(m) for m in [*system, *messages[:index]]), signature
            )
            expected = oracles[side_name].answer(before)
            answer, record = served_from_langchain(message)
            served.append(_judged(case, "middleware", side_name, turn, answer, expected, record))
            turn += 1
    return served


# -- judging ------------------------------------------------------------------------------------


def _package_wrote(record: Mapping[str, Any]) -> bool:
    """Whether the package wrote the served answer itself (its solver or its fallback)."""
    return record.get("patched_by") == "solver" or bool(record.get("fallback"))


# Per case and path: whether the cached request's answer was the package's own. A reuse of
# such an entry serves the package's text, judged by result like the package's answers.
_CACHED_OWN: dict[tuple[str, str], bool] = {}


def _judged(
    case: Case,
    path: str,
    side: str,
    turn: int,
    served: Answer,
    expected: Answer,
    record: Mapping[str, Any],
) -> Served:
    own = _package_wrote(record)
    if side == "cached":
        _CACHED_OWN[(case.id, path)] = own
    elif record.get("decision") in ("exact", "reuse"):
        own = own or _CACHED_OWN.get((case.id, path), False)
    return Served(
        case=case,
        path=path,
        side=side,
        turn=turn,
        decision=str(record.get("decision", "?")),
        reason=str(record.get("reason", "")),
        wrong=judge(
            case.judge,
            served,
            expected,
            cached=case.cached.answer,
            own=own,
        ),
        namespace=str(record.get("namespace", "")),
        stored=bool(record.get("stored", False)),
    )


RUNNERS: dict[str, Callable[[Case, bool], list[Served]]] = {
    "langchain": run_langchain,
    "llama_index": run_llama_index,
    "middleware": run_middleware,
    "langchain_stream": run_langchain_stream,
    "langchain_cache": run_langchain_cache,
}


def run(case: Case, path: str, fresh: bool = False) -> list[Served]:
    """Every answer served for the case on the path; an oracle that was asked something it
    cannot answer is reported as a wrong answer of decision ``oracle-error``. ``fresh``: the
    new request goes to a cache of its own (nothing to reuse: a check of the harness)."""
    try:
        return RUNNERS[path](case, fresh)
    except UnknownRequest as error:
        return [Served(case, path, "new", 0, "oracle-error", "", f"the oracle was asked: {error}")]
