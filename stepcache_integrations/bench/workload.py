"""The benchmark workload: base prompts and their perturbations.

Composition (fixed here, not tuned to any target): two task families with 10 base prompts each.
``COMPOSITION`` says, per family and perturbation kind, how many base prompts get that
perturbation; each such (base, kind) pair yields 3 variants. With the numbers below that is
74 groups x 3 = 222 evaluation requests per seed, 33 of them (14.9%) semantic changes.

The seed drives every random choice: which bases get which perturbation, the new constants,
the new variable names, the paraphrase wording, the keys added / removed, the new fixed values
and the order of the evaluation requests. The same seed always gives the same workload.

Warm-up: the 20 base prompts are served first, in every mode, and are *not* counted in the
evaluation metrics. Only the evaluation requests are measured.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from stepcache_integrations.bench.checks import Check, EquationCheck, JsonCheck, JsonScalar
from stepcache_integrations.bench.equations import EquationForm, LinearEquation
from stepcache_integrations.bench.prompts import (
    EQ_TO_JSON_TEMPLATES,
    EQUATION_BASES,
    EQUATION_PARAPHRASES,
    JSON_BASES,
    JSON_PARAPHRASES,
    JSON_TO_EQ_TEMPLATES,
    VARIABLE_POOL,
    JsonBase,
    equation_prompt,
    json_prompt,
    render_keys,
)

__all__ = [
    "COMPOSITION",
    "KINDS",
    "SEEDS",
    "VARIANTS",
    "Family",
    "Kind",
    "Request",
    "Workload",
    "build_workload",
    "integrity_ok",
    "task_correct",
]

Family = Literal["equation", "json"]
Kind = Literal[
    "base",
    "changed_constants",
    "renamed_variable",
    "paraphrase",
    "identical_repeat",
    "added_key",
    "changed_value",
    "removed_key",
    "semantic_change",
]
KINDS: tuple[Kind, ...] = (
    "changed_constants",
    "renamed_variable",
    "paraphrase",
    "identical_repeat",
    "added_key",
    "changed_value",
    "removed_key",
    "semantic_change",
)
SEEDS: tuple[int, ...] = (42, 43, 44)
VARIANTS = 3

# Base prompts per family that get each perturbation (x VARIANTS requests each). Key-level
# perturbations only exist for JSON and constant/name ones only for equations.
COMPOSITION: dict[Family, dict[Kind, int]] = {
    "equation": {
        "changed_constants": 10,
        "renamed_variable": 8,
        "paraphrase": 6,
        "identical_repeat": 6,
        "semantic_change": 6,
    },
    "json": {
        "paraphrase": 6,
        "identical_repeat": 6,
        "added_key": 7,
        "changed_value": 7,
        "removed_key": 7,
        "semantic_change": 5,
    },
}


@dataclass(frozen=True)
class Request:
    """One prompt of the workload with its code-judged check.

    ``family`` is the task the prompt asks for (a semantic change of an equation base asks for
    JSON); ``base_family`` the family of the base prompt it was derived from.
    """

    id: str
    prompt: str
    family: Family
    base_id: str
    base_family: Family
    kind: Kind
    variant: int
    check: Check

    @property
    def warmup(self) -> bool:
        return self.kind == "base"

    @property
    def expects_skip(self) -> bool:
        """A semantic change: a step cache must not reuse the base answer's steps."""
        return self.kind == "semantic_change"


def task_correct(request: Request, answer: str) -> bool:
    """Is ``answer`` right for ``request`` (true solution / keys and fixed values)?"""
    return request.check.task_correct(answer)


def integrity_ok(request: Request, answer: str) -> bool:
    """Is the whole answer sound (every equation holds, ends ``v = value`` / one JSON object)?"""
    return request.check.integrity_ok(answer)


