"""A request that rules JSON out is never served the equation solver's answer when it asks more.

``json_dismissals`` reads past a clause that only rules JSON out ("Instead of a JSON object for
a recipe, ..."), so a request that asks only to solve its equation gets the family's own
answer: the solver's replaces a model answer that fails the check, and after eight failed
model answers the solver answers without a call. An outside attack wrote the requests below
(none from the benchmark) and drove them two ways: an oracle model (every answer right, so
anything wrong served is the cache's) through both wrappers after a related request was
cached, and a model that always gets equations wrong through the engine (the solver may
replace it). ``ASKS_MORE`` are requests whose right answer is not the bare canonical
solution: the model's answer must be served (flagged when it is wrong). ``CONTROLS`` only rule
JSON out: the solver's answer is right there.
"""

from __future__ import annotations

import re

import pytest
from llama_index.core.base.llms.types import ChatMessage

from stepcache_integrations import Policy, StepCache, StepCacheLLM
from stepcache_integrations.core.tasks.base import EARLIER_TURNS
from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook, solve_steps
from tests.unit.test_engine import PlainModel

# (request, what the oracle adds after the correct steps, or replaces them with)
ASKS_MORE = [
    # -- the rest points back into the dismissed clause: what it described is what is wanted --
    # "that" is the reciprocal the dismissed JSON was to describe: 1/4, not k = 4.
    (
        "Rather than a JSON object describing the reciprocal, just give me that: 2k + 1 = 9.",
        "\n\nThe reciprocal of k is 1/4.",
    ),
    # "just that" is its double, 2k = 8.
    (
        "Rather than a JSON object describing its double, give me just that for 2k + 1 = 9.",
        "\n\nIts double is 8.",
    ),
    # "each value" is the value of each key of the dismissed object.
    (
        "Instead of a JSON object with the keys double and half, give each value on its own line"
        " for 3m - 2 = 10.",
        "\n\ndouble: 8\nhalf: 2",
    ),
    # The same with quoted keys (quoted keys are not read at all).
    (
        'Instead of a JSON object with the keys "doubled" and "halved", give me each value for'
        " 5p + 3 = 18.",
        "\n\ndoubled: 6\nhalved: 3/2",
    ),
    # The keys stated before "do not return JSON" are the values asked for.
    (
        "For a record with the keys doubled and halved, do not return JSON: give each value on"
        " its own line for 2k + 1 = 9.",
        "\n\ndoubled: 8\nhalved: 2",
    ),
    # "that" is the square: 16.
    (
        "Don't give me JSON for the square; give me that on one line for 2k + 1 = 9.",
        "\n\nThe square of k is 16.",
    ),
    # "it" is the opposite: -4.
    (
        "Instead of a JSON object for the opposite, write it for 2k + 1 = 9.",
        "\n\nThe opposite of k is -4.",
    ),
    # Forget the JSON form, not its content: the cube, 64.
    (
        "Never mind the JSON object for the cube. Just give me that for 3m - 2 = 10.",
        "\n\nThe cube of m is 64.",
    ),
    # "what is it" asks for the successor: 5.
    (
        "Rather than JSON about its successor, what is it for 2k + 1 = 9?",
        "\n\nIts successor is 5.",
    ),
    # -- operators outside the equation with no digit or word: another quantity is asked --
    # -k = -4.
    ("Rather than JSON, solve 2k + 1 = 9 and give -k.", "\n\nSo -k = -4."),
    # m·m = 16.
    ("Rather than JSON, solve 3m - 2 = 10, then give m·m.", "\n\nSo m·m = 16."),
    # √k = 2.
    ("Rather than JSON, solve 2k + 1 = 9 and give √k.", "\n\nSo √k = 2."),
    # k + k = 8.
    (
        "Instead of JSON, give the value of k in 2k + 1 = 9 then k + k.",
        "\n\nThen k + k = 8.",
    ),
    # A mark asked at the end of each line: the canonical steps have none.
    (
        "Do not write JSON. Write each step of 2k + 1 = 9 as a line ending with ✓.",
        "=Step 1: Start with 2k + 1 = 9. ✓\nStep 2: Subtract 1 from both sides: 2k = 8. ✓\n"
        "Step 3: Divide both sides by 2: k = 4. ✓",
    ),
    # -- a placeholder's words are not read, yet they say the form of the value --
    # A percentage: k = 400%.
    (
        'Instead of JSON, solve 2k + 1 = 9 and end with "k = <value as a percentage>".',
        "\nk = 400%",
    ),
    # In words: m = four.
    (
        'Instead of JSON, solve 3m - 2 = 10 and end with "m = [value in words]".',
        "\nm = four",
    ),
    # The answer in French.
    (
        "Do not return JSON: solve 2k + 1 = 9 [answer in French].",
        "=Étape 1 : 2k + 1 = 9.\nÉtape 2 : on retire 1 : 2k = 8.\n"
        "Étape 3 : on divise par 2 : k = 4.",
    ),
    # In binary: p = 11.
    (
        'Don\'t give me JSON: solve 5p + 3 = 18 and end with "p = <p in binary>".',
        "\np = 11 (binary)",
    ),
    # -- solving words that ask for something else than the solution --
    # A new equation like it, not the solution of this one.
    ("Instead of JSON, write an equation like 2k + 1 = 9.", "=Here is one: 5k - 3 = 12."),
    # "one like" it: another equation.
    (
        "Instead of JSON, can you give me one like 3m - 2 = 10?",
        "=Sure: 4m + 1 = 21.",
    ),
    # "your own equation like": another equation.
    (
        "Instead of a JSON object for a recipe, write your own equation like 2k + 1 = 9.",
        "=My own: 3k + 2 = 17.",
    ),
    # An equation to solve, not a solution.
    (
        "Instead of JSON, give me a linear equation like 5p + 3 = 18 to solve.",
        "=Try this one: 2p + 7 = 15.",
    ),
    # One line only: the canonical answer has three.
    ("Instead of a JSON object, write the answer to 2k + 1 = 9 on one line.", "=k = 4"),
    # Just the final answer, no steps.
    ("Instead of a JSON object, give me just the final answer to 3m - 2 = 10.", "=m = 4"),
    # -- words the checks do not see: hyphenated, or a letter that case-folds (long s) --
    # "spelled-out-in-words" is one word to the answer-word check: k = four.
    (
        "Rather than a JSON object for the spelled-out-in-words version, just give me that:"
        " 2k + 1 = 9.",
        "\nk = four",
    ),
    # "answer" with a long s: the grammar matches it case-blind, the word check does not.
    (
        "Rather than JSON for the French an\u017fwer, just give me that: 2k + 1 = 9.",
        "=\u00c9tape 1 : 2k + 1 = 9.\n\u00c9tape 2 : 2k = 8.\n\u00c9tape 3 : k = 4.",
    ),
    # The same with "answer" spelled plainly (declined already: a guard).
    (
        "Rather than JSON for the French answer, just give me that: 2k + 1 = 9.",
        "=\u00c9tape 1 : 2k + 1 = 9.\n\u00c9tape 2 : 2k = 8.\n\u00c9tape 3 : k = 4.",
    ),
    # Declined, conservatively: a part of "step-by-step" may say how the answer is laid out.
    # The oracle's answer is the plain solution, so the model's is served, as it should be.
    ("Instead of a JSON object for a step-by-step, solve 3m - 2 = 10.", ""),
    # -- the grammar declines these already (guards) --
    # An em dash attachment after the dismissal: the answer in French.
    (
        "Instead of JSON, solve 2k + 1 = 9 — in French.",
        "=Étape 1 : 2k + 1 = 9.\nÉtape 2 : 2k = 8.\nÉtape 3 : k = 4.",
    ),
    # The same form as an earlier answer (unknown here).
    ("Instead of JSON, solve 2k + 1 = 9, same format as before.", "\n(as before)"),
    # "but keep the steps short".
    ("Instead of JSON, solve 2k + 1 = 9 but keep the steps short.", "=2k = 8, so k = 4."),
    # "and also check it".
    (
        "Instead of JSON, solve 3m - 2 = 10 and also check it.",
        "\nCheck: 3 * 4 - 2 = 10.",
    ),
    # "Instead of not JSON" asks for JSON.
    ("Instead of not JSON, solve 2k + 1 = 9.", '={"k": 4}'),
    # "Do not skip the JSON" asks for JSON.
    ("Do not skip the JSON output: solve 2k + 1 = 9.", '={"k": 4}'),
    # A second request after the first dismissal, for the keys the dismissed JSON named.
    (
        'Instead of a JSON object with the keys "k squared" and "k cubed", solve 2k + 1 = 9 and'
        " give those.",
        "\n\nk squared: 16\nk cubed: 64",
    ),
    # A dismissal in a parenthesis does not end a sentence: "(for a recipe)" is not read past.
    (
        "Instead of JSON (for a recipe), solve 2k + 1 = 9 in French.",
        "=Étape 1 : 2k + 1 = 9.\nÉtape 2 : 2k = 8.\nÉtape 3 : k = 4.",
    ),
    # After a quoted markdown line asking for French.
    (
        "Instead of JSON, solve 2k + 1 = 9.\n\n> in French",
        "=Étape 1 : 2k + 1 = 9.\nÉtape 2 : 2k = 8.\nÉtape 3 : k = 4.",
    ),
]

