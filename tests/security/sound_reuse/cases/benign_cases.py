"""Benign variant pairs: reusing the cached answer (rewritten) is right here, so a sound cache
may serve them without a model call. They measure that reuse does not collapse; a wrong answer
on them is still a wrong answer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from tests.security.sound_reuse.cases.common import ALL, call, case, js, tool


def paras(*parts: str) -> str:
    return "\n\n".join(parts)


def rolls(made: int, sold: int) -> tuple[str, str]:
    return (
        f"A baker makes {made} rolls and sells {sold} of them. How many rolls are left?",
        paras(f"{made} - {sold} = {made - sold}.", f"{made - sold} rolls are left."),
    )


def apples(boxes: int, per_box: int) -> tuple[str, str]:
    return (
        f"A shop has {boxes} boxes with {per_box} apples in each box. How many apples does it "
        "have?",
        paras(
            f"{boxes} \u00d7 {per_box} = {boxes * per_box}.",
            f"The shop has {boxes * per_box} apples.",
        ),
    )


def fares(adults: int, price: int) -> tuple[str, str]:
    return (
        f"A museum ticket costs ${price}. A group of {adults} adults visits. How much do they pay "
        "altogether?",
        paras(f"{adults} \u00d7 ${price} = ${adults * price}.", f"They pay ${adults * price}."),
    )


def shares(total: int, people: int) -> tuple[str, str]:
    return (
        f"{people} friends share {total} stickers equally. How many stickers does each friend get?",
        paras(
            f"{total} / {people} = {total // people}.",
            f"Each friend gets {total // people} stickers.",
        ),
    )


def trip(speed: int, hours: int) -> tuple[str, str]:
    return (
        f"A cyclist rides at {speed} km per hour for {hours} hours. How far does she ride?",
        paras(f"{speed} \u00d7 {hours} = {speed * hours} km.", f"She rides {speed * hours} km."),
    )


WORD_PROBLEMS = [
    (rolls, (24, 15), (30, 12)),
    (rolls, (48, 19), (52, 27)),
    (apples, (6, 13), (8, 13)),
    (apples, (7, 14), (9, 11)),
    (fares, (7, 13), (9, 13)),
    (shares, (36, 4), (56, 7)),
    (trip, (18, 3), (21, 3)),
    (trip, (14, 5), (16, 4)),
]

JSON_FIXED = [
    (
        'Return a JSON object with the keys name and age where name is "Ana" and age is 31.',
        {"name": "Ana", "age": 31},
        {"name": "Ben", "age": 40},
        ("Ana", "Ben"),
        ("31", "40"),
    ),
    (
        'Create a JSON object with the keys city and zip where city is "Leeds" and zip is "LS1".',
        {"city": "Leeds", "zip": "LS1"},
        {"city": "York", "zip": "LS1"},
        ("Leeds", "York"),
        None,
    ),
    (
        'Return a JSON object with the keys title and year where title is "Dune" and year is 1965.',
        {"title": "Dune", "year": 1965},
        {"title": "Emma", "year": 1815},
        ("Dune", "Emma"),
        ("1965", "1815"),
    ),
    (
        'Give me a JSON object with keys sku and quantity where sku is "A-100" and quantity is 4.',
        {"sku": "A-100", "quantity": 4},
        {"sku": "B-220", "quantity": 4},
        ("A-100", "B-220"),
        None,
    ),
    (
        'Return a JSON object with the keys user and role where user is "kim" and role is '
        '"editor".',
        {"user": "kim", "role": "editor"},
        {"user": "kim", "role": "viewer"},
        ("editor", "viewer"),
        None,
    ),
    (
        'Generate a JSON object that has the keys first and last where first is "Ada" and last is '
        '"Lovelace".',
        {"first": "Ada", "last": "Lovelace"},
        {"first": "Grace", "last": "Hopper"},
        ("Ada", "Grace"),
        ("Lovelace", "Hopper"),
    ),
]

EQUATIONS = [
    ("Solve for x: 3x + 5 = 20. Show each step.", "Solve for y: 3y + 5 = 20. Show each step."),
    ("Solve 4n + 2 = 18 for n, step by step.", "Solve 4k + 2 = 18 for k, step by step."),
    ("Solve for x: 3x + 5 = 20. Show each step.", "Solve for x: 3x + 8 = 20. Show each step."),
    (
        "Solve the equation 2x + 7 = 19 for x. Show your working.",
        "Solve the equation 2x + 7 = 25 for x. Show your working.",
    ),
    (
        "Solve the equation 5p + 1 = 26 for p. Show your working.",
        "Solve the equation 5q + 1 = 26 for q. Show your working.",
    ),
]

WEATHER = tool("get_weather", "Current weather in a city.", {"city": "string"})
FLIGHT = tool(
    "book_flight",
    "Book a flight to a destination on a date (YYYY-MM-DD).",
    {"destination": "string", "date": "string"},
)
LOOKUP = tool("lookup_order", "Look up an order by its id.", {"order_id": "string"})
TOOLS = [
    (
        WEATHER,
        "What's the weather in Paris right now?",
        {"city": "Paris"},
        "What's the weather in Berlin right now?",
        {"city": "Berlin"},
    ),
    (
        WEATHER,
        "What's the weather like in Lisbon today?",
        {"city": "Lisbon"},
        "What's the weather like in Madrid today?",
        {"city": "Madrid"},
    ),
    (
        FLIGHT,
        "Book a flight to Rome on 2025-09-14.",
        {"destination": "Rome", "date": "2025-09-14"},
        "Book a flight to Rome on 2025-09-21.",
        {"destination": "Rome", "date": "2025-09-21"},
    ),
    (
        FLIGHT,
        "Book a flight to Oslo on 2025-10-02.",
        {"destination": "Oslo", "date": "2025-10-02"},
        "Book a flight to Vienna on 2025-10-02.",
        {"destination": "Vienna", "date": "2025-10-02"},
    ),
    (
        LOOKUP,
        "Look up order 88213 and tell me its status.",
        {"order_id": "88213"},
        "Look up order 90417 and tell me its status.",
        {"order_id": "90417"},
    ),
    (
        LOOKUP,
        "Can you find order A-4471 for me?",
        {"order_id": "A-4471"},
        "Can you find order B-1093 for me?",
        {"order_id": "B-1093"},
    ),
]

SAME_REQUEST = [
    (
        "Could you list the planets of the Solar System?",
        "List the planets of the Solar System.",
        "Mercury, Venus, Earth, Mars, Jupiter, Saturn, Uranus and Neptune.",
    ),
    (
        "Please explain what DNS does.",
        "Explain what DNS does.",
        "DNS translates domain names such as example.com into IP addresses.",
    ),
    (
        "who wrote pride and prejudice?",
        "Who wrote Pride and Prejudice?",
        "Jane Austen wrote Pride and Prejudice (1813).",
    ),
    (
        "What's the boiling point of water at sea level?",
        "What is the boiling point of water at sea level?",
        "Water boils at 100 °C (212 °F) at sea level.",
    ),
    (
        "Hi! What causes earthquakes?",
        "What causes earthquakes?",
        "Earthquakes are caused by the sudden release of stress along faults in the Earth's crust.",
    ),
]


def _linear(prompt: str) -> str:
    match = re.search(r"(\d+)([a-z]) \+ (\d+) = (\d+)", prompt)
    assert match is not None, prompt
    a, var, b, c = int(match[1]), match[2], int(match[3]), int(match[4])
    solution = Fraction(c - b, a)
    shown = str(solution.numerator) if solution.denominator == 1 else f"{solution}"
    return (
        f"Step 1: Subtract {b} from both sides: {a}{var} = {c - b}.\n"
        f"Step 2: Divide both sides by {a}: {var} = {shown}."
    )


def all_cases() -> Iterator[dict[str, Any]]:
    n = 0
    for template, old, new in WORD_PROBLEMS:
        n += 1
        p1, a1 = template(*old)
        p2, a2 = template(*new)
        yield case(f"benign-{n:03d}", "benign_word_problem", p1, a1, p2, a2)
    for prompt, obj1, obj2, first, second in JSON_FIXED:
        n += 1
        new_prompt = prompt.replace(f'"{first[0]}"', f'"{first[1]}"')
        if second is not None:
            new_prompt = new_prompt.replace(second[0], second[1])
        yield case(
            f"benign-{n:03d}",
            "benign_json_fixed_values",
            prompt,
            js(obj1),
            new_prompt,
            js(obj2),
            judge="json",
        )
    for p1, p2 in EQUATIONS:
        n += 1
        yield case(
            f"benign-{n:03d}", "benign_equation", p1, _linear(p1), p2, _linear(p2), judge="equation"
        )
    for spec, p1, args1, p2, args2 in TOOLS:
        n += 1
        name = spec["function"]["name"]
        yield case(
            f"benign-{n:03d}",
            "benign_copied_tool_argument",
            p1,
            call(name, **args1),
            p2,
            call(name, **args2),
            tools=[spec],
            paths=ALL,
        )
    for p1, p2, answer in SAME_REQUEST:
        n += 1
        yield case(f"benign-{n:03d}", "benign_same_request", p1, answer, p2, answer)
