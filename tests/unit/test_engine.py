"""The request path without any framework: a plain function plays the model."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stepcache_integrations import Policy, StepCache, Verdict
from stepcache_integrations.adapter import drive
from stepcache_integrations.core.namespace import make_namespace
from stepcache_integrations.core.protocol import CacheRequest, Emit, ModelCall, ModelReply
from stepcache_integrations.core.stores.local import MemoryStore
from tests.conftest import solve_steps

NS = make_namespace({"model": "plain"})


def request(prompt: str, **kwargs: object) -> CacheRequest:
    return CacheRequest(prompt=prompt, namespace=NS, input_chars=len(prompt), **kwargs)  # type: ignore[arg-type]


class PlainModel:
    """Answers with ``answer(prompt, call)``; records every call."""

    def __init__(self, answer: Callable[[str, ModelCall], str]) -> None:
        self.answer = answer
        self.calls: list[ModelCall] = []

    def __call__(self, call: ModelCall) -> ModelReply:
        self.calls.append(call)
        return ModelReply(self.answer(self.prompt, call), 10, 5)

    def ask(self, cache: StepCache, prompt: str, **kwargs: object):  # type: ignore[no-untyped-def]
        self.prompt = prompt
        return drive(cache.serve(request(prompt, **kwargs)), self)


def eq(v: str = "x", b: int = 5, c: int = 20) -> str:
    return f"Solve for {v}: 3{v} + {b} = {c}. Show each step as 'Step N:'."


# A changed constant whose cached steps are all re-instantiated (3x + 5 = 20 -> 3x + 8 = 20:
# every number traced, every equation checked again) is a reuse now; the patch tests below
# change the right side to 21 instead: steps 1-2 are re-instantiated (3x = 16), but the
# cached "x = 5" does not show that an exact 16/3 is asked (it may be a rounding), so step 3
# is the model's to write. A right side of -1 makes even step 1 fail (a number changes sign).
FRACTIONAL = eq(c=21)
NEGATIVE = eq(c=-1)


def test_tokens_used_and_saved_are_accounted() -> None:
    cache = StepCache()
    model = PlainModel(lambda prompt, call: solve_steps(prompt))
    first = model.ask(cache, eq())
    assert (first.record.tokens_input, first.record.tokens_output) == (10, 5)
    assert first.record.tokens_used == 15 and first.record.stored
    exact = model.ask(cache, eq())
    assert exact.record.decision == "exact"
    assert exact.record.tokens_used == 0 and exact.record.tokens_saved == 15


def test_exact_path_does_no_embedding_or_verification() -> None:
    class CountingEmbedder:
        calls = 0

        def embed(self, texts):  # type: ignore[no-untyped-def]
            CountingEmbedder.calls += 1
            from stepcache_integrations import StructuralEmbedder

            return StructuralEmbedder().embed(texts)

    cache = StepCache(store=MemoryStore(embedder=CountingEmbedder()))
    model = PlainModel(lambda prompt, call: solve_steps(prompt))
    model.ask(cache, eq())
    before = CountingEmbedder.calls
    result = model.ask(cache, "  " + eq() + "\n")  # normalised: same request
    assert result.record.decision == "exact"
    assert CountingEmbedder.calls == before
    assert result.record.verdicts == []


def test_patch_by_model_continuation_when_no_solver() -> None:
    cache = StepCache(policy=Policy(solver_patches=False, max_regenerate_fraction=0.9))

    def answer(prompt: str, call: ModelCall) -> str:
        if call.purpose == "patch":
            return "Step 3: Divide both sides by 3: x = 16/3."
        return solve_steps(prompt)

    model = PlainModel(answer)
    model.ask(cache, eq())
    result = model.ask(cache, FRACTIONAL)
    assert result.record.decision == "patch"
    assert result.record.patched_by == "model"
    assert [c.purpose for c in model.calls] == ["full", "patch"]
    patch_call = model.calls[1]
    assert patch_call.extra_turns[0].role == "assistant"
    assert patch_call.extra_turns[0].content == (
        "Step 1: Start with 3x + 5 = 21.\nStep 2: Subtract 5 from both sides: 3x = 16.\n"
    )
    assert result.text.endswith("x = 16/3.")
    assert result.text.count("Step 1") == 1 and result.record.passed


def test_a_changed_constant_every_step_of_which_is_reinstantiated_is_a_reuse() -> None:
    cache = StepCache(policy=Policy(solver_patches=False))
    model = PlainModel(lambda prompt, call: solve_steps(prompt))
    model.ask(cache, eq(b=5))
    result = model.ask(cache, eq(b=8))
    assert result.record.decision == "reuse" and result.record.passed
    assert [c.purpose for c in model.calls] == ["full"]
    assert result.text == (
        "Step 1: Start with 3x + 8 = 20.\nStep 2: Subtract 8 from both sides: 3x = 12.\n"
        "Step 3: Divide both sides by 3: x = 4."
    )


def test_patch_too_large_for_the_model_is_a_skip() -> None:
    cache = StepCache(policy=Policy(solver_patches=False, max_regenerate_fraction=0.2))
    model = PlainModel(lambda prompt, call: solve_steps(prompt))
    model.ask(cache, eq())
    result = model.ask(cache, FRACTIONAL)  # step 3, about a third of the answer, regenerated
    assert result.record.decision == "skip"
    assert "max_regenerate_fraction" in result.record.reason


def test_stream_emits_reused_prefix_before_the_model_is_called() -> None:
    cache = StepCache(policy=Policy(solver_patches=False, max_regenerate_fraction=0.9))
    model = PlainModel(lambda prompt, call: solve_steps(prompt))
    model.ask(cache, eq())
    flow = cache.serve(request(FRACTIONAL))
    first = next(flow)
    assert isinstance(first, Emit)
    assert first.text == (
        "Step 1: Start with 3x + 5 = 21.\nStep 2: Subtract 5 from both sides: 3x = 16.\n"
    )
    second = flow.send(None)
    assert isinstance(second, ModelCall) and second.purpose == "patch"
    assert second.live is False  # an equation answer is checked before it is shown
    rest = flow.send(ModelReply("Step 3: x = 16/3."))
    assert isinstance(rest, Emit)  # the checked continuation, released in one piece
    with pytest.raises(StopIteration) as done:
        flow.send(None)
    result = done.value.value
    assert result.text == first.text + rest.text
    assert result.emitted == result.text and result.record.passed


def test_answer_over_size_is_served_not_stored() -> None:
    cache = StepCache(policy=Policy(max_answer_chars=50))
    model = PlainModel(lambda prompt, call: "word " * 100)
    result = model.ask(cache, "Tell me a story about Rome.")
    assert result.text == "word " * 100
    assert not result.record.stored and "max_answer_chars" in str(result.record.failure)
    assert len(cache) == 0


def test_prompt_over_size_bypasses() -> None:
    cache = StepCache(policy=Policy(max_prompt_chars=10))
    model = PlainModel(lambda prompt, call: "ok")
    result = model.ask(cache, "a much longer prompt than ten characters")
    assert result.record.decision == "bypass"
    assert "max_prompt_chars" in result.record.reason
    assert len(cache) == 0


def test_generic_task_with_changed_content_is_not_reused() -> None:
    cache = StepCache(similarity_threshold=0.5)
    model = PlainModel(lambda prompt, call: f"Revenue grew in {prompt[-5:-1]}.\n\nCosts were flat.")
    model.ask(cache, "Summarise the annual report of 2023.")
    result = model.ask(cache, "Summarise the annual report of 2024.")
    assert result.record.decision == "skip"
    assert "'2023' -> '2024'" in result.record.reason and "no task verifier" in result.record.reason
    assert "2023" not in result.text


def test_generic_paraphrase_is_reused() -> None:
    cache = StepCache(similarity_threshold=0.3)
    model = PlainModel(lambda prompt, call: "Rome was founded, grew, and fell.")
    model.ask(cache, "Tell me the history of Rome.")
    result = model.ask(cache, "Could you tell me the history of Rome, please?")
    assert result.record.decision == "exact"  # the same request: politeness is neutral
    assert len(model.calls) == 1


def test_callable_verifier_can_return_a_verdict_with_reason() -> None:
    def no_lorem(request: str, answer: str) -> Verdict:
        return (
            Verdict.fail("no-lorem", "placeholder") if "lorem" in answer else Verdict.ok("no-lorem")
        )

    cache = StepCache(verifiers=[no_lorem], policy=Policy(repair=False))
    model = PlainModel(lambda prompt, call: "lorem ipsum")
    result = model.ask(cache, "Write a tagline for Acme.")
    assert not result.record.passed and result.record.failure == "placeholder"


def test_stats_add_up() -> None:
    cache = StepCache()
    model = PlainModel(lambda prompt, call: solve_steps(prompt))
    for prompt in (eq(), eq(), eq("y"), eq(b=8)):
        model.ask(cache, prompt)
    stats = cache.stats()
    assert stats["requests"] == 4
    assert stats["decisions"]["miss"] == 1 and stats["decisions"]["exact"] == 1
    assert sum(stats["decisions"].values()) == 4
    assert stats["hit_rate"] == 0.75
    assert stats["entries"] == len(cache) >= 1
    json.dumps(stats)


def test_listener_sees_every_record_and_its_failure_is_contained() -> None:
    cache = StepCache()
    seen: list[str] = []
    cache.add_listener(lambda record: seen.append(record.decision))
    cache.add_listener(lambda record: 1 / 0)
    model = PlainModel(lambda prompt, call: solve_steps(prompt))
    model.ask(cache, eq())
    assert seen == ["miss"]


def test_invalid_configuration_raises_value_error() -> None:
    with pytest.raises(ValueError, match="similarity_threshold"):
        Policy(similarity_threshold=2)
    with pytest.raises(ValueError, match="ttl"):
        StepCache(ttl=0)
    with pytest.raises(ValueError, match="verifier"):
        StepCache(verifiers=[object()])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    first=st.text(max_size=400),
    second=st.text(max_size=400),
    prompt=st.sampled_from(
        [
            eq(),
            eq("y"),
            eq(b=8),
            "Return a JSON object with keys a and b.",
            "Tell me about Paris.",
            "Return a JSON object with keys a, b and c.",
        ]
    ),
)
def test_no_exception_escapes_on_arbitrary_model_output(
    first: str, second: str, prompt: str
) -> None:
    cache = StepCache()
    # A model answers every call (a partial call and a repair may both follow a full answer).
    answers = itertools.cycle([first, second])
    model = PlainModel(lambda p, call: next(answers))
    model.ask(cache, eq())
    result = model.ask(cache, prompt)
    assert result.record.decision in {"exact", "reuse", "patch", "skip", "miss"}
    if not result.record.passed:
        assert not result.record.stored


JSON_PROMPT = (
    'Return only a JSON object with exactly the keys "name", "age" and "status", '
    'where "status" is "active".'
)


def test_failing_json_answer_is_mended_by_deterministic_edits() -> None:
    cache = StepCache()
    model = PlainModel(lambda prompt, call: '{"name": "Ana", "age": 3, "status": "x", "id": 9}')
    result = model.ask(cache, JSON_PROMPT)
    assert json.loads(result.text) == {"name": "Ana", "age": 3, "status": "active"}
    assert result.record.mended == "edit" and result.record.passed
    assert len(model.calls) == 1 and result.record.stored


def test_missing_json_key_is_asked_for_alone() -> None:
    cache = StepCache()

    def answer(prompt: str, call: ModelCall) -> str:
        if call.purpose == "partial":
            assert "age" in call.extra_turns[-1].content
            return '{"age": 41}'
        return '{"name": "Ana", "status": "active"}'

    model = PlainModel(answer)
    result = model.ask(cache, JSON_PROMPT)
    assert json.loads(result.text) == {"name": "Ana", "status": "active", "age": 41}
    assert result.record.mended == "partial"
    assert [c.purpose for c in model.calls] == ["full", "partial"]


def test_unmendable_json_answer_gets_one_repair_then_is_flagged() -> None:
    cache = StepCache()
    model = PlainModel(lambda prompt, call: "I cannot do that.")
    result = model.ask(cache, JSON_PROMPT)
    assert [c.purpose for c in model.calls] == ["full", "repair"]
    assert result.record.repaired and not result.record.passed
    assert result.record.mended is None and not result.record.stored
    assert len(cache) == 0


@pytest.mark.parametrize("budget, repaired", [(1.5, False), (50.0, True)])
def test_a_failing_patch_is_repaired_only_within_its_budget(budget: float, repaired: bool) -> None:
    policy = Policy(
        solver_patches=False,
        deterministic_fallback=False,
        max_regenerate_fraction=0.9,
        patch_budget=budget,
    )
    cache = StepCache(policy=policy)

    def answer(prompt: str, call: ModelCall) -> str:
        if call.purpose == "full":
            return solve_steps(prompt)
        # The continuation (and its repair) get the arithmetic wrong.
        return "Step 3: Divide both sides by 3: x = 5."

    model = PlainModel(answer)
    model.ask(cache, eq())
    result = model.ask(cache, FRACTIONAL)
    assert result.record.decision == "patch"
    purposes = [c.purpose for c in model.calls]
    assert purposes == (["full", "patch", "repair"] if repaired else ["full", "patch"])
    assert result.record.passed is False and not result.record.stored
    assert ("budget is spent" in (result.record.failure or "")) is not repaired


def test_patch_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="patch_budget"):
        Policy(patch_budget=0)


@pytest.mark.parametrize("adaptive", [True, False])
def test_repairs_that_never_work_stop_for_that_task(adaptive: bool) -> None:
    cache = StepCache(policy=Policy(adaptive_repair=adaptive))
    model = PlainModel(lambda prompt, call: "Sorry, I cannot write JSON.")
    results = [
        model.ask(
            cache, f'Return only a JSON object with the keys "name" and "age" for person {n}.'
        )
        for n in range(12)
    ]
    repairs = [sum(c.purpose == "repair" for c in model.calls)]
    assert all(r.record.passed is False and not r.record.stored for r in results)
    tried = [r.record.repaired for r in results]
    if adaptive:
        # Eight failed repairs, then none (the tenth skipped request would probe again).
        assert tried == [True] * 8 + [False] * 4
        assert "have not worked lately" in (results[-1].record.failure or "")
    else:
        assert tried == [True] * 12
    assert repairs == [sum(tried)]


def json_request(n: int) -> str:
    return f'Return only a JSON object with the keys "name" and "age" for person {n}.'


def person_number(prompt: str) -> int:
    return int(prompt.rsplit(" ", 1)[-1].rstrip("."))


def test_a_repair_probe_is_not_made_on_a_request_whose_model_call_was_slow() -> None:
    # Eight failed repairs stop them; the tenth failing request after that (the 19th: the 11th
    # passed at once, so it needed no repair) is due for a probe, but its model call took
    # 0.3 s where the others took microseconds: a second call there would make it the slowest
    # request. The probe goes to the next request instead.
    cache = StepCache()

    def answer(prompt: str, call: ModelCall) -> str:
        number = person_number(prompt) if call.purpose == "full" else -1
        if number == 18:
            time.sleep(0.3)
        if number == 10:  # one first answer passes: the task is within the model's reach
            return '{"name": "Ada", "age": 36}'
        return "Sorry, I cannot write JSON."

    model = PlainModel(answer)
    results = [model.ask(cache, json_request(n)) for n in range(21)]
    tried = [n for n, r in enumerate(results) if r.record.repaired]
    assert tried == [*range(8), 19]
    assert [n for n, r in enumerate(results) if r.record.passed] == [10]


def test_repairs_are_not_probed_while_the_models_own_answers_all_fail() -> None:
    # A model that answers none of a task's requests: once its repairs have stopped, a probe
    # would cost one more call per probe for nothing, so none is made (the tenth skipped
    # request would otherwise probe). A first answer that passes is the sign that the task is
    # within reach again: the next failing request that is due probes.
    cache = StepCache()
    passing = {40}

    def answer(prompt: str, call: ModelCall) -> str:
        if call.purpose == "full" and person_number(prompt) in passing:
            return '{"name": "Ada", "age": 36}'
        return "Sorry, I cannot write JSON."

    model = PlainModel(answer)
    results = [model.ask(cache, json_request(n)) for n in range(42)]
    tried = [n for n, r in enumerate(results) if r.record.repaired]
    assert tried == [*range(8), 41]
    assert sum(c.purpose == "repair" for c in model.calls) == 9
    assert "have not worked lately" in (results[39].record.failure or "")


def test_a_candidate_the_solver_completes_ends_the_search() -> None:
    # Four cached look-alikes above the threshold; the nearest one's steps fail on the new
    # constant (-1 where 20 stood: a number that changes sign is not re-instantiated), and
    # the equation solver writes them (the cached "x = 5" shows that the integer value is
    # asked): nothing can do better than a free, certain answer, so no other candidate is
    # verified and no model is called.
    cache = StepCache()
    model = PlainModel(lambda prompt, call: solve_steps(prompt))
    for b in (5, 6, 7, 8):
        model.ask(cache, eq(b=b))
    calls = len(model.calls)
    result = model.ask(cache, eq(b=2, c=-1))
    assert result.record.decision == "patch"
    assert result.record.patched_by == "solver"
    assert result.record.candidates == 1
    assert len(model.calls) == calls
    assert result.text.rstrip().endswith("x = -1.")
    assert result.record.passed


def stated_json(n: int) -> str:
    """A request that states the value of every key its JSON object may have: the object
    itself is the task's deterministic answer."""
    return (
        'Return only a JSON object with exactly the keys "name" and "age", where "name" is '
        f'"Ada" and "age" is {n}.'
    )


