"""Where a wrapper call's callbacks go: the inner model's runs nest under the wrapper's run.

LangChain gives ``_generate`` the wrapper's run manager, but calls ``_stream``/``_astream``
without it; :class:`RunContext` is what the wrapper needs on every path (the call's tenant,
the child callbacks for the inner model, where the decision event goes), built either from
the run manager or from the configuration ``stream``/``astream`` received.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from langchain_core.callbacks import (
    AsyncCallbackManager,
    AsyncCallbackManagerForLLMRun,
    BaseCallbackManager,
    CallbackManager,
    CallbackManagerForLLMRun,
)
from langchain_core.runnables import RunnableConfig

from stepcache_integrations.adapter import TENANT_UNKNOWN
from stepcache_integrations.langchain.request import TENANT_METADATA_KEY

__all__ = [
    "AUDIT_METADATA_KEY",
    "AUDIT_RUN_NAME",
    "AUDIT_TAG",
    "INNER_RUN_TAG",
    "RunContext",
    "configured_manager",
]

INNER_RUN_TAG = "nostream"
"""Tag of the inner model's runs: LangGraph's message streaming (``stream_mode="messages"``)
skips runs with this tag, so a graph streams the wrapper's tokens once, not the inner
model's a second time (the wrapper's stream already carries them)."""


AUDIT_RUN_NAME = "stepcache_audit"
"""The run name of an audit's call of the inner model (``StepCache(audit=...)``)."""
AUDIT_TAG = "stepcache:audit"
"""The tag of an audit's runs: a tracer or callback tells them from the application's calls."""
AUDIT_METADATA_KEY = "stepcache_audit"
"""Metadata key of an audit's runs (``True``)."""


def _child(
    source: BaseCallbackManager | CallbackManagerForLLMRun | AsyncCallbackManagerForLLMRun,
    run_id: UUID,
) -> CallbackManager:
    """Callbacks for a run nested under ``run_id``: the inheritable handlers, tags and
    metadata of ``source`` (what LangChain's own ``get_child`` passes on)."""
    manager = CallbackManager(handlers=[], parent_run_id=run_id)
    manager.set_handlers(list(source.inheritable_handlers))
    manager.add_tags(list(source.inheritable_tags))
    manager.add_metadata(dict(source.inheritable_metadata))
    manager.add_tags([INNER_RUN_TAG], inherit=False)
    return manager


def configured_manager(config: RunnableConfig, *, asynchronous: bool) -> BaseCallbackManager:
    """The callback manager a call's configuration describes, built once.

    ``stream``/``astream`` pass it on as the call's ``callbacks``: LangChain's own run then
    uses the very same handler objects (a tracer is created once, not twice), so the inner
    model's runs can be nested under the wrapper's run in every handler.
    """
    cls = AsyncCallbackManager if asynchronous else CallbackManager
    return cls.configure(
        inheritable_callbacks=config.get("callbacks"),
        inheritable_tags=config.get("tags"),
        inheritable_metadata=config.get("metadata"),
    )


@dataclass(frozen=True)
class RunContext:
    """What one wrapper call needs from LangChain's callback system."""

    tenant: Any
    """The call's own tenant: a string, ``None`` (not given) or ``TENANT_UNKNOWN``."""
    child: CallbackManager | None
    """Callbacks for the inner model's runs (nested under the wrapper's run)."""
    events: BaseCallbackManager | None
    """Where the decision event goes (the wrapper run's handlers)."""
    run_id: UUID | None

    @classmethod
    def unknown(cls) -> RunContext:
        """A path where the call's configuration cannot be read."""
        return cls(TENANT_UNKNOWN, None, None, None)

    @classmethod
    def of_run(cls, run: CallbackManagerForLLMRun | AsyncCallbackManagerForLLMRun) -> RunContext:
        """The context of a call LangChain gave its run manager."""
        asynchronous = isinstance(run, AsyncCallbackManagerForLLMRun)
        manager_cls = AsyncCallbackManager if asynchronous else CallbackManager
        events = manager_cls(
            handlers=list(run.handlers),
            inheritable_handlers=list(run.inheritable_handlers),
            parent_run_id=run.parent_run_id,
            tags=list(run.tags),
            inheritable_tags=list(run.inheritable_tags),
            metadata=dict(run.metadata),
            inheritable_metadata=dict(run.inheritable_metadata),
        )
        return cls(_tenant_of(run.metadata), _child(run, run.run_id), events, run.run_id)

    @classmethod
    def of_stream(
        cls, manager: BaseCallbackManager, metadata: Mapping[str, Any] | None, run_id: UUID
    ) -> RunContext:
        """The context of a ``stream``/``astream`` call (its run will have ``run_id``)."""
        return cls(_tenant_of(metadata or {}), _child(manager, run_id), manager, run_id)

    def config(self) -> RunnableConfig:
        """The configuration for one call of the inner model."""
        return RunnableConfig(callbacks=self.child) if self.child is not None else RunnableConfig()

    def audit_config(self) -> RunnableConfig:
        """The configuration of an audit's call of the inner model: nested under the wrapper
        call's run (made later, on the auditor's thread), named and tagged as an audit."""
        config = RunnableConfig(
            run_name=AUDIT_RUN_NAME, tags=[AUDIT_TAG], metadata={AUDIT_METADATA_KEY: True}
        )
        if self.child is not None:
            config["callbacks"] = self.child
        return config


def _tenant_of(metadata: Mapping[str, Any]) -> Any:
    return metadata.get(TENANT_METADATA_KEY)
