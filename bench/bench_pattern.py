"""Crossword patterns on the largest lexicon, lexforge against grep: prints figures, asserts
nothing.

    .venv/bin/python bench/bench_pattern.py [--lexicon NAME] [--runs 5] [--lexforge PATH]

Each pattern runs as a user runs it, one process per query (process start included), output
to a pipe that is read and dropped: ``lexforge pattern P --lexicon NAME`` and ``grep -c`` with
the same pattern as a regular expression over the lexicon's ``words.txt`` (the floor: a scan of
the file). Each line gives the pattern, the number of words each found (they must agree), and
the median wall and CPU (user + system) time of each. ``--lexforge`` times another installed
lexforge (e.g. an older checkout's) on the same lexicon.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from lexforge.paths import find_lexicon_dir, list_lexicons

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))
#: Patterns with at least one fixed letter: a scan of every word for most of them.
PATTERNS = ("*A*E*I*", "C?A??", "*TION", "*Q*", "?????Z", "MAN*", "*")


def timed(command: list[str]) -> tuple[float, float, bytes]:
    """Wall and CPU seconds of ``command`` (a child process), and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, done.stdout


def as_regex(pattern: str) -> str:
    """The pattern as grep's whole-line regular expression."""
    return "^" + re.escape(pattern).replace(r"\?", ".").replace(r"\*", ".*") + "$"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", help="default: the largest on the search path")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lexforge", default=LEXFORGE, help="the lexforge command to time")
    args = parser.parse_args()
    if args.lexicon is None:
        largest = max(list_lexicons(), key=lambda found: (found.path / "words.txt").stat().st_size)
        args.lexicon = largest.name
    words = find_lexicon_dir(args.lexicon) / "words.txt"
    size = words.stat().st_size
    print(f"lexicon {args.lexicon}: {words} ({size / 1e6:.1f} MB), median of {args.runs} runs")
    print(f"{'pattern':<10} {'words':>8}  {'lexforge wall / cpu':>20}  {'grep wall / cpu':>16}")
    environment = {**os.environ, "LC_ALL": "C.UTF-8"}
    os.environ.update(environment)
    for pattern in PATTERNS:
        ours = [timed([args.lexforge, "pattern", pattern, "--lexicon", args.lexicon])]
        ours += [
            timed([args.lexforge, "pattern", pattern, "--lexicon", args.lexicon])
            for _ in range(args.runs - 1)
        ]
        theirs = [timed(["grep", "-c", as_regex(pattern), str(words)]) for _ in range(args.runs)]
        found = len(ours[0][2].splitlines())
        expected = int(theirs[0][2])
        agree = "" if found == expected else f"  (grep: {expected})"
        wall = statistics.median(t[0] for t in ours)
        cpu = statistics.median(t[1] for t in ours)
        grep_wall = statistics.median(t[0] for t in theirs)
        grep_cpu = statistics.median(t[1] for t in theirs)
        print(
            f"{pattern:<10} {found:>8}  {wall:8.2f} / {cpu:5.2f} s  "
            f"{grep_wall:6.2f} / {grep_cpu:5.2f} s{agree}"
        )


if __name__ == "__main__":
    main()
