"""The messages between the request path and the code that calls the model.

The request path (:mod:`stepcache_integrations.core.engine`) is written without I/O: it is a
generator that *yields* what it needs (:class:`ModelCall`) or what is ready for the caller
(:class:`Emit`) and receives :class:`ModelReply` objects back. The same logic therefore serves
sync, async and streaming calls of every framework adapter; only the small drivers in
:mod:`stepcache_integrations.adapter.drive` and the adapters touch a model.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Literal

from stepcache_integrations.core.records import StepCacheRecord
from stepcache_integrations.core.verifiers.base import Verifier

__all__ = [
    "Action",
    "CacheRequest",
    "Emit",
    "ModelAccess",
    "ModelCall",
    "ModelReply",
    "ServeResult",
    "Turn",
]

ModelAccess = Literal["calls", "one_call", "answered"]
"""What the driver of a request can do with the model.

``"calls"`` (wrappers): it answers every :class:`ModelCall` the request path yields (patches,
partial answers, repairs). ``"one_call"`` (a framework's own cache, such as LangChain's
``BaseCache``, where the framework calls the model itself): it answers at most one call, the
full generation of the caller's conversation, and the caller gets that reply as it is. The
request path then never patches with the model, asks for a part or repairs, and changes
nothing of the model's reply: a reply that fails a check is flagged and not stored.
``"answered"``: like ``"one_call"``, and the model has answered already: there is no lookup,
the request path asks for the full generation at once (to check and store the reply).
"""


@dataclass(frozen=True)
class Turn:
    """One message the request path adds after the caller's conversation."""

    role: Literal["user", "assistant"]
    content: str


@dataclass(frozen=True)
class CacheRequest:
    """A request as the cache sees it.

    ``prompt`` is the text that is matched and verified (the last user turn); ``namespace``
    covers everything else that changes the meaning of an answer (see
    :func:`~stepcache_integrations.core.namespace.make_namespace`); ``tenant`` is whose
    request it is (the cache binds the namespace to it). ``input_chars`` is the size
    of the whole conversation, used to estimate tokens when the model reports none.
    ``bypass_reason`` set by an adapter sends the request straight to the model.
    ``model_access`` says which model calls the driver can answer (:data:`ModelAccess`).

    Example:
        >>> request = CacheRequest(prompt="Solve 2x = 4", namespace="ns", tenant="acme")
        >>> request.tenant, request.bypass_reason
        ('acme', None)
    """

    prompt: str
    namespace: str
    tenant: str | None = None
    input_chars: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    extra_verifiers: tuple[Verifier, ...] = ()
    bypass_reason: str | None = None
    model_access: ModelAccess = "calls"


@dataclass(frozen=True)
class ModelCall:
    """A call the driver must make to the inner model.

    ``purpose`` "full" means the caller's own conversation, unchanged; "patch", "partial" and
    "repair" append ``extra_turns`` to it. ``live`` means the driver may stream the reply's
    text to the caller as it arrives (no whole-answer check can reject it afterwards).
    ``response_schema``: a JSON Schema the whole reply must be an instance of, when a task
    knows one (a JSON object with the requested keys and values); an adapter may ask the
    model to constrain its output to it, where the user enabled that and the backend can.
    """

    purpose: Literal["full", "patch", "partial", "repair"]
    extra_turns: tuple[Turn, ...] = ()
    live: bool = False
    response_schema: dict[str, Any] | None = field(default=None, hash=False, compare=False)


@dataclass(frozen=True)
class ModelReply:
    """What the inner model answered; token counts are ``None`` when it reports none.

    ``alternatives``: the other answers the same call returned (a model asked for several
    choices); the reply is stored only if each of them passes the whole-answer checks too.
    ``keep``: JSON data the adapter wants back when this very reply is served again by the
    exact path (its own form of the reply, e.g. LangChain's generations); it is kept with the
    entry only when the stored answer is this reply's text, unmended.
    """

    text: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    raw: Any = None
    alternatives: tuple[str, ...] = ()
    keep: dict[str, Any] | None = field(default=None, hash=False, compare=False)


@dataclass(frozen=True)
class Emit:
    """Text that is final and can be shown to a streaming caller now."""

    text: str


Action = ModelCall | Emit


@dataclass
class ServeResult:
    """The answer, its record, and how it relates to what was emitted or generated.

    ``emitted`` is the prefix of ``text`` already shown through :class:`Emit` actions or live
    model calls. ``full_reply`` is the model's reply when ``text`` is exactly one unrepaired
    full generation (adapters then return the model's own message, with its metadata).
    ``kept`` is the ``keep`` data of the reply an exact hit serves (see :class:`ModelReply`).

    Example:
        >>> from stepcache_integrations import StepCache
        >>> from stepcache_integrations.adapter import drive
        >>> flow = StepCache().serve(CacheRequest(prompt="Say hi.", namespace="ns"))
        >>> result = drive(flow, lambda call: ModelReply("Hi.", 3, 2))
        >>> result.text, result.record.decision, result.passed
        ('Hi.', 'miss', True)
    """

    text: str
    record: StepCacheRecord
    emitted: str = ""
    full_reply: ModelReply | None = None
    kept: dict[str, Any] | None = None

    @property
    def passed(self) -> bool:
        return self.record.passed


ServeGenerator = Generator[Action, ModelReply | None, ServeResult]
