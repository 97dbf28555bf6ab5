"""What the documentation states about the code stays true: the record's fields, the
constructors' arguments, the dependencies, and no reference to internal documents a user does
not have."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import tomllib
from pathlib import Path
from typing import Any, get_overloads

from packaging.requirements import Requirement

from stepcache_integrations import StepCache, StepCacheRecord
from stepcache_integrations.bench.llama_build import PORTABLE_CMAKE_ARGS, reinstall_command
from stepcache_integrations.core.stores import MemoryStore, SqliteStore
from stepcache_integrations.core.stores.postgres import PoolSettings, PostgresStore
from tests.docs.harness import ROOT, doc_pages, free_names, python_blocks

# "SPEC 3.8", "SPEC section 7", "issue 5", "issue #5", "ARCHITECTURE.md": pointers into the
# project's internal documents, which users of the package never see.
INTERNAL_REFERENCE = re.compile(
    r"\bSPEC\b\s*(?:section\s*|§\s*)?\d|\bSPEC\.md\b|\bARCHITECTURE\.md\b|\bissues?\s*#?\d+",
    re.IGNORECASE,
)


def _record_table_fields(page: Path) -> set[str]:
    text = page.read_text()
    section = text.split("## The record of a request", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            first_cell = line.split("|")[1]
            names.update(re.findall(r"`(\w+)`", first_cell))
    return names


def test_the_record_table_lists_every_field_of_the_record() -> None:
    documented = _record_table_fields(ROOT / "docs" / "concepts.md")
    fields = {field.name for field in dataclasses.fields(StepCacheRecord)}
    assert documented == fields, (
        f"missing from the table: {sorted(fields - documented)}; "
        f"not fields: {sorted(documented - fields)}"
    )


def test_the_readme_names_every_runtime_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    readme = (ROOT / "README.md").read_text()
    listed = readme.split("Runtime dependencies:", 1)[1].split(".", 1)[0]
    for requirement in project["dependencies"]:
        name = Requirement(requirement).name
        assert name in listed, f"README's dependency list lacks {name}"
    for extra in project["optional-dependencies"]:
        assert f"`{extra}`" in readme, f"README does not name the {extra} extra"


def test_no_reference_to_internal_documents() -> None:
    """Docstrings, comments, messages and pages stand on their own."""
    paths = [*sorted((ROOT / "stepcache_integrations").rglob("*.py")), *doc_pages()]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in [*paths, ROOT / "CHANGELOG.md"]
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if INTERNAL_REFERENCE.search(line)
    ]
    assert not found, "\n".join(found)


def test_the_internal_reference_pattern_catches_what_it_should() -> None:
    for text in (
        "The record (SPEC 3.8)",
        "SPEC section 7",
        "issue 5",
        "see issue #12",
        "ARCHITECTURE.md",
    ):
        assert INTERNAL_REFERENCE.search(text), text  # fmt: skip
    for text in ("spec.keys", "json_schema spec", "an issue with the cache"):
        assert INTERNAL_REFERENCE.search(text) is None, text


CODE_PATH = re.compile(r"`((?:stepcache_integrations|core|tests|cookbook)/[\w./]*)`")


def test_every_code_path_the_pages_name_exists() -> None:
    """`core/engine.py`, `stepcache_integrations/cli/`, `tests/reliability/`: still there."""
    missing = []
    for page in doc_pages():
        for number, line in enumerate(page.read_text().splitlines(), start=1):
            for path in CODE_PATH.findall(line):
                base = ROOT / "stepcache_integrations" if path.startswith("core/") else ROOT
                if not (base / path.rstrip("/")).exists():
                    missing.append(f"{page.relative_to(ROOT)}:{number}: {path}")
    assert not missing, "\n".join(missing)


def test_the_middleware_example_stands_alone() -> None:
    """The agents page's middleware block imports or defines every name it uses: a reader
    who copies that block alone can run it."""
    (block,) = [
        b for b in python_blocks(ROOT / "docs" / "agents.md") if "StepCacheMiddleware(" in b.code
    ]
    assert free_names(ast.parse(block.code)) == set(), block.where


def _fenced_after(text: str, marker: str) -> str:
    block = text.split(marker, 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    return block.strip()


def test_the_readme_commands_build_the_local_model_portably() -> None:
    """The test command (what CI runs) and the benchmark command build llama-cpp-python with
    the portable flags, never from pip's cache, each on one line; the rebuild command the
    README shows is the one the benchmark prints."""
    readme = (ROOT / "README.md").read_text()
    test_command = _fenced_after(readme, "<!-- test-command:start -->")
    bench_command = _fenced_after(readme, "Run the benchmark on the embedded local model")
    for command in (test_command, bench_command):
        assert "\n" not in command, command
        (install,) = [part for part in command.split(" && ") if ".[" in part and "local" in part]
        assert install.startswith(f'CMAKE_ARGS="{PORTABLE_CMAKE_ARGS}" .venv/bin/python -m pip')
        assert " --no-cache-dir " in install
    assert bench_command.endswith(".venv/bin/stepcache bench --out bench-results")
    assert reinstall_command(python=".venv/bin/python") in readme


# -- the configuration page shows the constructors as they are -----------------------------------

DOCUMENTED = {
    "StepCache": StepCache,
    "MemoryStore": MemoryStore,
    "SqliteStore": SqliteStore,
    "PostgresStore": PostgresStore,
    "PoolSettings": PoolSettings,
}


def _documented_calls() -> dict[str, tuple[dict[str, Any], str]]:
    """Each constructor's call on the configuration page: its arguments with their literal
    values (a positional one under its parameter's name), and the text of the call (its
    comments included)."""
    calls: dict[str, tuple[dict[str, Any], str]] = {}
    for block in python_blocks(ROOT / "docs" / "configuration.md"):
        lines = block.code.splitlines()
        for node in ast.walk(ast.parse(block.code)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                name = node.func.id
                if name in DOCUMENTED and node.keywords and name not in calls:
                    names = list(_parameters(DOCUMENTED[name]))
                    values = {names[i]: _literal(arg) for i, arg in enumerate(node.args)}
                    for keyword in node.keywords:
                        assert keyword.arg is not None
                        values[keyword.arg] = _literal(keyword.value)
                    assert node.end_lineno is not None
                    text = "\n".join(lines[node.lineno - 1 : node.end_lineno])
                    calls[name] = (values, text)
    return calls


_NOT_A_LITERAL = object()


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return _NOT_A_LITERAL  # Policy(), a path...: only its presence is checked


def _signatures(target: Any) -> list[inspect.Signature]:
    init = target.__init__
    overloads = get_overloads(init)
    return [inspect.signature(f) for f in overloads] if overloads else [inspect.signature(init)]


def _parameters(target: Any) -> dict[str, inspect.Parameter]:
    """Every parameter of every signature of ``target``'s constructor, in order."""
    return {
        p.name: p
        for signature in _signatures(target)
        for p in signature.parameters.values()
        if p.name != "self" and p.kind is not p.VAR_KEYWORD
    }


