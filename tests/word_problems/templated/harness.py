"""Runs the templated corpus through the cache's wrappers with an oracle model, and judges.

For each family a fresh :class:`~stepcache_integrations.StepCache` gets the base request
first, then every variant (in an order shuffled per family, the same every run), through
LangChain's ``StepCacheLLM`` or LlamaIndex's. The oracle (:class:`tests.conftest.
AnswerBook`) answers every model call correctly, the cache's follow-up calls included, so
anything wrong that is served was made by the cache. Judged per request:

- the served final answer (the last number of the last line) equals the truth, exactly;
- the served text equals the oracle's answer to that request (whitespace aside): for a
  ``reuse`` or ``patch`` any difference is a part of the cached answer left stale;
- tokens: what the request spent (``record["tokens_used"]``) against one oracle call for it
  without a cache.

``python -m tests.word_problems.templated.harness`` prints the report (also printed by the
tests: ``pytest tests/word_problems/templated -s``).
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook
from tests.word_problems.templated.build import BASE, CHANGED, SAME, Variant, load
from tests.word_problems.templated.notation import numbers_in, read_number

__all__ = [
    "WRAPPERS",
    "Outcome",
    "Retrieval",
    "book_of",
    "by_family",
    "final_answer",
    "normalise",
    "report",
    "retrieval",
    "retrieval_report",
    "run",
]

SERVED = ("exact", "reuse", "patch")  # decisions that serve (part of) a cached answer


def normalise(text: str) -> str:
    return " ".join(text.split())


_NUMBER_TOKEN = re.compile(r"^([(\[$*#]*)(\d[\d,]*(?:\.\d+)?(?:/\d+)?)(.*)$")


def _split_number(token: str) -> tuple[str, Fraction, str] | None:
    match = _NUMBER_TOKEN.match(token)
    if match is None:
        return None
    lead, number, tail = match.groups()
    return lead, Fraction(number.replace(",", "")), tail


def same_but_number_format(served: str, oracle: str) -> bool:
    """Whether two texts differ only in how equal numbers are written ("3.00" for "3",
    "24.0" for "24"): every word alike, every number of the same value."""
    ours, theirs = served.split(), oracle.split()
    if len(ours) != len(theirs):
        return False
    for mine, other in zip(ours, theirs, strict=True):
        if mine == other:
            continue
        a, b = _split_number(mine), _split_number(other)
        if a is None or b is None or a != b:
            return False
    return True


def final_answer(text: str) -> Fraction | None:
    """The last number of the answer's last non-empty line ("25%" reads as 25: a final
    answer in percent is the number of percent)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    found = numbers_in(lines[-1])
    return read_number(found[-1].rstrip("%")) if found else None


def book_of(variants: Iterable[Variant]) -> AnswerBook:
    answers: dict[str, str] = {}
    for variant in variants:
        if answers.setdefault(variant.prompt, variant.oracle) != variant.oracle:
            raise AssertionError(f"two answers for one request: {variant.prompt!r}")
    return AnswerBook(answers)


def by_family(variants: Iterable[Variant]) -> dict[str, list[Variant]]:
    """Each family's requests in the order they are sent: the base, then the variants
    shuffled (seeded by the family)."""
    families: dict[str, list[Variant]] = defaultdict(list)
    for variant in variants:
        families[variant.family].append(variant)
    ordered = {}
    for family, members in families.items():
        base = [v for v in members if v.group == BASE]
        rest = [v for v in members if v.group != BASE]
        random.Random(f"order/{family}").shuffle(rest)
        ordered[family] = base + rest
    return ordered


@dataclass(frozen=True)
class Outcome:
    """What the cache served for one request, and the verdict."""

    variant: Variant
    wrapper: str
    record: dict[str, Any]
    served: str
    baseline: int  # tokens of one oracle call for this request, without a cache

    @property
    def decision(self) -> str:
        return str(self.record["decision"])

    @property
    def tokens(self) -> int:
        return int(self.record["tokens_used"])

    @property
    def final_ok(self) -> bool:
        return final_answer(self.served) == self.variant.truth

    @property
    def text_ok(self) -> bool:
        return normalise(self.served) == normalise(self.variant.oracle)

    @property
    def format_only(self) -> bool:
        """The served text is the oracle's but for how some equal numbers are written
        ("3.00 kg" for "3 kg"): every step right, not a stale part."""
        return not self.text_ok and same_but_number_format(self.served, self.variant.oracle)

    @property
    def stale(self) -> bool:
        """The served text has a part the oracle would not write (a step, a number or a
        sentence left from the cached answer, or a wrong one)."""
        return not self.text_ok and not self.format_only

    @property
    def wrong(self) -> bool:
        """A wrong final answer, or a stale part in the served text."""
        return not self.final_ok or self.stale

    @property
    def rejected(self) -> bool:
        """The cache's checks failed the answer it served (here always the oracle's correct
        answer or a re-instantiation of it): flagged, never cached."""
        return not bool(self.record["passed"])

    @property
    def from_cache(self) -> bool:
        return self.decision in SERVED


