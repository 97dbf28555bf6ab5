"""The sound-reuse harness itself: the judge tells a stale answer from a right one, and the
oracle answers the cache's follow-up calls as a correct model would."""

from __future__ import annotations

import pytest

from tests.security.sound_reuse.oracle import (
    PATHS,
    Answer,
    Oracle,
    Request,
    Turn,
    UnknownRequest,
    canonical_args,
    judge,
    parse_case,
)
from tests.security.sound_reuse.paths import run


def calls(*pairs: tuple[str, dict[str, object]]) -> tuple[tuple[str, str], ...]:
    return tuple((name, canonical_args(args)) for name, args in pairs)


def test_the_judge_flags_a_stale_part_and_accepts_layout_and_number_spelling() -> None:
    right = Answer("2 books cost $36.\n\nSam pays $42.")
    assert judge("text", Answer("2 books cost $36.  Sam pays $42."), right) is None
    assert judge("text", Answer("2 books cost $36.\n\nSam pays $36."), right) is not None
    assert judge("text", Answer("x = 5.50"), Answer("x = 5.5")) is None
    json_right = Answer('{"planet": "Neptune", "moon_count": 16}')
    assert (
        judge("json", Answer('```json\n{"moon_count": 16, "planet": "Neptune"}\n```'), json_right)
        is None
    )
    assert judge("json", Answer('{"planet": "Neptune", "moon_count": 2}'), json_right) is not None
    wire = Answer(calls=calls(("wire_transfer", {"recipient": "Alice", "amount": 900})))
    stale = Answer(calls=calls(("send_payment", {"recipient": "Alice", "amount": 900})))
    assert judge("tool_calls", stale, wire) is not None
    assert judge("tool_calls", Answer(calls=wire.calls), wire) is None


def test_the_packages_own_answer_is_judged_by_its_result_and_its_carried_lines() -> None:
    cached = Answer("Step 1: Subtract 9 from both sides: 2x = 6.\nSo x = 3, which is positive.")
    expected = Answer("Step 1: Subtract 9 from both sides: 2x = -4.\nSo x = -2, which is negative.")
    fresh = Answer("Step 1: Start with 2x + 9 = 5.\nStep 2: Divide both sides by 2: x = -2.")
    assert judge("equation", fresh, expected, cached=cached, own=True) is None
    carried = Answer(fresh.text + "\nSo x = -2, which is positive.")
    assert judge("equation", carried, expected, cached=cached, own=True) is not None
    wrong_result = Answer("Step 1: Divide both sides by 2: x = 3.")
    assert judge("equation", wrong_result, expected, cached=cached, own=True) is not None
    assert judge("equation", fresh, expected, cached=cached, own=False) is not None


def test_the_oracle_answers_follow_up_calls_correctly() -> None:
    request = Request((Turn.of("user", "Solve it."),))
    full = "Step 1: a.\nStep 2: b.\nStep 3: c."
    oracle = Oracle({request: Answer(full)})
    assert oracle.answer(request).text == full
    shown = "Step 1: a.\nStep 2: b."
    patch = Request(
        (
            *request.turns,
            Turn.of("assistant", shown),
            Turn.of("user", "... Continue the answer: ..."),
        )
    )
    assert oracle.answer(patch).text.strip() == "Step 3: c."
    repair = Request((*request.turns, Turn.of("assistant", "junk"), Turn.of("user", "Fix it.")))
    assert oracle.answer(repair).text == full
    obj = Request((Turn.of("user", "JSON please."),))
    oracle = Oracle({obj: Answer('{"a": 1, "b": "x", "c": true}')})
    partial = Request(
        (
            *obj.turns,
            Turn.of(
                "user",
                'Return only a JSON object with the keys "b", "c" and '
                "their values for this request, and no other text.",
            ),
        )
    )
    assert oracle.answer(partial).text == '{"b": "x", "c": true}'
    with pytest.raises(UnknownRequest):
        oracle.answer(Request((Turn.of("user", "Something else."),)))


@pytest.mark.parametrize("path", PATHS)
def test_every_path_serves_the_same_request_from_its_cache(path: str) -> None:
    """Each path really goes through a StepCache: the second wording of the same request is an
    exact hit there (decision ``exact``, the first answer stored), served right."""
    case = parse_case(
        {
            "id": "harness-same-request",
            "class": "harness",
            "paths": [path],
            "cached": {
                "prompt": "Please explain what DNS does.",
                "answer": "DNS translates domain names into IP addresses.",
            },
            "new": {
                "prompt": "Explain what DNS does.",
                "answer": "DNS translates domain names into IP addresses.",
            },
        }
    )
    served = run(case, path)
    assert [(s.side, s.wrong) for s in served] == [("cached", None), ("new", None)]
    assert served[0].stored
    assert served[1].decision == "exact"


def test_the_stream_path_judges_what_the_stream_delivered() -> None:
    """``langchain_stream`` joins the chunks of ``StepCacheLLM.stream``: a stale reuse
    streamed is judged like one returned by ``invoke``."""
    row = {
        "id": "harness-stream",
        "class": "harness",
        "paths": ["langchain", "langchain_stream"],
        "cached": {
            "prompt": "A baker makes 24 rolls and sells 15 of them. How many rolls are left?",
            "answer": "24 - 15 = 9.\n\n9 rolls are left.",
        },
        "new": {
            "prompt": "A baker makes 30 rolls and sells 12 of them. How many rolls are left?",
            "answer": "30 - 12 = 18.\n\n18 rolls are left.",
        },
    }
    invoked = run(parse_case(row), "langchain")
    streamed = run(parse_case(row), "langchain_stream")
    assert [(s.decision, s.wrong) for s in streamed] == [(s.decision, s.wrong) for s in invoked]
    assert streamed[1].decision == "reuse" and streamed[1].wrong is None