def wrong_json(prompt: str, call: ModelCall) -> str:
    return '{"name": "Bob", "age": 1}'


@pytest.mark.parametrize("adaptive", [True, False])
def test_a_model_that_never_solves_a_task_stops_being_asked_for_it(adaptive: bool) -> None:
    # The model's objects are always wrong; the task's deterministic answer (the object the
    # request states) replaces each one. After eight such throw-away calls it answers at
    # once; a probe still asks the model now and then (the tenth request, then twice as long
    # after each failed probe), so a model that learns the task is noticed.
    # Threshold 1.0: every request is a miss.
    cache = StepCache(policy=Policy(adaptive_answers=adaptive, similarity_threshold=1.0))
    model = PlainModel(wrong_json)
    results = [model.ask(cache, stated_json(n)) for n in range(2, 42)]
    assert all(r.record.passed and r.record.fallback for r in results)
    assert [json.loads(r.text) for r in results] == [
        {"name": "Ada", "age": n} for n in range(2, 42)
    ]
    calls = [r.record.model_calls for r in results]
    if adaptive:
        assert calls[:8] == [1] * 8
        # The tenth skipped request probes; it fails, so the next probe is the twentieth.
        assert calls[8:] == [0] * 9 + [1] + [0] * 19 + [1] + [0] * 2
        assert "without a model call" in results[8].record.reason
    else:
        assert calls == [1] * 40