@dataclass(frozen=True)
class Workload:
    """Warm-up requests (the base prompts, unmeasured) and evaluation requests, in order."""

    seed: int
    warmup: tuple[Request, ...]
    evaluation: tuple[Request, ...]

    def __iter__(self) -> Iterator[Request]:
        yield from self.warmup
        yield from self.evaluation

    def composition(self) -> dict[str, dict[str, int]]:
        """Evaluation requests per base family and kind, counted from the requests."""
        counts: dict[str, Counter[str]] = {}
        for request in self.evaluation:
            counts.setdefault(request.base_family, Counter())[request.kind] += 1
        return {family: dict(sorted(c.items())) for family, c in sorted(counts.items())}

    def describe(self) -> str:
        """A printable table of the composition, with the warm-up rule."""
        lines = [f"Workload (seed {self.seed}): counted from the generated requests"]
        lines.append(f"{'family':<10}{'kind':<20}{'requests':>9}")
        for family, kinds in self.composition().items():
            for kind, count in kinds.items():
                lines.append(f"{family:<10}{kind:<20}{count:>9}")
        total = len(self.evaluation)
        semantic = sum(r.expects_skip for r in self.evaluation)
        share = semantic / total if total else 0.0
        lines.append(f"evaluation requests: {total} (semantic changes: {semantic}, {share:.1%})")
        lines.append(
            f"warm-up: {len(self.warmup)} base prompts served first in every mode, "
            "not counted in the metrics"
        )
        return "\n".join(lines)


def build_workload(seed: int, quick: bool = False) -> Workload:
    """The workload for ``seed``. ``quick``: one variant of one base per (family, kind)."""
    rng = random.Random(seed)
    warmup: list[Request] = []
    evaluation: list[Request] = []
    for i, eq in enumerate(EQUATION_BASES, start=1):
        warmup.append(_equation_request(f"eq{i:02d}", eq, "base", 0, equation_prompt(eq)))
    for i, base in enumerate(JSON_BASES, start=1):
        prompt = json_prompt(base.topic, base.keys, base.fixed)
        warmup.append(_json_request(f"js{i:02d}", "base", 0, prompt, base.keys, base.fixed))
    for family, kinds in COMPOSITION.items():
        bases = [r for r in warmup if r.base_family == family]
        for kind, n_bases in kinds.items():
            for base_request in sorted(rng.sample(bases, n_bases), key=lambda r: r.id):
                evaluation.extend(_variants(rng, base_request, kind))
    rng.shuffle(evaluation)
    if quick:
        evaluation = _quick_subset(evaluation)
        used = {r.base_id for r in evaluation}
        warmup = [r for r in warmup if r.base_id in used]
    return Workload(seed, tuple(warmup), tuple(evaluation))


def _quick_subset(evaluation: list[Request]) -> list[Request]:
    chosen: list[Request] = []
    seen: set[tuple[str, str]] = set()
    for request in evaluation:
        key = (request.base_family, request.kind)
        if key not in seen and request.variant == 0:
            seen.add(key)
            chosen.append(request)
    return chosen


# --- request builders ----------------------------------------------------------------------


def _equation_request(
    base_id: str,
    eq: LinearEquation,
    kind: Kind,
    variant: int,
    prompt: str,
    base_family: Family = "equation",
) -> Request:
    rid = base_id + "/base" if kind == "base" else f"{base_id}/{kind}/{variant}"
    return Request(rid, prompt, "equation", base_id, base_family, kind, variant, EquationCheck(eq))


def _json_request(
    base_id: str,
    kind: Kind,
    variant: int,
    prompt: str,
    keys: tuple[str, ...],
    fixed: tuple[tuple[str, JsonScalar], ...],
    base_family: Family = "json",
) -> Request:
    rid = base_id + "/base" if kind == "base" else f"{base_id}/{kind}/{variant}"
    check = JsonCheck(keys, fixed)
    return Request(rid, prompt, "json", base_id, base_family, kind, variant, check)


def _variants(rng: random.Random, base: Request, kind: Kind) -> list[Request]:
    if isinstance(base.check, EquationCheck):
        return _equation_variants(rng, base, base.check.equation, kind)
    return _json_variants(rng, base, JSON_BASES[int(base.base_id[2:]) - 1], kind)


