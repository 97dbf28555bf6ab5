"""Builds the corpus: every family's base request and its variants, with the oracle's answers.

Deterministic (each family draws from its own seeded generator), so the committed
``corpus.jsonl`` is exactly what :func:`build` returns; regenerate it after changing a family:

    python -m tests.word_problems.templated.build

Variant kinds (``group`` ``same_computation``): ``rename`` (other people, same gender, then
another gender), ``things`` (another thing of the category, then every thing and place),
``digits`` (other quantities), ``notation`` (the same quantities in other notations),
``paraphrase`` (the story reworded, same quantities), ``mixed`` (people, things and
quantities all new, in random notations). ``computation_change``: the family's
:class:`~tests.word_problems.templated.model.Change` templates, on the base's people, things
and (where they keep the computations apart) quantities.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from tests.word_problems.templated import lexicon, notation
from tests.word_problems.templated.model import (
    STYLE_ORDER,
    STYLES,
    Change,
    Derived,
    Family,
    PersonSlot,
    Quantity,
    Slot,
    Steps,
    Style,
    Values,
    WordSlot,
    evaluate,
    parse,
    render_answer,
)

__all__ = ["CHANGED", "CORPUS", "SAME", "Variant", "build", "load", "style_of", "write"]

CORPUS = Path(__file__).with_name("corpus.jsonl")
SAME = "same_computation"
CHANGED = "computation_change"
BASE = "base"
_TRIES = 4000


@dataclass(frozen=True)
class Variant:
    """One request of the corpus and the oracle's answer to it."""

    family: str
    id: str
    group: str  # base | same_computation | computation_change
    kind: str  # base, rename, things, digits, notation, paraphrase, mixed, or a Change kind
    prompt: str
    answer: str  # the exact final number: str(Fraction)
    oracle: str  # the oracle's full step-by-step answer
    template: str  # "text", "paraphrase-N" or the Change's kind
    style: str
    bindings: dict[str, str] = field(default_factory=dict)  # slot -> value
    notations: dict[str, str] = field(default_factory=dict)  # quantity slot -> notation
    equations: list[str] = field(default_factory=list)  # as written in ``oracle``
    stale: str = ""  # computation changes: what the base's computation gives on these values

    @property
    def truth(self) -> Fraction:
        return Fraction(self.answer)


def style_of(family: Family) -> str:
    """The name of the family's answer style (its own, else one chosen by its id)."""
    if family.style is not None:
        return family.style
    return STYLE_ORDER[zlib.crc32(family.id.encode()) % len(STYLE_ORDER)]


_CENTS = re.compile(r"\$\d[\d,]*\.\d\d")


# -- drawing bindings ----------------------------------------------------------------------------


@dataclass
class _Draw:
    """People, things and quantities chosen for one variant."""

    people: dict[str, lexicon.Person]
    words: dict[str, Any]
    values: dict[str, Fraction]


def _quantity_slots(slots: Mapping[str, Slot]) -> dict[str, Quantity]:
    return {k: s for k, s in slots.items() if isinstance(s, Quantity)}


def _pick_people(
    rng: random.Random,
    slots: Mapping[str, Slot],
    avoid: Iterable[str] = (),
    genders: Mapping[str, str] | None = None,
) -> dict[str, lexicon.Person]:
    taken = set(avoid)
    people = {}
    for name, slot in slots.items():
        if not isinstance(slot, PersonSlot):
            continue
        pool = [
            p
            for p in lexicon.PEOPLE
            if p.name not in taken and (genders is None or p.gender == genders[name])
        ]
        chosen = rng.choice(pool)
        taken.add(chosen.name)
        people[name] = chosen
    return people


def _pick_words(
    rng: random.Random,
    slots: Mapping[str, Slot],
    avoid: Mapping[str, Any] | None = None,
    only: str | None = None,
) -> dict[str, Any]:
    words: dict[str, Any] = {}
    taken: set[str] = set()
    for name, slot in slots.items():
        if not isinstance(slot, WordSlot):
            continue
        if avoid is not None and only is not None and name != only:
            words[name] = avoid[name]
            taken.add(avoid[name].key)
    for name, slot in slots.items():
        if not isinstance(slot, WordSlot) or name in words:
            continue
        used = {avoid[n].key for n in avoid} if avoid is not None else set()
        pool = [w for w in lexicon.CATEGORIES[slot.category] if w.key not in taken | used]
        chosen = rng.choice(pool)
        taken.add(chosen.key)
        words[name] = chosen
    return words


