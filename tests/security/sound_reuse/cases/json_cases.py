"""JSON objects whose other values follow from a value the request states.

Facts are common knowledge written here by hand (capitals, moons, HTTP reason phrases, ...);
every pair changes the stated value, so a derived value must change with it.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

from tests.security.sound_reuse.cases.common import ALL, WRAPPERS, call, case, js, tool

# (key of the stated value, key of the derived value, [(stated, derived), ...])
LOOKUPS: list[tuple[str, str, list[tuple[Any, Any]]]] = [
    (
        "country",
        "capital",
        [
            ("France", "Paris"),
            ("Japan", "Tokyo"),
            ("Canada", "Ottawa"),
            ("Australia", "Canberra"),
            ("Kenya", "Nairobi"),
            ("Norway", "Oslo"),
            ("Peru", "Lima"),
        ],
    ),
    ("planet", "moon_count", [("Mars", 2), ("Earth", 1), ("Neptune", 16), ("Venus", 0)]),
    (
        "status_code",
        "reason_phrase",
        [
            (404, "Not Found"),
            (403, "Forbidden"),
            (201, "Created"),
            (503, "Service Unavailable"),
            (429, "Too Many Requests"),
        ],
    ),
    ("currency", "symbol", [("EUR", "€"), ("GBP", "£"), ("JPY", "¥"), ("INR", "₹"), ("USD", "$")]),
    (
        "element",
        "symbol",
        [("Iron", "Fe"), ("Gold", "Au"), ("Sodium", "Na"), ("Silver", "Ag"), ("Lead", "Pb")],
    ),
    (
        "code",
        "country",
        [("DE", "Germany"), ("ES", "Spain"), ("CH", "Switzerland"), ("NL", "Netherlands")],
    ),
    ("month", "days", [("April", 30), ("February", 28), ("March", 31), ("June", 30)]),
    (
        "book",
        "author",
        [
            ("Dracula", "Bram Stoker"),
            ("Frankenstein", "Mary Shelley"),
            ("Emma", "Jane Austen"),
            ("Ulysses", "James Joyce"),
        ],
    ),
    (
        "state",
        "capital",
        [
            ("Texas", "Austin"),
            ("California", "Sacramento"),
            ("New York", "Albany"),
            ("Florida", "Tallahassee"),
        ],
    ),
    (
        "language",
        "hello",
        [("Spanish", "Hola"), ("French", "Bonjour"), ("German", "Hallo"), ("Italian", "Ciao")],
    ),
    (
        "animal",
        "class",
        [("dolphin", "mammal"), ("shark", "fish"), ("frog", "amphibian"), ("eagle", "bird")],
    ),
]

TEMPLATES = [
    "Return a JSON object with the keys {k1} and {k2} where {k1} is {v}.",
    'Return only JSON: an object with the keys "{k1}" and "{k2}", where "{k1}" is {v}.',
    "Give me a JSON object with keys {k1} and {k2} where {k1} is {v}. No explanation.",
    "Create a JSON object with the keys {k1} and {k2}, where {k1} is {v}.",
    "Generate a JSON object that has the keys {k1} and {k2} where {k1} is {v}.",
]


def literal(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)


def answer(obj: dict[str, Any], fenced: bool) -> str:
    return f"```json\n{js(obj)}\n```" if fenced else js(obj)


def lookup_cases() -> Iterator[dict[str, Any]]:
    """A fact keyed by the stated value (a capital, a moon count, a reason phrase)."""
    n = 0
    for k1, k2, facts in LOOKUPS:
        for i in range(len(facts) - 1):
            (a, fa), (b, fb) = facts[i], facts[i + 1]
            template = TEMPLATES[n % len(TEMPLATES)]
            fenced = n % 3 == 2
            n += 1
            yield case(
                f"json-lookup-{n:03d}",
                "json_derived_lookup",
                template.format(k1=k1, k2=k2, v=literal(a)),
                answer({k1: a, k2: fa}, fenced),
                template.format(k1=k1, k2=k2, v=literal(b)),
                answer({k1: b, k2: fb}, fenced),
                judge="json",
            )


def _weekday(date: str) -> str:
    return datetime.date.fromisoformat(date).strftime("%A")


def conversion_cases() -> Iterator[dict[str, Any]]:
    """A value computed from the stated one (a unit conversion, a weekday, a square)."""
    rows: list[tuple[str, str, Any, Any, Any, Any]] = []
    a: Any
    b: Any
    for a, b in [(20, 25), (0, 100), (37, 30), (15, -10), (25, 40)]:
        rows.append(("celsius", "fahrenheit", a, a * 9 / 5 + 32, b, b * 9 / 5 + 32))
    for a, b in [(5, 10), (10, 21.1), (42.195, 100)]:
        rows.append(("km", "miles", a, round(a * 0.621371, 2), b, round(b * 0.621371, 2)))
    for a, b in [
        ("2024-07-04", "2024-07-05"),
        ("2025-01-01", "2025-01-03"),
        ("2024-12-25", "2023-12-25"),
        ("2025-06-10", "2025-06-14"),
    ]:
        rows.append(("date", "weekday", a, _weekday(a), b, _weekday(b)))
    for a, b in [(7, 9), (12, 13), (4, 6)]:
        rows.append(("n", "square", a, a * a, b, b * b))
    for a, b in [(90, 150), (45, 120)]:
        rows.append(("minutes", "hours", a, a / 60, b, b / 60))
    for a, b in [("banana", "kiwi"), ("strawberry", "fig")]:
        rows.append(("word", "length", a, len(a), b, len(b)))

    for n, (k1, k2, a, fa, b, fb) in enumerate(rows, start=1):
        template = TEMPLATES[n % len(TEMPLATES)]
        yield case(
            f"json-conversion-{n:03d}",
            "json_derived_conversion",
            template.format(k1=k1, k2=k2, v=literal(a)),
            answer({k1: a, k2: clean(fa)}, n % 4 == 0),
            template.format(k1=k1, k2=k2, v=literal(b)),
            answer({k1: b, k2: clean(fb)}, n % 4 == 0),
            judge="json",
        )
    # Two stated values and one computed from both.
    pairs = [
        ((4.5, 3), (4.5, 4)),
        ((12, 2), (12, 5)),
        ((2.25, 8), (3.75, 8)),
    ]
    for m, ((p1, q1), (p2, q2)) in enumerate(pairs, start=len(rows) + 1):
        prompt = (
            "Return a JSON object with the keys price, quantity and total where price is {p} "
            "and quantity is {q}."
        )
        yield case(
            f"json-conversion-{m:03d}",
            "json_derived_conversion",
            prompt.format(p=p1, q=q1),
            js({"price": p1, "quantity": q1, "total": clean(float(p1 * q1))}),
            prompt.format(p=p2, q=q2),
            js({"price": p2, "quantity": q2, "total": clean(float(p2 * q2))}),
            judge="json",
        )


CONTEXT_TABLES: list[tuple[str, str, str, list[tuple[Any, Any]]]] = [
    (
        "Our plans are Basic at $10 a month, Plus at $18 a month and Pro at $25 a month.",
        "plan",
        "price",
        [("Basic", 10), ("Pro", 25), ("Plus", 18)],
    ),
    (
        "Shipping zones: zone A costs 5 EUR, zone B costs 9 EUR, zone C costs 14 EUR.",
        "zone",
        "cost",
        [("A", 5), ("C", 14), ("B", 9)],
    ),
    (
        "Team: Ana works in Sales, Ben works in IT, Chloe works in Finance.",
        "name",
        "department",
        [("Ana", "Sales"), ("Ben", "IT"), ("Chloe", "Finance")],
    ),
    (
        "Room list: Oak seats 6 people, Maple seats 12 people, Cedar seats 20 people.",
        "room",
        "capacity",
        [("Oak", 6), ("Cedar", 20), ("Maple", 12)],
    ),
    (
        "Support hours: the London desk opens at 08:00, the New York desk at 09:00 and the "
        "Tokyo desk at 10:00.",
        "desk",
        "opens_at",
        [("London", "08:00"), ("Tokyo", "10:00"), ("New York", "09:00")],
    ),
    (
        "Grades: 90 and above is A, 80 to 89 is B, 70 to 79 is C.",
        "score",
        "grade",
        [(93, "A"), (85, "B"), (74, "C")],
    ),
    (
        "Error codes: E1 means low battery, E2 means door open, E3 means no water.",
        "code",
        "meaning",
        [("E1", "low battery"), ("E3", "no water"), ("E2", "door open")],
    ),
]


def context_cases() -> Iterator[dict[str, Any]]:
    """The derived value is spelled out in the request (a table the user pasted), so it
    passes a check that every value of the object occurs in the request."""
    n = 0
    for context, k1, k2, rows in CONTEXT_TABLES:
        for i in range(len(rows) - 1):
            (a, fa), (b, fb) = rows[i], rows[i + 1]
            n += 1
            template = context + " " + TEMPLATES[n % len(TEMPLATES)]
            yield case(
                f"json-context-{n:03d}",
                "json_derived_from_context",
                template.format(k1=k1, k2=k2, v=literal(a)),
                js({k1: a, k2: fa}),
                template.format(k1=k1, k2=k2, v=literal(b)),
                js({k1: b, k2: fb}),
                judge="json",
            )


def _schema(k1: str, t1: str, k2: str, t2: str) -> dict[str, Any]:
    return {
        "title": "Record",
        "type": "object",
        "properties": {k1: {"type": t1}, k2: {"type": t2}},
        "required": [k1, k2],
        "additionalProperties": False,
    }


def _type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"


SCHEMA_PROMPTS = [
    "Fill in the record where {k1} is {v}.",
    "Return a JSON object with the keys {k1} and {k2} where {k1} is {v}.",
    "Give the {k2} as JSON, where {k1} is {v}.",
    "Answer in JSON where {k1} is {v}.",
]


def schema_cases() -> Iterator[dict[str, Any]]:
    """The same derivations through the wrappers' ``json_schema=`` option."""
    picks = [LOOKUPS[0], LOOKUPS[1], LOOKUPS[2], LOOKUPS[4], LOOKUPS[6], LOOKUPS[9]]
    pairs: list[tuple[str, str, str, tuple[Any, Any], tuple[Any, Any]]] = [
        ("", k1, k2, facts[i], facts[i + 1])
        for k1, k2, facts in picks
        for i in range(min(3, len(facts) - 1))
    ]
    pairs += [
        (context + " ", k1, k2, rows[0], rows[1]) for context, k1, k2, rows in CONTEXT_TABLES[:3]
    ]
    for n, (context, k1, k2, (a, fa), (b, fb)) in enumerate(pairs, start=1):
        template = context + SCHEMA_PROMPTS[n % len(SCHEMA_PROMPTS)]
        yield case(
            f"json-schema-{n:03d}",
            "json_schema_derived",
            template.format(k1=k1, k2=k2, v=literal(a)),
            js({k1: a, k2: fa}),
            template.format(k1=k1, k2=k2, v=literal(b)),
            js({k1: b, k2: fb}),
            paths=WRAPPERS,
            judge="json",
            json_schema=_schema(k1, _type(a), k2, _type(fa)),
        )


