"""From a neutral conversation to a :class:`~stepcache_integrations.core.protocol.CacheRequest`.

Everything that changes the meaning of an answer goes into the namespace: the inner model's
identity and generation parameters, the earlier turns (tool calls and results included), the
bound tools, the tool choice, the response format, the call's own parameters, and the
tenant. Both framework adapters build requests here, so wrappers of LangChain and LlamaIndex
around the same model (same ``model_id``) and one shared ``StepCache`` share entries.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from stepcache_integrations.adapter.bypass import bypass_reason
from stepcache_integrations.adapter.conversation import Conversation, Message, call_positions
from stepcache_integrations.adapter.tools import declare_pure, namespace_spec, tool_spec
from stepcache_integrations.adapter.verifiers import plain_answers_only
from stepcache_integrations.core.namespace import make_namespace
from stepcache_integrations.core.protocol import CacheRequest, ModelAccess
from stepcache_integrations.core.tasks.tool_call import AFTER_TOOL_RESULT, EARLIER_TURNS, TOOLS
from stepcache_integrations.core.verifiers.base import Verifier

__all__ = ["build_request", "call_params", "conversation_of", "namespace_parts"]

# Call keywords that bind tools or choose among them: they go to the conversation's own
# fields (and its bypass rules), not to the generation parameters.
TOOL_KWARGS = ("tools", "functions")
CHOICE_KWARGS = ("tool_choice", "function_call")


def conversation_of(
    messages: Sequence[Message],
    kwargs: Mapping[str, Any],
    *,
    read_tool: Callable[[Any], dict[str, Any] | None] = tool_spec,
) -> Conversation:
    """A conversation from neutral turns and the call's keywords (bound tools, tool choice,
    ``tool_required``, response format), the same way for every framework.

    Bound tools are kept as neutral specs (``read_tool``, by default :func:`tool_spec`, which
    reads the common dict formats; a framework passes one that also reads its tool objects).

    Example:
        >>> conversation_of([Message("user", "Hi")], {"tools": [{"name": "f"}]}).tools
        ({'name': 'f', 'description': '', 'parameters': {'type': 'object', 'properties': {}}},)
    """
    tools: list[dict[str, Any]] = []
    unreadable: list[str] = []
    for name in TOOL_KWARGS:
        for tool in kwargs.get(name) or ():
            spec = read_tool(tool)
            if spec is None:
                unreadable.append(_describe(tool))
            else:
                tools.append(spec)
    choice = next((kwargs[name] for name in CHOICE_KWARGS if kwargs.get(name)), None)
    if choice is None and kwargs.get("tool_required"):
        choice = "required"
    return Conversation(
        messages=tuple(messages),
        tools=tuple(tools),
        tool_choice=choice,
        response_format=kwargs.get("response_format"),
        unreadable_tools=tuple(unreadable),
    )


def _describe(tool: Any) -> str:
    if isinstance(tool, Mapping):
        return str(tool.get("name") or tool.get("type") or "a tool")
    return str(getattr(tool, "name", None) or type(tool).__name__)


def call_params(kwargs: Mapping[str, Any], *, skip: Sequence[str] = ()) -> dict[str, Any]:
    """The call's generation parameters (temperature, ...) for the namespace: every keyword
    but those :func:`conversation_of` reads and ``skip`` (keywords that change how an answer
    is delivered, never what it says).

    Example:
        >>> call_params({"temperature": 0, "tools": [], "stream": True}, skip=("stream",))
        {'temperature': 0}
    """
    skipped = {*TOOL_KWARGS, *CHOICE_KWARGS, "tool_required", "response_format", *skip}
    return {key: value for key, value in kwargs.items() if key not in skipped}


def namespace_parts(
    model: Mapping[str, Any],
    history: Sequence[Message],
    *,
    conversation: Conversation | None = None,
    stop: Sequence[str] | None = None,
    call: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The namespace data of a request, the same for every framework.

    ``history`` holds the turns before the prompt. Tools, tool choice and response format
    appear only when the conversation has them, so plain chat requests keep one stable
    namespace. Tool-call ids appear as the positions of their calls (see
    :func:`~stepcache_integrations.adapter.conversation.call_positions`).

    Example:
        >>> a = namespace_parts({"id": "gpt-4o-mini"}, [Message("system", "Be terse.")])
        >>> b = namespace_parts({"id": "gpt-4o-mini"}, [Message("system", "Be terse.")])
        >>> make_namespace(a) == make_namespace(b)
        True
        >>> namespace_parts({"id": "m"}, [Message("human", "hi")])["history"][0]["role"]
        'user'
    """
    turns = conversation.messages if conversation is not None else tuple(history)
    positions = call_positions(turns)
    parts: dict[str, Any] = {
        "model": dict(model),
        "stop": list(stop) if stop else None,
        "call": dict(call or {}),
        "history": [message.neutral(positions) for message in history],
        "options": dict(options or {}),
    }
    if conversation is not None:
        if conversation.tools:
            parts["tools"] = [namespace_spec(spec) for spec in conversation.tools]
        if conversation.tool_choice is not None:
            parts["tool_choice"] = conversation.tool_choice
        if conversation.response_format is not None:
            parts["response_format"] = conversation.response_format
        last = conversation.last
        if last is not None and last.is_tool_turn:
            # The prompt is the tool result's text; which call it answers is part of the
            # request too.
            turn = last.neutral(positions)
            turn.pop("text", None)
            parts["turn"] = turn
    return parts


