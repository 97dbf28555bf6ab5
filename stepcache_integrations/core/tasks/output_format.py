"""What output format a prompt asks for, shared by the task verifiers so they agree.

"Return the record as JSON" asks for JSON; "instead of a JSON object, solve ..." and "do not
return JSON" mention it only to rule it out. What else a request asks is not read here: the
model's answer shows it.
"""

from __future__ import annotations

import re

__all__ = ["asks_for_json", "json_asked_at"]

_SCAN_CHARS = 20_000
_JSON_MENTION = re.compile(r"(?i)(?<![a-z])json(?![a-z])")
_NEGATION = re.compile(
    r"(?i)\b(?:not|no|never|without|instead\s+of|rather\s+than|forget|skip)\b|n't"
)


def asks_for_json(request: str) -> bool:
    """``True`` when some mention of JSON in ``request`` is not negated.

    Example:
        >>> asks_for_json("Return only a JSON object with keys a and b.")
        True
        >>> asks_for_json("Instead of a JSON object, solve 2x = 4 for x.")
        False
    """
    return json_asked_at(request) is not None


def json_asked_at(request: str) -> int | None:
    """Where the first mention of JSON in ``request`` that is not negated starts.

    Example:
        >>> json_asked_at("Tell me if it is old, and make a JSON of it.")
        33
        >>> json_asked_at("No JSON, please.") is None
        True
    """
    head = request[:_SCAN_CHARS]
    for match in _JSON_MENTION.finditer(head):
        # Only the words just before the mention, within its clause, can negate it.
        before = re.split(r"[.!?;\n]", head[max(0, match.start() - 40) : match.start()])[-1]
        if not _NEGATION.search(before):
            return match.start()
    return None
