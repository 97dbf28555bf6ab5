"""A griffe extension for the API reference: ``Example:`` sections are examples.

The package's docstrings follow the Google style and title their doctest sections
``Example:``; griffe only reads ``Examples:`` as an examples section (with the ``>>>`` lines as
code) and would render ``Example:`` as prose. The docstrings stay as they are; the reference
reads them as examples.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

EXAMPLE_TITLE = re.compile(r"^(\s*)Example:\s*$", re.MULTILINE)


class ExampleSections(griffe.Extension):
    """Retitle ``Example:`` as ``Examples:`` in every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        docstring = obj.docstring
        if docstring is not None and "Example:" in docstring.value:
            docstring.value = EXAMPLE_TITLE.sub(r"\1Examples:", docstring.value)
