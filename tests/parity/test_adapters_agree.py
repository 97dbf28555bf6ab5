"""One set of scenarios through both framework adapters: they must behave the same.

Each scenario runs against a LangChain and a LlamaIndex wrapper around scripted models that
answer alike; decisions, texts, tenants and usage must agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from llama_index.core.base.llms.types import ChatMessage, TextBlock
from llama_index.core.vector_stores import SimpleVectorStore

from stepcache_integrations import Policy, StepCache
from stepcache_integrations import StepCacheLLM as LangChainWrapper
from stepcache_integrations.langchain import FAISSVectorStore, StructuralEmbeddings
from stepcache_integrations.langchain import VectorStoreIndex as LangChainIndex
from stepcache_integrations.llama_index import LlamaIndexVectorIndex
from stepcache_integrations.llama_index import StepCacheLLM as LlamaWrapper
from tests.conftest import ScriptedChatModel, ScriptedLLM, StructuralEmbedding, eq, solve_steps

Record = dict[str, Any]


@dataclass
class Answer:
    text: str
    record: Record


class Adapter(Protocol):
    name: str

    def ask(self, prompt: str, tenant: str | None = None, system: str | None = None) -> Answer: ...

    def stream(self, prompt: str) -> tuple[list[str], Answer]: ...

    async def aask(self, prompt: str) -> Answer: ...

    def model_calls(self) -> int: ...


def solve_last(prompt: str) -> str:
    return solve_steps(prompt)


class LangChainAdapter:
    name = "langchain"

    def __init__(self, cache: StepCache, responder: Callable[[str], str]) -> None:
        def answer(messages: list[BaseMessage]) -> str:
            return responder(
                str(messages[-1].content)
                if len(messages) == 1
                else "\n".join(str(m.content) for m in messages)
            )

        self.model = ScriptedChatModel(responder=answer)
        self.llm = LangChainWrapper(llm=self.model, step_cache=cache)

    def _messages(self, prompt: str, system: str | None) -> list[BaseMessage]:
        return [*([SystemMessage(system)] if system else []), HumanMessage(prompt)]

    def ask(self, prompt: str, tenant: str | None = None, system: str | None = None) -> Answer:
        config = {"metadata": {"stepcache_tenant": tenant}} if tenant else None
        message = self.llm.invoke(self._messages(prompt, system), config=config)
        return Answer(str(message.content), message.response_metadata["stepcache"])

    def stream(self, prompt: str) -> tuple[list[str], Answer]:
        chunks = list(self.llm.stream(prompt))
        total = chunks[0]
        for chunk in chunks[1:]:
            total = total + chunk
        pieces = [str(c.content) for c in chunks if c.content]
        return pieces, Answer(str(total.content), total.response_metadata["stepcache"])

    async def aask(self, prompt: str) -> Answer:
        message = await self.llm.ainvoke(prompt)
        return Answer(str(message.content), message.response_metadata["stepcache"])

    def model_calls(self) -> int:
        return len(self.model.calls)


class LlamaIndexAdapter:
    name = "llama_index"

    def __init__(self, cache: StepCache, responder: Callable[[str], str]) -> None:
        def answer(prompt: str) -> str:
            # The scripted LlamaIndex model sees "user: ...\nassistant: " prompts.
            lines = [line.split(": ", 1)[-1] for line in prompt.splitlines() if ": " in line]
            return responder(lines[-1] if len(lines) == 1 else "\n".join(lines))

        self.model = ScriptedLLM(chat_model=True, responder=answer)
        self.llm = LlamaWrapper(llm=self.model, step_cache=cache)

    def _messages(self, prompt: str, system: str | None) -> list[ChatMessage]:
        messages = [ChatMessage(role="user", content=prompt)]
        return [ChatMessage(role="system", content=system), *messages] if system else messages

    def ask(self, prompt: str, tenant: str | None = None, system: str | None = None) -> Answer:
        kwargs = {"stepcache_tenant": tenant} if tenant else {}
        response = self.llm.chat(self._messages(prompt, system), **kwargs)
        return Answer(str(response.message.content), response.additional_kwargs["stepcache"])

    def stream(self, prompt: str) -> tuple[list[str], Answer]:
        chunks = list(self.llm.stream_chat(self._messages(prompt, None)))
        pieces = [c.delta for c in chunks if c.delta]
        last = chunks[-1]
        return pieces, Answer(str(last.message.content), last.additional_kwargs["stepcache"])

    async def aask(self, prompt: str) -> Answer:
        response = await self.llm.achat(self._messages(prompt, None))
        return Answer(str(response.message.content), response.additional_kwargs["stepcache"])

    def model_calls(self) -> int:
        return len(self.model.calls)


ADAPTERS: dict[str, Callable[[StepCache, Callable[[str], str]], Adapter]] = {
    "langchain": LangChainAdapter,
    "llama_index": LlamaIndexAdapter,
}


@pytest.fixture(params=sorted(ADAPTERS))
def make(request: pytest.FixtureRequest) -> Callable[..., Adapter]:
    factory = ADAPTERS[request.param]

    def build(
        cache: StepCache | None = None, responder: Callable[[str], str] = solve_last
    ) -> Adapter:
        return factory(cache if cache is not None else StepCache(), responder)

    return build


def run_both(scenario: Callable[[Adapter], Any]) -> dict[str, Any]:
    return {name: scenario(factory(StepCache(), solve_last)) for name, factory in ADAPTERS.items()}


# -- decisions ----------------------------------------------------------------------------------


def test_miss_exact_reuse_patch(make: Callable[..., Adapter]) -> None:
    adapter = make()
    assert adapter.ask(eq()).record["decision"] == "miss"
    assert adapter.ask(eq()).record["decision"] == "exact"
    reused = adapter.ask(eq("y"))
    assert reused.record["decision"] == "reuse" and "y = 5" in reused.text
    # Every step re-instantiated for another constant: a reuse. A right side that changes
    # sign (-1 where 20 stood) is not re-instantiated: the solver writes the steps (a patch).
    changed = adapter.ask(eq(b=8))
    assert changed.record["decision"] == "reuse" and "x = 4" in changed.text
    patched = adapter.ask(eq(c=-1))
    assert patched.record["decision"] == "patch" and "x = -2" in patched.text
    assert adapter.model_calls() == 1  # the patch was solved, not generated


def test_skip_on_a_semantic_change(make: Callable[..., Adapter]) -> None:
    adapter = make(StepCache(similarity_threshold=0.1))
    adapter.ask(eq())
    other = adapter.ask("Return only a JSON object with keys a, b and c for 3x + 5 = 20.")
    assert other.record["decision"] == "skip"


def test_bypass_and_system_prompt(make: Callable[..., Adapter]) -> None:
    adapter = make()
    adapter.ask(eq())
    with_system = adapter.ask(eq(), system="Be terse.")
    assert with_system.record["decision"] == "miss"  # another conversation, another namespace
    assert adapter.ask(eq(), system="Be terse.").record["decision"] == "exact"
    empty = adapter.ask("   ")
    assert empty.record["decision"] == "bypass"


def test_tenant_isolation(make: Callable[..., Adapter]) -> None:
    adapter = make()
    adapter.ask(eq(), tenant="acme")
    other = adapter.ask(eq(), tenant="globex")
    assert (other.record["decision"], other.record["tenant"]) == ("miss", "globex")
    assert adapter.ask(eq(), tenant="acme").record["decision"] == "exact"


def test_streaming_matches_the_plain_call(make: Callable[..., Adapter]) -> None:
    adapter = make(responder=lambda prompt: "one two three four")
    pieces, streamed = adapter.stream("Tell me about Lima.")
    assert len(pieces) >= 4 and "".join(pieces) == streamed.text == "one two three four"
    assert streamed.record["decision"] == "miss"
    pieces, again = adapter.stream("Tell me about Lima.")
    assert again.record["decision"] == "exact" and "".join(pieces) == again.text


async def test_async(make: Callable[..., Adapter]) -> None:
    adapter = make()
    assert (await adapter.aask(eq())).record["decision"] == "miss"
    assert (await adapter.aask(eq("k"))).record["decision"] == "reuse"


def test_usage_is_true_and_zero_on_hits(make: Callable[..., Adapter]) -> None:
    adapter = make()
    miss = adapter.ask(eq())
    assert miss.record["tokens_used"] > 0 and miss.record["tokens_estimated"] is False
    hit = adapter.ask(eq("z"))
    assert hit.record["tokens_used"] == 0
    assert hit.record["tokens_saved"] == miss.record["tokens_used"]


# -- both adapters agree ------------------------------------------------------------------------


def test_the_same_scenario_gives_the_same_records() -> None:
    def scenario(adapter: Adapter) -> list[tuple[Any, ...]]:
        answers = [adapter.ask(p) for p in (eq(), eq(), eq("n"), eq(b=11), eq(a=4, c=21))]
        return [
            (a.record["decision"], a.record["steps_reused"], a.record["steps_total"], a.text)
            for a in answers
        ]

    results = run_both(scenario)
    assert results["langchain"] == results["llama_index"]


def test_text_blocks_are_joined_alike() -> None:
    cache = StepCache()
    langchain = LangChainAdapter(cache, solve_last)
    llama = LlamaIndexAdapter(cache, solve_last)
    langchain.llm.model_id = llama.llm.model_id = "shared"
    blocks = ["Solve for x: 3x + 5 = 20.", "Show each step as 'Step N:'."]
    first = langchain.llm.invoke(
        [HumanMessage(content=[{"type": "text", "text": block} for block in blocks])]
    )
    response = llama.llm.chat(
        [ChatMessage(role="user", blocks=[TextBlock(text=block) for block in blocks])]
    )
    assert first.response_metadata["stepcache"]["decision"] == "miss"
    assert response.additional_kwargs["stepcache"]["decision"] == "exact"


def test_both_indexes_clear_only_their_own_entries() -> None:
    langchain_store = FAISSVectorStore(StructuralEmbeddings())
    llama_store = SimpleVectorStore()
    for make_index in (
        lambda: LangChainIndex(langchain_store),
        lambda: LlamaIndexVectorIndex(StructuralEmbedding(), llama_store),
    ):
        ours, theirs = make_index(), make_index()
        ours.add("ours", eq(), "ns")
        theirs.add("theirs", eq(b=6), "ns")
        ours.clear()
        assert [entry for entry, _ in theirs.search(eq(), "ns", k=5)] == ["theirs"]


def test_a_wrong_answer_is_repaired_once_then_replaced(make: Callable[..., Adapter]) -> None:
    adapter = make(
        StepCache(policy=Policy(prefer_fallback=False)),
        responder=lambda prompt: solve_steps(prompt, wrong=True),
    )
    answer = adapter.ask(eq())
    record = answer.record
    assert (record["repaired"], record["fallback"], record["passed"]) == (True, True, True)
    assert record["model_calls"] == adapter.model_calls() == 2
    assert "x = 5" in answer.text
