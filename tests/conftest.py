"""Shared fixtures: the real default build of the repository."""

from __future__ import annotations

from pathlib import Path

import pytest
from build_helpers import ROOT, snakemake


@pytest.fixture(scope="session")
def build_dir() -> Path:
    """The default lexicons, built by the real Snakefile in the repository (no-op when fresh)."""
    snakemake(ROOT, "all")
    return ROOT / "build"