def _equation_variants(
    rng: random.Random, base: Request, eq: LinearEquation, kind: Kind
) -> list[Request]:
    out: list[Request] = []
    if kind == "changed_constants":
        seen = {(eq.a, eq.b, eq.c)}
        for v in range(VARIANTS):
            new = _random_equation(rng, eq.var, eq.form, like=eq, avoid=seen)
            seen.add((new.a, new.b, new.c))
            out.append(_equation_request(base.base_id, new, kind, v, equation_prompt(new)))
    elif kind == "renamed_variable":
        names = rng.sample([n for n in VARIABLE_POOL if n != eq.var], VARIANTS)
        for v, name in enumerate(names):
            new = eq.with_var(name)
            out.append(_equation_request(base.base_id, new, kind, v, equation_prompt(new)))
    elif kind == "paraphrase":
        for v, lead in enumerate(rng.sample(EQUATION_PARAPHRASES, VARIANTS)):
            prompt = equation_prompt(eq, lead, fmt=rng.randrange(2))
            out.append(_equation_request(base.base_id, eq, kind, v, prompt))
    elif kind == "identical_repeat":
        for v in range(VARIANTS):
            out.append(_equation_request(base.base_id, eq, kind, v, base.prompt))
    elif kind == "semantic_change":
        for v, template in enumerate(EQ_TO_JSON_TEMPLATES):
            fixed: tuple[tuple[str, JsonScalar], ...] = (("a", eq.a), ("b", eq.b), ("c", eq.c))
            if v == 2:
                fixed = (("variable", eq.var), *fixed)
            keys = tuple(key for key, _ in fixed)
            lead = template.format(eq=eq.render(), v=eq.var)
            prompt = json_prompt("", keys, fixed, lead=lead, fmt=v % 2)
            out.append(
                _json_request(base.base_id, kind, v, prompt, keys, fixed, base_family="equation")
            )
    else:
        raise ValueError(f"{kind} does not apply to equations")
    return out


def _json_variants(rng: random.Random, base: Request, spec: JsonBase, kind: Kind) -> list[Request]:
    out: list[Request] = []
    keys, fixed = spec.keys, spec.fixed
    bid = base.base_id
    if kind == "paraphrase":
        for v, lead in enumerate(rng.sample(JSON_PARAPHRASES, VARIANTS)):
            prompt = json_prompt(spec.topic, keys, fixed, lead=lead, fmt=rng.randrange(2))
            out.append(_json_request(bid, kind, v, prompt, keys, fixed))
    elif kind == "identical_repeat":
        for v in range(VARIANTS):
            out.append(_json_request(bid, kind, v, base.prompt, keys, fixed))
    elif kind == "added_key":
        for v, extra in enumerate(rng.sample(spec.extra_keys, VARIANTS)):
            new_keys = (*keys, extra)
            out.append(
                _json_request(
                    bid, kind, v, json_prompt(spec.topic, new_keys, fixed), new_keys, fixed
                )
            )
    elif kind == "changed_value":
        for v, (key, value) in enumerate(rng.sample(spec.alternatives, VARIANTS)):
            new_fixed = tuple((k, value if k == key else old) for k, old in fixed)
            out.append(
                _json_request(
                    bid, kind, v, json_prompt(spec.topic, keys, new_fixed), keys, new_fixed
                )
            )
    elif kind == "removed_key":
        for v, gone in enumerate(rng.sample(keys, VARIANTS)):
            new_keys = tuple(k for k in keys if k != gone)
            new_fixed = tuple((k, val) for k, val in fixed if k != gone)
            out.append(
                _json_request(
                    bid, kind, v, json_prompt(spec.topic, new_keys, new_fixed), new_keys, new_fixed
                )
            )
    elif kind == "semantic_change":
        names = rng.sample(VARIABLE_POOL, VARIANTS)
        for v, template in enumerate(JSON_TO_EQ_TEMPLATES):
            form: EquationForm = rng.choice(("standard", "swapped", "const_first"))
            eq = _random_equation(rng, names[v], form)
            lead = template.format(
                topic=spec.topic, keys=render_keys(keys), eq=eq.render(), v=eq.var
            )
            prompt = equation_prompt(eq, lead.replace("{", "{{").replace("}", "}}"), fmt=v % 2)
            out.append(_equation_request(bid, eq, kind, v, prompt, base_family="json"))
    else:
        raise ValueError(f"{kind} does not apply to JSON")
    return out


def _random_equation(
    rng: random.Random,
    var: str,
    form: EquationForm,
    like: LinearEquation | None = None,
    avoid: set[tuple[int, int, int]] | None = None,
) -> LinearEquation:
    """A new equation with an integer solution; ``like`` keeps its signs and unit coefficient."""
    avoid = avoid or set()
    while True:
        if like is not None and abs(like.a) == 1:
            a = like.a
        else:
            a = rng.randint(2, 9) * (-1 if like is not None and like.a < 0 else 1)
        b_sign = (1 if like.b >= 0 else -1) if like is not None else rng.choice((1, -1))
        b = b_sign * rng.randint(1, 30)
        solution = rng.choice([n for n in range(-9, 16) if n != 0])
        eq = LinearEquation(a, b, a * solution + b, var, form)
        if (eq.a, eq.b, eq.c) not in avoid:
            return eq