def _draw_values(
    rng: random.Random,
    slots: Mapping[str, Quantity],
    keep: Mapping[str, Fraction] | None = None,
    differ_from: Mapping[str, Fraction] | None = None,
) -> dict[str, Fraction]:
    values = dict(keep or {})
    for name, slot in slots.items():
        if name in values:
            continue
        pool = list(slot.values)
        if differ_from is not None and name in differ_from and len(pool) > 1:
            pool = [v for v in pool if v != differ_from[name]]
        values[name] = rng.choice(pool)
    return values


# -- rendering one variant -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Template:
    text: str
    steps: Steps
    solve: Any
    slots: dict[str, Slot]
    derived: dict[str, Derived]
    when: Any


def _base_template(family: Family, text: str | None = None) -> _Template:
    return _Template(
        text or family.text,
        family.steps,
        family.solve,
        family.slots,
        family.derived,
        family.when,
    )


def _change_template(family: Family, change: Change) -> _Template:
    return _Template(
        change.text,
        change.steps,
        change.solve,
        {**family.slots, **change.slots},
        {**family.derived, **change.derived},
        change.when,
    )


def _kinds(template: _Template) -> dict[str, str]:
    kinds = {k: s.kind for k, s in _quantity_slots(template.slots).items()}
    kinds.update({k: d.kind for k, d in template.derived.items()})
    return kinds


def _with_derived(template: _Template, values: Mapping[str, Fraction]) -> dict[str, Fraction]:
    full = dict(values)
    for name, derived in template.derived.items():
        full[name] = evaluate(parse(derived.expr), full)
    return full


# A verb that does not follow "they" (a template slip: write {A.v[buys]}, {A.v[does]} {A.he}).
_AGREEMENT = re.compile(
    r"\b(?:[Tt]hey (?:has|is|was|does|[a-z]*[^s\W]s)|(?:[Dd]oes|[Hh]as|[Ii]s|[Ww]as) they)\b"
)


_SENTENCE_START = re.compile(r"(^|[.?!]\s+)([a-z])")


class Unusable(ValueError):
    """These values do not make a well-formed problem (negative, fractional counts...)."""


@dataclass(frozen=True)
class _Made:
    prompt: str
    truth: Fraction
    oracle: str
    equations: tuple[str, ...]
    values: dict[str, Fraction]


def _make(
    family: Family,
    template: _Template,
    draw: _Draw,
    notations: Mapping[str, str],
    style: Style,
) -> _Made:
    kinds = _kinds(template)
    try:
        values = _with_derived(template, draw.values)
    except ZeroDivisionError as error:
        raise Unusable(str(error)) from error
    if template.when is not None and not template.when(Values(values)):
        raise Unusable("the template's condition does not hold")
    for name, value in values.items():
        if value <= 0:
            raise Unusable(f"{name} = {value}")
    shown: dict[str, Any] = {**draw.people, **draw.words}
    for name, value in values.items():
        try:
            shown[name] = notation.write(kinds[name], value, notations.get(name, "default"))
        except ValueError as error:
            raise Unusable(str(error)) from error
    prompt = _SENTENCE_START.sub(
        lambda m: m.group(1) + m.group(2).upper(), template.text.format(**shown)
    )
    words_env: dict[str, Any] = {**draw.people, **draw.words}
    try:
        rendered = render_answer(style, template.steps, words_env, values, kinds)
    except (ValueError, ZeroDivisionError) as error:
        raise Unusable(str(error)) from error
    for text in (prompt, rendered.text):
        if (slip := _AGREEMENT.search(text)) is not None:
            raise AssertionError(f"{family.id}: {slip.group(0)!r} in {text!r}")
    truth = Fraction(template.solve(Values(values)))
    if truth != rendered.value:
        raise AssertionError(
            f"{family.id}: the steps give {rendered.value}, the solution function {truth} "
            f"({dict(values)})"
        )
    return _Made(prompt, truth, rendered.text, rendered.equations, values)


def _default_notations(template: _Template) -> dict[str, str]:
    return {name: notation.NOTATIONS[kind][0] for name, kind in _kinds(template).items()}


def _variant(
    family: Family,
    made: _Made,
    draw: _Draw,
    notations: Mapping[str, str],
    group: str,
    kind: str,
    number: int,
    template_name: str,
    style: Style,
    stale: Fraction | None = None,
) -> Variant:
    bindings = {k: p.name for k, p in draw.people.items()}
    bindings.update({k: w.key for k, w in draw.words.items()})
    bindings.update({k: str(v) for k, v in made.values.items()})
    return Variant(
        family=family.id,
        id=f"{family.id}/{kind}-{number}" if group != BASE else f"{family.id}/base",
        group=group,
        kind=kind,
        prompt=made.prompt,
        answer=str(made.truth),
        oracle=made.oracle,
        template=template_name,
        style=style.name,
        bindings=bindings,
        notations=dict(notations),
        equations=list(made.equations),
        stale="" if stale is None else str(stale),
    )


