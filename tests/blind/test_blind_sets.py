"""The blind sets through the real cache: no wrong answer, and reuse no lower than measured.

Each family's set was written by someone who never read the families' code (see the README
beside each ``cases.jsonl``), with the answers of an ORACLE model; the model behind the cache
here is SIMULATED from those answers (:mod:`tests.blind.harness`), so anything wrong that comes
out was made by the cache. Soundness is absolute: no wrong answer on any case. Recall
(servable cases served without a full answer) is held at the level measured when the set was
committed, as a floor that can only rise; the issues' goals are printed beside it.

Set A (``equations``, ``json``, ``tools``, ``word``) was measured on during development: a
rule tuned to it proves nothing. Set B (``equations-b``, ``json-b``, ``word-b``), written
later by other authors, was kept unread until it was measured once for the release (two
regressions of the equations' correction were then diagnosed on it). Set C (``equations-c``)
was written later and measured once, blind. Set D (``equations-d``, ``json-d``, ``word-d``) was
written by new authors in the session of 2026-12-07 and measured before and after that session's
changes (its equation misses were then grouped by cause: it is no longer blind for the line-by-line
patch). None may be tuned to: a new rule needs a new set.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage

from tests.blind.harness import JUDGES, family_of, load, measure, report

# blind set -> (recall floor measured at commit, the goal of the issue). The JSON floors were
# lowered once (0.670 -> 0.625, 0.540 -> 0.528) by a soundness fix: a yes/no is the statement
# of a boolean only under the boolean's own key ("premium: no" beside {"trial_expired": false}
# was carried, and served wrong when it turned); the coincidental carries it cost go to the
# model. The equations-b floor was lowered once (0.760 -> 0.752, one case) by the round-6
# soundness fix: a line after the value that works it out with a number of the equation
# ("5 * 5 = 25", "5 + 20 = 25") is no check of it, since it may answer what a request asked
# in words ("what is x squared?"). The equations-b and -c floors were raised (0.811 -> 0.821,
# 0.659 -> 0.712) when an answer written line by line became a step a line: a partial
# re-instantiation is a patch instead of a skip. The four equation floors were raised (0.876
# -> 0.917, 0.821 -> 0.861, 0.712 -> 0.776, 0.648 -> 0.744) when a number of the working took
# the places its new value needs, words that state nothing about a value were kept, and a
# paragraph became a step a sentence; the same stop, the round-8 soundness fix took three
# equations-b cases back (words after the value that are not true of every solution may be a
# claim about it that answers what was asked: "So x is odd.", "Yes.", "Ja, x ist gerade.", so
# the solver no longer closes such an answer, nor corrects it: eqb-en-022 "(in whatever units
# your lab is using)", eqb-pt-010 "Boa prova!", eqb-pt-013 "Então o x vale 3." go to the model
# or stay flagged; corrected 0.950 -> 0.930). The floors are the merged code's measured figures.
# The json-d floor was lowered once (0.758 -> 0.747, one case) by the round-8 soundness fix: the
# text before a request's mention of JSON that writes a value may ask about it ("Tell me if Anna
# is an adult and make a JSON object for her, age 31"), so a line that takes it up is no side
# note (jd-pt-v10: "Aqui tens a encomenda em formato JSON:" takes up "encomenda" and goes to the
# model).
# The equations-b and -d floors were lowered (0.851 -> 0.821, 0.744 -> 0.712) and the corrected
# floors of equations, -b and -d (0.958 -> 0.948, 0.930 -> 0.891, 0.829 -> 0.787) by the
# round-8 fix of a dropped check (issue 33): the solver's continuation and the canonical
# fallback end at the value, and dropped what the answer said after it. Now those lines are
# carried over for the new value (re-instantiated, a check or the value said again written
# anew) or the model writes the rest / the answer stays flagged. The cases lost are each such a
# drop of words nobody recomputes: a check sentence after the value on its line ("Plugging it
# back in: ..., so it checks out.", "Zur Probe: ..., passt.", "Boa prova!"), "Both sides match
# ✓", a label no lexicon reads ("Comprobación:"); eq-en-013, eq-en-026, eq-es-002,
# eqb-en-010, eqb-de-021, eqb-pt-010 (recall); eq-en-012, eqb-en-042, eq-de-013, eq-pt-004
# and the same -b cases (corrected).
# The word floors were raised to the measured recall (0.250 -> 0.270, 0.190 -> 0.200, 0.320 ->
# 0.370) when an answer's opening that states no number ("Sure!", "### Solution") became
# vouched for (issue 34).
# The JSON floors were raised (0.931 -> 0.965, 0.827 -> 0.873, 0.758 -> 0.919 before the
# round-8 fix above; the floors are the merged figures) when stated values in words ("eight",
# "zweihundert"), copied values of a new shape ("12F" -> "7A"), values changed side by side
# and keys with digits ("co2=612") followed the request (json and json-b were no longer blind
# for it; json-d's misses were grouped by cause).
# Sets E (equations-e, json-e, word-e) were written blind this stop and measured on main before
# its changes (recall 0.521, 0.750, 0.229, with one wrong served in word-e: "8 dias por
# semana"; corrected 66/94) and after them: the floors are the figures after.
FLOORS = {
    "equations": (0.917, 0.90),
    "equations-b": (0.821, 0.90),
    "equations-c": (0.776, 0.90),
    "equations-d": (0.712, 0.90),
    "equations-e": (0.659, 0.90),
    "json": (0.965, 0.90),
    "json-b": (0.873, 0.90),
    "json-d": (0.896, 0.90),
    "json-e": (0.847, 0.90),
    "tools": (0.089, None),
    "word": (0.270, 0.60),
    "word-b": (0.200, 0.60),
    "word-d": (0.370, 0.60),
    "word-e": (0.229, 0.60),
}
# The share of wrong model answers (one slip carried through) the cache serves right.
CORRECTED_FLOORS = {
    "equations": 0.948,
    "equations-b": 0.891,
    "equations-c": 0.645,
    "equations-d": 0.787,
    "equations-e": 0.638,
}
# Slips served unflagged because no family reads the request, named one by one: the cache
# serves the model's own answer unchecked, as for any request it does not understand. eq-en-031
# ("Explain how to solve 15 = 9 - 2b like I'm twelve."): a number in the clause after an
# equation that ends in its unknown may continue its algebra in words ("= 9 - 2b over twelve"),
# so the equation is read in part and not at all; a misread equation could turn the model's
# right answer wrong, which is worse than not checking it.
UNREAD = {"equations-d": {"eq-en-031"}}
CORRECTED_GOAL = 0.95


@pytest.mark.parametrize("blind_set", sorted(FLOORS))
def test_the_judge_reads_every_oracle_answer_as_right(blind_set: str) -> None:
    """The harness is honest: each oracle answer is right by its own judge, and a slipping
    model's answer is wrong."""
    family = family_of(blind_set)
    for case in load(blind_set):
        answer = case["second"]["answer"]
        if family == "tools":
            calls = [{**call, "id": str(n)} for n, call in enumerate(answer["tool_calls"])]
            verdict = JUDGES[family](case, "", AIMessage(content="", tool_calls=calls))
        else:
            verdict = JUDGES[family](case, answer, AIMessage(content=""))
        assert verdict is True, case["id"]
        if "wrong" in case:
            assert JUDGES[family](case, case["wrong"], AIMessage(content="")) is False, case["id"]