# Requests that only rule JSON out: the canonical solution is the answer.
CONTROLS = [
    # A topic and nothing else.
    "Instead of a JSON array for my packing list, solve 2k + 1 = 9 for k.",
    # Mixed case "jSoN".
    "Rather than jSoN, solve 3m - 2 = 10.",
    # A dismissal, a blank line, a question.
    "Forget the JSON object.\n\nWhat is m if 3m - 2 = 10?",
    # The dismissal after the equation.
    "Solve 5p + 3 = 18. Do not return JSON.",
    # Keys that are answer words, in backticks: they name the dismissed object's keys.
    "Instead of a JSON object with the keys `answer` and `steps`, solve 2k + 1 = 9.",
    # An exclamation mark closes the clause.
    "Never mind the JSON object about the garden! What is k in 2k + 1 = 9?",
    # "for now" is a topic word.
    "Forget the JSON for now; solve 3m - 2 = 10 for m.",
    # Two dismissals.
    "Forget the JSON. Do not return JSON. Solve 2k + 1 = 9.",
    # "answer in" as the verb.
    "Do not answer in JSON, solve 5p + 3 = 18 for p.",
    # A hyphenated topic word whose parts say nothing of the answer.
    "Instead of a JSON object for a to-do list, solve 3m - 2 = 10.",
    # Fields before "don't return JSON".
    "For a concert ticket with the fields `venue`, `row` and `seat_code`, don't return JSON:"
    " solve 3m - 2 = 10 for m.",
]

