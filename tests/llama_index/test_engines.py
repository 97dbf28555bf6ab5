"""StepCacheLLM inside LlamaIndex: a query engine, a chat engine, structured prediction."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from llama_index.core import Document, MockEmbedding, Settings, StorageContext, VectorStoreIndex
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine.types import ChatMode
from llama_index.core.llms import MockFunctionCallingLLM, MockLLM
from llama_index.core.output_parsers import PydanticOutputParser
from llama_index.core.prompts import PromptTemplate
from llama_index.core.types import PydanticProgramMode
from pydantic import BaseModel

from stepcache_integrations import StepCache, StepCacheRecord
from stepcache_integrations.llama_index import StepCacheFaissVectorStore, StepCacheLLM
from tests.conftest import ScriptedLLM, eq

DOCUMENTS = [
    "To solve a linear equation, isolate the variable: undo addition by subtracting the "
    "constant from both sides, then undo multiplication by dividing by the coefficient.",
    "Always check a solution by substituting it back into the original equation.",
    "Write every step on its own line, starting with 'Step' and its number.",
]


@pytest.fixture(autouse=True)
def offline_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The defaults need OpenAI: set mock models, and restore the globals afterwards."""
    for name in ("_llm", "_embed_model", "_callback_manager"):
        monkeypatch.setattr(Settings, name, getattr(Settings, name))
    Settings.llm = MockLLM()
    Settings.embed_model = MockEmbedding(embed_dim=8)


@pytest.fixture
def records() -> list[StepCacheRecord]:
    return []


@pytest.fixture
def cache(records: list[StepCacheRecord]) -> StepCache:
    # A low threshold so the JSON question reaches the verifiers (and is skipped there).
    step_cache = StepCache(similarity_threshold=0.1)
    step_cache.add_listener(records.append)
    return step_cache


@pytest.fixture
def index() -> VectorStoreIndex:
    storage = StorageContext.from_defaults(vector_store=StepCacheFaissVectorStore())
    return VectorStoreIndex.from_documents(
        [Document(text=text) for text in DOCUMENTS], storage_context=storage
    )


def decisions(records: list[StepCacheRecord]) -> list[str]:
    return [r.decision for r in records]


def test_query_engine_answers_perturbed_questions(
    index: VectorStoreIndex, cache: StepCache, records: list[StepCacheRecord]
) -> None:
    model = ScriptedLLM()
    query_engine = index.as_query_engine(llm=StepCacheLLM(llm=model, step_cache=cache))
    answers = [
        str(query_engine.query(question))
        for question in (
            eq(),
            eq(),
            eq("y"),
            eq(b=8),
            "Return only a JSON object with keys a, b and c for 3x + 5 = 20.",
        )
    ]
    # A changed constant: the QA prompt around the equation (its retrieved context too) is
    # the same request, and the cached answer (the model's own, checked) shows what it asks:
    # every step is re-instantiated for the new constant, with no model call. (Before, the
    # family continued a solution only for requests its grammar read as asking only to solve,
    # and the model answered this one.)
    assert decisions(records) == ["miss", "exact", "reuse", "reuse", "skip"]
    assert "x = 5" in answers[0] and answers[1] == answers[0]
    assert "y = 5" in answers[2]
    assert answers[3] == (
        "Step 1: Start with 3x + 8 = 20.\nStep 2: Subtract 8 from both sides: 3x = 12.\n"
        "Step 3: Divide both sides by 3: x = 4."
    )
    assert json.loads(answers[4]) == {"a": 3, "b": 5, "c": 20}
    assert len(model.calls) == 2  # the miss and the skip; the rest came from the cache
    # The prompt the model saw is LlamaIndex's QA prompt with the retrieved context.
    assert "Context information" in model.calls[0] and "isolate the variable" in model.calls[0]


def test_settings_llm_is_used_by_a_query_engine(
    index: VectorStoreIndex, cache: StepCache, records: list[StepCacheRecord]
) -> None:
    Settings.llm = StepCacheLLM(llm=ScriptedLLM(), step_cache=cache)
    query_engine = index.as_query_engine()
    query_engine.query(eq("k"))
    query_engine.query(eq("m"))
    assert decisions(records) == ["miss", "reuse"]


