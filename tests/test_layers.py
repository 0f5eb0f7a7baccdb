"""The package's floors hold: every module is on one floor and imports only its own floor or
those below, no two modules import each other (directly or around a circle), the installed
package never imports the pipeline, and docs/architecture.md names every module.

Floors, bottom up (docs/architecture.md, "Layout"): base (languages, text, the source
readers), solver (lexicons, searches, games), faces (answers, CLI, pictures, server); the
pipeline on top. Imports under ``if TYPE_CHECKING:`` are for annotations only and do not count.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from build_helpers import ROOT

FLOORS: dict[str, set[str]] = {
    "base": {
        "errors", "atomic", "paths", "reasons", "language", "text", "classify", "normalize",
        "_normalize", "_prezip", "_affixforms",
        "sources", "sources.affixrules", "sources.aspell", "sources.curation", "sources.dict",
        "sources.freelang", "sources.hunspell", "sources.ods", "sources.read", "sources.textfile",
    },
    "solver": {
        "lexicon", "graph", "verify", "install", "wordlist", "anagramindex", "report", "check",
        "anagram", "phrase", "grid", "boggle", "ruzzle", "generate", "bestboard", "boardclass",
        "scrabble", "plays", "tiles", "gcg", "game", "players", "endgame", "leaves", "reference",
        "_search", "_scrabble", "_nodecheck", "_pattern", "_phrase", "_rack", "_letters",
        "_anagramindex", "_wordsort", "_wordstsv", "_bound",
    },
    "faces": {
        "answers", "cli", "output", "picture", "completion",
        "serve", "serve.app", "serve.games", "serve.params", "serve.pool", "serve.server",
    },
}  # fmt: skip
ORDER = ["base", "solver", "faces", "pipeline"]
PACKAGE = "lexforge"  # lexforge/__init__.py: the package's front door, re-exporting from below


def module_files() -> dict[str, Path]:
    """Dotted name → file, for every module of lexforge/ and pipeline/ (.py and .pyx)."""
    files = {}
    for top in ("lexforge", "pipeline"):
        for path in sorted((ROOT / top).rglob("*.py*")):
            if path.suffix not in (".py", ".pyx"):
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join(parts)] = path
    return files


def under_type_checking(tree: ast.Module) -> set[int]:
    """The ids of import nodes inside an ``if TYPE_CHECKING:`` block."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            skipped |= {id(inner) for inner in ast.walk(node)}
    return skipped


PYX_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import\s+([\w, ]+)|c?import\s+([\w.]+))", re.M)


def imports_of(path: Path, name: str, known: set[str]) -> set[str]:
    """The project modules ``path`` imports, anywhere in the file (function-level imports too)."""
    found: set[str] = set()
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".pyx":  # Cython: read the import lines
        for match in PYX_IMPORT.finditer(text):
            base, names, plain = match.groups()
            if plain:
                found.add(plain)
            for item in (names or "").split(","):
                full = f"{base}.{item.strip().split(' ')[0]}"
                found.add(full if full in known else base)
    else:
        tree = ast.parse(text)
        skipped = under_type_checking(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in known else base)
    return {module for module in found if module in known and module != name}


def floor_of(name: str) -> str | None:
    if name.startswith("pipeline"):
        return "pipeline"
    short = name.removeprefix(f"{PACKAGE}.")
    return next((floor for floor, members in FLOORS.items() if short in members), None)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    files = module_files()
    known = set(files)
    return {name: imports_of(path, name, known) for name, path in files.items()}


def test_every_module_has_a_floor(graph):
    missing = [n for n in graph if n != PACKAGE and floor_of(n) is None]
    assert not missing, f"add these to a floor in FLOORS (and to docs/architecture.md): {missing}"
    listed = {f"{PACKAGE}.{m}" for members in FLOORS.values() for m in members}
    assert listed <= set(graph), f"FLOORS lists modules that are gone: {listed - set(graph)}"


def test_imports_go_down_only(graph):
    upward = [
        f"{name} ({floor_of(name)}) imports {target} ({floor_of(target)})"
        for name, targets in sorted(graph.items())
        if name != PACKAGE
        for target in sorted(targets)
        if target != PACKAGE and ORDER.index(floor_of(target)) > ORDER.index(floor_of(name))
    ]
    assert not upward, "\n".join(upward)


def find_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components: each with two modules or more is a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_import_circles(graph):
    assert not find_circles(graph), f"modules importing each other: {find_circles(graph)}"


def test_find_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": set()}
    assert find_circles(graph) == [["a", "b", "c"]]
    assert find_circles({"a": {"b"}, "b": set()}) == []


def test_imports_under_type_checking_do_not_count(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from lexforge import text\n"
        "TYPE_CHECKING = False\n"
        "if TYPE_CHECKING:\n"
        "    from lexforge.language import Language\n"
        "def f():\n"
        "    from lexforge.grid import Grid\n"
    )
    known = {"lexforge.text", "lexforge.language", "lexforge.grid"}
    assert imports_of(module, "lexforge.m", known) == {"lexforge.text", "lexforge.grid"}


def test_the_package_never_imports_the_pipeline(graph):
    assert not [
        (name, target)
        for name, targets in graph.items()
        if name.startswith(PACKAGE)
        for target in targets
        if target.startswith("pipeline")
    ]


def test_the_architecture_page_names_every_module(graph):
    page = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    layout = page.split("## Layout", 1)[1].split("\n## ", 1)[0]
    words = set(re.findall(r"[\w.]+", layout.replace("/", ".")))
    unnamed = [
        name
        for name in sorted(graph)
        if name.startswith(f"{PACKAGE}.")
        and not {name.rpartition(".")[2], name.removeprefix(f"{PACKAGE}.")} & words
        and f"{name.rpartition('.')[2]}.pyx" not in layout
    ]
    assert not unnamed, f"docs/architecture.md's Layout does not name: {unnamed}"