@pytest.mark.parametrize("adaptive", [True, False])
def test_a_model_that_never_solves_equations_is_corrected_in_its_own_layout(
    adaptive: bool,
) -> None:
    # Before, the equation solver answered these at once after eight failed answers, with its
    # canonical text. Only the model's own answer shows what a request asks ("x = 3": the
    # value of x, exactly), so there is no deterministic answer before the model has answered:
    # each request asks the model, and its wrong answer is corrected in its own layout.
    cache = StepCache(policy=Policy(adaptive_answers=adaptive, similarity_threshold=1.0))
    model = PlainModel(lambda prompt, call: solve_steps(prompt, wrong=True))
    results = [model.ask(cache, f"Solve {n}x + 7 = {n * 3 + 7} for x.") for n in range(2, 14)]
    assert all(r.record.passed and r.record.fallback for r in results)
    assert [r.text for r in results] == [
        f"Step 1: Start with {n}x + 7 = {n * 3 + 7}.\nStep 2: Subtract 7 from both sides: "
        f"{n}x = {n * 3}.\nStep 3: Divide both sides by {n}: x = 3."
        for n in range(2, 14)
    ]
    assert [r.record.model_calls for r in results] == [1] * 12


def test_one_models_failures_do_not_decide_for_another_model_on_the_same_cache() -> None:
    # The outlooks are per namespace (model and settings): after a weak model's eight failed
    # objects, a strong model sharing the cache is still asked, and its answers are served.
    cache = StepCache(policy=Policy(similarity_threshold=1.0))
    weak = PlainModel(wrong_json)
    for n in range(2, 12):
        weak.ask(cache, stated_json(n))
    assert [c.purpose for c in weak.calls].count("full") == 8  # then the object was answered
    strong = PlainModel(
        lambda prompt, call: json.dumps({"name": "Ada", "age": person_number(prompt)})
    )
    strong_ns = make_namespace({"model": "strong"})
    for n in range(12, 16):
        strong.prompt = prompt = stated_json(n)
        served = drive(
            cache.serve(CacheRequest(prompt, strong_ns, input_chars=len(prompt))), strong
        )
        assert served.record.model_calls == 1 and not served.record.fallback