# (earlier turns, request, the oracle's answer after the steps): a turn before the request
# that says the form is read whole (a dismissal there is not read past).
EARLIER = [
    # A system prompt that dismisses JSON and asks for French.
    (
        ("Instead of JSON, answer in French.",),
        "Solve 2k + 1 = 9.",
        "=Étape 1 : 2k + 1 = 9.\nÉtape 2 : 2k = 8.\nÉtape 3 : k = 4.",
    ),
    # An earlier turn that fixes the form of every answer.
    (
        ("From now on, also give the square of the unknown.",),
        "Instead of JSON, solve 2k + 1 = 9.",
        "\n\nThe square of k is 16.",
    ),
]


def _name(number: int, request: str) -> str:
    """A short test id: the case's number and the request's first words."""
    return f"{number:02d}-" + "-".join(re.findall(r"[a-z0-9]+", request.lower())[:10])


ASKS_MORE_IDS = [_name(n, request) for n, (request, _) in enumerate(ASKS_MORE)]
CONTROL_IDS = [_name(n, request) for n, request in enumerate(CONTROLS)]
EARLIER_IDS = [_name(n, " ".join((*e, r))) for n, (e, r, _) in enumerate(EARLIER)]


def _answer(request: str, oracle: str) -> str:
    """The oracle's answer: ``oracle`` after the correct steps, or ``oracle[1:]`` alone when
    it starts with "="."""
    if oracle.startswith("="):
        return oracle[1:]
    return solve_steps(request) + oracle


def _related(request: str) -> str:
    """The bare request for the same equation: cached first."""
    equation = parse_equation(request)
    assert equation is not None
    return f"Solve {equation.text} for {equation.variable}."


def _serve(wrapper: str, earlier: tuple[str, ...], request: str, answer: str) -> str:
    """What ``wrapper`` serves for ``request`` (after ``earlier`` system turns) once the related
    bare request is cached, through a fresh cache and an oracle."""
    first = _related(request)
    book = AnswerBook({first: solve_steps(first), request: answer})
    if wrapper == "langchain":
        chat = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())
        chat.invoke(first)
        turns = [("system", text) for text in earlier] + [("human", request)]
        message = chat.invoke(turns if earlier else request)
        served, meta = str(message.content), message.response_metadata["stepcache"]
    else:
        llama = LlamaStepCacheLLM(llm=book.llama_llm(), step_cache=StepCache())
        llama.complete(first)
        if earlier:
            messages = [ChatMessage(role="system", content=text) for text in earlier]
            messages.append(ChatMessage(role="user", content=request))
            reply = llama.chat(messages)
            served, meta = str(reply.message.content), reply.additional_kwargs["stepcache"]
        else:
            response = llama.complete(request)
            served, meta = response.text, response.additional_kwargs["stepcache"]
    return served if served.split() == answer.split() else f"{served}\n-- {meta}"


