"""The documentation site builds strictly (a broken link or reference fails the build), holds
every page and the plots, and its build output stays out of git."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.docs.harness import ROOT


def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True, text=True, timeout=300, env=env, cwd=ROOT, check=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = mkdocs_build(ROOT / "mkdocs.yml", out)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    return out


def _nav_pages(nav: list[Any]) -> list[str]:
    pages: list[str] = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        pages += _nav_pages(value) if isinstance(value, list) else [value]
    return pages


def test_every_nav_page_is_built(site: Path) -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    for page in _nav_pages(config["nav"]):
        path = Path(page).with_suffix("")
        folder = path.parent if path.name == "index" else path
        assert (site / folder / "index.html").is_file(), page


def test_the_api_reference_is_generated_from_the_docstrings(site: Path) -> None:
    html = (site / "reference" / "stepcache_integrations" / "index.html").read_text()
    for name in (
        "stepcache_integrations.StepCache",
        "stepcache_integrations.Policy",
        "stepcache_integrations.StepCacheLLM",
        "stepcache_integrations.StepCacheRecord",
    ):
        assert f'id="{name}"' in html, name  # fmt: skip
    # Docstring examples (titled "Example:") are rendered as highlighted code, not as prose.
    assert '<span class="doc-section-title">Examples:</span>' in html
    assert '<span class="gp">&gt;&gt;&gt; </span>' in html


def _signatures(html: str, name: str) -> list[str]:
    """The rendered signatures of the class ``name`` (its text, tags and entities removed)."""
    start = html.index(f'id="{name}"')
    end = html.index("doc-contents", start)
    return [
        unescape(re.sub(r"<[^>]+>", "", block))
        for block in re.findall(r'<div class="doc-signature highlight">(.*?)</div>',
                                html[start:end], re.DOTALL)
    ]  # fmt: skip


def test_the_reference_shows_one_signature_per_place_for_the_entries(site: Path) -> None:
    """The cache's reference reads as the configuration page describes it: one of ``store``,
    ``path``, ``url`` or ``index`` per signature, and the stores' options on the stores."""
    html = (site / "reference" / "stepcache_integrations" / "index.html").read_text()
    cache = _signatures(html, "stepcache_integrations.StepCache")
    places = ["store", "path", "url", "index"]
    assert [[p for p in places if f"    {p}:" in text] for text in cache] == [[p] for p in places]
    assert not any("durability" in text or "max_entries" in text for text in cache)
    core = (site / "reference" / "core" / "index.html").read_text()
    [sqlite] = _signatures(core, "stepcache_integrations.core.SqliteStore")
    for option in ("durability", "read_only", "on_corrupt_index", "max_entries", "embedder"):
        assert f"    {option}:" in sqlite, option
    [memory] = _signatures(core, "stepcache_integrations.core.MemoryStore")
    assert "max_entries:" in memory and "embedder:" in memory and "durability" not in memory


def test_the_benchmark_page_shows_the_plots_and_the_changelog_is_included(site: Path) -> None:
    html = (site / "benchmark" / "index.html").read_text()
    for plot in ("correctness.png", "latency.png", "tokens.png"):
        assert plot in html
    assert (site / "bench" / "correctness.png").is_file()
    changelog = (site / "changelog" / "index.html").read_text()
    assert "Semantic Versioning" in changelog


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """The same configuration on a page with a dead link: strict mode must refuse it."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the missing page](missing.md).\n")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    config.update(docs_dir=str(docs), nav=["index.md"], plugins=["search"])
    config.pop("exclude_docs", None)
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config))
    done = mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    assert "missing.md" in done.stdout + done.stderr


def test_the_build_output_is_not_committed() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "site/index.html"], cwd=ROOT, check=False
    )
    assert ignored.returncode == 0, "add site/ to .gitignore"
