"""Which of the project's source files a build step runs: its code dependency, derived.

Each rule hashes the files its step imports (transitively, lazy imports included) into its
parameters, so editing any module a step uses reruns that step and no other. Only the project's
own packages count (``lexforge``, ``pipeline``); a compiled module counts by its ``.pyx``.
"""

from __future__ import annotations

import ast
import hashlib
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


@cache  # parsed once a planning: the steps share most of their modules
def _imported(path: Path) -> frozenset[str]:
    """Every module name ``path`` imports, including ``package.name`` for ``from package import
    name`` (which may be a submodule)."""
    names: set[str] = set()
    if path.suffix == ".pyx":  # the compiled search imports no project module
        return frozenset()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(names)


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