def build_request(
    conversation: Conversation,
    *,
    model: Mapping[str, Any],
    tenant: str | None,
    call: Mapping[str, Any] | None = None,
    stop: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    verifiers: Sequence[Verifier] = (),
    call_verifiers: Sequence[Verifier] = (),
    bypass: str | None = None,
    pure_tools: Collection[str] = (),
    model_access: ModelAccess = "calls",
) -> CacheRequest:
    """The cache request of one call.

    ``model`` is the inner model's identity (``{"id": model_id}`` to share entries across
    frameworks); ``call`` holds the call's parameters (temperature, ...); ``bypass`` forces
    the request to the model with that reason (the conversation's own bypass rules apply
    otherwise). ``verifiers`` judge text answers (with tools bound, plain answers only);
    ``call_verifiers`` also judge tool-call documents (structured output's own checks).
    ``pure_tools`` names the bound tools the caller declared pure (see ``docs/agents.md``).
    ``model_access`` says which model calls the caller answers
    (:data:`~stepcache_integrations.core.protocol.ModelAccess`).

    Example:
        >>> request = build_request(
        ...     Conversation((Message("user", "Solve 3x + 5 = 20."),)),
        ...     model={"id": "gpt-4o-mini"}, tenant="acme")
        >>> request.prompt, request.tenant, request.bypass_reason
        ('Solve 3x + 5 = 20.', 'acme', None)
    """
    reason = bypass or bypass_reason(conversation)
    parts = namespace_parts(
        model,
        conversation.messages[:-1],
        conversation=conversation,
        stop=stop,
        call=call,
        options=options,
    )
    request_options = dict(options or {})
    checks = tuple(verifiers)
    # What came before the prompt (a system prompt, earlier turns) may change what the prompt
    # asks (a form for the answer, a condition on the values a re-instantiated call copies):
    # the families read it. Every turn counts, one with calls and no text too (""): the
    # tool-call family rebinds a value into a tool that is not pure only when nothing came
    # before the prompt.
    request_options[EARLIER_TURNS] = [message.text or "" for message in conversation.messages[:-1]]
    if conversation.tools:
        # The tool-call family reads the tools' schemas here; the caller's own verifiers
        # judge plain answers only (a tool-call document is no answer they know).
        request_options[TOOLS] = declare_pure(conversation.tools, frozenset(pure_tools))
        last = conversation.last
        if last is not None and last.role == "tool":
            request_options[AFTER_TOOL_RESULT] = True
        checks = tuple(plain_answers_only(verifier) for verifier in checks)
    checks += tuple(call_verifiers)
    return CacheRequest(
        prompt="" if reason else conversation.prompt_text,
        namespace=make_namespace(parts),  # the cache binds it to the tenant
        tenant=tenant,
        input_chars=conversation.input_chars,
        options=request_options,
        extra_verifiers=checks,
        bypass_reason=reason,
        model_access=model_access,
    )
