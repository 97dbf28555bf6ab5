"""Variants of GSM8K training stories with known answers, in the layouts models answer in.

Each problem (see :mod:`program`) gives a base request and variants of it, each with the
oracle's answer (SIMULATED: written here from the GSM8K solution, in the layout the problem
is assigned):

- kinds that keep the computation (``SAME``): ``numbers`` (the question's quantities changed
  and the solution re-run), ``names`` (people renamed, and numbers changed), ``things`` (a
  counted thing renamed, and numbers changed), ``words`` (numbers changed, one written in
  words), ``decimal`` (an integer amount of money or measure made a decimal), ``larger``
  (digit expansion: quantities times 10 or 100), ``distractor`` (a sentence with an
  unrelated number added), ``reworded`` (the question put first, or framed);
- kinds that change the computation (``CHANGED``): ``added_step`` (one more operation on the
  result), ``reversed`` (a quantity asked back from the result), ``removed`` (a quantity
  needed removed: no answer can be given).

A changed quantity is kept only when every result stays a valid value of what it counts:
whole where it was whole (money in whole cents), not negative, shares within their whole,
hours within a day and days within a week where the story says "a day" or "a week", the
order of the question's quantities kept (a part stays smaller than its whole).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import inflect

from tests.word_problems.gsm8k.program import Problem, fmt, read_problem

__all__ = [
    "CHANGED",
    "KINDS",
    "LANGUAGES",
    "LAYOUTS",
    "SAME",
    "SAMPLE",
    "Story",
    "Variant",
    "language_stories",
    "layout",
    "load_sample",
    "stories",
]

SAMPLE = Path(__file__).with_name("data") / "train_sample.jsonl"
SAME = ("numbers", "names", "things", "words", "decimal", "larger", "distractor", "reworded")
CHANGED = ("added_step", "reversed", "removed")
KINDS = SAME + CHANGED
LAYOUTS = ("annotated", "plain", "paragraph", "numbered", "bulleted", "steps")
_INFLECT = inflect.engine()

# Values that are also numbers of the world (a week, a dozen, a day, an hour, percent...):
# an answer may use them as constants, so the harness changes no quantity of that value.
_WORLD = frozenset(Fraction(n) for n in (7, 12, 24, 30, 31, 52, 60, 100, 365, 1000))
_TIME_OF_DAY = re.compile(r"\s*(?:am|pm|a\.m|p\.m|o'clock)\b", re.IGNORECASE)

NAMES = tuple(
    """Priya Omar Mei Diego Amara Kenji Lucia Tariq Ingrid Mateo Zainab Felix Chiara Kwame Rosa
    Arjun Hana Lars Camila Yusuf Freya Bao Noura Emeka Sakura Pavel Lena Rafael""".split()  # noqa: SIM905
)
# Things a story counts, renamed into things of the same sort (test data of the harness).
THINGS = {
    "apples": "pears",
    "pears": "plums",
    "oranges": "lemons",
    "cookies": "muffins",
    "cupcakes": "brownies",
    "muffins": "scones",
    "pencils": "markers",
    "pens": "crayons",
    "marbles": "beads",
    "stickers": "stamps",
    "books": "comics",
    "cards": "coins",
    "shirts": "sweaters",
    "flowers": "tulips",
    "roses": "daisies",
    "eggs": "lemons",
    "cakes": "pies",
    "pies": "tarts",
    "candies": "chocolates",
    "toys": "puzzles",
    "balloons": "kites",
    "bottles": "cans",
    "boxes": "crates",
    "bags": "sacks",
    "shells": "pebbles",
    "stamps": "badges",
    "tickets": "passes",
    "dolls": "puppets",
    "bracelets": "necklaces",
    "necklaces": "rings",
    "chairs": "stools",
    "tables": "desks",
    "plates": "bowls",
    "cups": "mugs",
    "trees": "bushes",
    "songs": "poems",
    "pages": "sheets",
    "videos": "photos",
}
_DISTRACTORS = (
    "{name}'s neighbour keeps {n} goldfish in a pond.",
    "The shop down the street has been open for {n} years.",
    "{name} also owns {n} houseplants.",
    "Last spring, {name} planted {n} tulip bulbs.",
)
_NOT_NAMES = frozenset(
    """The A An In On At If How What When Where Which Who Why Each Every She He They It His Her
    Their Its This That These Those There Then After Before During Monday Tuesday Wednesday
    Thursday Friday Saturday Sunday January February March April May June July August
    September October November December Mr Mrs Ms Dr I So But And Or For From With Of To One
    Two Three Four Five Six Seven Eight Nine Ten Half Twice Some All Both Christmas Halloween
    Easter""".split()  # noqa: SIM905
)


@dataclass(frozen=True)
class Variant:
    """One request of the harness and the oracle's answer (in the story's layout)."""

    story: int
    kind: str  # "base" or one of KINDS
    prompt: str
    oracle: str
    truth: Fraction | None  # the final answer (None: the request has none)

    @property
    def same(self) -> bool:
        return self.kind in SAME


@dataclass(frozen=True)
class Story:
    """A problem, its layout and its requests: the base first."""

    index: int
    layout: str
    requests: tuple[Variant, ...]


def load_sample(path: Path = SAMPLE) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


# -- layouts ----------------------------------------------------------------------------------


# How an answer states its final line and numbers its steps, per language.
PHRASES = {
    "en": ("The answer is {value}.", "Step {i}:", "The final answer is {value}."),
    "de": ("Die Antwort ist {value}.", "Schritt {i}:", "Das Ergebnis ist {value}."),
    "pt": ("A resposta é {value}.", "Passo {i}:", "A resposta final é {value}."),
}


def layout(answer: str, style: str, language: str = "en") -> str:
    """A GSM8K answer written in ``style`` (see :data:`LAYOUTS`), its sentences in
    ``language``."""
    answer_is, step_label, final_is = PHRASES[language]
    lines = [line.strip() for line in answer.strip().splitlines() if line.strip()]
    final = lines[-1] if lines[-1].startswith("####") else None
    body = lines[:-1] if final is not None else lines
    value = final[4:].strip() if final is not None else ""
    if style == "annotated":
        return "\n".join([*body, f"#### {value}"])
    body = [re.sub(r"<<[^<>]*>>", "", line) for line in body]
    if style == "plain":
        return "\n".join([*body, f"#### {value}"])
    if style == "paragraph":
        return " ".join(body) + "\n" + answer_is.format(value=value)
    if style == "numbered":
        return "\n".join([*(f"{i}. {line}" for i, line in enumerate(body, 1)), f"#### {value}"])
    if style == "bulleted":
        return "\n".join([*(f"- {line}" for line in body), answer_is.format(value=value)])
    steps = [f"{step_label.format(i=i)} {line}" for i, line in enumerate(body, 1)]
    return "\n\n".join([*steps, final_is.format(value=value)])


# -- quantities ----------------------------------------------------------------------------------


def _changeable(problem: Problem) -> list[int]:
    out = []
    for i in problem.used:
        number = problem.numbers[i]
        after = problem.question[number.end :]
        if number.value in _WORLD or number.value <= 1 or _TIME_OF_DAY.match(after):
            continue
        if 1900 <= number.value <= 2100 and number.value.denominator == 1:
            continue  # a year
        if number.value.denominator == 1 and number.value <= 100:
            spelled = str(_INFLECT.number_to_words(int(number.value)))
            if re.search(rf"(?i)\b{re.escape(spelled)}\b", problem.answer):
                continue  # the solution writes it in words: the harness would not rewrite it
        out.append(i)
    return out


def _draw(rng: random.Random, old: Fraction, money: bool, percent: bool) -> Fraction:
    if percent:
        return Fraction(rng.randrange(1, 20) * 5)
    if old.denominator != 1:
        step = Fraction(1, 4) if money else Fraction(1, 2)
        return max(step, old + step * rng.choice([-3, -2, -1, 1, 2, 3, 4]))
    low = max(2, int(old) // 2)
    high = max(low + 3, int(old) * 2)
    return Fraction(rng.randint(low, high))


_AGES = re.compile(r"(?i)\byears?\s+old\b|\bages?\b")
_PER_DAY = re.compile(r"(?i)\b(?:a|per|each|every|one)\s+day\b")
_PER_WEEK = re.compile(r"(?i)\b(?:a|per|each|every|one)\s+week\b")


def _valid(problem: Problem, values: Mapping[int, Fraction], results: list[Fraction]) -> bool:
    """Whether every result stays a valid value of what it counts (see the module
    docstring)."""
    money_results = _money_results(problem)
    for j, (calc, new) in enumerate(zip(problem.calcs, results, strict=True)):
        old = calc.result
        if old >= 0 > new or (old > 0 and new == 0):
            return False
        if old.denominator == 1 and new.denominator != 1 and j not in money_results:
            return False
        if (new * 100).denominator != 1:
            return False  # no result past cents
        if 0 <= old <= 1 and old.denominator != 1 and new > 1:
            return False  # a share past its whole
    numbers = problem.numbers
    current = [values.get(i, n.value) for i, n in enumerate(numbers)]
    for i in range(len(numbers)):
        if numbers[i].percent and current[i] > 100:
            return False
        for k in range(len(numbers)):
            before = numbers[i].value < numbers[k].value
            if before != (current[i] < current[k]) and numbers[i].value != numbers[k].value:
                return False
    if _AGES.search(problem.question) and (
        any(calc.result <= 100 < new for calc, new in zip(problem.calcs, results, strict=True))
        or any(n.value <= 100 < current[i] for i, n in enumerate(numbers))
    ):
        return False  # nobody is past 100 years old
    return _times_fit(problem, values, results)


def _times_fit(problem: Problem, values: Mapping[int, Fraction], results: list[Fraction]) -> bool:
    question = problem.question
    bounds = []
    if _PER_DAY.search(question):
        bounds.append(("hour", 24))
    if _PER_WEEK.search(question):
        bounds.append(("day", 7))
    for unit, most in bounds:
        for i, number in enumerate(problem.numbers):
            after = question[number.end : number.end + 8].lower()
            if after.strip().startswith(unit) and values.get(i, number.value) > most:
                return False
        for calc, new in zip(problem.calcs, results, strict=True):
            if calc.result <= most < new:
                return False
    return True


def _money_results(problem: Problem) -> set[int]:
    """Calculations whose result the answer writes as money ("$<<...>>")."""
    found = set()
    for j, match in enumerate(re.finditer(r"<<[^<>]*>>", problem.answer)):
        if "$" in problem.answer[max(0, match.start() - 3) : match.start()]:
            found.add(j)
    return found


def _numbers_variant(
    problem: Problem, rng: random.Random, scale: int | None = None, decimal: bool = False
) -> tuple[dict[int, Fraction], list[Fraction], tuple[str, str]] | None:
    changeable = _changeable(problem)
    if not changeable:
        return None
    for _ in range(60):
        values: dict[int, Fraction] = {}
        for i in changeable:
            number = problem.numbers[i]
            if scale is not None:
                values[i] = number.value * scale
            elif decimal:
                continue
            else:
                values[i] = _draw(rng, number.value, number.money, number.percent)
        if decimal:
            candidates = [
                i
                for i in changeable
                if problem.numbers[i].value.denominator == 1
                and (problem.numbers[i].money or _measured(problem, i))
            ]
            if not candidates:
                return None
            i = rng.choice(candidates)
            values[i] = problem.numbers[i].value + rng.choice([Fraction(1, 2), Fraction(1, 4)])
        if all(values[i] == problem.numbers[i].value for i in values):
            continue
        try:
            results = problem.run(values)
        except (ZeroDivisionError, ValueError):
            continue
        if results[-1] == problem.calcs[-1].result or not _valid(problem, values, results):
            if scale is not None:
                return None
            continue
        written = problem.rewrite(values, results, {})
        if written is None:
            continue
        return values, results, written
    return None


_MEASURES = re.compile(
    r"\s*(?:pounds?|kilograms?|kg|grams?|miles?|kilometers?|km|meters?|feet|foot|inches|inch|"
    r"gallons?|liters?|litres?|cups?|ounces?|hours?|minutes?)\b",
    re.IGNORECASE,
)


def _measured(problem: Problem, i: int) -> bool:
    return _MEASURES.match(problem.question, problem.numbers[i].end) is not None


def _final_of(answer: str) -> Fraction:
    match = re.search(r"####\s*([-\d.,/]+)", answer)
    assert match is not None
    return Fraction(match.group(1).replace(",", "").rstrip("."))


# -- renames, words, distractors, rewordings -------------------------------------------------


def _names(question: str) -> list[str]:
    """Capitalised words of the question that name people: written before a verb or a
    possessive somewhere ("Natalia sold", "Mark's"), never in lower case, never beside
    another capitalised word ("Tom Brady", "South America"), never after a preposition of
    place ("in Europe")."""
    found: list[str] = []
    for match in re.finditer(r"\b[A-Z][a-z]{2,}\b", question):
        word = match.group()
        if word in _NOT_NAMES or word in found or re.search(rf"\b{word.lower()}\b", question):
            continue
        uses = list(re.finditer(rf"\b{word}\b", question))
        if any(_beside_capital(question, m.start(), m.end()) for m in uses):
            continue
        if any(re.search(r"\b(?:in|to|at|from|of|near)\s+\Z", question[: m.start()]) for m in uses):
            continue
        if any(_SUBJECT.match(question, m.end()) for m in uses):
            found.append(word)
    return found


_SUBJECT = re.compile(
    r"(?:['\u2019]s\b|\s+(?:is|was|has|had|can|will|would|wants|needs|buys|bought|sold|sells"
    r"|gets|got|makes|made|earns|earned|spends|spent|takes|took|pays|paid|gives|gave|goes"
    r"|went|decides|decided|reads|read|works|worked|runs|ran|walks|walked|eats|ate|saves"
    r"|saved|collects|collected|plants|planted|bakes|baked|owns|uses|used|starts|started"
    r"|likes|liked|loves|loved|wanted|needed|found|finds|received|receives|picks|picked"
    r"|drives|drove|plays|played|sees|saw|shares|shared|fills|filled|does|did|and|also"
    r"|invested|invests|caught|catches|writes|wrote|reads|bought|orders|ordered|sleeps)\b)"
)


def _beside_capital(text: str, start: int, end: int) -> bool:
    before = re.search(r"[A-Z][a-z]+\s+\Z", text[:start])
    after = re.match(r"\s+[A-Z][a-z]+", text[end:])
    starts = before is not None and not re.search(r"[.!?]\s+[A-Z][a-z]+\s+\Z", text[:start])
    return starts or (after is not None and after.group().strip() not in _NOT_NAMES)


def _replace_words(text: str, mapping: Mapping[str, str]) -> str:
    if not mapping:
        return text
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in mapping) + r")\b")
    return pattern.sub(lambda m: mapping[m.group(1)], text)


def _renamed_names(question: str, answer: str, rng: random.Random) -> dict[str, str]:
    names = _names(question)
    free = [n for n in NAMES if n not in question and n not in answer]
    rng.shuffle(free)
    return dict(zip(names, free, strict=False))


def _renamed_things(question: str) -> dict[str, str]:
    for plural, other in THINGS.items():
        if re.search(rf"\d\s+{plural}\b", question) and other not in question:
            one, another = _INFLECT.singular_noun(plural), _INFLECT.singular_noun(other)
            mapping = {plural: other, plural.capitalize(): other.capitalize()}
            if isinstance(one, str) and isinstance(another, str):
                mapping |= {one: another, one.capitalize(): another.capitalize()}
            return mapping
    return {}


def _in_words(problem: Problem, values: Mapping[int, Fraction]) -> dict[int, str]:
    for i, value in values.items():
        number = problem.numbers[i]
        if value.denominator == 1 and not number.money and not number.percent and value <= 100:
            return {i: str(_INFLECT.number_to_words(int(value)))}
    return {}


def _question_split(question: str) -> tuple[str, str]:
    """The story and its last sentence (the question)."""
    sentences = re.split(r"(?<=[.!?])\s+", question.strip())
    return " ".join(sentences[:-1]), sentences[-1]


# -- a story's requests ----------------------------------------------------------------------


def _variants(problem: Problem, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    """(kind, question, GSM8K-layout answer) for each kind the problem allows."""
    question, answer = problem.question, problem.answer
    plain = _numbers_variant(problem, rng)
    if plain is not None:
        yield "numbers", *plain[2]
        names = _renamed_names(question, answer, rng)
        if names:
            yield "names", *(_replace_words(t, names) for t in plain[2])
        things = _renamed_things(question)
        if things:
            yield "things", *(_replace_words(t, things) for t in plain[2])
        again = _numbers_variant(problem, rng)
        if again is not None:
            shown = _in_words(problem, again[0])
            written = problem.rewrite(again[0], again[1], shown) if shown else None
            if written is not None:
                yield "words", *written
    decimal = _numbers_variant(problem, rng, decimal=True)
    if decimal is not None:
        yield "decimal", *decimal[2]
    for scale in (10, 100):
        larger = _numbers_variant(problem, rng, scale=scale)
        if larger is not None:
            yield "larger", *larger[2]
            break
    story, asked = _question_split(question)
    if story:
        name = rng.choice([n for n in NAMES if n not in question])
        extra = rng.choice(_DISTRACTORS).format(name=name, n=rng.randint(13, 97))
        yield "distractor", f"{story} {extra} {asked}", answer
        yield "reworded", f"{asked} {story}", answer
    yield from _changed(problem, rng)


def _changed(problem: Problem, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    question, answer = problem.question, problem.answer
    story, asked = _question_split(question)
    final = problem.final
    if story:
        factor = rng.choice([2, 3])
        body = answer[: answer.rindex("####")].rstrip()
        extra = f"{fmt(final)} * {factor} = <<{fmt(final)}*{factor}={fmt(final * factor)}>>"
        yield (
            "added_step",
            f"{story} {asked.rstrip('?')}, if the result is then multiplied by {factor}?",
            f"{body}\nThen {extra}{fmt(final * factor)}.\n#### {fmt(final * factor)}",
        )
    used = [i for i in problem.used if not problem.numbers[i].percent]
    if used:
        number = problem.numbers[rng.choice(used)]
        hidden = question[: number.start] + "some number of" + question[number.end :]
        hidden = hidden.replace("$some number of", "some amount of money")
        yield (
            "reversed",
            f"{hidden} The answer to the question is {fmt(final)}. What was the number "
            "that the problem leaves out?",
            f"Working back from {fmt(final)}, the number left out is {fmt(number.value)}.\n"
            f"#### {fmt(number.value)}",
        )
        sentences = re.split(r"(?<=[.!?])\s+", question.strip())
        at = [question.find(sentence) for sentence in sentences]
        inside = [
            k
            for k, (start, sentence) in enumerate(zip(at, sentences, strict=True))
            if start <= number.start < start + len(sentence)
        ]
        if inside and inside[0] < len(sentences) - 1:
            kept = [s for k, s in enumerate(sentences) if k != inside[0]]
            yield (
                "removed",
                " ".join(kept),
                "The problem does not give enough information to answer.\n#### 0",
            )


def stories(rows: list[dict[str, str]], seed: int = 34, count: int = 300) -> list[Story]:
    """``count`` problems drawn at random (``seed``) from ``rows`` that can be re-run, each
    with its layout and requests (the base first)."""
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    out: list[Story] = []
    for index in order:
        row = rows[index]
        problem = read_problem(row["question"], row["answer"])
        if isinstance(problem, str):
            continue
        rng = random.Random(f"{seed}/{index}")
        style = LAYOUTS[len(out) % len(LAYOUTS)]
        shown = layout(problem.answer, style)
        base = Variant(index, "base", problem.question, shown, problem.final)
        requests = [base]
        for kind, question, answer in _variants(problem, rng):
            if question == problem.question or any(r.prompt == question for r in requests):
                continue
            truth = None if kind == "removed" else _final_of(answer)
            requests.append(Variant(index, kind, question, layout(answer, style), truth))
        if len(requests) > 1:
            out.append(Story(index, style, tuple(requests)))
        if len(out) >= count:
            break
    return out


LANGUAGES = {"de": "stories_de.jsonl", "pt": "stories_pt.jsonl"}


def language_stories(language: str, seed: int = 34, per_story: int = 3) -> list[Story]:
    """The German or Portuguese stories of ``data/`` (written for this harness in GSM8K's
    format), each with ``per_story`` variants of changed numbers, in a layout per story."""
    rows = load_sample(SAMPLE.with_name(LANGUAGES[language]))
    out: list[Story] = []
    for index, row in enumerate(rows):
        problem = read_problem(row["question"], row["answer"])
        if isinstance(problem, str):
            raise ValueError(f"{language} story {index}: {problem}")
        rng = random.Random(f"{seed}/{language}/{index}")
        style = LAYOUTS[index % len(LAYOUTS)]
        shown = layout(problem.answer, style, language)
        requests = [Variant(index, "base", problem.question, shown, problem.final)]
        for _ in range(per_story):
            found = _numbers_variant(problem, rng)
            if found is None or any(r.prompt == found[2][0] for r in requests):
                continue
            question, answer = found[2]
            oracle = layout(answer, style, language)
            requests.append(Variant(index, "numbers", question, oracle, _final_of(answer)))
        out.append(Story(index, style, tuple(requests)))
    return out
