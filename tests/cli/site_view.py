"""A view of this environment's site-packages as a plain ``pip install -e .`` would leave it.

The view holds exactly the distributions in the dependency closure of stepcache-integrations
with the chosen extras (the project's own requirements read from this checkout's
``pyproject.toml``, the others from the installed metadata; markers evaluated), each file
linked from the real site-packages. A Python started with ``-S`` (no site-packages) and the
view plus the checkout on ``PYTHONPATH`` then sees what a venv without the other extras sees:
``import rich`` raises ``ModuleNotFoundError`` and ``importlib.util.find_spec("rich")`` is
``None``, as they would there. It takes about a second to build, where a real venv takes
minutes to install.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from collections.abc import Iterable, Sequence
from importlib.metadata import Distribution, PackageNotFoundError, distribution, distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = "stepcache-integrations"


def declared_requirements() -> list[str]:
    """The project's requirements as this checkout declares them, in metadata form (each
    optional one marked with its extra).

    The installed metadata of an editable install is that of the checkout it was installed
    from, which need not be this one: the checkout under test is what counts.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project.get("dependencies", []))
    for extra, declared in project.get("optional-dependencies", {}).items():
        for text in declared:
            requirement = Requirement(text)
            marker = f'extra == "{extra}"'
            if requirement.marker is not None:
                marker = f"({requirement.marker}) and {marker}"
            requirement.marker = None
            requirements.append(f"{requirement}; {marker}")
    return requirements


def closure(extras: Iterable[str]) -> dict[str, Distribution]:
    """The installed distributions a ``pip install -e ".[extras]"`` needs, by canonical name."""
    found: dict[str, Distribution] = {}
    done: set[tuple[str, str]] = set()
    todo: list[tuple[str, frozenset[str]]] = [(PROJECT, frozenset(extras))]
    while todo:
        name, wanted = todo.pop()
        key = canonicalize_name(name)
        if all((key, extra) in done for extra in wanted | {""}):
            continue
        done.update((key, extra) for extra in wanted | {""})
        try:
            dist = found.get(key) or distribution(name)
        except PackageNotFoundError:
            raise AssertionError(f"{name} is required but not installed") from None
        found[key] = dist
        requires = declared_requirements() if key == PROJECT else dist.requires or []
        for text in requires:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is not None and not any(
                marker.evaluate({"extra": extra}) for extra in wanted | {""}
            ):
                continue
            todo.append((requirement.name, frozenset(requirement.extras)))
    return found


def _top_level(dist: Distribution) -> set[str]:
    return {
        Path(str(file)).parts[0]
        for file in dist.files or []
        if not str(file).startswith("..") and Path(str(file)).parts
    }


def build_view(target: Path, extras: Sequence[str] = ()) -> Path:
    """Link the closure's files into ``target`` (a folder that stands for site-packages)."""
    keep = closure(extras)
    owners: dict[str, set[str]] = {}
    for dist in distributions():
        for top in _top_level(dist):
            owners.setdefault(top, set()).add(canonicalize_name(dist.metadata["Name"]))
    target.mkdir(parents=True, exist_ok=True)
    for dist in keep.values():
        for top in _top_level(dist):
            source = Path(str(dist.locate_file(top)))
            link = target / top
            if owners[top] <= set(keep):
                if not link.exists() and source.exists():
                    link.symlink_to(source)
                continue
            # A folder shared with a distribution outside the closure (a namespace package
            # such as llama_index): link this distribution's files one by one.
            for file in dist.files or []:
                if Path(str(file)).parts[0] != top:
                    continue
                path = target / str(file)
                if not path.exists():
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.symlink_to(Path(str(dist.locate_file(file))))
    return target


def run_python(
    view: Path, code: str, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a Python that sees only the stdlib, ``view`` and the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = os.pathsep.join([str(view), str(ROOT)])
    env["PYTHONNOUSERSITE"] = "1"
    env["COLUMNS"] = "100"
    return subprocess.run(
        [sys.executable, "-S", "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=view.parent,
        check=False,
    )


# The ``stepcache`` script as pip writes it: load the console-script entry point and call it.
STEPCACHE_SCRIPT = """
import sys
from importlib.metadata import entry_points
(script,) = entry_points(group="console_scripts", name="stepcache")
sys.argv[0] = "stepcache"
sys.exit(script.load()())
"""


def stepcache(view: Path, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``stepcache ARGV...`` in the view."""
    return run_python(view, STEPCACHE_SCRIPT, *argv, timeout=timeout)
