"""StepCache in an LCEL chain, offline.

The inner model here is SIMULATED (a scripted chat model that solves linear equations step by
step); in production it is any LangChain chat model, e.g. ``ChatOpenAI()``.

Run: ``python cookbook/lcel_example.py``
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.prompts import ChatPromptTemplate

from stepcache_integrations import StepCache, StepCacheLLM


def scripted_answer(a: int, b: int, c: int, v: str) -> AIMessage:
    """What a good model would answer (used to script the SIMULATED model)."""
    x = Fraction(c - b, a)
    return AIMessage(
        content=(
            f"Step 1: Start with {a}{v} + {b} = {c}.\n"
            f"Step 2: Subtract {b} from both sides: {a}{v} = {c - b}.\n"
            f"Step 3: Divide both sides by {a}: {v} = {x}."
        )
    )


def main() -> None:
    # SIMULATED model: it answers only the first request; every later answer must come
    # from the cache (reuse / patch), or GenericFakeChatModel would raise StopIteration.
    # b=8: every cached step re-instantiated (reuse); b=23: "3x = -3" changes sign, so the
    # steps are redone from there by the family's solver (patch).
    model = GenericFakeChatModel(messages=iter([scripted_answer(3, 5, 20, "x")]))
    llm = StepCacheLLM(llm=model, step_cache=StepCache())
    prompt = ChatPromptTemplate.from_messages(
        [("human", "Solve for {v}: 3{v} + {b} = 20. Show each step as 'Step N:'.")]
    )
    chain = prompt | llm

    requests = [{"v": "x", "b": 5}, {"v": "x", "b": 5}, {"v": "y", "b": 5}]
    requests += [{"v": "x", "b": 8}, {"v": "x", "b": 23}]
    for inputs in requests:
        message: Any = chain.invoke(inputs)
        record = message.response_metadata["stepcache"]
        final = re.findall(r"[a-z] = \S+", str(message.content))[-1]
        print(
            f"{inputs!s:24} -> {record['decision']:6} model_calls={record['model_calls']} "
            f"tokens_used={record['tokens_used']:3} answer: {final}"
        )
    print("stats:", llm.step_cache.stats()["decisions"], "(inner model SIMULATED)")


if __name__ == "__main__":
    main()