# Every value of the base object is stated, so an added key is asked alone (beside an
# unstated value it would be asked again too: the added key may take a part of it).
BOOK = (
    "Create a JSON object for a book. Return only a JSON object with exactly the keys "
    '"title", "author", "year"{extra}, where "title" is "The Silent Sea", "author" is '
    '"J. Moreau" and "year" is 1999.'
)
BOOK_FACTS = {"title": "The Silent Sea", "author": "J. Moreau", "year": 1999,
              "genre": "sea fiction", "publisher": "Tide"}  # fmt: skip


def test_among_failing_candidates_the_one_a_partial_call_can_mend_soundly_wins() -> None:
    """The nearest entry (another added key) lacks the new key and has one no longer asked
    for: its values would be regenerated. The base entry needs only the added key: that
    candidate wins, and the partial call asks for that key alone."""
    cache = StepCache()

    def answer(prompt: str, call: ModelCall) -> str:
        if call.purpose == "partial":
            listed = call.extra_turns[-1].content.split(" keys ")[1].split(" and their")[0]
            return json.dumps({key: BOOK_FACTS[key] for key in json.loads(f"[{listed}]")})
        keys = [key for key in BOOK_FACTS if f'"{key}"' in prompt]
        return json.dumps({key: BOOK_FACTS[key] for key in keys}, indent=2)

    model = PlainModel(answer)
    model.ask(cache, BOOK.format(extra=""))
    assert model.ask(cache, BOOK.format(extra=' and "genre"')).record.decision == "patch"
    result = model.ask(cache, BOOK.format(extra=' and "publisher"'))
    assert json.loads(result.text) == {k: v for k, v in BOOK_FACTS.items() if k != "genre"}
    assert result.record.decision == "patch" and model.calls[-1].purpose == "partial"
    assert '"publisher" and their values' in model.calls[-1].extra_turns[-1].content
