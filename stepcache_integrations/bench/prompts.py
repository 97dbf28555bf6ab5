"""The fixed text of the workload: base prompts, paraphrase templates, perturbation pools.

Everything here is constant; ``workload.py`` draws from it with a seeded random generator.
The wording asks for what a small instruct model can be asked for: "Step N:" lines ending with
``v = <value>`` for equations, "Return only a JSON object with exactly the keys ..." for JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from stepcache_integrations.bench.checks import JsonScalar
from stepcache_integrations.bench.equations import LinearEquation

__all__ = [
    "EQUATION_BASES",
    "EQUATION_FORMATS",
    "EQUATION_PARAPHRASES",
    "EQ_TO_JSON_TEMPLATES",
    "JSON_BASES",
    "JSON_FORMATS",
    "JSON_PARAPHRASES",
    "JSON_TO_EQ_TEMPLATES",
    "VARIABLE_POOL",
    "JsonBase",
    "equation_prompt",
    "json_prompt",
    "render_keys",
    "render_where",
]

# --- equations ---------------------------------------------------------------------------

EQUATION_BASES: tuple[LinearEquation, ...] = (
    LinearEquation(3, 5, 20, "x"),
    LinearEquation(7, -4, 24, "y"),
    LinearEquation(2, 9, 1, "z"),
    LinearEquation(5, 10, 45, "t", "swapped"),
    LinearEquation(-4, 30, 6, "n"),
    LinearEquation(1, 12, 19, "m"),
    LinearEquation(6, -18, 0, "k"),
    LinearEquation(-2, 9, 1, "p", "const_first"),
    LinearEquation(8, 3, 51, "q", "swapped"),
    LinearEquation(-1, 14, 5, "r", "const_first"),
)

# Single letters only; none reads as an English word ("a", "I"), a digit ("o", "l") or
# one of the coefficient keys ("a", "b", "c") of the semantic-change prompts.
VARIABLE_POOL: tuple[str, ...] = tuple("xyztnmkpqrswhgu")

EQUATION_FORMATS: tuple[str, ...] = (
    'Show your work step by step, one line per step in the form "Step N: <equation>", '
    'and end with the line "{v} = <value>".',
    'Write each step on its own line as "Step N: <equation>" and finish with the line '
    '"{v} = <value>".',
)

EQUATION_BASE_LEAD = "Solve {eq} for {v}."
EQUATION_PARAPHRASES: tuple[str, ...] = (
    "Find the value of {v} in {eq}.",
    "What is {v} if {eq}?",
    "Work out {v} from the equation {eq}.",
    "Please solve this equation for {v}: {eq}.",
    "Determine {v} given that {eq}.",
)


def equation_prompt(eq: LinearEquation, lead: str = EQUATION_BASE_LEAD, fmt: int = 0) -> str:
    """A "solve this equation" prompt: a lead sentence, then the answer-format instruction."""
    return f"{lead.format(eq=eq.render(), v=eq.var)} {EQUATION_FORMATS[fmt].format(v=eq.var)}"


# --- JSON --------------------------------------------------------------------------------


@dataclass(frozen=True)
class JsonBase:
    """One base JSON task: its topic, keys, fixed values and the pools its variants use."""

    topic: str
    keys: tuple[str, ...]
    fixed: tuple[tuple[str, JsonScalar], ...]
    alternatives: tuple[tuple[str, JsonScalar], ...]
    extra_keys: tuple[str, ...]


JSON_BASES: tuple[JsonBase, ...] = (
    JsonBase(
        "a user profile",
        ("name", "age", "city"),
        (("city", "Lisbon"),),
        (("city", "Porto"), ("city", "Madrid"), ("city", "Dublin"), ("city", "Oslo")),
        ("email", "country", "phone", "job"),
    ),
    JsonBase(
        "a product listing",
        ("product", "price", "currency"),
        (("currency", "EUR"),),
        (("currency", "USD"), ("currency", "GBP"), ("currency", "JPY"), ("currency", "CHF")),
        ("stock", "brand", "category", "color"),
    ),
    JsonBase(
        "an order",
        ("item", "quantity", "unit_price"),
        (("quantity", 3),),
        (("quantity", 2), ("quantity", 5), ("quantity", 7), ("quantity", 10)),
        ("customer", "total", "status", "notes"),
    ),
    JsonBase(
        "a book",
        ("title", "author", "year"),
        (("year", 1999),),
        (("year", 1984), ("year", 2005), ("year", 2012), ("year", 1967)),
        ("publisher", "pages", "genre", "isbn"),
    ),
    JsonBase(
        "an event",
        ("event", "date", "location"),
        (("location", "Berlin"),),
        (("location", "Paris"), ("location", "Rome"), ("location", "Vienna")),
        ("organizer", "capacity", "price", "speaker"),
    ),
    JsonBase(
        "a weather report",
        ("city", "temperature", "unit"),
        (("unit", "celsius"), ("city", "Oslo")),
        (("unit", "fahrenheit"), ("unit", "kelvin"), ("city", "Lima"), ("city", "Cairo")),
        ("humidity", "wind", "forecast", "date"),
    ),
    JsonBase(
        "a to-do task",
        ("task", "priority", "done"),
        (("priority", "high"),),
        (("priority", "low"), ("priority", "medium"), ("priority", "urgent")),
        ("due_date", "owner", "tags", "project"),
    ),
    JsonBase(
        "an employee record",
        ("name", "department", "salary"),
        (("department", "sales"),),
        (("department", "marketing"), ("department", "finance"), ("department", "support")),
        ("manager", "start_date", "email", "title"),
    ),
    JsonBase(
        "a flight booking",
        ("flight", "origin", "destination", "seats"),
        (("destination", "Paris"), ("seats", 2)),
        (("destination", "Tokyo"), ("destination", "Lima"), ("seats", 1), ("seats", 4)),
        ("airline", "date", "cabin", "price"),
    ),
    JsonBase(
        "a recipe",
        ("dish", "servings", "minutes"),
        (("servings", 4),),
        (("servings", 2), ("servings", 6), ("servings", 8)),
        ("cuisine", "calories", "difficulty", "author"),
    ),
)

JSON_BASE_LEAD = "Create a JSON object for {topic}."
JSON_PARAPHRASES: tuple[str, ...] = (
    "I need JSON describing {topic}.",
    "Generate a JSON record for {topic}.",
    "Produce a JSON object that describes {topic}.",
    "Make a JSON object representing {topic}.",
    "Write {topic} as a JSON object.",
)
JSON_FORMATS: tuple[str, ...] = (
    "Return only a JSON object with exactly the keys {keys}{where}.",
    "Respond with only a JSON object that has exactly the keys {keys}{where}.",
)


def render_keys(keys: tuple[str, ...]) -> str:
    """``"a", "b" and "c"``."""
    quoted = [json.dumps(key) for key in keys]
    if len(quoted) == 1:
        return quoted[0]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]


def render_where(fixed: tuple[tuple[str, JsonScalar], ...]) -> str:
    """``, where "city" is "Lisbon" and "age" is 3`` (empty when nothing is fixed)."""
    if not fixed:
        return ""
    parts = [f"{json.dumps(key)} is {json.dumps(value)}" for key, value in fixed]
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f", where {joined}"


def json_prompt(
    topic: str,
    keys: tuple[str, ...],
    fixed: tuple[tuple[str, JsonScalar], ...],
    lead: str = JSON_BASE_LEAD,
    fmt: int = 0,
) -> str:
    """A "return only a JSON object" prompt: a lead sentence, then the keys and fixed values."""
    instruction = JSON_FORMATS[fmt].format(keys=render_keys(keys), where=render_where(fixed))
    return f"{lead.format(topic=topic)} {instruction}"


# --- semantic changes: another kind of task, worded close to the base prompt ---------------

# An equation prompt turned into a JSON task about the same equation. The values the JSON must
# hold are stated in the prompt, so the task check judges only what the prompt fixes.
EQ_TO_JSON_TEMPLATES: tuple[str, ...] = (
    "Write the equation {eq} as a JSON object instead of solving it.",
    "Do not solve {eq} for {v}; store its coefficients in the form a*{v} + b = c.",
    "Record the equation {eq} in {v} as JSON.",
)

# A JSON prompt turned into an equation question that still talks about the JSON object.
JSON_TO_EQ_TEMPLATES: tuple[str, ...] = (
    "Instead of a JSON object for {topic}, solve {eq} for {v}.",
    "For {topic} with the keys {keys}, do not return JSON: solve {eq} for {v}.",
    "Forget the JSON object for {topic}. What is {v} if {eq}?",
)