# -- a family's variants -------------------------------------------------------------------------


def _draw_base(rng: random.Random, family: Family, style: Style) -> tuple[_Draw, _Made]:
    template = _base_template(family)
    quantities = _quantity_slots(family.slots)
    for _ in range(_TRIES):
        draw = _Draw(
            _pick_people(rng, family.slots),
            _pick_words(rng, family.slots),
            _draw_values(rng, quantities),
        )
        try:
            return draw, _make(family, template, draw, _default_notations(template), style)
        except Unusable:
            continue
    raise AssertionError(f"{family.id}: no usable base values")


def _notation_choices(
    kinds: Mapping[str, str], values: Mapping[str, Fraction]
) -> list[dict[str, str]]:
    """Notation assignments other than the default: every quantity in its second notation,
    every quantity in its third (else second), then one quantity at a time."""
    names = list(kinds)
    options = {n: notation.available(kinds[n], values[n]) for n in names}
    found: list[dict[str, str]] = []
    for position in (1, 2):
        found.append({n: o[min(position, len(o) - 1)] for n, o in options.items()})
    for name in names:
        for alt in options[name][1:]:
            found.append({n: (alt if n == name else options[n][0]) for n in names})
    return found


_QUANTITY_REF = re.compile(r"\{([a-z]\w*)\}")


def _form(text: str, quantities: Iterable[str]) -> str:
    """A template with its quantities abstracted: two templates of one form differ only in
    which quantity stands where (the same computation on other values)."""
    names = set(quantities)
    return _QUANTITY_REF.sub(lambda m: "{#}" if m.group(1) in names else m.group(0), text)


def check_forms(family: Family) -> None:
    """Every computation change is a new form of the story: not the base's template (or a
    paraphrase) with its quantities moved about, and not another change's (``branch`` changes
    keep the base's text on purpose)."""
    quantities = [*family.slots, *family.derived]
    for change in family.changes:
        quantities.extend([*change.slots, *change.derived])
    seen = {_form(t, quantities): "the base" for t in (family.text, *family.paraphrases)}
    for change in family.changes:
        if change.kind == "branch":
            continue
        form = _form(change.text, quantities)
        if form in seen:
            raise AssertionError(
                f"{family.id}: the {change.kind} change is {seen[form]}'s template with its "
                "quantities moved: the same computation, not a change"
            )
        seen[form] = f"the {change.kind} change"


def family_variants(family: Family) -> list[Variant]:
    """The base request of ``family`` and all its variants. A family whose amounts are not
    all whole dollars writes every amount with cents (one family, one way of writing)."""
    check_forms(family)
    style = STYLES[style_of(family)]
    variants = _family_variants(family, style)
    if not style.cents and any(_CENTS.search(v.oracle) for v in variants):
        variants = _family_variants(family, replace(style, name=f"{style.name}+cents", cents=True))
    return variants