def test_chat_engine_answers_perturbed_questions(
    index: VectorStoreIndex, cache: StepCache, records: list[StepCacheRecord]
) -> None:
    # A chat model: the engine sends messages (a completion model gets one prompt string).
    model = ScriptedLLM(chat_model=True)
    chat_engine = index.as_chat_engine(
        chat_mode=ChatMode.CONTEXT, llm=StepCacheLLM(llm=model, step_cache=cache)
    )
    answers = []
    for question in (eq(), eq(), eq("t"), eq(b=8)):
        chat_engine.reset()  # a new conversation: earlier turns are part of the namespace
        answers.append(str(chat_engine.chat(question)))
    # A changed constant: the chat engine's system prompt (its retrieved context) and the
    # question around the equation are the same request, and the cached answer shows what it
    # asks: every step is re-instantiated, with no model call (before: the model answered).
    assert decisions(records) == ["miss", "exact", "reuse", "reuse"]
    assert "t = 5" in answers[2] and "x = 4" in answers[3] and "3x + 8 = 20" in answers[3]
    # A follow-up in the same conversation has other earlier turns: another namespace.
    # The scripted model answers the earlier turn's equation (3x + 8 = 20) again; that is
    # another equation, not a slip, so its answer is not corrected in place (that would
    # state "Start with 3x + 8 = 23"), but it shows that the value of x is asked: the
    # solver's steps, one model call.
    follow_up = str(chat_engine.chat(eq()))
    assert records[-1].decision == "miss" and records[-1].fallback and records[-1].passed
    assert follow_up == (
        "Step 1: Start with 3x + 5 = 20.\nStep 2: Subtract 5 from both sides: 3x = 15.\n"
        "Step 3: Divide both sides by 3: x = 5."
    )
    # The exact hit and the reuses called no model; every model call is in a record.
    assert [r.model_calls for r in records] == [1, 0, 0, 0, 1]
    assert len(model.calls) == 2


def test_streaming_chat_engine(
    index: VectorStoreIndex, cache: StepCache, records: list[StepCacheRecord]
) -> None:
    chat_engine = index.as_chat_engine(
        chat_mode=ChatMode.CONTEXT,
        llm=StepCacheLLM(llm=ScriptedLLM(chat_model=True), step_cache=cache),
    )
    chat_engine.chat(eq())
    chat_engine.reset()
    streamed = chat_engine.stream_chat(eq("q"))
    text = "".join(streamed.response_gen)
    assert "q = 5" in text
    assert decisions(records) == ["miss", "reuse"]


async def test_async_query_engine(
    index: VectorStoreIndex, cache: StepCache, records: list[StepCacheRecord]
) -> None:
    query_engine = index.as_query_engine(llm=StepCacheLLM(llm=ScriptedLLM(), step_cache=cache))
    await query_engine.aquery(eq())
    answer = await query_engine.aquery(eq(b=11))
    # A changed constant: the QA prompt around the equation is the same request and the
    # cached answer shows what it asks: re-instantiated, no model call (before: the model).
    assert decisions(records) == ["miss", "reuse"]
    assert str(answer) == (
        "Step 1: Start with 3x + 11 = 20.\nStep 2: Subtract 11 from both sides: 3x = 9.\n"
        "Step 3: Divide both sides by 3: x = 3."
    )
    assert records[1].model_calls == 0


# -- structured_predict -------------------------------------------------------------------------


class Person(BaseModel):
    """A person mentioned in a sentence."""

    name: str
    age: int
    city: str


EXTRACT = PromptTemplate("Extract the person from this sentence: {sentence}")


def extract(prompt: str) -> str:
    """What a good model answers: the person as JSON."""
    match = re.search(r"sentence: (\w+) is (\d+) years old and lives in (\w+)", prompt)
    assert match is not None, prompt
    name, age, city = match.groups()
    return json.dumps({"name": name, "age": int(age), "city": city})


def answers(*texts: str) -> Iterator[str]:
    yield from texts


