"""``StepCacheLangChainCache``: a :class:`StepCache` as LangChain's response cache.

LangChain asks its cache (``set_llm_cache(...)``, or a model's ``cache=``) before every model
call, and tells it the model's answer afterwards: ``lookup(prompt, llm_string)`` then, on a
miss, ``update(prompt, llm_string, generations)``. This cache runs the request path across the
two: ``lookup`` runs it up to its model call (an answer that needs none is served), the call
is held, and ``update`` answers it with the model's answer, which is checked and stored only
if it passes (see :class:`~stepcache_integrations.adapter.PendingCall`). The request path is
told its driver makes one call and returns the model's answer as it is
(``model_access="one_call"``): no patch, partial answer or repair is asked for.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from langchain_core.caches import RETURN_VAL_TYPE, BaseCache
from langchain_core.language_models import BaseChatModel
from langchain_core.load import loads
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, Generation
from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import var_child_runnable_config

from stepcache_integrations.adapter import (
    PendingCall,
    build_request,
    check_tenant,
    drive_to_call,
    pure_tool_names,
    read_reply,
    resolve_tenant,
)
from stepcache_integrations.core.audit import AuditAsk, AuditUnavailable
from stepcache_integrations.core.cache import StepCache, as_verifier
from stepcache_integrations.core.protocol import (
    CacheRequest,
    ModelAccess,
    ModelCall,
    ModelReply,
    ServeResult,
)
from stepcache_integrations.core.tasks.tool_call import TOOLS
from stepcache_integrations.langchain.audit_models import AuditModels
from stepcache_integrations.langchain.llm_string import ModelString, read_llm_string
from stepcache_integrations.langchain.request import (
    TENANT_METADATA_KEY,
    ai_message,
    stored_text,
    to_conversation,
)
from stepcache_integrations.langchain.runs import AUDIT_METADATA_KEY, AUDIT_RUN_NAME, AUDIT_TAG
from stepcache_integrations.langchain.streaming import usage_metadata

__all__ = ["RECORD_KEY", "StepCacheLangChainCache", "llm_cache_tenant"]

RECORD_KEY = "stepcache"
"""``response_metadata`` key of the record on the message of a chat generation served."""

# LangChain marks ``loads`` as beta and warns at each use. It is used here only to read the
# messages LangChain itself serialised: the warning would tell the application nothing.
warnings.filterwarnings(
    "ignore", message=r"The function `loads` is in beta", module=re.escape(__name__)
)

_TENANT: ContextVar[str | None] = ContextVar("stepcache_llm_cache_tenant", default=None)

# Set on the auditor's thread while an audit asks a model: that model's own cache lookup and
# update (this cache, when it is the global one) stand aside, so the model really answers.
_AUDITING: ContextVar[bool] = ContextVar("stepcache_llm_cache_auditing", default=False)

_UNREADABLE_TOOLS = (
    "the llm_string's call parameters cannot be read and may bind tools: their calls cannot "
    "be checked"
)
_UNREADABLE_MESSAGES = (
    "the prompt's messages cannot be read (only LangChain's own message classes are loaded)"
)


@contextmanager
def llm_cache_tenant(tenant: str) -> Iterator[None]:
    """The tenant of every LangChain cache lookup and update in this block (this thread or
    asyncio task only); it wins over the cache's ``tenant=``.

    A LangChain cache never sees a call's configuration, so ``config={"metadata":
    {"stepcache_tenant": ...}}`` cannot reach it: name the tenant here.

    Example:
        >>> with llm_cache_tenant("acme"):
        ...     pass  # model.invoke(...) here looks up and stores acme's entries only
    """
    checked = check_tenant(tenant, "llm_cache_tenant's tenant")
    if checked is None:
        raise ValueError("llm_cache_tenant needs a tenant (a non-empty string), got None")
    token = _TENANT.set(checked)
    try:
        yield
    finally:
        _TENANT.reset(token)


@dataclass(frozen=True)
class _Shape:
    """What a generation of one request looks like: a chat model's (with tools or not) or a
    completion model's."""

    chat: bool
    tools: bool