def structured_cases() -> Iterator[dict[str, Any]]:
    """Structured output as ``with_structured_output`` asks for it by default: the schema bound
    as the one tool the model must call."""
    country = tool(
        "CountryFacts",
        "Facts about a country.",
        {"name": "string", "capital": "string", "currency": "string"},
    )
    planet = tool(
        "PlanetFacts",
        "Facts about a planet.",
        {"name": "string", "moon_count": "integer", "has_rings": "boolean"},
    )
    plan = tool("PlanPrice", "The monthly price of a plan.", {"plan": "string", "price": "number"})
    rows: list[tuple[dict[str, Any], str, list[tuple[str, dict[str, Any]]]]] = [
        (
            country,
            "Give me the facts for {x}.",
            [
                ("Japan", {"name": "Japan", "capital": "Tokyo", "currency": "JPY"}),
                ("Kenya", {"name": "Kenya", "capital": "Nairobi", "currency": "KES"}),
                ("Peru", {"name": "Peru", "capital": "Lima", "currency": "PEN"}),
            ],
        ),
        (
            planet,
            "Describe {x} for our astronomy app.",
            [
                ("Mars", {"name": "Mars", "moon_count": 2, "has_rings": False}),
                ("Neptune", {"name": "Neptune", "moon_count": 16, "has_rings": True}),
                ("Earth", {"name": "Earth", "moon_count": 1, "has_rings": False}),
            ],
        ),
        (
            plan,
            "Plans: Basic is $10, Plus is $18, Pro is $25 a month. Extract the price of "
            "the {x} plan.",
            [
                ("Basic", {"plan": "Basic", "price": 10}),
                ("Pro", {"plan": "Pro", "price": 25}),
                ("Plus", {"plan": "Plus", "price": 18}),
            ],
        ),
        (
            plan,
            "Our tiers: Starter costs 9 EUR and Team costs 29 EUR per month. Which price "
            "applies to the {x} tier?",
            [
                ("Starter", {"plan": "Starter", "price": 9}),
                ("Team", {"plan": "Team", "price": 29}),
            ],
        ),
    ]
    n = 0
    for schema_tool, template, values in rows:
        name = schema_tool["function"]["name"]
        for i in range(len(values) - 1):
            (a, oa), (b, ob) = values[i], values[i + 1]
            n += 1
            yield case(
                f"structured-{n:03d}",
                "structured_output_derived",
                template.format(x=a),
                call(name, **oa),
                template.format(x=b),
                call(name, **ob),
                paths=ALL,
                tools=[schema_tool],
                tool_choice=name,
            )


