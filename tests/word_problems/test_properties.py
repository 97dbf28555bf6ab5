"""Hypothesis: for random arithmetic chains and random new quantities, the re-instantiated
answer is the chain evaluated on the new quantities, or the cache declines."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from langchain_core.messages import BaseMessage

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.core.steps import ParagraphSegmenter, join_steps
from stepcache_integrations.core.tasks import WordProblemFamily
from stepcache_integrations.core.text.quantities import fraction_to_words, number_to_words
from stepcache_integrations.core.verifiers.base import VerifyContext
from tests.conftest import ScriptedChatModel

NAMES = ("Ana", "Ben", "Cai", "Dee", "Eli")
FRACTIONS = tuple(Fraction(f) for f in ("1/2", "1/3", "2/3", "1/4", "3/4", "2/5", "3/5"))
SYMBOLS = {"+": "+", "-": "-", "*": "\u00d7", "/": "\u00f7"}
FORMAT = (
    'Solve it step by step, one line per step in the form "Step N: <calculation> = <result>", '
    'and end with the line "#### <answer>".'
)


@dataclass(frozen=True)
class Chain:
    """Quantities (counts or fractions) and binary steps over quantities and earlier results."""

    kinds: tuple[str, ...]  # "count" | "fraction" per quantity
    steps: tuple[tuple[str, int, int], ...]  # (op, left operand, right operand)

    def run(self, values: tuple[Fraction, ...]) -> list[Fraction] | None:
        known = list(values)
        for op, a, b in self.steps:
            left, right = known[a], known[b]
            if op == "/" and right == 0:
                return None
            known.append(
                left + right
                if op == "+"
                else left - right
                if op == "-"
                else left * right
                if op == "*"
                else left / right
            )
        return known[len(values) :]

    def prompt(self, values: tuple[Fraction, ...], words: tuple[bool, ...]) -> str:
        parts = []
        for name, kind, value, in_words in zip(NAMES, self.kinds, values, words, strict=False):
            if kind == "fraction":
                shown = fraction_to_words(value) if in_words else f"{value}"
                parts.append(f"{name} keeps {shown} of the pile.")
            else:
                shown = number_to_words(int(value)) if in_words else str(int(value))
                parts.append(f"{name} brings {shown} coins.")
        return " ".join(parts) + " How many coins are there at the end? " + FORMAT

    def answer(self, values: tuple[Fraction, ...], headings: bool = False) -> str | None:
        """The step-by-step answer; ``headings`` numbers each step's result as well
        ("Step 2: Result 2: ..."), a label whose number may coincide with a quantity."""
        results = self.run(values)
        if results is None or any(r < 0 or r.denominator != 1 for r in results):
            return None
        known = [*values, *results]

        def show(i: int) -> str:
            value = known[i]
            return (
                f"{value.numerator}/{value.denominator}"
                if value.denominator != 1
                else str(value.numerator)
            )

        n = len(values)
        lines = [
            f"Step {k + 1}: {f'Result {k + 1}: ' if headings else ''}"
            f"{show(a)} {SYMBOLS[op]} {show(b)} = {show(n + k)}"
            for k, (op, a, b) in enumerate(self.steps)
        ]
        return "\n".join([*lines, f"#### {show(len(known) - 1)}"])


@st.composite
def chains(draw: st.DrawFn) -> tuple[Chain, tuple[Fraction, ...]]:
    """A chain and old quantities for which every step is a whole, non-negative count: a step
    drawn at random that would not be is replaced by the sum of two whole values."""
    n = draw(st.integers(2, 4))
    kinds = tuple(draw(st.sampled_from(["count", "count", "fraction"])) for _ in range(n))
    assume("count" in kinds)
    old = tuple(
        draw(st.sampled_from(FRACTIONS))
        if kind == "fraction"
        else Fraction(draw(st.integers(2, 400)))
        for kind in kinds
    )
    steps: list[tuple[str, int, int]] = []
    for _ in range(draw(st.integers(2, 6))):
        known = Chain(kinds, tuple(steps)).run(old)
        assert known is not None
        values = [*old, *known]
        op = draw(st.sampled_from(["+", "-", "*", "/"]))
        a = draw(st.integers(0, len(values) - 1))
        b = draw(st.integers(0, len(values) - 1))
        result = Chain(kinds, ((op, a, b),)).run(tuple(values))
        if result is None or result[0] < 0 or result[0].denominator != 1:
            whole = [i for i, v in enumerate(values) if v.denominator == 1]
            op, a, b = "+", draw(st.sampled_from(whole)), draw(st.sampled_from(whole))
        steps.append((op, a, b))
    return Chain(kinds, tuple(steps)), old


def quantities(chain: Chain) -> st.SearchStrategy[tuple[Fraction, ...]]:
    return st.tuples(
        *(
            st.sampled_from(FRACTIONS) if kind == "fraction" else st.integers(2, 400).map(Fraction)
            for kind in chain.kinds
        )
    )


FAMILY = WordProblemFamily()
SEGMENTER = ParagraphSegmenter()


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_reinstantiation_is_the_chain_on_the_new_quantities_or_declines(
    data: st.DataObject,
) -> None:
    chain, old = data.draw(chains())
    headings = data.draw(st.booleans())
    old_answer = chain.answer(old, headings)
    assume(old_answer is not None)
    assert old_answer is not None
    new = data.draw(quantities(chain))
    old_words = tuple(data.draw(st.booleans()) for _ in old)
    new_words = tuple(data.draw(st.booleans()) for _ in new)
    old_prompt, new_prompt = chain.prompt(old, old_words), chain.prompt(new, new_words)
    steps = SEGMENTER.split(old_answer)
    adaptation = FAMILY.adapt_answer(VerifyContext(new_prompt, old_prompt), steps)
    assert adaptation is not None
    event("re-instantiated" if adaptation.complete else "declined")
    if not adaptation.complete:
        return  # declined: the model is asked
    # A complete re-instantiation is exactly the chain run on the new quantities.
    expected = chain.answer(new, headings)
    assert expected is not None, (old_answer, new_prompt, join_steps(adaptation.steps))
    assert _numbers(join_steps(adaptation.steps)) == _numbers(expected)


def final_answer(text: str) -> Fraction | None:
    """The number after the answer's last "####" (whole or a fraction, as the chains write it)."""
    import re

    finals = re.findall(r"####\s*(-?\d+(?:/\d+)?)", text)
    return Fraction(finals[-1]) if finals else None


