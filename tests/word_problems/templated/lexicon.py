"""The people, things and places the corpus's templates are filled with.

People come from many cultures, women, men and people who go by "they" (the pronouns and the
verbs after them follow: "she buys", "they buy"). Things are grouped in categories so that a
variant swaps a thing for another of its kind ("kayaks" -> "canoes"). No word here is an
operation, unit or time word: a template's computation never rides on a slot's value.

>>> person("Alex").he, person("Alex").v["has"], person("Mei").His
('they', 'have', 'Her')
>>> noun("peach").many, noun("apple").a
('peaches', 'an apple')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

__all__ = ["CATEGORIES", "PEOPLE", "Craft", "Noun", "Person", "Place", "noun", "person"]


class Conjugation:
    """``v["buys"]``: the verb as it follows the person's pronoun ("buy" after "they")."""

    _IRREGULAR: ClassVar[dict[str, str]] = {
        "has": "have",
        "is": "are",
        "was": "were",
        "does": "do",
        "goes": "go",
    }

    def __init__(self, plural: bool) -> None:
        self.plural = plural

    def __getitem__(self, verb: str) -> str:
        if not self.plural:
            return verb
        if verb in self._IRREGULAR:
            return self._IRREGULAR[verb]
        if verb.endswith("ies"):
            return verb[:-3] + "y"
        if verb.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
            return verb[:-2]
        return verb[:-1] if verb.endswith("s") else verb


_PRONOUNS = {
    "f": ("she", "her", "her", "herself"),
    "m": ("he", "him", "his", "himself"),
    "n": ("they", "them", "their", "themselves"),
}


@dataclass(frozen=True)
class Person:
    """A person: ``{A}`` is the name, ``{A.he}``/``{A.He}``, ``{A.him}``, ``{A.his}``/
    ``{A.His}``, ``{A.pos}`` ("Omar's") and ``{A.v[buys]}`` follow."""

    name: str
    gender: str  # "f", "m" or "n" (they)

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)

    @property
    def he(self) -> str:
        return _PRONOUNS[self.gender][0]

    @property
    def He(self) -> str:
        return self.he.capitalize()

    @property
    def him(self) -> str:
        return _PRONOUNS[self.gender][1]

    @property
    def his(self) -> str:
        return _PRONOUNS[self.gender][2]

    @property
    def His(self) -> str:
        return self.his.capitalize()

    @property
    def himself(self) -> str:
        return _PRONOUNS[self.gender][3]

    @property
    def pos(self) -> str:
        return f"{self.name}'s"

    @property
    def v(self) -> Conjugation:
        return Conjugation(self.gender == "n")


@dataclass(frozen=True)
class Noun:
    """A countable thing: ``{T.one}``, ``{T.many}``, ``{T.a}`` ("an apple")."""

    one: str
    many: str

    def __str__(self) -> str:
        return self.many

    def __format__(self, spec: str) -> str:
        return format(self.many, spec)

    @property
    def a(self) -> str:
        article = "an" if self.one[0] in "aeiou" else "a"
        return f"{article} {self.one}"

    @property
    def key(self) -> str:
        return self.one


@dataclass(frozen=True)
class Craft:
    """Something a person makes: ``{K.does}`` ("knits"), ``{K.do}``, ``{K.one}``/``{K.many}``
    ("scarf"/"scarves")."""

    does: str
    do: str
    one: str
    many: str

    def __str__(self) -> str:
        return self.many

    def __format__(self, spec: str) -> str:
        return format(self.many, spec)

    @property
    def key(self) -> str:
        return self.one


@dataclass(frozen=True)
class Place:
    """A place or a name of one (``{P}``)."""

    name: str

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)

    @property
    def key(self) -> str:
        return self.name


_WOMEN = [
    "Priya",
    "Aisha",
    "Mei",
    "Sofia",
    "Fatima",
    "Yuki",
    "Amara",
    "Ingrid",
    "Lucia",
    "Zainab",
    "Olga",
    "Ananya",
    "Chiara",
    "Nia",
    "Leilani",
    "Hana",
    "Camila",
    "Emma",
    "Grace",
    "Mariam",
    "Keiko",
    "Ayesha",
    "Thandiwe",
    "Freya",
    "Rosa",
    "Adaeze",
    "Noura",
    "Lena",
    "Sakura",
    "Esperanza",
    "Wanjiru",
    "Marisol",
]
_MEN = [
    "Omar",
    "Kenji",
    "Diego",
    "Tariq",
    "Liam",
    "Ravi",
    "Kwame",
    "Mateo",
    "Hiroshi",
    "Sven",
    "Ahmed",
    "Chen",
    "Jamal",
    "Luca",
    "Pavel",
    "Arjun",
    "Tomasz",
    "Kofi",
    "Rafael",
    "Dmitri",
    "Emeka",
    "Haruto",
    "Ibrahim",
    "Juan",
    "Oliver",
    "Samir",
    "Tane",
    "Wei",
    "Yusuf",
    "Nikolai",
    "Bao",
    "Santiago",
]
_THEY = [
    "Alex",
    "Sam",
    "Jordan",
    "Robin",
    "Kai",
    "Riley",
    "Avery",
    "Quinn",
    "Sasha",
    "Rowan",
    "Jules",
    "Charlie",
    "Eden",
    "Ari",
    "Skyler",
]
_TITLED = (("Ms. Nakamura", "f"), ("Mrs. Okafor", "f"), ("Mr. Haddad", "m"), ("Mr. Lindqvist", "m"))

