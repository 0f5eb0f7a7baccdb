"""Write docs/cli-reference.md, every command's ``--help``, from the parser itself.

    .venv/bin/python scripts/cli-reference.py          # rewrite the page
    .venv/bin/python scripts/cli-reference.py --check  # exit 1 if the page is stale

tests/test_cli_reference.py runs the check, so a changed option shows up in the page.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "cli-reference.md"
WIDTH = "100"  # columns argparse wraps the help to, whatever the terminal

HEADER = """# Command reference

Every command's `--help`, as `lexforge COMMAND --help` prints it. The guide to using them is
[The command line](cli.md). This page is generated from the parser by
`scripts/cli-reference.py`; a test fails when it is out of date.
"""


def reference() -> str:
    """The page's text: the header, then per command its name and its help."""
    os.environ["COLUMNS"] = WIDTH
    from lexforge.cli import HIDDEN_COMMANDS, build_parser
    from lexforge.completion import _subcommands

    parts = [HEADER]
    for name, sub in _subcommands(build_parser()).items():
        spoken = name.replace("-", " ", 1) if name in HIDDEN_COMMANDS else name
        help_text = sub.format_help().rstrip()
        parts.append(f"\n## lexforge {spoken}\n\n```text\n{help_text}\n```\n")
    return "".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    args = parser.parse_args()
    text = reference()
    if args.check:
        if PAGE.read_text(encoding="utf-8") != text:
            print(
                f"{PAGE.relative_to(ROOT)} is stale: run scripts/cli-reference.py", file=sys.stderr
            )
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
