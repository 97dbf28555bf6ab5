"""GSM8K stories and their variants through the real StepCache, with a SIMULATED oracle model.

For each story a fresh :class:`~stepcache_integrations.StepCache` gets the base request
first, then every variant (in an order shuffled per story, the same every run), through
LangChain's ``StepCacheLLM`` (``invoke``) or LlamaIndex's (``complete``). The oracle
(:class:`tests.conftest.AnswerBook`, simulated: it answers every request, and the cache's own
follow-up calls, with the variant's known answer) stands behind the cache, so anything wrong
that is served was made by the cache. Judged per request:

- served (without a full answer): the decision is ``exact``, ``reuse`` or ``patch``;
- wrong: the served final number is not the known answer, or the served text is not the
  oracle's (whitespace and how equal numbers are written aside): a stale part;
- tokens: what the request spent against one oracle call for it without a cache.

Run it (the whole training split by default, any number of stories)::

    python -m tests.word_problems.gsm8k.harness --stories 300 --seed 34
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook
from tests.word_problems.gsm8k.variants import (
    CHANGED,
    KINDS,
    LANGUAGES,
    LAYOUTS,
    SAME,
    Story,
    Variant,
    language_stories,
    load_sample,
    stories,
)
from tests.word_problems.templated.harness import normalise

__all__ = ["SERVED", "Outcome", "report", "run"]

SERVED = ("exact", "reuse", "patch")
TRAIN = Path("/work/shared/data/gsm8k/train.jsonl")


def final_number(text: str) -> Fraction | None:
    """The last number of the answer's last non-empty line."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    found = re.findall(r"-?\d[\d,]*(?:\.\d+)?", lines[-1])
    return Fraction(found[-1].replace(",", "")) if found else None


@dataclass(frozen=True)
class Outcome:
    variant: Variant
    layout: str
    wrapper: str
    record: dict[str, Any]
    served: str
    baseline: int

    @property
    def decision(self) -> str:
        return str(self.record["decision"])

    @property
    def from_cache(self) -> bool:
        return self.decision in SERVED

    @property
    def tokens(self) -> int:
        return int(self.record["tokens_used"])

    @property
    def wrong(self) -> bool:
        """The served text is not the oracle's, numbers compared by value ("$4.50" is
        "$4.5", "1,200" is "1200")."""
        return _by_value(self.served) != _by_value(self.variant.oracle)


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?|\.\d+")


def _by_value(text: str) -> list[str]:
    """The text's words, every number written as its value."""
    return normalise(_NUMBER.sub(lambda m: str(Fraction(m.group().replace(",", ""))), text)).split()


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


def run(all_stories: Sequence[Story], wrapper: str) -> list[Outcome]:
    """Every story through a fresh cache of ``wrapper``: its base, then its variants."""
    outcomes = []
    for story in all_stories:
        book = AnswerBook({v.prompt: v.oracle for v in story.requests})
        ask = WRAPPERS[wrapper](book)
        base, *rest = story.requests
        random.Random(f"order/{story.index}").shuffle(rest)
        for variant in (base, *rest):
            served, record = ask(variant.prompt)
            outcomes.append(
                Outcome(variant, story.layout, wrapper, record, served, book.cost(variant.prompt))
            )
    return outcomes


def _ratio(spent: int, baseline: int) -> str:
    return f"{spent / baseline:.3f}" if baseline else "-"


def _row(name: str, rows: Sequence[Outcome]) -> str:
    decisions = Counter(o.decision for o in rows)
    served = sum(o.from_cache for o in rows)
    return (
        f"{name:24} {len(rows):5} {decisions['reuse'] + decisions['exact']:5} "
        f"{decisions['patch']:5} {decisions['skip']:5} {decisions['miss']:5} "
        f"{served / len(rows):7.1%} {sum(o.wrong for o in rows):5} "
        f"{_ratio(sum(o.tokens for o in rows), sum(o.baseline for o in rows)):>6}"
    )


def report(outcomes: Sequence[Outcome]) -> str:
    """Per wrapper: by change kind and by layout, the share served without a full answer,
    wrong answers, and tokens against no cache."""
    lines = [
        "GSM8K training stories, SIMULATED oracle model (every answer right: anything wrong is "
        "the cache's). served = exact/reuse/patch; wrong = a final or a part the oracle would "
        "not write; tokens = spent / one oracle call per request without a cache"
    ]
    header = (
        f"{'kind / layout':24} {'n':>5} {'reuse':>5} {'patch':>5} {'skip':>5} {'miss':>5} "
        f"{'served':>7} {'wrong':>5} {'tokens':>6}"
    )
    for wrapper in sorted({o.wrapper for o in outcomes}):
        mine = [o for o in outcomes if o.wrapper == wrapper]
        lines += [f"== {wrapper} ==", header]
        for kind in ("base", *KINDS):
            rows = [o for o in mine if o.variant.kind == kind]
            if rows:
                lines.append(_row(kind, rows))
        quantity = [o for o in mine if o.variant.kind in ("numbers", "names", "things", "words")]
        same = [o for o in mine if o.variant.kind in SAME]
        changed = [o for o in mine if o.variant.kind in CHANGED]
        for name, rows in (
            ("quantity/name changes", quantity),
            ("computation kept", same),
            ("computation changed", changed),
            ("all", mine),
        ):
            if rows:
                lines.append(_row(name, rows))
        for style in LAYOUTS:
            rows = [o for o in quantity if o.layout == style]
            if rows:
                lines.append(_row(f"  layout {style}", rows))
        reasons = Counter(_shape(o.record.get("reason", "")) for o in quantity if not o.from_cache)
        lines.append("most frequent reasons quantity/name changes were not served:")
        lines += [f"  {n:5}  {reason}" for reason, n in reasons.most_common(10)]
        for o in [o for o in mine if o.wrong][:5]:
            lines.append(f"WRONG {o.variant.kind} {o.decision}: {o.variant.prompt[:120]!r}")
            lines.append(f"   served {o.served[:200]!r}")
            lines.append(f"   oracle {o.variant.oracle[:200]!r}")
    return "\n".join(lines)


def _shape(reason: str) -> str:
    shape = re.sub(r"'[^']*'", "'…'", reason)
    return re.sub(r"\d+(?:\.\d+)?", "N", shape)[:140]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stories", type=int, default=300)
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--data", type=Path, default=TRAIN if TRAIN.exists() else None)
    parser.add_argument("--wrapper", choices=sorted(WRAPPERS), action="append")
    parser.add_argument("--languages", action="store_true", help="German and Portuguese")
    args = parser.parse_args(argv)
    if args.languages:
        for language in LANGUAGES:
            chosen = language_stories(language, seed=args.seed)
            outcomes = [o for w in args.wrapper or sorted(WRAPPERS) for o in run(chosen, w)]
            print(f"### {language}: {len(chosen)} stories")
            print(report(outcomes))
        return
    rows = load_sample(args.data) if args.data is not None else load_sample()
    chosen = stories(rows, seed=args.seed, count=args.stories)
    started = time.perf_counter()
    outcomes = [o for w in args.wrapper or sorted(WRAPPERS) for o in run(chosen, w)]
    print(report(outcomes))
    spent = time.perf_counter() - started
    print(f"({len(chosen)} stories, {len(outcomes)} requests, {spent:.0f} s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
