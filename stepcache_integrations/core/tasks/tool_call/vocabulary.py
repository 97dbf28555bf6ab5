"""Closed-world reading: what a tool's spec, a request and the text beside a call say.

The family cannot read meaning. A word it does not know may narrow what a tool takes
("european", "bus", "dental"), rule a value out ("our areas are north of the river"), or say
something about the value ("Paris, the French capital"), in any words and any language. So
where the family decides without the caller's word (a tool that is not pure), it reads texts
*closed-world*: every word must be one it can account for, and any other word stops the
re-instantiation. A word missing from the lists below costs a model call, never a stale
answer; that is why they are short lists of harmless words, never lists of dangerous ones.

- :func:`spec_words`: a tool's spec as words: its name's, its parameters' names (each
  parameter's last word is what its value *is*: its head), and its descriptions' (the tool's,
  a LlamaIndex signature line included, and its parameters'). :meth:`SpecWords.subjects`:
  the words that are neither a parameter's head nor :data:`GENERIC` (a spec may say one thing,
  its subject, besides its parameters: "weather" of ``get_weather(city)``; a second word may
  be a scope, and the family cannot tell a subject from a scope: ``get_europe_weather``);
  :meth:`SpecWords.unstated_name_words`: words of the tool's name its description and
  parameters do not state (``get_europe_weather`` described as "Current weather in a city.").
- :func:`unaccounted`: the words of a text that none of the known texts nor a list of words
  has (a request's words beyond the call's values, the tool's spec and plain conversation;
  the text beside a call beyond the request, the tool and plain narration).

Words are read in any script (a word of another script is a word like any other: unknown
unless listed), in lower case, lightly stemmed ("cities" meets "city"); an identifier is split
at underscores, case changes and digits.

Example:
    >>> city = {"type": "object", "properties": {"city": {"type": "string"}}}
    >>> spec = spec_words("get_weather", "The current weather in a city.", city)
    >>> spec.subjects(), spec.unstated_name_words()
    (['weather'], [])
    >>> spec_words("get_europe_weather", "Current weather in a city.", city).subjects()
    ['europe', 'weather']
    >>> unaccounted("What's the weather in Berlin?", known=["weather", "Berlin"],
    ...             words=CONVERSATION)
    []
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from stepcache_integrations.core.tasks.tool_call.literals import leaves
from stepcache_integrations.core.tasks.tool_call.parameters import descriptions, parameter_names
from stepcache_integrations.core.text.lexicon import word_set

__all__ = [
    "CONVERSATION",
    "GENERIC",
    "NARRATION",
    "SpecWords",
    "identifier_tokens",
    "spec_words",
    "tokens",
    "unaccounted",
    "value_words",
]

# Letters and digits of any script, joined by an apostrophe or a hyphen ("what's",
# "check-up"); an underscore separates (identifiers in a signature line are split).
_TOKEN = re.compile(r"[^\W_]+(?:['\u2019\-][^\W_]+)*")
# The parts of an identifier ("maxRetries2" is "max", "Retries", "2"): a splitter, not a
# number reader.
_IDENTIFIER_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+|[^\W\d_A-Za-z]+")


# Words that narrow no value: articles, the plainest prepositions (none of comparison, time
# or place: "over", "before", "near" are not here), generic verbs of tools (the action, never
# the values it takes), Python type names of a LlamaIndex signature line, and "current" (the
# time of a lookup; a date is never rebound into a tool that is not pure).
GENERIC = word_set(
    "a an the of in on at for to from by with and its their this given "
    "get fetch find search look lookup up check show list retrieve query read return "
    "book reserve create add send set make open schedule order place cancel update delete "
    "remove pay "
    "str int float bool dict none optional typing string integer number boolean "
    "current"
)
"""Words a tool's spec may use besides its one subject and its parameters."""

CONVERSATION = GENERIC | word_set(
    "what how where who please can could would will you me my i we our us tell give let "
    "is are it there now right today thanks thank like"
)
"""Words a request may use besides the call's values and the tool's spec: asking, politeness,
the pronouns of a conversation ("like" of "what's the weather like")."""

