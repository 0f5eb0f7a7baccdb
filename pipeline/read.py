"""Inspect a raw source: print its entries, one per line, UTF-8, before normalization.

    python -m pipeline.read --format FORMAT PATH [--encoding ENC]

FORMAT is one of dict, ods, freelang, aspell, hunspell, curation.

For aspell, every expanded form is printed (as ``aspell dump master | aspell expand`` would); for
hunspell (PATH is the .dic, its .aff beside it), every form hunspell accepts, compounds aside.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lexforge.errors import report_user_errors
from lexforge.sources import FORMATS
from lexforge.sources.read import read_entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pipeline.read", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--format", choices=FORMATS, required=True)
    parser.add_argument("--encoding", help="override the format's default encoding")
    parser.add_argument("path", type=Path)
    args = parser.parse_args(argv)
    out = sys.stdout
    out.reconfigure(encoding="utf-8", newline="\n")
    for entry in read_entries(args.format, args.path, args.encoding):
        out.write(entry)
        out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
