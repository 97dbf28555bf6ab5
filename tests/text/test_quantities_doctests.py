"""The examples in the quantity reader's docstrings hold."""

from __future__ import annotations

import doctest

from stepcache_integrations.core.text import quantities


def test_docstring_examples() -> None:
    failures, tried = doctest.testmod(quantities, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failures == 0
