"""Attacks on renaming and notations (issue 24), as an outsider would mount them to get a stale
answer served: a renaming that is not consistent, a renamed word that carries meaning, swapped
roles, a pronoun that changes who does what, a notation change that changes the value, a
renamed unit of a calculation. Each case is a cached request with the oracle's answer and a new
request with the oracle's answer; through both wrappers, the served answer must be the new
request's (the cache may decline, never serve the old one or a half-renamed one).

The cases are written here, for these attacks (not taken from any corpus); each was first
found by trying it against the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import AnswerBook

Case = tuple[str, str, str, str]  # cached request, its answer, new request, its answer

# Renamings that must be refused: the cache may not reuse the cached answer at all.
REFUSED: dict[str, Case] = {
    "an old name left in the request": (
        "Lotte has 14 shells. Lotte gives 5 to Bruno. How many shells does Lotte have now?",
        "Lotte has 14 - 5 = 9 shells.\n#### 9",
        "Ines has 14 shells. Lotte gives 5 to Bruno. How many shells does Ines have now?",
        "Ines gives none away: she has 14 shells.\n#### 14",
    ),
    "roles swapped": (
        "Lotte has 14 shells and Bruno has 3. Lotte gives Bruno 5 shells. How many shells "
        "does Bruno have now?",
        "Bruno has 3 + 5 = 8 shells.\n#### 8",
        "Bruno has 14 shells and Lotte has 3. Bruno gives Lotte 5 shells. How many shells "
        "does Bruno have now?",
        "Bruno has 14 - 5 = 9 shells.\n#### 9",
    ),
    "a new name that was already there": (
        "Lotte has 14 shells and Bruno has 3. Lotte gives 5 shells to Ines. How many shells "
        "does Bruno have?",
        "Bruno keeps his 3 shells: 3 + 0 = 3.\n#### 3",
        "Lotte has 14 shells and Bruno has 3. Lotte gives 5 shells to Bruno. How many shells "
        "does Bruno have?",
        "Bruno has 3 + 5 = 8 shells.\n#### 8",
    ),
    "an operation word renamed": (
        "Lotte has 14 shells and finds 5 more on the beach. How many shells does she have?",
        "Lotte has 14 + 5 = 19 shells.\n#### 19",
        "Lotte has 14 shells and loses 5 more on the beach. How many shells does she have?",
        "Lotte has 14 - 5 = 9 shells.\n#### 9",
    ),
    "a verb renamed into one that takes away": (
        "Lotte has 14 pies and bakes 5 more. How many pies does Lotte have?",
        "Lotte has 14 + 5 = 19 pies.\n#### 19",
        "Lotte has 14 pies and crumbles 5 more. How many pies does Lotte have?",
        "Lotte has 14 - 5 = 9 pies.\n#### 9",
    ),
    "a unit of time renamed": (
        "Lotte jogs 3 laps of 4 minutes each. How many minutes does she jog?",
        "Minutes jogged: 3 x 4 = 12 minutes.\n#### 12",
        "Lotte jogs 3 laps of 4 hours each. How many minutes does she jog?",
        "Minutes jogged: 3 x 4 x 60 = 720 minutes.\n#### 720",
    ),
    "a count word renamed": (
        "Lotte buys 3 dozen eggs and breaks 4. How many eggs are left?",
        "Eggs: 3 x 12 = 36. Left: 36 - 4 = 32.\n#### 32",
        "Lotte buys 3 score eggs and breaks 4. How many eggs are left?",
        "Eggs: 3 x 20 = 60. Left: 60 - 4 = 56.\n#### 56",
    ),
    "a direction renamed": (
        "A lift starts on floor 9 and goes up 4 floors. On which floor is it now?",
        "Floor: 9 + 4 = 13.\n#### 13",
        "A lift starts on floor 9 and goes down 4 floors. On which floor is it now?",
        "Floor: 9 - 4 = 5.\n#### 5",
    ),
    "a pronoun that now may stand for someone else": (
        "Lotte gives Bruno 5 of her 14 figs. He eats 2 of them. How many figs does Bruno have "
        "left?",
        "Bruno has 5 - 2 = 3 figs left.\n#### 3",
        "Lotte gives Ines 5 of her 14 figs. She eats 2 of them. How many figs does Ines have left?",
        "Lotte eats 2 of hers; Ines keeps all 5 figs.\n#### 5",
    ),
    "a pronoun with a person noun beside it": (
        "Bruno and his sister pick 14 figs. He eats 2. How many figs are left?",
        "Figs left: 14 - 2 = 12.\n#### 12",
        "Ines and her sister pick 14 figs. She eats 2. How many figs are left?",
        "If her sister ate them, the figs left: 14 - 2 = 12; the sister may be 'she'.\n#### 12",
    ),
    "an amount in another currency": (
        "Lotte buys 4 mugs at $5 each. How much does she pay?",
        "Cost: 4 x $5 = $20.\n#### 20",
        "Lotte buys 4 mugs at 5 euros each. How much does she pay?",
        "Cost: 4 x 5 = 20 euros.\n#### 20",
    ),
    "a fraction that became a count": (
        "Lotte has 24 figs and eats three quarters of them. How many figs are left?",
        "Eaten: 24 x 3/4 = 18. Left: 24 - 18 = 6.\n#### 6",
        "Lotte has 24 figs and eats 3 of them. How many figs are left?",
        "Left: 24 - 3 = 21.\n#### 21",
    ),
}

# Changes the cache may carry over, where it must then serve exactly the new answer.
CARRIED: dict[str, Case] = {
    "a notation change that changes the value": (
        "Lotte has 24 figs and eats three quarters of them. How many figs are left?",
        "Eaten: 24 x 3/4 = 18. Left: 24 - 18 = 6.\n#### 6",
        "Lotte has 24 figs and eats 0.5 of them. How many figs are left?",
        "Eaten: 24 x 1/2 = 12. Left: 24 - 12 = 12.\n#### 12",
    ),
    "cents for dollars": (
        "Lotte buys 6 pencils at $0.75 each. How much does she pay?",
        "Cost: 6 x $0.75 = $4.50.\n#### 4.5",
        "Lotte buys 6 pencils at eighty cents each. How much does she pay?",
        "Cost: 6 x $0.80 = $4.80.\n#### 4.8",
    ),
    "a renamed person whose pronoun the answer uses": (
        "Lotte picks 9 figs a day. How many figs does Lotte pick in 4 days?",
        "She picks 9 x 4 = 36 figs.\n#### 36",
        "Bruno picks 9 figs a day. How many figs does Bruno pick in 4 days?",
        "He picks 9 x 4 = 36 figs.\n#### 36",
    ),
    "a renamed thing the answer names in another form": (
        "Lotte packs 6 boxes with 12 plums in each. How many plums does she pack?",
        "Each box holds 12 plums: 6 x 12 = 72 plums.\n#### 72",
        "Lotte packs 6 crates with 12 figs in each. How many figs does she pack?",
        "Each crate holds 12 figs: 6 x 12 = 72 figs.\n#### 72",
    ),
    "a person that changes pronouns, alone in the story": (
        "Lotte bakes 4 pies a day. How many pies does she bake in 6 days?",
        "Pies: 4 x 6 = 24 pies.\n#### 24",
        "Bruno bakes 4 pies a day. How many pies does he bake in 6 days?",
        "Pies: 4 x 6 = 24 pies.\n#### 24",
    ),
    "a value the answer writes in another notation than the request": (
        "Lotte uses a half cup of oats for each loaf and bakes 4 loaves. How many cups of oats "
        "does she use?",
        "Oats: .5 * 4 = 2 cups.\n#### 2",
        "Lotte uses a quarter cup of oats for each loaf and bakes 4 loaves. How many cups "
        "of oats does she use?",
        "Oats: .25 * 4 = 1 cups.\n#### 1",
    ),
    "a percentage the answer writes over 100": (
        "A bike costs $700 and its price rises by 10%. By how many dollars does it rise?",
        "Rise: 10/100 * 700 = $70.\n#### 70",
        "A bike costs $700 and its price rises by 20%. By how many dollars does it rise?",
        "Rise: 20/100 * 700 = $140.\n#### 140",
    ),
    "a renamed word the answer's label takes from the old thing": (
        "Lotte buys 5 plums at $2 each. How much does she pay?",
        "Fruit bought: 5 x $2 = $10.\n#### 10",
        "Lotte buys 5 pencils at $2 each. How much does she pay?",
        "Pencils bought: 5 x $2 = $10.\n#### 10",
    ),
}

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


WRAPPERS = {"langchain": _langchain, "llama_index": _llama_index}


def _served(case: Case, wrapper: str) -> tuple[str, dict[str, Any]]:
    cached, cached_answer, new, new_answer = case
    ask = WRAPPERS[wrapper](AnswerBook({cached: cached_answer, new: new_answer}))
    ask(cached)
    return ask(new)


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_attack_on_renaming_is_answered_by_the_model(name: str, wrapper: str) -> None:
    case = REFUSED[name]
    served, record = _served(case, wrapper)
    assert " ".join(served.split()) == " ".join(case[3].split()), (record["decision"], served)
    assert record["decision"] in ("skip", "miss"), record


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("name", sorted(CARRIED))
def test_a_carried_over_change_serves_the_new_answer(name: str, wrapper: str) -> None:
    case = CARRIED[name]
    served, record = _served(case, wrapper)
    assert " ".join(served.split()) == " ".join(case[3].split()), (record["decision"], served)
