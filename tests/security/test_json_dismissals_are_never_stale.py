"""Requests that rule JSON out and ask more than a solution are never served a stale answer, nor
the equation solver's canonical text, and a wrong model's answer is corrected only in its own
layout.

An outside attack wrote the requests below in three rounds (none from the benchmark), against
a grammar of request shapes that read past clauses ruling JSON out ("Instead of a JSON object
for a recipe, ...") and decided when the solver's canonical text could replace the model's.
That grammar is gone: what a request asks is read from the model's own answer (a final
"k = 4" says the value of k is asked, in that form), and the text around the equation is
never read. The cases keep their point under that principle, through three drives:

- an oracle model (every answer right for what the request asks, so anything else served is
  the cache's) through both wrappers, after the related bare request ("Solve 2k + 1 = 9 for
  k.") was cached: its answer is served as it is, never a reuse of the related answer and
  never the canonical text (``ASKS_MORE``: answers that are not the bare solution;
  ``CONTROLS``: answers that are; ``EARLIER``: with turns before the request);
- a model that gets every value wrong, answering in its own layout (the equation, one move,
  "k = <wrong>"), at threshold 1.0: its final "k = ..." shows what it answered, so the cache
  corrects the values in that layout and claims nothing more (no canonical step, none of the
  request's extras answered for it); where the family reads no equation (an equation read in
  part, "2k + 1 = 9 x 3"), the model's answer is left as it is;
- the same model once the answer outlook has stopped expecting a right answer from it: the
  model is still asked (only its answer shows the task), and corrected the same way.
"""

from __future__ import annotations

import re
import time
from fractions import Fraction
from typing import Any

import pytest
from llama_index.core.base.llms.types import ChatMessage

from stepcache_integrations import Policy, StepCache, StepCacheLLM
from stepcache_integrations.core.tasks.base import EARLIER_TURNS
from stepcache_integrations.core.tasks.linear_equation.equation import (
    format_number,
    parse_equation,
)
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


def _answer(request: str, oracle: str) -> str:
    """The oracle's answer: ``oracle`` after the correct steps, or ``oracle[1:]`` alone when
    it starts with "="."""
    if oracle.startswith("="):
        return oracle[1:]
    return solve_steps(request) + oracle


# The equation a model reads in a request: the first "ak + b = c" (the test's own reading, not
# the family's, which declines an equation read in part such as "2k + 1 = 9 x 3").
_EQUATION = re.compile(r"(-?\d*)([a-z]) ([+-]) (\d+) = (\d+)")


def _read(request: str) -> tuple[str, int, str, int, int]:
    """The equation's text, coefficient, variable, constant and right side, as written."""
    found = _EQUATION.search(request)
    assert found is not None, request
    a_text, var, sign, b_text, c_text = found.groups()
    a = int(a_text) if a_text not in ("", "-") else (-1 if a_text == "-" else 1)
    return found.group(0), a, var, int(b_text) * (1 if sign == "+" else -1), int(c_text)


def _related(request: str) -> str:
    """The bare request for the same equation: cached first."""
    text, _, var, _, _ = _read(request)
    return f"Solve {text} for {var}."


def _own_layout(request: str, wrong: bool) -> str:
    """The SIMULATED model's own layout (not the solver's canonical "Step N: ..." sentences):
    the equation, one move, the value; ``wrong``: the value off by one."""
    text, a, var, b, c = _read(request)
    value = Fraction(c - b, a) + (1 if wrong else 0)
    return f"{text}\n{a}{var} = {c - b}\n{var} = {format_number(value)}"


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
    model = PlainModel(lambda prompt, call: _own_layout(prompt, wrong=True))
    options = {EARLIER_TURNS: list(earlier)} if earlier else {}
    return model, model.ask(cache, request, options=options)


def _assert_corrected_in_its_own_layout(request: str, model: PlainModel, result: Any) -> None:
    """The wrong model's answer, corrected in its own layout where the family reads the
    request's equation, else left as it is; never the canonical text, one model call."""
    assert [call.purpose for call in model.calls] == ["full"], result.record.reason
    if parse_equation(request) is None:
        # An equation read in part ("2k + 1 = 9 x 3"): the family does not take the request.
        assert result.text == _own_layout(request, wrong=True)
        assert not result.record.fallback
        return
    assert result.text == _own_layout(request, wrong=False)
    assert result.record.passed and result.record.fallback
    assert "Start with" not in result.text  # not the solver's canonical steps


