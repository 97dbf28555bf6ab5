"""The templated corpus is well formed: enough families and variants, both variant groups,
answers that follow from each family's own solution function, and an oracle that answers the
cache's follow-up calls as a correct model would.

These tests pass on any code: they check the data and the harness, not the cache.
"""

# The oracle writes the multiplication sign as chat models do: the ambiguous-character
# rule does not apply.
# ruff: noqa: RUF001, RUF002

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace
from fractions import Fraction

import pytest

from stepcache_integrations.core.engine import CONTINUE_INSTRUCTION
from tests.conftest import AnswerBook
from tests.word_problems.templated import notation
from tests.word_problems.templated.build import (
    BASE,
    CHANGED,
    SAME,
    Variant,
    build,
    check_forms,
    load,
)
from tests.word_problems.templated.families import ALL
from tests.word_problems.templated.harness import (
    by_family,
    final_answer,
    same_but_number_format,
)
from tests.word_problems.templated.lexicon import PEOPLE
from tests.word_problems.templated.model import Family, PersonSlot, Quantity, Values, WordSlot

MIN_FAMILIES = 150
MIN_VARIANTS = 10
SAME_KINDS = {"rename", "things", "digits", "notation", "paraphrase", "mixed"}
CHANGED_KINDS = {"added_step", "reversed", "operation", "target", "roles", "branch"}

CORPUS = load()
FAMILIES = {family.id: family for family in ALL}


def _solution(variant: Variant) -> Fraction:
    """The variant's answer from its template's own solution function and its bindings."""
    family = FAMILIES[variant.family]
    change = next((c for c in family.changes if c.kind == variant.template), None)
    slots = {**family.slots, **(change.slots if change else {})}
    derived = {**family.derived, **(change.derived if change else {})}
    names = [n for n, s in slots.items() if isinstance(s, Quantity)] + list(derived)
    values = Values({name: Fraction(variant.bindings[name]) for name in names})
    solve = change.solve if change else family.solve
    return Fraction(solve(values))


def test_the_committed_corpus_is_what_the_families_build() -> None:
    """``corpus.jsonl`` is the families' output (regenerate with ``python -m
    tests.word_problems.templated.build``); building checks every step chain against its
    solution function."""
    assert build() == CORPUS


def test_enough_families_each_with_enough_variants_of_both_groups() -> None:
    families = defaultdict(list)
    for variant in CORPUS:
        families[variant.family].append(variant)
    assert len(families) >= MIN_FAMILIES
    for family, variants in families.items():
        groups = Counter(v.group for v in variants)
        assert groups[BASE] == 1, family
        assert len(variants) - 1 >= MIN_VARIANTS, family
        assert groups[SAME] >= 6 and groups[CHANGED] >= 3, (family, groups)
        kinds = {v.kind for v in variants if v.group == SAME}
        assert {"rename", "things", "digits", "paraphrase"} <= kinds, (family, kinds)
    kinds = Counter((v.group, v.kind) for v in CORPUS)
    assert {k for g, k in kinds if g == SAME} == SAME_KINDS
    assert {k for g, k in kinds if g == CHANGED} == CHANGED_KINDS


def test_topics_people_and_notations_are_varied() -> None:
    topics = Counter(family.topic for family in ALL)
    assert len(topics) >= 15 and max(topics.values()) <= 20, topics
    names = {v.bindings[k] for v in CORPUS for k in ("A", "B") if k in v.bindings}
    genders = Counter(p.gender for p in PEOPLE if p.name in names)
    assert set(genders) == {"f", "m", "n"} and min(genders.values()) >= 10
    used = Counter(n for v in CORPUS for n in v.notations.values())
    for form in ("digits", "words", "slash", "sign", "percent", "point", "mixed", "dollars"):
        assert used[form] >= 20, (form, used)
    styles = Counter(v.style.split("+")[0] for v in CORPUS if v.group == BASE)
    assert len(styles) >= 8, styles


def test_every_answer_follows_from_the_solution_function() -> None:
    for variant in CORPUS:
        assert _solution(variant) == variant.truth, variant.id


def test_the_oracle_final_line_is_the_answer() -> None:
    for variant in CORPUS:
        assert final_answer(variant.oracle) == variant.truth, variant.id


