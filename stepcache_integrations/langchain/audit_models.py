"""The models a LangChain cache audits with: ``StepCacheLangChainCache(audit_models=[...])``.

A ``BaseCache`` is asked with a prompt and an ``llm_string`` only, never the model, so it
cannot re-ask a model by itself. Given the application's models, an audit finds the one whose
``llm_string`` (with the call's parameters read back from it) is the lookup's, exactly as
LangChain computes it for its cache key, and asks it through its public ``invoke`` /
``generate``. A lookup no given model matches is not audited (counted as ``unaskable``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.language_models import BaseChatModel, BaseLLM

from stepcache_integrations.langchain.llm_string import Unreadable, read_llm_string

__all__ = ["AuditModels", "MatchedModel"]


@dataclass(frozen=True)
class MatchedModel:
    """A model an audit asks, and the call parameters of the audited call."""

    model: BaseChatModel | BaseLLM
    stop: list[str] | None
    kwargs: dict[str, Any]


class AuditModels:
    """The models an audit of a LangChain cache may ask.

    Example:
        >>> AuditModels([]).match("[('_type', 'x'), ('stop', None)]") is None
        True
    """

    def __init__(self, models: Sequence[Any]) -> None:
        for model in models:
            if not isinstance(model, BaseChatModel | BaseLLM):
                raise ValueError(
                    "audit_models must be LangChain chat models or LLMs, got "
                    f"{type(model).__name__}"
                )
        self.models = tuple(models)

    def match(self, llm_string: str) -> MatchedModel | None:
        """The model (and call parameters) whose cache key ``llm_string`` is, or ``None``."""
        read = read_llm_string(llm_string)
        params = read.params
        if not read.readable or any(isinstance(v, Unreadable) for v in params.values()):
            return None
        stop = params.get("stop")
        if stop is not None and not isinstance(stop, list):
            return None
        for model in self.models:
            found = _matches(model, llm_string, params, stop, read.model is not None)
            if found is not None:
                return found
        return None


def _matches(
    model: BaseChatModel | BaseLLM,
    llm_string: str,
    params: dict[str, Any],
    stop: list[str] | None,
    serialized: bool,
) -> MatchedModel | None:
    # LangChain's own cache key of this model with these parameters (the key a BaseCache is
    # given): a model whose key is the lookup's is the model that was called.
    if isinstance(model, BaseLLM):
        own = {**model.dict(), "stop": stop}
        return MatchedModel(model, stop, {}) if str(sorted(own.items())) == llm_string else None
    if serialized:
        kwargs = {k: v for k, v in params.items() if k != "stop"}
    else:
        # The model's own parameters are in the key as it has them: the call's keywords are
        # what is left (a call that overrode one of the model's own is not matched).
        invocation = model._get_invocation_params(stop=stop)
        kwargs = {k: v for k, v in params.items() if k != "stop" and k not in invocation}
    try:
        key = model._get_llm_string(stop=stop, **kwargs)
    except Exception:  # a model that cannot compute its key with these parameters
        return None
    return MatchedModel(model, stop, kwargs) if key == llm_string else None