def _family_variants(family: Family, style: Style) -> list[Variant]:
    rng = random.Random(f"stepcache-h24/{family.id}")
    base_draw, base = _draw_base(rng, family, style)
    template = _base_template(family)
    quantities = _quantity_slots(family.slots)
    defaults = _default_notations(template)
    variants = [_variant(family, base, base_draw, defaults, BASE, "base", 0, "text", style)]
    prompts = {base.prompt}

    def add(
        draw: _Draw,
        notations: Mapping[str, str],
        kind: str,
        number: int,
        tmpl: _Template | None = None,
        name: str = "text",
        group: str = SAME,
        stale: Fraction | None = None,
    ) -> bool:
        try:
            made = _make(family, tmpl or template, draw, notations, style)
        except Unusable:
            return False
        if made.prompt in prompts:
            return False
        if stale is not None and made.truth == stale:
            return False
        # Two computation changes of one family never share an answer either: one could be
        # served the other's cached answer and look right.
        if group == CHANGED and any(v.group == CHANGED and v.truth == made.truth for v in variants):
            return False
        prompts.add(made.prompt)
        variants.append(
            _variant(family, made, draw, notations, group, kind, number, name, style, stale)
        )
        return True

    people = base_draw.people
    # rename: the same genders, then other genders.
    add(
        _Draw(
            _pick_people(
                rng,
                family.slots,
                [p.name for p in people.values()],
                {k: p.gender for k, p in people.items()},
            ),
            base_draw.words,
            base_draw.values,
        ),
        defaults,
        "rename",
        1,
    )
    other = {"f": "m", "m": "n", "n": "f"}
    add(
        _Draw(
            _pick_people(
                rng,
                family.slots,
                [p.name for p in people.values()],
                {k: other[p.gender] for k, p in people.items()},
            ),
            base_draw.words,
            base_draw.values,
        ),
        defaults,
        "rename",
        2,
    )
    # things: the first thing, then all of them.
    word_slots = [k for k, s in family.slots.items() if isinstance(s, WordSlot)]
    if word_slots:
        add(
            _Draw(
                people,
                _pick_words(rng, family.slots, base_draw.words, word_slots[0]),
                base_draw.values,
            ),
            defaults,
            "things",
            1,
        )
        for _ in range(20):  # another thing than the first variant's, where there is one
            if add(
                _Draw(people, _pick_words(rng, family.slots, base_draw.words), base_draw.values),
                defaults,
                "things",
                2,
            ):
                break
    # digits: other quantities, same people and things.
    for number in (1, 2):
        for _ in range(_TRIES):
            values = _draw_values(rng, quantities, differ_from=base_draw.values)
            if add(_Draw(people, base_draw.words, values), defaults, "digits", number):
                break
    # notation: the base's quantities, written otherwise.
    base_values = _with_derived(template, base_draw.values)
    number = 1
    for notations in _notation_choices(_kinds(template), base_values):
        if number > 2:
            break
        if add(base_draw, notations, "notation", number):
            number += 1
    # paraphrase: the story reworded, the same people, things and quantities.
    for number, text in enumerate(family.paraphrases, start=1):
        add(
            base_draw,
            defaults,
            "paraphrase",
            number,
            _base_template(family, text),
            f"paraphrase-{number}",
        )
    # mixed: everything new, in random notations.
    kinds = _kinds(template)
    for number in (1, 2):
        for _ in range(_TRIES):
            draw = _Draw(
                _pick_people(rng, family.slots, [p.name for p in people.values()]),
                _pick_words(rng, family.slots, base_draw.words),
                _draw_values(rng, quantities, differ_from=base_draw.values),
            )
            full = _with_derived(template, draw.values) if _safe(template, draw.values) else None
            if full is None:
                continue
            notations = {
                n: rng.choice(notation.available(kinds[n], full[n]) or (defaults[n],))
                for n in kinds
            }
            if add(draw, notations, "mixed", number):
                break
    # computation changes: the base's people and things; its quantities where they keep the
    # two computations apart.
    for change in family.changes:
        tmpl = _change_template(family, change)
        extra = _quantity_slots(change.slots)
        change_defaults = _default_notations(tmpl)
        made_one = False
        for attempt in range(_TRIES):
            # The base's own quantities first (only the computation differs), new ones after.
            keep = dict(base_draw.values) if attempt < _TRIES // 2 else {}
            values = _draw_values(rng, {**quantities, **extra}, keep=keep)
            stale = _stale(family, change, values)
            if stale is None and not change.same_number:
                continue
            if change.same_number:
                stale = None
            draw = _Draw(people, base_draw.words, values)
            if add(draw, change_defaults, change.kind, 1, tmpl, change.kind, CHANGED, stale):
                made_one = True
                break
        if not made_one:
            raise AssertionError(f"{family.id}: no usable values for the {change.kind} change")
    return variants


def _safe(template: _Template, values: Mapping[str, Fraction]) -> bool:
    try:
        _with_derived(template, values)
    except ZeroDivisionError:
        return False
    return True


def _stale(family: Family, change: Change, values: Mapping[str, Fraction]) -> Fraction | None:
    """What the base's computation gives on ``values`` (a cache that reused the base's
    answer would serve it); ``None`` when it cannot be computed."""
    solve = change.stale or family.solve
    try:
        full = _with_derived(_change_template(family, change), values)
        return Fraction(solve(Values(full)))
    except (ZeroDivisionError, AttributeError):
        return None


def build(families: Iterable[Family] | None = None) -> list[Variant]:
    """Every variant of every family (the families of ``families.ALL`` by default)."""
    if families is None:
        from tests.word_problems.templated.families import ALL

        families = ALL
    found: list[Variant] = []
    for family in families:
        found.extend(family_variants(family))
    return found


def write(path: Path = CORPUS) -> int:
    """Write the corpus as JSON lines; the number of variants."""
    variants = build()
    with path.open("w", encoding="utf-8") as out:
        for variant in variants:
            out.write(json.dumps(asdict(variant), ensure_ascii=False, sort_keys=True) + "\n")
    return len(variants)


def load(path: Path = CORPUS) -> list[Variant]:
    """The committed corpus."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Variant(**json.loads(line)) for line in lines if line.strip()]


if __name__ == "__main__":
    print(f"wrote {write()} variants to {CORPUS}")