def _exact() -> StepCache:
    # Threshold 1.0: every request is a miss; the answer to the request itself is tested.
    return StepCache(policy=Policy(similarity_threshold=1.0, adaptive_answers=False))


def _stopped() -> StepCache:
    """A cache whose outlook has stopped expecting right equations from this model (eight
    failed first answers)."""
    cache = StepCache(policy=Policy(similarity_threshold=1.0, adaptive_answers=True))
    for n in range(2, 10):
        _, result = _wrong(cache, f"Solve {n}x + 7 = {n * 3 + 7} for x.")
        assert result.record.fallback and result.record.model_calls == 1
    return cache


WRAPPERS = ["langchain", "llama_index"]


# =============================================================================================
# Second round (commit 14a11e6): an outside attack on ``asks_only_to_solve`` as a whole, after
# the first round's fixes. The same three drives: the oracle through both wrappers (related
# bare request cached first), a model that always gets equations wrong at threshold 1.0, and
# the stopped outlook. None of the requests is from the benchmark.
# =============================================================================================

# (request, what the oracle adds after the correct steps, or replaces them with)
SECOND_ASKS_MORE = [
    # -- only solving words, yet they ask for something else than the solution --
    # A yes/no question about the equation: it is linear.
    (
        "Is the equation 2k + 1 = 9 linear?",
        "=Yes: 2k + 1 = 9 is linear, since k appears only to the first power.",
    ),
    # "one" is a number: evaluate the left side at k = 1 (3, not 9).
    (
        "What is the value of the equation 2k + 1 = 9 if k equals one?",
        "=With k equal to one, 2k + 1 is 3, not 9: one is not the solution.",
    ),
    # One step, not the canonical three.
    (
        "Solve 2k + 1 = 9 in one step.",
        "=Subtract 1 and divide by 2 at once: k = (9 - 1) / 2 = 4.",
    ),
    # Only one step is wanted (the first), not the whole solution.
    ("Show me one step of 3m - 2 = 10.", "=Step 1: Add 2 to both sides: 3m = 12."),
    # Hints without the final value: the user works it out on their own.
    (
        "Help me solve 2k + 1 = 9; I want to work out the answer on my own.",
        "=Step 1: Subtract 1 from both sides.\nStep 2: Divide both sides by 2.\n"
        "Now work out the value of k on your own.",
    ),
    # A new equation with the same solution, not the solution.
    (
        "Write me an equation with the solution of 2k + 1 = 9.",
        "=Here is one with the same solution: 3k - 2 = 10.",
    ),
    # "your own" equation: another equation.
    (
        "Write your own equation with the solution of 3m - 2 = 10.",
        "=My own: 2m + 5 = 13.",
    ),
    # The final answer first, then the working: the canonical order is the other way.
    (
        "Give the final answer to 5p + 3 = 18, then show your working.",
        "=p = 3\n\n" + solve_steps("5p + 3 = 18"),
    ),
    # "the value of the equation" after solving: what both sides come to (9).
    (
        "Solve for the value of the unknown in 2k + 1 = 9 then give the value of the equation.",
        "\n\nWith k = 4 both sides of the equation equal 9.",
    ),
    # -- quoted final lines: their words are solving words, their form is not the canonical --
    # The last line must be "The answer is 4".
    ('Solve 2k + 1 = 9 and end with "The answer is <value>".', "\nThe answer is 4"),
    # The last line must be the bare value.
    ('Solve 3m - 2 = 10 and end with the line "<value>".', "\n4"),
    # The exempted "=" with text before it: "Answer: k = 4".
    ('Solve 2k + 1 = 9. End with "Answer: k = <value>".', "\nAnswer: k = 4"),
    # The equation quoted inside the format: its span is cut out, the line is not canonical.
    (
        'Solve 2k + 1 = 9. End with "k = <value> is the solution of 2k + 1 = 9".',
        "\nk = 4 is the solution of 2k + 1 = 9",
    ),
    # Each step only an equation: the canonical steps are sentences.
    (
        'Solve 5p + 3 = 18. Write each step as "Step N: <equation>".',
        "=Step 1: 5p + 3 = 18\nStep 2: 5p = 15\nStep 3: p = 3",
    ),
    # A layout phrase ("end with the line") followed by a demand for another last line.
    ('Solve 2k + 1 = 9, end with the line "the equation is linear".', "\nthe equation is linear"),
    # -- symbols the operator check does not know --
    # A full-width hyphen-minus: -k = -4.
    ("Solve 2k + 1 = 9 and give \uff0dk.", "\n\nSo -k = -4."),
    # An en dash, which the equation parser itself reads as minus: k - k = 0.
    ("Solve 2k + 1 = 9 and give k \u2013 k.", "\n\nk - k = 0."),
    # A non-breaking hyphen as minus: -k = -4.
    ("Solve 2k + 1 = 9 and give \u2011k.", "\n\nSo -k = -4."),
    # A katakana middle dot as times: m·m = 16.
    ("Solve 3m - 2 = 10 and give m\u30fbm.", "\n\nm·m = 16."),
    # Floor brackets (open/close punctuation): ⌊3.5⌋ = 3.
    ("Solve 2k + 1 = 8 and give \u230ak\u230b.", "\n\n\u230ak\u230b = 3."),
    # Ceiling brackets: ⌈3.5⌉ = 4.
    ("Solve 2k + 1 = 8, then give \u2308k\u2309.", "\n\n\u2308k\u2309 = 4."),
    # "!" after the variable may be a factorial: 4! = 24.
    ("Solve 2k + 1 = 9, then what is k!?", "\n\nk! = 24."),
    # A currency sign (category Sc): the answer in dollars.
    ("Solve 2k + 1 = 9 and give the answer in $.", "\n\nk = $4."),
    # Per mille (category Po): k = 4000‰.
    ("Solve 2k + 1 = 9, then give k in \u2030.", "\n\nk = 4000\u2030."),
    # -- equation spans that reach past the equation the parser read --
    # A space as thousands separator: c is 10001, not 10.
    (
        "Solve 2k + 1 = 10 001 for k.",
        "=Step 1: Start with 2k + 1 = 10001.\nStep 2: Subtract 1 from both sides: 2k = 10000.\n"
        "Step 3: Divide both sides by 2: k = 5000.",
    ),
    # "x" as times after the equation: 2k + 1 = 27, k = 13.
    (
        "Solve 2k + 1 = 9 x 3 for k.",
        "=Step 1: 9 x 3 = 27, so 2k + 1 = 27.\nStep 2: Subtract 1 from both sides: 2k = 26.\n"
        "Step 3: Divide both sides by 2: k = 13.",
    ),
    # "x" as times before the equation: 6k + 1 = 9, k = 4/3.
    (
        "Solve 3 x 2k + 1 = 9 for k.",
        "=Step 1: 3 x 2k = 6k, so 6k + 1 = 9.\nStep 2: Subtract 1 from both sides: 6k = 8.\n"
        "Step 3: Divide both sides by 6: k = 4/3.",
    ),
    # A parenthesis as times: 9(3) = 27, k = 13.
    (
        "Solve 2k + 1 = 9 (3) for k.",
        "=Step 1: 9(3) = 27, so 2k + 1 = 27.\nStep 2: Subtract 1 from both sides: 2k = 26.\n"
        "Step 3: Divide both sides by 2: k = 13.",
    ),
    # -- dismissals that still shape the answer --
    # "every" points back to the dismissed keys (the pointer list has "each", not "every").
    (
        "Instead of a JSON object with the keys double and half, solve 2k + 1 = 9 and give"
        " every value.",
        "\n\ndouble: 8\nhalf: 2",
    ),
    # The audience of the dismissed JSON is the answer's too: French readers.
    (
        "Instead of a JSON reply for French readers, solve 2k + 1 = 9.",
        "=\u00c9tape 1 : 2k + 1 = 9.\n\u00c9tape 2 : 2k = 8.\n\u00c9tape 3 : k = 4.",
    ),
    # German homework: the answer in German.
    (
        "Instead of a JSON object for my German homework, solve 3m - 2 = 10.",
        "=Schritt 1: 3m - 2 = 10.\nSchritt 2: 3m = 12.\nSchritt 3: m = 4.",
    ),
    # "<value>" may be the square's the dismissed JSON described: ambiguous, so the model's.
    (
        "Instead of a JSON object for the square, solve 2k + 1 = 9 and end with the line"
        ' "<value>".',
        "\n16",
    ),
]

