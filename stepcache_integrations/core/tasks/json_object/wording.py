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

from collections.abc import Callable

from stepcache_integrations.core.text import Token, meaningful_tokens

__all__ = ["same_said"]


def _said(text: str, wording: Callable[[Token], bool]) -> list[str]:
    return [token.norm for token in meaningful_tokens(text) if not wording(token)]


def same_said(cached: str, request: str, wording: Callable[[Token], bool]) -> bool:
    """Whether ``cached`` and ``request`` say the same things in the same order once the
    tokens ``wording`` accepts (words that only name the task, separators) are set aside."""
    said = _said(cached, wording)
    return bool(said) and said == _said(request, wording)