def _numbers(text: str) -> list[Fraction]:
    import re

    return [Fraction(n) for n in re.findall(r"\d+(?:/\d+)?", text)]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_through_the_cache_the_served_answer_is_the_chain_on_the_new_quantities(
    data: st.DataObject,
) -> None:
    chain, old = data.draw(chains())
    new = data.draw(quantities(chain))
    assume(chain.answer(new) is not None and old != new)
    by_prompt: dict[str, tuple[Fraction, ...]] = {}
    old_prompt = chain.prompt(old, tuple(False for _ in old))
    new_prompt = chain.prompt(new, tuple(data.draw(st.booleans()) for _ in new))
    by_prompt[old_prompt], by_prompt[new_prompt] = old, new

    def oracle(messages: list[BaseMessage]) -> str:
        text = chain.answer(by_prompt[str(messages[0].content)])
        assert text is not None
        return text

    inner = ScriptedChatModel(responder=oracle)
    llm = StepCacheLLM(llm=inner, step_cache=StepCache())
    llm.invoke(old_prompt)
    message = llm.invoke(new_prompt)
    record = message.response_metadata["stepcache"]
    results = chain.run(new)
    assert results is not None
    assert final_answer(str(message.content)) == results[-1], (record, message.content)
    event(record["decision"])
    if record["decision"] == "reuse":
        assert len(inner.calls) == 1  # re-instantiated: no model call
