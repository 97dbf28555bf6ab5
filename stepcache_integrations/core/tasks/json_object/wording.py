"""A reworded JSON request that asks for the same object: the same things said, in order.

"Create a JSON object for a recipe." and "Write a recipe as a JSON object." ask for one
object: the same subject, the same keys, the same stated values, around words that only name
the task (the family's ``instruction_words``: "create", "write", "json", "object", "for",
"as" ...). An edit that moves the subject across such words is no change of what is asked
when everything else the two requests say (every token that is not one of those words, nor
a separator) is the same, in the same order: nothing was added, dropped, negated or
reordered. Another subject ("a cocktail"), another type ("a YAML document", "a JSON
array"), a negation ("not") or two things that trade places ("a recipe from a chef" / "a
chef from a recipe") leave a difference, and the model answers.

Of the words set aside, those that ask ("create", "write", "give me") or link the subject
("for", "as") may be swapped for one another. A word that qualifies what is asked
(:data:`QUALIFYING_WORDS`: "with", "only", "has", "have") says something of its own: "a
recipe with eggs" is not "a recipe, eggs only", nor "I need a JSON object" "I have a JSON
object" (:func:`same_qualifiers`).

Example:
    >>> words = frozenset({"create", "write", "a", "json", "object", "for", "as"})
    >>> def wording(token):
    ...     return token.kind == "punct" or token.norm.lower() in words
    >>> same_said("Create a JSON object for a recipe.", "Write a recipe as a JSON object.", wording)
    True
    >>> same_said("Create a JSON object for a recipe.", "Write a cocktail as a JSON object.",
    ...           wording)
    False
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from stepcache_integrations.core.text import Token, meaningful_tokens

__all__ = ["QUALIFYING_WORDS", "same_qualifiers", "same_said"]

#: Words that name the task in one place and qualify what is asked in another.
QUALIFYING_WORDS = frozenset(["with", "has", "have", "only"])


def _said(text: str, wording: Callable[[Token], bool]) -> list[str]:
    return [token.norm for token in meaningful_tokens(text) if not wording(token)]


def _qualifiers(text: str) -> Counter[str]:
    words = (token.norm.lower() for token in meaningful_tokens(text) if token.kind == "word")
    return Counter(word for word in words if word in QUALIFYING_WORDS)


def same_qualifiers(cached: str, request: str) -> bool:
    """Whether ``cached`` and ``request`` say each of :data:`QUALIFYING_WORDS` as often.

    Example:
        >>> same_qualifiers("A JSON object for a recipe with eggs.", "A recipe with eggs as JSON.")
        True
        >>> same_qualifiers("JSON for a recipe with eggs.", "A recipe, eggs only, as JSON.")
        False
    """
    return _qualifiers(cached) == _qualifiers(request)


def same_said(cached: str, request: str, wording: Callable[[Token], bool]) -> bool:
    """Whether ``cached`` and ``request`` say the same things in the same order once the
    tokens ``wording`` accepts (words that only name the task, separators) are set aside,
    each of :data:`QUALIFYING_WORDS` as often in both."""
    said = _said(cached, wording)
    return bool(said) and said == _said(request, wording) and same_qualifiers(cached, request)