def test_the_configuration_page_shows_every_constructor_as_its_signature_reads() -> None:
    """Every argument of the cache and of the stores is on the configuration page (as a
    keyword, or named in the call's comments, like the cache's shortcuts), with the default
    the signature has, and the page shows no argument the constructor does not take. The API
    reference is generated from the same signatures (one per overload: ``overloads_only``)."""
    calls = _documented_calls()
    assert set(calls) == set(DOCUMENTED), f"not on the page: {set(DOCUMENTED) - set(calls)}"
    for name, (values, text) in calls.items():
        parameters = _parameters(DOCUMENTED[name])
        assert set(values) <= set(parameters), (name, set(values) - set(parameters))
        for argument in parameters:
            shown = argument in values or f"{argument}=" in text
            assert shown, f"{name}: {argument} is not on the page"
        for argument, value in values.items():
            default = parameters[argument].default
            if value is not _NOT_A_LITERAL and default is not inspect.Parameter.empty:
                assert value == default, f"{name}({argument}=...): page {value!r}, code {default!r}"


def test_each_signature_of_the_cache_takes_one_place_for_its_entries() -> None:
    places = ["store", "path", "url", "index"]
    signatures = _signatures(StepCache)
    assert [set(s.parameters) & set(places) for s in signatures] == [{p} for p in places]
    for signature in signatures:  # and none takes a store's option
        assert not set(signature.parameters) & {"max_entries", "embedder", "durability"}
