"""Run the documentation's code blocks: every page's Python blocks in order, as a reader would.

How a page is run (a page added to ``docs/`` is picked up with no change here):

* ``README.md`` and every ``docs/**/*.md`` page are read; fenced blocks tagged ``python`` (or
  ``py``) run in one namespace per page, in order, in a temporary working directory.
* Real models are swapped for scripted ones (``fakes.py``): ``langchain_openai.ChatOpenAI``
  and ``OpenAIEmbeddings``. A page keeps showing real usage.
* A placeholder, a top-level ``name = ...`` line ("your model"), is filled with the scripted
  object registered for ``name`` (``_llama_index_placeholders`` when the page's code mentions
  ``llama_index``, ``_langchain_placeholders`` otherwise). So is a name a block uses without
  defining it, when nothing earlier on the page defined it either (a short snippet that
  continues the page: ``llm.chat(messages)``). An unknown name fails and says where to
  register it.
* ``print(EXPR)  # -> TEXT`` checks that the line prints exactly ``TEXT``.
* ``<!-- docs-test: skip REASON -->`` on the line before a block: the block is compiled and its
  imports checked, not run (for what cannot run here, e.g. a server). Use it rarely.
* ``bash`` blocks: every ``stepcache ...`` command must parse with the real CLI parser and
  every ``pip install -e ".[EXTRA]"`` must name declared extras.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib.util
import io
import re
import shlex
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from tests.cli.site_view import closure

ROOT = Path(__file__).resolve().parents[2]
SKIP = re.compile(r"<!--\s*docs-test:\s*skip\b(?P<reason>.*?)-->", re.DOTALL)
PRINT_CHECK = re.compile(r"^(?P<indent>\s*)print\((?P<expr>.*)\)\s*#\s*->\s*(?P<expected>.*)$")


def doc_pages() -> list[Path]:
    """README.md and every Markdown page of the documentation site."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@dataclass(frozen=True)
class CodeBlock:
    """One fenced code block of a page."""

    page: Path
    index: int
    language: str
    code: str
    line: int  # 1-based line of the opening fence
    skip: str | None  # the reason, when the block is marked to be compiled only

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line} (block {self.index})"


def code_blocks(page: Path) -> list[CodeBlock]:
    """The page's fenced code blocks, with the skip mark of each."""
    text = page.read_text()
    lines = text.splitlines()
    blocks: list[CodeBlock] = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.type != "fence" or token.map is None:
            continue
        start = token.map[0]
        before = "\n".join(lines[max(0, start - 3) : start])
        marks = list(SKIP.finditer(before))
        skip = marks[-1]["reason"].strip() or "no reason given" if marks else None
        language = token.info.split()[0].lower() if token.info.strip() else ""
        blocks.append(CodeBlock(page, len(blocks), language, token.content, start + 1, skip))
    return blocks


def python_blocks(page: Path) -> list[CodeBlock]:
    return [b for b in code_blocks(page) if b.language in ("python", "py")]


def shell_blocks(page: Path) -> list[CodeBlock]:
    return [b for b in code_blocks(page) if b.language in ("bash", "sh", "shell", "console")]


# --- imports ----------------------------------------------------------------------------------


def imported_modules(code: str) -> list[str]:
    """Every module a block imports (``from a.b import c`` gives ``a.b``)."""
    modules: list[str] = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.append(node.module)
    return modules


def owned_files(extras: list[str]) -> dict[Path, str]:
    """Every file of the distributions a user gets with the package and its extras."""
    owned: dict[Path, str] = {}
    for name, dist in closure(extras).items():
        for file in dist.files or []:
            owned[Path(str(dist.locate_file(file))).resolve()] = name
    return owned


# What a user installs; test and docs are for developers.
USER_EXTRAS = [
    "bench",
    "local",
    "agents",
    "postgres",
    "postgres-frameworks",
    "otel",
    "otel-sdk",
]


def provider(module: str, owned: dict[Path, str]) -> str | None:
    """The distribution (in the project's dependencies) that ships ``module``, else ``None``."""
    top = module.split(".")[0]
    if top in sys.stdlib_module_names:
        return "stdlib"
    if top == "stepcache_integrations":
        return "stepcache-integrations"
    try:
        spec = importlib.util.find_spec(module)
    except ImportError:
        return None
    if spec is None or spec.origin is None:
        return None
    return owned.get(Path(spec.origin).resolve())


# --- placeholders -----------------------------------------------------------------------------


def _langchain_placeholders() -> dict[str, Callable[[], Any]]:
    from langchain_core.output_parsers import PydanticOutputParser
    from pydantic import BaseModel

    from stepcache_integrations import StepCache
    from tests.docs.fakes import DocsChatModel, DocsEmbeddings

    class Person(BaseModel):
        name: str
        age: int

    return {
        "inner": DocsChatModel,
        "model": DocsChatModel,
        "cache": StepCache,
        "embeddings": DocsEmbeddings,
        "MyModel": lambda: Person,
        "parser": lambda: PydanticOutputParser(pydantic_object=Person),
        "prompt": lambda: "Solve 3x + 5 = 20. Show each step as 'Step N:'.",
    }


