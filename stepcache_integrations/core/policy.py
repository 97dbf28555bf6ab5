"""The reuse policy: when to reuse, patch or skip, and what the request path may do."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Policy"]


@dataclass(frozen=True)
class Policy:
    """Thresholds and switches of the request path. Invalid values raise ``ValueError``.

    Attributes:
        similarity_threshold: cosine similarity below which the nearest cached request is a
            miss. The default embedder masks numbers and names, so 0.75 admits prompts with
            the same structure and other constants but not another kind of task.
        candidates: how many of the nearest cached requests above the threshold are verified;
            the one whose answer reuses the most steps wins.
        max_regenerate_fraction: skip reuse when the block to regenerate is more than this
            share of the cached answer, by length, the proxy for output tokens (regenerating
            most of an answer costs about as much as a fresh one, and the continuation prompt
            is longer). A block that a deterministic
            solver writes (``solver_patches``) is exempt: it costs nothing.
        skip_on_first_step: skip reuse when step 0 fails (nothing reusable precedes it).
        repair: allow one repair call when the stitched or generated answer fails a check.
        deterministic_fallback: use a task's deterministic answer when the repair fails too.
        prefer_fallback: when the task has a deterministic answer (linear equations), use it
            at once instead of a repair call: it is certain, and the repair would only add a
            model call to the tail latency.
        solver_patches: when a task verifier can write the failing steps deterministically
            (linear equations), patch with it instead of calling the model.
        partial_patches: let a verifier ask the model for only the missing part of a step
            (e.g. the value of one added JSON key) and merge it.
        patch_budget: on a patch, the model's output (the partial call, the continuation and a
            repair) stays within this multiple of one full generation (the cached answer's
            output tokens). A repair that would go beyond it is not made: the task's
            deterministic answer is served if it has one, else the answer is flagged
            (``passed`` false, never stored). It bounds a patch's tail latency.
        adaptive_repair: stop making repair calls for a task whose recent repairs almost
            never worked (fewer than 1 in 10 of the last 20, after at least 8): each one
            doubled a request's latency for an answer that ended flagged anyway. A probe still
            tries now and then, so a better model is noticed: the tenth request, then twice as
            long after each failed probe (up to 160), ten again after one that works. A due
            probe skips a request whose model call was already clearly slower than the recent
            ones (it would double the slowest latencies) and goes to the next one. The
            answer is flagged as before.
        adaptive_answers: for a task with a deterministic answer (linear equations), when the
            model's own answers to it almost never passed their checks lately (fewer than 1 in
            10 of the last 20, after at least 8), serve the deterministic answer without
            calling the model: the call's answer would be replaced by it anyway. A probe still
            asks the model now and then (spaced like ``adaptive_repair``'s), so a model that
            can do the task is heard again.
            Needs ``deterministic_fallback``. Like ``adaptive_repair``, kept per namespace:
            one model failing a task decides nothing for another model sharing the cache.
        max_prompt_chars / max_answer_chars: larger prompts or answers are not cached
            (decision ``bypass``, with the reason).

    Example:
        >>> Policy(similarity_threshold=0.9).max_regenerate_fraction
        0.6
    """

    similarity_threshold: float = 0.75
    candidates: int = 4
    max_regenerate_fraction: float = 0.6
    skip_on_first_step: bool = True
    repair: bool = True
    deterministic_fallback: bool = True
    prefer_fallback: bool = True
    solver_patches: bool = True
    partial_patches: bool = True
    patch_budget: float = 1.5
    adaptive_repair: bool = True
    adaptive_answers: bool = True
    max_prompt_chars: int = 20_000
    max_answer_chars: int = 100_000

    def __post_init__(self) -> None:
        if not -1.0 <= self.similarity_threshold <= 1.0:
            raise ValueError(
                f"similarity_threshold must be in [-1, 1], got {self.similarity_threshold!r}"
            )
        if not 0.0 < self.max_regenerate_fraction <= 1.0:
            raise ValueError(
                f"max_regenerate_fraction must be in (0, 1], got {self.max_regenerate_fraction!r}"
            )
        if not (isinstance(self.patch_budget, int | float) and self.patch_budget > 0):
            raise ValueError(f"patch_budget must be a positive number, got {self.patch_budget!r}")
        for name in ("candidates", "max_prompt_chars", "max_answer_chars"):
            value = getattr(self, name)
            if not isinstance(value, int) or value <= 0:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
