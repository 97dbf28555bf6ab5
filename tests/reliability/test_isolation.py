"""Isolation: tenants never share an entry, whatever the similarity; namespaces separate model,
parameters, system prompt, tools and response format."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from stepcache_integrations import StepCacheLLM
from stepcache_integrations.core.cache import StepCache, tenant_namespace
from tests.conftest import ScriptedChatModel, solve_steps
from tests.reliability.support import ask, eq


class HostileIndex:
    """A vector store that ignores namespaces and claims every entry is a perfect match."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def add(self, entry_id: str, text: str, namespace: str) -> None:
        self.ids.append(entry_id)

    def search(self, text: str, namespace: str, k: int = 1) -> list[tuple[str, float]]:
        return [(entry_id, 1.0) for entry_id in self.ids[:k]]

    def remove(self, entry_ids: Sequence[str]) -> None:
        self.ids = [i for i in self.ids if i not in set(entry_ids)]

    def clear(self) -> None:
        self.ids.clear()


def test_another_tenant_never_reuses_an_entry_even_from_a_hostile_index() -> None:
    cache = StepCache(index=HostileIndex(), similarity_threshold=-1.0)
    assert ask(cache, eq(0), tenant="acme").record.stored
    acme_ids = {e.id for e in cache.store}
    control = ask(cache, eq(0, "y"), tenant="acme")
    assert control.record.decision in ("reuse", "patch")  # the index does hand it out
    acme_ids |= {e.id for e in cache.store}
    first = ask(cache, eq(0), tenant="globex")
    assert first.record.decision == "miss" and first.record.entry_id is None
    for prompt in (eq(0, "y"), eq(0, "z"), eq(1)):
        # The hostile index offers acme's entries first: every one is refused; globex may
        # only reuse what globex stored.
        other = ask(cache, prompt, tenant="globex")
        assert other.record.entry_id not in acme_ids
    anonymous = ask(cache, eq(0, "q"), tenant=None)
    assert anonymous.record.entry_id not in acme_ids


@pytest.mark.parametrize("persistent", [False, True])
def test_tenants_with_the_same_raw_namespace_never_share(tmp_path: Path, persistent: bool) -> None:
    cache = StepCache(path=tmp_path) if persistent else StepCache()
    shared = "one-namespace-for-everybody"
    ask(cache, eq(5), namespace=shared, tenant="acme")
    assert ask(cache, eq(5), namespace=shared, tenant="acme").record.decision == "exact"
    assert ask(cache, eq(5), namespace=shared, tenant="globex").record.decision == "miss"
    assert ask(cache, eq(5), namespace=shared, tenant=None).record.decision == "miss"
    assert ask(cache, eq(5, "t"), namespace=shared, tenant="evil").record.decision == "miss"
    assert {e.tenant for e in cache.store} == {"acme", "globex", None, "evil"}
    cache.close()


tenants = st.one_of(st.none(), st.text(max_size=12))
namespaces = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda t, h: f"{t}:{h}", st.text(max_size=8), st.from_regex(r"[0-9a-f]{24}", fullmatch=True)
    ),
)


@settings(derandomize=True, max_examples=3000, deadline=None)
@given(namespaces, tenants, namespaces, tenants)
def test_two_tenants_never_get_the_same_namespace(
    ns_a: str, tenant_a: str | None, ns_b: str, tenant_b: str | None
) -> None:
    if tenant_a != tenant_b:
        assert tenant_namespace(ns_a, tenant_a) != tenant_namespace(ns_b, tenant_b)
    assert tenant_namespace(tenant_namespace(ns_a, tenant_a), tenant_a) == tenant_namespace(
        ns_a, tenant_a
    )


# -- namespaces through the LangChain wrapper ------------------------------------------------------


def responder(messages: list[BaseMessage]) -> str:
    prompt = next(
        str(m.content) for m in messages if isinstance(m, HumanMessage) and "Solve" in m.content
    )
    return solve_steps(prompt)


def decision(message: Any) -> str:
    return str(message.response_metadata["stepcache"]["decision"])


def test_tenants_through_the_wrapper_never_share() -> None:
    cache = StepCache(similarity_threshold=-1.0)
    llm = StepCacheLLM(llm=ScriptedChatModel(responder=responder), step_cache=cache, tenant="acme")
    llm.invoke(eq(0))
    assert decision(llm.invoke(eq(0))) == "exact"
    acme_ids = {e.id for e in cache.store}
    for prompt in (eq(0), eq(0, "y")):
        other = llm.invoke(prompt, config={"metadata": {"stepcache_tenant": "globex"}})
        assert other.response_metadata["stepcache"]["entry_id"] not in acme_ids
    assert decision(llm.invoke(eq(1), config={"metadata": {"stepcache_tenant": "x"}})) == "miss"


CHANGES: dict[str, Any] = {
    "model": lambda base: (
        StepCacheLLM(
            llm=ScriptedChatModel(responder=responder, model_name="scripted-2"),
            step_cache=base.step_cache,
        ),
        {},
        [],
    ),
    "parameters": lambda base: (
        StepCacheLLM(
            llm=ScriptedChatModel(responder=responder, temperature=0.7), step_cache=base.step_cache
        ),
        {},
        [],
    ),
    "call parameters": lambda base: (base, {"max_tokens": 50}, []),
    "system prompt": lambda base: (base, {}, [SystemMessage(content="Answer in French.")]),
    "tools": lambda base: (
        base,
        {"tools": [{"type": "function", "function": {"name": "calc"}}]},
        [],
    ),
    "tool choice": lambda base: (base, {"tool_choice": "auto"}, []),
    "response format": lambda base: (base, {"response_format": {"type": "json_object"}}, []),
    "json schema": lambda base: (
        StepCacheLLM(
            llm=base.llm,
            step_cache=base.step_cache,
            json_schema={"type": "object", "required": ["x"]},
        ),
        {},
        [],
    ),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_of_namespace_part_prevents_reuse(change: str) -> None:
    # similarity_threshold=-1: any cached request in the namespace would be a candidate, so
    # only the namespace can keep the changed request from reusing the stored answer.
    cache = StepCache(similarity_threshold=-1.0)
    base = StepCacheLLM(llm=ScriptedChatModel(responder=responder), step_cache=cache)
    base.invoke(eq(0))
    assert decision(base.invoke(eq(0))) == "exact"  # control: unchanged, reused
    assert decision(base.invoke(eq(0, "y"))) != "miss"  # control: a near request is a candidate
    base_ids = {e.id for e in cache.store}
    base_namespace = base.invoke(eq(0)).response_metadata["stepcache"]["namespace"]
    llm, kwargs, history = CHANGES[change](base)
    stored_before = len(cache)
    for n, prompt in enumerate((eq(0), eq(0, "y"), eq(0, "z"))):
        result = llm.invoke([*history, HumanMessage(content=prompt)], **kwargs)
        record = result.response_metadata["stepcache"]
        if n == 0:  # the very request that was cached: not even the exact path matches
            assert record["decision"] in ("miss", "bypass"), (change, record)
        assert record["entry_id"] not in base_ids, (change, record)
        assert record["namespace"] != base_namespace
    # What the changed requests stored lives in their own namespace, never in the base one.
    added = [entry for entry in cache.store if entry.id not in base_ids]
    assert len(cache) == stored_before + len(added)
    assert all(entry.namespace != base_namespace for entry in added)
