"""docs/cli-reference.md is every command's current ``--help``, and docs/cli.md's command table
names every command."""

from __future__ import annotations

import re
import subprocess
import sys

from build_helpers import ROOT

from lexforge.cli import build_parser, visible_commands


def test_the_reference_page_is_current():
    result = subprocess.run(
        [sys.executable, "scripts/cli-reference.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_every_command_has_a_row_in_the_guide():
    guide = (ROOT / "docs/cli.md").read_text(encoding="utf-8")
    table = guide.split("## Commands", 1)[1].split("\n## ", 1)[0]
    named = {cell.split()[0] for cell in re.findall(r"^\| `([^`]+)`", table, re.M)}
    missing = [c for c in visible_commands(build_parser()) if c not in named]
    assert not missing, f"docs/cli.md's command table lacks: {missing}"