def _llama_index_placeholders() -> dict[str, Callable[[], Any]]:
    from llama_index.core import Document, MockEmbedding
    from llama_index.core.llms import ChatMessage
    from llama_index.core.output_parsers import PydanticOutputParser
    from llama_index.core.vector_stores import SimpleVectorStore
    from pydantic import BaseModel

    from stepcache_integrations import StepCache
    from tests.docs.fakes import DocsLlamaLLM

    class Person(BaseModel):
        name: str
        age: int

    return {
        "inner": DocsLlamaLLM,
        "llm": DocsLlamaLLM,
        "cache": StepCache,
        "embed_model": lambda: MockEmbedding(embed_dim=8),
        "my_store": SimpleVectorStore,
        "MyModel": lambda: Person,
        "parser": lambda: PydanticOutputParser(output_cls=Person),
        "documents": lambda: [
            Document(text="To solve a linear equation, isolate the variable."),
            Document(text="Check a solution by substituting it back."),
        ],
        "messages": lambda: [ChatMessage(role="user", content="Solve 3x + 5 = 20.")],
        "prompt": lambda: "Solve 3x + 5 = 20. Show each step as 'Step N:'.",
        "Person": lambda: Person,
        "t": lambda: "Ada Lovelace, 36, wrote the first program.",
    }


def placeholders_for(page_code: str) -> dict[str, Callable[[], Any]]:
    """The scripted objects a page's placeholders get: LlamaIndex ones for LlamaIndex pages."""
    if "llama_index" in page_code:
        return _llama_index_placeholders()
    return _langchain_placeholders()


class _Rewrite(ast.NodeTransformer):
    """``name = ...`` at the top level becomes ``name = __placeholder__("name")``."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def visit_Module(self, node: ast.Module) -> ast.Module:
        for statement in node.body:
            if (
                isinstance(statement, ast.Assign)
                and isinstance(statement.value, ast.Constant)
                and statement.value.value is Ellipsis
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
            ):
                name = statement.targets[0].id
                self.names.append(name)
                call = ast.Call(ast.Name("__placeholder__", ast.Load()), [ast.Constant(name)], [])
                statement.value = ast.copy_location(call, statement.value)
        return node


def free_names(tree: ast.Module) -> set[str]:
    """Names a block reads but never binds (assignments, imports, definitions, arguments)."""
    bound: set[str] = set()
    read: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return read - bound - set(dir(builtins))


def _with_print_checks(code: str) -> str:
    """``print(x)  # -> text`` lines become checks that ``x`` prints ``text``."""
    out = []
    for line in code.splitlines():
        match = PRINT_CHECK.match(line)
        if match is None:
            out.append(line)
            continue
        out.append(
            f"{match['indent']}__check_print__({match['expr']}, "
            f"expected={match['expected'].strip()!r})"
        )
    return "\n".join(out)


def _check_print(*values: Any, expected: str) -> None:
    shown = " ".join(str(value) for value in values)
    print(shown)
    assert shown == expected, f"printed {shown!r}, the page says {expected!r}"


@contextlib.contextmanager
def framework_state() -> Iterator[None]:
    """Restore the frameworks' global state a page may change (LlamaIndex ``Settings`` and
    dispatcher handlers, LangChain's global cache)."""
    from langchain_core.globals import get_llm_cache, set_llm_cache
    from llama_index.core import Settings
    from llama_index.core.instrumentation import get_dispatcher

    settings = dict(vars(Settings))
    dispatcher = get_dispatcher()
    handlers = list(dispatcher.event_handlers)
    llm_cache = get_llm_cache()
    try:
        yield
    finally:
        vars(Settings).clear()
        vars(Settings).update(settings)
        dispatcher.event_handlers = handlers
        set_llm_cache(llm_cache)


def run_page(page: Path) -> str:
    """Run every Python block of ``page`` in order in one namespace; return what it printed.

    The caller swaps the real model classes for fakes and picks the working directory.
    """
    blocks = python_blocks(page)
    factories = placeholders_for("\n".join(b.code for b in blocks))

    def placeholder(name: str) -> Any:
        if name not in factories:
            raise AssertionError(
                f"{page.relative_to(ROOT)} uses '{name}' without defining it: define it on the "
                "page, or register a scripted object for it in tests/docs/harness.py"
            )
        return factories[name]()

    namespace: dict[str, Any] = {
        "__name__": "__docs__",
        "__placeholder__": placeholder,
        "__check_print__": _check_print,
    }
    printed = io.StringIO()
    with framework_state(), contextlib.redirect_stdout(printed):
        for block in blocks:
            tree = _Rewrite().visit(ast.parse(_with_print_checks(block.code)))
            compiled = compile(ast.fix_missing_locations(tree), block.where, "exec")
            if block.skip is not None:
                continue
            for name in sorted(free_names(tree) - set(namespace)):
                namespace[name] = placeholder(name)
            try:
                exec(compiled, namespace)
            except Exception as exc:
                raise AssertionError(f"{block.where} failed: {exc!r}\n{block.code}") from exc
    return printed.getvalue()


# --- shell blocks ------------------------------------------------------------------------------

EXTRA = re.compile(r"\.\[(?P<extras>[\w,-]+)\]")


def declared_extras() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return set(project["optional-dependencies"])


def shell_commands(block: CodeBlock) -> list[list[str]]:
    """The block's commands, split like a shell would (comments dropped, ``&&`` split)."""
    commands: list[list[str]] = []
    for raw in block.code.splitlines():
        words = shlex.split(raw, comments=True)
        current: list[str] = []
        for word in words:
            if word in ("&&", "||", ";", "|"):
                commands.append(current)
                current = []
            else:
                current.append(word)
        commands.append(current)
    return [c for c in commands if c]