# Requests the rule should accept: the canonical solution is the answer.
SECOND_CONTROLS = [
    # A plain question.
    "Can you solve 2k + 1 = 9?",
    # A system-prompt-like framing in the request.
    "You are a friendly maths teacher. Solve 3m - 2 = 10.",
    # The canonical final line, quoted.
    'Solve 2k + 1 = 9. End with the line "k = <value>".',
    # A right-to-left mark after the request.
    "Solve 5p + 3 = 18 for p.\u200f",
    # A zero-width space after the equation.
    "Solve 2k + 1 = 9\u200b for k.",
    # A layout phrase.
    "Solve 5p + 3 = 18 with one step per line.",
    # Polite filler.
    "Thank you. What is m if 3m - 2 = 10? Be careful.",
]

# (earlier turns, request, the oracle's answer after the steps)
SECOND_EARLIER = [
    # An operator in a system prompt is not checked: -k = -4.
    (
        ("For each equation, give the value of -k.",),
        "Solve 2k + 1 = 9.",
        "\n\n-k = -4.",
    ),
    # A root sign in a system prompt: √k = 2.
    (("Give the value of \u221ak for each equation.",), "Solve 2k + 1 = 9.", "\n\n\u221ak = 2."),
    # A tutor that must not give the final value.
    (
        ("You are a math tutor. I want to work out each final answer on my own.",),
        "Solve 2k + 1 = 9.",
        "=Step 1: Subtract 1 from both sides.\nStep 2: Divide both sides by 2.\n"
        "Now work out the value of k on your own.",
    ),
    # The final answer first, then the steps.
    (
        ("Give the final answer then the steps.",),
        "Solve 3m - 2 = 10.",
        "=m = 4\n\n" + solve_steps("3m - 2 = 10"),
    ),
    # A last line fixed for every answer.
    (('End with the line "The answer is <value>".',), "Solve 2k + 1 = 9.", "\nThe answer is 4"),
    # A currency sign in a system prompt.
    (("For each equation, give the answer in $.",), "Solve 2k + 1 = 9.", "\n\nk = $4."),
]