def parser_verdicts(record: StepCacheRecord) -> list[dict[str, Any]]:
    return [v for v in record.verdicts if v["verifier"] == "parser:PydanticOutputParser"]


def test_structured_predict_is_verified_by_the_parser(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    model = ScriptedLLM(responder=extract)
    llm = StepCacheLLM(llm=model, step_cache=cache)
    sentence = "Ana is 31 years old and lives in Lisbon."
    person = llm.structured_predict(Person, EXTRACT, sentence=sentence)
    assert person == Person(name="Ana", age=31, city="Lisbon")
    first = records[-1]
    assert first.decision == "miss"
    assert [v["outcome"] for v in parser_verdicts(first)] == ["pass"]
    # The format instructions the program added reached the model.
    assert "JSON schema" in model.calls[0]
    again = llm.structured_predict(Person, EXTRACT, sentence=sentence)
    assert again == person and decisions(records) == ["miss", "exact"]
    assert len(model.calls) == 1


def test_structured_predict_repairs_an_answer_the_parser_rejects(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    replies = answers("Ana, 31, Lisbon", '{"name": "Ana", "age": 31, "city": "Lisbon"}')
    model = ScriptedLLM(responder=lambda prompt: next(replies))
    llm = StepCacheLLM(llm=model, step_cache=cache)
    person = llm.structured_predict(
        Person, EXTRACT, sentence="Ana is 31 years old and lives in Lisbon."
    )
    assert person.city == "Lisbon"
    assert records[-1].repaired is True and records[-1].stored is True
    # The repair call showed the rejected answer and asked for the schema's format.
    repair = model.calls[1].split("assistant: Ana, 31, Lisbon", 1)[1]
    assert "json schema" in repair.lower() and '"city"' in repair


def test_structured_output_that_never_parses_is_never_cached(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    model = ScriptedLLM(responder=lambda prompt: '{"name": "Ana"}')
    llm = StepCacheLLM(llm=model, step_cache=cache)
    with pytest.raises(ValueError):
        llm.structured_predict(Person, EXTRACT, sentence="Ana is 31 years old and lives in Lisbon.")
    assert records[-1].passed is False and len(cache) == 0
    assert parser_verdicts(records[-1])[0]["outcome"] == "fail"


async def test_async_structured_predict_with_a_parser_verifier(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    llm = StepCacheLLM(
        llm=ScriptedLLM(responder=extract, chat_model=True),
        step_cache=cache,
        verifiers=[PydanticOutputParser(output_cls=Person)],
    )
    person = await llm.astructured_predict(
        Person, EXTRACT, sentence="Bruno is 40 years old and lives in Porto."
    )
    assert person.age == 40
    # The wrapper's own parser and the structured call's parser both checked the answer.
    assert [v["outcome"] for v in parser_verdicts(records[-1])] == ["pass", "pass"]


def test_parser_verifier_applies_to_plain_calls(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    llm = StepCacheLLM(
        llm=ScriptedLLM(responder=lambda prompt: "not json"),
        step_cache=cache,
        verifiers=[PydanticOutputParser(output_cls=Person)],
    )
    response = llm.complete("Describe Ana.")
    assert response.additional_kwargs["stepcache"]["passed"] is False
    assert len(cache) == 0


def test_function_calling_model_in_text_mode_is_cached_and_verified(
    cache: StepCache, records: list[StepCacheRecord]
) -> None:
    def reply(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        return ChatMessage(role="assistant", content=extract(messages[-1].content or ""))

    inner = MockFunctionCallingLLM(response_generator=reply, is_chat_model=True)
    llm = StepCacheLLM(llm=inner, step_cache=cache, pydantic_program_mode=PydanticProgramMode.LLM)
    sentence = "Ana is 31 years old and lives in Lisbon."
    assert llm.structured_predict(Person, EXTRACT, sentence=sentence).age == 31
    assert llm.structured_predict(Person, EXTRACT, sentence=sentence).age == 31
    assert decisions(records) == ["miss", "exact"]
    assert parser_verdicts(records[0])[0]["outcome"] == "pass"
