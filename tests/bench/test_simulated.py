"""The SIMULATED backend: deterministic, labelled, realistic error rates, continue and repair."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage

from stepcache_integrations.bench.backends import open_backend
from stepcache_integrations.bench.checks import EquationCheck
from stepcache_integrations.bench.simulated import SimulatedChatModel, estimate_tokens
from stepcache_integrations.bench.workload import build_workload, integrity_ok, task_correct
from stepcache_integrations.core.engine import CONTINUE_INSTRUCTION

PROMPT = build_workload(42).warmup[0].prompt  # Solve 3x + 5 = 20 for x ...


def answer(model: BaseChatModel, prompt: str) -> str:
    return str(model.invoke(prompt).content)


def test_is_a_real_chat_model_and_labelled() -> None:
    model = SimulatedChatModel(latency_scale=0)
    assert isinstance(model, BaseChatModel)
    assert model._llm_type == "simulated"
    assert model.model_name.startswith("SIMULATED")
    message = model.invoke(PROMPT)
    assert message.response_metadata["simulated"] is True
    assert message.response_metadata["model_name"].startswith("SIMULATED")
    with open_backend("simulated", latency_scale=0) as backend:
        assert backend.simulated and "SIMULATED" in backend.label
        assert "SIMULATED" in backend.details["note"]


def test_deterministic_per_seed_and_prompt() -> None:
    a, b = SimulatedChatModel(seed=7, latency_scale=0), SimulatedChatModel(seed=7, latency_scale=0)
    prompts = [r.prompt for r in build_workload(42).evaluation[:40]]
    assert [answer(a, p) for p in prompts] == [answer(b, p) for p in prompts]
    other = SimulatedChatModel(seed=8, latency_scale=0)
    assert [answer(a, p) for p in prompts] != [answer(other, p) for p in prompts]


def test_usage_metadata_and_latency_model() -> None:
    model = SimulatedChatModel(latency_scale=0, ms_per_output_token=10, ms_per_input_token=0.5)
    message = model.invoke(PROMPT)
    usage = message.usage_metadata
    assert usage is not None
    assert usage["input_tokens"] == estimate_tokens(PROMPT)
    assert usage["output_tokens"] == estimate_tokens(str(message.content))
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]
    scaled = SimulatedChatModel(latency_scale=0.001)
    expected = (usage["input_tokens"] * 0.5 + usage["output_tokens"] * 10) * 0.001 / 1000
    assert scaled.invoke(PROMPT).response_metadata["simulated_latency_s"] == pytest.approx(expected)
    assert message.response_metadata["simulated_latency_s"] == 0


def test_error_rates_are_realistic() -> None:
    model = SimulatedChatModel(latency_scale=0)
    requests = [r for seed in (42, 43) for r in build_workload(seed).evaluation]
    eq = [r for r in requests if r.family == "equation"]
    js = [r for r in requests if r.family == "json"]
    wp = [r for r in requests if r.family == "word"]
    eq_ok = sum(
        task_correct(r, a) and integrity_ok(r, a) for r in eq for a in [answer(model, r.prompt)]
    )
    js_ok = sum(
        task_correct(r, a) and integrity_ok(r, a) for r in js for a in [answer(model, r.prompt)]
    )
    wp_ok = sum(
        task_correct(r, a) and integrity_ok(r, a) for r in wp for a in [answer(model, r.prompt)]
    )
    assert 0.15 <= eq_ok / len(eq) <= 0.45
    assert 0.65 <= js_ok / len(js) <= 0.95
    assert 0.25 <= wp_ok / len(wp) <= 0.55


@pytest.mark.parametrize("seed", [42, 43, 44])
def test_perfect_and_hopeless_models_are_judged_so(seed: int) -> None:
    """Accuracy 1 answers every request right; accuracy 0 gets each one wrong somehow."""
    perfect = SimulatedChatModel(
        latency_scale=0, equation_accuracy=1, json_accuracy=1, word_accuracy=1
    )
    hopeless = SimulatedChatModel(
        latency_scale=0, equation_accuracy=0, json_accuracy=0, word_accuracy=0
    )
    for request in build_workload(seed):
        good = answer(perfect, request.prompt)
        assert task_correct(request, good) and integrity_ok(request, good), (request.id, good)
        bad = answer(hopeless, request.prompt)
        assert not (task_correct(request, bad) and integrity_ok(request, bad)), (request.id, bad)


# The shape of a step cache's follow-up turns: the verified prefix as the assistant's turn,
# then the engine's own continue instruction.
CONTINUE = CONTINUE_INSTRUCTION
PREFIX = "Step 1: Subtract 5 from both sides: 3x = 20 - 5\nStep 2: Simplify: 3x = 15"


def test_continues_after_verified_steps() -> None:
    model = SimulatedChatModel(latency_scale=0, continuation_accuracy=1)
    messages = [HumanMessage(PROMPT), AIMessage(PREFIX), HumanMessage(CONTINUE)]
    rest = str(model.invoke(messages).content)
    assert rest.startswith("Step 3:")
    whole = f"{PREFIX}\n{rest}"
    check = build_workload(42).warmup[0].check
    assert isinstance(check, EquationCheck)
    assert check.task_correct(whole) and check.integrity_ok(whole)


def test_a_failed_continuation_is_repaired_after_the_same_prefix() -> None:
    model = SimulatedChatModel(latency_scale=0, continuation_accuracy=0, repair_accuracy=1)
    check = build_workload(42).warmup[0].check
    assert isinstance(check, EquationCheck)
    first = [HumanMessage(PROMPT), AIMessage(PREFIX), HumanMessage(CONTINUE)]
    bad = f"{PREFIX}\n{model.invoke(first).content}"
    assert not (check.task_correct(bad) and check.integrity_ok(bad))
    instruction = (
        "Your answer failed a check: x = 6 is wrong. Reply with the corrected answer only.\n"
        + CONTINUE
    )
    again = [HumanMessage(PROMPT), AIMessage(PREFIX), HumanMessage(instruction)]
    good = f"{PREFIX}\n{model.invoke(again).content}"
    assert check.task_correct(good) and check.integrity_ok(good)


def test_repairs_a_failed_answer() -> None:
    model = SimulatedChatModel(latency_scale=0, repair_accuracy=1, equation_accuracy=0)
    request = build_workload(42).warmup[0]
    wrong = answer(model, request.prompt)
    assert not integrity_ok(request, wrong)
    messages = [
        HumanMessage(request.prompt),
        HumanMessage(f"Your answer failed the check:\n{wrong}\nFix it and answer again."),
    ]
    fixed = str(model.invoke(messages).content)
    assert task_correct(request, fixed) and integrity_ok(request, fixed)


def test_max_tokens_and_stop_are_honoured() -> None:
    short = SimulatedChatModel(latency_scale=0, max_tokens=5).invoke(PROMPT)
    assert short.response_metadata["finish_reason"] == "length"
    assert len(str(short.content)) <= 20
    stopped = SimulatedChatModel(latency_scale=0).invoke(PROMPT, stop=["Step 2"])
    assert "Step 2" not in str(stopped.content) and str(stopped.content).startswith("Step 1")


def test_async_gives_the_same_answer() -> None:
    model = SimulatedChatModel(latency_scale=0)
    assert str(asyncio.run(model.ainvoke(PROMPT)).content) == answer(model, PROMPT)


def test_unknown_prompt_gets_a_plain_reply() -> None:
    reply = answer(SimulatedChatModel(latency_scale=0), "Tell me about cats.")
    assert reply and "Step" not in reply