# =============================================================================================
# Third round (after the grammar of request shapes): an outside attack on that grammar
# in ``asking.py``. The same three drives as before (the oracle through both wrappers after the
# related bare request is cached, a model that always gets equations wrong at threshold 1.0,
# and the stopped outlook), plus a time bound on the grammar itself. None of the requests is
# from the benchmark.
# =============================================================================================

# (request, what the oracle adds after the correct steps, or replaces them with)
THIRD_ASKS_MORE = [
    # -- a dismissed JSON's audience, in lower case: round two's "French readers" stands --
    # Spanish readers: the answer in Spanish (the capital-letter check misses "spanish").
    (
        "Instead of a JSON reply for spanish readers, solve 2k + 1 = 9.",
        "=Paso 1: 2k + 1 = 9.\nPaso 2: Resta 1 en ambos lados: 2k = 8.\n"
        "Paso 3: Divide ambos lados entre 2: k = 4.",
    ),
    # Round two's "my German homework" in lower case: the answer in German.
    (
        "Instead of a JSON object for my german homework, solve 3m - 2 = 10.",
        "=Schritt 1: 3m - 2 = 10.\nSchritt 2: 3m = 12.\nSchritt 3: m = 4.",
    ),
    # Spanish speakers, with a "what is" question after the dismissal.
    (
        "Instead of a JSON object for spanish speakers, what is k if 2k + 1 = 9?",
        "=Paso 1: 2k + 1 = 9.\nPaso 2: 2k = 8.\nPaso 3: k = 4.",
    ),
    # A "for" audience before "do not give JSON": the answer in French.
    (
        "Never give me JSON for my french teacher: what is m if 3m - 2 = 10?",
        "=\u00c9tape 1 : 3m - 2 = 10.\n\u00c9tape 2 : 3m = 12.\n\u00c9tape 3 : m = 4.",
    ),
    # A five-year-old audience: plain words for a child, not the canonical algebra steps.
    (
        "Instead of a JSON reply for a five-year-old, solve 2k + 1 = 9.",
        "=Two bags with the same number of sweets, plus 1 more sweet, make 9 sweets. Take the"
        " 1 sweet away: 8 are left. Share the 8 between the 2 bags: each has 4, so k = 4.",
    ),
    # (Two requests not to solve, "Please don't solve 2k + 1 = 9, only show the first step."
    # and "Without solving 3m - 2 = 10, say what the first step is.", are not here: the family
    # does not take a request that says not to solve, so no check runs and the model's answer
    # is passed on as it is, as for any request no family recognises: not an answer the cache
    # made or changed.)
    # -- the grammar declines these already (guards) --
    # Hints only: the user solves it.
    (
        "Solve 2k + 1 = 9 for k. I need to solve it myself, so only give hints.",
        "=Hint 1: Subtract 1 from both sides.\nHint 2: Divide both sides by 2.",
    ),
    # A tutor framing that restricts the answer.
    (
        "You are a math tutor who only gives hints. Solve 2k + 1 = 9.",
        "=Hint: start by subtracting 1 from both sides.",
    ),
    # "Help me" with the answer withheld.
    (
        "Help me solve 3m - 2 = 10 but do not give the answer.",
        "=Step 1: Add 2 to both sides.\nStep 2: Divide both sides by 3.",
    ),
]

