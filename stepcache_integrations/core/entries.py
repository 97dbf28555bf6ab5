"""Cache entries: one verified answer as ordered steps, and its stored (JSON) form."""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from stepcache_integrations.core.frozen import evolve
from stepcache_integrations.core.steps import Step, join_steps
from stepcache_integrations.core.text import REQUEST_FORM_VERSION, request_form

__all__ = [
    "ENTRY_FORMAT_VERSION",
    "CacheEntry",
    "EntryDecodeError",
    "entry_id_for",
    "prompt_key",
]

ENTRY_FORMAT_VERSION = 1


class EntryDecodeError(ValueError):
    """A stored entry could not be decoded (corrupt, truncated or foreign data)."""


def prompt_key(namespace: str, prompt: str) -> str:
    """The exact-path key: namespace plus the prompt in comparison form, hashed. Two prompts
    share a key exactly when they are the same request by their texts (meaning-neutral edits
    alone: layout, case where it is certain not to matter, politeness; never indentation or
    code, never a changed word), so the key finds a cached answer for every wording of the
    same request (the request path then consults the answer: see ``same_request``).

    The version of the comparison form's rules is part of the key
    (:data:`~stepcache_integrations.core.text.REQUEST_FORM_VERSION`): entries stored under
    older rules (0.5.0 and before) are still found by their exact text and by similarity,
    never by a key that the older rules made for another meaning.

    Example:
        >>> prompt_key("ns", "Is a Jaguar fast?") == prompt_key("ns", "Is a jaguar fast?")
        False
        >>> prompt_key("ns", "List the planets, please.") == prompt_key("ns", "List the planets")
        True
    """
    form = request_form(prompt)
    payload = f"form-{REQUEST_FORM_VERSION}\x00{namespace}\x00{form}"
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class CacheEntry:
    """One verified answer, stored as ordered steps.

    ``kept`` is JSON data an adapter asked to keep with an answer that is exactly one model
    reply (see :class:`~stepcache_integrations.core.protocol.ModelReply`), given back when the
    exact path serves it; ``None`` for every other answer. ``made_by`` names the kind of reuse
    an answer made from another cached answer was made by (``"linear_equation/value"``), so
    an exact hit of it is audited, and suspended, as that kind; ``None`` for a model's answer.

    Example:
        >>> e = CacheEntry.create("ns", None, "Solve 2x = 4", [Step("x = 2")], "paragraph")
        >>> e.answer
        'x = 2'
    """

    id: str
    namespace: str
    tenant: str | None
    prompt: str
    key: str
    steps: tuple[Step, ...]
    segmenter: str
    task: str | None = None
    tokens_input: int = 0
    tokens_output: int = 0
    created_at: float = field(default_factory=time.time)
    last_used_at: float = field(default_factory=time.time)
    kept: dict[str, Any] | None = field(default=None, compare=False)
    made_by: str | None = field(default=None, compare=False)

    @classmethod
    def create(
        cls,
        namespace: str,
        tenant: str | None,
        prompt: str,
        steps: Sequence[Step],
        segmenter: str,
        *,
        task: str | None = None,
        tokens_input: int = 0,
        tokens_output: int = 0,
        kept: dict[str, Any] | None = None,
        made_by: str | None = None,
    ) -> CacheEntry:
        key = prompt_key(namespace, prompt)
        # The id is the exact key: storing the same prompt again replaces the older answer.
        return cls(
            id=_id_of(key),
            namespace=namespace,
            tenant=tenant,
            prompt=prompt,
            key=key,
            steps=tuple(steps),
            segmenter=segmenter,
            task=task,
            tokens_input=tokens_input,
            tokens_output=tokens_output,
            kept=kept,
            made_by=made_by,
        )

    @property
    def answer(self) -> str:
        return join_steps(self.steps)

    def touched(self, now: float) -> CacheEntry:
        return evolve(self, last_used_at=now)  # once per hit: dataclasses.replace is slow

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable form (the stored format, versioned; ``kept`` and
        ``made_by`` only when there is one, so entries without them read the same in every
        version, and older versions read newer entries: they ignore fields they do not know)."""
        data: dict[str, Any] = {
            "format": ENTRY_FORMAT_VERSION,
            "id": self.id,
            "namespace": self.namespace,
            "tenant": self.tenant,
            "prompt": self.prompt,
            "key": self.key,
            "steps": [step.to_json() for step in self.steps],
            "segmenter": self.segmenter,
            "task": self.task,
            "tokens_input": self.tokens_input,
            "tokens_output": self.tokens_output,
            "created_at": self.created_at,
            "last_used_at": self.last_used_at,
        }
        if self.kept is not None:
            data["kept"] = self.kept
        if self.made_by is not None:
            data["made_by"] = self.made_by
        return data

    @classmethod
    def from_dict(cls, data: object) -> CacheEntry:
        """Decode a stored entry; anything malformed raises :class:`EntryDecodeError`."""
        if not isinstance(data, dict):
            raise EntryDecodeError(f"an entry must be a JSON object, got {type(data).__name__}")
        version = data.get("format")
        if version != ENTRY_FORMAT_VERSION:
            raise EntryDecodeError(
                f"entry format {version!r} is not supported (this version reads "
                f"format {ENTRY_FORMAT_VERSION})"
            )
        try:
            steps_raw = data["steps"]
            if not isinstance(steps_raw, list):
                raise EntryDecodeError("'steps' must be a list")
            steps = []
            for item in steps_raw:
                if (
                    not isinstance(item, list)
                    or len(item) != 2
                    or not all(isinstance(part, str) for part in item)
                ):
                    raise EntryDecodeError("each step must be [text, separator]")
                steps.append(Step(item[0], item[1]))
            strings = {
                name: data[name] for name in ("id", "namespace", "prompt", "key", "segmenter")
            }
            for name, value in strings.items():
                if not isinstance(value, str):
                    raise EntryDecodeError(f"'{name}' must be a string")
            tenant, task = data.get("tenant"), data.get("task")
            if tenant is not None and not isinstance(tenant, str):
                raise EntryDecodeError("'tenant' must be a string or null")
            if task is not None and not isinstance(task, str):
                raise EntryDecodeError("'task' must be a string or null")
            numbers = {
                name: data.get(name, 0)
                for name in ("tokens_input", "tokens_output", "created_at", "last_used_at")
            }
            for name, value in numbers.items():
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise EntryDecodeError(f"'{name}' must be a number")
                # NaN would make an entry never expire; inf cannot become a token count.
                if not math.isfinite(value):
                    raise EntryDecodeError(f"'{name}' must be finite, got {value!r}")
            kept = data.get("kept")
            if kept is not None and not isinstance(kept, dict):
                raise EntryDecodeError("'kept' must be a JSON object or absent")
            made_by = data.get("made_by")
            if made_by is not None and not isinstance(made_by, str):
                raise EntryDecodeError("'made_by' must be a string or absent")
        except KeyError as missing:
            raise EntryDecodeError(f"entry is missing the field {missing}") from None
        return cls(
            id=strings["id"],
            namespace=strings["namespace"],
            tenant=tenant,
            prompt=strings["prompt"],
            key=strings["key"],
            steps=tuple(steps),
            segmenter=strings["segmenter"],
            task=task,
            tokens_input=int(numbers["tokens_input"]),
            tokens_output=int(numbers["tokens_output"]),
            created_at=float(numbers["created_at"]),
            last_used_at=float(numbers["last_used_at"]),
            kept=kept,
            made_by=made_by,
        )


def _id_of(key: str) -> str:
    return key[:32]


def entry_id_for(namespace: str, prompt: str) -> str:
    """The id of the entry stored for ``prompt`` in ``namespace`` (every wording of the same
    request shares it: it is made from :func:`prompt_key`).

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> entry = CacheEntry.create("ns", None, "Solve 2x = 4", [Step("x = 2")], "paragraph")
        >>> entry_id_for("ns", "Solve 2x = 4") == entry.id
        True
    """
    return _id_of(prompt_key(namespace, prompt))