@dataclass(frozen=True)
class _Held:
    """A lookup whose request path waits for the model's answer."""

    key: tuple[int, str, str]
    pending: PendingCall
    shape: _Shape


# Lookups whose request path waits for the model's answer, in the context of the model call
# that made them (LangChain looks up and updates in the same frame). Replaced, never mutated:
# a copied context (a thread of a batch, an asyncio task) never sees another's calls.
_HELD: ContextVar[tuple[_Held, ...]] = ContextVar("stepcache_llm_cache_held", default=())
_MAX_HELD = 32  # lookups whose model call failed are dropped, oldest first


class StepCacheLangChainCache(BaseCache):
    """StepCache as LangChain's response cache: every model of the app, cached and verified.

    ``set_llm_cache(StepCacheLangChainCache(step_cache))`` caches every chat model and LLM of
    the application (those inside ``create_agent``, LangGraph nodes and chains built by other
    libraries); a model's ``cache=StepCacheLangChainCache(...)`` caches that model only.

    A cache is asked with the prompt and the model string only and cannot call the model, so
    it serves what needs no model call: identical and same requests, and changed requests
    whose every step the task families verify (a renamed variable, a re-instantiated word
    problem, a tool call whose copied arguments changed). A request whose answer needs a
    patch, a partial answer or a repair is a miss; :class:`~stepcache_integrations.
    StepCacheLLM` does those. The model's answer is stored only if it passes every check
    (a failing answer is recorded as such and never stored). Namespaces cover the whole
    ``llm_string`` (model, every parameter, tools, response format) and the tenant.

    Args:
        step_cache: the :class:`~stepcache_integrations.StepCache` to use (default: a new one).
            It may be shared with ``StepCacheLLM`` wrappers.
        tenant: the default tenant of the entries; ``with llm_cache_tenant(...)`` wins.
        verifiers: extra checks every answer must pass (output parsers, callables, Verifiers).
        json_schema: a JSON Schema dict or Pydantic model JSON answers must satisfy.
        pure_tools: names of bound tools (or the tools) declared *pure*, as on
            :class:`~stepcache_integrations.StepCacheLLM` (see ``docs/agents.md``): the model
            string carries the tools' schemas but not their metadata, so a tool's
            ``{"stepcache_pure": True}`` cannot reach a global cache: name them here.
        audit_models: the models this cache may ask again for an audit
            (``StepCache(audit=...)``): a cache is never given the model it answers for, so
            an audit asks the one of these whose LangChain cache key is the lookup's
            ``llm_string`` (through its public ``invoke``/``generate``, tagged
            ``stepcache:audit``). A hit of another model is not audited (``unaskable``).

    Chat generations served carry the record in ``message.response_metadata["stepcache"]``
    and the tokens really spent (0) in ``usage_metadata``; on a miss the record is added to
    the model's own message when :meth:`update` receives it. Every record also reaches the
    StepCache's listeners and metrics.

    Example:
        .. code-block:: python

            from langchain_core.globals import set_llm_cache
            from stepcache_integrations import StepCache, StepCacheLangChainCache

            set_llm_cache(StepCacheLangChainCache(StepCache(path="/var/cache/app")))
            agent = create_agent(model=ChatOpenAI(model="gpt-4o-mini"), tools=[...])
    """

    def __init__(
        self,
        step_cache: StepCache | None = None,
        *,
        tenant: str | None = None,
        verifiers: Sequence[object] = (),
        json_schema: Any = None,
        pure_tools: Sequence[Any] = (),
        audit_models: Sequence[Any] = (),
    ) -> None:
        if step_cache is not None and not isinstance(step_cache, StepCache):
            raise ValueError(f"step_cache must be a StepCache, got {type(step_cache).__name__}")
        self.step_cache = step_cache if step_cache is not None else StepCache()
        self.tenant = check_tenant(tenant)
        self.verifiers = tuple(as_verifier(v) for v in verifiers)
        self.json_schema = json_schema
        self.pure_tools = pure_tool_names(pure_tools)
        self.audit_models = AuditModels(audit_models)

    # -- the request of one call ---------------------------------------------------------------

    def _tenant(self) -> str | None:
        tenant, _ = resolve_tenant(_TENANT.get(), self.tenant, what="llm_cache_tenant")
        config = var_child_runnable_config.get() or {}
        named = (config.get("metadata") or {}).get(TENANT_METADATA_KEY)
        if named is not None and named != tenant:
            # The call's configuration is visible here only inside some runnables: it is never
            # the tenant's source, and a tenant it names must not be mistaken for another.
            raise ValueError(
                f"the call's config metadata names tenant {named!r}, but a LangChain cache "
                f"cannot read a call's configuration and would use tenant {tenant!r}: wrap the "
                f"call in `with llm_cache_tenant({named!r}):`"
            )
        return tenant

    def _request(
        self, prompt: str, llm_string: str, access: ModelAccess
    ) -> tuple[CacheRequest, _Shape]:
        if not isinstance(prompt, str):
            raise ValueError(f"prompt must be a string, got {type(prompt).__name__}")
        if not isinstance(llm_string, str):
            raise ValueError(f"llm_string must be a string, got {type(llm_string).__name__}")
        tenant = self._tenant()
        model = read_llm_string(llm_string)
        chat, messages = _read_prompt(prompt)
        reason = None
        if messages is None:
            reason, messages = _UNREADABLE_MESSAGES, []
        elif not model.readable and model.mentions_tools:
            reason = _UNREADABLE_TOOLS
        options = {"json_schema": self.json_schema} if self.json_schema is not None else {}
        request = build_request(
            to_conversation(messages, _call_kwargs(model)),
            # Every parameter, whatever its form: the whole model string names the model.
            model={"llm_string": llm_string},
            tenant=tenant,
            options=options,
            verifiers=self.verifiers,
            bypass=reason,
            model_access=access,
            pure_tools=self.pure_tools,
        )
        return request, _Shape(chat=chat, tools=bool(request.options.get(TOOLS)))

    # -- lookups: served when the request path needs no model call ------------------------------

    def lookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        """The generations of a request the cache answers without the model, else ``None``
        (the request path then waits for :meth:`update` with the model's answer)."""
        if _AUDITING.get():
            return None  # an audit asks the model itself: never answered from the cache
        request, shape = self._request(prompt, llm_string, "one_call")
        outcome = drive_to_call(
            self.step_cache.serve(request, audit=self._auditing(prompt, llm_string, shape))
        )
        if isinstance(outcome, PendingCall):
            _hold(_Held((id(self), prompt, llm_string), outcome, shape))
            return None
        if not outcome.passed:
            # The request path's own answer (a solver's) failed: the model is asked instead.
            return None
        return _generations(outcome, shape)

    async def alookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        """Async :meth:`lookup` (the request path does no I/O of its own but the store's)."""
        return self.lookup(prompt, llm_string)

    # -- updates: the model's answer, checked, and stored only if it passes ----------------------

    def update(self, prompt: str, llm_string: str, return_val: RETURN_VAL_TYPE) -> None:
        """Give the model's answer to the request of ``prompt``: it is checked like any answer
        and stored only if it passes (with several generations, each must pass).

        Without an earlier :meth:`lookup` of this call, the answer is checked and stored
        without a lookup (it replaces a stored answer to the same request)."""
        if _AUDITING.get():
            return  # an audit's answer is checked and stored by the audit itself
        generations = list(return_val)
        for generation in generations:
            if not isinstance(generation, Generation):
                raise ValueError(
                    f"return_val must hold Generation objects, got {type(generation).__name__}"
                )
        held = _take((id(self), prompt, llm_string))
        if held is None:
            request, shape = self._request(prompt, llm_string, "answered")
            outcome = drive_to_call(self.step_cache.serve(request))
            if not isinstance(outcome, PendingCall):
                return  # a request path that asks for no answer stores none
            held = _Held((id(self), prompt, llm_string), outcome, shape)
        if not generations:
            held.pending.cancel()
            return
        limit = self.step_cache.policy.max_answer_chars
        result = held.pending.answer(_reply(generations, held.shape, limit))
        for generation in generations:
            # LangChain returns these very objects to the caller: the record of a miss (and
            # whether its answer was stored) is on the model's own message, as on a hit.
            message = getattr(generation, "message", None)
            if isinstance(message, BaseMessage):
                message.response_metadata = {
                    **message.response_metadata,
                    RECORD_KEY: result.record.to_dict(),
                }

    async def aupdate(self, prompt: str, llm_string: str, return_val: RETURN_VAL_TYPE) -> None:
        """Async :meth:`update`."""
        self.update(prompt, llm_string, return_val)

    # -- audits ----------------------------------------------------------------------------------

    def _auditing(self, prompt: str, llm_string: str, shape: _Shape) -> AuditAsk | None:
        if not self.audit_models.models:
            return None

        def ask(call: ModelCall) -> ModelReply:
            return self._audit(prompt, llm_string, shape)

        return ask

    def _audit(self, prompt: str, llm_string: str, shape: _Shape) -> ModelReply:
        """The lookup's request asked of its model again (on the auditor's thread)."""
        matched = self.audit_models.match(llm_string)
        if matched is None:
            raise AuditUnavailable("no audit model has this lookup's llm_string")
        chat, messages = _read_prompt(prompt)
        config = RunnableConfig(
            run_name=AUDIT_RUN_NAME, tags=[AUDIT_TAG], metadata={AUDIT_METADATA_KEY: True}
        )
        token = _AUDITING.set(True)
        try:
            model = matched.model
            if isinstance(model, BaseChatModel):
                if not chat or messages is None:
                    raise AuditUnavailable("the lookup's prompt is not a chat model's messages")
                message = model.invoke(messages, config, stop=matched.stop, **matched.kwargs)
                generation: Generation = ChatGeneration(message=message)
            else:
                result = model.generate(
                    [prompt],
                    stop=matched.stop,
                    tags=config.get("tags"),
                    metadata=config.get("metadata"),
                    run_name=config.get("run_name"),
                )
                generation = result.generations[0][0]
        finally:
            _AUDITING.reset(token)
        limit = self.step_cache.policy.max_answer_chars
        return _reply([generation], shape, limit)

    # -- clearing --------------------------------------------------------------------------------

    def clear(self, **kwargs: Any) -> None:
        """Remove every entry of the StepCache (shared with wrappers: theirs too), or only one
        tenant's with ``clear(tenant="acme")`` (``tenant=None``: the entries stored without
        one)."""
        unknown = set(kwargs) - {"tenant"}
        if unknown:
            raise TypeError(f"clear() takes only tenant=, got {', '.join(sorted(unknown))}")
        if "tenant" in kwargs:
            self.step_cache.delete_tenant(kwargs["tenant"])
        else:
            self.step_cache.clear()

    async def aclear(self, **kwargs: Any) -> None:
        """Async :meth:`clear`."""
        self.clear(**kwargs)

    def __repr__(self) -> str:
        return f"StepCacheLangChainCache(step_cache={self.step_cache!r}, tenant={self.tenant!r})"


