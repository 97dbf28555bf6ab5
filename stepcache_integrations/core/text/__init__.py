"""Words and numbers: tokenising requests and the one definition of "the same request".

Everything that compares two requests uses this package: :func:`exact_form` gives the text
the exact-match key is built from, :func:`compare` says how a new request differs from a
cached one once meaning-neutral edits are removed, and :func:`is_polarity` /
:func:`negates` recognise the changes that turn an answer around.

Example:
    >>> from stepcache_integrations.core.text import compare, exact_form
    >>> compare("Please sort these numbers in ascending order.",
    ...         "Sort these numbers in descending order").same
    False
    >>> exact_form("  What is  2 + 2?  ")
    'What is 2 + 2?'
"""

from stepcache_integrations.core.text.layout import exact_form
from stepcache_integrations.core.text.lexicon import NEUTRAL_WORDS
from stepcache_integrations.core.text.polarity import is_polarity, negates
from stepcache_integrations.core.text.sameness import (
    REQUEST_FORM_VERSION,
    Edit,
    RequestDelta,
    clear_caches,
    compare,
    meaningful_tokens,
    mentions,
    request_form,
    same_request,
)
from stepcache_integrations.core.text.self_reference import about_own_text
from stepcache_integrations.core.text.tokens import Token, TokenKind, tokenise

__all__ = [
    "NEUTRAL_WORDS",
    "REQUEST_FORM_VERSION",
    "Edit",
    "RequestDelta",
    "Token",
    "TokenKind",
    "about_own_text",
    "clear_caches",
    "compare",
    "exact_form",
    "is_polarity",
    "meaningful_tokens",
    "mentions",
    "negates",
    "request_form",
    "same_request",
    "tokenise",
]
