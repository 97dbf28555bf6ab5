"""Every code block of the README and of the documentation runs, against scripted models.

See ``harness.py`` for the conventions (placeholders, printed-output checks, skip marks).
"""

from __future__ import annotations

from pathlib import Path

import langchain_openai
import pytest

from stepcache_integrations.cli import build_parser
from tests.docs.fakes import DocsChatModel, DocsEmbeddings
from tests.docs.harness import (
    EXTRA,
    ROOT,
    USER_EXTRAS,
    declared_extras,
    doc_pages,
    imported_modules,
    owned_files,
    provider,
    python_blocks,
    run_page,
    shell_blocks,
    shell_commands,
)

PAGES = doc_pages()
PAGE_IDS = [str(page.relative_to(ROOT)) for page in PAGES]
PAGES_WITH_CODE = [page for page in PAGES if python_blocks(page)]


@pytest.fixture(scope="module")
def owned() -> dict[Path, str]:
    return owned_files(USER_EXTRAS)


def test_every_page_is_found() -> None:
    names = {page.name for page in PAGES}
    assert {"README.md", "index.md", "concepts.md", "configuration.md"} <= names
    assert sum(len(python_blocks(page)) for page in PAGES) >= 15


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_imports_come_from_the_projects_dependencies(page: Path, owned: dict[Path, str]) -> None:
    """A documented import must work after installing the package (and its extras): no
    package that no dependency provides (such as an integration the user never installed)."""
    for block in python_blocks(page):
        for module in imported_modules(block.code):
            assert provider(module, owned), (
                f"{block.where} imports {module}, which no dependency of stepcache-integrations "
                "provides"
            )


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=lambda page: str(page.relative_to(ROOT)))
def test_python_blocks_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(langchain_openai, "ChatOpenAI", DocsChatModel)
    monkeypatch.setattr(langchain_openai, "OpenAIEmbeddings", DocsEmbeddings)
    run_page(page)


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_shell_commands_parse(page: Path) -> None:
    extras = declared_extras()
    parser = build_parser()
    for block in shell_blocks(page):
        for command in shell_commands(block):
            program = Path(command[0]).name
            if program == "stepcache":
                try:
                    parser.parse_args(command[1:])
                except SystemExit as exc:
                    raise AssertionError(f"{block.where}: {' '.join(command)}") from exc
            for word in command:
                match = EXTRA.search(word)
                if match and word.startswith(".["):
                    unknown = set(match["extras"].split(",")) - extras
                    assert not unknown, f"{block.where}: unknown extra(s) {unknown} in {word}"
