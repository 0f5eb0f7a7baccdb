"""Which of the project's source files a build step runs: its code dependency, derived.

Each rule hashes the files its step imports (transitively, lazy imports included) into its
parameters, so editing any module a step uses reruns that step and no other. Only the project's
own packages count (``lexforge``, ``pipeline``); a compiled module counts by its ``.pyx``.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from pathlib import Path

PROJECT_PACKAGES = ("lexforge", "pipeline")


def _source(module: str, root: Path) -> Path | None:
    """The file defining ``module`` under ``root``, or None if it is not a project module."""
    if module.split(".")[0] not in PROJECT_PACKAGES:
        return None
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyx")):
        if candidate.is_file():
            return candidate
    return None


# Import statements, found by their shape rather than by parsing each module (ast.parse of the
# project's modules added 0.3–0.6 s to every Snakemake start). A line that only looks like one
# (in a docstring) adds a file to a step's hash, never removes one.
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^#\n]+)", re.MULTILINE)
_FROM_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^#\n]+)", re.MULTILINE
)
_COMMENT = re.compile(r"#[^\n]*")


@cache  # read once a planning: the steps share most of their modules
def _imported(path: Path) -> frozenset[str]:
    """Every module name ``path`` imports, including ``package.name`` for ``from package import
    name`` (which may be a submodule)."""
    if path.suffix == ".pyx":  # the compiled search imports no project module
        return frozenset()
    text = path.read_text(encoding="utf-8")
    names = {
        _imported_name(part)
        for statement in _IMPORT.findall(text)
        for part in statement.split(",")
        if part.strip()
    }
    for module, imported in _FROM_IMPORT.findall(text):
        if module.startswith("."):  # relative: the project's modules import absolutely
            continue
        names.add(module)
        imported = _COMMENT.sub("", imported).strip("() \t\n")
        names.update(
            f"{module}.{_imported_name(part)}" for part in imported.split(",") if part.strip()
        )
    return frozenset(names)


def _imported_name(part: str) -> str:
    """``name`` of an import list's ``name`` or ``name as alias``."""
    return part.split()[0]


def _parents(module: str) -> list[str]:
    """Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` too."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


@cache
def module_files(module: str, root: Path) -> tuple[Path, ...]:
    """The project files that running ``python -m module`` from ``root`` may execute, sorted."""
    seen: dict[str, Path] = {}
    pending = [module]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = _source(name, root)
        if path is None:
            continue
        seen[name] = path
        pending.extend(_imported(path))
        pending.extend(_parents(name))
    return tuple(sorted(set(seen.values())))


def code_hash(module: str, root: Path) -> str:
    """sha256 over the names and contents of ``module_files(module)`` (16 hex digits)."""
    digest = hashlib.sha256()
    for path in module_files(module, root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
