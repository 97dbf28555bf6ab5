"""The corpus's families, by topic (``ALL``: every family, in a fixed order).

A family whose story has no thing in it is told in a city ("In Lagos, ..."): every family
then has a person, a thing and quantities for its variants to change.
"""

from __future__ import annotations

from dataclasses import replace

from tests.word_problems.templated.families import (
    building,
    daily,
    finance,
    kitchen,
    multistep,
    school,
    shopping,
    travel,
)
from tests.word_problems.templated.model import Family, WordSlot, thing

__all__ = ["ALL"]


def _placed(text: str) -> str:
    opening = text if text.startswith("{") else text[:1].lower() + text[1:]
    return "In {where}, " + opening


def _with_place(family: Family) -> Family:
    """``family`` unchanged if it names a thing, else its stories set in a city."""
    if any(isinstance(slot, WordSlot) for slot in family.slots.values()):
        return family
    changes = tuple(replace(c, text=_placed(c.text)) for c in family.changes)
    return replace(
        family,
        slots={**family.slots, "where": thing("city")},
        text=_placed(family.text),
        paraphrases=tuple(_placed(p) for p in family.paraphrases),
        changes=changes,
    )


_FAMILIES: tuple[Family, ...] = (
    *shopping.FAMILIES,
    *kitchen.FAMILIES,
    *travel.FAMILIES,
    *school.FAMILIES,
    *building.FAMILIES,
    *finance.FAMILIES,
    *multistep.FAMILIES,
    *daily.FAMILIES,
)
ALL: tuple[Family, ...] = tuple(_with_place(f) for f in _FAMILIES)
