"""What the ``stepcache cache`` tests share: a cache filled through ``StepCacheLLM`` with the
scripted model, the command run for real (``app.main``), and a cache location of each kind."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.cli import app
from tests.conftest import ScriptedChatModel, eq, last_user_text, respond

TENANTS: tuple[str | None, ...] = ("acme", "globex", None)
CONSTANTS = (20, 23)


def scripted() -> ScriptedChatModel:
    return ScriptedChatModel(responder=lambda messages: respond(last_user_text(messages)))


def serve(
    cache: StepCache,
    model: ScriptedChatModel,
    tenants: Sequence[str | None] = TENANTS,
    constants: Sequence[int] = CONSTANTS,
) -> None:
    """One request per tenant and constant, through the LangChain wrapper."""
    for tenant in tenants:
        llm = StepCacheLLM(llm=model, step_cache=cache, tenant=tenant)
        for c in constants:
            llm.invoke(eq(c=c))


@dataclass
class Location:
    """A cache location: the command-line arguments that name it, and how to open it."""

    kind: str
    args: list[str]
    opener: Callable[[], StepCache]
    decisions: list[str] = field(default_factory=list)  # of every request served so far

    def open(self) -> StepCache:
        cache = self.opener()
        cache.add_listener(lambda record: self.decisions.append(record.decision))
        return cache

    def fill(self, tenants: Sequence[str | None] = TENANTS) -> None:
        """Store one entry per tenant and constant."""
        with self.open() as cache:
            before = len(cache)
            serve(cache, scripted(), tenants)
            assert len(cache) == before + len(tenants) * len(CONSTANTS)

    def cells(self) -> dict[tuple[str, str | None], int]:
        """Entries per (namespace, tenant), as the cache itself reports them."""
        with self.open() as cache:
            rows = cache.stats()["store"]["by_namespace_and_tenant"]
        return {(row["namespace"], row["tenant"]): row["entries"] for row in rows}

    def per_tenant(self) -> dict[str | None, int]:
        totals: dict[str | None, int] = {}
        for (_namespace, tenant), count in self.cells().items():
            totals[tenant] = totals.get(tenant, 0) + count
        return totals

    def model_calls(self, tenant: str | None) -> int:
        """Model calls made to serve a tenant's requests again (0: all served by the cache)."""
        model = scripted()
        with self.open() as cache:
            serve(cache, model, [tenant])
        return len(model.calls)


@dataclass
class Done:
    code: int
    out: str
    err: str

    def json(self) -> Any:
        return json.loads(self.out)

    def error_line(self) -> str:
        """The one line on stderr of a failed command (nothing on stdout, no traceback)."""
        assert self.code == 2, (self.code, self.out, self.err)
        lines = self.err.strip().splitlines()
        assert len(lines) == 1, self.err
        assert "Traceback" not in self.err and self.out == ""
        return lines[0]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Done:
    """``stepcache ARGV`` in this process; its exit code and output."""
    capsys.readouterr()
    code = app.main(list(argv))
    captured = capsys.readouterr()
    return Done(code, captured.out, captured.err)