PEOPLE: tuple[Person, ...] = (
    *(Person(n, "f") for n in _WOMEN),
    *(Person(n, "m") for n in _MEN),
    *(Person(n, "n") for n in _THEY),
    *(Person(n, g) for n, g in _TITLED),
)


def _nouns(spec: str) -> tuple[Noun, ...]:
    """``"apple, box/boxes, sheep/sheep"``: a plural with ``/`` where it is not one + s."""
    found = []
    for item in spec.split(","):
        item = item.strip()
        one, _, many = item.partition("/")
        found.append(Noun(one, many or one + "s"))
    return tuple(found)


_CRAFTS = (
    Craft("knits", "knit", "scarf", "scarves"),
    Craft("paints", "paint", "portrait", "portraits"),
    Craft("bakes", "bake", "pie", "pies"),
    Craft("sews", "sew", "cushion", "cushions"),
    Craft("folds", "fold", "paper crane", "paper cranes"),
    Craft("carves", "carve", "wooden spoon", "wooden spoons"),
    Craft("weaves", "weave", "basket", "baskets"),
    Craft("builds", "build", "birdhouse", "birdhouses"),
    Craft("writes", "write", "poem", "poems"),
    Craft("frames", "frame", "photo", "photos"),
)

CATEGORIES: dict[str, tuple[Noun | Craft | Place, ...]] = {
    "fruit": _nouns("apple, orange, pear, banana, mango/mangoes, peach/peaches, plum, lemon, kiwi"),
    "vegetable": _nouns("carrot, potato/potatoes, tomato/tomatoes, onion, cucumber, beet"),
    "baked": _nouns("cookie, muffin, cupcake, bagel, croissant, brownie, scone, doughnut"),
    "toy": _nouns("marble, toy car, sticker, puzzle, kite, yo-yo, doll, spinning top"),
    "stationery": _nouns("pencil, pen, notebook, eraser, marker, crayon, folder, ruler"),
    "farm": _nouns("chicken, goat, sheep/sheep, cow, duck, rabbit, horse, pig"),
    "flower": _nouns("rose, tulip, daisy/daisies, sunflower, lily/lilies, orchid, carnation"),
    "book": _nouns("novel, comic book, magazine, storybook, cookbook, picture book"),
    "boat": _nouns("kayak, canoe, rowboat, paddleboat, sailboat, raft"),
    "ticket": _nouns("concert ticket, movie ticket, museum pass, train ticket, zoo ticket"),
    "clothes": _nouns("shirt, scarf/scarves, hat, jacket, sweater, dress/dresses"),
    "sport": _nouns("soccer ball, basketball, tennis racket, jersey, baseball cap, frisbee"),
    "material": _nouns("brick, tile, plank, paving stone, roof shingle, fence post"),
    "container": _nouns("box/boxes, crate, basket, bag, jar, tray, carton"),
    "vehicle": _nouns("bus/buses, van, minibus/minibuses, car"),
    "plant": _nouns("tree, shrub/shrubs, rose bush/rose bushes, hedge plant, fern"),
    "dish": _nouns("sandwich/sandwiches, salad, burrito, dumpling, taco, wrap"),
    "craft": _CRAFTS,
    "shop": tuple(
        Place(p)
        for p in ("market", "mall", "corner shop", "fair", "night market", "bazaar", "superstore")
    ),
    "city": tuple(
        Place(p)
        for p in ("Lagos", "Osaka", "Lima", "Cairo", "Oslo", "Hanoi", "Nairobi", "Quito", "Perth")
    ),
    "ingredient": _nouns("flour/flour, sugar/sugar, oats/oats, rice/rice, cocoa/cocoa"),
    "liquid": _nouns("milk/milk, juice/juice, water/water, broth/broth, lemonade/lemonade"),
    "animal": _nouns("dog, cat, parrot, hamster, tortoise/tortoises, rabbit"),
}


def person(name: str) -> Person:
    """The person of the lexicon named ``name``."""
    return next(p for p in PEOPLE if p.name == name)


def noun(one: str) -> Noun:
    """The noun of the lexicon whose singular is ``one``."""
    for items in CATEGORIES.values():
        for item in items:
            if isinstance(item, Noun) and item.one == one:
                return item
    raise KeyError(one)