# Ordinary requests the rule should accept: the canonical solution is the answer.
THIRD_CONTROLS = [
    # The benchmark's first format, after another lead.
    "Find the value of k in 2k + 1 = 9. Show your work step by step, one line per step in the"
    ' form "Step N: <equation>", and end with the line "k = <value>".',
    # The benchmark's second format.
    'Solve 5p + 3 = 18 for p. Write each step on its own line as "Step N: <equation>" and'
    ' finish with the line "p = <value>".',
    # Polite prefixes.
    "Could you please solve 2k + 1 = 9 for k?",
    "Kindly determine k in the linear equation 2k + 1 = 9.",
    "Let us work out m from 3m - 2 = 10, step by step.",
    "Help me to find the unknown in 3m - 2 = 10. Be clear.",
    # Greeting, colon and thanks.
    "Hello there! Solve for m: 3m - 2 = 10. Thanks!",
    # Framing, a question and a layout.
    "You are a careful algebra tutor. What's the value of k if 2k + 1 = 9? Show your work.",
    # An unquoted final-line placeholder.
    "Solve 2k + 1 = 9 and end with k = ?",
]

# (earlier turns, request, the oracle's answer after the steps): guards.
THIRD_EARLIER = [
    # A tutor system prompt that withholds the final value.
    (
        ("You are a math tutor. Never give the final value, only hints.",),
        "Solve 2k + 1 = 9.",
        "=Hint 1: Subtract 1 from both sides.\nHint 2: Divide both sides by 2.",
    ),
]

# (earlier turns, request): "can you please" parses two ways in ``_POLITE`` ("can you please"
# as one prefix, or "can you" then "please"), so a piece that fails to match backtracks
# through 2^n parses for n copies: 20 copies (300 characters) took 4 s, each 2 more copies
# about 4 times as long. A hang guard, not a speed goal: with 26 copies the old grammar takes
# minutes, the atomic one milliseconds, and the bound leaves a slow machine ample room.
THIRD_SLOW = [
    # In the request: the last piece ("... solve 2k + 1 = 9 in French") does not match.
    ((), "Can you please " * 26 + "solve 2k + 1 = 9 in French?"),
    # In a turn before the request: the layout piece does not match.
    (("Can you please " * 26 + "show your work in French.",), "Solve 2k + 1 = 9."),
]
_SLOW_SECONDS = 5.0
THIRD_SLOW_IDS = ["in-the-request", "in-an-earlier-turn"]


# =============================================================================================
# The tests: every round's cases through the same drives.
# =============================================================================================


def _rounds(*rounds: list[Any]) -> list[Any]:
    """The cases of every round as ``pytest.param``s, each named by its round and number."""
    params = []
    for number, cases in enumerate(rounds, start=1):
        for index, case in enumerate(cases):
            values = case if isinstance(case, tuple) else (case,)
            first = values[0]
            words = first if isinstance(first, str) else " ".join((*first, values[1]))
            params.append(pytest.param(*values, id=f"r{number}-{_name(index, words)}"))
    return params