# -- held lookups -------------------------------------------------------------------------------


def _hold(held: _Held) -> None:
    waiting = (*_HELD.get(), held)
    if len(waiting) > _MAX_HELD:
        waiting[0].pending.cancel()
        waiting = waiting[1:]
    _HELD.set(waiting)


def _take(key: tuple[int, str, str]) -> _Held | None:
    waiting = _HELD.get()
    for index, held in enumerate(waiting):
        if held.key == key:  # the oldest first: a batch may look the same prompt up twice
            _HELD.set(waiting[:index] + waiting[index + 1 :])
            return held
    return None


# -- prompts and parameters ---------------------------------------------------------------------


def _read_prompt(prompt: str) -> tuple[bool, list[BaseMessage] | None]:
    """``(chat, messages)``: a chat model's prompt is its messages as LangChain serialises
    them (``None`` when they cannot be loaded); a completion model's is its text."""
    # LangChain's ``dumps`` of a message list: a JSON array of serialised objects.
    data = None
    if prompt.lstrip().startswith("["):
        try:
            data = json.loads(prompt)
        except ValueError:
            data = None
    serialized = isinstance(data, list) and all(
        isinstance(item, dict) and "lc" in item for item in data
    )
    if not serialized:
        return False, [HumanMessage(content=prompt)]
    try:
        messages = loads(prompt, allowed_objects="messages")
    except Exception:  # a class outside LangChain's messages, or a damaged serialisation
        return True, None
    if not isinstance(messages, list) or not all(isinstance(m, BaseMessage) for m in messages):
        return True, None
    return True, messages


