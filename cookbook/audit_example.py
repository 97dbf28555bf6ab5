"""Auditing a cache on its own traffic, offline.

The model is SIMULATED (a scripted chat model that solves linear equations step by step); in
production it is any LangChain chat model, e.g. ``ChatOpenAI()``. The cache audits every hit
here (``rate=1.0``) to show it at once; in production 1% to 5% is typical.

Run: ``python cookbook/audit_example.py``
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from stepcache_integrations import AuditConfig, StepCache, StepCacheLLM


def solved(a: int, b: int, c: int, v: str) -> AIMessage:
    """What a good model answers (used to script the SIMULATED model)."""
    return AIMessage(
        content=(
            f"Step 1: Start with {a}{v} + {b} = {c}.\n"
            f"Step 2: Subtract {b} from both sides: {a}{v} = {c - b}.\n"
            f"Step 3: Divide both sides by {a}: {v} = {Fraction(c - b, a)}."
        )
    )


class AuditRuns(BaseCallbackHandler):
    """Shows the audits a tracer sees: runs named stepcache_audit, tagged stepcache:audit."""

    def on_chat_model_start(self, serialized: Any, messages: Any, **kwargs: Any) -> None:
        if "stepcache:audit" in (kwargs.get("tags") or []):
            print(f"  trace: audit run {kwargs.get('name')!r}, tags {kwargs.get('tags')}")


def main() -> None:
    # SIMULATED model: the first answer for the request, then the same answers again for the
    # audits (a model that answers the same request the same way).
    answers = [solved(3, 5, 20, "x"), solved(3, 5, 20, "x"), solved(3, 7, 22, "x")]
    model = GenericFakeChatModel(messages=iter(answers))
    cache = StepCache(audit=AuditConfig(rate=1.0, seed=0))
    llm = StepCacheLLM(llm=model, step_cache=cache)
    config: Any = {"callbacks": [AuditRuns()]}
    for prompt in ("Solve for x: 3x + 5 = 20.", "Solve for x: 3x + 5 = 20.",
                   "Solve for x: 3x + 7 = 22."):  # fmt: skip
        message: Any = llm.invoke(prompt, config=config)
        record = message.response_metadata["stepcache"]
        final = re.findall(r"[a-z] = \S+", str(message.content))[-1].rstrip(".")
        print(f"{prompt:28} -> {record['decision']:5} kind={record['reuse_kind']} {final}")
        cache.drain_audits()  # only so that the output is in order: serving never waits
    stats = cache.audit_stats()
    assert stats is not None
    print(
        f"audits: {stats['outcomes']['agree']} agreed, {stats['outcomes']['disagree']} "
        f"disagreed; audit tokens {stats['tokens_used']} (apart from the requests' "
        f"{cache.stats()['tokens_used']}); suspended: {stats['suspended'] or 'none'}"
    )
    for row in cache.audit_report()["kinds"]:
        print(
            f"{row['kind']:22} audited {row['audited']}, disagreed {row['disagreed']}, "
            f"95% upper bound of the wrong-answer rate {row['upper_95']:.0%}"
        )
    print("(model SIMULATED)")
    cache.close()


if __name__ == "__main__":
    main()
