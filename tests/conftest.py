"""Shared fixtures: the real default build of the repository."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest
from build_helpers import ROOT, snakemake


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to test a compiled module older than its source (edited without a rebuild)."""
    for source in sorted((ROOT / "lexforge").glob("*.pyx")):
        built = Path(importlib.import_module(f"lexforge.{source.stem}").__file__)
        if source.stat().st_mtime > built.stat().st_mtime:
            rebuild = "run pip install --no-deps -e ."
            pytest.exit(f"{built.name} is older than {source.name}: {rebuild}", 2)


@pytest.fixture(scope="session", autouse=True)
def private_user_dirs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep the tests (and the commands they run) out of the user's data directory and -d cache."""
    home = tmp_path_factory.mktemp("user")
    os.environ["XDG_DATA_HOME"] = str(home / "data")
    os.environ["LEXFORGE_CACHE"] = str(home / "cache")
    os.environ.pop("LEXFORGE_PATH", None)
    os.environ.pop("LEXFORGE_LEXICON", None)


@pytest.fixture(scope="session")
def build_dir() -> Path:
    """The default lexicons, built by the real Snakefile in the repository (no-op when fresh)."""
    snakemake(ROOT, "all")
    return ROOT / "build"
