"""Token counts a model reports, validated once for every adapter and every call path.

Models and providers report usage in many shapes, and sometimes wrongly (strings, NaN,
negative numbers). A bad count must neither raise in the caller after the answer was paid
for nor poison ``stats()``: it is treated as unknown, and the request path estimates it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from stepcache_integrations.core.protocol import ModelReply

__all__ = [
    "INPUT_TOKEN_KEYS",
    "OUTPUT_TOKEN_KEYS",
    "token_count",
    "usage_from_mapping",
    "validated_reply",
]

INPUT_TOKEN_KEYS = ("input_tokens", "prompt_tokens", "prompt_token_count")
OUTPUT_TOKEN_KEYS = ("output_tokens", "completion_tokens", "candidates_token_count")


def token_count(value: Any) -> int | None:
    """A token count as a non-negative int, or ``None`` when ``value`` is not one.

    Integral floats (``12.0``) are accepted; strings, booleans, NaN, infinities, negative
    and fractional numbers are not.

    Example:
        >>> token_count(12), token_count(12.0), token_count("12"), token_count(float("nan"))
        (12, 12, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and math.isfinite(value) and value >= 0 and value.is_integer():
        return int(value)
    return None


def usage_from_mapping(usage: Any) -> tuple[int | None, int | None]:
    """Input and output tokens from a usage mapping under any of the common key names.

    Example:
        >>> usage_from_mapping({"prompt_tokens": 7, "completion_tokens": "n/a"})
        (7, None)
    """
    if not isinstance(usage, Mapping):
        return None, None

    def first(keys: tuple[str, ...]) -> int | None:
        for key in keys:
            if key in usage:
                found = token_count(usage[key])
                if found is not None:
                    return found
        return None

    return first(INPUT_TOKEN_KEYS), first(OUTPUT_TOKEN_KEYS)


def validated_reply(reply: ModelReply) -> ModelReply:
    """``reply`` with every token count it reports validated (bad ones become ``None``)."""
    if not isinstance(reply, ModelReply):
        raise TypeError(f"a model call must produce a ModelReply, got {type(reply).__name__}")
    return replace(
        reply,
        input_tokens=token_count(reply.input_tokens),
        output_tokens=token_count(reply.output_tokens),
    )