def _call_kwargs(model: ModelString) -> dict[str, Any]:
    """The call parameters the request path reads (tools, tool choice, response format); a
    tools value that cannot be read is one unreadable tool (such a request bypasses)."""
    kwargs = dict(model.params)
    for name in ("tools", "functions"):
        value = kwargs.get(name)
        if value is not None and not isinstance(value, list | tuple):
            kwargs[name] = [value]
    return kwargs


# -- generations in and out ---------------------------------------------------------------------


def _text(generation: Generation, shape: _Shape) -> str:
    """The text the cache keeps for a generation (a tool-call document when it calls tools)."""
    message = getattr(generation, "message", None)
    if isinstance(message, BaseMessage):
        return stored_text(message) if shape.tools else message.text
    return generation.text


def _json_info(info: dict[str, Any] | None, limit: int) -> dict[str, Any] | None:
    """A generation's ``generation_info`` if it is JSON data of a sensible size."""
    if not info:
        return None
    try:
        encoded = json.dumps(info, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return info if len(encoded) <= limit and isinstance(json.loads(encoded), dict) else None


def _reply(generations: list[Generation], shape: _Shape, limit: int) -> ModelReply:
    texts = [_text(generation, shape) for generation in generations]
    message = getattr(generations[0], "message", None)
    usage = getattr(message, "usage_metadata", None) or {}
    infos = [_json_info(generation.generation_info, limit) for generation in generations]
    keep = None
    if len(texts) > 1 or any(info is not None for info in infos):
        keep = {"generation_info": infos, "alternatives": texts[1:]}
    return ModelReply(
        texts[0],
        usage.get("input_tokens"),
        usage.get("output_tokens"),
        raw=generations[0],
        alternatives=tuple(texts[1:]),
        keep=keep,
    )


def _kept(result: ServeResult) -> tuple[list[str], list[dict[str, Any] | None]]:
    """The texts and infos of the generations served: the answer, and on an exact hit of a
    stored reply the other generations and the infos it was stored with."""
    kept = result.kept
    texts: list[str] = [result.text]
    infos: list[dict[str, Any] | None] = [None]
    if not isinstance(kept, dict):
        return texts, infos
    stored_infos, alternatives = kept.get("generation_info"), kept.get("alternatives")
    if (
        isinstance(stored_infos, list)
        and isinstance(alternatives, list)
        and len(stored_infos) == len(alternatives) + 1
        and all(info is None or isinstance(info, dict) for info in stored_infos)
        and all(isinstance(text, str) for text in alternatives)
    ):
        return [result.text, *alternatives], list(stored_infos)
    return texts, infos  # unexpected data: the verified answer alone


def _generations(result: ServeResult, shape: _Shape) -> list[Generation]:
    generations: list[Generation] = []
    for text, info in zip(*_kept(result), strict=True):
        if not shape.chat:
            generations.append(Generation(text=text, generation_info=info))
            continue
        fields: dict[str, Any] = {
            "response_metadata": {RECORD_KEY: result.record.to_dict()},
            "usage_metadata": usage_metadata(result.record),
        }
        message = (
            ai_message(read_reply(text), **fields)
            if shape.tools
            else AIMessage(content=text, **fields)
        )
        generations.append(ChatGeneration(message=message, generation_info=info))
    return generations
