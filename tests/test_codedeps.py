"""The steps' code dependencies (pipeline.codedeps), found by the shape of import lines, against
Python's own parser: every module a project file imports, as ``ast`` reads it, is found; and each
step depends on exactly the files the parsed imports lead to."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from build_helpers import ROOT

from pipeline import codedeps

PROJECT_FILES = sorted(
    path for package in codedeps.PROJECT_PACKAGES for path in (ROOT / package).rglob("*.py")
)
STEPS = sorted(
    f"pipeline.{path.stem}" for path in (ROOT / "pipeline").glob("*.py") if path.stem != "__init__"
)


def parsed_imports(path: Path) -> frozenset[str]:
    names: set[str] = set()
    if path.suffix == ".pyx":  # Cython: not Python syntax, and it imports no project module
        return frozenset()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(names)


@pytest.mark.parametrize("path", PROJECT_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_import_is_found(path):
    assert parsed_imports(path) <= codedeps._imported(path)


def test_tricky_import_shapes_are_found(tmp_path):
    module = tmp_path / "shapes.py"
    module.write_text(
        "import os, lexforge.grid as g  # comment\n"
        "from pipeline.step import (\n    lexicon_spec,  # why\n    step_parser as parser,\n)\n"
        "def f():\n    from lexforge import anagram\n"
        "from . import relative\n",
        encoding="utf-8",
    )
    assert parsed_imports(module) == codedeps._imported(module) - {"."}
    assert "lexforge.anagram" in codedeps._imported(module)


def test_each_step_depends_on_the_files_its_parsed_imports_reach(monkeypatch):
    found = {step: codedeps.module_files(step, ROOT) for step in STEPS}
    monkeypatch.setattr(codedeps, "_imported", parsed_imports)
    monkeypatch.setattr(codedeps, "module_files", codedeps.module_files.__wrapped__)
    assert {step: codedeps.module_files(step, ROOT) for step in STEPS} == found