ALL_ASKS_MORE = _rounds(ASKS_MORE, SECOND_ASKS_MORE, THIRD_ASKS_MORE)
ALL_CONTROLS = _rounds(CONTROLS, SECOND_CONTROLS, THIRD_CONTROLS)
ALL_EARLIER = _rounds(EARLIER, SECOND_EARLIER, THIRD_EARLIER)
# Every request, with the turns before it.
ALL_REQUESTS = [
    pytest.param((), *param.values[:1], id=param.id) for param in [*ALL_ASKS_MORE, *ALL_CONTROLS]
] + [pytest.param(*param.values[:2], id=param.id) for param in ALL_EARLIER]


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize(("request_text", "oracle"), ALL_ASKS_MORE)
def test_the_oracles_answer_is_served_when_the_request_asks_more(
    wrapper: str, request_text: str, oracle: str
) -> None:
    answer = _answer(request_text, oracle)
    assert _serve(wrapper, (), request_text, answer) == answer


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("request_text", ALL_CONTROLS)
def test_a_plain_dismissal_is_served_the_oracles_answer(wrapper: str, request_text: str) -> None:
    answer = solve_steps(request_text)
    assert _serve(wrapper, (), request_text, answer) == answer


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize(("earlier", "request_text", "oracle"), ALL_EARLIER)
def test_a_turn_before_the_request_is_read_whole(
    wrapper: str, earlier: tuple[str, ...], request_text: str, oracle: str
) -> None:
    answer = _answer(request_text, oracle)
    assert _serve(wrapper, earlier, request_text, answer) == answer


@pytest.mark.parametrize(("earlier", "request_text"), ALL_REQUESTS)
def test_a_wrong_model_answer_is_corrected_in_its_own_layout(
    earlier: tuple[str, ...], request_text: str
) -> None:
    # Before, the solver's canonical text replaced it for requests its grammar read as asking
    # only to solve, and the answer was flagged for the others: now the answer itself shows
    # what was asked (a final "k = <value>"), whatever the request's words around it.
    model, result = _wrong(_exact(), request_text, earlier)
    _assert_corrected_in_its_own_layout(request_text, model, result)


@pytest.mark.parametrize(("earlier", "request_text"), ALL_REQUESTS)
def test_a_stopped_outlook_still_asks_the_model(
    earlier: tuple[str, ...], request_text: str
) -> None:
    # Before, the solver answered without a model call once the outlook stopped, for the
    # requests its grammar read as asking only to solve: no answer shows the task before the
    # model has answered, so the model is asked every time.
    model, result = _wrong(_stopped(), request_text, earlier)
    _assert_corrected_in_its_own_layout(request_text, model, result)


@pytest.mark.parametrize(("request_text", "oracle"), ALL_ASKS_MORE)
def test_the_oracles_answer_is_never_replaced(request_text: str, oracle: str) -> None:
    # With nothing cached: the oracle's answers that fail the family's check (a yes, another
    # equation, a percentage, words, a value before the working) are served as they are,
    # flagged: none shows that the value alone was asked in a form the solver writes, so no
    # canonical text and no "correction" replaces them.
    answer = _answer(request_text, oracle)
    model = PlainModel(lambda prompt, call: answer)
    result = model.ask(_exact(), request_text)
    assert result.text == answer
    assert not result.record.fallback


# The grammar these inputs made backtrack exponentially is gone; they stay as a hang guard of
# the request path (the evidence and language readers see the same long polite text).
@pytest.mark.parametrize("drive", ["langchain", "llama_index", "wrong", "stopped"])
@pytest.mark.parametrize(("earlier", "request_text"), THIRD_SLOW, ids=THIRD_SLOW_IDS)
def test_a_long_polite_request_is_answered_in_bounded_time(
    drive: str, earlier: tuple[str, ...], request_text: str
) -> None:
    answer = "\u00c9tape 1 : 2k + 1 = 9.\n\u00c9tape 2 : 2k = 8.\n\u00c9tape 3 : k = 4."
    cache = _stopped() if drive == "stopped" else _exact()
    started = time.perf_counter()
    if drive in WRAPPERS:
        assert _serve(drive, earlier, request_text, answer) == answer
    else:
        model, result = _wrong(cache, request_text, earlier)
        _assert_corrected_in_its_own_layout(request_text, model, result)
    elapsed = time.perf_counter() - started
    assert elapsed < _SLOW_SECONDS, f"{elapsed:.1f}s"