NARRATION = GENERIC | word_set(
    "this that these those it i i'm i'll i've me my we we'll us our you your they them their "
    "there here is are was were be been being am do does did have has had will would shall "
    "can could may might into via about but not let let's now then first next just also "
    "please okay ok sure right what which who how where some any all each both one checking "
    "looking getting fetching finding searching calling using running retrieving querying "
    "call use run help see tool tools function result results information details request "
    "that's what's go going try currently"
)
"""Plain narration beside a tool call ("Let me check the weather in Berlin."): function
words and the verbs of looking things up."""


def _stem(word: str) -> str:
    # A light stem, applied to both sides of every comparison ("cities" and "city" meet).
    word = word.lower().replace("\u2019", "'")
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """The words of ``text``, stemmed, in order.

    Example:
        >>> tokens("What's the weather in Z\u00fcrich's cities? \u5df4\u9ece")
        ['what', 'the', 'weather', 'in', 'z\u00fcrich', 'city', '\u5df4\u9ece']
    """
    return [_stem(word) for word in _TOKEN.findall(text)]


def identifier_tokens(name: str) -> list[str]:
    """An identifier's words, stemmed: ``get_futureWeather2`` -> ``get future weather 2``."""
    return [_stem(part) for part in _IDENTIFIER_PART.findall(name)]


def _stemmed(words: Iterable[str]) -> set[str]:
    return {_stem(word) for word in words}


@dataclass(frozen=True)
class SpecWords:
    """A tool's spec as words (see :func:`spec_words`)."""

    name: tuple[str, ...]
    heads: frozenset[str]
    parameters: frozenset[str]  # every word of every parameter's name
    described: tuple[str, ...]  # the words of the descriptions

    @property
    def all(self) -> frozenset[str]:
        return frozenset(self.name) | self.parameters | frozenset(self.described)

    def subjects(self) -> list[str]:
        """The words that are neither a parameter's head nor generic, in order."""
        ordered = [*self.name, *sorted(self.parameters - self.heads), *self.described]
        skipped = _stemmed(GENERIC) | self.heads
        return [word for word in dict.fromkeys(ordered) if word not in skipped]

    def unstated_name_words(self) -> list[str]:
        """Words of the tool's name that neither its descriptions, its parameters' names nor
        :data:`GENERIC` have."""
        stated = set(self.described) | self.parameters | _stemmed(GENERIC)
        return [word for word in dict.fromkeys(self.name) if word not in stated]


def spec_words(name: str, description: str, parameters: Any) -> SpecWords:
    """A tool's name, description and parameter schema as words (see the module docstring).

    Example:
        >>> schema = {"type": "object", "properties": {"order_id": {"type": "string"}}}
        >>> spec = spec_words("lookup_order", "Look up an order by its id.", schema)
        >>> sorted(spec.heads), spec.subjects()
        (['id'], [])
    """
    heads: set[str] = set()
    words: set[str] = set()
    generic = _stemmed(GENERIC)
    for parameter in parameter_names(parameters):
        parts = identifier_tokens(parameter)
        words.update(parts)
        specific = [part for part in parts if part not in generic]
        if specific:
            heads.add(specific[-1])
    described = [word for text in (description, *descriptions(parameters)) for word in tokens(text)]
    return SpecWords(tuple(identifier_tokens(name)), frozenset(heads), frozenset(words),
                     tuple(described))  # fmt: skip


def value_words(arguments: Any) -> set[str]:
    """The words of every scalar value of call arguments (a number as JSON writes it)."""
    found: set[str] = set()
    for leaf in leaves(arguments):
        if isinstance(leaf, str):
            found.update(tokens(leaf))
        elif isinstance(leaf, int | float) and not isinstance(leaf, bool):
            found.update(tokens(str(leaf)))
    return found


def unaccounted(text: str, *, known: Iterable[str], words: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` (stemmed, in order, once each) that no text of ``known`` and
    none of ``words`` has.

    Example:
        >>> unaccounted("Berlin is the capital of France", known=["Berlin"], words=NARRATION)
        ['capital', 'france']
    """
    vocabulary = _stemmed(words)
    for source in known:
        vocabulary.update(tokens(source))
        vocabulary.update(identifier_tokens(source))
    return [word for word in dict.fromkeys(tokens(text)) if word not in vocabulary]
