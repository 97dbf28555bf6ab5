from __future__ import annotations

import importlib
import re

import pytest

MODULES = [
    "stepcache_integrations",
    "stepcache_integrations.core",
    "stepcache_integrations.core.stores",
    "stepcache_integrations.core.verifiers",
    "stepcache_integrations.langchain",
]


@pytest.mark.parametrize("name", MODULES)
def test_all_is_in_sync_with_module(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert len(exported) == len(set(exported)), "duplicates in __all__"
    for symbol in exported:
        assert hasattr(module, symbol), f"{name}.__all__ names {symbol}, which is missing"


def test_top_level_exports_the_two_main_classes() -> None:
    from stepcache_integrations import StepCache, StepCacheLLM, __version__

    assert StepCache.__doc__ and "Example" in StepCache.__doc__
    assert StepCacheLLM.__doc__ and "Instantiate" in StepCacheLLM.__doc__
    assert __version__.count(".") == 2


# The packages of the API reference; their __all__ are the public names.
REFERENCE_PACKAGES = (
    "stepcache_integrations",
    "stepcache_integrations.core",
    "stepcache_integrations.langchain",
    "stepcache_integrations.llama_index",
)


def has_example(doc: str) -> bool:
    """A doctest (``>>>``), a code block, or an "Example::" literal block: code, not prose."""
    return (
        ">>>" in doc
        or ".. code-block::" in doc
        or re.search(r"^\s*Examples?\b[^\n]*::\s*$", doc, re.MULTILINE) is not None
    )


def test_has_example_tells_code_from_prose() -> None:
    assert has_example("A thing.\n\nExample:\n    >>> 1 + 1\n    2\n")
    assert has_example("A thing.\n\nExample (shown, not run)::\n\n    thing()\n")
    assert not has_example("A thing.\n\nExample: pass it to the cache.\n")
    assert not has_example("A thing with an example-free docstring.")


def test_public_classes_have_docstrings_with_examples() -> None:
    missing = []
    for name in REFERENCE_PACKAGES:
        package = importlib.import_module(name)
        for symbol in package.__all__:
            obj = getattr(package, symbol)
            if isinstance(obj, type) and not has_example(obj.__doc__ or ""):
                missing.append(f"{name}.{symbol}")
    assert not missing, f"public classes without an example in their docstring: {missing}"


def test_core_imports_no_framework() -> None:
    import subprocess
    import sys

    code = (
        "import sys, stepcache_integrations.core as c;"
        "bad=[m for m in sys.modules if m.startswith(('langchain','llama_index'))];"
        "print(','.join(bad))"
    )
    # Import the core package without the top-level package pulling in the adapters.
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import importlib.util, sys;"
            "spec=importlib.util.find_spec('stepcache_integrations');"
            "import types; pkg=types.ModuleType('stepcache_integrations');"
            "pkg.__path__=list(spec.submodule_search_locations);"
            "sys.modules['stepcache_integrations']=pkg;" + code,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == ""


def test_py_typed_is_shipped() -> None:
    from importlib.resources import files

    assert files("stepcache_integrations").joinpath("py.typed").is_file()
