"""Running the project's Snakefile from tests, in the repository or in a temporary tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NEWLANG = Path(__file__).resolve().parent / "fixtures" / "newlang"


def snakemake(workdir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run the project's Snakefile in ``workdir`` (its config/ and raw/ are used)."""
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(ROOT / "Snakefile"),
        "--directory",
        str(workdir),
        "--cores",
        "2",
        *args,
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if check and done.returncode:
        pytest.fail(
            f"snakemake {' '.join(args)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
        )
    return done


def copy_newlang(target: Path) -> Path:
    """A fresh copy of the fixture language tree (config/, raw/) in ``target``."""
    shutil.copytree(NEWLANG, target)
    return target