Ask = Callable[[str], tuple[str, dict[str, Any]]]


def _langchain(book: AnswerBook) -> Ask:
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=StepCache())

    def ask(prompt: str) -> tuple[str, dict[str, Any]]:
        message = llm.invoke(prompt)
        return str(message.content), dict(message.response_metadata["stepcache"])

    return ask


def _llama_index(book: AnswerBook) -> Ask:
    llm = LlamaStepCacheLLM(llm=book.llama_llm(), step_cache=StepCache())

    def ask(prompt: str) -> tuple[str, dict[str, Any]]:
        response = llm.complete(prompt)
        return response.text, dict(response.additional_kwargs["stepcache"])

    return ask


WRAPPERS: dict[str, Callable[[AnswerBook], Ask]] = {
    "langchain": _langchain,
    "llama_index": _llama_index,
}


def run(variants: Sequence[Variant], wrapper: str) -> list[Outcome]:
    """Every family through a fresh cache of ``wrapper``: the base, then its variants."""
    book = book_of(variants)
    outcomes = []
    for members in by_family(variants).values():
        ask = WRAPPERS[wrapper](book)
        for variant in members:
            served, record = ask(variant.prompt)
            outcomes.append(Outcome(variant, wrapper, record, served, book.cost(variant.prompt)))
    return outcomes


# -- retrieval ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Retrieval:
    """For one variant, in a cache holding every family's base request: whether its own
    family's base is the nearest entry, and whether that similarity is over the threshold."""

    variant: Variant
    nearest_prompt: str
    similarity: float
    base_similarity: float | None  # similarity of the variant's own base, if among the top k
    threshold: float
    base_prompt: str

    @property
    def nearest_is_base(self) -> bool:
        return self.nearest_prompt == self.base_prompt

    @property
    def found(self) -> bool:
        """The base is the nearest candidate and close enough to be considered."""
        return self.nearest_is_base and self.similarity >= self.threshold


def retrieval(variants: Sequence[Variant], k: int = 5) -> list[Retrieval]:
    """Every base stored through a LangChain wrapper of one default cache; then, for each
    variant, the store's nearest entries (the lookup the request path makes)."""
    book = book_of(variants)
    cache = StepCache()
    llm = StepCacheLLM(llm=book.chat_model(), step_cache=cache)
    bases = {v.family: v for v in variants if v.group == BASE}
    namespace = ""
    for base in bases.values():
        namespace = llm.invoke(base.prompt).response_metadata["stepcache"]["namespace"]
    threshold = cache.policy.similarity_threshold
    found = []
    for variant in variants:
        if variant.group == BASE:
            continue
        nearest = cache.store.nearest(variant.prompt, namespace, k)
        base_prompt = bases[variant.family].prompt
        own = [score for entry, score in nearest if entry.prompt == base_prompt]
        found.append(
            Retrieval(
                variant,
                nearest[0][0].prompt if nearest else "",
                nearest[0][1] if nearest else 0.0,
                own[0] if own else None,
                threshold,
                base_prompt,
            )
        )
    return found


# -- reports ------------------------------------------------------------------------------------


def _kind_key(variant: Variant) -> tuple[int, str, str]:
    order = {BASE: 0, SAME: 1, CHANGED: 2}
    return (order[variant.group], variant.group, variant.kind)


def _ratio(spent: int, baseline: int) -> str:
    return f"{spent / baseline:.3f}" if baseline else "-"


