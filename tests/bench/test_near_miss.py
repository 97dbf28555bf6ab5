"""The near-miss check: pairs of requests that look alike; a cache that answers B with A's
answer when they mean different things served the other request's answer."""

from __future__ import annotations

from stepcache_integrations.bench.near_miss import NEAR_MISS_PAIRS, NearMissPair, near_miss_check

# Written for this test, independently of the benchmark's pairs.
PAIRS = (
    NearMissPair("t-eq", "equation", False,
                 'Solve 5x - 2 = 13 for x. Show your work step by step, one line per step in '
                 'the form "Step N: <equation>", and end with the line "x = <value>".',
                 'Solve 5x - 2 = 18 for x. Show your work step by step, one line per step in '
                 'the form "Step N: <equation>", and end with the line "x = <value>".'),
    NearMissPair("t-neg", "negation", False, "Is the museum open on Mondays in winter?",
                 "Is the museum not open on Mondays in winter?"),
    NearMissPair("t-same", "same_case", True, "Name three prime numbers below twenty.",
                 "Name three prime numbers below twenty"),
)  # fmt: skip


def test_stepcache_never_serves_the_other_requests_answer_and_the_peers_do() -> None:
    result = near_miss_check(("stepcache", "gptcache", "sulci"), PAIRS)
    assert (result["pairs"], result["different_pairs"], result["same_pairs"]) == (3, 2, 1)
    caches = {row["label"]: row for row in result["caches"]}
    assert list(caches) == [
        "stepcache", "gptcache", "gptcache (default threshold)", "sulci",
        "sulci (default threshold)",
    ]  # fmt: skip
    step = caches["stepcache"]
    assert step["different_served_other"] == 0 and step["different_served_other_ids"] == []
    assert step["same_served_cached"] == 1  # it does reuse where the meaning is the same
    for label in ("gptcache", "gptcache (default threshold)", "sulci"):
        assert "t-eq" in caches[label]["different_served_other_ids"], label
        assert caches[label]["different_examples"][0].startswith("Solve 5x - 2 = 13")
    assert "0.875" not in caches["gptcache"]["threshold"]  # stated on the cosine scale
    assert "cosine 0.6" in caches["gptcache (default threshold)"]["threshold"]
    assert "SIMULATED" in result["what"]


def test_the_benchmark_set_has_56_pairs_48_of_different_meaning() -> None:
    assert len(NEAR_MISS_PAIRS) == 56
    assert sum(not p.same for p in NEAR_MISS_PAIRS) == 48
    assert len({p.id for p in NEAR_MISS_PAIRS}) == 56
    assert all(p.a != p.b for p in NEAR_MISS_PAIRS)
    assert {p.cls for p in NEAR_MISS_PAIRS if not p.same} == {
        "negation", "direction", "roles", "numbers", "names", "equation", "json", "word",
    }  # fmt: skip