def _evaluate_text(expression: str) -> Fraction:
    """An equation side as the oracle writes it ("3 kayaks × $12 per kayak", "25/100 *
    $80", "$42 ÷ 60%"): words and units aside, usual precedence, exact arithmetic."""
    text = expression.replace("$", "").replace(",", "")
    text = re.sub(r"(?<=\s)x(?=\s)", "*", text)  # the "x" of "4 x $3"
    text = re.sub(r"[A-Za-z°][\w\-/'°]*", " ", text)  # words and units ("km/h")
    tokens = re.findall(r"\d+(?:\.\d+)?%?|[-+*/×÷()]", text)
    position = 0

    def take() -> str:
        nonlocal position
        position += 1
        return tokens[position - 1]

    def peek() -> str | None:
        return tokens[position] if position < len(tokens) else None

    def atom() -> Fraction:
        token = take()
        if token == "(":
            value = expr()
            assert take() == ")"
            return value
        return notation.read_number(token)

    def term() -> Fraction:
        value = atom()
        while peek() in ("*", "×", "/", "÷"):
            value = value * atom() if take() in ("*", "×") else value / atom()
        return value

    def expr() -> Fraction:
        value = term()
        while peek() in ("+", "-"):
            value = value + term() if take() == "+" else value - term()
        return value

    value = expr()
    assert peek() is None, (expression, tokens)
    return value


def test_every_equation_the_oracle_writes_is_true() -> None:
    checked = 0
    for variant in CORPUS:
        for equation in variant.equations:
            assert equation in variant.oracle, (variant.id, equation)
            left, right = equation.rsplit(" = ", 1)
            shown = right.split()[0]
            value = notation.read_number(shown)
            assert _evaluate_text(left) == value, (variant.id, equation)
            checked += 1
    assert checked > 5000


def test_same_values_get_the_same_answer_and_changes_really_change_it() -> None:
    """A notation change or a paraphrase keeps the quantities, so the oracle answers as it
    answered the base (a cached answer can be right as it is); a computation change gives an
    answer that the base's computation on the same values does not, and no two changes of a
    family share an answer."""
    for members in by_family(CORPUS).values():
        base = members[0]
        assert base.group == BASE
        for variant in members:
            if variant.kind in ("notation", "paraphrase"):
                assert variant.oracle == base.oracle, variant.id
                assert variant.prompt != base.prompt, variant.id
            if variant.kind == "notation":
                assert variant.notations != base.notations, variant.id
        changed = [v for v in members if v.group == CHANGED]
        assert len({v.answer for v in changed}) == len(changed), base.family
        for variant in changed:
            if variant.stale:
                assert Fraction(variant.stale) != variant.truth, variant.id


def test_same_computation_kinds_change_what_they_say() -> None:
    for members in by_family(CORPUS).values():
        base = members[0]
        slots = FAMILIES[base.family].slots
        people = {k for k, slot in slots.items() if isinstance(slot, PersonSlot)}
        things = {k for k, slot in slots.items() if isinstance(slot, WordSlot)}
        quantities = {k for k, slot in slots.items() if isinstance(slot, Quantity)}
        assert people and things and quantities, base.family
        for variant in members:
            if variant.kind == "rename":
                assert all(variant.bindings[k] != base.bindings[k] for k in people), variant.id
            elif variant.kind == "things":
                assert any(variant.bindings[k] != base.bindings[k] for k in things), variant.id
                assert all(variant.bindings[k] == base.bindings[k] for k in people), variant.id
            elif variant.kind == "digits":
                assert any(variant.bindings[k] != base.bindings[k] for k in quantities)
                assert all(variant.bindings[k] == base.bindings[k] for k in people | things), (
                    variant.id
                )


def test_prompts_are_unique_and_read_as_sentences() -> None:
    prompts = Counter(v.prompt for v in CORPUS)
    assert max(prompts.values()) == 1
    for variant in CORPUS:
        assert "{" not in variant.prompt and "}" not in variant.prompt, variant.id
        assert variant.prompt[0].isupper() or variant.prompt[0].isdigit(), variant.id
        assert variant.prompt.rstrip().endswith(("?", ".", ")")), variant.id


def test_a_change_that_only_moves_quantities_is_refused() -> None:
    """The form check that keeps a 'computation change' from being the base's template with
    its numbers moved (the same computation on other values)."""
    family: Family = FAMILIES["savings/piggy-bank"]
    moved = replace(
        family.changes[0],
        kind="roles",
        text=family.text.replace("{n} ten-cent", "{X} ten-cent")
        .replace("{m} twenty-five", "{n} twenty-five")
        .replace("{X}", "{m}"),
    )
    with pytest.raises(AssertionError, match="quantities moved"):
        check_forms(replace(family, changes=(moved,)))
    check_forms(family)


def test_numbers_in_words_and_notations() -> None:
    assert notation.words(0) == "zero"
    assert notation.words(45) == "forty-five"
    assert notation.words(1250) == "one thousand two hundred fifty"
    assert notation.write("fraction", Fraction(2, 3), "words") == "two thirds"
    assert notation.write("fraction", Fraction(3, 4), "hyphen") == "three-quarters"
    assert notation.write("percent", Fraction(25), "words") == "twenty-five percent"
    assert notation.write("money", Fraction(7, 2), "words") == "three dollars and fifty cents"
    assert notation.write("money", Fraction(1250), "sign") == "$1,250"
    assert notation.write("decimal", Fraction(9, 4), "mixed") == "2 1/4"
    assert notation.write("decimal", Fraction(5, 2), "words") == "two and a half"
    assert notation.canonical(Fraction(7, 3)) == "7/3"
    with pytest.raises(ValueError):
        notation.write("fraction", Fraction(1, 7), "words")
    assert final_answer("Step 1: ...\n#### 17.5") == Fraction(35, 2)
    assert final_answer("So the answer is 2 1/2 cups.") == Fraction(5, 2)
    assert final_answer("Therefore, the answer is 50%.") == 50
    assert final_answer("no number here") is None


