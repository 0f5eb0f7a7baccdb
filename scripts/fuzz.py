"""The fuzz suite's longer run: hostile command lines for every command, counted by outcome.

    .venv/bin/python scripts/fuzz.py [--examples 2000] [--lexicons build]

Runs tests/fuzz_harness.py's cases (the ones tests/test_fuzz.py runs, ``EXAMPLES`` per command,
in CI) ``--examples`` times per command against the built lexicons, and prints per command the
number of cases that answered, failed with one error line, or were defects (listed after the
table, with their command lines). Exit status 1 if there was any defect.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fuzz_harness import COMMANDS, command_lines, run  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402


def fuzz(command: str, examples: int) -> tuple[Counter[str], list[tuple[list[str], str, str]]]:
    """Outcome counts of ``examples`` hostile command lines of ``command``, and the defects."""
    counts: Counter[str] = Counter()
    defects = []

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=command_lines(command))
    def one(case: tuple[list[str], str]) -> None:
        argv, stdin = case
        outcome = run(argv, stdin)
        counts[outcome.kind] += 1
        if outcome.kind == "defect":
            defects.append((argv, stdin, outcome.stderr))

    one()
    return counts, defects


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000, help="cases per command")
    parser.add_argument("--lexicons", type=Path, default=ROOT / "build", help="$LEXFORGE_PATH")
    args = parser.parse_args()
    os.environ["LEXFORGE_PATH"] = str(args.lexicons)
    total: Counter[str] = Counter()
    defects = []
    print(f"{'command':<10}{'cases':>8}{'answers':>9}{'errors':>8}{'defects':>9}{'seconds':>9}")
    for command in sorted(COMMANDS):
        start = time.perf_counter()
        counts, found = fuzz(command, args.examples)
        seconds = time.perf_counter() - start
        total += counts
        defects += found
        cases = sum(counts.values())
        print(
            f"{command:<10}{cases:>8}{counts['answer']:>9}{counts['error']:>8}"
            f"{counts['defect']:>9}{seconds:>9.1f}"
        )
    cases = sum(total.values())
    print(f"{'all':<10}{cases:>8}{total['answer']:>9}{total['error']:>8}{total['defect']:>9}")
    for argv, stdin, stderr in defects:
        print(f"\nDEFECT: lexforge {argv!r} <<< {stdin[:80]!r}\n{stderr[-1500:]}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