def report(outcomes: Sequence[Outcome]) -> str:
    """Per wrapper and variant kind: requests, decisions, wrong finals, stale texts, the
    share served from the cache, reuse at 0 tokens, and the tokens against no cache."""
    lines = [
        "columns: decisions; wrongF = wrong final answer; stale = right final answer, a part "
        "of the text the oracle would not write; format = the oracle's text but for how equal "
        "numbers are written; reject = the cache's checks failed the (correct) answer it "
        "served; cached = share served from the cache (exact/reuse/patch); tokens = tokens "
        "spent / one oracle call per request without a cache"
    ]
    wrappers = sorted({o.wrapper for o in outcomes})
    for wrapper in wrappers:
        mine = [o for o in outcomes if o.wrapper == wrapper]
        lines.append(f"== {wrapper} (oracle model: scripted answers, simulated) ==")
        header = (
            f"{'group/kind':30} {'n':>5} {'exact':>5} {'reuse':>5} {'patch':>5} {'skip':>5} "
            f"{'miss':>5} {'wrongF':>6} {'stale':>5} {'format':>6} {'reject':>6} {'cached':>6} "
            f"{'tokens':>6}"
        )
        lines.append(header)
        groups: dict[tuple[int, str, str], list[Outcome]] = defaultdict(list)
        for outcome in mine:
            groups[_kind_key(outcome.variant)].append(outcome)
            groups[(_kind_key(outcome.variant)[0], outcome.variant.group, "*")].append(outcome)
        for key in sorted(groups, key=lambda k: (k[0], k[2] != "*", k[2])):
            rows = groups[key]
            decisions = Counter(o.decision for o in rows)
            name = f"{key[1]}/{key[2]}"
            cached = sum(o.from_cache for o in rows) / len(rows)
            lines.append(
                f"{name:30} {len(rows):5} {decisions['exact']:5} {decisions['reuse']:5} "
                f"{decisions['patch']:5} {decisions['skip']:5} {decisions['miss']:5} "
                f"{sum(not o.final_ok for o in rows):6} "
                f"{sum(o.final_ok and o.stale for o in rows):5} "
                f"{sum(o.format_only for o in rows):6} {sum(o.rejected for o in rows):6} "
                f"{cached:6.0%} "
                f"{_ratio(sum(o.tokens for o in rows), sum(o.baseline for o in rows)):>6}"
            )
        same = [o for o in mine if o.variant.group in (BASE, SAME)]
        templated = [o for o in same if o.variant.kind != "paraphrase"]
        everything = _ratio(sum(o.tokens for o in mine), sum(o.baseline for o in mine))
        lines.append(
            f"tokens vs no cache: all {everything}, templated traffic (base + same computation, "
            f"rewordings aside) "
            f"{_ratio(sum(o.tokens for o in templated), sum(o.baseline for o in templated))}, "
            f"with rewordings {_ratio(sum(o.tokens for o in same), sum(o.baseline for o in same))}"
        )
        kept = [o for o in templated if o.variant.group == SAME]
        every = [o for o in same if o.variant.group == SAME]
        lines.append(
            f"same computation served from the cache: {sum(o.from_cache for o in kept)} of "
            f"{len(kept)} rewordings aside, {sum(o.from_cache for o in every)} of {len(every)} "
            "with them"
        )
        reasons = Counter(
            _reason_shape(o.record.get("reason", ""))
            for o in mine
            if o.variant.group != BASE and o.decision in ("skip", "miss")
        )
        lines.append("most frequent reasons of skip/miss (quoted values elided):")
        for reason, n in reasons.most_common(12):
            lines.append(f"  {n:5}  {reason}")
    return "\n".join(lines)


def _reason_shape(reason: str) -> str:
    """A reason with its quoted values and numbers elided, so that alike reasons count
    together."""
    shape = re.sub(r"'[^']*'", "'…'", reason)
    shape = re.sub(r"\d+(?:\.\d+)?", "N", shape)
    return shape[:150]


def retrieval_report(found: Sequence[Retrieval]) -> str:
    """Per variant kind: the share whose own base is the nearest entry, the share over the
    threshold, both, and the median similarity to the own base."""
    lines = [
        "== retrieval: default StepCache embedder, one cache holding every family's base ==",
        "columns: top1 = the variant's own base is the nearest entry; >=thr = the nearest "
        "entry is over the similarity threshold; both = the two; base sim = median similarity "
        "to the own base",
        f"{'group/kind':34} {'n':>5} {'top1':>6} {'>=thr':>6} {'both':>6} {'base sim':>8}",
    ]
    groups: dict[tuple[int, str, str], list[Retrieval]] = defaultdict(list)
    for item in found:
        key = _kind_key(item.variant)
        groups[key].append(item)
        groups[(key[0], key[1], "*")].append(item)
    for key in sorted(groups, key=lambda k: (k[0], k[2] != "*", k[2])):
        rows = groups[key]
        sims = sorted(r.base_similarity for r in rows if r.base_similarity is not None)
        median = f"{sims[len(sims) // 2]:.3f}" if sims else "-"
        lines.append(
            f"{key[1] + '/' + key[2]:34} {len(rows):5} "
            f"{sum(r.nearest_is_base for r in rows) / len(rows):6.0%} "
            f"{sum(r.similarity >= r.threshold for r in rows) / len(rows):6.0%} "
            f"{sum(r.found for r in rows) / len(rows):6.0%} {median:>8}"
        )
    return "\n".join(lines)


def main() -> None:
    variants = load()
    outcomes = [o for wrapper in WRAPPERS for o in run(variants, wrapper)]
    print(report(outcomes))
    print(retrieval_report(retrieval(variants)))


if __name__ == "__main__":
    main()
