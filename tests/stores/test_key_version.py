"""Entries stored under an older comparison form never match a request they would be wrong for.

0.5.0 folded every capitalised word that was not in its name lexicon: "Is a Kestrel fast?"
(a product) was stored under the key of "is a kestrel fast" (the bird). The key now carries
the version of the form's rules, so such an entry, read from any store, can no longer be the
exact match of "Is a kestrel fast?". It is still the same request as its own text.
"""

from __future__ import annotations

import hashlib

from stepcache_integrations.core.entries import CacheEntry, prompt_key
from stepcache_integrations.core.steps import Step
from tests.reliability.support import NS, Model, ask
from tests.stores.conftest import MakeCache

OLD_PROMPT = "Is a Kestrel fast?"
# The 0.5.0 key, written out: sha256 of the namespace and the 0.5.0 comparison form.
OLD_FORM = "\x1f".join(["is", "a", "kestrel", "fast"])
OLD_KEY = hashlib.sha256(f"{NS}\x00{OLD_FORM}".encode()).hexdigest()
OLD_ANSWER = "The Kestrel jet reaches Mach 2."


def old_entry() -> CacheEntry:
    return CacheEntry(
        id=OLD_KEY[:32],
        namespace=NS,
        tenant=None,
        prompt=OLD_PROMPT,
        key=OLD_KEY,
        steps=(Step(OLD_ANSWER),),
        segmenter="paragraph",
    )


def test_a_key_of_the_old_rules_never_matches_a_new_request(make_cache: MakeCache) -> None:
    assert prompt_key(NS, "Is a kestrel fast?") != OLD_KEY
    assert prompt_key(NS, OLD_PROMPT) != OLD_KEY
    cache = make_cache()
    cache.store.put(old_entry())
    assert cache.store.get_by_key(OLD_KEY) is not None  # the stored row is there

    bird = Model(lambda prompt, call: "A kestrel flies at about 60 km/h.")
    result = ask(cache, "Is a kestrel fast?", bird)
    assert result.record.decision not in ("exact", "reuse")
    assert result.text == "A kestrel flies at about 60 km/h."
    assert len(bird.calls) == 1


def test_an_old_entry_still_answers_its_own_text(make_cache: MakeCache) -> None:
    cache = make_cache()
    cache.store.put(old_entry())
    model = Model(lambda prompt, call: "a fresh answer")
    result = ask(cache, OLD_PROMPT, model)
    assert result.text == OLD_ANSWER
    assert result.record.decision in ("exact", "reuse")
    assert model.calls == []