def test_number_format_is_told_apart_from_a_stale_part() -> None:
    assert same_but_number_format("In kg: 3000 ÷ 1000 = 3.00 kg.", "In kg: 3000 ÷ 1000 = 3 kg.")
    assert same_but_number_format("#### 24.0", "#### 24")
    assert same_but_number_format("**5.0 hours**", "**5 hours**")
    assert not same_but_number_format("2 + 4 = 6 people", "2 + 2 = 4 people")
    assert not same_but_number_format("35 is more than 36", "36 is more than 35")
    assert not same_but_number_format("so Ana wins.", "so Omar wins.")


# -- the oracle model ---------------------------------------------------------------------------

ANSWER = (
    "Step 1: Ana buys 3 pens at $2 each: 3 × $2 = $6.\n"
    "Step 2: Change: $10 - $6 = $4.\n"
    "The answer is $4."
)
BOOK = AnswerBook({"Ana buys 3 pens at $2 each and pays with $10. Change?": ANSWER})
PROMPT = next(iter(BOOK.answers))


def test_the_oracle_answers_a_request() -> None:
    assert BOOK.reply([("user", PROMPT)]) == ANSWER
    with pytest.raises(AssertionError, match="does not know"):
        BOOK.reply([("user", "Something else?")])


def test_the_oracle_continues_after_verified_steps_with_the_rest_of_its_answer() -> None:
    shown = "Step 1: Ana buys 3 pens at $2 each: 3 × $2 = $6.\n"
    turns = [("user", PROMPT), ("assistant", shown), ("user", CONTINUE_INSTRUCTION)]
    rest = BOOK.reply(turns)
    assert rest == "Step 2: Change: $10 - $6 = $4.\nThe answer is $4."
    assert shown + rest == ANSWER
    # whitespace aside, the shown steps are still the answer's beginning
    turns[1] = ("assistant", "Step 1:  Ana buys 3 pens at $2 each: 3 × $2 = $6.")
    assert BOOK.reply(turns) == rest


def test_the_oracle_continues_stale_steps_from_the_same_line_on() -> None:
    """Shown steps that are not its own (a stale re-instantiation): the oracle writes its
    own lines after as many lines, so the final answer is right and the text is not."""
    shown = "Step 1: Ana buys 3 pens at $2 each: 3 × $2 = $5.\n"
    turns = [("user", PROMPT), ("assistant", shown), ("user", CONTINUE_INSTRUCTION)]
    assert BOOK.reply(turns) == "Step 2: Change: $10 - $6 = $4.\nThe answer is $4."


def test_the_oracle_repairs_with_its_answer() -> None:
    turns = [("user", PROMPT), ("assistant", "The answer is $5."), ("user", "Check step 1.")]
    assert BOOK.reply(turns) == ANSWER
    prefix_repair = [
        ("user", PROMPT),
        ("assistant", "Step 1: Ana buys 3 pens at $2 each: 3 × $2 = $6."),
        ("user", f"The final number is wrong.\n{CONTINUE_INSTRUCTION}"),
    ]
    assert BOOK.reply(prefix_repair) == "Step 2: Change: $10 - $6 = $4.\nThe answer is $4."


def test_both_framework_fakes_of_the_oracle_answer_follow_ups() -> None:
    from langchain_core.messages import AIMessage, HumanMessage
    from llama_index.core.base.llms.types import ChatMessage, MessageRole

    shown = "Step 1: Ana buys 3 pens at $2 each: 3 × $2 = $6."
    chat = BOOK.chat_model()
    reply = chat.invoke(
        [HumanMessage(PROMPT), AIMessage(shown), HumanMessage(CONTINUE_INSTRUCTION)]
    )
    assert reply.content == "Step 2: Change: $10 - $6 = $4.\nThe answer is $4."
    llm = BOOK.llama_llm()
    assert llm.complete(PROMPT).text == ANSWER
    answer = llm.chat(
        [
            ChatMessage(role=MessageRole.USER, content=PROMPT),
            ChatMessage(role=MessageRole.ASSISTANT, content=shown),
            ChatMessage(role=MessageRole.USER, content=CONTINUE_INSTRUCTION),
        ]
    )
    assert answer.message.content == "Step 2: Change: $10 - $6 = $4.\nThe answer is $4."
    assert answer.raw["usage"]["total_tokens"] > 0
