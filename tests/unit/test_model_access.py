"""The request path for a driver that makes one model call: ``model_access`` "one_call" and
"answered" (a framework's own cache, such as LangChain's ``BaseCache``, which calls the model
itself between a lookup and an update), with the adapter's ``drive_to_call``/``PendingCall``.

The same scenarios under "calls" (the wrappers) patch, partially regenerate, repair and mend:
each test shows the restricted driver is never asked for any of it, and that the model's
answer is stored only as it is, when it passes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stepcache_integrations import Policy, StepCache
from stepcache_integrations.adapter import PendingCall, drive, drive_to_call
from stepcache_integrations.core import SqliteStore
from stepcache_integrations.core.namespace import make_namespace
from stepcache_integrations.core.protocol import (
    CacheRequest,
    ModelAccess,
    ModelCall,
    ModelReply,
    ServeResult,
)
from tests.conftest import solve_steps

NS = make_namespace({"model": "one-call"})
JSON_PROMPT = (
    'Return only a JSON object with exactly the keys "name", "age" and "status", '
    'where "status" is "active".'
)


def eq(v: str = "x", b: int = 5, c: int = 20) -> str:
    return f"Solve for {v}: 3{v} + {b} = {c}. Show each step as 'Step N:'."


def request(prompt: str, access: ModelAccess = "one_call") -> CacheRequest:
    return CacheRequest(prompt, NS, input_chars=len(prompt), model_access=access)


def ask(cache: StepCache, prompt: str, answer: str | None = None) -> ServeResult | PendingCall:
    """A lookup, answered at once with ``answer`` when the request path asks for the model."""
    outcome = drive_to_call(cache.serve(request(prompt)))
    if isinstance(outcome, PendingCall) and answer is not None:
        assert outcome.call.purpose == "full"  # the only call a one-call driver is asked
        return outcome.answer(ModelReply(answer, 10, 5))
    return outcome


def served(outcome: ServeResult | PendingCall) -> ServeResult:
    assert isinstance(outcome, ServeResult), "the request path asked for the model"
    return outcome


def test_an_identical_request_is_served_without_the_model() -> None:
    cache = StepCache()
    first = ask(cache, eq(), solve_steps(eq()))
    assert isinstance(first, ServeResult) and first.record.stored
    again = served(ask(cache, eq()))
    assert again.record.decision == "exact" and again.record.model_calls == 0
    assert again.text == solve_steps(eq())


def test_a_verified_reuse_is_served_without_the_model() -> None:
    cache = StepCache()
    ask(cache, eq(), solve_steps(eq()))
    renamed = served(ask(cache, eq(v="y")))
    assert renamed.record.decision == "reuse" and renamed.record.model_calls == 0
    assert renamed.text == solve_steps(eq(v="y"))
    assert renamed.record.task == "linear_equation"


def test_a_patch_by_the_model_becomes_a_full_generation() -> None:
    # The right side 21: steps 1-2 are re-instantiated (3x = 16), but the cached "x = 5" does
    # not show that an exact 16/3 is asked, so step 3 needs the model (3x + 8 = 20 would be
    # re-instantiated in full: a reuse, no model call at all).
    policy = Policy(solver_patches=False, max_regenerate_fraction=0.9)
    wrapper = StepCache(policy=policy)
    drive(wrapper.serve(request(eq(), "calls")), lambda call: ModelReply(solve_steps(eq())))
    calls: list[str] = []

    def model(call: ModelCall) -> ModelReply:
        calls.append(call.purpose)
        return ModelReply("Step 3: Divide both sides by 3: x = 16/3.")

    patched = drive(wrapper.serve(request(eq(c=21), "calls")), model)
    assert patched.record.decision == "patch" and calls == ["patch"]  # the wrappers' way
    assert patched.text == solve_steps(eq(c=21))

    cache = StepCache(policy=policy)
    ask(cache, eq(), solve_steps(eq()))
    pending = ask(cache, eq(c=21))
    assert isinstance(pending, PendingCall) and pending.call.purpose == "full"
    result = pending.answer(ModelReply(solve_steps(eq(c=21)), 10, 5))
    assert result.record.decision == "skip"
    assert result.record.reason == "step 2 failed; a patch needs a model call of its own"
    assert result.record.model_calls == 1 and result.record.stored
    assert result.text == solve_steps(eq(c=21))


def test_a_failing_answer_is_never_mended_nor_stored() -> None:
    # Under "calls" this answer is mended by deterministic edits (see test_engine.py).
    cache = StepCache()
    wrong = '{"name": "Ana", "age": 3, "status": "x", "id": 9}'
    result = ask(cache, JSON_PROMPT, wrong)
    assert isinstance(result, ServeResult)
    assert result.text == wrong  # the caller returns the model's answer: so does the record
    assert not result.record.passed and not result.record.stored
    assert result.record.mended is None and result.record.model_calls == 1
    assert "not repaired: the caller returns the model's answer as it is" in str(
        result.record.failure
    )
    assert len(cache) == 0
    assert isinstance(ask(cache, JSON_PROMPT), PendingCall)  # asked again, never served


def test_a_failing_linear_answer_is_not_replaced_by_the_deterministic_one() -> None:
    cache = StepCache()
    wrong = solve_steps(eq(), wrong=True)
    result = ask(cache, eq(), wrong)
    assert isinstance(result, ServeResult)
    assert not result.record.passed and not result.record.fallback
    assert result.text == wrong and len(cache) == 0


def test_every_generation_must_pass() -> None:
    cache = StepCache()
    good, bad = solve_steps(eq()), solve_steps(eq(), wrong=True)
    pending = ask(cache, eq())
    assert isinstance(pending, PendingCall)
    result = pending.answer(ModelReply(good, alternatives=(good, bad)))
    assert not result.record.passed and not result.record.stored
    assert str(result.record.failure).startswith("answer 3 of 3: ")
    pending = ask(cache, eq())
    assert isinstance(pending, PendingCall)
    assert pending.answer(ModelReply(good, alternatives=(good,))).record.stored


def test_kept_data_comes_back_with_an_exact_hit_of_that_reply_only() -> None:
    cache = StepCache()
    pending = ask(cache, eq())
    assert isinstance(pending, PendingCall)
    pending.answer(ModelReply(solve_steps(eq()), keep={"info": [1]}))
    assert served(ask(cache, eq())).kept == {"info": [1]}
    reuse = served(ask(cache, eq(v="y")))
    assert reuse.record.decision == "reuse" and reuse.kept is None  # another request's
    assert served(ask(cache, eq(v="y"))).kept is None  # the stored reuse keeps nothing


def test_kept_data_persists_with_the_entry(tmp_path: Path) -> None:
    with StepCache(store=SqliteStore(tmp_path, durability="normal")) as cache:
        pending = ask(cache, eq())
        assert isinstance(pending, PendingCall)
        pending.answer(ModelReply(solve_steps(eq()), keep={"generation_info": [{"a": 1}]}))
    with StepCache(path=tmp_path) as reopened:
        assert served(ask(reopened, eq())).kept == {"generation_info": [{"a": 1}]}


def test_a_cancelled_call_stores_and_records_nothing() -> None:
    cache = StepCache()
    pending = ask(cache, eq())
    assert isinstance(pending, PendingCall)
    pending.cancel()
    assert len(cache) == 0 and cache.stats()["requests"] == 0


def test_answered_stores_without_a_lookup_and_replaces() -> None:
    cache = StepCache()
    ask(cache, eq(), solve_steps(eq()))
    pending = drive_to_call(cache.serve(request(eq(), "answered")))
    assert isinstance(pending, PendingCall)  # no exact hit: the model's answer is asked for
    other = solve_steps(eq()).replace("Start with", "Begin with")
    result = pending.answer(ModelReply(other))
    assert result.record.decision == "miss" and result.record.stored
    assert "without a lookup" in result.record.reason
    assert served(ask(cache, eq())).text == other
    assert cache.stats()["decisions"]["exact"] == 1  # only the real hit above


def test_a_second_model_call_is_refused() -> None:
    cache = StepCache()
    pending = drive_to_call(cache.serve(request(JSON_PROMPT, "calls")))
    assert isinstance(pending, PendingCall)
    with pytest.raises(RuntimeError, match="second model call"):
        pending.answer(ModelReply('{"name": "Ana", "status": "active"}'))  # asks for "age"
    assert len(cache) == 0


def test_json_answers_that_pass_are_stored_once() -> None:
    cache = StepCache()
    answer = json.dumps({"name": "Ana", "age": 3, "status": "active"})
    assert served(ask(cache, JSON_PROMPT, answer)).record.stored
    assert served(ask(cache, JSON_PROMPT)).record.decision == "exact"