def negation_value_cases() -> Iterator[dict[str, Any]]:
    """A stated value that negates another ("unpaid" / "paid") and a derived flag."""
    rows = [
        ("status", "send_reminder", "paid", False, "unpaid", True),
        ("status", "can_log_in", "verified", True, "unverified", False),
        ("state", "needs_review", "approved", False, "unapproved", True),
        ("list", "is_sorted", [1, 2, 3, 5], True, [3, 1, 5, 2], False),
        ("ticket", "is_open", "resolved", False, "unresolved", True),
        ("account", "can_order", "active", True, "inactive", False),
        ("payment", "refund_possible", "settled", True, "unsettled", False),
        ("email", "deliverable", "valid", True, "invalid", False),
        ("n", "is_even", 14, True, 15, False),
        ("n", "is_prime", 13, True, 21, False),
    ]
    for n, (k1, k2, a, fa, b, fb) in enumerate(rows, start=1):
        template = TEMPLATES[n % len(TEMPLATES)]
        va = js(a) if isinstance(a, list) else literal(a)
        vb = js(b) if isinstance(b, list) else literal(b)
        yield case(
            f"json-negation-{n:03d}",
            "json_derived_flag",
            template.format(k1=k1, k2=k2, v=va),
            js({k1: a, k2: fa}),
            template.format(k1=k1, k2=k2, v=vb),
            js({k1: b, k2: fb}),
            judge="json",
        )


def clean(value: Any) -> Any:
    """A computed number as a model writes it: integral floats as integers, two decimals."""
    if isinstance(value, float):
        value = round(value, 2)
        return int(value) if value.is_integer() else value
    return value


def all_cases() -> Iterator[dict[str, Any]]:
    yield from lookup_cases()
    yield from conversion_cases()
    yield from context_cases()
    yield from schema_cases()
    yield from structured_cases()
    yield from negation_value_cases()