@pytest.mark.parametrize("blind_set", sorted(FLOORS))
def test_no_wrong_answer_and_reuse_no_lower_than_measured(blind_set: str) -> None:
    summary = measure(family_of(blind_set), load(blind_set))
    print(report(blind_set, summary))
    floor, goal = FLOORS[blind_set]
    assert not summary.wrong, [(o.case["id"], o.decision, o.reason) for o in summary.wrong]
    assert not summary.unreadable, [o.case["id"] for o in summary.unreadable]
    assert summary.recall >= floor, f"recall {summary.recall:.1%} (goal {goal})"


@pytest.mark.parametrize("blind_set", sorted(CORRECTED_FLOORS))
def test_a_slipping_model_is_corrected_no_less_than_measured(blind_set: str) -> None:
    """A wrong answer of the model is corrected, or flagged: never served wrong as passed. An
    answer the judge cannot read ("x ≈ 6,67") counts as not corrected."""
    cases = [case for case in load(blind_set) if "wrong" in case]
    summary = measure("equations", cases, wrong_model=True)
    print(report(blind_set, summary, wrong_model=True))
    unchecked = {o.case["id"] for o in summary.wrong_passed}
    assert unchecked <= UNREAD.get(blind_set, set()), sorted(unchecked)
    for outcome in summary.wrong_passed:
        assert outcome.decision == "miss", outcome.case["id"]  # the model's own, not the cache's
    right = [o for o in summary.outcomes if o.right]
    corrected = len(right) / len(cases)
    assert corrected >= CORRECTED_FLOORS[blind_set], f"{corrected:.1%} (goal {CORRECTED_GOAL})"