def _wrong(cache: StepCache, request: str, earlier: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    model = PlainModel(lambda prompt, call: solve_steps(prompt, wrong=True))
    options = {EARLIER_TURNS: list(earlier)} if earlier else {}
    return model, model.ask(cache, request, options=options)


def _exact() -> StepCache:
    # Threshold 1.0: every request is a miss; the answer to the request itself is tested.
    return StepCache(policy=Policy(similarity_threshold=1.0, adaptive_answers=False))


def _stopped() -> StepCache:
    """A cache whose outlook has stopped asking this model for equations (eight failures)."""
    cache = StepCache(policy=Policy(similarity_threshold=1.0, adaptive_answers=True))
    for n in range(2, 10):
        _wrong(cache, f"Solve {n}x + 7 = {n * 3 + 7} for x.")
    return cache


WRAPPERS = ["langchain", "llama_index"]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize(("request_text", "oracle"), ASKS_MORE, ids=ASKS_MORE_IDS)
def test_the_oracles_answer_is_served_when_the_request_asks_more(
    wrapper: str, request_text: str, oracle: str
) -> None:
    answer = _answer(request_text, oracle)
    assert _serve(wrapper, (), request_text, answer) == answer


@pytest.mark.parametrize(("request_text", "oracle"), ASKS_MORE, ids=ASKS_MORE_IDS)
def test_a_wrong_model_answer_is_flagged_not_replaced_by_the_solver(
    request_text: str, oracle: str
) -> None:
    _, result = _wrong(_exact(), request_text)
    assert not result.record.fallback, result.text
    assert result.record.passed is False


@pytest.mark.parametrize(("request_text", "oracle"), ASKS_MORE, ids=ASKS_MORE_IDS)
def test_a_stopped_outlook_still_asks_the_model_when_the_request_asks_more(
    request_text: str, oracle: str
) -> None:
    _, result = _wrong(_stopped(), request_text)
    assert result.record.model_calls >= 1, result.record.reason
    assert not result.record.fallback, result.text
    assert result.record.passed is False


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("request_text", CONTROLS, ids=CONTROL_IDS)
def test_a_plain_dismissal_is_served_the_oracles_answer(wrapper: str, request_text: str) -> None:
    answer = solve_steps(request_text)
    assert _serve(wrapper, (), request_text, answer) == answer


@pytest.mark.parametrize("request_text", CONTROLS, ids=CONTROL_IDS)
def test_a_plain_dismissal_gets_the_solvers_answer(request_text: str) -> None:
    _, result = _wrong(_exact(), request_text)
    equation = parse_equation(request_text)
    assert equation is not None
    assert result.record.passed and result.record.fallback
    assert result.text.rstrip().rstrip(".").endswith(f"{equation.variable} = {equation.solution}")


@pytest.mark.parametrize("request_text", CONTROLS, ids=CONTROL_IDS)
def test_a_plain_dismissal_is_solved_without_a_call_once_the_outlook_stops(
    request_text: str,
) -> None:
    _, result = _wrong(_stopped(), request_text)
    equation = parse_equation(request_text)
    assert equation is not None
    assert result.record.model_calls == 0 and result.record.passed
    assert result.text.rstrip().rstrip(".").endswith(f"{equation.variable} = {equation.solution}")


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize(("earlier", "request_text", "oracle"), EARLIER, ids=EARLIER_IDS)
def test_a_turn_before_the_request_is_read_whole(
    wrapper: str, earlier: tuple[str, ...], request_text: str, oracle: str
) -> None:
    answer = _answer(request_text, oracle)
    assert _serve(wrapper, earlier, request_text, answer) == answer


@pytest.mark.parametrize(("earlier", "request_text", "oracle"), EARLIER, ids=EARLIER_IDS)
def test_a_turn_before_the_request_keeps_the_models_answer(
    earlier: tuple[str, ...], request_text: str, oracle: str
) -> None:
    _, result = _wrong(_exact(), request_text, earlier)
    assert not result.record.fallback, result.text
    assert result.record.passed is False
